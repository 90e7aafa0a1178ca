"""Migration 0007 on a database that already holds accounts: each gets ``hidden``, false, so
their pages stay public until they choose; and the way back drops it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import Connection, Engine, insert, inspect, select
from test_api import client_for

from backgammon.server import Settings
from backgammon.server.db import UserRow, now


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0006 holding an account, then migrated to the newest."""

    def fill(connection: Connection) -> None:
        assert "hidden" not in {column["name"] for column in inspect(connection).get_columns(
            "users")}
        # Only the columns 0006 has: ``hidden`` has no default on the Python side.
        connection.execute(insert(UserRow.__table__).values(
            name="Oldtimer", name_key="oldtimer", password_hash="x", rating=1612.5,
            experience=40, created_at=now(),
        ))

    with migrated_from(database.database_url, "0006", fill) as engine:
        yield engine


def test_old_accounts_are_not_hidden(upgraded: Engine, database: Settings) -> None:
    with upgraded.connect() as connection:
        assert connection.execute(select(UserRow.name, UserRow.hidden)).all() == [
            ("Oldtimer", False)]
    with client_for(database) as client:
        page = client.get("/players/Oldtimer?lang=en")
        assert page.status_code == 200 and "1612.50" in page.text
        assert client.get("/api/players/Oldtimer").json()["hidden"] is False


def test_the_way_back_drops_the_flag(upgraded: Engine) -> None:
    _, columns = back_to(upgraded, "0006")
    assert "hidden" not in columns["users"] and "rating" in columns["users"]
