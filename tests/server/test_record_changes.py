"""A client that keeps the states it is sent asks for the record's changes only: an action's
answer (``record_since``) and each state pushed (``record=changes``) then carry the entries
made since a version the client holds, and laid over its state they make the whole record."""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect
from support import merged

from backgammon.server import Settings, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    settings = dataclasses.replace(database, computer_pause=0, allow_seed=True,
                                   create_rate=None, action_rate=None)
    with TestClient(create_app(settings)) as test_client:
        created = test_client.post("/api/matches", json={"opponent": "human", "seed": 5})
        assert created.status_code == 201, created.text
        test_client.headers["Authorization"] = f"Bearer {created.json()['token']}"
        test_client.cookies.set("match", created.json()["id"])
        yield test_client


def whole(client: TestClient, match_id: str) -> State:
    response = client.get(f"/api/matches/{match_id}", params={"view": 0})
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def next_action(state: State) -> dict[str, Any]:
    seat = state["to_act"] if state["to_act"] is not None else 0
    body = {"seat": seat, "version": state["version"]}
    if "roll" in state["actions"][seat]:
        return {**body, "action": "roll"}
    if "confirm" in state["actions"][seat]:
        return {**body, "action": "confirm"}
    step = state["steps"][0]
    return {**body, "action": "step", "from": step["from"], "to": step["to"]}


def test_answers_and_pushes_carry_the_records_changes(client: TestClient) -> None:
    match_id = client.cookies["match"]
    url = f"/api/matches/{match_id}/updates?view=0&record=changes"
    with client.websocket_connect(url) as socket:
        pushed = socket.receive_json()
        assert pushed["record_since"] is None  # the first state holds the whole record
        held = answered = pushed
        for _ in range(30):
            response = client.post(
                f"/api/matches/{match_id}/actions",
                params={"view": 0, "record_since": answered["version"]},
                json=next_action(answered),
            )
            assert response.status_code == 200, response.text
            changes = response.json()
            assert changes["record_since"] == answered["version"]
            answered = merged(answered, changes)
            push = socket.receive_json()
            assert push["record_since"] == held["version"] == push["version"] - 1
            held = merged(held, push)
            assert held == answered == whole(client, match_id)
        entries = held["record"][0]["entries"]
        assert len(entries) > 3 and len(push["record"][0]["entries"]) <= 1
        assert push["record"][0]["first_entry"] >= len(entries) - 1
    seen = held["version"]
    for _ in range(4):
        answered = client.post(f"/api/matches/{match_id}/actions", params={"view": 0},
                               json=next_action(answered)).json()
    # A page that reconnects is sent the changes since the version it names.
    with client.websocket_connect(f"{url}&since={seen}") as socket:
        caught_up = socket.receive_json()
        assert caught_up["record_since"] == seen
        assert merged(held, caught_up) == answered == whole(client, match_id)
    # A version the match has not reached gets the whole record.
    ahead = client.get(f"/api/matches/{match_id}", params={"record_since": 10**6}).json()
    assert ahead == whole(client, match_id)
    with client.websocket_connect(f"/api/matches/{match_id}/updates?record=some") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008 and closed.value.reason.endswith(".")


def test_the_page_that_acts_is_not_pushed_its_own_state(client: TestClient) -> None:
    """A page that names itself to its WebSocket (``watcher``) and in its actions
    (``Watcher-Id``) is pushed only the states others' actions make; a page with another
    name, or none, is pushed every state; and the next push to the acting page carries the
    record's changes from the version its last answer brought."""
    match_id = client.cookies["match"]
    url = f"/api/matches/{match_id}/updates?view=0&record=changes"
    mine, other = "a" * 20, "b-" * 10

    def act(held: State, name: str) -> State:
        answered = client.post(
            f"/api/matches/{match_id}/actions",
            params={"view": 0, "record_since": held["version"]},
            json=next_action(held),
            headers={"Watcher-Id": name},
        )
        assert answered.status_code == 200, answered.text
        state: State = answered.json()
        return state

    with client.websocket_connect(f"{url}&watcher={mine}") as acting, \
            client.websocket_connect(f"{url}&watcher={other}") as named, \
            client.websocket_connect(url) as anonymous:
        held = acting.receive_json()
        for socket in (named, anonymous):
            socket.receive_json()
        for _ in range(2):  # two actions of this page: pushed to the others only
            state = act(held, mine)
            for socket in (named, anonymous):
                assert socket.receive_json()["version"] == state["version"]
            held = merged(held, state)
        state = act(held, other)  # the other page's action
        pushed = acting.receive_json()  # the first push this page is sent since it acted
        assert pushed["version"] == state["version"]
        assert pushed["record_since"] == held["version"]
        assert merged(held, pushed)["record"] == whole(client, match_id)["record"]


def test_a_malformed_watcher_name_is_refused(client: TestClient) -> None:
    match_id = client.cookies["match"]
    url = f"/api/matches/{match_id}/updates?view=0&watcher=short"
    with client.websocket_connect(url) as socket, pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == 1008
    assert "16 to 64" in closed.value.reason
    state = whole(client, match_id)
    answered = client.post(f"/api/matches/{match_id}/actions", json=next_action(state),
                           headers={"Watcher-Id": "no spaces allowed here"})
    assert answered.status_code == 422
    assert whole(client, match_id)["version"] == state["version"]
