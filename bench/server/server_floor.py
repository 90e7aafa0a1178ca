"""The floor under the server's CPU an action: an app that does nothing but what any server of
online play must, served and loaded as the web app is.

    .venv/bin/python bench/server/server.py --online ... --app server_floor:create_app \\
        --uvicorn=--app-dir=bench

``create_app`` is a bare ASGI app that speaks just enough of the web app's API for
``bench/server/server.py``'s online players: a match is made and joined, each seat watches it
through its WebSocket, and each action (a POST naming the version it was made on) is checked against
the match's version, answered with a state of the size the web app answers (about 1.9 KB of
JSON, the median of an action's answer with the record's changes only), and pushed to the
other seat's WebSocket. The seats take turns for ever; the players' next action is always a
roll. A chat message (``POST .../chat``, with ``--chat``) is answered and pushed to every
WebSocket watching the match as ``{"chat": message}``, as the web app pushes it. No rules,
no database, no framework: what it costs a request is uvicorn's, its HTTP parser's, the
WebSocket's and the event loop's work, and the process woken for each action, on the machine
as it is at that moment. Run beside the web app's own runs, it shows how much
of their CPU a request is the serving itself, and how that part moves with the hour and with
the load's shape (pauses or none).

Where the server's environment names PostgreSQL and Redis (``BACKGAMMON_DATABASE_URL``,
``BACKGAMMON_REDIS_URL``, as ``bench/server/server.py --database-url ... --redis-url ...`` sets
them), the floor is that of a server of several processes (:class:`SharedMatches`): the database is
the source of truth (each action one conditional UPDATE of the match's row, sent from the event
loop on psycopg's asyncio connections, the action acknowledged once it is committed; each chat
message one INSERT), and each action or message is published on the match's Redis channel (on
a connection Redis does not answer, ``CLIENT REPLY OFF``) to the processes whose WebSockets
watch the match, which push it to them (a message read from its row first, as the web app's
processes read it). Its cost a request is then what that set-up's round trips and wake-ups
cost, below any code of the web app's.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from psycopg_pool import AsyncConnectionPool
from redis import asyncio as redis
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
    #: The chat messages kept in this process's memory (one process).
    messages: int = 0

    def seen(self, version: int, to_act: int, joined: bool) -> None:
        """Take the match as another copy (the database's, another process's) saw it,
        unless that is older than this one."""
        if version >= self.version:
            self.version, self.to_act, self.joined = version, to_act, joined

    def state(self, view: int) -> str:
        """The state's text from seat ``view``'s side."""
        return (
            f'{{"id":"{self.id}","version":{self.version},"to_act":{self.to_act},'
            f'"phase":"roll","actions":[["roll"],["roll"]],"steps":[],"match_over":false,'
            f'"waiting_for_opponent":{"false" if self.joined else "true"},"view":{view},'
            f'"token":"{self.tokens[0]}","invite":"{self.id}","fill":{_FILLER}}}'
        )


async def _answer(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


async def _push(match: _Match, skip: str | None, text: str | None = None) -> None:
    """Push the match's state (or ``text``, a chat message) to its watchers in this process,
    but ``skip``."""
    for watcher, (view, send) in list(match.watchers.items()):
        if watcher != skip:
            try:
                await send({"type": "websocket.send", "text": text or match.state(view)})
            except ClientDisconnected:  # a player that left (the run's end): dropped
                match.watchers.pop(watcher, None)


def _chat_message(number: int, seat: int, text: str) -> str:
    """A chat message's text, of the web app's shape."""
    return json.dumps({"id": number, "channel": "players", "seat": seat, "name": "Player",
                       "text": text, "phrase": None, "time": "2026-12-07T00:00:00+00:00"})


class Matches(dict[str, _Match]):
    """The floor app's matches, in its memory (one process): each kept, checked and changed
    here, and known to no other process. A match not known is made (the shared kind reads
    it)."""

    def __missing__(self, match_id: str) -> _Match:
        match = self[match_id] = _Match(match_id)
        return match

    async def start(self) -> None:
        """Connect to what the matches are kept in (nothing here)."""

    async def stop(self) -> None:
        """Close what :meth:`start` opened."""

    async def create(self, match: _Match) -> None:
        """Keep a new match."""
        self[match.id] = match

    async def join(self, match: _Match) -> None:
        """Take the match's other seat."""
        match.seen(match.version + 1, match.to_act, True)

    async def read(self, match: _Match) -> None:
        """Bring the process's copy of the match up to date (it is: there is no other)."""

    async def act(self, match: _Match, version: int, seat: int) -> bool:
        """The seat's action on the match's ``version``: whether it was its turn then, and
        the action made."""
        if version != match.version or seat != match.to_act:
            return False
        match.seen(version + 1, 1 - seat, match.joined)
        return True

    def tell(self, match: _Match, skip: str | None) -> None:
        """Tell the other processes of the match's change (there are none)."""

    async def chat(self, match: _Match, seat: int, text: str) -> str:
        """Keep a chat message of the match and tell the other processes: its text."""
        match.messages += 1
        return _chat_message(match.messages, seat, text)

    async def follow(self, match: _Match) -> None:
        """Hear the other processes' changes to the match from now on (there are none)."""

    def unfollow(self, match: _Match) -> None:
        """Stop hearing the match's changes."""


#: The floor's matches in a shared database (beside the web app's tables in a run's database).
_TABLES = (
    "CREATE TABLE IF NOT EXISTS floor_matches (id text PRIMARY KEY, version integer NOT NULL,"
    " to_act integer NOT NULL, joined boolean NOT NULL)",
    "CREATE TABLE IF NOT EXISTS floor_chat (id serial PRIMARY KEY, match text NOT NULL,"
    " seat integer NOT NULL, text text NOT NULL)",
)
#: Each match's Redis channel is this followed by its id.
_CHANNEL = "floor:"
#: The connections of a process to the database, all made at its start.
_CONNECTIONS = 10


def _command(*words: str) -> bytes:
    """A Redis command as Redis reads it (RESP).

    >>> _command("PUBLISH", "floor:x", "1")
    b'*3\\r\\n$7\\r\\nPUBLISH\\r\\n$7\\r\\nfloor:x\\r\\n$1\\r\\n1\\r\\n'
    """
    parts = [f"*{len(words)}\r\n".encode()]
    for word in words:
        data = word.encode()
        parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(parts)


class SharedMatches(Matches):
    """The matches of several processes of the floor app, kept in PostgreSQL (the source of
    truth: each action one conditional UPDATE of its match's row), each change published
    on the match's Redis channel and pushed by the other processes that follow it."""

    def __init__(self, database_url: str, redis_url: str) -> None:
        super().__init__()
        self._pool = AsyncConnectionPool(
            database_url, min_size=_CONNECTIONS, max_size=_CONNECTIONS, open=False,
            kwargs={"autocommit": True},
        )
        self._redis_url = redis_url
        #: Marks this process's notices, which Redis sends it back where it follows the match.
        self.origin = secrets.token_hex(4)
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._client: Any = None
        self._pubsub: Any = None
        self._writer: asyncio.StreamWriter | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Open the connections, make the table where no process has yet, and listen."""
        await self._pool.open(wait=True)
        async with self._pool.connection() as connection, connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock(7531)")  # one at a time
            for table in _TABLES:
                await connection.execute(table)
        self._client = redis.from_url(self._redis_url)
        self._pubsub = self._client.pubsub()
        await self._pubsub.subscribe(_CHANNEL + self.origin)  # a connection before any match
        self._spawn(self._listen())
        where = urlsplit(self._redis_url)
        _, self._writer = await asyncio.open_connection(where.hostname, where.port or 6379)
        self._writer.write(_command("CLIENT", "REPLY", "OFF"))  # publish without answers

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._writer is not None:
            self._writer.close()
        if self._pubsub is not None:
            await self._pubsub.aclose()
            await self._client.aclose()
        await self._pool.close()

    async def create(self, match: _Match) -> None:
        await super().create(match)
        await self._row(
            match, "INSERT INTO floor_matches VALUES (%s, 0, 0, false)"
            " RETURNING version, to_act, joined"
        )

    async def join(self, match: _Match) -> None:
        await self._row(
            match, "UPDATE floor_matches SET joined = true, version = version + 1"
            " WHERE id = %s RETURNING version, to_act, joined"
        )

    async def read(self, match: _Match) -> None:
        await self._row(match, "SELECT version, to_act, joined FROM floor_matches WHERE id = %s")

    async def act(self, match: _Match, version: int, seat: int) -> bool:
        # The version checked by the row's UPDATE, acknowledged once it is committed.
        return await self._row(
            match, "UPDATE floor_matches SET version = version + 1, to_act = 1 - to_act"
            " WHERE id = %s AND version = %s AND to_act = %s RETURNING version, to_act, joined",
            version, seat,
        )

    async def chat(self, match: _Match, seat: int, text: str) -> str:
        async with self._pool.connection() as connection:
            cursor = await connection.execute(
                "INSERT INTO floor_chat (match, seat, text) VALUES (%s, %s, %s) RETURNING id",
                (match.id, seat, text),
            )
            row = await cursor.fetchone()
        assert row is not None
        assert self._writer is not None
        self._writer.write(_command("PUBLISH", _CHANNEL + match.id, f"{self.origin} chat {row[0]}"))
        return _chat_message(row[0], seat, text)

    async def _told_chat(self, match: _Match, number: int) -> None:
        """Push the message another process kept, read from its row."""
        async with self._pool.connection() as connection:
            cursor = await connection.execute(
                "SELECT seat, text FROM floor_chat WHERE id = %s", (number,)
            )
            row = await cursor.fetchone()
        if row is not None:
            await _push(match, None, f'{{"chat":{_chat_message(number, *row)}}}')

    async def _row(self, match: _Match, sql: str, *values: object) -> bool:
        """Run ``sql`` on the match's row (a statement of its own, committed when this
        returns) and take the row it answers (version, seat to act, joined): whether there
        was one."""
        async with self._pool.connection() as connection:
            cursor = await connection.execute(sql, (match.id, *values))
            row = await cursor.fetchone()
        if row is not None:
            match.seen(*row)
        return row is not None

    def tell(self, match: _Match, skip: str | None) -> None:
        """Publish the match's change (not waiting: Redis does not answer)."""
        assert self._writer is not None
        notice = f"{self.origin} {match.version} {match.to_act} {int(match.joined)} {skip or ''}"
        self._writer.write(_command("PUBLISH", _CHANNEL + match.id, notice))

    async def follow(self, match: _Match) -> None:
        """Hear the match's notices from now on (once Redis confirmed it)."""
        channel = _CHANNEL + match.id
        confirmed = self._confirmed.setdefault(
            channel, asyncio.get_running_loop().create_future()
        )
        await self._pubsub.subscribe(channel)
        await confirmed

    def unfollow(self, match: _Match) -> None:
        """Stop hearing the match's notices (in the background)."""
        channel = _CHANNEL + match.id
        self._confirmed.pop(channel, None)
        self._spawn(self._unsubscribe(channel))

    async def _unsubscribe(self, channel: str) -> None:
        if channel not in self._confirmed:  # not followed again meanwhile
            await self._pubsub.unsubscribe(channel)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _listen(self) -> None:
        async for message in self._pubsub.listen():
            channel = message["channel"].decode()
            if message["type"] == "subscribe":
                confirmed = self._confirmed.get(channel)
                if confirmed is not None and not confirmed.done():
                    confirmed.set_result(None)
            elif message["type"] == "message":
                origin, *notice = message["data"].decode().split(" ")
                if origin == self.origin:  # its own notice, sent back: its pages have it
                    continue
                match = self[channel.removeprefix(_CHANNEL)]
                if notice[0] == "chat":
                    self._spawn(self._told_chat(match, int(notice[1])))
                    continue
                version, to_act, joined, skip = notice
                match.seen(int(version), int(to_act), joined == "1")
                await _push(match, skip or None)


def create_app() -> ASGIApp:
    """The floor app (see the module's docstring): on PostgreSQL and Redis where the
    environment names them, else in its memory."""
    database_url = os.environ.get("BACKGAMMON_DATABASE_URL", "")
    redis_url = os.environ.get("BACKGAMMON_REDIS_URL")
    matches = (
        SharedMatches(database_url, redis_url)
        if database_url.startswith("postgresql") and redis_url
        else Matches()
    )

    async def changed(match: _Match, skip: str | None) -> None:
        """Tell the other processes, and push to this one's watchers but ``skip``."""
        matches.tell(match, skip)
        await _push(match, skip)

    async def http(scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        if scope["method"] == "GET" and path == "/docs":
            return await _answer(send, 200, "{}")
        if path == "/api/matches":
            match = _Match(secrets.token_urlsafe(12))
            await matches.create(match)
            return await _answer(send, 201, match.state(0))
        if path == "/api/matches/join":
            match = matches[json.loads(body)["invite"]]
            await matches.join(match)
            match.tokens[1] = secrets.token_urlsafe(16)
            await changed(match, None)
            return await _answer(send, 200, f'{{"id":"{match.id}","token":"{match.tokens[1]}"}}')
        match = matches[path.split("/")[3]]
        if scope["method"] == "GET":
            await matches.read(match)
            return await _answer(send, 200, match.state(0))
        if path.endswith("/chat"):
            written = json.loads(body)
            message = await matches.chat(match, written["seat"], written["text"])
            await _push(match, None, f'{{"chat":{message}}}')
            return await _answer(send, 201, message)
        action = json.loads(body)
        if not await matches.act(match, action["version"], action["seat"]):
            return await _answer(send, 409, '{"detail":"stale"}')
        headers = dict(scope["headers"])
        await changed(match, headers.get(b"watcher-id", b"").decode() or None)
        await _answer(send, 200, match.state(action["seat"]))

    async def websocket(scope: Scope, receive: Receive, send: Send) -> None:
        match = matches[scope["path"].split("/")[3]]
        query = dict(pair.split("=", 1) for pair in scope["query_string"].decode().split("&"))
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        view, watcher = int(query["view"]), query["watcher"]
        if not match.watchers:
            await matches.follow(match)
        match.watchers[watcher] = (view, send)
        await matches.read(match)  # after following it: no change missed between the two
        await send({"type": "websocket.send", "text": match.state(view)})
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            match.watchers.pop(watcher, None)
            if not match.watchers:
                matches.unfollow(match)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await http(scope, receive, send)
        elif scope["type"] == "websocket":
            await websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            await receive()  # lifespan.startup
            await matches.start()
            await send({"type": "lifespan.startup.complete"})
            await receive()  # lifespan.shutdown
            await matches.stop()
            await send({"type": "lifespan.shutdown.complete"})

    return app
