"""The relay between server processes, on a real Redis (skipped where it cannot start): each
process hears the others' notices of the matches it follows, never its own, and its notices
get through when Redis closes its publishing connection, or refuses to stop answering it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

import pytest

pytest.importorskip("redis", reason="redis-py (the server extra) is not installed")

from redis import asyncio as redis

from backgammon.server.play.relay import PREFIX, Relay

#: Seconds a notice may take, a guard against a test that would hang, never a measure.
PATIENCE = 10.0


class Heard:
    """The notices a relay heard, in order; ``resyncs`` counts its resyncs."""

    def __init__(self) -> None:
        self.notices: list[tuple[str, int]] = []
        self.resyncs = 0
        self._changed = asyncio.Event()

    def heard(self, match_id: str, version: int) -> None:
        self.notices.append((match_id, version))
        self._changed.set()

    def resync(self) -> None:
        self.resyncs += 1

    async def until(self, count: int) -> list[tuple[str, int]]:
        """The notices, once there are ``count`` of them."""
        async with asyncio.timeout(PATIENCE):
            while len(self.notices) < count:
                self._changed.clear()
                await self._changed.wait()
        return self.notices


@contextlib.asynccontextmanager
async def relays(*urls: str) -> AsyncIterator[tuple[list[Relay], list[Heard]]]:
    """Relays started on each of ``urls``, with what each heard; closed on leaving."""
    made: list[Relay] = []
    heard: list[Heard] = []
    try:
        for url in urls:
            ears = Heard()
            relay = Relay(url, ears.heard, ears.resync)
            await relay.start()
            made.append(relay)
            heard.append(ears)
        yield made, heard
    finally:
        for relay in made:
            await relay.close()


def test_a_process_hears_the_notices_of_the_others_of_the_matches_it_follows(
    redis_url: str,
) -> None:
    async def scenario() -> None:
        async with (
            relays(redis_url, redis_url) as ((first, second), (mine, heard)),
            redis.from_url(redis_url) as admin,
        ):
            await first.follow("m1")  # its own notices, which it does not act on
            await second.follow("m1")
            first.tell("m1", 3)
            first.tell("m2", 7)  # not followed
            first.tell("m1", 4)
            assert await heard.until(2) == [("m1", 3), ("m1", 4)]
            second.tell("m1", 5)
            assert await mine.until(1) == [("m1", 5)]  # not its own before it
            second.unfollow("m1")  # in the background: done once Redis counts one listener
            async with asyncio.timeout(PATIENCE):
                while (await admin.pubsub_numsub(PREFIX + "m1"))[0][1] != 1:
                    await asyncio.sleep(0.01)
            await second.follow("m3")
            first.tell("m1", 6)
            first.tell("m3", 7)  # heard after the one before, had that been heard
            assert (await heard.until(3))[2:] == [("m3", 7)]

    asyncio.run(scenario())


def test_notices_get_through_after_redis_closes_the_publishing_connection(
    redis_url: str,
) -> None:
    async def scenario() -> None:
        async with (
            relays(redis_url, redis_url) as ((first, second), (_, heard)),
            redis.from_url(redis_url) as admin,
        ):
            await second.follow("m1")
            first.tell("m1", 1)
            await heard.until(1)
            for version in (2, 3):
                # The publishing connections are closed (as an idle client's timeout does);
                # the listeners' are not (they are pub/sub clients).
                assert await admin.client_kill_filter(_type="normal", skipme=True) >= 1
                first.tell("m1", version)
                await heard.until(version)
            assert [version for _, version in heard.notices] == [1, 2, 3]

    asyncio.run(scenario())


def test_a_redis_that_will_not_stop_answering_still_relays_every_notice(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        admin = redis.from_url(redis_url)
        # A user denied CLIENT, as some providers' are.
        await admin.acl_setuser("relaying", enabled=True, nopass=True, keys=["*"],
                                channels=["*"], commands=["+@all", "-client"])
        parts = urlsplit(redis_url)
        denied = urlunsplit(parts._replace(netloc=f"relaying:any@{parts.netloc}"))
        try:
            with caplog.at_level(logging.INFO, logger="backgammon.server.play.relay"):
                async with relays(denied, redis_url) as ((first, second), (_, heard)):
                    assert "CLIENT REPLY OFF was refused" in caplog.text
                    await second.follow("m1")
                    for version in range(1, 6):
                        first.tell("m1", version)
                    assert [version for _, version in await heard.until(5)] == [1, 2, 3, 4, 5]
                    await admin.client_kill_filter(_type="normal", skipme=True)
                    first.tell("m1", 6)
                    assert (await heard.until(6))[-1] == ("m1", 6)
        finally:
            await admin.acl_deluser("relaying")
            await admin.aclose()

    asyncio.run(scenario())


