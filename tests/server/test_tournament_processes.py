"""Tournaments served by two processes on one PostgreSQL database, with Redis between them:
eight simulated players, each request sent to each process in turn, play a tournament to its
winner, and a start time passed starts a tournament once, though both processes' periodic
tasks find it due. Nothing is made twice: each place of the draw, each match, each result.

The processes are real (``launch`` of ``conftest.py``); skipped where PostgreSQL or Redis
cannot start.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from tournament_players import PATIENCE, Player, play_out

from backgammon.server import Settings
from backgammon.server.db import (
    MatchRow,
    RatedResultRow,
    TournamentMatchRow,
    TournamentRow,
    make_engine,
    now,
)

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

FAST = {"BACKGAMMON_SIGNIN_RATE": "none", "BACKGAMMON_SWEEP_SECONDS": "0.05"}


@pytest.fixture
def shared(postgres: Any, redis_url: str) -> Settings:
    """A new PostgreSQL database, and Redis."""
    return Settings(postgres.new_database(), redis_url=redis_url)


@pytest.fixture
def clients() -> Iterator[list[Any]]:
    made: list[Any] = []
    yield made
    for client in made:
        client.close()


def field_of(count: int, servers: list[Any], clients: list[Any]) -> list[Player]:
    """``count`` players, each with a client of their own, sending to each server in turn
    (starting with a different one each)."""
    bases = [f"http://127.0.0.1:{server.port}" for server in servers]
    players = []
    for number in range(count):
        client = httpx.Client(timeout=PATIENCE)
        clients.append(client)
        turn = tuple(bases[number % 2:] + bases[:number % 2])
        players.append(Player(client, f"Racer{number}", bases=turn))
    return players


def rows(url: str, tournament_id: str) -> dict[str, Any]:
    """What the database holds of the tournament: its places, their matches, every match."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            places = connection.execute(
                select(TournamentMatchRow.round, TournamentMatchRow.slot,
                       TournamentMatchRow.match_id, TournamentMatchRow.winner)
                .where(TournamentMatchRow.tournament_id == tournament_id)).all()
            return {
                "places": places,
                "matches": connection.scalar(select(func.count()).select_from(MatchRow)),
                "rated": connection.scalar(select(func.count()).select_from(RatedResultRow)),
                "status": connection.scalar(select(TournamentRow.status)
                                            .where(TournamentRow.id == tournament_id)),
            }
    finally:
        engine.dispose()


def test_eight_players_finish_a_tournament_on_two_processes(
    shared: Settings, launch: Any, clients: list[Any]
) -> None:
    servers = [launch(shared, **FAST), launch(shared, **FAST)]
    eight = field_of(8, servers, clients)
    made = eight[0].ok("POST", "/api/tournaments", {
        "name": "Two-process cup", "kind": "elimination", "length": 1, "max_players": 8,
        "rated": True})
    for player in eight[1:]:
        view = player.ok("POST", f"/api/tournaments/{made['id']}/join")
    assert view["status"] == "running" and len(view["draw"]) == 4
    finished, played = play_out(made["id"], eight)
    assert finished["status"] == "finished" and finished["winner"] is not None
    assert len(played) == len(set(played)) == 7
    final = [p for p in finished["draw"] if p["round"] == 2]
    assert len(final) == 1 and final[0]["winner"] == finished["winner"]
    assert [s["place"] for s in finished["standings"]] == [1, 2, 3, 3, 5, 5, 5, 5]
    # Both processes show the same tournament; the database holds each thing once.
    for server in servers:
        status, seen = server.request("GET", f"/api/tournaments/{made['id']}")
        assert status == 200 and seen["winner"] == finished["winner"]
        assert seen["version"] == finished["version"]
    held = rows(shared.database_url, made["id"])
    assert len(held["places"]) == 7 and held["matches"] == 7 and held["rated"] == 7
    assert sorted(place[2] for place in held["places"]) == sorted(played)
    assert all(place[3] is not None for place in held["places"])


def test_a_start_time_starts_a_tournament_once_on_two_processes(
    shared: Settings, launch: Any, clients: list[Any]
) -> None:
    servers = [launch(shared, **FAST), launch(shared, **FAST)]
    five = field_of(5, servers, clients)
    soon = (now() + timedelta(seconds=2)).isoformat()
    made = five[0].ok("POST", "/api/tournaments", {
        "name": "Timed cup", "kind": "round_robin", "length": 1, "max_players": 8,
        "starts_at": soon})
    for player in five[1:]:
        assert player.ok("POST", f"/api/tournaments/{made['id']}/join")["status"] == "open"
    deadline = time.monotonic() + PATIENCE
    while rows(shared.database_url, made["id"])["status"] != "running":
        assert time.monotonic() < deadline, "the tournament did not start"
        time.sleep(0.05)
    # Both processes keep sweeping: the first round stays as it was made, once.
    first = rows(shared.database_url, made["id"])
    assert len(first["places"]) == 2 and first["matches"] == 2  # five players: one rests
    finished, played = play_out(made["id"], five)
    assert finished["status"] == "finished" and len(played) == 10
    held = rows(shared.database_url, made["id"])
    assert len(held["places"]) == 10 and held["matches"] == 10
    assert [s["place"] for s in finished["standings"]] == [1, 2, 3, 4, 5]
