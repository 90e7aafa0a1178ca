"""The server killed with SIGKILL at any moment loses no acknowledged action and leaves no
match stuck, under concurrent play: the real server runs as a process (uvicorn on a loopback
socket that the test holds: ``launch`` of ``conftest.py``), players in threads play several
matches against the computer at once, and a server is killed at seeded moments and started
again on the same socket and database, until every match is over. On SQLite one process
serves; on PostgreSQL with Redis two do, each player sending each request to either, and
either is killed: the computer's turns, which both processes are woken to play, are taken
once.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from typing import Any

import pytest

from backgammon.server import Settings

pytest.importorskip("uvicorn")

State = dict[str, Any]
Server = Any  # conftest.ServerProcess
#: The kills: each after a number of acknowledged actions drawn by its own seeded generator.
TRIALS = 10
#: The matches played at once.
MATCHES = 3
#: A guard against a hang, never a measure (see conftest.SERVER_PATIENCE).
PATIENCE = 300.0


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


class Player(threading.Thread):
    """A person playing one match against the computer, each request to a server drawn at
    random; an action is acknowledged when its answer (200) has come back."""

    def __init__(self, servers: list[Server], number: int, tally: threading.Condition) -> None:
        super().__init__(daemon=True)
        self.servers = servers
        self.draw = random.Random(1000 + number)
        self.tally = tally
        self.acknowledged: list[dict[str, Any]] = []
        self.failure: BaseException | None = None
        status, created = servers[number % len(servers)].request(
            "POST", "/api/matches", {"opponent": "computer", "level": "beginner", "length": 1}
        )
        assert status == 201, created
        self.match_id: str = created["id"]
        self.token: str = created["token"]
        self.over = False

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # reported by the test's thread
            self.failure = exc
        with self.tally:
            self.tally.notify_all()

    def _play(self) -> None:
        path = f"/api/matches/{self.match_id}/actions"
        deadline = time.monotonic() + PATIENCE * 4
        while time.monotonic() < deadline:
            server = self.draw.choice(self.servers)
            try:
                state = server.state(self.match_id)
                if state["match_over"]:
                    self.over = True
                    return
                action = person_action(state)
                if action is None:
                    continue  # the computer's turn: read again (which wakes it)
                status, answer = server.request("POST", path, action, self.token)
            except (OSError, http.client.HTTPException, AssertionError):
                continue  # the server was killed meanwhile: the action may or may not stand
            if status == 200:
                with self.tally:
                    self.acknowledged.append(action)
                    self.tally.notify_all()
            else:  # acted on already (its answer lost to a kill), or not saved
                assert status in (409, 503), answer
        raise AssertionError(f"match {self.match_id} did not end")


def events_of(server: Server, match_id: str) -> list[dict[str, Any]]:
    status, record = server.request("GET", f"/api/matches/{match_id}/record")
    assert status == 200
    return [event for game in record["games"] for event in game]


def check_kept(server: Server, player: Player) -> int:
    """Assert that each of ``player``'s acknowledged actions is in the record where it was
    made; how many there are."""
    with player.tally:
        acknowledged = list(player.acknowledged)
    # The server's copy may be behind its row for a moment (an action or the computer's turn
    # holds the match's lock, and a read meanwhile shows the copy being acted on; with two
    # processes, the other may have saved since): wait until it shows the last action
    # acknowledged, as a page waits for the push that follows. A lost action never comes.
    needed = max((action["version"] for action in acknowledged), default=-1)
    deadline = time.monotonic() + PATIENCE
    events = events_of(server, player.match_id)
    while len(events) <= needed and time.monotonic() < deadline:
        time.sleep(0.1)
        events = events_of(server, player.match_id)
    assert len(events) > needed, f"acknowledged version {needed} is not in the record"
    for action in acknowledged:
        kept = events[action["version"]]
        assert (kept["action"], kept["player"]) == (action["action"], 0), (action, kept)
        if action["action"] == "step":
            assert kept["steps"] == [[action["from"], action["to"]]]
    return len(acknowledged)


def test_no_acknowledged_action_is_lost_under_concurrent_play(
    database: Settings, launch: Any
) -> None:
    servers = [launch(database)]
    if database.redis_url is not None:
        servers.append(launch(database))
    tally = threading.Condition()
    players = [Player(servers, number, tally) for number in range(MATCHES)]
    for player in players:
        player.start()

    def acknowledged() -> int:
        return sum(len(player.acknowledged) for player in players)

    kills = 0
    for trial in range(TRIALS):
        draw = random.Random(trial)
        target = acknowledged() + draw.randint(1, 6)
        with tally:
            assert tally.wait_for(
                lambda target=target: acknowledged() >= target  # type: ignore[misc]
                or not any(player.is_alive() for player in players),
                PATIENCE,
            ), "no action was acknowledged"
        if not any(player.is_alive() for player in players):
            break
        victim = draw.choice(servers)
        victim.kill()
        kills += 1
        victim.start()
        for player in players:
            check_kept(victim, player)
    for player in players:
        player.join(PATIENCE * 4)
        assert player.failure is None, player.failure
        assert player.over
    assert kills >= TRIALS // 2
    kept = sum(check_kept(servers[0], player) for player in players)
    assert kept > TRIALS
    for player in players:
        # Another process may still be bringing its copy up to the row (a Redis notice is
        # being handled, holding the match's lock, and a read meanwhile shows the copy as
        # it was): wait for it, as a page waits for the push that follows.
        deadline = time.monotonic() + PATIENCE
        final = servers[-1].state(player.match_id)
        while not final["match_over"] and time.monotonic() < deadline:
            time.sleep(0.1)
            final = servers[-1].state(player.match_id)
        assert final["match_over"] and final["winner"] in (0, 1)
