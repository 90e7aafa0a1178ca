"""The heaviest engine request the API allows never stalls the other clients: while a 3-ply
move answer of as many plays as it allows is thought out, or the computer thinks out its turn
at world class, the lobby goes on answering, again and again. The compiled kernel releases
the interpreter's lock (numba ``nogil``), so the thread that thinks leaves the event loop free;
before it did, the lobby waited as long as the engine (8 s here, 20 s and more on a busier
server) and answered once, after it.

The server is a real process (uvicorn on a loopback port), on SQLite and on PostgreSQL with
Redis. The tests count the lobby's answers made while the engine thinks, which a stall keeps
to one or two however fast or busy the machine is; they assert nothing on time (the times
are printed, for a reader).
"""

from __future__ import annotations

import statistics
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

from backgammon.server import Settings
from backgammon.server.engine_api.routes import MOST_DEEP_PLAYS

pytest.importorskip("uvicorn")

#: The heaviest question the engine API answers: 3 plies, as many plays ranked as it allows, in
#: a position with 30 legal plays of the roll (about 4.5 s of one core).
#: The lobby's answers while the engine thinks that show the event loop free: a lobby request
#: sent while the loop is held is answered only once it is free, after the engine's answer.
ANSWERS_WHILE_THINKING = 5
HEAVIEST = {"position": "jOeFBwCMGRxQNg", "dice": [3, 1], "plies": 3, "plays": MOST_DEEP_PLAYS}


def _timed(server: Any, method: str, path: str, body: Any = None) -> float:
    start = time.perf_counter()
    status, _ = server.request(method, path, body)
    assert status == 200
    return time.perf_counter() - start


def test_the_heaviest_engine_request_leaves_the_lobby_answering(
    database: Settings, launch: Callable[..., Any]
) -> None:
    server = launch(database, BACKGAMMON_HINT_RATE="none")
    # The kernel compiled (numba compiles with the lock held) on another position, so that
    # the question measured is thought out afresh.
    warm = {**HEAVIEST, "position": "4HPwATDgc/ABMA", "dice": [2, 1], "plays": 1}
    assert server.request("POST", "/api/v1/engine/move", warm)[0] == 200
    for _ in range(5):
        _timed(server, "GET", "/api/lobby")
    unloaded = statistics.median(_timed(server, "GET", "/api/lobby") for _ in range(20))

    answered: list[float] = []
    heavy = threading.Thread(
        target=lambda: answered.append(_timed(server, "POST", "/api/v1/engine/move", HEAVIEST))
    )
    heavy.start()
    loaded: list[float] = []
    while heavy.is_alive():
        loaded.append(_timed(server, "GET", "/api/lobby"))
        heavy.join(0.05)
    assert answered, "the engine request failed"
    print(f"lobby unloaded {unloaded * 1000:.1f} ms, worst {max(loaded) * 1000:.1f} ms over "
          f"{len(loaded)} while the engine thought {answered[0]:.1f} s")
    # Each answer counted came while the engine request was still unanswered.
    assert len(loaded) >= ANSWERS_WHILE_THINKING, (
        f"the lobby answered {len(loaded)} times while the engine thought for "
        f"{answered[0]:.1f} s: the event loop was held"
    )


def test_the_computer_thinking_at_world_class_leaves_the_lobby_answering(
    database: Settings, launch: Callable[..., Any]
) -> None:
    server = launch(database, BACKGAMMON_ALLOW_SEED="1")
    warm = {**HEAVIEST, "position": "4HPwATDgc/ABMA", "dice": [2, 1], "plays": 1}
    assert server.request("POST", "/api/v1/engine/move", warm)[0] == 200
    for _ in range(5):
        _timed(server, "GET", "/api/lobby")
    unloaded = statistics.median(_timed(server, "GET", "/api/lobby") for _ in range(20))
    # Seed 11: seat 1, the computer, wins the opening roll and thinks out its first play.
    status, made = server.request("POST", "/api/matches", {
        "opponent": "computer", "level": "world-class", "seed": 11})
    assert status == 201, made
    status, state = server.request("POST", f"/api/matches/{made['id']}/actions",
                                   {"seat": 0, "action": "roll", "version": 0}, made["token"])
    assert status == 200, state
    loaded: list[float] = []
    started = time.perf_counter()
    while state["to_act"] != 0:  # until the computer has played and the person is to roll
        assert time.perf_counter() - started < 120, "the computer never played"
        loaded.append(_timed(server, "GET", "/api/lobby"))
        state = server.state(made["id"])
    thought = time.perf_counter() - started
    print(f"lobby unloaded {unloaded * 1000:.1f} ms, worst {max(loaded) * 1000:.1f} ms over "
          f"{len(loaded)} while the computer played for {thought:.1f} s")
    assert len(loaded) >= ANSWERS_WHILE_THINKING, (
        f"the lobby answered {len(loaded)} times while the computer played for "
        f"{thought:.1f} s: the event loop was held"
    )
