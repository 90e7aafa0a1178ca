"""The server's speed: simulated players on loopback, each playing games through the REST API.

    .venv/bin/python bench/server/server.py [--players 200] [--seconds 30] [--think 0] [--ramp 2]
        [--online] [--processes 2] [--workers 1] [--database-url URL --redis-url URL]
        [--also-pid PID ...] [--uvicorn=OPTION ...] [--reference] [--floor] [--chat 0.2]
        [--clock normal]

The script starts the server itself (``uvicorn backgammon.server:create_app`` in a child
process, ``--workers`` processes, on a free 127.0.0.1 port, with an SQLite database in a
temporary folder, or the database and Redis the URLs name), then runs ``--players`` simulated
players at once, split over ``--processes`` processes of players started together (each an
event loop, uvloop's where installed; each player, or match, its own small aiohttp session): one
loop of hundreds of players queues its own work, and that queue would count in the latencies
measured.
By default each plays one-point matches with both seats human, so no bot thinks: it rolls,
steps one checker at a time along the first legal step the state offers, confirms, and starts a
new match when one ends. With ``--online`` the players play each other as people online do: two
to a match, each watching it through the WebSocket (from its seat's side) and acting when the
state pushed says it is its turn. Like the page, the players ask for the record's changes only,
in answers and pushes (``record_since``, ``record=changes``), and name their WebSocket (a
random ``watcher`` id, sent again as ``Watcher-Id`` with their actions), so that the server
need not push them the state its answer to their own action carries. With ``--chat`` each
player, after each of its actions, writes a message in the match's chat at that chance (pushed
to both seats' WebSockets, as the page has it); with ``--clock`` the matches have that time
control (the server then checks each seat's time at each action and each read). Every request
made is counted; the latency of an action (a POST to ``/actions``) is timed from send to parsed
answer. The run stops by itself after ``--seconds`` (requests under way then are let finish). With
``--think`` each player pauses before each action, as a person would; without, the players act
as fast as the server answers, so the latency measures the queue as much as the server (the CPU
time per request, of the server's processes and of the players' processes together, is printed
too: they share this machine; ``--also-pid`` adds a process, with its children, to the
server's count: PostgreSQL's postmaster, Redis). The figures are printed for the whole run and
for its steady part, from the end of the ramp to the stop (no matches created, every player in
play). Each action carries an ``Idempotency-Key``, and one that fails in transit is sent again
with the same key, as a client should. At the end every match is read back: an action lost
(the row's version short of the last answered) or doubled (versions answered that overlap) is
counted. The last line is for machines (the steady part's figures):
``server players=... rps=... p50_ms=... p99_ms=... cpu_ms=... lost=... doubled=...``.
With ``--reference`` the same actions are timed in-process before and after the run
(:func:`reference`), and the line adds their mean (``ref_ms``) and the steady part's CPU a
request as a multiple of it (``ratio``): the machine's speed moves by a third within an hour,
so a run's figures are read against the speed it ran at (the ratio moves too: 2.3 to 3.4 for
SQLite in one process over a day of runs on one machine, as its milliseconds did).
With ``--floor`` (and ``--online``) the same players then play against
``bench/server/server_floor.py``'s bare app, served as the web app was (its processes on the run's
PostgreSQL and Redis where it had them, else one process, its matches in its memory), and
the line adds its CPU a request (``floor_ms``) and the steady part's above it
(``above_ms``): what serving alone costs in that set-up, at that load, in that hour, and
what the web app costs beyond it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp


@dataclass
class Tally:
    """What the players measured."""

    requests: int = 0
    matches: int = 0
    #: Chat messages written (``--chat``), and those the chat's rate limit refused.
    chats: int = 0
    chats_refused: int = 0
    errors: int = 0
    #: Seconds from the first player's start to the last one's end.
    elapsed: float = 0.0
    #: CPU seconds the server and the players' processes spent meanwhile.
    server_cpu: float = 0.0
    client_cpu: float = 0.0
    #: Seconds per action: those answered before the steady part, then those in it.
    latencies: list[float] = field(default_factory=list)
    #: Actions sent again after failing in transit (with the same idempotency key).
    resent: int = 0
    #: The matches read back at the end, and those that lost or doubled an action.
    checked: int = 0
    lost: int = 0
    doubled: int = 0
    #: Each match's answers, read back at the end.
    ledgers: list[Ledger] = field(default_factory=list)
    #: The steady part (from the ramp's end to the stop): seconds, requests, server and
    #: player CPU seconds, and the index of its first latency.
    steady: tuple[float, int, float, float, int] = (0.0, 0, 0.0, 0.0, 0)


@dataclass(frozen=True)
class Online:
    """What online players do beyond playing: the chance that they write in the chat after
    each action, and the time control of the matches they make (None: no clock)."""

    chat: float = 0.0
    clock: str | None = None


@dataclass
class Ledger:
    """What one match's players were answered: the version each action was made on and the
    version its answer showed, to check against the match's row at the end."""

    match_id: str
    token: str
    #: The version the match was at when its players started acting.
    start: int
    answered: list[tuple[int, int]] = field(default_factory=list)


async def act(
    client: aiohttp.ClientSession, url: str, body: dict[str, Any], token: str, tally: Tally,
    watcher: str | None = None,
) -> tuple[int, Any]:
    """POST an action with a fresh idempotency key, asking, as the page does, for only the
    record's changes since the version acted on (and, with ``watcher``, the id of the
    player's WebSocket, which the server then spares the push of this action's state); one
    that fails in transit (the connection dropped: was it applied?) is sent again with the
    same key, which the server answers with the first answer if it was. The answer's status
    and its JSON."""
    headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": uuid.uuid4().hex}
    if watcher is not None:
        headers["Watcher-Id"] = watcher
    params = {"record_since": body["version"]}
    for attempt in range(3):
        try:
            async with client.post(url, json=body, headers=headers, params=params) as answer:
                return answer.status, await answer.json(content_type=None)
        except aiohttp.ClientConnectionError:
            if attempt == 2:
                raise
            tally.resent += 1
    raise AssertionError("unreachable")


async def check(client: aiohttp.ClientSession, ledger: Ledger, tally: Tally) -> None:
    """Read the match back: its actions, in the order of the versions they were made on,
    must follow each other from the start to the row's version without a gap (an action
    lost) or an overlap (one applied twice)."""
    async with client.get(f"/api/matches/{ledger.match_id}",
                          headers={"Authorization": f"Bearer {ledger.token}"}) as answer:
        answer.raise_for_status()
        row: int = (await answer.json())["version"]
    version = ledger.start
    lost = doubled = False
    for made_on, after in sorted(ledger.answered):
        lost |= made_on > version
        doubled |= made_on < version
        version = max(version, after)
    lost |= row < version
    doubled |= row > version
    tally.checked += 1
    tally.lost += lost
    tally.doubled += doubled


def free_port() -> int:
    """A port nobody listens on now (the server binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def start_server(
    folder: Path,
    port: int,
    app: str,
    options: Sequence[str] = (),
    database_url: str | None = None,
    redis_url: str | None = None,
) -> subprocess.Popen[bytes]:
    """The server (``app``, an app factory) in a child process, its database in ``folder``
    (or at ``database_url``, with Redis at ``redis_url``), with uvicorn's further
    ``options``."""
    # The simulated players all come from one address: no rate limits.
    environ = dict(
        os.environ,
        BACKGAMMON_DATABASE_URL=database_url or f"sqlite:///{folder / 'bench.sqlite'}",
        BACKGAMMON_CREATE_RATE="none",
        BACKGAMMON_HINT_RATE="none",
        BACKGAMMON_ACTION_RATE="none",
    )
    if redis_url:
        environ["BACKGAMMON_REDIS_URL"] = redis_url
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
        # As the app is served (the serve command, docs/guide/deploying.md): pushes go
        # uncompressed. --uvicorn=--ws-per-message-deflate=true measures them compressed.
        "--ws-per-message-deflate",
        "false",
        *options,
    ]
    return subprocess.Popen(command, env=environ)


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) process ``pid`` and its children, living or waited
    for, have used, from ``/proc`` (0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    # utime, stime, cutime and cstime, the 14th to 17th fields of stat(5), counted after the
    # command's name.
    own = sum(int(field) for field in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def base_url(port: int) -> str:
    """The server's address."""
    return f"http://127.0.0.1:{port}"


async def wait_until_up(port: int, server: subprocess.Popen[bytes]) -> None:
    """Poll the page until the server answers (or fail when it died or took too long)."""
    deadline = time.monotonic() + 30
    async with aiohttp.ClientSession(base_url(port)) as client:
        while time.monotonic() < deadline:
            if server.poll() is not None:
                raise SystemExit(f"the server exited with status {server.returncode}")
            try:
                async with client.get("/docs"):
                    return
            except aiohttp.ClientConnectionError:
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


#: How long a request may take before the player gives up (the run then fails).
TIMEOUT = aiohttp.ClientTimeout(total=30)


def own_client(port: int, connections: int) -> aiohttp.ClientSession:
    """A session of its own, of at most ``connections`` connections kept alive, for one
    player or match, as each person's browser has: the server sees as many connections as
    it would. aiohttp, not httpx: these processes share the machine with the server, and
    httpx's layers (httpcore, anyio, h11) cost them more CPU a request than the server spends
    on SQLite, leaving it less of the machine."""
    connector = aiohttp.TCPConnector(limit=connections, keepalive_timeout=120, ssl=False,
                                     local_addr=(loopback_address(), 0))
    return aiohttp.ClientSession(base_url(port), connector=connector, timeout=TIMEOUT)


def loopback_address() -> str:
    """A random address of the loopback network (127.0.0.0/8, all of it this machine's on
    Linux), for a player's connections to come from, as each person's come from their own:
    the server's limits by client address (32 sockets each) are not all met by the bench.

    >>> loopback_address().startswith("127.")
    True
    """
    return "127." + ".".join(str(random.randint(1, 254)) for _ in range(3))


async def post(client: aiohttp.ClientSession, url: str, body: dict[str, Any]) -> Any:
    """POST ``body`` as JSON; the answer's JSON (an error status raises)."""
    async with client.post(url, json=body) as answer:
        answer.raise_for_status()
        return await answer.json()


async def player(port: int, start: float, stop: float, think: float, tally: Tally) -> None:
    """Play one-point matches from ``start`` until ``stop`` (``time.monotonic()`` instants),
    pausing a random time of mean ``think`` seconds before each action (none when 0)."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    async with own_client(port, 1) as client:
        await play(client, stop, think, tally)


async def play(client: aiohttp.ClientSession, stop: float, think: float, tally: Tally) -> None:
    """One player's matches (see :func:`player`)."""
    while time.monotonic() < stop:
        state = await post(client, "/api/matches",
                           {"length": 1, "opponent": "human", "cube": False})
        tally.requests += 1
        url = f"/api/matches/{state['id']}/actions"
        ledger = Ledger(state["id"], state["token"], state["version"])
        tally.ledgers.append(ledger)
        while not state["match_over"]:
            if think:
                pause = random.expovariate(1 / think)
                await asyncio.sleep(max(0.0, min(pause, stop - time.monotonic())))
            if time.monotonic() >= stop:
                break
            body = next_action(state)
            started = time.perf_counter()
            status, state = await act(client, url, body, ledger.token, tally)
            tally.latencies.append(time.perf_counter() - started)
            tally.requests += 1
            if status != 200:
                tally.errors += 1
                raise RuntimeError(f"{status} for {body}: {state}")
            ledger.answered.append((body["version"], state["version"]))
        else:
            tally.matches += 1


async def online_match(
    port: int, start: float, stop: float, think: float, tally: Tally, extras: Online = Online()
) -> None:
    """Two people playing a one-point match online from ``start`` until ``stop``: each
    watches it through the WebSocket and, when a state pushed says it is their turn, pauses a
    random time of mean ``think`` seconds and acts (and does the ``extras``)."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    # Two connections for the seats' actions, two for their WebSockets (the pool holds both).
    async with own_client(port, 4) as client:
        created = await post(client, "/api/matches",
                             {"length": 1, "opponent": "online", "cube": False,
                              **({"clock": extras.clock} if extras.clock else {})})
        tally.requests += 1
        # The other player takes seat 1 with the invite: each seat acts with its own token.
        joined = await post(client, "/api/matches/join", {"invite": created["invite"]})
        tally.requests += 1
        tokens = (created["token"], joined["token"])
        # The seat taken is an event of the match: its version is one past the created one's.
        ledger = Ledger(created["id"], tokens[0], created["version"] + 1)
        tally.ledgers.append(ledger)
        over = await asyncio.gather(*(seat_player(client, ledger, seat, tokens[seat], stop,
                                                  think, tally, extras.chat)
                                      for seat in (0, 1)))
    tally.matches += any(over)


async def seat_player(
    client: aiohttp.ClientSession, ledger: Ledger, seat: int, token: str, stop: float,
    think: float, tally: Tally, chat: float = 0.0,
) -> bool:
    """One seat of an online match (see :func:`online_match`); whether it saw the match
    end."""
    match_id = ledger.match_id
    acted = -1
    # Each state pushed carries the record's changes only, as the page asks; the state of this
    # player's own actions is not pushed to it (the answer carries it), so after acting it
    # waits for a push only when the answer says the other seat is to act.
    watcher = secrets.token_urlsafe(16)
    query = {"view": str(seat), "record": "changes", "watcher": watcher}
    # Compressed (permessage-deflate) as a browser asks, so the server does what it would.
    async with client.ws_connect(f"/api/matches/{match_id}/updates", params=query,
                                 compress=15, max_msg_size=0) as socket:
        # The first state may be a copy's from before the join (another process's, still
        # catching up): the join's state follows it.
        latest: dict[str, Any] = await socket.receive_json()
        pushed = asyncio.Event()

        async def read() -> None:
            nonlocal latest
            async for message in socket:
                if message.type is not aiohttp.WSMsgType.TEXT:
                    raise RuntimeError(f"the WebSocket sent {message.type.name}")
                state = json.loads(message.data)
                if "chat" in state:
                    continue  # a chat message, not a state
                # A push may come after the answer of a later action (the other process's
                # copy catching up): the newer state stands.
                if state["version"] >= latest["version"]:
                    latest = state
                pushed.set()

        reader = asyncio.create_task(read())
        try:
            while time.monotonic() < stop and not latest["match_over"]:
                mover = 0 if latest["to_act"] is None else latest["to_act"]
                # A copy's state from before the join (another process's) offers nothing: the
                # join's state follows it.
                if mover != seat or latest["version"] <= acted or latest["waiting_for_opponent"]:
                    pushed.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(pushed.wait(), stop - time.monotonic())
                    continue
                seen = latest
                pause = random.expovariate(1 / think) if think else 0.0
                await asyncio.sleep(max(0.0, min(pause, stop - time.monotonic())))
                if time.monotonic() >= stop:
                    break
                if latest["version"] != seen["version"]:
                    continue  # a state came in meanwhile (another process's copy caught up)
                body = next_action(latest)
                started = time.perf_counter()
                status, state = await act(client, f"/api/matches/{match_id}/actions", body,
                                          token, tally, watcher)
                tally.latencies.append(time.perf_counter() - started)
                tally.requests += 1
                if status != 200:
                    tally.errors += 1
                    raise RuntimeError(f"{status} for {body}: {state}")
                acted = body["version"]
                ledger.answered.append((acted, state["version"]))
                if state["version"] > latest["version"]:
                    latest = state
                if chat and random.random() < chat:
                    await write_chat(client, match_id, seat, token, tally)
        finally:
            reader.cancel()
    return bool(latest["match_over"])


async def write_chat(
    client: aiohttp.ClientSession, match_id: str, seat: int, token: str, tally: Tally
) -> None:
    """Write a message in the match's chat as ``seat``'s player."""
    body = {"channel": "players", "seat": seat, "text": "Good luck, and well played!"}
    async with client.post(f"/api/matches/{match_id}/chat", json=body,
                           headers={"Authorization": f"Bearer {token}"}) as answer:
        await answer.read()
        tally.requests += 1
        if answer.status == 429:  # the chat's own limit (5 in 10 s a seat): a person waits
            tally.chats_refused += 1
            return
        tally.chats += 1
        if answer.status != 201:
            tally.errors += 1
            raise RuntimeError(f"{answer.status} for a chat message")


async def run_share(
    games: int, started: float, ramp: float, stop: float, think: float, port: int,
    online: bool, extras: Online = Online(),
) -> Tally:
    """One process's share of the players: ``games`` players (matches, ``online``), each
    joining at a random moment of the ``ramp`` seconds from ``started`` and playing until
    ``stop`` (``time.monotonic()`` instants, the same in every process); what they measured.
    Of the steady part it counts the requests, this process's CPU and the first latency;
    its seconds and the server's CPU are the parent's to measure."""
    tally = Tally()
    cpu_before = time.process_time()

    async def steady() -> None:
        await asyncio.sleep(max(0.0, started + ramp - time.monotonic()))
        requests, cpu, first = tally.requests, time.process_time(), len(tally.latencies)
        await asyncio.sleep(max(0.0, stop - time.monotonic()))
        tally.steady = (0.0, tally.requests - requests, 0.0, time.process_time() - cpu, first)

    await asyncio.gather(
        *(online_match(port, started + random.uniform(0, ramp), stop, think, tally, extras)
          if online else player(port, started + random.uniform(0, ramp), stop, think, tally)
          for _ in range(games)),
        steady(),
    )
    tally.client_cpu = time.process_time() - cpu_before
    return tally


def players_process(
    connection: Connection, games: int, ramp: float, think: float, port: int, online: bool,
    extras: Online = Online(),
) -> None:
    """A process of players (see :func:`run_share`): it says it is ready, is told the instants
    to start and stop at, and sends back its tally."""
    connection.send(None)
    started, stop = connection.recv()
    with asyncio.Runner(loop_factory=new_loop) as runner:
        connection.send(runner.run(run_share(games, started, ramp, stop, think, port, online,
                                             extras)))


def new_loop() -> asyncio.AbstractEventLoop:
    """uvloop's event loop where it is installed (the server extra: the server runs on it
    too), which spends less of the machine's CPU beside the server than asyncio's own."""
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def merge(tallies: Sequence[Tally]) -> Tally:
    """The processes' tallies as one; the seconds and the server's CPU, of the whole run and of
    the steady part, are left for the caller."""
    merged = Tally()
    for tally in tallies:
        merged.requests += tally.requests
        merged.matches += tally.matches
        merged.chats += tally.chats
        merged.chats_refused += tally.chats_refused
        merged.errors += tally.errors
        merged.resent += tally.resent
        merged.client_cpu += tally.client_cpu
        merged.ledgers += tally.ledgers
        merged.latencies += tally.latencies[: tally.steady[4]]
    first = len(merged.latencies)
    for tally in tallies:
        merged.latencies += tally.latencies[tally.steady[4] :]
    merged.steady = (0.0, sum(tally.steady[1] for tally in tallies), 0.0,
                     sum(tally.steady[3] for tally in tallies), first)
    return merged


def run(
    players: int,
    seconds: float,
    think: float,
    ramp: float,
    port: int,
    server: subprocess.Popen[bytes],
    online: bool = False,
    processes: int = 2,
    also: Sequence[int] = (),
    extras: Online = Online(),
) -> Tally:
    """Let ``players`` play for ``seconds``, each joining (each match, ``online``) at a
    random moment of the first ``ramp`` seconds, split over ``processes`` processes; what
    they measured."""

    def server_cpu() -> float:
        return sum(cpu_seconds(pid) for pid in (server.pid, *also))

    asyncio.run(wait_until_up(port, server))
    # Spawned, not forked: each process starts afresh, with no copy of this one's state.
    context = multiprocessing.get_context("spawn")
    games = players // 2 if online else players
    connections: list[Connection] = []
    workers = []
    try:
        for index in range(processes):
            share = games // processes + (index < games % processes)
            ours, theirs = context.Pipe()
            worker = context.Process(target=players_process,
                                     args=(theirs, share, ramp, think, port, online, extras))
            worker.start()
            theirs.close()  # so that a process that dies is seen as the pipe's end
            connections.append(ours)
            workers.append(worker)
        for connection in connections:
            connection.recv()
        # Once all are ready (imports take a while), the instants are the same for all.
        started = time.monotonic()
        stop = started + seconds
        for connection in connections:
            connection.send((started, stop))
        server_before = server_cpu()
        time.sleep(max(0.0, started + ramp - time.monotonic()))
        steady_from, steady_server = time.monotonic(), server_cpu()
        time.sleep(max(0.0, stop - time.monotonic()))
        steady = (time.monotonic() - steady_from, server_cpu() - steady_server)
        tally = merge([connection.recv() for connection in connections])
        tally.elapsed = time.monotonic() - started
        tally.server_cpu = server_cpu() - server_before
    except EOFError:
        raise SystemExit("a process of players failed") from None
    finally:
        for worker in workers:
            worker.join(10)
            if worker.is_alive():
                worker.terminate()
                worker.join()
    _, requests, _, client_cpu, first = tally.steady
    tally.steady = (steady[0], requests, steady[1], client_cpu, first)
    asyncio.run(check_all(port, tally))
    return tally


async def check_all(port: int, tally: Tally) -> None:
    """Read back every match the players played (see :func:`check`)."""
    async with aiohttp.ClientSession(base_url(port), timeout=TIMEOUT) as client:
        await asyncio.gather(*(check(client, ledger, tally) for ledger in tally.ledgers))


def percentile(values: list[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def at_least_one(text: str) -> int:
    """A count of processes from the command line: a whole number, 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count of processes (1 or more)")
    return int(text)


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
        "--online",
        action="store_true",
        help="two players a match, each watching it through the WebSocket (--players/2 matches)",
    )
    parser.add_argument(
        "--processes",
        type=at_least_one,
        default=2,
        help="processes the players are split over (each its own event loop)",
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn's worker processes")
    parser.add_argument(
        "--database-url", help="the database (default: SQLite in a temporary folder)"
    )
    parser.add_argument("--redis-url", help="Redis, for several workers on a shared database")
    parser.add_argument(
        "--also-pid",
        type=int,
        action="append",
        default=[],
        help="a process whose CPU (with its children's) counts as the server's: PostgreSQL, Redis",
    )
    parser.add_argument(
        "--app",
        default="backgammon.server:create_app",
        help="the app factory to serve (module:function), to measure a change to the server",
    )
    parser.add_argument(
        "--uvicorn",
        action="append",
        default=[],
        metavar="OPTION",
        help="a further option for uvicorn, e.g. --uvicorn=--loop=asyncio --uvicorn=--http=h11",
    )
    parser.add_argument(
        "--reference",
        action="store_true",
        help="time the same actions in-process (bench/server/server_inprocess.py) before and after "
        "the run, and give the server's CPU an action as a multiple of theirs",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="run the same players against bench/server/server_floor.py's bare app too, after the "
        "run, and give the server's CPU a request above that floor (with --online)",
    )
    parser.add_argument(
        "--chat",
        type=float,
        default=0.0,
        help="the chance that a player writes in the chat after each of its actions (--online)",
    )
    parser.add_argument(
        "--clock",
        choices=("fast", "normal", "casual"),
        help="the online matches' time control (--online; default none)",
    )
    options = parser.parse_args()
    if options.floor and not options.online:
        parser.error("--floor measures online play: add --online")
    if (options.chat or options.clock) and not options.online:
        parser.error("--chat and --clock are online matches': add --online")
    before = reference() if options.reference else None
    uvicorn_options = ["--workers", str(options.workers)] if options.workers > 1 else []
    tally = serve_and_run(options, options.app, [*uvicorn_options, *options.uvicorn],
                          options.also_pid, options.database_url, options.redis_url)
    references = None if before is None else (before, reference())
    floor = None
    if options.floor:
        # The same set-up: its processes, its PostgreSQL and its Redis; without them, one
        # process, which keeps the matches in its memory (server_floor.create_app).
        here = str(Path(__file__).resolve().parent)
        shared = options.redis_url and (options.database_url or "").startswith("postgresql")
        processes = uvicorn_options if shared else []
        floor = serve_and_run(options, "server_floor:create_app",
                              [*processes, "--app-dir", here], options.also_pid,
                              options.database_url, options.redis_url)
    report(options.players, tally, references, floor)


def serve_and_run(
    options: argparse.Namespace, app: str, uvicorn_options: list[str],
    also: Sequence[int] = (), database_url: str | None = None, redis_url: str | None = None,
) -> Tally:
    """Start ``app`` (with uvicorn's further ``uvicorn_options``, on the database and Redis
    the URLs name, else SQLite in a temporary folder) on a free port, and let the players of
    ``options`` play against it (:func:`run`)."""
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-server-") as folder:
        server = start_server(Path(folder), port, app, uvicorn_options, database_url,
                              redis_url)
        try:
            return run(options.players, options.seconds, options.think, options.ramp, port,
                       server, options.online, options.processes, also,
                       Online(options.chat, options.clock))
        finally:
            server.terminate()
            server.wait(10)


def reference() -> float:
    """The CPU seconds of an action driven in-process, in a loop, without sockets
    (``bench/server/server_inprocess.py``, beside this script, 3,000 actions): the machine's speed
    of the moment, which moves by a third within an hour."""
    script = Path(__file__).resolve().parent / "server_inprocess.py"
    out = subprocess.run([sys.executable, str(script), "--actions", "3000"], check=True,
                         capture_output=True, text=True).stdout
    # Its last line: "3000 actions in-process: 0.455 ms of CPU each".
    return float(out.strip().splitlines()[-1].split(": ")[1].split()[0]) / 1000


def report(
    players: int, tally: Tally, references: tuple[float, float] | None = None,
    floor: Tally | None = None,
) -> None:
    """Print the figures of the whole run and of its steady part (with ``references``, the
    in-process CPU an action before and after the run: the steady part's CPU a request as a
    multiple of their mean; with ``floor``, the floor app's run: the steady part's CPU a
    request above its own)."""
    elapsed = tally.elapsed
    print(
        f"{players} players, {elapsed:.1f} s: {tally.requests} requests "
        f"({tally.requests / elapsed:.0f}/s), {len(tally.latencies)} actions, "
        f"{tally.matches} matches finished, {tally.chats} chat messages ({tally.chats_refused} "
        f"refused by its limit), {tally.errors} errors, "
        f"{tally.resent} resent"
    )
    print(
        f"matches read back: {tally.checked}, with an action lost {tally.lost}, "
        f"doubled {tally.doubled}"
    )
    seconds, requests, server, client, first = tally.steady
    figures = ""
    for name, count, cpu, latencies in (
        ("whole run", tally.requests, tally.server_cpu, tally.latencies),
        ("steady part", requests, server, tally.latencies[first:]),
    ):
        if not count or not latencies:
            print(f"{name}: no requests")
            continue
        p50 = statistics.median(latencies) * 1000
        p99 = percentile(latencies, 0.99) * 1000
        rps = count / (elapsed if name == "whole run" else seconds)
        print(
            f"{name}: {rps:.0f} requests/s, action latency median {p50:.1f} ms, "
            f"99th percentile {p99:.1f} ms, server CPU {cpu / count * 1000:.2f} ms a request"
        )
        figures = f"rps={rps:.0f} p50_ms={p50:.1f} p99_ms={p99:.1f} cpu_ms={cpu / count * 1000:.2f}"
    print(
        f"CPU per request, whole run: server {tally.server_cpu / tally.requests * 1000:.2f} ms,"
        f" players {tally.client_cpu / tally.requests * 1000:.2f} ms; steady part, players "
        f"{client / max(requests, 1) * 1000:.2f} ms"
    )
    if references is not None and requests:
        mean = sum(references) / 2
        ratio = server / requests / mean
        print(f"in-process reference: {references[0] * 1000:.3f} ms an action before the run, "
              f"{references[1] * 1000:.3f} after; the steady part's server CPU a request is "
              f"{ratio:.2f} times their mean")
        figures += f" ref_ms={mean * 1000:.3f} ratio={ratio:.2f}"
    if floor is not None and requests and floor.steady[1]:
        floor_ms = floor.steady[2] / floor.steady[1] * 1000
        above = server / requests * 1000 - floor_ms
        print(f"floor (bench/server/server_floor.py, the same players after the run): server CPU "
              f"{floor_ms:.2f} ms a request ({floor.errors} errors, an action lost "
              f"{floor.lost}, doubled {floor.doubled}); the steady part's is {above:.2f} ms "
              f"above it")
        figures += f" floor_ms={floor_ms:.2f} above_ms={above:.2f}"
    print(f"server players={players} {figures} lost={tally.lost} doubled={tally.doubled}")

if __name__ == "__main__":
    main()
