"""Notices between the processes that serve the same matches, by Redis pub/sub.

The database holds every match, and is the only truth; what Redis carries is only that a
row has moved on: after each write a process publishes the match's new version on the
match's channel, and every process whose pages watch that match (and only those: each
follows the channels of the matches it shows) brings its copy up to the row and shows them
each event it lacked (:meth:`.store.MatchStore.heard`). A notice lost (Redis restarted, a
connection cut) delays a page, never corrupts a match: every save names the version it was
made on, every use of a match asks its row first, and a process that lost its connection
brings every watched match up to its row once it is back (``resync``). A chat message
written is told the same way, on the match's channel (:meth:`Relay.tell_chat`): the row is
the truth there too, and the notice only says there is news.

Notices are published on a connection of their own, which Redis is asked not to answer
(``CLIENT REPLY OFF``), its writes timed by the relay rather than by redis-py: redis-py's way
to a command and its answer (the pool, the pipeline, a task to time each write, the reply's
parsing) cost about 180 µs of CPU a notice, the bare write about 20.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable
from typing import Any

from redis import asyncio as redis
from redis.exceptions import ConnectionError as ClosedError
from redis.exceptions import RedisError, ResponseError

log = logging.getLogger(__name__)

#: Each match's channel is this followed by its id.
PREFIX = "backgammon:match:"
#: What a notice of a chat message says before the message's id (a version is digits alone).
CHAT = "chat:"
#: A guard against a Redis that accepts the connection and never answers, never a measure.
PATIENCE = 10.0
#: Seconds between tries to reach a Redis that is down.
RETRY = 1.0


class Relay:
    """This process's link to the others: :meth:`tell` publishes a new version, and a
    notice from another process about a followed match calls ``heard(match_id, version)``;
    ``resync()`` is called when notices may have been missed (the connection came back)."""

    def __init__(
        self,
        url: str,
        heard: Callable[[str, int], None],
        resync: Callable[[], None],
    ) -> None:
        self.url = url
        self.heard = heard
        self.resync = resync
        #: Called with a match's id and a chat message's id when another process has written
        #: that message (:meth:`tell_chat`; set by the chat, :mod:`..chat.rooms`).
        self.chatted: Callable[[str, int], None] = lambda _match_id, _message_id: None
        #: Marks this process's own notices, which it does not act on.
        self.origin = secrets.token_hex(4)
        #: The notices to publish: a match's id and what is said of it (a version, or
        #: ``chat:`` and a message's id).
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._confirmed: dict[str, asyncio.Future[None]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._client: Any = None
        self._pubsub: Any = None
        #: The connection that publishes (its answers may be turned off), its client's own
        #: (writes without redis-py's timeout), and whether Redis answers it (:meth:`_quieten`).
        self._publisher: Any = None
        self._publishing: Any = None
        self._quiet = False

    async def start(self) -> None:
        """Connect, and start publishing and listening (in the app's event loop)."""
        self._client = redis.from_url(self.url)
        self._pubsub = self._client.pubsub()
        # A channel of its own, so that the listener has a connection before any match is
        # followed.
        await asyncio.wait_for(self._pubsub.subscribe(PREFIX + self.origin), PATIENCE)
        # Its writes are timed by the relay (_publish): redis-py's own timeout on each write
        # (asyncio.wait_for, a task apiece) cost more than the write.
        self._publishing = redis.from_url(
            self.url, socket_timeout=None, socket_connect_timeout=PATIENCE
        )
        self._publisher = await self._publishing.connection_pool.get_connection()
        self._publisher.register_connect_callback(self._quieten)
        await asyncio.wait_for(self._quieten(self._publisher), PATIENCE)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._send()), loop.create_task(self._listen())]

    async def close(self) -> None:
        """Stop, after publishing what is queued."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._outbox.join(), PATIENCE)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._publisher is not None:
            # Closed rather than given back as it is: its answers are off.
            self._publisher.deregister_connect_callback(self._quieten)
            await self._publisher.disconnect()
            await self._publishing.connection_pool.release(self._publisher)
            await self._publishing.aclose()
        if self._client is not None:
            await self._client.aclose()

    def tell(self, match_id: str, version: int) -> None:
        """Publish that ``match_id`` is now at ``version`` (in the background: an action's
        answer never waits on Redis)."""
        self._outbox.put_nowait((match_id, str(version)))

    def tell_chat(self, match_id: str, message_id: int) -> None:
        """Publish that message ``message_id`` of the match's chat is written (in the
        background), on the match's channel: the processes whose pages watch the match read
        it from its row and push it to them."""
        self._outbox.put_nowait((match_id, f"{CHAT}{message_id}"))

    async def follow(self, match_id: str) -> None:
        """Listen to the match's notices from now on: once this returns, Redis has confirmed
        the subscription, so no notice published later is missed."""
        if self._pubsub is None:
            return  # not started: the app's lifespan has not run (a test's bare client)
        channel = PREFIX + match_id
        confirmed = self._confirmed.setdefault(
            channel, asyncio.get_running_loop().create_future()
        )
        try:
            await self._pubsub.subscribe(channel)
            await asyncio.wait_for(asyncio.shield(confirmed), PATIENCE)
        except (TimeoutError, RedisError, OSError):
            log.warning("could not follow match %s on Redis", match_id, exc_info=True)

    def unfollow(self, match_id: str) -> None:
        """Stop listening to the match's notices (in the background)."""
        channel = PREFIX + match_id
        self._confirmed.pop(channel, None)
        task = asyncio.get_running_loop().create_task(self._unsubscribe(channel))
        self._tasks.append(task)
        task.add_done_callback(self._tasks.remove)

    async def _unsubscribe(self, channel: str) -> None:
        if channel in self._confirmed:
            return  # followed again meanwhile
        try:
            await self._pubsub.unsubscribe(channel)
        except (RedisError, OSError):
            log.warning("could not stop following %s on Redis", channel, exc_info=True)

    async def _send(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                await self._publish(batch)
            except (RedisError, OSError):
                log.warning("could not publish %d notices on Redis", len(batch), exc_info=True)
            finally:
                for _ in batch:
                    self._outbox.task_done()

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        """Send the notices of ``batch`` on the publishing connection, and where Redis
        answers them, read the answers. A connection that Redis closed (a restart, an idle
        client's timeout) is made again (its answers turned off again: :meth:`_quieten`),
        and the batch sent on the new one: a connection whose answers are off is never read,
        so its end is looked for before each batch, and a write may still meet it."""
        connection = self._publisher
        commands = []
        for match_id, notice in batch:
            commands.append(("PUBLISH", PREFIX + match_id, f"{notice} {self.origin}"))
        packed = connection.pack_commands(commands)
        for tries_left in (1, 0):
            try:
                async with asyncio.timeout(PATIENCE):
                    if connection.is_connected:
                        await connection.can_read()  # raises where Redis closed it
                    await connection.send_packed_command(packed, check_health=False)
                break
            except (ClosedError, OSError):  # TimeoutError too
                await connection.disconnect()
                if not tries_left:
                    raise
        if not self._quiet:
            async with asyncio.timeout(PATIENCE):
                for _ in batch:
                    await connection.read_response()

    async def _quieten(self, connection: Any) -> None:
        """Ask Redis not to answer the publishing ``connection`` (just made): a publish's
        answer (how many listened) is of no use here, and reading it cost more CPU than
        sending the notice. A Redis that refuses (a proxy, a user denied CLIENT) answers
        as usual, and its answers are read."""
        # CLIENT REPLY OFF is not answered where it is obeyed; the ON after it is, either way.
        await connection.send_packed_command(
            connection.pack_commands([("CLIENT", "REPLY", "OFF"), ("CLIENT", "REPLY", "ON")]),
            check_health=False,
        )
        try:
            await connection.read_response()
        except ResponseError:  # OFF refused: ON's answer, or refusal, follows
            self._quiet = False
            with contextlib.suppress(ResponseError):
                await connection.read_response()
            log.info("Redis answers every notice published: CLIENT REPLY OFF was refused")
            return
        await connection.send_packed_command(
            connection.pack_command("CLIENT", "REPLY", "OFF"), check_health=False
        )
        self._quiet = True

    async def _listen(self) -> None:
        while True:
            try:
                async for message in self._pubsub.listen():
                    self._receive(message)
            except (RedisError, OSError):
                log.warning("lost the connection to Redis; trying again", exc_info=True)
                await asyncio.sleep(RETRY)
                self.resync()

    def _receive(self, message: dict[str, Any]) -> None:
        channel = _text(message.get("channel"))
        if message.get("type") == "subscribe":
            confirmed = self._confirmed.get(channel)
            if confirmed is not None and not confirmed.done():
                confirmed.set_result(None)
            return
        if message.get("type") != "message" or not channel.startswith(PREFIX):
            return
        notice, _, origin = _text(message.get("data")).partition(" ")
        if origin == self.origin:
            return
        if notice.isdigit():
            self.heard(channel.removeprefix(PREFIX), int(notice))
        elif notice.startswith(CHAT) and notice[len(CHAT):].isdigit():
            self.chatted(channel.removeprefix(PREFIX), int(notice[len(CHAT):]))


def _text(value: object) -> str:
    """A field of a message as text (redis-py gives bytes)."""
    return value.decode() if isinstance(value, bytes) else str(value)
