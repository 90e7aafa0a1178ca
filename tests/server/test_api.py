"""The web app's REST API and WebSocket, through FastAPI's test client.

Every refusal is checked for its status, for a sentence in ``detail``, and for the state being
exactly what it was before. Matches are stored in an SQLite file under pytest's tmp_path, and
again in a PostgreSQL database with Redis (the ``database`` fixture of ``conftest.py``); a
"restart" is a second app built on the same database.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from backgammon import BackgammonError, Position
from backgammon.bot import Bot, Level
from backgammon.dice import SeededDice
from backgammon.formats.mat import import_mat
from backgammon.game import Game, Phase, Rules
from backgammon.server import Settings, create_app
from backgammon.server.db import Base, MatchRow, alembic_config, make_engine, migrate
from backgammon.server.play import computer
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    # Starlette asks for httpx's successor; the test client works the same with httpx.
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

State = dict[str, Any]
SEED = 11  # seat 1 wins the opening roll, 5 against 4


def client_for(database: Path | Settings, **settings: Any) -> TestClient:
    """A client of an app on ``database`` (an SQLite file, or the settings of ``conftest.py``
    that name a database) that takes seeds and limits no rate (unless the settings say
    otherwise)."""
    unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                 "upload_rate": None}
    named = database if isinstance(database, Settings) else Settings(sqlite_url(database))
    options = {"computer_pause": 0, "allow_seed": True, **unlimited, **settings}
    return TestClient(create_app(dataclasses.replace(named, **options)))


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    with client_for(database) as test_client:
        yield test_client


def create(client: TestClient, **options: Any) -> State:
    """A new match; the client sends its token from now on, as the page that made it does."""
    response = client.post("/api/matches", json={"opponent": "human", **options})
    assert response.status_code == 201, response.text
    state: State = response.json()
    client.headers["Authorization"] = f"Bearer {state.pop('token')}"
    state.pop("invite")
    return state


def state_of(client: TestClient, match_id: str, view: int = 0) -> State:
    response = client.get(f"/api/matches/{match_id}", params={"view": view})
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def act(client: TestClient, match_id: str, **action: Any) -> State:
    """Make ``action``, on the version it names or else the state's version now (as a page
    sends the version of the state it shows)."""
    action.setdefault("version", state_of(client, match_id)["version"])
    response = client.post(f"/api/matches/{match_id}/actions", params={"view": 0}, json=action)
    assert response.status_code == 200, response.text
    state: State = response.json()
    return state


def refused(
    client: TestClient, match_id: str, status: int, phrase: str, body: Any = None, **kw: Any
) -> None:
    """Post a bad action: ``status``, a sentence containing ``phrase``, and no change. An
    action given as a dict is made on the state's version now unless it names one."""
    before = state_of(client, match_id)
    if isinstance(body, dict):
        body = {"version": before["version"], **body}
    response = client.post(f"/api/matches/{match_id}/actions", json=body, **kw)
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    assert state_of(client, match_id) == before


def next_action(state: State) -> dict[str, Any]:
    """A simple player for both human seats: roll, make the first step offered, confirm."""
    seat = state["to_act"] if state["to_act"] is not None else 0
    actions = state["actions"][seat]
    if "roll" in actions:
        return {"seat": seat, "action": "roll"}
    if "confirm" in actions:
        return {"seat": seat, "action": "confirm"}
    step = state["steps"][0]
    return {"seat": seat, "action": "step", "from": step["from"], "to": step["to"]}


def play(client: TestClient, match_id: str, actions: int) -> State:
    state = state_of(client, match_id)
    for _ in range(actions):
        state = act(client, match_id, **next_action(state))
    return state


def settled(client: TestClient, match_id: str) -> State:
    """The match's state once the computer, acting in the background, has made its moves."""
    deadline = time.monotonic() + 30
    state = state_of(client, match_id)
    while state["to_act"] is not None and state["seats"][state["to_act"]]["kind"] == "computer":
        assert time.monotonic() < deadline, "the computer did not act"
        time.sleep(0.01)
        state = state_of(client, match_id)
    return state


def break_the_computer(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """Make the computer's thinking fail; the event is set once it has tried."""
    tried = threading.Event()

    def broken(*_args: object) -> list[dict[str, Any]]:
        tried.set()
        raise RuntimeError("the bot is out to lunch")

    monkeypatch.setattr(computer, "think", broken)
    return tried


def opening(client: TestClient, match_id: str) -> State:
    """Roll the opening roll until it is not a tie."""
    state = act(client, match_id, seat=0, action="roll")
    while state["phase"] == "opening":
        state = act(client, match_id, seat=0, action="roll")
    return state


# Creating and reading


def test_a_new_match_waits_for_its_opening_roll(client: TestClient) -> None:
    state = create(client, length=5)
    assert state["phase"] == "opening" and state["to_act"] is None
    assert state["actions"] == [["roll"], ["roll"]]
    assert state["length"] == 5 and state["score"] == [0, 0] and not state["match_over"]
    assert state["board"]["pips"] == [167, 167]
    assert state["board"]["points"][5] == {"seat": 0, "count": 5}  # seat 0's 6 point
    assert state["board"]["points"][0] == {"seat": 1, "count": 2}  # seat 1's 24 point
    assert state["cube"] == {"value": 1, "owner": None, "offer": None, "used": True}
    assert state["gnubg_id"].startswith("4HPwATDgc/ABMA:")
    assert state["xgid"].startswith("XGID=")
    assert [seat["colour"] for seat in state["seats"]] == ["white", "black"]
    assert state_of(client, state["id"]) == state


@pytest.mark.parametrize(
    ("options", "phrase"),
    [
        ({"length": 5, "jacoby": True}, "do not apply in matches"),
        ({"max_cube": 3}, "power of two"),
        ({"length": -1}, "length"),
        ({"opponent": "dog"}, "opponent"),
        ({"variant": "chess"}, "variant"),
        ({"colour": "red"}, "colour"),
        ({"sped": 3}, "sped"),
    ],
)
def test_bad_options_are_refused_with_a_sentence(
    client: TestClient, options: dict[str, Any], phrase: str
) -> None:
    response = client.post("/api/matches", json=options)
    assert response.status_code == 422
    assert phrase in response.json()["detail"]


def test_options_reach_the_rules(client: TestClient) -> None:
    state = create(client, variant="nackgammon", jacoby=True, beavers=True, automatic_doubles=2)
    assert state["rules"]["variant"] == "nackgammon"
    assert state["rules"]["jacoby"] and state["rules"]["beavers"]
    assert state["rules"]["automatic_doubles"] == 2
    assert state["board"]["points"][22] == {"seat": 0, "count": 2}  # Nackgammon's 23 point


def test_the_board_from_the_other_side(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    opening(client, match_id)
    mine, theirs = state_of(client, match_id, 0), state_of(client, match_id, 1)
    assert theirs["view"] == 1
    assert theirs["board"]["points"] == mine["board"]["points"][::-1]
    for key in ("bar", "off", "pips"):
        assert theirs["board"][key] == mine["board"][key]
    mover = mine["on_roll"]
    for seen, other in zip(mine["steps"], theirs["steps"], strict=True):
        assert (seen["from"], seen["to"]) == (other["from"], other["to"])
        near, far = (seen, other) if mover == 0 else (other, seen)
        assert near["board_from"] == near["from"]
        assert far["board_from"] == (far["from"] if far["from"] == 25 else 25 - far["from"])


# Playing


def test_a_turn_step_by_step_with_undo_and_confirm(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    reference = Game(dice=SeededDice(SEED))
    reference.roll(0)
    state = opening(client, match_id)
    assert state["phase"] == "move" and state["on_roll"] == reference.on_roll
    seat = state["to_act"]
    assert [d["value"] for d in state["dice"]] == sorted(reference.dice or (), reverse=True)
    offered = [(s["from"], s["to"]) for s in state["steps"]]
    assert offered == reference.position.turn(reference.dice or (1, 1)).legal_steps()

    first = state["steps"][0]
    state = act(client, match_id, seat=seat, action="step", **{"from": first["from"]},
                to=first["to"])
    assert [(s["from"], s["to"]) for s in state["made"]] == [(first["from"], first["to"])]
    assert sum(d["used"] for d in state["dice"]) == 1
    state = act(client, match_id, seat=seat, action="undo")
    assert state["made"] == [] and [(s["from"], s["to"]) for s in state["steps"]] == offered
    while state["phase"] == "move":
        state = act(client, match_id, **next_action(state))
    assert state["phase"] == "confirm" and "undo" in state["actions"][seat]
    assert all(d["used"] for d in state["dice"])
    state = act(client, match_id, seat=seat, action="confirm")
    assert state["phase"] == "roll" and state["to_act"] == 1 - seat
    entries = state["record"][0]["entries"]
    assert [entry["kind"] for entry in entries] == ["opening", "play"]
    assert entries[1]["seat"] == seat and entries[1]["play"]


def test_a_whole_play_in_notation(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    seat = state["to_act"]
    dice = (state["dice"][0]["value"], state["dice"][1]["value"])
    # The start is the same from either side.
    notation = str(Position.initial().legal_plays(dice)[0])
    state = act(client, match_id, seat=seat, action="play", play=notation)
    assert state["record"][0]["entries"][-1]["play"] == notation
    assert state["phase"] == "roll" and state["to_act"] == 1 - seat


def test_cube_actions_and_their_record(client: TestClient) -> None:
    match_id = create(client, seed=SEED, beavers=True)["id"]
    state = opening(client, match_id)
    state = act(client, match_id, **next_action(state))
    while state["phase"] != "roll":
        state = act(client, match_id, **next_action(state))
    doubler = state["to_act"]
    state = act(client, match_id, seat=doubler, action="double")
    assert state["phase"] == "cube" and state["to_act"] == 1 - doubler
    assert state["cube"]["offer"] == {"by": doubler, "value": 2, "beavered": False}
    assert set(state["actions"][1 - doubler]) == {"take", "drop", "beaver"}
    state = act(client, match_id, seat=1 - doubler, action="beaver")
    assert state["to_act"] == doubler and state["cube"]["offer"]["value"] == 4
    state = act(client, match_id, seat=doubler, action="take")
    assert state["cube"]["value"] == 4 and state["cube"]["owner"] == 1 - doubler
    kinds = [(e["kind"], e["value"]) for e in state["record"][0]["entries"][-3:]]
    assert kinds == [("double", 2), ("beaver", 4), ("take", None)]


def test_a_resignation_ends_a_one_point_match(client: TestClient) -> None:
    match_id = create(client, length=1, seed=SEED)["id"]
    state = opening(client, match_id)
    mover = state["to_act"]
    state = act(client, match_id, seat=1 - mover, action="resign", level=2)
    assert state["phase"] == "resign" and state["resignation"] == {"by": 1 - mover, "level": 2}
    state = act(client, match_id, seat=mover, action="accept")
    assert state["match_over"] and state["winner"] == mover
    assert state["score"][mover] == 2 and state["actions"] == [[], []]
    assert state["result"] == {"winner": mover, "kind": "gammon", "points": 2, "reason": "resign"}
    refused(client, match_id, 409, "The match is over", {"seat": 0, "action": "roll"})


# Refusals: each a 4xx with a sentence, and no change


def test_an_action_out_of_turn_is_refused(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    other = 1 - state["to_act"]
    refused(client, match_id, 409, "turn", {"seat": other, "action": "undo"})
    refused(client, match_id, 409, "cannot be rolled", {"seat": other, "action": "roll"})
    refused(client, match_id, 409, "no double to answer", {"seat": other, "action": "take"})
    refused(client, match_id, 409, "cannot end yet", {"seat": state["to_act"], "action": "confirm"})


def test_an_illegal_step_is_refused(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    seat = opening(client, match_id)["to_act"]
    refused(client, match_id, 409, "not allowed", {"seat": seat, "action": "step", "from": 1,
                                                   "to": 0})
    refused(client, match_id, 409, "not a legal play",
            {"seat": seat, "action": "play", "play": "24/1"})


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        (b"{not json", "not valid JSON"),
        (b'{"seat": 0}', "action"),
        (b'{"seat": 0, "version": 1, "action": "fly"}', "action"),
        (b'{"seat": 2, "version": 1, "action": "roll"}', "seat"),
        (b'{"seat": 0, "version": 1, "action": "step", "from": 13}', "to"),
        (b'{"seat": 0, "version": 1, "action": "step", "from": 30, "to": 1}', "from"),
        (b'{"seat": 0, "version": 1, "action": "resign", "level": 4}', "level"),
        (b'[1, 2]', "body"),
        # JSON's parser in pydantic refuses what the standard library's reads: said as FastAPI
        # says it (action_calls._action).
        (b'{"seat": 0, "version": NaN, "action": "roll"}', "version"),
        (b'{"seat": 0, "version": 1, "action": "play", "play": "13/7\\ud800"}', "play"),
    ],
)
def test_a_malformed_request_is_refused(client: TestClient, body: bytes, phrase: str) -> None:
    match_id = create(client, seed=SEED)["id"]
    opening(client, match_id)
    refused(client, match_id, 422, phrase, content=body,
            headers={"Content-Type": "application/json"})


@pytest.mark.parametrize(
    ("request_options", "where"),
    [
        ({"params": {"view": 2}}, ["query", "view"]),
        ({"params": {"record_since": -1}}, ["query", "record_since"]),
        ({"headers": {"Idempotency-Key": "k" * 65}}, ["header", "Idempotency-Key"]),
        ({"headers": {"Watcher-Id": "short"}}, ["header", "Watcher-Id"]),
        ({"content": b'{"seat": 0, "version": 1, "action": "step", "from": 13}'},
         ["body", "step", "to"]),
        ({"content": b"", "headers": {"Content-Type": "application/json"}}, ["body"]),
        ({"content": b'{"seat": 0}', "headers": {"Content-Type": "text/plain"}}, ["body"]),
    ],
)
def test_an_action_refusal_names_the_place_of_the_problem(
    client: TestClient, request_options: dict[str, Any], where: list[str]
) -> None:
    """The action route reads its request itself (action_calls): each problem is placed in
    the query, a header, the path or the body, as FastAPI places them."""
    match_id = create(client, seed=SEED)["id"]
    before = state_of(client, match_id)
    request_options.setdefault("json", {"seat": 0, "action": "roll", "version": 0})
    if "content" in request_options:
        del request_options["json"]
    response = client.post(f"/api/matches/{match_id}/actions", **request_options)
    assert response.status_code == 422, response.text
    assert response.json()["errors"][0]["loc"] == where
    assert response.json()["detail"].endswith(".")
    assert state_of(client, match_id) == before


def test_a_too_long_match_id_is_a_malformed_action(client: TestClient) -> None:
    response = client.post("/api/matches/" + "m" * 33 + "/actions",
                           json={"seat": 0, "action": "roll", "version": 0})
    assert response.status_code == 422
    assert response.json()["errors"][0]["loc"] == ["path", "match_id"]


def test_a_stale_version_is_refused(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    step = state["steps"][0]
    action = {"seat": state["to_act"], "action": "step", "from": step["from"], "to": step["to"]}
    act(client, match_id, **action, version=state["version"])
    refused(client, match_id, 409, "version", action | {"version": state["version"]})


def test_an_action_without_its_version_is_refused(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    step = state["steps"][0]
    action = {"seat": state["to_act"], "action": "step", "from": step["from"], "to": step["to"]}
    refused(client, match_id, 422, "version", content=json.dumps(action),
            headers={"Content-Type": "application/json"})


#: A seed whose second turn rolls 6-6, so that ``13/7`` may be stepped four times over.
DOUBLES_SEED = 14


def test_a_state_is_shown_only_once_its_action_is_committed(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    before = state_of(client, match_id)
    store = client.app.state.store  # type: ignore[attr-defined]
    saving, go_on = threading.Event(), threading.Event()

    def failing_save(*args: Any) -> None:
        saving.set()
        go_on.wait(30)
        raise OperationalError("UPDATE matches", {}, Exception("disk I/O error"))

    asking = threading.Event()
    fresh = store.fresh

    async def asked(live: Any) -> Any:
        asking.set()
        return await fresh(live)

    async def failing_save_in_loop(*args: Any) -> None:
        await asyncio.to_thread(failing_save, *args)

    # Saves on PostgreSQL are made from the event loop, other writes in a worker thread.
    store.table.update, store._saved_alone = failing_save, failing_save_in_loop
    store.fresh = asked
    answers: dict[str, Any] = {}
    roll = {"seat": 0, "action": "roll", "version": before["version"]}
    acting = threading.Thread(target=lambda: answers.update(
        action=client.post(f"/api/matches/{match_id}/actions", json=roll)))
    acting.start()
    assert saving.wait(30)
    # Asked while the save is under way, the state is not the copy acted on: that action
    # is not committed (and here never will be).
    reading = threading.Thread(target=lambda: answers.update(
        state=client.get(f"/api/matches/{match_id}")))
    reading.start()
    # On a server's database the event loop waits for the save's answer, and the state is
    # asked for meanwhile; SQLite's save runs in the event loop, and the state is asked for
    # after it.
    if store.shared:
        assert asking.wait(30)
    go_on.set()
    acting.join(30)
    reading.join(30)
    del store.table.update, store._saved_alone, store.fresh
    assert answers["action"].status_code == 503
    assert answers["state"].json()["version"] == before["version"]
    assert state_of(client, match_id) == before


def test_the_same_action_sent_twenty_times_at_once_acts_once(database: Settings) -> None:
    """Twenty copies of one step, all made on the same version and sent together (a page's
    double clicks, a client retrying): one is kept, the others are refused as stale. The roll
    is 6-6 and the step 13/7, which the rules would let go four times."""
    app = create_app(dataclasses.replace(database, computer_pause=0, allow_seed=True,
                                         action_rate=None, create_rate=None))
    mirror = Game(dice=SeededDice(DOUBLES_SEED))
    while mirror.phase is Phase.OPENING:
        mirror.roll(0)
    assert mirror.dice is not None
    opening_play = str(mirror.position.legal_plays(mirror.dice)[0])

    async def race() -> tuple[list[int], State, State]:
        transport = httpx.ASGITransport(app=app)
        # The app's lifespan runs, so that its saves are made as a server makes them.
        async with (app.router.lifespan_context(app),
                    httpx.AsyncClient(transport=transport, base_url="http://test") as http):
            made = await http.post("/api/matches", json={"opponent": "human",
                                                         "seed": DOUBLES_SEED})
            path = f"/api/matches/{made.json()['id']}"
            state = made.json()
            http.headers["Authorization"] = f"Bearer {state['token']}"

            async def act(**action: Any) -> State:
                body = {"seat": state["to_act"] or 0, "version": state["version"], **action}
                answer = await http.post(f"{path}/actions", json=body)
                assert answer.status_code == 200, answer.text
                made: State = answer.json()
                return made

            while state["phase"] == "opening":
                state = await act(action="roll")
            state = await act(action="play", play=opening_play)
            state = await act(action="roll")
            assert [die["value"] for die in state["dice"]] == [6, 6, 6, 6]
            action = {"seat": state["to_act"], "action": "step", "from": 13, "to": 7,
                      "version": state["version"]}
            answers = await asyncio.gather(
                *(http.post(f"{path}/actions", json=action) for _ in range(20)))
            after = (await http.get(path)).json()
        return [answer.status_code for answer in answers], state, after

    codes, before, after = asyncio.run(race())
    assert sorted(codes) == [200] + [409] * 19
    assert after["version"] == before["version"] + 1 and len(after["made"]) == 1


def test_an_unknown_match_is_404(client: TestClient) -> None:
    for response in (
        client.get("/api/matches/nosuchmatch"),
        client.post("/api/matches/nosuchmatch/actions",
                    json={"seat": 0, "action": "roll", "version": 0}),
        client.get("/api/matches/nosuchmatch/mat"),
        client.get("/api/matches/nosuchmatch/hint"),
    ):
        assert response.status_code == 404
        assert response.json()["detail"] == "There is no match with that id."
    with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
        with client.websocket_connect("/api/matches/nosuchmatch/updates") as socket:
            socket.receive_json()
    assert closed.value.code == 4404


# Set up from an ID


def test_a_match_set_up_from_an_id_starts_where_the_id_says(client: TestClient) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:7:10"
    state = create(client, position=xgid, length=3)
    assert state["xgid"] == xgid
    assert state["length"] == 7 and state["score"] == [2, 1]  # the ID's, over the form's
    assert state["phase"] == "move" and state["to_act"] == 0
    assert [die["value"] for die in state["dice"]] == [5, 2]
    assert state["cube"]["value"] == 2 and state["cube"]["owner"] == 0
    # A bare Position ID: seat 0 to roll, the form's match length.
    state = create(client, position="4HPwATDgc/ABMA", length=3)
    assert state["phase"] == "roll" and state["to_act"] == 0 and state["length"] == 3
    assert state["gnubg_id"].startswith("4HPwATDgc/ABMA:")
    # The computer to play the position set up: it does at once.
    gnubg = "4HPwATDgc/ABMA:cAkAAAAAAAAA"  # seat 1 to roll, money
    match_id = create(client, opponent="computer", position=gnubg, seed=SEED)["id"]
    state = settled(client, match_id)
    assert state["to_act"] == 0 and state["record"][0]["entries"][0]["seat"] == 1


def test_an_id_that_sets_up_no_game_is_refused(client: TestClient) -> None:
    for position, phrase in (
        ("4HPwATDgc/ABMA:MBkAAAAAAAAE", "a double waiting"),
        ("not an id", "Position ID"),
        ("4HPwATDgc/ABMA", "more than the 3 a side has"),  # a Hypergammon game
    ):
        variant = "hypergammon" if "3 a side" in phrase else "standard"
        response = client.post(
            "/api/matches", json={"opponent": "human", "position": position, "variant": variant}
        )
        assert response.status_code == 422, response.text
        assert phrase in response.json()["detail"]


# Against the computer


def test_the_computer_plays_its_seat(client: TestClient) -> None:
    state = create(client, opponent="computer", level="advanced", seed=5, length=1)
    match_id = state["id"]
    assert [seat["kind"] for seat in state["seats"]] == ["human", "computer"]
    # The person's token holds seat 0 only: the computer's seat is nobody's to act for.
    refused(client, match_id, 403, "not seat 1", {"seat": 1, "action": "roll"})
    opening(client, match_id)
    doubled = False
    for _ in range(2000):
        state = settled(client, match_id)
        if state["match_over"]:
            break
        actions = state["actions"][0]
        if not doubled and "double" in actions:
            doubled = True
            act(client, match_id, seat=0, action="double")
        elif "accept" in actions:
            act(client, match_id, seat=0, action="accept")
        elif "take" in actions:
            act(client, match_id, seat=0, action="take")
        else:
            act(client, match_id, **next_action(state))
    assert state["match_over"]
    result = state["record"][0]["result"]
    assert state["score"][result["winner"]] == result["points"] >= 1
    assert state["winner"] == result["winner"]


def test_the_computer_resumes_after_a_failed_try(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = create(client, opponent="computer", seed=SEED)["id"]
    tried = break_the_computer(monkeypatch)
    state = act(client, match_id, seat=0, action="roll")  # the computer wins the opening roll
    assert tried.wait(10)
    state = state_of(client, match_id)
    assert state["phase"] == "move" and state["to_act"] == 1  # the roll stands
    monkeypatch.undo()
    state = settled(client, match_id)  # the read wakes the computer again
    assert state["to_act"] == 0
    assert [entry["kind"] for entry in state["record"][0]["entries"]] == ["opening", "play"]


def test_the_computer_finishes_a_play_whose_steps_were_saved_without_it(
    database: Settings,
) -> None:
    """A match saved with some of the computer's steps made (as a server that saved each
    step did): the computer, started again, plays its turn from there."""
    with client_for(database) as first:
        match_id = create(first, seed=SEED)["id"]
        state = opening(first, match_id)  # seat 1 wins the opening roll
        step = state["steps"][0]
        act(first, match_id, seat=1, action="step", **{"from": step["from"], "to": step["to"]})
    engine = make_engine(database.database_url)
    with Session(engine) as session, session.begin():
        row = session.get(MatchRow, match_id)
        assert row is not None
        row.settings = {**row.settings, "seats": [{"kind": "human", "level": None},
                                                  {"kind": "computer", "level": "beginner"}]}
    engine.dispose()
    with client_for(database) as second:
        state = settled(second, match_id)
    assert state["to_act"] == 0 and state["phase"] == "roll"
    assert [entry["kind"] for entry in state["record"][0]["entries"]] == ["opening", "play"]


def test_each_action_is_pushed_to_watching_pages(client: TestClient) -> None:
    match_id = create(client, opponent="computer", seed=SEED)["id"]
    with client.websocket_connect(f"/api/matches/{match_id}/updates?view=0") as socket:
        first = socket.receive_json()
        assert first["id"] == match_id and first["phase"] == "opening"
        act(client, match_id, seat=0, action="roll")  # seat 1, the computer, wins it
        final = settled(client, match_id)
        pushed = [socket.receive_json()]
        while pushed[-1]["version"] < final["version"]:  # the computer's own actions
            pushed.append(socket.receive_json())
        assert [state["version"] for state in pushed] == list(
            range(first["version"] + 1, final["version"] + 1)
        )
        assert pushed[-1] == final
        # The computer's play, as a person's: one checker step at a time, then the confirm.
        made = [len(state["made"]) for state in pushed if state["phase"] == "move"]
        assert made[:2] == [0, 1]
        assert [entry["kind"] for entry in final["record"][0]["entries"]] == ["opening", "play"]


def test_a_page_that_reconnects_gets_what_it_missed_and_nothing_twice(
    client: TestClient,
) -> None:
    """Each pushed state carries its version (the event id); a page that reconnects names the
    last it saw (``since``) and is sent the state if it changed meanwhile, which holds every
    event missed, and nothing it has seen."""
    match_id = create(client)["id"]
    url = f"/api/matches/{match_id}/updates?view=0"
    with client.websocket_connect(url) as socket:
        seen = socket.receive_json()["version"]
    missed = play(client, match_id, 5)  # the page is away
    with client.websocket_connect(f"{url}&since={seen}") as socket:
        caught_up = socket.receive_json()
        assert caught_up == missed and caught_up["version"] == seen + 5
        after = play(client, match_id, 1)
        assert socket.receive_json() == after
    with client.websocket_connect(f"{url}&since={after['version']}") as socket:
        # Nothing is sent for the state it has: the first push is the next action's.
        following = play(client, match_id, 1)
        assert socket.receive_json()["version"] == following["version"] == after["version"] + 1
    with client.websocket_connect(f"{url}&since=soon") as socket:
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008 and closed.value.reason.endswith(".")


# Hints


def hint(client: TestClient, match_id: str, view: int = 0) -> State:
    response = client.get(f"/api/matches/{match_id}/hint", params={"view": view})
    assert response.status_code == 200, response.text
    answer: State = response.json()
    return answer


def no_hint(client: TestClient, match_id: str, phrase: str) -> None:
    """Ask for a hint when none is due: 409, a sentence containing ``phrase``, no change."""
    before = state_of(client, match_id)
    response = client.get(f"/api/matches/{match_id}/hint")
    assert response.status_code == 409, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    assert state_of(client, match_id) == before


def test_a_hint_ranks_the_best_plays_as_the_bot_does(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    mover = state["to_act"]
    dice = (state["dice"][0]["value"], state["dice"][1]["value"])
    answer = hint(client, match_id)
    assert answer["kind"] == "move" and answer["seat"] == mover and answer["cube"] is None
    assert answer["version"] == state["version"] and answer["dice"] == list(dice)
    assert answer["level"] == "strongest" and not answer["from_turn_start"]
    plays = answer["plays"]
    assert len(plays) == 5
    equities = [play["equity"] for play in plays]
    assert equities == sorted(equities, reverse=True)
    differences = [play["difference"] for play in plays]
    assert differences == pytest.approx([e - equities[0] for e in equities])
    # The start is the same from either side.
    expected = Bot(level=Level.STRONGEST).hints(Position.initial(), dice, 5)
    assert [play["play"] for play in plays] == [str(h.play) for h in expected]
    assert equities == pytest.approx([h.equity for h in expected])
    best = plays[0]
    assert best["chances"]["win"] == pytest.approx(expected[0].probabilities.win)
    assert 0 <= best["chances"]["lose_backgammon"] <= best["chances"]["lose_gammon"] <= 1
    # Each play's steps on seat 0's board, as the state gives its steps (seat 1 moves).
    for play, reference in zip(plays, expected, strict=True):
        assert [(s["from"], s["to"], s["hit"]) for s in play["steps"]] == list(
            reference.play.steps
        )
        for step in play["steps"]:
            assert step["board_from"] == (25 - step["from"] if mover == 1 else step["from"])
        assert play["remaining"] == play["steps"]
    first = plays[0]["steps"][0]
    assert (first["from"], first["to"]) in {(s["from"], s["to"]) for s in state["steps"]}


def test_a_hint_after_a_step_is_for_the_whole_turn(client: TestClient) -> None:
    match_id = create(client, seed=SEED)["id"]
    state = opening(client, match_id)
    mover = state["to_act"]
    dice = (state["dice"][0]["value"], state["dice"][1]["value"])
    whole = hint(client, match_id)
    step = state["steps"][0]
    state = act(client, match_id, seat=mover, action="step", **{"from": step["from"]},
                to=step["to"])
    answer = hint(client, match_id, view=1)
    assert answer["from_turn_start"] and answer["version"] == state["version"]
    assert [(s["from"], s["to"]) for s in answer["made"]] == [(step["from"], step["to"])]
    assert [p["play"] for p in answer["plays"]] == [p["play"] for p in whole["plays"]]
    # The remaining steps finish the play from the step made; the other plays need an undo.
    start = Position.initial()
    followed = 0
    for play in answer["plays"]:
        turn = start.turn(dice).step(step["from"], step["to"])
        if play["remaining"] is None:
            assert not any(
                turn_play.result == start.parse_play(play["play"], dice).result
                for turn_play in _completions(turn)
            )
            continue
        followed += 1
        for rest in play["remaining"]:
            assert rest["board_from"] == rest["from"]  # seat 1's own side
            turn = turn.step(rest["from"], rest["to"])
        assert str(turn.play()) == play["play"]
    assert followed >= 1


def _completions(turn: Any) -> list[Any]:
    if turn.is_complete:
        return [turn.play()]
    return [play for a, b in turn.legal_steps() for play in _completions(turn.step(a, b))]


def test_a_cube_hint_for_the_doubler_and_for_the_taker(client: TestClient) -> None:
    match_id = create(client, seed=SEED, beavers=True)["id"]
    reference = Game(Rules(beavers=True), dice=SeededDice(SEED))
    state = opening(client, match_id)
    reference.roll(0)
    act(client, match_id, seat=state["to_act"], action="play", play="24/20 13/8")
    reference.play(reference.on_roll, "24/20 13/8")
    doubler = reference.on_roll
    decision = Bot(level=Level.STRONGEST).cube_decision(
        reference.position, reference.cube_context(doubler)
    )
    answer = hint(client, match_id)
    assert answer["kind"] == "cube" and answer["seat"] == doubler and answer["plays"] == []
    cube = answer["cube"]
    assert cube["doubler"] == doubler and cube["unit"] == "cube" and not cube["beavered"]
    assert (cube["action"], cube["response"]) == (decision.action, decision.response)
    assert [cube["no_double"], cube["double_take"], cube["double_pass"]] == pytest.approx(
        [decision.no_double, decision.double_take, decision.double_drop]
    )
    assert cube["chances"]["win"] == pytest.approx(decision.probabilities.win)
    assert cube["recommended"] == ("double" if decision.action == "double" else "roll")

    act(client, match_id, seat=doubler, action="double")
    answer = hint(client, match_id)
    cube = answer["cube"]
    assert answer["seat"] == 1 - doubler and cube["doubler"] == doubler
    assert cube["recommended"] == decision.response  # beavers are allowed here
    assert cube["no_double"] == pytest.approx(decision.no_double)


def test_a_cube_hint_in_a_match_is_in_match_winning_chances(client: TestClient) -> None:
    match_id = create(client, seed=SEED, length=5)["id"]
    state = opening(client, match_id)
    act(client, match_id, seat=state["to_act"], action="play", play="24/20 13/8")
    cube = hint(client, match_id)["cube"]
    assert cube["unit"] == "match"
    for equity in (cube["no_double"], cube["double_take"], cube["double_pass"]):
        assert 0 <= equity <= 1


def test_no_hint_when_none_is_due(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    match_id = create(client, seed=SEED, cube=False)["id"]
    no_hint(client, match_id, "opening roll")
    state = opening(client, match_id)
    act(client, match_id, seat=state["to_act"], action="play", play="24/20 13/8")
    no_hint(client, match_id, "may not double")  # no cube in this game
    # An offer to resign waits for seat 1's answer: the hint is for seat 1, not seat 0.
    act(client, match_id, seat=0, action="resign", level=1)
    response = client.get(f"/api/matches/{match_id}/hint")
    assert response.status_code == 200, response.text
    resignation = response.json()["resignation"]
    assert response.json()["kind"] == "resign" and response.json()["seat"] == 1
    assert resignation["by"] == 0 and resignation["level"] == 1
    assert resignation["unit"] == "points" and resignation["accepting"] == 1.0
    # A single game conceded at the second turn is worth more than playing on.
    assert resignation["accept"] and resignation["playing_on"] < resignation["accepting"]

    over = create(client, length=1, seed=SEED)["id"]
    state = opening(client, over)
    act(client, over, seat=1 - state["to_act"], action="resign", level=1)
    act(client, over, seat=state["to_act"], action="accept")
    no_hint(client, over, "The match is over")

    computer_id = create(client, opponent="computer", seed=SEED)["id"]
    # The computer fails to act, so the game goes on waiting for it.
    tried = break_the_computer(monkeypatch)
    act(client, computer_id, seat=0, action="roll")  # the computer wins the opening roll
    assert tried.wait(10)
    no_hint(client, computer_id, "waits for the computer")


# Persistence


def test_a_restart_resumes_exactly(tmp_path: Path) -> None:
    """The same actions, with a restart in the middle of a turn and without: the same game,
    the seeded dice going on as they would have."""
    restarted, straight = tmp_path / "restarted.sqlite", tmp_path / "straight.sqlite"
    with client_for(restarted) as first, client_for(straight) as reference:
        match_id = create(first, seed=SEED)["id"]
        reference_id = create(reference, seed=SEED)["id"]
        state = play(first, match_id, 9)
        assert state["made"], "the restart should fall in the middle of a turn"
        play(reference, reference_id, 9)
        tokens = first.headers["Authorization"], reference.headers["Authorization"]
    with client_for(restarted) as second, client_for(straight) as reference:
        second.headers["Authorization"], reference.headers["Authorization"] = tokens
        resumed = state_of(second, match_id)
        assert resumed == state
        after = play(second, match_id, 40)
        expected = play(reference, reference_id, 40)
    assert after | {"id": None} == expected | {"id": None}


def test_the_record_and_the_mat_export(client: TestClient) -> None:
    match_id = create(client, seed=SEED, length=3)["id"]
    state = play(client, match_id, 12)
    record = client.get(f"/api/matches/{match_id}/record").json()
    assert record["length"] == 3 and len(record["games"][0]) == state["version"]
    response = client.get(f"/api/matches/{match_id}/mat")
    assert response.status_code == 200
    assert "attachment" in response.headers["content-disposition"]
    assert " 3 point match" in response.text
    again = import_mat(response.text)
    played = [entry for entry in state["record"][0]["entries"] if entry["kind"] == "play"]
    assert len(again.game.plays) == len(played)


def test_the_migrations_build_the_declared_tables(tmp_path: Path) -> None:
    engine = make_engine(sqlite_url(tmp_path / "sub" / "fresh.sqlite"))
    migrate(engine)
    migrate(engine)  # a second start finds the schema current
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
        head = ScriptDirectory.from_config(alembic_config()).get_current_head()
        assert version.scalar_one() == head
    engine.dispose()


# The app around the API


def test_openapi_documents_the_action_route_it_does_not_read_through_fastapi(
    client: TestClient,
) -> None:
    document = client.get("/openapi.json").json()
    operation = document["paths"]["/api/matches/{match_id}/actions"]["post"]
    assert {(each["name"], each["in"]) for each in operation["parameters"]} == {
        ("match_id", "path"), ("view", "query"), ("record_since", "query"),
        ("Idempotency-Key", "header"), ("Watcher-Id", "header")}
    assert all("in" not in each["schema"] for each in operation["parameters"])
    assert operation["security"] == [{"seat token": []}]
    assert "seat token" in document["components"]["securitySchemes"]
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    kinds = body["discriminator"]["mapping"]
    assert {"roll", "step", "play", "double", "take", "claim"} <= set(kinds)
    for reference in kinds.values():  # every kind of action is in the components
        name = reference.removeprefix("#/components/schemas/")
        assert "properties" in document["components"]["schemas"][name]


def test_docs_page_and_static_files(client: TestClient) -> None:
    assert client.get("/docs").status_code == 200
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/matches", "/api/matches/{match_id}", "/api/matches/{match_id}/actions",
            "/api/matches/{match_id}/mat"} <= set(paths)
    page = client.get("/")
    assert page.status_code == 200 and 'type="module"' in page.text
    assert client.get("/messages/en.json").json()["app.title"]
    assert client.get("/js/board.js").status_code == 200


def test_settings_come_from_the_environment() -> None:
    assert Settings.from_env({}).database_url == "sqlite:///data/backgammon.sqlite"
    settings = Settings.from_env(
        {"BACKGAMMON_DATABASE_URL": "sqlite:////x.db", "BACKGAMMON_HOST": "0.0.0.0",
         "BACKGAMMON_PORT": "9000", "BACKGAMMON_COMPUTER_PAUSE": "0.1"}
    )
    assert settings == Settings("sqlite:////x.db", "0.0.0.0", 9000, computer_pause=0.1)
    with pytest.raises(BackgammonError, match="BACKGAMMON_PORT"):
        Settings.from_env({"BACKGAMMON_PORT": "eighty"})
    for pause in ("slow", "-1", "nan", "60"):
        with pytest.raises(BackgammonError, match="BACKGAMMON_COMPUTER_PAUSE"):
            Settings.from_env({"BACKGAMMON_COMPUTER_PAUSE": pause})
    assert Settings.from_env({"BACKGAMMON_TELEMETRY": "1"}).telemetry
    with pytest.raises(BackgammonError, match="BACKGAMMON_TELEMETRY is 0 or 1"):
        Settings.from_env({"BACKGAMMON_TELEMETRY": "yes"})


#: A child process that configures OpenTelemetry's tracer provider (for the whole process,
#: once: not in the tests' own), serves one request, and prints the spans FastAPI started.
_SPANS = """
import sys
from pathlib import Path
from fastapi.testclient import TestClient
from opentelemetry import trace
from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

started = []

class Recorder(trace.NoOpTracer):
    def start_span(self, name, *args, **kwargs):
        started.append(name)
        return super().start_span(name, *args, **kwargs)

class Provider(trace.TracerProvider):
    def get_tracer(self, *args, **kwargs):
        return Recorder()

trace.set_tracer_provider(Provider())
app = create_app(Settings(sqlite_url(Path(sys.argv[1])), telemetry=sys.argv[2] == "1"))
with TestClient(app) as client:
    assert client.get("/").status_code == 200
print(*started)
"""


def test_fastapis_telemetry_is_off_unless_asked_for(tmp_path: Path) -> None:
    """With a tracer provider configured, FastAPI traces each request only where
    BACKGAMMON_TELEMETRY asks for it (it asks for the provider at every request otherwise,
    a cost every action paid)."""

    def spans(name: str, telemetry: str) -> str:
        done = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", _SPANS, str(tmp_path / name), telemetry],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert spans("quiet.sqlite", "0") == ""
    assert spans("told.sqlite", "1") == "GET"


def test_the_serve_command_starts_uvicorn(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import uvicorn

    from backgammon.cli import main

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.update(options, app=app))
    monkeypatch.setenv("BACKGAMMON_DATABASE_URL", sqlite_url(tmp_path / "serve.sqlite"))
    assert main(["serve", "--port", "8123"]) == 0
    assert started["host"] == "127.0.0.1" and started["port"] == 8123
    assert started["ws_per_message_deflate"] is False  # the pushes go uncompressed
    assert "http://127.0.0.1:8123/" in capsys.readouterr().out
    assert (tmp_path / "serve.sqlite").exists()


def test_an_action_the_direct_path_does_not_see_is_answered_by_the_route_alike(
    tmp_path: Path,
) -> None:
    """Actions go straight to their route's function (routes.actions.DirectActions); one
    under a root path, which the direct path does not see, reaches it through FastAPI's
    routing, and is answered alike, refusals included. (Two clients of one app: neither
    starts it, which would give it two event loops.)"""
    direct = client_for(tmp_path / "games.sqlite")
    routed = TestClient(direct.app, root_path="/bg")
    match_id = create(direct, seed=SEED)["id"]
    routed.headers["Authorization"] = direct.headers["Authorization"]
    opening(direct, match_id)
    answers = []
    for client, path in ((direct, ""), (routed, "/bg")):
        url = f"{path}/api/matches/{match_id}/actions"
        state = state_of(direct, match_id)
        step = state["steps"][0]
        played = client.post(url, json={"seat": state["to_act"], "action": "step",
                                        "from": step["from"], "to": step["to"],
                                        "version": state["version"]})
        stale = client.post(url, json={"seat": 0, "action": "roll", "version": 0})
        malformed = client.post(url, json={"seat": 0, "action": "fly", "version": 0})
        assert played.status_code == 200, played.text
        answers.append([played.json()["version"] - state["version"], stale.status_code,
                        stale.json()["detail"][:30], malformed.status_code,
                        malformed.json()["errors"][0]["loc"]])
    assert answers[0] == answers[1] == [1, 409, answers[0][2], 422, ["body"]]
