"""The server's speed: simulated players on loopback, each playing games through the REST API.

    .venv/bin/python bench/server.py [--players 200] [--seconds 30] [--think 0] [--ramp 2]

The script starts the server itself (``uvicorn backgammon.server:create_app`` in a child
process, on a free 127.0.0.1 port, with an SQLite database in a temporary folder), then runs
``--players`` simulated players at once in this process (asyncio, one httpx connection pool).
Each plays one-point matches with both seats human, so no bot thinks: it rolls, steps one
checker at a time along the first legal step the state offers, confirms, and starts a new
match when one ends. Every request made is counted; the latency of an action (a POST to
``/actions``) is timed from send to parsed answer. The run stops by itself after ``--seconds``
(requests under way then are let finish). With ``--think`` each player pauses before each
action, as a person would; without, the players act as fast as the server answers, so the
latency measures the queue as much as the server (the CPU time per request, of the server
and of the players, is printed too: they share this machine). The last line is for machines:
``server players=... rps=... p50_ms=... p99_ms=...``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx


@dataclass
class Tally:
    """What the players measured."""

    requests: int = 0
    matches: int = 0
    errors: int = 0
    #: Seconds from the first player's start to the last one's end.
    elapsed: float = 0.0
    #: CPU seconds the server and this process (the players) spent meanwhile.
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    #: Seconds per action, in the order they were answered.
    latencies: list[float] = field(default_factory=list)


def free_port() -> int:
    """A port nobody listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(
    folder: Path, port: int, app: str, options: Sequence[str] = ()
) -> subprocess.Popen[bytes]:
    """The server (``app``, an app factory) in a child process, its database in ``folder``,
    with uvicorn's further ``options``."""
    # The simulated players all come from one address: no rate limits.
    environ = dict(
        os.environ,
        BACKGAMMON_DATABASE_URL=f"sqlite:///{folder / 'bench.sqlite'}",
        BACKGAMMON_CREATE_RATE="none",
        BACKGAMMON_HINT_RATE="none",
        BACKGAMMON_ACTION_RATE="none",
    )
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        app,
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--log-level",
        "warning",
        "--no-access-log",
        # Longer than a player's pauses, so that an idle connection is not closed by the
        # server just as the player sends on it (uvicorn's default is 5 s).
        "--timeout-keep-alive",
        "120",
        *options,
    ]
    return subprocess.Popen(command, env=environ)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` has used, from ``/proc`` (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime, the 14th and 15th fields of stat(5), counted after the command's name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def wait_until_up(client: httpx.AsyncClient, server: subprocess.Popen[bytes]) -> None:
    """Poll the page until the server answers (or fail when it died or took too long)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            await client.get("/docs")
            return
        except httpx.TransportError:
            await asyncio.sleep(0.1)
    raise SystemExit("the server did not start within 30 seconds")


def next_action(state: dict[str, Any]) -> dict[str, Any]:
    """The action a simulated player makes in ``state``: the first thing on offer."""
    seat = state["to_act"]
    if seat is None:  # the opening roll, which either seat may make
        seat = 0
    body: dict[str, Any] = {"seat": seat, "version": state["version"]}
    offered = state["actions"][seat]
    if state["phase"] == "move" and state["steps"]:
        step = state["steps"][0]
        return {**body, "action": "step", "from": step["from"], "to": step["to"]}
    for action in ("confirm", "roll", "take", "accept"):
        if action in offered:
            return {**body, "action": action}
    raise RuntimeError(f"no action for seat {seat} in phase {state['phase']}: {offered}")


async def player(
    client: httpx.AsyncClient, start: float, stop: float, think: float, tally: Tally
) -> None:
    """Play one-point matches from ``start`` until ``stop`` (``time.monotonic()`` instants),
    pausing a random time of mean ``think`` seconds before each action (none when 0)."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    while time.monotonic() < stop:
        answer = await client.post(
            "/api/matches", json={"length": 1, "opponent": "human", "cube": False}
        )
        tally.requests += 1
        answer.raise_for_status()
        state = answer.json()
        url = f"/api/matches/{state['id']}/actions"
        seat_token = {"Authorization": f"Bearer {state['token']}"}
        while not state["match_over"]:
            if think:
                pause = random.expovariate(1 / think)
                await asyncio.sleep(max(0.0, min(pause, stop - time.monotonic())))
            if time.monotonic() >= stop:
                return
            body = next_action(state)
            started = time.perf_counter()
            answer = await client.post(url, json=body, headers=seat_token)
            state = answer.json()
            tally.latencies.append(time.perf_counter() - started)
            tally.requests += 1
            if answer.status_code != 200:
                tally.errors += 1
                raise RuntimeError(f"{answer.status_code} for {body}: {state}")
        tally.matches += 1


async def run(
    players: int,
    seconds: float,
    think: float,
    ramp: float,
    port: int,
    server: subprocess.Popen[bytes],
) -> Tally:
    """Let ``players`` play for ``seconds``, each joining at a random moment of the first
    ``ramp`` seconds; what they measured."""
    limits = httpx.Limits(max_connections=players, max_keepalive_connections=players)
    timeout = httpx.Timeout(30.0)
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        await wait_until_up(client, server)
        tally = Tally()
        started = time.monotonic()
        server_cpu, client_cpu = cpu_seconds(server.pid), time.process_time()
        stop = started + seconds
        await asyncio.gather(
            *(
                player(client, started + random.uniform(0, ramp), stop, think, tally)
                for _ in range(players)
            )
        )
        tally.elapsed = time.monotonic() - started
        tally.server_cpu = cpu_seconds(server.pid) - server_cpu
        tally.client_cpu = time.process_time() - client_cpu
    return tally


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main() -> None:
    """Start the server, run the players, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200, help="simulated players at once")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they play")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a player pauses before each action (0: none, the server saturated)",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=2.0,
        help="seconds over which the players join (at once, the first matches come in a burst)",
    )
    parser.add_argument(
        "--app",
        default="backgammon.server:create_app",
        help="the app factory to serve (module:function), to measure a change to the server",
    )
    options = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        server = start_server(Path(folder), port, options.app)
        try:
            tally = asyncio.run(
                run(options.players, options.seconds, options.think, options.ramp, port, server)
            )
        finally:
            server.terminate()
            server.wait(10)
    elapsed = tally.elapsed
    rps = tally.requests / elapsed
    p50 = statistics.median(tally.latencies) * 1000
    p99 = percentile(tally.latencies, 0.99) * 1000
    print(
        f"{options.players} players, {elapsed:.1f} s: {tally.requests} requests "
        f"({rps:.0f}/s), {len(tally.latencies)} actions, {tally.matches} matches finished, "
        f"{tally.errors} errors"
    )
    print(f"action latency: median {p50:.1f} ms, 99th percentile {p99:.1f} ms")
    print(
        f"CPU per request: server {tally.server_cpu / tally.requests * 1000:.2f} ms, "
        f"players {tally.client_cpu / tally.requests * 1000:.2f} ms"
    )
    print(f"server players={options.players} rps={rps:.0f} p50_ms={p50:.1f} p99_ms={p99:.1f}")


if __name__ == "__main__":
    main()
