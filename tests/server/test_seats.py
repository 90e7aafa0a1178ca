"""Seats that belong to someone: seat tokens, invites, online play, claims, the lobby and
spectators, through FastAPI's test client.

Every refusal is checked for its status, for a sentence, and for the state being exactly what
it was before.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session

from backgammon.server import Settings, create_app
from backgammon.server.db import MatchRow, make_engine
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]
SEED = 11  # seat 1 wins the opening roll, 5 against 4


def client_for(database: Path, **settings: Any) -> TestClient:
    options = {"computer_pause": 0, "allow_seed": True, "create_rate": None, "hint_rate": None,
               "action_rate": None, **settings}
    return TestClient(create_app(Settings(database_url=sqlite_url(database), **options)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, **options: Any) -> State:
    response = client.post("/api/matches", json={"seed": SEED, **options})
    assert response.status_code == 201, response.text
    created: State = response.json()
    return created


def join(client: TestClient, invite: str, **body: Any) -> State:
    response = client.post("/api/matches/join", json={"invite": invite, **body})
    assert response.status_code == 200, response.text
    joined: State = response.json()
    return joined


def state_of(client: TestClient, match_id: str) -> State:
    response = client.get(f"/api/matches/{match_id}")
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def act(client: TestClient, match_id: str, token: str, **action: Any) -> State:
    action.setdefault("version", state_of(client, match_id)["version"])
    response = client.post(f"/api/matches/{match_id}/actions", json=action,
                           headers=bearer(token))
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def refused(client: TestClient, match_id: str, status: int, phrase: str,
            response_of: Any) -> None:
    """``response_of()``'s request is refused with ``status`` and a sentence holding
    ``phrase``, and the match is as it was."""
    before = state_of(client, match_id)
    response = response_of()
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    assert state_of(client, match_id) == before


def post_action(client: TestClient, match_id: str, headers: dict[str, str],
                **action: Any) -> Any:
    def send() -> Any:
        body = {"version": state_of(client, match_id)["version"], **action}
        return client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    return send


def online_match(client: TestClient, **options: Any) -> tuple[State, State]:
    """An online match between two clients' seats: the creation's answer and the join's."""
    created = create(client, opponent="online", **options)
    return created, join(client, created["invite"])


def play_to(client: TestClient, match_id: str, tokens: dict[int, str], done: Any) -> State:
    """Play the first legal step (or roll, or confirm) for whichever seat the game waits for,
    each with its own token, until ``done(state)``."""
    state = state_of(client, match_id)
    for _ in range(400):
        if done(state):
            return state
        seat = state["to_act"] if state["to_act"] is not None else 0
        offered = state["actions"][seat]
        action: dict[str, Any] = {"seat": seat}
        if "roll" in offered:
            action["action"] = "roll"
        elif "confirm" in offered:
            action["action"] = "confirm"
        else:
            step = state["steps"][0]
            action.update(action="step", **{"from": step["from"], "to": step["to"]})
        state = act(client, match_id, tokens[seat], **action)
    raise AssertionError("the game never reached the state looked for")


# Tokens


def test_every_match_gives_its_creator_a_token_kept_only_as_its_digest(
    client: TestClient, tmp_path: Path
) -> None:
    made = [create(client, opponent=kind) for kind in ("human", "computer", "online")]
    ids = {match["id"] for match in made}
    tokens = {match["token"] for match in made}
    # Ids of 96 random bits, tokens of 192: nobody guesses one.
    assert len(ids) == len(tokens) == 3
    assert all(len(match_id) >= 16 for match_id in ids) and all(len(t) >= 32 for t in tokens)
    assert [match["invite"] is None for match in made] == [True, True, False]
    engine = make_engine(sqlite_url(tmp_path / "games.sqlite"))
    with Session(engine) as session:
        kept = json.dumps([row.settings for row in session.query(MatchRow)])
    engine.dispose()
    assert not any(secret in kept for secret in tokens | {made[2]["invite"]})


def test_actions_without_the_seat_token_are_refused_and_change_nothing(
    client: TestClient,
) -> None:
    match = create(client, opponent="human")
    other = create(client, opponent="human")
    match_id = match["id"]
    roll = {"seat": 0, "action": "roll"}
    refused(client, match_id, 401, "Authorization: Bearer",
            post_action(client, match_id, {}, **roll))
    refused(client, match_id, 401, "Authorization: Bearer",
            post_action(client, match_id, {"Authorization": "Basic eDp5"}, **roll))
    refused(client, match_id, 403, "holds no seat",
            post_action(client, match_id, bearer("not-a-token"), **roll))
    refused(client, match_id, 403, "holds no seat",
            post_action(client, match_id, bearer(other["token"]), **roll))
    refused(client, match_id, 403, "holds no seat",
            post_action(client, match_id, bearer("x" * 5000), **roll))
    # A seed for the fair dice is a seat's too.
    seed = f"/api/matches/{match_id}/seed"
    refused(client, match_id, 401, "Bearer",
            lambda: client.post(seed, json={"seat": 0, "seed": "mine"}))
    refused(client, match_id, 403, "holds no seat",
            lambda: client.post(seed, json={"seat": 0, "seed": "mine"},
                                headers=bearer(other["token"])))
    # At one screen one token holds both seats.
    state = act(client, match_id, match["token"], seat=1, action="roll")
    assert state["version"] == 1


def test_against_the_computer_the_token_holds_the_persons_seat_only(
    client: TestClient,
) -> None:
    match = create(client, opponent="computer", level="beginner")
    refused(client, match["id"], 403, "not seat 1",
            post_action(client, match["id"], bearer(match["token"]), seat=1, action="roll"))


def test_hints_and_analyses_are_the_players_only(client: TestClient) -> None:
    match = create(client, opponent="human")
    other = create(client, opponent="human")
    match_id = match["id"]
    play_to(client, match_id, {0: match["token"], 1: match["token"]},
            lambda s: s["phase"] == "move")
    hint = f"/api/matches/{match_id}/hint"
    refused(client, match_id, 401, "Bearer", lambda: client.get(hint))
    refused(client, match_id, 403, "holds no seat",
            lambda: client.get(hint, headers=bearer(other["token"])))
    assert client.get(hint, headers=bearer(match["token"])).status_code == 200
    analysis = f"/api/matches/{match_id}/analysis"
    refused(client, match_id, 401, "Bearer", lambda: client.post(analysis))
    refused(client, match_id, 403, "holds no seat",
            lambda: client.get(analysis, headers=bearer("guess")))


def test_no_engine_help_reaches_an_online_match_before_it_ends(client: TestClient) -> None:
    created, joined = online_match(client, length=1)
    match_id = created["id"]
    tokens = {0: created["token"], 1: joined["token"]}
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    waits = state["to_act"]
    hint = f"/api/matches/{match_id}/hint"
    analysis = f"/api/matches/{match_id}/analysis"
    for token in tokens.values():
        refused(client, match_id, 403, "Hints are off in an online match between people",
                lambda token=token: client.get(hint, headers=bearer(token)))
        for method in ("GET", "POST"):
            refused(client, match_id, 403, "Analyses are off in an online match",
                    lambda token=token, method=method: client.request(
                        method, analysis, headers=bearer(token)))
    # Once the match is over, both players may look back on it with the engine.
    act(client, match_id, tokens[waits], seat=waits, action="resign", level=1)
    act(client, match_id, tokens[1 - waits], seat=1 - waits, action="accept")
    assert state_of(client, match_id)["match_over"]
    assert client.post(analysis, headers=bearer(tokens[0])).status_code in (200, 202)


# Practice matches: engine help that both players agreed to before the first roll


def test_a_practice_match_gives_both_players_hints_and_analyses_while_it_is_played(
    client: TestClient,
) -> None:
    created, joined = online_match(client, length=3, practice=True)
    match_id = created["id"]
    tokens = {0: created["token"], 1: joined["token"]}
    assert created["practice"] and state_of(client, match_id)["practice"]
    hint = f"/api/matches/{match_id}/hint"
    analysis = f"/api/matches/{match_id}/analysis"
    for seat in (0, 1):
        # Each player's own turn: their hint, and only theirs (the other's token is refused).
        state = play_to(client, match_id, tokens,
                        lambda s, seat=seat: s["phase"] == "move" and s["to_act"] == seat)
        answer = client.get(hint, headers=bearer(tokens[seat]))
        assert answer.status_code == 200, answer.text
        assert answer.json()["kind"] == "move" and answer.json()["version"] == state["version"]
        refused(client, match_id, 403, f"not seat {seat}",
                lambda seat=seat: client.get(hint, headers=bearer(tokens[1 - seat])))
        for method in ("GET", "POST"):
            answer = client.request(method, analysis, headers=bearer(tokens[seat]))
            assert answer.status_code in (200, 202), answer.text
        step = state["steps"][0]
        act(client, match_id, tokens[seat], seat=seat, action="step",
            **{"from": step["from"], "to": step["to"]})
    assert not state_of(client, match_id)["match_over"]
    # Still the players' only: a token of no seat is refused as ever.
    refused(client, match_id, 403, "holds no seat",
            lambda: client.get(analysis, headers=bearer("guess")))


def test_a_match_without_the_option_keeps_the_engine_away(client: TestClient) -> None:
    created, joined = online_match(client, length=3)
    match_id = created["id"]
    assert created["practice"] is False
    state = play_to(client, match_id, {0: created["token"], 1: joined["token"]},
                    lambda s: s["phase"] == "move")
    token = created["token"] if state["to_act"] == 0 else joined["token"]
    refused(client, match_id, 403, "Hints are off in an online match between people",
            lambda: client.get(f"/api/matches/{match_id}/hint", headers=bearer(token)))


def test_a_practice_match_is_never_rated_and_only_online(client: TestClient) -> None:
    cases = [
        ({"opponent": "online", "length": 5, "rated": True}, "cannot be a practice match"),
        ({"opponent": "human"}, "online match against a person"),
        ({"opponent": "computer"}, "online match against a person"),
    ]
    for body, phrase in cases:
        response = client.post("/api/matches", json={**body, "practice": True})
        assert response.status_code == 422, response.text
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    assert client.get("/api/lobby").json() == []
    # A switch is a switch: never "yes".
    assert client.post("/api/matches", json={"opponent": "online",
                                             "practice": "yes"}).status_code == 422


def test_the_invites_preview_tells_the_joiner_before_the_seat_is_taken(
    client: TestClient,
) -> None:
    practice = create(client, opponent="online", practice=True, length=3, names=["Ann", "Bob"])
    plain = create(client, opponent="online")
    preview = client.get(f"/api/invites/{practice['invite']}")
    assert preview.status_code == 200, preview.text
    offer = preview.json()
    assert (offer["creator"], offer["practice"], offer["rated"], offer["seat"],
            offer["length"]) == ("Ann", True, False, 1, 3)
    assert "invite" not in offer and "id" not in offer and "token" not in offer
    assert client.get(f"/api/invites/{plain['invite']}").json()["practice"] is False
    # Looking changes nothing: the seat is still open.
    assert state_of(client, practice["id"])["waiting_for_opponent"]
    join(client, practice["invite"])
    for invite, status, phrase in ((practice["invite"], 410, "has been used"),
                                   ("nobodys-invite", 404, "No match has this invite")):
        response = client.get(f"/api/invites/{invite}")
        assert response.status_code == status and phrase in response.json()["detail"]
    assert client.get("/api/invites/not%20an%20invite").status_code == 422


def test_the_lobby_lists_a_practice_match_as_one(client: TestClient) -> None:
    listed = create(client, opponent="online", lobby=True, practice=True)
    create(client, opponent="online", lobby=True)
    lobby = {entry["id"]: entry["practice"] for entry in client.get("/api/lobby").json()}
    assert lobby[listed["id"]] is True and sorted(lobby.values()) == [False, True]


def test_a_practice_match_stays_one_after_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        created = create(client, opponent="online", practice=True)
    with client_for(database) as client:
        assert client.get(f"/api/invites/{created['invite']}").json()["practice"] is True
        joined = join(client, created["invite"])
        assert state_of(client, created["id"])["practice"]
        analysis = client.get(f"/api/matches/{created['id']}/analysis",
                              headers=bearer(joined["token"]))
        assert analysis.status_code in (200, 202), analysis.text


# Online play


def test_an_invite_gives_the_other_seat_once(client: TestClient) -> None:
    created = create(client, opponent="online", names=["Ann", "Bob"])
    match_id, invite = created["id"], created["invite"]
    assert created["online"] and created["waiting_for_opponent"]
    assert created["actions"] == [[], []]
    refused(client, match_id, 409, "waits for its opponent",
            post_action(client, match_id, bearer(created["token"]), seat=0, action="roll"))
    # The creator's token holds seat 0 only.
    refused(client, match_id, 403, "not seat 1",
            post_action(client, match_id, bearer(created["token"]), seat=1, action="roll"))
    joined = join(client, invite, name="Cleo")
    assert joined["id"] == match_id and joined["seat"] == 1
    assert joined["token"] != created["token"]
    state = state_of(client, match_id)
    assert not state["waiting_for_opponent"] and state["seats"][1]["name"] == "Cleo"
    for again in (invite, invite):
        response = client.post("/api/matches/join", json={"invite": again})
        assert response.status_code == 410 and "used" in response.json()["detail"]
    response = client.post("/api/matches/join", json={"invite": "no-such-invite"})
    assert response.status_code == 404 and response.json()["detail"].endswith(".")
    assert state_of(client, match_id) == state
    # Each token acts for its own seat, and only in turn.
    refused(client, match_id, 403, "not seat 0",
            post_action(client, match_id, bearer(joined["token"]), seat=0, action="roll"))
    # The opening roll: each player throws their own die, and a die thrown is not thrown
    # again by the same player.
    state = act(client, match_id, joined["token"], seat=1, action="roll")
    assert state["thrown"]["seat"] == 1 and state["to_act"] == 0
    refused(client, match_id, 409, "has thrown their die",
            post_action(client, match_id, bearer(joined["token"]), seat=1, action="roll"))
    state = act(client, match_id, created["token"], seat=0, action="roll")
    assert state["thrown"] is None and state["phase"] == "move"  # 5-4: no tie with this seed
    waits, step = state["to_act"], state["steps"][0]
    tokens = {0: created["token"], 1: joined["token"]}
    refused(client, match_id, 409, f"seat {waits}'s turn",
            post_action(client, match_id, bearer(tokens[1 - waits]), seat=1 - waits,
                        action="step", **{"from": step["from"], "to": step["to"]}))


def test_a_join_survives_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        created, joined = online_match(client)
    with client_for(database) as client:
        match_id = created["id"]
        assert client.post("/api/matches/join",
                           json={"invite": created["invite"]}).status_code == 410
        act(client, match_id, joined["token"], seat=1, action="roll")
        refused(client, match_id, 403, "holds no seat",
                post_action(client, match_id, bearer("guess"), seat=1, action="roll"))


def test_both_pages_hear_every_action_and_a_spectator_only_watches(client: TestClient) -> None:
    created, joined = online_match(client)
    match_id = created["id"]
    path = f"/api/matches/{match_id}/updates"
    with client.websocket_connect(f"{path}?view=0") as first, \
            client.websocket_connect(f"{path}?view=1") as second, \
            client.websocket_connect(path) as spectator:
        for socket in (first, second, spectator):
            assert socket.receive_json()["version"] == 1  # the seat taken
        act(client, match_id, joined["token"], seat=1, action="roll")
        for socket in (first, second, spectator):
            assert socket.receive_json()["version"] == 2
    # Without a token the state is there to read, and nothing more.
    assert state_of(client, match_id)["version"] == 2


# Claims


def test_a_game_waits_for_an_absent_player_then_may_be_claimed(tmp_path: Path) -> None:
    with client_for(tmp_path / "waits.sqlite", claim_seconds=3600) as client:
        created, joined = online_match(client)
        match_id = created["id"]
        tokens = {0: created["token"], 1: joined["token"]}
        state = play_to(client, match_id, tokens, lambda s: s["to_act"] == 1)
        assert state["claim"]["against"] == 1 and "claim" not in state["actions"][0]
        refused(client, match_id, 409, "may be claimed from",
                post_action(client, match_id, bearer(tokens[0]), seat=0, action="claim"))
    with client_for(tmp_path / "claims.sqlite", claim_seconds=0) as client:
        created, joined = online_match(client, length=3)
        match_id = created["id"]
        tokens = {0: created["token"], 1: joined["token"]}
        state = play_to(client, match_id, tokens, lambda s: s["to_act"] == 1)
        # Seat 0 has thrown their opening die: the game waits for seat 1 to throw theirs.
        assert state["phase"] == "opening" and state["thrown"]["seat"] == 0
        assert "claim" in state["actions"][0] and "claim" not in state["actions"][1]
        refused(client, match_id, 409, "while it waits for the other player",
                post_action(client, match_id, bearer(tokens[1]), seat=1, action="claim"))
        refused(client, match_id, 403, "not seat 0",
                post_action(client, match_id, bearer(tokens[1]), seat=0, action="claim"))
        state = act(client, match_id, tokens[0], seat=0, action="claim", level=2)
        result = state["record"][0]["result"]
        assert result == {"winner": 0, "kind": "gammon", "points": 2, "reason": "claim"}
        assert state["score"] == [2, 0] and not state["match_over"]
        state = play_to(client, match_id, tokens, lambda s: s["to_act"] == 0)
        state = act(client, match_id, tokens[1], seat=1, action="claim", match=True)
        assert state["match_over"] and state["winner"] == 1 and state["score"] == [2, 1]
        assert client.get(f"/api/matches/{match_id}/mat").status_code == 200


def test_no_claim_at_one_screen(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite", claim_seconds=0) as client:
        match = create(client, opponent="human")
        tokens = {0: match["token"], 1: match["token"]}
        state = play_to(client, match["id"], tokens, lambda s: s["to_act"] == 1)
        assert state["claim"] is None
        refused(client, match["id"], 409, "only in an online match",
                post_action(client, match["id"], bearer(match["token"]), seat=0,
                            action="claim"))


# The lobby


def test_the_lobby_lists_open_online_matches_until_they_are_joined(client: TestClient) -> None:
    listed = create(client, opponent="online", lobby=True, length=5, names=["Ann", "Bob"])
    create(client, opponent="online")  # a private invite, for a friend
    create(client, opponent="human")
    lobby = client.get("/api/lobby").json()
    assert [entry["id"] for entry in lobby] == [listed["id"]]
    entry = lobby[0]
    assert (entry["creator"], entry["length"], entry["seat"], entry["rating"]) == (
        "Ann", 5, 1, None)
    assert entry["invite"] == listed["invite"] and entry["rules"]["cube"] is True
    joined = join(client, entry["invite"])
    assert joined["id"] == listed["id"]
    assert client.get("/api/lobby").json() == []
