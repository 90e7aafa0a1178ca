"""Rematches through the API: offered at a match's end and accepted or declined between
people online, started at once against the computer; every refusal a sentence that changes
nothing; each seat's token in the rematch given to that seat alone; a rated match's rematch
rated; an offer kept across a restart."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from test_seats import (
    act,
    bearer,
    client_for,
    create,
    online_match,
    play_to,
    refused,
    state_of,
)

from backgammon.server import Settings
from backgammon.server.db import MatchAccountRow

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]
PASSWORD = "correct horse battery"
#: A guard against a hang, never a measure.
PATIENCE = 60.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def finish(client: TestClient, match_id: str, tokens: dict[int, str]) -> State:
    """End the 1-point match ``match_id``: the seat on roll after the opening resigns."""
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    loser = state["to_act"]
    act(client, match_id, tokens[loser], seat=loser, action="resign", level=1)
    return act(client, match_id, tokens[1 - loser], seat=1 - loser, action="accept")


def finished_online(client: TestClient, **options: Any) -> tuple[str, dict[int, str]]:
    """A 1-point online match, over: its id and each seat's token."""
    created, joined = online_match(client, length=1, **options)
    tokens = {0: created["token"], 1: joined["token"]}
    finish(client, created["id"], tokens)
    return created["id"], tokens


def offer(client: TestClient, match_id: str, token: str, seat: int, **headers: str) -> Any:
    return client.post(f"/api/matches/{match_id}/rematch", json={"seat": seat},
                       headers={**bearer(token), **headers})


def answer(client: TestClient, match_id: str, token: str, seat: int, accept: bool,
           **headers: str) -> Any:
    return client.post(f"/api/matches/{match_id}/rematch/answer",
                       json={"seat": seat, "accept": accept}, headers={**bearer(token), **headers})


def rematch_seat(client: TestClient, match_id: str, token: str) -> Any:
    return client.get(f"/api/matches/{match_id}/rematch", headers=bearer(token))


def ok(response: Any) -> Any:
    assert response.status_code == 200, response.text
    return response.json()


def test_an_offer_accepted_starts_the_rematch_with_the_seats_changed(client: TestClient) -> None:
    match_id, tokens = finished_online(client, names=["Ann", "Bob"], colour="black")
    first = state_of(client, match_id)
    path = f"/api/matches/{match_id}/updates"
    with client.websocket_connect(f"{path}?view=0") as page0, \
            client.websocket_connect(f"{path}?view=1") as page1:
        for page in (page0, page1):
            assert page.receive_json()["rematch"] is None
        offered = ok(offer(client, match_id, tokens[1], 1))
        assert offered["rematch"] == {"offered_by": 1, "id": None}
        for page in (page0, page1):  # the same version, pushed again: the offer is news
            pushed = page.receive_json()
            assert (pushed["version"], pushed["rematch"]) == (first["version"], offered["rematch"])
        accepted = ok(answer(client, match_id, tokens[0], 0, True))
        rematch_id = accepted["rematch"]["id"]
        assert accepted["rematch"]["offered_by"] is None and rematch_id
        for page in (page0, page1):
            assert page.receive_json()["rematch"]["id"] == rematch_id
    # Each seat's token in the rematch is given to that seat's own token alone: the players
    # have changed seats, each its colour with it.
    seat0 = ok(rematch_seat(client, match_id, tokens[0]))
    seat1 = ok(rematch_seat(client, match_id, tokens[1]))
    assert (seat0["id"], seat0["seats"], seat1["seats"]) == (rematch_id, [1], [0])
    assert len({seat0["token"], seat1["token"], tokens[0], tokens[1]}) == 4
    rematch = state_of(client, rematch_id)
    assert rematch["rematch_of"] == match_id and rematch["version"] == 0
    assert [seat["name"] for seat in rematch["seats"]] == ["Bob", "Ann"]
    assert [seat["colour"] for seat in rematch["seats"]] == ["black", "white"]
    assert (rematch["length"], rematch["rules"], rematch["online"]) == (1, first["rules"], True)
    assert not rematch["waiting_for_opponent"] and rematch["actions"][0] == ["roll"]
    # The new tokens act for their own seat only; the old ones hold none there.
    act(client, rematch_id, seat0["token"], seat=1, action="roll")
    refused(client, rematch_id, 403, "not seat 0",
            lambda: client.post(f"/api/matches/{rematch_id}/actions", headers=bearer(
                seat0["token"]), json={"seat": 0, "action": "roll", "version": 1}))
    refused(client, rematch_id, 403, "holds no seat",
            lambda: client.post(f"/api/matches/{rematch_id}/actions", headers=bearer(
                tokens[0]), json={"seat": 0, "action": "roll", "version": 1}))


def test_a_practice_matchs_rematch_is_a_practice_match(client: TestClient) -> None:
    """Both players agreed to the engine's help in the match they rematch, and agree to the
    rematch: it keeps the option."""
    match_id, tokens = finished_online(client, practice=True)
    ok(offer(client, match_id, tokens[0], 0))
    rematch_id = ok(answer(client, match_id, tokens[1], 1, True))["rematch"]["id"]
    assert state_of(client, match_id)["practice"] and state_of(client, rematch_id)["practice"]


def test_an_offer_declined_is_gone_and_may_be_made_again(client: TestClient) -> None:
    match_id, tokens = finished_online(client)
    ok(offer(client, match_id, tokens[0], 0))
    declined = ok(answer(client, match_id, tokens[1], 1, False))
    assert declined["rematch"] is None
    refused(client, match_id, 409, "No rematch of this match has started",
            lambda: rematch_seat(client, match_id, tokens[0]))
    assert ok(offer(client, match_id, tokens[1], 1))["rematch"] == {"offered_by": 1, "id": None}


def test_refusals_change_nothing(client: TestClient) -> None:
    created, joined = online_match(client, length=1)
    match_id = created["id"]
    tokens = {0: created["token"], 1: joined["token"]}
    refused(client, match_id, 409, "once the match is over",
            lambda: offer(client, match_id, tokens[0], 0))
    refused(client, match_id, 409, "No rematch is offered",
            lambda: answer(client, match_id, tokens[1], 1, True))
    finish(client, match_id, tokens)
    refused(client, match_id, 403, "holds no seat", lambda: offer(client, match_id, "guess", 0))
    refused(client, match_id, 401, "seat token",
            lambda: client.post(f"/api/matches/{match_id}/rematch", json={"seat": 0}))
    refused(client, match_id, 403, "not seat 1", lambda: offer(client, match_id, tokens[0], 1))
    ok(offer(client, match_id, tokens[0], 0))
    refused(client, match_id, 409, "has offered a rematch already",
            lambda: offer(client, match_id, tokens[1], 1))
    refused(client, match_id, 409, "the other player answers it",
            lambda: answer(client, match_id, tokens[0], 0, True))
    refused(client, match_id, 403, "holds no seat",
            lambda: answer(client, match_id, "guess", 1, True))
    refused(client, match_id, 409, "No rematch of this match has started",
            lambda: rematch_seat(client, match_id, tokens[1]))
    ok(answer(client, match_id, tokens[1], 1, True))
    for seat in (0, 1):
        refused(client, match_id, 409, "has started already",
                lambda seat=seat: offer(client, match_id, tokens[seat], seat))
        refused(client, match_id, 409, "has started already",
                lambda seat=seat: answer(client, match_id, tokens[seat], seat, True))
    refused(client, match_id, 403, "holds no seat",
            lambda: rematch_seat(client, match_id, "guess"))


def test_against_the_computer_the_rematch_starts_at_once(client: TestClient) -> None:
    created = create(client, opponent="computer", length=1, level="beginner")
    match_id, token = created["id"], created["token"]
    act(client, match_id, token, seat=0, action="roll")
    while state_of(client, match_id)["phase"] == "opening":  # again after a tie
        act(client, match_id, token, seat=0, action="roll")
    deadline = time.monotonic() + PATIENCE
    while (state := state_of(client, match_id))["to_act"] != 0:  # the computer's move
        assert time.monotonic() < deadline, "the computer never played"
        time.sleep(0.01)
    act(client, match_id, token, seat=0, action="resign", level=3, version=state["version"])
    while not state_of(client, match_id)["match_over"]:  # the computer answers in its turn
        assert time.monotonic() < deadline, "the computer never accepted the resignation"
        time.sleep(0.01)
    rematch_id = ok(offer(client, match_id, token, 0))["rematch"]["id"]
    seat = ok(rematch_seat(client, match_id, token))
    assert (seat["id"], seat["seats"]) == (rematch_id, [0])
    rematch = state_of(client, rematch_id)
    assert [each["kind"] for each in rematch["seats"]] == ["human", "computer"]
    assert rematch["seats"][1]["level"] == "beginner" and rematch["rematch_of"] == match_id
    act(client, rematch_id, seat["token"], seat=0, action="roll")


def test_an_offer_survives_a_restart(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        match_id, tokens = finished_online(client)
        ok(offer(client, match_id, tokens[1], 1))
    with client_for(database) as client:
        assert state_of(client, match_id)["rematch"] == {"offered_by": 1, "id": None}
        refused(client, match_id, 409, "has offered a rematch already",
                lambda: offer(client, match_id, tokens[0], 0))
        rematch_id = ok(answer(client, match_id, tokens[0], 0, True))["rematch"]["id"]
    with client_for(database) as client:
        # The offerer's token in the rematch, made before the restart, holds its seat.
        seat = ok(rematch_seat(client, match_id, tokens[1]))
        assert (seat["id"], seat["seats"]) == (rematch_id, [0])
        act(client, rematch_id, seat["token"], seat=0, action="roll")


def signed_in(client: TestClient, name: str) -> dict[str, str]:
    """Sign ``client`` up as ``name``: the header its state-changing requests carry."""
    response = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return {"X-CSRF-Token": client.cookies["bg_csrf"]}


def test_a_rated_match_has_a_rated_rematch_between_its_accounts(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite") as alice, \
            TestClient(alice.app) as bobby, TestClient(alice.app) as guest:
        alice_csrf, bobby_csrf = signed_in(alice, "Alice"), signed_in(bobby, "Bobby")
        created = alice.post("/api/matches", headers=alice_csrf, json={
            "opponent": "online", "length": 1, "rated": True, "seed": 11})
        assert created.status_code == 201, created.text
        match_id = created.json()["id"]
        joined = bobby.post("/api/matches/join", headers=bobby_csrf,
                            json={"invite": created.json()["invite"]})
        tokens = {0: created.json()["token"], 1: joined.json()["token"]}
        finish(guest, match_id, tokens)
        # Bobby's seat, from a page where nobody is signed in, may not start a rated match.
        refused(guest, match_id, 403, "sign in as the player of this seat",
                lambda: offer(guest, match_id, tokens[1], 1))
        ok(offer(alice, match_id, tokens[0], 0, **alice_csrf))
        refused(guest, match_id, 403, "sign in as the player of this seat",
                lambda: answer(guest, match_id, tokens[1], 1, True))
        rematch_id = ok(answer(bobby, match_id, tokens[1], 1, True, **bobby_csrf))["rematch"]["id"]
        accounts = alice.app.state.accounts
        with Session(accounts.engine) as session:
            first = session.get(MatchAccountRow, match_id)
            second = session.get(MatchAccountRow, rematch_id)
            assert first is not None and second is not None and second.rated
            assert (second.user0, second.user1) == (first.user1, first.user0)


def test_an_offer_on_one_process_is_accepted_on_another(
    postgres: Any, redis_url: str, launch: Any
) -> None:
    """On PostgreSQL with Redis: the offer made through one process is shown to a page
    watching through the other, and accepted there; each seat takes its token through
    either."""
    from test_processes import Watcher

    shared = Settings(postgres.new_database(), redis_url=redis_url)
    one, other = launch(shared), launch(shared)
    status, created = one.request("POST", "/api/matches", {"opponent": "online", "length": 1})
    assert status == 201, created
    match_id = created["id"]
    status, joined = other.request("POST", "/api/matches/join", {"invite": created["invite"]})
    assert status == 200, joined
    tokens = {0: created["token"], 1: joined["token"]}
    end_on(one, match_id, tokens)
    watcher = Watcher(other, match_id, "view=1")
    try:
        status, offered = one.request("POST", f"/api/matches/{match_id}/rematch", {"seat": 0},
                                      tokens[0])
        assert status == 200 and offered["rematch"] == {"offered_by": 0, "id": None}, offered
        deadline = time.monotonic() + PATIENCE
        while watcher.states[-1]["rematch"] is None:  # pushed through the other process
            assert time.monotonic() < deadline, "the offer never reached the other process"
            time.sleep(0.01)
        status, accepted = other.request(
            "POST", f"/api/matches/{match_id}/rematch/answer", {"seat": 1, "accept": True},
            tokens[1])
        assert status == 200, accepted
    finally:
        watcher.close()
    rematch_id = accepted["rematch"]["id"]
    assert one.state(match_id)["rematch"] == {"offered_by": None, "id": rematch_id}
    # The opening roll through each token in turn, each player throwing their own die
    # through their own process: neither is refused for its seat (403).
    for server, seat, new_seat in ((other, 0, 1), (one, 1, 0)):
        status, seated = server.request("GET", f"/api/matches/{match_id}/rematch", None,
                                        tokens[seat])
        assert status == 200 and seated["seats"] == [new_seat], seated
        status, rolled = server.request("POST", f"/api/matches/{rematch_id}/actions", {
            "seat": new_seat, "action": "roll", "version": server.state(rematch_id)["version"],
        }, seated["token"])
        assert status == 200, rolled
    assert one.state(rematch_id)["rematch_of"] == match_id


def end_on(server: Any, match_id: str, tokens: dict[int, str]) -> None:
    """End the 1-point match ``match_id`` through ``server``: rolls until a checker is to
    move, then that seat resigns and the other accepts."""
    state = server.state(match_id)
    while state["phase"] != "move":  # each player throws their own opening die
        seat = 0 if state["to_act"] is None else state["to_act"]
        state = send_on(server, match_id, tokens, state, action="roll", seat=seat)
    loser = state["to_act"]
    state = send_on(server, match_id, tokens, state, action="resign", seat=loser, level=1)
    state = send_on(server, match_id, tokens, state, action="accept", seat=1 - loser)
    assert state["match_over"]


def send_on(server: Any, match_id: str, tokens: dict[int, str], state: State,
            **action: Any) -> State:
    """Make ``action`` through ``server`` on ``state``'s version, with its seat's token."""
    status, after = server.request("POST", f"/api/matches/{match_id}/actions",
                                   {**action, "version": state["version"]},
                                   tokens[action["seat"]])
    assert status == 200, after
    return dict(after)
