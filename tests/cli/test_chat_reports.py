"""``backgammon reports``: the chat's reports for the site's admins (a report made through the
API and listed: tests/server/test_chat.py); here, a database with none, and one the server
never brought up to date."""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.cli import main
from backgammon.server.db import make_engine, migrate
from backgammon.server.settings import sqlite_url


def test_no_report_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = sqlite_url(tmp_path / "games.sqlite")
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    assert main(["reports", "--database-url", url]) == 0
    assert capsys.readouterr().out == "No message has been reported.\n"
    assert main(["reports", "--database-url", url, "--json"]) == 0
    assert capsys.readouterr().out == "[]\n"


def test_a_database_without_the_table_is_refused_with_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.sqlite"
    engine = make_engine(sqlite_url(empty))
    engine.connect().close()  # an SQLite file, without the server's tables
    engine.dispose()
    with pytest.raises(SystemExit) as exited:
        main(["reports", "--database-url", sqlite_url(empty)])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "holds no reports' table" in error and "Traceback" not in error


def test_a_path_with_no_database_is_refused_and_left_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo" / "games.sqlite"
    with pytest.raises(SystemExit) as exited:
        main(["reports", "--database-url", sqlite_url(missing)])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "no SQLite database at the path given" in error and "Traceback" not in error
    assert not missing.parent.exists()  # nothing made on the way
