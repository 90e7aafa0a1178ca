"""The server under crashes, hostile requests and slow or many watchers: the figures of issue 9.

    .venv/bin/python bench/server_robustness.py [--kills 30] [--actions 300] [--watchers 600]

Three measures, each on its own server (``uvicorn backgammon.server:create_app`` in a child
process, SQLite in a temporary folder, no rate limits):

1. ``--kills`` SIGKILLs of the server while three people play the computer at once (the
   harness of tests/server/test_crash.py: a kill after a number of acknowledged actions drawn
   from a seeded generator, whatever the server is doing then: an action, the computer's
   play), then a restart on the same socket and database. Counted: the people's acknowledged
   actions, the matches where one is missing from the record after a restart, and the
   matches not played to their end.
2. The fuzz test (tests/server/test_fuzz.py, derandomized) run under pytest, its requests
   counted by answer class (a 5xx raised inside the test client counts as a 5xx).
3. The latency of an action (a POST, sequential, both seats human) with no watcher, with one
   watcher that never reads (over ``--actions`` * 3 actions, past the socket's buffers), and
   with ``--watchers`` watchers reading every state; then again with uvicorn's per-message
   compression of WebSocket frames off (each watcher's frames are compressed on their own,
   which is most of the cost of many watchers).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from server import free_port, next_action, percentile, start_server, wait_until_up
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "server"))

from conftest import ServerProcess  # noqa: E402
from test_crash import MATCHES, PATIENCE, Player, check_kept  # noqa: E402

from backgammon.server import Settings  # noqa: E402
from backgammon.server.settings import sqlite_url  # noqa: E402


def kills(trials: int, folder: Path) -> str:
    """SIGKILL the server ``trials`` times while people play the computer, as the kill test
    does (tests/server/test_crash.py, whose players and check this uses): ``MATCHES`` people
    at once, each in a thread, acting as fast as the server answers; after a number of
    acknowledged actions drawn from a seeded generator the server is killed and started
    again, and every acknowledged action is looked for in the record. When the matches are
    over, new ones start, until the kills are made."""
    server = ServerProcess(Settings(sqlite_url(folder / "kills.sqlite")))
    server.start()
    killed = played = acknowledged = lost = unfinished = failed = 0
    try:
        while killed < trials:
            tally = threading.Condition()
            players = [Player([server], played + number, tally) for number in range(MATCHES)]
            played += MATCHES
            for player in players:
                player.start()

            def playing(players: list[Player] = players) -> bool:
                return any(player.is_alive() for player in players)

            def count(players: list[Player] = players) -> int:
                return sum(len(player.acknowledged) for player in players)

            while killed < trials and playing():
                target = count() + random.Random(killed).randint(1, 6)

                def reached(target: int = target) -> bool:
                    return count() >= target or not playing()

                with tally:
                    tally.wait_for(reached, PATIENCE)
                if not playing():
                    break
                server.kill()
                killed += 1
                server.start()
            for player in players:
                player.join(PATIENCE * 4)
                unfinished += not player.over
                failed += player.failure is not None
                try:
                    acknowledged += check_kept(server, player)
                except AssertionError:
                    lost += 1
    finally:
        server.close()
    return (f"kill -9: {killed} kills, {played} matches against the computer ({MATCHES} at "
            f"once), {acknowledged} acknowledged actions, {lost} matches with an acknowledged "
            f"action lost, {unfinished} not played to the end, {failed} players failed")


PLUGIN = textwrap.dedent('''
    import collections, pytest
    counts = collections.Counter()

    @pytest.fixture(autouse=True, scope="session")
    def _count_requests():
        from starlette.testclient import TestClient
        request, websocket = TestClient.request, TestClient.websocket_connect

        def counted(self, *args, **kwargs):
            counts["requests"] += 1
            try:
                answer = request(self, *args, **kwargs)
            except Exception:
                counts["5xx"] += 1
                raise
            counts[f"{answer.status_code // 100}xx"] += 1
            return answer

        def counted_socket(self, *args, **kwargs):
            counts["requests"] += 1
            counts["websocket"] += 1
            return websocket(self, *args, **kwargs)

        TestClient.request, TestClient.websocket_connect = counted, counted_socket
        yield
        print("\\nfuzz counts:", ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
''')


def fuzz(folder: Path) -> str:
    """Run the fuzz test with its requests counted."""
    (folder / "count_requests.py").write_text(PLUGIN)
    environ = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(folder)]))
    command = [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
               "-p", "count_requests", str(ROOT / "tests" / "server" / "test_fuzz.py")]
    started = time.monotonic()
    done = subprocess.run(command, env=environ, capture_output=True, text=True, check=False)
    counts = [line for line in done.stdout.splitlines() if line.startswith("fuzz counts:")]
    verdict = "passed" if done.returncode == 0 else f"FAILED (pytest status {done.returncode})"
    took = time.monotonic() - started
    return f"{counts[-1] if counts else 'fuzz counts: none'} ({verdict}, {took:.0f} s)"


def stuck_socket(port: int, match_id: str) -> socket.socket:
    """A WebSocket opened by hand that never reads."""
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    stuck.sendall(
        f"GET /api/matches/{match_id}/updates HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    return stuck


async def actions(client: httpx.AsyncClient, match_id: str, count: int) -> list[float]:
    """Seconds each of ``count`` actions took, one after the other."""
    state = (await client.get(f"/api/matches/{match_id}")).json()
    took = []
    for _ in range(count):
        started = time.perf_counter()
        answer = await client.post(f"/api/matches/{match_id}/actions", json=next_action(state))
        took.append(time.perf_counter() - started)
        answer.raise_for_status()
        state = answer.json()
    return took


async def read_all(url: str, ready: asyncio.Event, joined: list[int], total: int) -> None:
    async with connect(url, max_size=None) as watcher:
        joined.append(1)
        if len(joined) == total:
            ready.set()
        async for _ in watcher:
            pass


async def latencies(count: int, watchers: int, port: int, server: Any) -> list[str]:
    lines = []
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        await wait_until_up(port, server)

        async def new_match() -> str:
            body = {"opponent": "human", "cube": False}
            created = (await client.post("/api/matches", json=body)).json()
            # The client acts for this match's seats from now on.
            client.headers["Authorization"] = f"Bearer {created['token']}"
            match_id: str = created["id"]
            return match_id

        def figures(name: str, took: list[float]) -> str:
            return (f"{name}: {len(took)} actions, median {statistics.median(took) * 1000:.1f}"
                    f" ms, 99th percentile {percentile(took, 0.99) * 1000:.1f} ms")

        lines.append(figures("no watcher", await actions(client, await new_match(), count)))
        match_id = await new_match()
        stuck = stuck_socket(port, match_id)
        lines.append(figures("one watcher that never reads",
                             await actions(client, match_id, count * 3)))
        stuck.close()
        match_id = await new_match()
        ready, joined = asyncio.Event(), []
        url = f"ws://127.0.0.1:{port}/api/matches/{match_id}/updates"
        tasks = [asyncio.create_task(read_all(url, ready, joined, watchers))
                 for _ in range(watchers)]
        await asyncio.wait_for(ready.wait(), 120)
        lines.append(figures(f"{watchers} watchers reading",
                             await actions(client, match_id, count)))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30, help="SIGKILLs of the server")
    parser.add_argument("--actions", type=int, default=300, help="actions timed a case")
    parser.add_argument("--watchers", type=int, default=600, help="reading watchers")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-robust-") as name:
        folder = Path(name)
        print(kills(options.kills, folder), flush=True)
        print(fuzz(folder), flush=True)
        for deflate in (True, False):
            print(f"WebSocket compression {'on' if deflate else 'off'}:")
            port = free_port()
            flags = [] if deflate else ["--ws-per-message-deflate", "false"]
            server = start_server(folder, port, "backgammon.server:create_app", flags)
            try:
                measured = asyncio.run(latencies(options.actions, options.watchers, port, server))
            finally:
                server.terminate()
                server.wait(10)
            print("\n".join(f"  {line}" for line in measured), flush=True)


if __name__ == "__main__":
    main()
