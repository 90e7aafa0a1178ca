"""The server against hostile and careless clients: every request is answered with a sentence
(never a 500, never an echo of what JSON cannot hold), types are strict, bodies are capped,
rates are limited per client, hints wait in a bounded pool, the WebSocket takes any frame and
any id, seeds are taken only where allowed, and the money cube is capped."""

from __future__ import annotations

import asyncio
import json
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import HTTPException
from starlette.websockets import WebSocketDisconnect

from backgammon import BackgammonError
from backgammon.cube import HIGHEST_CUBE
from backgammon.server import Settings, create_app
from backgammon.server.http.guards import BoundedPool, RateLimits
from backgammon.server.play.seats import new_secret
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

State = dict[str, Any]
UNLIMITED = {"create_rate": None, "hint_rate": None, "action_rate": None}


def client_for(database: Path, **settings: Any) -> TestClient:
    options = {"computer_pause": 0, **UNLIMITED, **settings}
    return TestClient(create_app(Settings(database_url=sqlite_url(database), **options)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def create(client: TestClient, **options: Any) -> State:
    response = client.post("/api/matches", json={"opponent": "human", **options})
    assert response.status_code == 201, response.text
    state: State = response.json()
    # The client holds the new match's token from now on, as the page that made it.
    client.headers["Authorization"] = f"Bearer {state['token']}"
    return state


def sentence(response: Any, status: int, phrase: str = "") -> str:
    """The refusal's sentence, checked: ``status``, JSON, a sentence holding ``phrase``."""
    assert response.status_code == status, response.text
    detail = json.loads(response.content)["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    return detail


def post_raw(client: TestClient, path: str, body: str | bytes) -> Any:
    return client.post(path, content=body, headers={"Content-Type": "application/json"})


# Input JSON cannot echo, and strict types


@pytest.mark.parametrize(
    "body",
    [
        '{"length": NaN}',
        '{"seed": Infinity}',
        '{"seed": 1e400}',
        '{"names": ["\\ud800", "Bo"]}',
        '{"\\udfff": 1}',
        '{"position": "\\ud800"}',
    ],
)
def test_input_json_cannot_hold_is_refused_without_an_echo(client: TestClient, body: str) -> None:
    sentence(post_raw(client, "/api/matches", body), 422, "malformed")


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ('{"length": true}', "length"),
        ('{"length": 3.0}', "length"),
        ('{"length": "3"}', "length"),
        ('{"cube": "yes"}', "cube"),
        ('{"cube": 1}', "cube"),
        ('{"max_cube": 8192}', "max_cube"),
        (f'{{"max_cube": {2**100}}}', "max_cube"),
        ('{"length": 65}', "length"),
        ('{"names": ["Ann\\u0000", "Bo"]}', "control characters"),
        ('{"names": ["Ann", "B\\u0007o"]}', "control characters"),
    ],
)
def test_match_options_are_strict(client: TestClient, body: str, phrase: str) -> None:
    sentence(post_raw(client, "/api/matches", body), 422, phrase)


@pytest.mark.parametrize(
    "action",
    [
        {"seat": 1.0, "action": "roll"},
        {"seat": True, "action": "roll"},
        {"seat": "1", "action": "roll"},
        {"seat": 0, "action": "roll", "version": 0.0},
        {"seat": 0, "action": "resign", "level": True},
        {"seat": 0, "action": "step", "from": 13.0, "to": 7},
        {"seat": 0, "action": "play", "play": "\uff11\uff13/\uff17 8/7"},  # full-width digits
        {"seat": 0, "action": "play", "play": "13/7\ud800"},
    ],
)
def test_actions_are_strict_and_change_nothing(client: TestClient, action: Any) -> None:
    match_id = create(client)["id"]
    before = client.get(f"/api/matches/{match_id}").json()
    body = json.dumps(action)  # escapes the surrogate, as a client would send it
    sentence(post_raw(client, f"/api/matches/{match_id}/actions", body), 422, "malformed")
    assert client.get(f"/api/matches/{match_id}").json() == before


def test_a_long_name_is_refused_in_a_short_answer(client: TestClient) -> None:
    response = client.post("/api/matches", json={"names": ["x" * 10_000, "Bo"]})
    sentence(response, 422, "names")
    assert len(response.content) < 2_000


# Size, rates, the hint pool


def test_a_body_over_the_limit_is_answered_413(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite", max_body=1_000) as client:
        big = json.dumps({"names": ["x" * 2_000, "Bo"]})
        sentence(post_raw(client, "/api/matches", big), 413, "too large")

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
            yield b'{"names": ["'
            for _ in range(100):
                yield b"x" * 100
            yield b'", "Bo"]}'

        sentence(post_raw(client, "/api/matches", chunks()), 413, "too large")  # type: ignore[arg-type]
        assert client.post("/api/matches", json={"opponent": "human"}).status_code == 201


def test_rates_are_limited_per_client(tmp_path: Path) -> None:
    rates = {"create_rate": "2/minute", "hint_rate": "1/minute", "action_rate": "3/minute"}
    with client_for(tmp_path / "games.sqlite", **rates) as client:
        create(client)
        match_id = create(client)["id"]  # the client holds the token of this one
        response = client.post("/api/matches", json={})
        sentence(response, 429, "Too many new matches")
        assert int(response.headers["Retry-After"]) >= 1
        assert client.get(f"/api/matches/{match_id}/hint").status_code == 409  # none due
        sentence(client.get(f"/api/matches/{match_id}/hint"), 429, "Too many hints")
        path = f"/api/matches/{match_id}/actions"
        for _ in range(3):
            undo = {"seat": 0, "action": "undo", "version": 0}
            assert client.post(path, json=undo).status_code == 409
        before = client.get(f"/api/matches/{match_id}").json()
        roll = {"seat": 0, "action": "roll", "version": 0}
        sentence(client.post(path, json=roll), 429, "Too many actions")
        assert client.get(f"/api/matches/{match_id}").json() == before


def test_with_redis_the_rare_limits_hold_across_processes(redis_url: str) -> None:
    rates: dict[str, str | None] = {"signin": "3/minute", "action": "2/minute"}
    first, second = RateLimits(rates, redis_url), RateLimits(rates, redis_url)
    client = new_secret()  # an address of its own: Redis outlives a test

    async def tries() -> None:
        # Sign-in tries are counted in Redis: 2 here and 1 there make the limit of 3.
        await first.check("signin", client)
        await first.check("signin", client)
        await second.check("signin", client)
        with pytest.raises(HTTPException, match="Too many tries to sign in") as refused:
            await second.check("signin", client)
        assert refused.value.status_code == 429
        # Actions are counted by each process alone: 2 each.
        for limits in (first, second, first, second):
            await limits.check("action", client)
        with pytest.raises(HTTPException, match="Too many actions"):
            await first.check("action", client)

    asyncio.run(tries())


def test_without_redis_the_limits_are_counted_in_memory() -> None:
    # Redis out of reach (nothing listens on port 1): the process counts alone, still limits.
    limits = RateLimits({"signin": "2/minute"}, "redis://127.0.0.1:1/0")

    async def tries() -> None:
        for _ in range(2):
            await limits.check("signin", "203.0.113.9")
        with pytest.raises(HTTPException, match="Too many tries to sign in"):
            await limits.check("signin", "203.0.113.9")

    asyncio.run(tries())


def test_a_bounded_pool_refuses_what_it_cannot_queue() -> None:
    release = threading.Event()

    async def main() -> None:
        pool = BoundedPool(workers=1, queue=1, busy="The computer is busy.")
        thinking = [asyncio.ensure_future(pool.run(release.wait)) for _ in range(2)]
        await asyncio.sleep(0)  # both are under way: one thinks, one waits
        with pytest.raises(HTTPException) as refused:
            await pool.run(release.wait)
        assert refused.value.status_code == 503 and "busy" in refused.value.detail
        release.set()
        assert await asyncio.gather(*thinking) == [True, True]
        assert await pool.run(lambda: 7) == 7
        pool.close()

    asyncio.run(main())


# The WebSocket


def test_the_websocket_ignores_binary_frames(client: TestClient) -> None:
    match_id = create(client)["id"]
    with client.websocket_connect(f"/api/matches/{match_id}/updates") as socket:
        assert socket.receive_json()["version"] == 0
        socket.send_bytes(b"\x00\xff binary")
        socket.send_text("text")
        client.post(f"/api/matches/{match_id}/actions",
                    json={"seat": 0, "action": "roll", "version": 0})
        assert socket.receive_json()["version"] >= 1


@pytest.mark.parametrize("match_id", ["nosuchmatch", "x" * 200, "\u00e9" * 100])
def test_an_unknown_id_closes_the_websocket_with_4404(client: TestClient, match_id: str) -> None:
    with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
        with client.websocket_connect(f"/api/matches/{match_id}/updates") as socket:
            socket.receive_json()
    assert closed.value.code == 4404 and len(closed.value.reason.encode()) <= 123


def test_live_update_sockets_are_capped_per_client_and_per_match(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite", sockets_per_client=2, sockets_per_match=3
                    ) as client:
        first, second = create(client)["id"], create(client)["id"]
        path = "/api/matches/{}/updates"
        with client.websocket_connect(path.format(first)) as one, \
                client.websocket_connect(path.format(second)) as two:
            one.receive_json(), two.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
                with client.websocket_connect(path.format(first)) as three:
                    three.receive_json()
            assert closed.value.code == 1013
            assert closed.value.reason == (
                "Too many live updates from this address: at most 2 open at once."
            )
        with client.websocket_connect(path.format(first)) as again:  # the places came back
            assert again.receive_json()["version"] == 0
        client.app.state.socket_caps.per_client = 10  # type: ignore[attr-defined]
        held = [client.websocket_connect(path.format(first)) for _ in range(3)]
        for socket in held:
            socket.__enter__().receive_json()
        with pytest.raises(WebSocketDisconnect) as closed:  # noqa: SIM117
            with client.websocket_connect(path.format(first)) as fourth:
                fourth.receive_json()
        assert closed.value.code == 1013 and "watchers" in closed.value.reason
        for socket in held:
            socket.__exit__(None, None, None)


# Dice and cube


def test_a_seed_is_taken_only_where_the_server_allows_it(tmp_path: Path) -> None:
    with client_for(tmp_path / "closed.sqlite") as client:
        sentence(client.post("/api/matches", json={"seed": 5}), 403, "BACKGAMMON_ALLOW_SEED")
        assert create(client)["seed"] is None
    with client_for(tmp_path / "open.sqlite", allow_seed=True) as client:
        state = create(client, seed=5)
        assert state["seed"] == 5
        assert client.get(f"/api/matches/{state['id']}").json()["seed"] == 5


def test_the_money_cube_stops_at_gnubgs_cap(client: TestClient) -> None:
    # The core caps every cube at gnubg's 4096 when the game sets no lower highest value.
    assert create(client)["rules"]["max_cube"] is None
    # Seat 0 on roll, owning a cube of 2048 in a money game.
    state = create(client, position="XGID=-b----E-C---eE---c-e----B-:11:1:1:00:0:0:0:0:12")
    match_id, path = state["id"], f"/api/matches/{state['id']}/actions"
    for seat, action in ((0, "double"), (1, "take"), (0, "roll")):
        response = client.post(path, json={"seat": seat, "action": action,
                                           "version": state["version"]})
        assert response.status_code == 200, response.text
        state = response.json()
    while state["to_act"] == 0:  # seat 0's play, step by step
        step = state["steps"][0] if state["steps"] else None
        action = {"action": "step", "from": step["from"], "to": step["to"]} if step else {
            "action": "confirm"}
        state = client.post(path, json={"seat": 0, **action, "version": state["version"]}).json()
    assert state["cube"]["value"] == HIGHEST_CUBE and state["cube"]["owner"] == 1
    assert "double" not in state["actions"][1]
    assert state["gnubg_id"] and state["xgid"]
    rolled = client.post(path, json={"seat": 1, "action": "roll", "version": state["version"]})
    assert rolled.status_code == 200, rolled.text
    assert client.get(f"/api/matches/{match_id}").json()["xgid"]


def test_a_match_longer_than_the_limit_is_refused_from_an_id(client: TestClient) -> None:
    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:100:10"
    sentence(client.post("/api/matches", json={"position": xgid}), 422, "64")


# Memory


def test_matches_leave_memory_and_come_back_from_the_database(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite", live_matches=2, allow_seed=True) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        first = create(client, seed=3)
        client.post(f"/api/matches/{first['id']}/actions",
                    json={"seat": 0, "action": "roll", "version": 0})
        before = client.get(f"/api/matches/{first['id']}").json()
        others = [create(client)["id"] for _ in range(2)]
        assert first["id"] not in store and all(other in store for other in others)
        assert client.get(f"/api/matches/{first['id']}").json() == before
        assert first["id"] in store
        # A watched match stays, however many others come.
        with client.websocket_connect(f"/api/matches/{first['id']}/updates") as socket:
            socket.receive_json()
            for _ in range(3):
                create(client)
            assert first["id"] in store
    with client_for(tmp_path / "games.sqlite", idle_seconds=0) as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        ids = [create(client)["id"] for _ in range(3)]
        assert [match_id in store for match_id in ids] == [False, False, True]


def test_two_copies_of_a_match_never_both_write(tmp_path: Path) -> None:
    """Two servers on one database (or a copy left in memory): the one that acts on a
    version the database no longer holds is refused, and then reads the other's action."""
    database = tmp_path / "games.sqlite"
    with client_for(database) as one, client_for(database) as other:
        match_id = create(one)["id"]
        other.headers["Authorization"] = one.headers["Authorization"]
        path = f"/api/matches/{match_id}/actions"
        assert other.get(f"/api/matches/{match_id}").status_code == 200  # both hold it
        rolled = one.post(path, json={"seat": 0, "action": "roll", "version": 0}).json()
        roll = {"seat": 1, "action": "roll", "version": 0}  # the version the other holds
        sentence(other.post(path, json=roll), 409, "elsewhere")
        assert other.get(f"/api/matches/{match_id}").json()["version"] == rolled["version"]


def test_the_guards_settings_come_from_the_environment() -> None:
    assert not Settings.from_env({}).allow_seed
    settings = Settings.from_env(
        {"BACKGAMMON_ALLOW_SEED": "1", "BACKGAMMON_CREATE_RATE": "5/hour",
         "BACKGAMMON_HINT_RATE": "none"}
    )
    assert settings.allow_seed and settings.create_rate == "5/hour"
    assert settings.hint_rate is None and settings.action_rate == "600/minute"
    assert Settings.from_env({"BACKGAMMON_CLAIM_SECONDS": "30"}).claim_seconds == 30
    for variable, value in (("BACKGAMMON_ALLOW_SEED", "yes"), ("BACKGAMMON_ACTION_RATE", "fast"),
                            ("BACKGAMMON_CLAIM_SECONDS", "-1")):
        with pytest.raises(BackgammonError, match=variable):
            Settings.from_env({variable: value})
