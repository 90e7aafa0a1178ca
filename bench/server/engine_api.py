"""The engine API's latency: ``POST /api/v1/engine/move`` at 0-ply, one question at a time.

    .venv/bin/python bench/server/engine_api.py [--requests 500] [--plies 0] [--warmup 20]

The script starts the server itself (``uvicorn backgammon.server:create_app`` in a child
process on a free 127.0.0.1 port, SQLite in a temporary folder, no rate limits: the harness
of bench/server/server.py), then asks ``--requests`` move questions in turn over one keep-alive
connection: positions met in games of the bot against itself (so openings, middle games and
bear-offs), each with a roll, a tenth of them by XGID with the match score, the rest by GNU
Backgammon Position ID. The latency is timed from send to parsed answer, on loopback, after
``--warmup`` questions (the first loads the networks and compiles the kernel). The server's
CPU time a question (from ``/proc``) is printed too: on a busy machine the latency includes
waiting for a core, the CPU time much less so. The last line is for machines:
``engine_api plies=... n=... p50_ms=... p99_ms=... server_cpu_ms=...``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from server import cpu_seconds, free_port, percentile, start_server, wait_until_up

from backgammon.bot import Bot, play_out
from backgammon.dice import SeededDice
from backgammon.formats.ids import xgid_of
from backgammon.game import Game, Phase, Rolled, SetUp
from backgammon.game.match import Match


def questions(count: int, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` move questions from positions of bot-against-bot games (seeded)."""
    rng = random.Random(seed)
    bot = Bot()
    found: list[dict[str, Any]] = []
    game_number = 0
    while len(found) < count:
        match = Match(7, dice=SeededDice(seed + game_number))
        game: Game = match.game
        play_out(game, [bot, bot])
        game_number += 1
        for entry in game.history():
            if not isinstance(entry, Rolled) or not entry.position.legal_plays(entry.dice):
                continue
            question: dict[str, Any] = {"dice": list(entry.dice), "plays": 5}
            if rng.random() < 0.1 and entry.cube is not None and entry.cube.match is not None:
                # The XGID of the moment: a throwaway match set to this position and roll.
                question = {"position": _xgid(entry), "plays": 5}
            else:
                question["position"] = entry.position.id()
            found.append(question)
    rng.shuffle(found)
    return found[:count]


def _xgid(entry: Rolled) -> str:
    assert entry.cube is not None and entry.cube.match is not None

    score = entry.cube.match.score
    seat_score = score if entry.seat == 0 else (score[1], score[0])
    setup = SetUp(entry.position, on_roll=entry.seat, dice=entry.dice)
    match = Match(entry.cube.match.length, setup=setup, score=seat_score)
    assert match.game.phase is Phase.MOVE
    return xgid_of(match)


async def run(requests: int, plies: int, warmup: int) -> tuple[list[float], float]:
    """The latency of each question after the warm-up, and the server's CPU seconds for
    them all."""
    asked = questions(requests + warmup)
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = start_server(Path(folder), port, "backgammon.server:create_app")
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
                await wait_until_up(port, server)
                times = []
                cpu = 0.0
                for number, question in enumerate(asked):
                    if number == warmup:
                        cpu = cpu_seconds(server.pid)
                    start = time.perf_counter()
                    response = await client.post(
                        "/api/v1/engine/move", json={**question, "plies": plies}
                    )
                    response.raise_for_status()
                    response.json()
                    if number >= warmup:
                        times.append(time.perf_counter() - start)
                return times, cpu_seconds(server.pid) - cpu
        finally:
            server.terminate()
            server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=500)
    parser.add_argument("--plies", type=int, default=0, choices=(0, 1, 2))
    parser.add_argument("--warmup", type=int, default=20)
    arguments = parser.parse_args()
    times, cpu = asyncio.run(run(arguments.requests, arguments.plies, arguments.warmup))
    ms = sorted(1000 * t for t in times)
    cpu_ms = 1000 * cpu / len(ms)
    print(
        f"{len(ms)} move questions at {arguments.plies}-ply: median {statistics.median(ms):.2f} "
        f"ms, p90 {percentile(ms, 0.90):.2f} ms, p99 {percentile(ms, 0.99):.2f} ms, "
        f"max {ms[-1]:.2f} ms; the server's CPU time {cpu_ms:.2f} ms a question"
    )
    print(
        f"engine_api plies={arguments.plies} n={len(ms)} p50_ms={statistics.median(ms):.2f} "
        f"p99_ms={percentile(ms, 0.99):.2f} server_cpu_ms={cpu_ms:.2f}"
    )


if __name__ == "__main__":
    main()
