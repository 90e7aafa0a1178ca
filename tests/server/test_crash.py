"""The server killed with SIGKILL at any moment loses no acknowledged action and leaves no
match stuck: the real server runs as a process (uvicorn on a loopback socket that this test
holds, SQLite in a temporary folder), is killed while the person acts and while the computer
plays, and is started again on the same socket and database until the match is over.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import backgammon

pytest.importorskip("uvicorn")

State = dict[str, Any]
#: The kills: each at a moment drawn by its own seeded generator.
TRIALS = 14
#: A guard against a hang, never a measure: no wait below comes near it on an idle machine,
#: but a server that starts while the compiled kernel's cache is written, on a loaded CI
#: machine, may take a minute or more.
PATIENCE = 300.0


class Server:
    """``uvicorn backgammon.server:create_app`` as a child process serving on ``listener``."""

    def __init__(self, listener: socket.socket, database: Path) -> None:
        self.listener = listener
        self.port: int = listener.getsockname()[1]
        self.env = {
            **os.environ,
            "PYTHONPATH": str(Path(backgammon.__file__).parents[1]),
            "BACKGAMMON_DATABASE_URL": f"sqlite:///{database}",
            "BACKGAMMON_COMPUTER_PAUSE": "0.02",
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        fd = self.listener.fileno()
        command = [sys.executable, "-m", "uvicorn", "--factory", "backgammon.server:create_app",
                   "--fd", str(fd), "--log-level", "warning"]
        self.process = subprocess.Popen(command, env=self.env, pass_fds=(fd,))
        deadline = time.monotonic() + PATIENCE
        while True:  # up once it answers (an unknown match: 404)
            assert time.monotonic() < deadline, "the server did not start"
            assert self.process.poll() is None, "the server exited"
            try:
                self.request("GET", "/api/matches/none")
                return
            except (OSError, http.client.HTTPException):
                continue

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(PATIENCE)

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PATIENCE)
        try:
            data = None if body is None else json.dumps(body)
            headers = {"Content-Type": "application/json"} if body is not None else {}
            if token is not None:
                headers["Authorization"] = f"Bearer {token}"
            connection.request(method, path, data, headers)
            response = connection.getresponse()
            return response.status, json.loads(response.read() or b"null")
        finally:
            connection.close()

    def send_unanswered(self, path: str, body: Any, token: str) -> None:
        """Send a request and leave before its answer."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=PATIENCE)
        headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        connection.request("POST", path, json.dumps(body), headers)
        connection.sock.shutdown(socket.SHUT_WR)  # type: ignore[union-attr]

    def state(self, match_id: str) -> State:
        status, state = self.request("GET", f"/api/matches/{match_id}")
        assert status == 200, state
        return dict(state)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        running = Server(listener, tmp_path / "games.sqlite")
        running.start()
        try:
            yield running
        finally:
            if running.process is not None and running.process.poll() is None:
                running.kill()


def person_action(state: State) -> dict[str, Any] | None:
    """Seat 0's next action (roll, take, accept, the first step offered, confirm), or None
    while the game waits for the computer."""
    actions = state["actions"][0]
    for simple in ("roll", "confirm", "take", "accept"):
        if simple in actions:
            return {"seat": 0, "action": simple, "version": state["version"]}
    if "step" in actions and state["steps"]:
        step = state["steps"][0]
        return {"seat": 0, "action": "step", "from": step["from"], "to": step["to"],
                "version": state["version"]}
    return None


def wait_for(server: Server, match_id: str, done: Any) -> State:
    """The state once ``done(state)`` holds."""
    deadline = time.monotonic() + PATIENCE
    state = server.state(match_id)
    while not done(state):
        assert time.monotonic() < deadline, f"stuck: {state['phase']}, to act {state['to_act']}"
        state = server.state(match_id)
    return state


def events_of(server: Server, match_id: str) -> list[dict[str, Any]]:
    status, record = server.request("GET", f"/api/matches/{match_id}/record")
    assert status == 200
    return [event for game in record["games"] for event in game]


def test_no_acknowledged_action_is_lost_and_the_match_goes_on(server: Server) -> None:
    status, created = server.request(
        "POST", "/api/matches", {"opponent": "computer", "level": "beginner", "length": 1}
    )
    assert status == 201, created
    match_id, path = created["id"], f"/api/matches/{created['id']}/actions"
    acknowledged: list[dict[str, Any]] = []

    def act() -> bool:
        """One action of the person's once the game waits for it; False once it is over."""
        state = wait_for(server, match_id, lambda s: s["match_over"] or person_action(s))
        action = person_action(state)
        if action is None:
            return False
        status, answer = server.request("POST", path, action, created["token"])
        assert status == 200, answer
        acknowledged.append(action)
        return True

    for trial in range(TRIALS):
        draw = random.Random(trial)
        for _ in range(draw.randint(0, 6)):
            if not act():
                break
        moment = draw.choice(["now", "in flight", "computer"])
        state = server.state(match_id)
        if moment == "in flight" and (action := person_action(state)) is not None:
            server.send_unanswered(path, action, created["token"])
        elif moment == "computer":
            # Some of the computer's events after the person's last: its roll, a step of
            # its play shown, the confirm (or the person's turn, when it made fewer).
            target = state["version"] + draw.randint(1, 4)
            wait_for(server, match_id, lambda s, target=target: s["version"] >= target
                     or s["match_over"] or person_action(s) is not None)
        server.kill()
        server.start()
        events = events_of(server, match_id)
        for action in acknowledged:
            kept = events[action["version"]]
            assert (kept["action"], kept["player"]) == (action["action"], 0), (action, kept)
            if action["action"] == "step":
                assert kept["steps"] == [[action["from"], action["to"]]]
    while act():
        pass
    final = server.state(match_id)
    assert final["match_over"] and final["winner"] in (0, 1)
    assert len(acknowledged) > TRIALS
