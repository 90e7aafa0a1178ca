"""The server's CPU an action, in-process: the web app driven through ASGI, without sockets.

    .venv/bin/python bench/server/server_inprocess.py [--actions 3000] [--profile FILE]
        [--online [--chat 0.2] [--clock normal]]

The app (``create_app``, on an SQLite file in a temporary folder) plays seeded one-point
matches with both seats human, made as ``bench/server/server.py``'s players make them (each action
the first on offer, with ``record_since``); each request is one ASGI call, so what is timed is
the app alone: FastAPI and its middleware, the action, the state answered and the save, not
uvicorn, the sockets or any push (no page watches). With ``--online`` the matches are online
ones, the second seat taken with the invite and each seat acting with its own token, as
``server.py --online`` plays them; ``--chat`` and ``--clock`` as there (the chat's messages
counted as requests, timed and profiled like the actions). It prints the process's CPU time per
request; ``--profile`` writes cProfile's statistics of the requests to FILE (for ``pstats``).
Figures vary by a tenth or more between runs on a shared machine: compare several.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import random
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


class Timed:
    """The CPU seconds of the requests made through :meth:`call`, and their number."""

    def __init__(self, app: Any, profile: cProfile.Profile | None) -> None:
        self.app, self.profile = app, profile
        self.cpu, self.requests = 0.0, 0

    async def call(self, method: str, path: str, body: dict[str, Any], token: str = "",
                   query: str = "") -> tuple[int, dict[str, Any]]:
        """:func:`call`, timed (and profiled)."""
        started = time.process_time()
        if self.profile is not None:
            self.profile.enable()
        answer = await call(self.app, method, path, body, token, query)
        if self.profile is not None:
            self.profile.disable()
        self.cpu += time.process_time() - started
        self.requests += 1
        return answer


async def run(requests: int, profile: cProfile.Profile | None, online: bool = False,
              chat: float = 0.0, clock: str | None = None) -> float:
    """Make ``requests`` timed requests (actions, and chat messages at the chance ``chat``
    after each); the CPU seconds they took."""
    from backgammon.server import create_app

    app = create_app()
    chance = random.Random(1)
    async with app.router.lifespan_context(app):
        timed, made = Timed(app, profile), 0
        while timed.requests < requests:
            options = {"length": 1, "opponent": "online" if online else "human", "cube": False,
                       "seed": made, **({"clock": clock} if clock else {})}
            made += 1
            status, state = await call(app, "POST", "/api/matches", options)
            assert status == 201, state
            tokens = (state["token"], state["token"])
            if online:
                status, joined = await call(app, "POST", "/api/matches/join",
                                            {"invite": state["invite"]})
                assert status in (200, 201), joined
                tokens = (state["token"], joined["token"])
            url = f"/api/matches/{state['id']}"
            if online:  # the state after the seat taken
                status, state = await call(app, "GET", url, {}, tokens[0])
                assert status == 200, state
            while not state["match_over"] and timed.requests < requests:
                query = f"record_since={state['version']}"
                action = next_action(state)
                status, state = await timed.call("POST", f"{url}/actions", action,
                                                 tokens[action["seat"]], query)
                assert status == 200, state
                if chance.random() < chat:
                    seat = action["seat"]
                    body = {"channel": "players", "seat": seat, "text": "Good luck!"}
                    status, said = await timed.call("POST", f"{url}/chat", body, tokens[seat])
                    assert status == 201, said
    return timed.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--profile", type=Path, help="write cProfile's statistics here")
    parser.add_argument("--online", action="store_true", help="online matches, two tokens")
    parser.add_argument("--chat", type=float, default=0.0,
                        help="the chance of a chat message after each action (--online)")
    parser.add_argument("--clock", choices=("fast", "normal", "casual"),
                        help="the matches' time control (--online)")
    options = parser.parse_args()
    if (options.chat or options.clock) and not options.online:
        parser.error("--chat and --clock are online matches': add --online")
    with tempfile.TemporaryDirectory() as folder:
        os.environ.update(
            BACKGAMMON_DATABASE_URL=f"sqlite:///{folder}/bench.sqlite",
            BACKGAMMON_CREATE_RATE="none",
            BACKGAMMON_ACTION_RATE="none",
            BACKGAMMON_CHAT_RATE="none",
            BACKGAMMON_ALLOW_SEED="1",
        )
        profile = cProfile.Profile() if options.profile else None
        cpu = asyncio.run(run(options.actions, profile, options.online, options.chat,
                              options.clock))
        if profile is not None:
            profile.dump_stats(options.profile)
    print(f"{options.actions} requests in-process: {1000 * cpu / options.actions:.3f} ms of CPU "
          "each")


if __name__ == "__main__":
    main()
