"""The server's CPU an action, in-process: the web app driven through ASGI, without sockets.

    .venv/bin/python bench/server/server_inprocess.py [--actions 3000] [--profile FILE]

The app (``create_app``, on an SQLite file in a temporary folder) plays seeded one-point
matches with both seats human, made as ``bench/server/server.py``'s players make them (each action
the first on offer, with ``record_since``); each request is one ASGI call, so what is timed is
the app alone: FastAPI and its middleware, the action, the state answered and the save, not
uvicorn, the sockets or any push (no page watches). It prints the process's CPU time per
action; ``--profile`` writes cProfile's statistics of the actions to FILE (for ``pstats``).
Figures vary by a tenth or more between runs on a shared machine: compare several.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server import next_action  # bench/server/server.py, beside this script


async def call(
    app: Any, method: str, path: str, body: dict[str, Any], token: str = "", query: str = ""
) -> tuple[int, dict[str, Any]]:
    """One request to ``app`` through ASGI: its status and its JSON answer."""
    data = json.dumps(body).encode()
    headers = [(b"host", b"bench"), (b"content-type", b"application/json"),
               (b"content-length", str(len(data)).encode())]
    if token:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query.encode(), "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
    sent: list[dict[str, Any]] = []
    bodies = [{"type": "http.request", "body": data, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if bodies:
            return bodies.pop()
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)
    answer = b"".join(message.get("body", b"") for message in sent[1:])
    return sent[0]["status"], json.loads(answer)


async def run(actions: int, profile: cProfile.Profile | None) -> float:
    """Play ``actions`` actions; the CPU seconds they took."""
    from backgammon.server import create_app

    app = create_app()
    async with app.router.lifespan_context(app):
        done, cpu = 0, 0.0
        while done < actions:
            options = {"length": 1, "opponent": "human", "cube": False, "seed": done}
            status, state = await call(app, "POST", "/api/matches", options)
            assert status == 201, state
            token, url = state["token"], f"/api/matches/{state['id']}/actions"
            while not state["match_over"] and done < actions:
                query = f"record_since={state['version']}"
                started = time.process_time()
                if profile is not None:
                    profile.enable()
                status, state = await call(app, "POST", url, next_action(state), token, query)
                if profile is not None:
                    profile.disable()
                cpu += time.process_time() - started
                assert status == 200, state
                done += 1
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--profile", type=Path, help="write cProfile's statistics here")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update(
            BACKGAMMON_DATABASE_URL=f"sqlite:///{folder}/bench.sqlite",
            BACKGAMMON_CREATE_RATE="none",
            BACKGAMMON_ACTION_RATE="none",
            BACKGAMMON_ALLOW_SEED="1",
        )
        profile = cProfile.Profile() if options.profile else None
        cpu = asyncio.run(run(options.actions, profile))
        if profile is not None:
            profile.dump_stats(options.profile)
    print(f"{options.actions} actions in-process: {1000 * cpu / options.actions:.3f} ms of CPU "
          "each")


if __name__ == "__main__":
    main()
