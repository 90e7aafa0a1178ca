"""Migration 0009 on a database that already holds accounts and matches: the tournament
tables come, empty, and tournaments can be made at once; the way back drops them and keeps
the rest."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import Connection, Engine, insert, inspect, select
from test_tournaments import app_for, new_tournament
from tournament_players import Player

from backgammon.server import Settings
from backgammon.server.db import UserRow, now

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

TABLES = {"tournaments", "tournament_players", "tournament_matches"}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0008 holding an account, then migrated to the newest."""

    def fill(connection: Connection) -> None:
        assert not TABLES & set(inspect(connection).get_table_names())
        connection.execute(insert(UserRow.__table__).values(
            name="Oldtimer", name_key="oldtimer", password_hash="x", rating=1612.5,
            experience=40, created_at=now(), hidden=False,
        ))

    with migrated_from(database.database_url, "0008", fill) as engine:
        yield engine


def test_the_tables_come_and_tournaments_can_be_made(
    upgraded: Engine, database: Settings
) -> None:
    with upgraded.connect() as connection:
        assert set(inspect(connection).get_table_names()) >= TABLES
        assert connection.execute(select(UserRow.name)).scalars().all() == ["Oldtimer"]
    with TestClient(app_for(database)) as client:
        made = new_tournament(Player(client, "Newcomer", shared=True))
        assert made["status"] == "open"
        assert client.get("/api/players/Oldtimer").json()["rating"] == 1612.5


def test_the_way_back_drops_the_tables(upgraded: Engine) -> None:
    tables, _ = back_to(upgraded, "0008")
    assert not TABLES & tables and {"users", "matches"} <= tables
