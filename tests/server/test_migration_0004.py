"""Migration 0004 on a database that already holds matches: the seating's indexed columns
(invite digest, open, listed) filled in from each row's settings, the lobby and the joins
answered from them (through the indexes), and a match saved before seats had tokens made
playable again by whoever takes its seats first."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from migrating import migrated_from
from sqlalchemy import Connection, Engine, event, insert, select
from test_api import client_for

from backgammon.game.match import Match
from backgammon.server import Settings
from backgammon.server.db import MatchRow, now
from backgammon.server.lobby.queries import find_invite, open_matches
from backgammon.server.play.seats import digest_of

HUMANS = [{"kind": "human", "level": None}] * 2
KEY = {"digest": digest_of("creator"), "seats": [0]}


def _seating(invite: dict[str, Any] | None = None, spent: str | None = None) -> dict[str, Any]:
    """An online match's seating as 0003's server wrote it."""
    return {"keys": [KEY], "online": True, "invite": invite, "claim_seconds": 0.0,
            "spent": spent}


#: Rows as the server before 0004 left them: a local match from before seat tokens, an online
#: match listed in the lobby, one whose invite is private, one whose invite is spent.
OLD_ROWS = {
    "old-local": {"seats": HUMANS, "seed": 3},
    "listed": {"seats": HUMANS, "seed": None, "seating": _seating(
        {"digest": digest_of("lobby-invite"), "seat": 1, "public": "lobby-invite"})},
    "private": {"seats": HUMANS, "seed": None, "seating": _seating(
        {"digest": digest_of("friend-invite"), "seat": 1, "public": None})},
    "spent": {"seats": HUMANS, "seed": None, "seating": _seating(spent=digest_of("used"))},
}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[Engine]:
    """A database at revision 0003 holding ``OLD_ROWS``, then migrated to the newest."""

    def fill(connection: Connection) -> None:
        stamp = now()
        for match_id, settings in OLD_ROWS.items():
            connection.execute(insert(MatchRow.__table__).values(
                id=match_id, created_at=stamp, updated_at=stamp, settings=settings,
                record=Match(3).to_dict(), version=0,
            ))

    with migrated_from(database.database_url, "0003", fill) as engine:
        yield engine


def test_the_columns_are_filled_in_from_the_old_rows(upgraded: Engine) -> None:
    with upgraded.connect() as connection:
        rows = connection.execute(select(
            MatchRow.id, MatchRow.invite_digest, MatchRow.waiting, MatchRow.listed)).all()
    assert {row[0]: tuple(row[1:]) for row in rows} == {
        "old-local": (None, False, False),
        "listed": (digest_of("lobby-invite"), True, True),
        "private": (digest_of("friend-invite"), True, False),
        "spent": (digest_of("used"), False, False),
    }
    assert [entry.id for entry in open_matches(upgraded, 10)] == ["listed"]
    assert find_invite(upgraded, digest_of("friend-invite")) == ("private", False)
    assert find_invite(upgraded, digest_of("used")) == ("spent", True)
    assert find_invite(upgraded, digest_of("guess")) is None


def test_the_old_rows_keep_working(upgraded: Engine, database: Settings) -> None:
    with client_for(database) as client:
        assert [entry["id"] for entry in client.get("/api/lobby").json()] == ["listed"]
        joined = client.post("/api/matches/join", json={"invite": "lobby-invite"})
        assert joined.status_code == 200, joined.text
        assert client.get("/api/lobby").json() == []
        again = client.post("/api/matches/join", json={"invite": "lobby-invite"})
        assert again.status_code == 410
        assert client.post("/api/matches/join", json={"invite": "used"}).status_code == 410
        rolled = client.post("/api/matches/listed/actions",
                             json={"seat": 1, "action": "roll", "version": 1},
                             headers={"Authorization": f"Bearer {joined.json()['token']}"})
        assert rolled.status_code == 200, rolled.text


def test_a_match_from_before_seat_tokens_is_taken_by_its_first_taker(
    upgraded: Engine, database: Settings
) -> None:
    with client_for(database) as client:
        state = client.get("/api/matches/old-local").json()
        assert state["unheld"] and state["actions"] == [["roll"], ["roll"]]
        refused = client.post("/api/matches/old-local/actions",
                              json={"seat": 0, "action": "roll", "version": 0})
        assert refused.status_code == 401
        taken = client.post("/api/matches/old-local/take")
        assert taken.status_code == 200, taken.text
        assert taken.json()["seats"] == [0, 1]  # both people at one screen
        headers = {"Authorization": f"Bearer {taken.json()['token']}"}
        rolled = client.post("/api/matches/old-local/actions",
                             json={"seat": 0, "action": "roll", "version": 0}, headers=headers)
        assert rolled.status_code == 200, rolled.text
        assert not rolled.json()["unheld"]
        late = client.post("/api/matches/old-local/take")
        assert late.status_code == 409 and "held already" in late.json()["detail"]
        assert client.post("/api/matches/listed/take").status_code == 409


def test_the_lobby_and_the_invites_are_looked_up_through_their_indexes(
    upgraded: Engine,
) -> None:
    if upgraded.dialect.name != "sqlite":
        pytest.skip("the query plan is read from SQLite's EXPLAIN QUERY PLAN")
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    event.listen(upgraded, "before_cursor_execute", seen)
    find_invite(upgraded, digest_of("friend-invite"))
    open_matches(upgraded, 10)
    event.remove(upgraded, "before_cursor_execute", seen)
    with upgraded.connect() as connection:
        plans = [
            " ".join(str(row[-1]) for row in connection.exec_driver_sql(
                f"EXPLAIN QUERY PLAN {statement}", parameters))
            for statement, parameters in statements
        ]
    assert "INDEX ix_matches_invite_digest" in plans[0], plans
    assert "INDEX ix_matches_listed" in plans[1], plans
