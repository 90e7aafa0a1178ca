"""The floor under the server's CPU an action: an app that does nothing but what any server of
online play must, served and loaded as the web app is.

    .venv/bin/python bench/server.py --online ... --app server_floor:create_app \\
        --uvicorn=--app-dir=bench

``create_app`` is a bare ASGI app that speaks just enough of the web app's API for
``bench/server.py``'s online players: a match is made and joined, each seat watches it through
its WebSocket, and each action (a POST naming the version it was made on) is checked against
the match's version, answered with a state of the size the web app answers (about 1.9 KB of
JSON, the median of an action's answer with the record's changes only), and pushed to the
other seat's WebSocket. The seats take turns for ever; the players' next action is always a
roll. No rules, no database, no framework: what it costs a request is uvicorn's, its HTTP
parser's, the WebSocket's and the event loop's work, and the process woken for each action,
on the machine as it is at that moment. Run beside the web app's own runs, it shows how much
of their CPU a request is the serving itself, and how that part moves with the hour and with
the load's shape (pauses or none).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.utils import ClientDisconnected

#: What fills a state to the size of the web app's (a board of 24 points and a record entry,
#: as the web app writes them).
_BOARD = json.dumps([{"seat": point % 2, "count": point % 5} for point in range(24)])
_FILLER = json.dumps({"points": json.loads(_BOARD), "record": [{"seat": 0, "kind": "play",
                     "dice": [6, 1], "play": "13/7 8/7"}] * 6, "pad": "x" * 630})


@dataclass
class _Match:
    """A match of the floor app: its version, the seat to act and the seats' watchers."""

    id: str
    version: int = 0
    to_act: int = 0
    joined: bool = False
    tokens: list[str] = field(default_factory=lambda: [secrets.token_urlsafe(16), ""])
    #: The WebSockets watching, by watcher id: the seat they watch from and their send.
    watchers: dict[str, tuple[int, Send]] = field(default_factory=dict)

    def state(self, view: int) -> str:
        """The state's text from seat ``view``'s side."""
        return (
            f'{{"id":"{self.id}","version":{self.version},"to_act":{self.to_act},'
            f'"phase":"roll","actions":[["roll"],["roll"]],"steps":[],"match_over":false,'
            f'"waiting_for_opponent":{"false" if self.joined else "true"},"view":{view},'
            f'"token":"{self.tokens[0]}","invite":"{self.id}","fill":{_FILLER}}}'
        )


def create_app() -> ASGIApp:
    """The floor app (see the module's docstring)."""
    matches: dict[str, _Match] = {}

    async def answer(send: Send, status: int, text: str) -> None:
        body = text.encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def push(match: _Match, skip: str | None) -> None:
        for watcher, (view, send) in list(match.watchers.items()):
            if watcher != skip:
                try:
                    await send({"type": "websocket.send", "text": match.state(view)})
                except ClientDisconnected:  # a player that left (the run's end): dropped
                    match.watchers.pop(watcher, None)

    async def http(scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        if scope["method"] == "GET" and path == "/docs":
            return await answer(send, 200, "{}")
        if path == "/api/matches":
            match = _Match(secrets.token_urlsafe(12))
            matches[match.id] = match
            return await answer(send, 201, match.state(0))
        if path == "/api/matches/join":
            match = matches[json.loads(body)["invite"]]
            match.joined, match.version = True, match.version + 1
            match.tokens[1] = secrets.token_urlsafe(16)
            await push(match, None)
            return await answer(send, 200, f'{{"id":"{match.id}","token":"{match.tokens[1]}"}}')
        match = matches[path.split("/")[3]]
        if scope["method"] == "GET":
            return await answer(send, 200, match.state(0))
        action = json.loads(body)
        if action["version"] != match.version or action["seat"] != match.to_act:
            return await answer(send, 409, '{"detail":"stale"}')
        match.version += 1
        match.to_act = 1 - match.to_act
        headers = dict(scope["headers"])
        await push(match, headers.get(b"watcher-id", b"").decode() or None)
        await answer(send, 200, match.state(action["seat"]))

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        match = matches[scope["path"].split("/")[3]]
        query = dict(pair.split("=", 1) for pair in scope["query_string"].decode().split("&"))
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        view = int(query["view"])
        match.watchers[query["watcher"]] = (view, send)
        await send({"type": "websocket.send", "text": match.state(view)})
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            match.watchers.pop(query["watcher"], None)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await http(scope, receive, send)
        elif scope["type"] == "websocket":
            await websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            await receive()  # lifespan.startup
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
            await send({"type": "lifespan.shutdown.complete"})

    return app
