"""A match saved before seats had tokens (an old database, upgraded at start-up): the first
page that opens it takes its seats and plays on; the server then holds it like any other."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from alembic import command
from browser_support import Running, wait_version
from sqlalchemy import insert

from backgammon.game.match import Match
from backgammon.server.db import MatchRow, alembic_config, make_engine, now
from backgammon.server.settings import sqlite_url


def old_database(path: Path) -> None:
    """A database at revision 0003 holding a match at one screen saved without seating."""
    engine = make_engine(sqlite_url(path))
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0003")
        stamp = now()
        connection.execute(insert(MatchRow.__table__).values(
            id="old-local", created_at=stamp, updated_at=stamp, version=0,
            settings={"seats": [{"kind": "human", "level": None}] * 2, "seed": 3},
            record=Match(3).to_dict(),
        ))
    engine.dispose()


def test_the_first_page_to_open_an_old_match_takes_its_seats(
    tmp_path: Path, page: Any
) -> None:
    database = tmp_path / "old.sqlite"
    old_database(database)
    running = Running(database)
    try:
        page.goto(f"{running.url}/?match=old-local")
        page.wait_for_selector('[data-place="p24"]')
        page.wait_for_function(
            "() => (JSON.parse(localStorage.getItem('backgammon.seats') || '{}')['old-local']"
            " || {}).seats?.length === 2"
        )
        page.click("#board", position={"x": 20, "y": 20})  # the opening roll, by a click
        wait_version(page, 1)
        with urllib.request.urlopen(f"{running.url}/api/matches/old-local") as response:
            state: dict[str, Any] = json.load(response)
        assert state["version"] == 1 and not state["unheld"]
    finally:
        running.stop()
