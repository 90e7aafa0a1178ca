"""An action's save on SQLite, sent on the driver's own connection (``saves.DriverSaves``),
writes exactly what SQLAlchemy's way writes, all or nothing: the row and the key, or, on a
stale version or a failure, neither."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from backgammon.dice import SeededDice
from backgammon.game import Act, Action
from backgammon.match import Match
from backgammon.server.db import MatchRow, make_engine, migrate, now
from backgammon.server.keys import KeptKey
from backgammon.server.saves import SAVE, DriverSaves, MatchChangedError, keeping, save_values


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'games.sqlite'}")
    migrate(engine)
    stamp = now()
    with Session(engine) as session, session.begin():
        for match_id in ("by-sqlalchemy", "by-driver"):
            session.add(MatchRow(id=match_id, created_at=stamp, updated_at=stamp,
                                 settings={}, record={}, version=0))
    return engine


def played() -> Match:
    match = Match(3, dice=SeededDice(11))
    match.game.act(0, Act(Action.ROLL))
    return match


def rows(engine: Engine, table: str, match_id: str) -> list[tuple[Any, ...]]:
    """The rows of ``table`` for ``match_id``, as SQLite holds them, without the id."""
    column = "id" if table == "matches" else "match_id"
    with engine.connect() as connection:
        found = connection.execute(
            text(f"SELECT * FROM {table} WHERE {column} = :id"), {"id": match_id}
        )
        return [tuple(value for value in row if value != match_id) for row in found]


def test_the_driver_writes_what_sqlalchemy_writes(engine: Engine) -> None:
    match, key = played(), KeptKey(1, "a-key", "a-digest")
    values = save_values("by-sqlalchemy", match, 1, 0, key)
    with engine.begin() as connection:
        assert connection.execute(SAVE, values).rowcount == 1
        connection.execute(keeping("sqlite")[0], values)
    driver = DriverSaves(engine, keeping("sqlite")[0])
    driver.save({**values, "match_id": "by-driver"}, keep=True)
    driver.close()
    for table in ("matches", "action_keys"):
        assert rows(engine, table, "by-driver") == rows(engine, table, "by-sqlalchemy") != []


def test_a_save_on_a_stale_version_writes_nothing(engine: Engine) -> None:
    driver = DriverSaves(engine, keeping("sqlite")[0])
    values = save_values("by-driver", played(), 1, 0, KeptKey(0, "k", "d"))
    driver.save(values, keep=True)
    def written() -> tuple[object, ...]:
        return rows(engine, "matches", "by-driver"), rows(engine, "action_keys", "by-driver")

    before = written()
    with pytest.raises(MatchChangedError):
        driver.save({**values, "the_key": "another"}, keep=True)  # on version 0 again
    assert written() == before
    driver.save({**values, "before": 1, "new_version": 2}, keep=False)  # the connection goes on
    assert rows(engine, "matches", "by-driver")[0][-4] == 2


def test_a_failed_save_is_sqlalchemys_error_and_writes_nothing(engine: Engine) -> None:
    driver = DriverSaves(engine, keeping("sqlite")[0])
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE action_keys"))
    before = rows(engine, "matches", "by-driver")
    values = save_values("by-driver", played(), 1, 0, KeptKey(0, "k", "d"))
    with pytest.raises(DBAPIError, match="action_keys"):
        driver.save(values, keep=True)  # the row's write is taken back with the key's
    assert rows(engine, "matches", "by-driver") == before
    driver.save(values, keep=False)
    assert rows(engine, "matches", "by-driver") != before
