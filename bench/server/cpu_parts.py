"""The web app's CPU an action, part by part: what a sampling profiler cannot tell apart.

    .venv/bin/python bench/server/server.py --online ... --app cpu_parts:create_app \\
        --uvicorn=--app-dir=bench

A sampling profiler (py-spy) samples the event loop's thread while it runs or waits to run:
on a machine shared with the players' processes, a write to a socket that wakes a player is
often followed by the server's thread waiting for the core, and those samples land in the
write. This app factory serves the same app and measures the thread's own CPU time
(``time.thread_time``) in each part of an action instead, and prints to stderr, for each of
its processes, every ``EVERY`` actions: the process's CPU an action (user and system, from
``getrusage``) and each part's, in ms. The parts nest: ``action`` (the route's function,
``post_action``) holds ``rules``, ``save``, ``states`` (both texts: the answer's and the
push's) and ``request``; ``answer written``, ``pushes written`` and ``http read`` are the
sockets' work beside it; ``collections`` the garbage collector's, within any of them;
``other threads`` the CPU of the process's threads but the event loop's (SQLite's
checkpoints, the worker threads), not in ``process``'s other parts. A
part that waits (a save on PostgreSQL) also counts what the thread ran meanwhile. The
clock's own reads cost about a microsecond a part.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import os
import resource
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from starlette.responses import Response
from starlette.websockets import WebSocket
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from backgammon.server import app as server_app
from backgammon.server.play import service, views
from backgammon.server.play.routes import actions
from backgammon.server.play.service import MatchService
from backgammon.server.play.store import MatchStore

#: Actions between two printed lines.
EVERY = 2000

#: The CPU seconds spent in each part, and the actions counted, since the last line.
spent: defaultdict[str, float] = defaultdict(float)
counted = [0]
_since = [0.0]
_others = [0.0]


def _process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _timed_sync(owner: Any, name: str, part: str) -> None:
    """``owner.name`` (a function) counted as ``part``."""
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args: Any, **options: Any) -> Any:
        started = time.thread_time()
        try:
            return function(*args, **options)
        finally:
            spent[part] += time.thread_time() - started

    setattr(owner, name, timed)


def _timed_async(owner: Any, name: str, part: str, then: Callable[[], None] | None = None) -> None:
    """``owner.name`` (a coroutine function) counted as ``part``; ``then`` called after."""
    function = getattr(owner, name)

    @functools.wraps(function)
    async def timed(*args: Any, **options: Any) -> Any:
        started = time.thread_time()
        try:
            return await function(*args, **options)
        finally:
            spent[part] += time.thread_time() - started
            if then is not None:
                then()

    setattr(owner, name, timed)


def _collections(phase: str, _info: dict[str, Any]) -> None:
    """Count the garbage collector's runs (of any thread) as the part ``collections``."""
    if phase == "start":
        _collecting[0] = time.thread_time()
    else:
        spent["collections"] += time.thread_time() - _collecting[0]


_collecting = [0.0]


def _other_threads() -> float:
    """The CPU seconds of the process's threads but the event loop's (SQLite's checkpoints,
    the worker threads), so far."""
    seconds = 0.0
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and thread.ident is not None:
            with contextlib.suppress(OSError):  # it ended meanwhile
                seconds += time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    return seconds


def _report() -> None:
    """Print the figures every ``EVERY`` actions and start counting again."""
    counted[0] += 1
    if counted[0] < EVERY:
        return
    others = _other_threads()
    spent["other threads"] = others - _others[0]
    _others[0] = others
    now = _process_cpu()
    actions_counted = counted[0]
    parts = ", ".join(
        f"{part} {1000 * seconds / actions_counted:.3f}"
        for part, seconds in sorted(spent.items(), key=lambda item: -item[1])
    )
    print(
        f"process {os.getpid()}, {actions_counted} actions, ms of CPU an action: process "
        f"{1000 * (now - _since[0]) / actions_counted:.3f}; {parts}",
        file=sys.stderr,
        flush=True,
    )
    spent.clear()
    counted[0] = 0
    _since[0] = now


def create_app() -> Any:
    """The server's app (settings from the environment, as ``bench/server/server.py`` gives them),
    its parts timed."""
    _timed_async(MatchService, "act", "action", then=_report)
    _timed_sync(service, "apply", "rules")
    _timed_async(actions, "read_action", "request")
    _timed_async(MatchStore, "save", "save")
    _timed_sync(views.Shown, "text", "states")
    _timed_async(Response, "__call__", "answer written")
    _timed_async(WebSocket, "send_text", "pushes written")
    _timed_sync(HttpToolsProtocol, "data_received", "http read")
    gc.callbacks.append(_collections)
    _since[0] = _process_cpu()
    return server_app.create_app()
