"""A page that stops reading its live updates never holds up the match: the real server (uvicorn
in a thread, on a loopback port) keeps answering actions while one watcher reads nothing, drops
that watcher once its queue is full, and goes on pushing to the pages that read, in order."""

from __future__ import annotations

import base64
import http.client
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

uvicorn = pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

ACTIONS = 1000
#: A guard against a hang, never a measure.
PATIENCE = 30.0


class Running:
    """The app served by uvicorn in a thread of this process (its hub is in reach)."""

    def __init__(self, database: Path) -> None:
        settings = Settings(database_url=sqlite_url(database), computer_pause=0,
                            action_rate=None, watcher_queue=8)
        self.app = create_app(settings)
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.listener]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + PATIENCE
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(PATIENCE)
        self.listener.close()


@pytest.fixture
def running(tmp_path: Path) -> Iterator[Running]:
    served = Running(tmp_path / "games.sqlite")
    yield served
    served.stop()


def stuck_watcher(port: int, match_id: str) -> socket.socket:
    """A WebSocket opened by hand that never reads a byte (a tiny receive buffer, so the
    server's sends back up soon)."""
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    stuck.sendall(
        f"GET /api/matches/{match_id}/updates?view=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    return stuck


def next_action(state: dict[str, Any]) -> dict[str, Any]:
    """Both seats: roll, confirm, or the first step offered."""
    seat = state["to_act"] if state["to_act"] is not None else 0
    if "roll" in state["actions"][seat]:
        return {"seat": seat, "action": "roll", "version": state["version"]}
    if "confirm" in state["actions"][seat]:
        return {"seat": seat, "action": "confirm", "version": state["version"]}
    step = state["steps"][0]
    return {"seat": seat, "action": "step", "from": step["from"], "to": step["to"],
            "version": state["version"]}


def test_a_watcher_that_never_reads_holds_up_no_action(running: Running) -> None:
    token = ""

    def call(method: str, path: str, body: Any = None) -> dict[str, Any]:
        # A connection a request: on a kept-alive one, each answer waits for a delayed ACK.
        connection = http.client.HTTPConnection("127.0.0.1", running.port, timeout=PATIENCE)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        data: dict[str, Any] = json.loads(response.read())
        connection.close()
        assert response.status in (200, 201), data
        return data

    state = call("POST", "/api/matches", {"opponent": "human"})
    match_id, token = state["id"], state["token"]
    hub = running.app.state.hub
    stuck = stuck_watcher(running.port, match_id)
    url = f"ws://127.0.0.1:{running.port}/api/matches/{match_id}/updates"
    seen: list[int] = []

    def read(reader: Any) -> None:
        for message in reader:
            seen.append(json.loads(message)["version"])

    with sync_client.connect(url) as reader:
        deadline = time.monotonic() + PATIENCE
        while len(hub.watchers.get(match_id, ())) < 2:  # both have joined
            assert time.monotonic() < deadline
            time.sleep(0.01)
        threading.Thread(target=read, args=(reader,), daemon=True).start()
        for _ in range(ACTIONS):  # each answered, or the connection's timeout fails the test
            state = call("POST", f"/api/matches/{match_id}/actions", next_action(state))
        assert state["version"] >= ACTIONS
        # The stuck watcher was dropped; the reading one is still there and reaches the end.
        assert len(hub.watchers[match_id]) == 1
        deadline = time.monotonic() + PATIENCE
        while not seen or seen[-1] < state["version"]:
            assert time.monotonic() < deadline, "the reading watcher fell behind"
            time.sleep(0.01)
        assert seen == sorted(seen) and seen[-1] == state["version"]
    stuck.close()
