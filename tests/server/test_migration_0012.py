"""Migration 0012 on a database that already holds a tournament: it is backgammon's, and
tournaments of the other games can be made at once; the way back drops the column and keeps
the tournaments."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import Connection, Engine, String, column, insert, inspect, select, table
from test_tournaments import app_for, new_tournament
from tournament_players import Player

from backgammon.server import Settings
from backgammon.server.db import TournamentRow, UserRow, now

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0011 holding an account and its open tournament, then migrated
    to the newest."""

    def fill(connection: Connection) -> None:
        assert "game" not in {c["name"] for c in inspect(connection).get_columns("tournaments")}
        connection.execute(insert(UserRow).values(
            name="Oldtimer", name_key="oldtimer", password_hash="x", rating=1500.0,
            experience=0, created_at=now(), hidden=False))
        creator = connection.scalar(select(UserRow.id))
        # The table as 0011 has it: only the columns it knows.
        tournaments = table("tournaments", *(column(name) for name in (
            "id", "kind", "creator_id", "length", "time_control", "rated", "max_players",
            "status", "version", "secret", "created_at")), column("name", String))
        connection.execute(insert(tournaments).values(
            id="old", name="Old cup", kind="elimination", creator_id=creator, length=3,
            time_control="none", rated=False, max_players=4, status="open", version=0,
            secret="k" * 64, created_at=now()))

    with migrated_from(database.database_url, "0011", fill) as engine:
        yield engine


def test_the_tournaments_before_are_backgammons(upgraded: Engine, database: Settings) -> None:
    with upgraded.connect() as connection:
        assert connection.execute(select(TournamentRow.id, TournamentRow.game)).all() == [
            ("old", "backgammon")]
    with TestClient(app_for(database)) as client:
        assert client.get("/api/tournaments/old").json()["game"] == "backgammon"
        made = new_tournament(Player(client, "Newcomer", shared=True), game="fevga")
        assert made["game"] == "fevga"


def test_the_way_back_drops_the_game(upgraded: Engine) -> None:
    tables, columns = back_to(upgraded, "0011")
    assert "tournaments" in tables and "game" not in columns["tournaments"]
    with upgraded.connect() as connection:
        assert connection.execute(select(TournamentRow.id)).scalars().all() == ["old"]
