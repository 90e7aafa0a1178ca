"""The web app timed from inside: where an action's latency goes, seen by the server.

    .venv/bin/python bench/server/server.py --online ... --app timed_app:create_app \\
        --uvicorn=--app-dir=bench

``bench/server/server.py`` times each action from the players' side, with their own process's
delays and the sockets' in it. This app factory serves the same app and prints to stderr, for
each of its processes, every ``EVERY`` actions: the median, 90th and 99th percentiles (ms) of
the time from an action's arrival in the app to its answer's last byte, of its save within it
(``MatchStore.save``), and of the event loop's lag (how late a timer of 5 ms fires: the time
the loop was busy with something else, or the process was not running). It changes nothing
else, but the timers themselves cost a little CPU.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

from backgammon.server import app as server_app
from backgammon.server.play.store import MatchStore

#: Actions between two printed lines.
EVERY = 1000
#: The lag timer's period (seconds).
TICK = 0.005

_Message = dict[str, Any]


def percentiles(values: list[float]) -> str:
    """The median, 90th and 99th percentiles of ``values``, as a short line.

    >>> percentiles([float(n) for n in range(1, 101)])
    'p50 51.0 p90 91.0 p99 100.0'
    """
    ordered = sorted(values)
    picked = (ordered[min(len(ordered) - 1, int(share * len(ordered)))] for share in (.5, .9, .99))
    return "p50 {:.1f} p90 {:.1f} p99 {:.1f}".format(*picked)


class Timed:
    """An ASGI app that times the actions (POSTs) that ``app`` answers, their saves, and the
    event loop's lag."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app
        self.answers: list[float] = []
        self.saves: list[float] = []
        self.lags: list[float] = []
        self._ticking = False
        self._save = MatchStore.save

        async def timed_save(store: MatchStore, *args: Any, **options: Any) -> None:
            started = time.perf_counter()
            try:
                await self._save(store, *args, **options)
            finally:
                self.saves.append((time.perf_counter() - started) * 1000)

        MatchStore.save = timed_save  # type: ignore[method-assign]

    async def __call__(
        self,
        scope: _Message,
        receive: Callable[[], Awaitable[_Message]],
        send: Callable[[_Message], Awaitable[None]],
    ) -> None:
        if not self._ticking and scope["type"] != "lifespan":
            self._ticking = True
            self._ticker = asyncio.get_running_loop().create_task(self._tick())
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()

        async def timed_send(message: _Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                self.answers.append((time.perf_counter() - started) * 1000)
                if len(self.answers) >= EVERY:
                    self._report()

        await self.app(scope, receive, timed_send)

    async def _tick(self) -> None:
        while True:
            started = time.perf_counter()
            await asyncio.sleep(TICK)
            self.lags.append((time.perf_counter() - started - TICK) * 1000)

    def _report(self) -> None:
        print(
            f"process {os.getpid()}, {len(self.answers)} actions (ms): answer "
            f"{percentiles(self.answers)}; save {percentiles(self.saves or [0.0])}; "
            f"loop lag {percentiles(self.lags or [0.0])}",
            file=sys.stderr,
            flush=True,
        )
        self.answers.clear()
        self.saves.clear()
        self.lags.clear()


def create_app() -> Timed:
    """The server's app (settings from the environment, as ``bench/server/server.py`` gives them),
    timed."""
    return Timed(server_app.create_app())
