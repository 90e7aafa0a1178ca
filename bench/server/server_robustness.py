"""The server under crashes, abuse, hostile requests and slow or many watchers.

    .venv/bin/python bench/server/server_robustness.py [--kills 30] [--actions 300] [--watchers 600]
    .venv/bin/python bench/server/server_robustness.py --abuse-only [--database URL --redis URL]

First, one table of abuse (:func:`abuse`, on a server of its own as ``backgammon serve`` runs
it, with the request deadline at 2 s): the lobby's latency, unloaded and while the heaviest
engine question is thought out, while six clients send 950 KB uploads, while one address
opens 2,000 WebSockets and while 1,500 connections send half a request; what each flood was
answered; hostile bodies (integers of 5,000 digits, JSON nested 5,000 deep) to the actions.
Then three measures, each on its own server (``uvicorn backgammon.server:create_app`` in a
child process, SQLite in a temporary folder, no rate limits):

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

ROOT = Path(__file__).resolve().parents[2]
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


#: The heaviest question the engine API answers (tests/server/test_stall.py's).
HEAVIEST = {"position": "jOeFBwCMGRxQNg", "dice": [3, 1], "plies": 3, "plays": 8}
#: The request deadline of the abuse server (BACKGAMMON_REQUEST_SECONDS).
DEADLINE = 2.0


class Lobby:
    """The lobby asked for again and again by a well-behaved client while something else
    goes on: the seconds each answer took, and the answers that were not 200."""

    def __init__(self, client: httpx.AsyncClient) -> None:
        self.client = client
        self.took: list[float] = []
        self.failed = 0

    async def once(self) -> None:
        started = time.perf_counter()
        try:
            answer = await self.client.get("/api/lobby")
            self.failed += answer.status_code != 200
        except httpx.HTTPError:
            self.failed += 1
        self.took.append(time.perf_counter() - started)

    async def during(self, work: Any) -> Any:
        """Ask every 20 ms while ``work`` (an awaitable) runs; its result."""
        task = asyncio.ensure_future(work)
        while not task.done():
            await self.once()
            await asyncio.sleep(0.02)
        return await task

    def figures(self) -> str:
        took = [t * 1000 for t in self.took]
        failed = f", {self.failed} failed" if self.failed else ""
        return (f"lobby median {statistics.median(took):.1f} ms, worst {max(took):.1f} ms "
                f"({len(took)} asked{failed})")


def _counted(statuses: list[int | str]) -> str:
    counts: dict[int | str, int] = {}
    for status in statuses:
        counts[status] = counts.get(status, 0) + 1
    return ", ".join(f"{count} x {status}" for status, count in sorted(counts.items(), key=str))


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def _half_sent(port: int, count: int) -> tuple[int, float]:
    """``count`` connections that send half a request's headers: how many the server closed
    within the deadline and 10 s, and the seconds until the last was."""
    started = time.monotonic()
    pairs = [await asyncio.open_connection("127.0.0.1", port) for _ in range(count)]
    for _, writer in pairs:
        writer.write(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")

    async def closed(reader: asyncio.StreamReader) -> bool:
        try:
            return await asyncio.wait_for(reader.read(), DEADLINE + 10) == b""
        except (TimeoutError, ConnectionError):
            return False

    results = await asyncio.gather(*(closed(reader) for reader, _ in pairs))
    for _, writer in pairs:
        writer.close()
    return sum(results), time.monotonic() - started


async def _sockets(port: int, match_id: str, count: int) -> tuple[int, int]:
    """``count`` WebSockets to one match from this address, opened 50 at a time and held:
    (accepted with a state, closed by the server with 1013)."""
    url = f"ws://127.0.0.1:{port}/api/matches/{match_id}/updates"
    held: list[Any] = []
    accepted = refused = 0

    async def one() -> None:
        nonlocal accepted, refused
        watcher = await connect(url, max_size=None)
        try:
            await asyncio.wait_for(watcher.recv(), 30)
            accepted += 1
            held.append(watcher)
        except Exception:  # closed by the server
            refused += watcher.close_code == 1013
            await watcher.close()

    for first in range(0, count, 50):
        await asyncio.gather(*(one() for _ in range(min(50, count - first))),
                             return_exceptions=True)
    for watcher in held:
        await watcher.close()
    return accepted, refused


async def abuse_rows(port: int, server: subprocess.Popen[bytes]) -> list[tuple[str, str]]:
    rows = []
    base = f"http://127.0.0.1:{port}"
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=base, timeout=120, limits=limits) as client:
        await wait_until_up(port, server)
        await client.post("/api/v1/engine/move", json={**HEAVIEST, "plies": 0})  # compiled
        lobby = Lobby(client)
        for _ in range(50):
            await lobby.once()
        rows.append(("unloaded", lobby.figures()))

        lobby = Lobby(client)
        started = time.perf_counter()
        answer = await lobby.during(client.post("/api/v1/engine/move", json=HEAVIEST))
        rows.append((f"heaviest engine question ({answer.status_code}, "
                     f"{time.perf_counter() - started:.1f} s)", lobby.figures()))

        big = " 0 point match\n Game 1\n A : 0  B : 0\n" + "".join(
            f" {n}) 31: 8/5 6/5   31: 8/5 6/5\n" for n in range(1, 30_000))[:950_000]
        lobby = Lobby(client)
        answers = await lobby.during(asyncio.gather(
            *(client.post("/api/analyses", json={"text": big}) for _ in range(6))))
        rows.append((f"six 950 KB uploads ({_counted([a.status_code for a in answers])})",
                     lobby.figures()))

        match = (ROOT / "tests" / "data" / "gnubg_7pt_seed1.mat").read_text()
        answers = [await client.post("/api/analyses", json={"text": match}) for _ in range(5)]
        rows.append(("five analyses from one address",
                     _counted([a.status_code for a in answers])))

        created = (await client.post("/api/matches", json={"opponent": "human"})).json()
        before = _rss_mb(server.pid)
        lobby = Lobby(client)
        accepted, refused = await lobby.during(_sockets(port, created["id"], 2000))
        rows.append((f"2,000 WebSockets from one address ({accepted} accepted, {refused} "
                     f"closed with 1013, server {before:.0f} -> {_rss_mb(server.pid):.0f} MB)",
                     lobby.figures()))

        lobby = Lobby(client)
        closed, took = await lobby.during(_half_sent(port, 1500))
        rows.append((f"1,500 half-sent requests ({closed} closed by the server, the last "
                     f"after {took:.1f} s; deadline {DEADLINE:.0f} s)", lobby.figures()))

        statuses: list[int | str] = []
        path = f"/api/matches/{created['id']}/actions"
        headers = {"Authorization": f"Bearer {created['token']}",
                   "Content-Type": "application/json"}
        for body in (b'{"action": "roll", "version": ' + b"9" * 5000 + b"}",
                     b"[" * 5000 + b"]" * 5000, b'{"a":' * 3000 + b"1" + b"}" * 3000):
            answer = await client.post(path, content=body, headers=headers)
            statuses.append(answer.status_code)
        rows.append(("hostile action bodies (5,000 digits, nested 5,000 deep)",
                     _counted(statuses)))
    return rows


def abuse(folder: Path, database_url: str | None, redis_url: str | None) -> str:
    """The table of abuse, on a server as ``backgammon serve`` runs it (TimedHttp, the
    request deadline at :data:`DEADLINE`; rate limits off, as all the clients here share an
    address; uploads limited per client as served)."""
    os.environ.update(BACKGAMMON_REQUEST_SECONDS=str(DEADLINE), BACKGAMMON_UPLOAD_RATE="none")
    port = free_port()
    server = start_server(folder, port, "backgammon.server:create_app",
                          ["--http", "backgammon.server.protocol:TimedHttp"],
                          database_url, redis_url)
    try:
        rows = asyncio.run(abuse_rows(port, server))
    finally:
        server.terminate()
        server.wait(10)
    width = max(len(what) for what, _ in rows)
    return "\n".join(f"{what:<{width}}  {figure}" for what, figure in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=30, help="SIGKILLs of the server")
    parser.add_argument("--actions", type=int, default=300, help="actions timed a case")
    parser.add_argument("--watchers", type=int, default=600, help="reading watchers")
    parser.add_argument("--abuse-only", action="store_true", help="the table of abuse alone")
    parser.add_argument("--database", help="the abuse server's database URL (PostgreSQL)")
    parser.add_argument("--redis", help="the abuse server's Redis URL")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-robust-") as name:
        folder = Path(name)
        print(abuse(folder, options.database, options.redis), flush=True)
        if options.abuse_only:
            return
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
