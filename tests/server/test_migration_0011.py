"""Migration 0011 on a database that already holds matches, an account and a rated result:
each match is given the game it plays (read from its record), each result backgammon's, the
per-game ratings' table comes empty; the way back drops them and keeps the rest."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import JSON, Connection, Engine, String, column, insert, inspect, select, table

from backgammon.game import BoardMatch, Match, Rules
from backgammon.games import TAVLI
from backgammon.server import Settings
from backgammon.server.db import GameRatingRow, MatchRow, RatedResultRow, UserRow, now

#: The matches before the migration, by id: their records.
RECORDS = {
    "backgammon": Match(3).to_dict(),
    "plakoto": BoardMatch(3, Rules.for_game("plakoto")).to_dict(),
    "tavli": BoardMatch(5, rotation=TAVLI).to_dict(),
}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0010 holding three matches, two accounts and a rated result,
    then migrated to the newest."""

    def fill(connection: Connection) -> None:
        assert "game" not in {c["name"] for c in inspect(connection).get_columns("matches")}
        # The tables as 0010 has them: only the columns it knows.
        matches = table("matches", column("id", String), column("created_at"),
                        column("updated_at"), column("settings", JSON), column("record", JSON),
                        column("version"))
        for match_id, record in RECORDS.items():
            connection.execute(insert(matches).values(
                id=match_id, created_at=now(), updated_at=now(), settings={}, record=record,
                version=0))
        for name in ("Ann", "Bob"):
            connection.execute(insert(UserRow.__table__).values(
                name=name, name_key=name.lower(), password_hash="x", rating=1500.0,
                experience=0, created_at=now(), hidden=False))
        users = connection.execute(select(UserRow.id).order_by(UserRow.id)).scalars().all()
        results = table("rated_results", *(column(name) for name in (
            "match_id", "user0", "user1", "length", "winner", "rating0", "rating1", "change0",
            "change1", "finished_at")))
        connection.execute(insert(results).values(
            match_id="backgammon", user0=users[0], user1=users[1], length=3, winner=0,
            rating0=1500.0, rating1=1500.0, change0=10.0, change1=-10.0, finished_at=now()))

    with migrated_from(database.database_url, "0010", fill) as engine:
        yield engine


def test_each_match_plays_its_game_and_the_results_are_backgammons(upgraded: Engine) -> None:
    with upgraded.connect() as connection:
        games = {row.id: row.game for row in connection.execute(
            select(MatchRow.id, MatchRow.game))}
        assert games == {"backgammon": "backgammon", "plakoto": "plakoto", "tavli": "tavli"}
        assert connection.execute(select(RatedResultRow.game)).scalars().all() == [
            "backgammon"]
        assert connection.execute(select(GameRatingRow)).all() == []


def test_the_way_back_drops_the_games(upgraded: Engine) -> None:
    tables, columns = back_to(upgraded, "0010")
    assert "game_ratings" not in tables
    assert "game" not in columns["matches"] and "game" not in columns["rated_results"]
    with upgraded.connect() as connection:
        assert len(connection.execute(select(MatchRow.id)).all()) == 3
