"""What keeps one client from taking the server for itself: a cap on a request's size, rate
limits per client (the ``limits`` library's moving windows), and a bounded pool of threads for
the bot's hints. Each refusal is an answer with a sentence: 413, 429 or 503.

With Redis (``BACKGAMMON_REDIS_URL``) the limits that guard secrets and storage (tries to sign
in, new matches, uploads: :data:`RateLimits.SHARED`) are counted in Redis, so that several
processes hold a client to one limit between them; actions and hints, the hot path, are counted
in each process's memory (a client spread over N processes gets at most N times their rate).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ClassVar, TypeVar

from fastapi import HTTPException, Request, status
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage
from limits.aio.strategies import MovingWindowRateLimiter as SharedLimiter
from limits.errors import StorageError
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_T = TypeVar("_T")

log = logging.getLogger(__name__)


class BodyLimit:
    """ASGI middleware: a request whose body is over ``max_bytes`` is answered 413 and never
    reaches the app (the body is read first, up to the limit, whatever Content-Length says).
    The paths in ``larger`` (an upload's) have their own, larger limit."""

    def __init__(
        self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None
    ) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.larger.get(scope["path"], self.max_bytes)
        declared = next(
            (value for name, value in scope["headers"] if name == b"content-length"), b"0"
        )
        chunks: list[bytes] = []
        size = 0
        more = not declared.isdigit() or int(declared) <= limit
        over = not more
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > limit:
                over = True
                break
        body = b"".join(chunks)
        if over:
            sentence = f"The request is too large: at most {limit} bytes are read."
            await _answer(send, 413, sentence)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()  # what comes next: the client's disconnect
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


async def _answer(send: Send, code: int, sentence: str) -> None:
    content = json.dumps({"detail": sentence}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": code,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(content)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": content})


class RateLimits:
    """Rate limits per client address, by kind of request (None: no limit), in memory, and
    for the :data:`SHARED` kinds in Redis where ``redis_url`` is given."""

    #: What each kind of request is called in a refusal.
    NAMES: ClassVar[dict[str, str]] = {
        "create": "new matches", "hint": "hints", "action": "actions",
        "upload": "files to analyse", "signin": "tries to sign in or up",
        "account": "wrong passwords for this account", "chat": "chat messages",
    }
    #: The kinds counted in Redis when there is one: rare requests, whose limits must hold
    #: across processes (a password guessed on four processes at once).
    SHARED: ClassVar[frozenset[str]] = frozenset(
        {"create", "upload", "signin", "account", "chat"}
    )
    #: Whose requests each kind counts, where it is not the client's address.
    SOURCES: ClassVar[dict[str, str]] = {"account": "lately", "chat": "from you"}

    def __init__(self, rates: dict[str, str | None], redis_url: str | None = None) -> None:
        self._items: dict[str, RateLimitItem] = {
            kind: parse(rate) for kind, rate in rates.items() if rate is not None
        }
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._shared = None if redis_url is None else SharedLimiter(
            RedisStorage(f"async+{redis_url}", implementation="redispy", wrap_exceptions=True)
        )

    async def check(self, kind: str, client: str, count: bool = True) -> None:
        """Count a request of ``kind`` from ``client`` (a key: an address, an account);
        429 when it is one too many. ``count`` False: only whether the limit is reached."""
        item = self._items.get(kind)
        if item is None:
            return
        if self._shared is not None and kind in self.SHARED:
            try:
                shared = self._shared
                if await (shared.hit if count else shared.test)(item, kind, client):
                    return
                reset = (await shared.get_window_stats(item, kind, client)).reset_time
                self._refuse(kind, item, reset)
            except StorageError:
                # Redis is out of reach: the process counts alone meanwhile, rather than
                # refusing everyone or no one.
                log.warning("rate limits counted in memory: Redis is out of reach")
        limiter = self._limiter
        if not (limiter.hit if count else limiter.test)(item, kind, client):
            self._refuse(kind, item, limiter.get_window_stats(item, kind, client).reset_time)

    def _refuse(self, kind: str, item: RateLimitItem, reset: float) -> None:
        wait = max(1, round(reset - time.time()))
        source = self.SOURCES.get(kind, "from this address")
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            f"Too many {self.NAMES[kind]} {source}: at most {item.amount} "
            f"{_window(item)}; try again in {wait} seconds.",
            headers={"Retry-After": str(wait)},
        )


def _window(item: RateLimitItem) -> str:
    """A limit's window as a refusal says it.

    >>> _window(parse("20/minute")), _window(parse("5/10seconds")), _window(parse("9/hour"))
    ('a minute', 'in 10 seconds', 'an hour')
    """
    unit = item.GRANULARITY.name
    if item.multiples == 1:
        return f"{'an' if unit == 'hour' else 'a'} {unit}"
    return f"in {item.multiples} {unit}s"


def client_of(connection: HTTPConnection) -> str:
    """The address a request or a WebSocket comes from: the key of every per-client limit."""
    return connection.client.host if connection.client else "unknown"


async def count(request: Request, kind: str) -> None:
    """Count ``request`` against its client's limit of ``kind`` (429 when one too many)."""
    limits: RateLimits = request.app.state.limits
    await limits.check(kind, client_of(request))


def rate_limited(kind: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency that counts the request against the client's limit of ``kind``."""

    # ``async``: FastAPI runs a dependency defined with ``def`` in a worker thread, and the
    # hand-over costs more than counting in memory.
    async def check(request: Request) -> None:
        await count(request, kind)

    return check


class BoundedPool:
    """Threads for slow work (the engine's hints, password hashing): ``workers`` of them and
    at most ``queue`` tasks waiting, so that the work never takes the threads the other
    requests use; beyond, 503 with ``busy`` (a sentence) and a Retry-After."""

    def __init__(self, workers: int, queue: int, busy: str, name: str = "hint") -> None:
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix=name)
        self._room = workers + queue
        self._under_way = 0
        self._busy = busy

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)`` in a worker thread; 503 when the pool is full."""
        if self._under_way >= self._room:
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE, self._busy, headers={"Retry-After": "1"}
            )
        self._under_way += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._executor, function, *args
            )
        finally:
            self._under_way -= 1

    def close(self) -> None:
        """Let the work under way finish; take no more."""
        self._executor.shutdown(wait=True, cancel_futures=True)


class SocketCaps:
    """The live-update sockets open in this process, counted by client address and by match,
    each count capped: one client cannot hold thousands of sockets (each costs memory and a
    task), nor a match more watchers than a crowd of spectators needs.

    >>> caps = SocketCaps(per_client=1, per_match=5)
    >>> caps.take("1.2.3.4", "m"), caps.take("1.2.3.4", "m")
    (None, 'Too many live updates from this address: at most 1 open at once.')
    >>> caps.give_back("1.2.3.4", "m"); caps.take("1.2.3.4", "m") is None
    True
    """

    def __init__(self, per_client: int, per_match: int) -> None:
        self.per_client = per_client
        self.per_match = per_match
        self._clients: Counter[str] = Counter()
        self._matches: Counter[str] = Counter()

    def take(self, client: str, match_id: str) -> str | None:
        """Count a socket of ``client`` on ``match_id``; the reason to refuse it instead (a
        close reason: at most 123 bytes), counting nothing, where a cap is reached."""
        if self._clients[client] >= self.per_client:
            return (
                f"Too many live updates from this address: at most {self.per_client} open at "
                "once."
            )
        if self._matches[match_id] >= self.per_match:
            return f"This match has as many watchers as it takes ({self.per_match})."
        self._clients[client] += 1
        self._matches[match_id] += 1
        return None

    def give_back(self, client: str, match_id: str) -> None:
        """A socket counted by :meth:`take` has closed."""
        for counts, key in ((self._clients, client), (self._matches, match_id)):
            counts[key] -= 1
            if counts[key] <= 0:
                del counts[key]
