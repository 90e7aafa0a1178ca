"""The lobby's details (the creator's rating, the match's rules, whether it is rated) and the
live matches spectators may watch (``GET /api/matches/live``), through FastAPI's test client.

A live match is an online match both of whose players have come, listed in the lobby by its
creator, not over, acted in within the hour; its entry names the players, signed-in players'
ratings and the score, and holds no token, invite or digest.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event, update

from backgammon.server import Settings, create_app
from backgammon.server.db import MatchRow, now
from backgammon.server.lobby.queries import live_matches
from backgammon.server.play.seats import digest_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

SEED = 11  # seat 1 wins the opening roll, 5 against 4
PASSWORD = "correct horse battery"
State = dict[str, Any]


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    """A client of the app on SQLite, then on PostgreSQL with Redis (conftest.py)."""
    settings = replace(database, computer_pause=0, allow_seed=True, create_rate=None,
                       hint_rate=None, action_rate=None, upload_rate=None, signin_rate=None)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def create(client: TestClient, headers: dict[str, str] | None = None, **options: Any) -> State:
    response = client.post("/api/matches", json={"seed": SEED, **options}, headers=headers)
    assert response.status_code == 201, response.text
    created: State = response.json()
    return created


def join(client: TestClient, invite: str, headers: dict[str, str] | None = None,
         **body: Any) -> State:
    response = client.post("/api/matches/join", json={"invite": invite, **body}, headers=headers)
    assert response.status_code == 200, response.text
    joined: State = response.json()
    return joined


def act(client: TestClient, match_id: str, token: str, **action: Any) -> None:
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    response = client.post(f"/api/matches/{match_id}/actions", json={**action, "version": version},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200, response.text


def live(client: TestClient) -> list[State]:
    response = client.get("/api/matches/live")
    assert response.status_code == 200, response.text
    entries: list[State] = response.json()
    return entries


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """A new account, signed in on ``client``: the header its state-changing requests send."""
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"X-CSRF-Token": client.cookies["bg_csrf"]}


def test_only_public_online_matches_both_players_have_come_to_are_live(
    client: TestClient,
) -> None:
    public = create(client, opponent="online", lobby=True, length=3, names=["Ann", "Player"],
                    clock="fast")
    private = create(client, opponent="online", lobby=False, length=3)
    waiting = create(client, opponent="online", lobby=True)
    create(client, opponent="human")
    create(client, opponent="computer")
    assert live(client) == []  # nobody has come yet
    # The lobby shows what the match is: its length, the Crawford rule, its rules, unrated.
    listed = {entry["id"]: entry for entry in client.get("/api/lobby").json()}
    assert set(listed) == {public["id"], waiting["id"]}
    assert (listed[public["id"]]["length"], listed[public["id"]]["crawford"],
            listed[public["id"]]["rated"], listed[public["id"]]["rating"]) == (3, True, False, None)
    assert listed[public["id"]]["rules"]["jacoby"] is False
    bob = join(client, public["invite"], name="Bob")
    join(client, private["invite"])

    entries = live(client)
    assert [entry["id"] for entry in entries] == [public["id"]]
    entry = entries[0]
    assert entry["players"] == [{"name": "Ann", "rating": None}, {"name": "Bob", "rating": None}]
    assert (entry["score"], entry["length"], entry["rated"]) == ([0, 0], 3, False)
    # The time control, as the lobby showed it.
    assert entry["clock"] == listed[public["id"]]["clock"] == {
        "delay": 8, "bank": 20, "preset": "fast"}
    # Nothing in the answer lets a spectator act: no token, no invite, no digest of either.
    text = client.get("/api/matches/live").text
    secrets = [public["token"], bob["token"], public["invite"], private["token"],
               private["invite"], waiting["invite"]]
    for secret in secrets:
        assert secret not in text and digest_of(secret) not in text
    assert set(entry) == {"id", "players", "score", "length", "rated", "clock", "updated_at",
                          "game"}
    assert entry["game"] == "backgammon"


def test_a_live_match_shows_its_score_and_leaves_the_list_when_over(client: TestClient) -> None:
    created = create(client, opponent="online", lobby=True, length=3, names=["Ann", "Player"])
    match_id = created["id"]
    joined = join(client, created["invite"], name="Bob")
    tokens = (created["token"], joined["token"])
    # The opening roll, each player throwing their own die: seat 1 moves.
    act(client, match_id, tokens[0], seat=0, action="roll")
    act(client, match_id, tokens[1], seat=1, action="roll")
    act(client, match_id, joined["token"], seat=1, action="resign", level=1)
    act(client, match_id, created["token"], seat=0, action="accept")
    assert [entry["score"] for entry in live(client)] == [[1, 0]]
    while (state := client.get(f"/api/matches/{match_id}").json())["phase"] == "opening":
        seat = 0 if state["to_act"] is None else state["to_act"]  # again after a tie
        act(client, match_id, tokens[seat], seat=seat, action="roll")
    mover = state["to_act"]
    act(client, match_id, tokens[mover], seat=mover, action="resign", level=3)
    act(client, match_id, tokens[1 - mover], seat=1 - mover, action="accept")
    assert client.get(f"/api/matches/{match_id}").json()["match_over"]
    assert live(client) == []


def test_a_match_nobody_has_acted_in_for_an_hour_is_not_live(client: TestClient) -> None:
    created = create(client, opponent="online", lobby=True)
    join(client, created["invite"])
    assert len(live(client)) == 1
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(update(MatchRow).values(updated_at=now() - timedelta(hours=2)))
    assert live(client) == []


def test_signed_in_players_are_shown_with_their_ratings(client: TestClient) -> None:
    alice = sign_up(client, "Alice")
    created = create(client, alice, opponent="online", lobby=True, length=5, rated=True,
                     names=["Al", "Player"])
    [entry] = client.get("/api/lobby").json()
    assert (entry["creator"], entry["rating"], entry["rated"]) == ("Alice", 1500.0, True)
    client.cookies.clear()
    bobby = sign_up(client, "Bobby")
    join(client, created["invite"], bobby)
    [entry] = live(client)
    assert entry["players"] == [{"name": "Alice", "rating": 1500.0},
                                {"name": "Bobby", "rating": 1500.0}]
    assert entry["rated"] is True


def test_the_live_matches_are_looked_up_through_the_invites_index(client: TestClient) -> None:
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    if engine.dialect.name != "sqlite":
        pytest.skip("the query plan is read from SQLite's EXPLAIN QUERY PLAN")
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", seen)
    live_matches(engine, 10)
    event.remove(engine, "before_cursor_execute", seen)
    with engine.connect() as connection:
        plan = " ".join(str(row[-1]) for row in connection.exec_driver_sql(
            f"EXPLAIN QUERY PLAN {statements[0][0]}", statements[0][1]))
    assert "INDEX ix_matches_invite_digest" in plan, plan


def test_the_list_reads_no_match_again_whose_copy_is_at_its_rows_version(
    client: TestClient,
) -> None:
    created = create(client, opponent="online", lobby=True, length=3)
    join(client, created["invite"])
    assert [entry["id"] for entry in live(client)] == [created["id"]]
    engine = client.app.state.store.engine  # type: ignore[attr-defined]
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        statements.append(statement)

    event.listen(engine, "before_cursor_execute", seen)
    try:
        entries = live(client)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert [entry["id"] for entry in entries] == [created["id"]]
    # One query, the list with its accounts joined: the match's copy, in memory at the
    # listed version, is not read from its row again (every open lobby asks for the list
    # every few seconds).
    assert len(statements) == 1, statements
