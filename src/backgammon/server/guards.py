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
    }
    #: The kinds counted in Redis when there is one: rare requests, whose limits must hold
    #: across processes (a password guessed on four processes at once).
    SHARED: ClassVar[frozenset[str]] = frozenset({"create", "upload", "signin"})

    def __init__(self, rates: dict[str, str | None], redis_url: str | None = None) -> None:
        self._items: dict[str, RateLimitItem] = {
            kind: parse(rate) for kind, rate in rates.items() if rate is not None
        }
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._shared = None if redis_url is None else SharedLimiter(
            RedisStorage(f"async+{redis_url}", implementation="redispy", wrap_exceptions=True)
        )

    async def check(self, kind: str, client: str) -> None:
        """Count a request of ``kind`` from ``client``; 429 when it is one too many."""
        item = self._items.get(kind)
        if item is None:
            return
        if self._shared is not None and kind in self.SHARED:
            try:
                if await self._shared.hit(item, kind, client):
                    return
                reset = (await self._shared.get_window_stats(item, kind, client)).reset_time
                self._refuse(kind, item, reset)
            except StorageError:
                # Redis is out of reach: the process counts alone meanwhile, rather than
                # refusing everyone or no one.
                log.warning("rate limits counted in memory: Redis is out of reach")
        if not self._limiter.hit(item, kind, client):
            self._refuse(kind, item, self._limiter.get_window_stats(item, kind, client).reset_time)

    def _refuse(self, kind: str, item: RateLimitItem, reset: float) -> None:
        wait = max(1, round(reset - time.time()))
        raise HTTPException(
            status.HTTP_429_TOO_MANY_REQUESTS,
            f"Too many {self.NAMES[kind]} from this address: at most {item.amount} a "
            f"{_window(item)}; try again in a moment.",
            headers={"Retry-After": str(wait)},
        )


def _window(item: RateLimitItem) -> str:
    unit = item.GRANULARITY.name
    return unit if item.multiples == 1 else f"{item.multiples} {unit}s"


async def count(request: Request, kind: str) -> None:
    """Count ``request`` against its client's limit of ``kind`` (429 when one too many)."""
    limits: RateLimits = request.app.state.limits
    await limits.check(kind, request.client.host if request.client else "unknown")


def rate_limited(kind: str) -> Callable[[Request], Awaitable[None]]:
    """A dependency that counts the request against the client's limit of ``kind``."""

    # ``async``: FastAPI runs a dependency defined with ``def`` in a worker thread, and the
    # hand-over costs more than counting in memory.
    async def check(request: Request) -> None:
        await count(request, kind)

    return check


class HintPool:
    """The threads that think out hints: ``workers`` of them, and at most ``queue`` hints
    waiting, so that hints never take the threads the other requests use."""

    def __init__(self, workers: int, queue: int) -> None:
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="hint")
        self._room = workers + queue
        self._under_way = 0

    async def run(self, function: Callable[..., _T], *args: Any) -> _T:
        """``function(*args)`` in a worker thread; 503 when the pool is full."""
        if self._under_way >= self._room:
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE,
                "The computer is busy with other hints; ask again in a moment.",
                headers={"Retry-After": "1"},
            )
        self._under_way += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._executor, function, *args
            )
        finally:
            self._under_way -= 1

    def close(self) -> None:
        """Let the hints under way finish; take no more."""
        self._executor.shutdown(wait=True, cancel_futures=True)
