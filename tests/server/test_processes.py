"""Several server processes on one PostgreSQL database, with Redis between them: a page
watching through one process sees every action taken through another, each event once and in
order, and the computer's turns, which every process is woken to play, are taken once.

The processes are real (``launch`` of ``conftest.py``: uvicorn on loopback ports), as they
would run on several machines behind a proxy; skipped where PostgreSQL or Redis cannot start.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest
from support import merged

from backgammon.server import Settings

pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed

State = dict[str, Any]
Server = Any  # conftest.ServerProcess
#: A guard against a hang, never a measure.
PATIENCE = 120.0


@pytest.fixture
def shared(postgres: Any, redis_url: str) -> Settings:
    """A new PostgreSQL database, and Redis."""
    return Settings(postgres.new_database(), redis_url=redis_url)


class Watcher(threading.Thread):
    """A page watching a match through one server: every state pushed, in order."""

    def __init__(self, server: Server, match_id: str, query: str = "view=0") -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{server.port}/api/matches/{match_id}/updates?{query}"
        self.states: list[State] = []
        self.opened = threading.Event()
        self.closing = threading.Event()
        self.start()
        assert self.opened.wait(PATIENCE), "the WebSocket did not open"
        self.wait_for(0)  # joined: the state now has come

    def run(self) -> None:
        with sync_client.connect(self.url, open_timeout=PATIENCE) as socket:
            self.opened.set()
            while not self.closing.is_set():
                try:
                    self.states.append(json.loads(socket.recv(timeout=0.1)))
                except TimeoutError:
                    continue  # look at ``closing`` again
                except ConnectionClosed:
                    return  # the server has gone (the test failed): the test says why

    def versions(self) -> list[int]:
        return [state["version"] for state in self.states]

    def wait_for(self, version: int) -> list[State]:
        """The states seen once one of ``version`` has come."""
        deadline = time.monotonic() + PATIENCE
        while not self.states or self.states[-1]["version"] < version:
            assert time.monotonic() < deadline, f"stuck at {self.versions()[-3:]}"
            time.sleep(0.01)
        return list(self.states)

    def close(self) -> None:
        self.closing.set()
        self.join(PATIENCE)


def next_action(state: State) -> dict[str, Any]:
    """Both seats: roll, confirm, or the first step offered."""
    seat = state["to_act"] if state["to_act"] is not None else 0
    body = {"seat": seat, "version": state["version"]}
    for simple in ("roll", "confirm", "take", "accept", "pass"):
        if simple in state["actions"][seat]:
            return {**body, "action": simple}
    assert state["steps"], state["actions"]
    step = state["steps"][0]
    return {**body, "action": "step", "from": step["from"], "to": step["to"]}


def test_a_page_on_one_process_sees_each_action_taken_on_another(
    shared: Settings, launch: Any
) -> None:
    one, other = launch(shared), launch(shared)
    status, state = one.request("POST", "/api/matches", {"opponent": "human", "length": 3})
    assert status == 201, state
    match_id, token = state["id"], state["token"]
    watchers = [Watcher(one, match_id), Watcher(other, match_id)]
    answered = [state["version"]]
    for number in range(40):
        # Each action through the process that did not take the last: its copy is behind.
        server = (one, other)[number % 2]
        status, state = server.request("POST", f"/api/matches/{match_id}/actions",
                                       next_action(state), token)
        assert status == 200, state
        answered.append(state["version"])
    for watcher in watchers:
        seen = watcher.wait_for(state["version"])
        # Each state once, in order: every action's (one that sets off automatic events, as
        # a tied opening roll does, may be shown once with them), and the last one the
        # state now.
        assert watcher.versions() == sorted(set(watcher.versions()))
        assert set(answered) <= set(watcher.versions())
        assert seen[-1] == one.state(match_id)
        watcher.close()


def test_pages_sent_the_records_changes_see_every_action_taken_on_another_process(
    shared: Settings, launch: Any
) -> None:
    """A page that asks for the record's changes is pushed, by the process that serves it,
    each event another process made, once its copy has taken it from the row: the states it
    extends its record with make the state every process shows."""
    one, other = launch(shared), launch(shared)
    status, state = one.request("POST", "/api/matches", {"opponent": "human", "length": 3})
    assert status == 201, state
    match_id, token = state["id"], state["token"]
    watchers = [Watcher(server, match_id, f"view={view}&record=changes")
                for server in (one, other) for view in (0, 1)]
    for number in range(40):
        # Runs of actions on each process: its copy is brought up to its row, then acts.
        server = (one, other)[number // 3 % 2]
        status, state = server.request("POST", f"/api/matches/{match_id}/actions",
                                       next_action(state), token)
        assert status == 200, state
    for watcher, view in zip(watchers, (0, 1, 0, 1), strict=True):
        seen = watcher.wait_for(state["version"])
        assert watcher.versions() == sorted(set(watcher.versions()))
        held: dict[str, Any] = {}
        for pushed in seen:
            held = merged(held, pushed)
        for server in (one, other):
            status, now = server.request("GET", f"/api/matches/{match_id}?view={view}")
            assert status == 200 and held == now
        watcher.close()


def test_the_computer_plays_each_turn_once_however_many_processes_wake_it(
    shared: Settings, launch: Any
) -> None:
    one, other = launch(shared), launch(shared)
    status, state = one.request(
        "POST", "/api/matches", {"opponent": "computer", "level": "beginner", "length": 1}
    )
    assert status == 201, state
    match_id, token = state["id"], state["token"]
    watchers = [Watcher(one, match_id), Watcher(other, match_id)]  # each wakes its computer
    acknowledged: list[dict[str, Any]] = []
    number = 0
    deadline = time.monotonic() + PATIENCE * 3
    while not state["match_over"]:
        assert time.monotonic() < deadline, f"the match did not end: {state}"
        server = (one, other)[number % 2]
        number += 1
        state = server.state(match_id)  # the read wakes this process's computer too
        if state["to_act"] == 1 or state["match_over"]:
            continue  # the computer's turn
        action = next_action(state)
        status, answer = server.request("POST", f"/api/matches/{match_id}/actions", action,
                                        token)
        if status == 409:
            # Read while this process's computer was thinking out an action that the other
            # process's saved first: the state was one event behind, and the action is
            # refused whole, as any action on a stale version is. Read again.
            continue
        assert status == 200, answer
        acknowledged.append(action)
    for watcher in watchers:
        # Each process has shown the computer's last action, step by step, to the end.
        seen = watcher.wait_for(state["version"])
        assert watcher.versions() == sorted(set(watcher.versions()))
        assert seen[-1]["version"] == state["version"] and seen[-1]["match_over"]
        watcher.close()
    status, record = one.request("GET", f"/api/matches/{match_id}/record")
    events = [event for game in record["games"] for event in game]
    assert len(events) == state["version"]
    for action in acknowledged:  # the person's actions where they were made
        assert (events[action["version"]]["action"], events[action["version"]]["player"]) == (
            action["action"], 0)


def test_a_seat_taken_on_one_process_is_held_on_the_other(
    shared: Settings, launch: Any
) -> None:
    """An online match created on one process and joined on the other: a join changes the
    seats and not the version, yet each process knows the seat taken at once (the creator's
    page watching the first process sees the opponent come), and each token acts through
    either process."""
    one, other = launch(shared), launch(shared)
    status, created = one.request("POST", "/api/matches", {"opponent": "online", "length": 1})
    assert status == 201, created
    match_id = created["id"]
    watcher = Watcher(one, match_id)
    assert one.state(match_id)["waiting_for_opponent"]
    status, joined = other.request("POST", "/api/matches/join", {"invite": created["invite"]})
    assert status == 200, joined
    deadline = time.monotonic() + PATIENCE
    while watcher.states[-1]["waiting_for_opponent"]:
        assert time.monotonic() < deadline, "the first process never saw the seat taken"
        time.sleep(0.01)
    watcher.close()
    tokens = {0: created["token"], 1: joined["token"]}
    state = one.state(match_id)
    for number in range(6):
        server = (one, other)[number % 2]
        seat = 0 if state["to_act"] is None else state["to_act"]
        status, state = server.request("POST", f"/api/matches/{match_id}/actions",
                                       next_action(state), tokens[seat])
        assert status == 200, state
    status, refused = other.request("POST", "/api/matches/join", {"invite": created["invite"]})
    assert status == 410, refused


def test_processes_starting_at_once_on_a_new_database_migrate_it_once(postgres: Any) -> None:
    # `uvicorn --workers N` starts every process at once: without the migrations' lock, all
    # but one failed to create the tables the first had just made.
    from backgammon.server.db import make_engine, migrate

    url = postgres.new_database()
    engines = [make_engine(url) for _ in range(4)]
    failures: list[BaseException] = []
    start = threading.Barrier(len(engines))

    def run(engine: Any) -> None:
        start.wait()
        try:
            migrate(engine)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a migration never ended"
    for engine in engines:
        engine.dispose()
    assert failures == []
