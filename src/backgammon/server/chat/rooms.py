"""The chat of each online match: its messages kept in the database, each pushed to the pages
that watch the match, here and in the other processes.

The row is the truth, as for the matches (:mod:`..play.store`): a message is answered once it
is committed, then pushed to this process's watching pages (:meth:`..play.watchers.Hub.post`)
and told to the other processes on the match's Redis channel (:meth:`..play.relay.Relay.
tell_chat`), which say only that there is news: a process whose pages watch the match reads
the messages it has not pushed from the table and pushes them. A notice lost delays a page
until it reads the chat again (each page does when its live updates reconnect); it loses
nothing.

A push is ``{"chat": message}`` on the match's WebSocket, beside its states; a page may be sent
a message twice (its own process's push, and another's after a notice that crossed it), and
keeps each message once, by its id.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from pydantic_core import to_json
from sqlalchemy import Table, bindparam, delete, insert, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..db import ChatMessageRow, ChatMuteRow, ChatReportRow, now, utc
from ..play.relay import Relay
from ..play.store import MatchStore
from ..play.watchers import Hub

log = logging.getLogger(__name__)

#: The messages a listing holds at most: the latest.
LISTED = 200
PLAYERS, SPECTATORS = "players", "spectators"


class UnknownMessageError(LookupError):
    """No message of this match has this id."""


class OwnMessageError(ValueError):
    """A player reported a message of their own."""


@dataclass(frozen=True)
class Message:
    """A chat message as the API shows it."""

    id: int
    channel: str
    #: The player's seat; None for a spectator.
    seat: int | None
    name: str
    #: The text as written, empty for a quick phrase.
    text: str
    #: The quick phrase's key, or None.
    phrase: str | None
    at: datetime

    @classmethod
    def of(cls, row: ChatMessageRow) -> Message:
        return cls(row.id, row.channel, row.seat, row.name, row.text, row.phrase,
                   utc(row.created_at))

    @classmethod
    def read(cls, row: tuple[Any, ...]) -> Message:
        """The message of a row of :data:`_SINCE`, as the driver gives it (SQLite's time as
        text)."""
        number, channel, seat, name, text, phrase, at = row
        at = at if isinstance(at, datetime) else datetime.fromisoformat(at)
        return cls(number, channel, seat, name, text, phrase, utc(at))

    def to_dict(self) -> dict[str, Any]:
        """The message as plain JSON values (its time in ISO 8601, UTC), as the API answers
        it and pushes it."""
        return {
            "id": self.id, "channel": self.channel, "seat": self.seat, "name": self.name,
            "text": self.text, "phrase": self.phrase,
            "at": self.at.isoformat().replace("+00:00", "Z"),
        }


@dataclass(frozen=True)
class Writer:
    """Who writes a message: a player's seat (None for a spectator), the name shown, and the
    account signed in, if any."""

    seat: int | None
    name: str
    user_id: int | None = None

    @property
    def channel(self) -> str:
        """The channel this writer writes in."""
        return SPECTATORS if self.seat is None else PLAYERS


_MESSAGES = cast(Table, ChatMessageRow.__table__)
#: A message's write: its id.
_WRITE = (
    insert(_MESSAGES)
    .values({name: bindparam(name) for name in (
        "match_id", "channel", "seat", "user_id", "name", "text", "phrase", "created_at")})
    .returning(_MESSAGES.c.id)
)
#: The match's messages from message ``first`` on, the oldest first (:meth:`Message.read`).
_SINCE = (
    select(_MESSAGES.c.id, _MESSAGES.c.channel, _MESSAGES.c.seat, _MESSAGES.c.name,
           _MESSAGES.c.text, _MESSAGES.c.phrase, _MESSAGES.c.created_at)
    .where(_MESSAGES.c.match_id == bindparam("match_id"), _MESSAGES.c.id >= bindparam("first"))
    .order_by(_MESSAGES.c.id)
    .limit(LISTED)
)


class Chats:
    """The chats of one app's matches: :meth:`write`, :meth:`listing`, :meth:`mute`,
    :meth:`report`, and :meth:`heard` for the other processes' notices."""

    def __init__(self, store: MatchStore, hub: Hub, relay: Relay | None = None) -> None:
        self.store = store
        self.engine = store.engine
        self.hub = hub
        self.relay = relay
        self._tasks: set[asyncio.Task[None]] = set()
        if relay is not None:
            relay.chatted = self.heard

    async def write(
        self, match_id: str, writer: Writer, text: str, phrase: str | None
    ) -> Message:
        """Keep the message (``text`` checked already, or a quick ``phrase``), push it to the
        pages watching the match, tell the other processes, and return it."""
        at = now()
        # Sent as the actions' saves are (a message is written about as often as an action).
        [(number,)] = await self.store.rows(_WRITE, {
            "match_id": match_id, "channel": writer.channel, "seat": writer.seat,
            "user_id": writer.user_id, "name": writer.name, "text": text, "phrase": phrase,
            "created_at": at,
        })
        message = Message(number, writer.channel, writer.seat, writer.name, text, phrase, at)
        self._push(match_id, [message])
        if self.relay is not None:
            self.relay.tell_chat(match_id, message.id)
        return message

    async def listing(
        self, match_id: str, after: int = 0, seat: int | None = None
    ) -> tuple[list[Message], bool]:
        """The match's latest messages after message ``after`` (at most :data:`LISTED`, the
        oldest first), and whether ``seat`` has muted the other player: then that player's
        messages are left out."""
        return await run_in_threadpool(self._listing, match_id, after, seat)

    def _listing(
        self, match_id: str, after: int, seat: int | None
    ) -> tuple[list[Message], bool]:
        with Session(self.engine) as session:
            muted = seat is not None and session.get(ChatMuteRow, (match_id, seat)) is not None
            query = select(ChatMessageRow).where(
                ChatMessageRow.match_id == match_id, ChatMessageRow.id > after
            )
            if muted:
                other = 1 - (seat or 0)
                query = query.where(
                    or_(ChatMessageRow.seat.is_(None), ChatMessageRow.seat != other)
                )
            rows = session.scalars(query.order_by(ChatMessageRow.id.desc()).limit(LISTED))
            return [Message.of(row) for row in reversed(list(rows))], muted

    async def mute(self, match_id: str, seat: int, muted: bool) -> None:
        """Mute the other player's messages for ``seat`` (``muted``), or hear them again."""
        await run_in_threadpool(self._mute, match_id, seat, muted)

    def _mute(self, match_id: str, seat: int, muted: bool) -> None:
        with Session(self.engine) as session, session.begin():
            session.execute(
                delete(ChatMuteRow).where(ChatMuteRow.match_id == match_id,
                                          ChatMuteRow.seat == seat)
            )
            if muted:
                session.add(ChatMuteRow(match_id=match_id, seat=seat))

    async def report(self, match_id: str, message_id: int, seat: int) -> bool:
        """Keep ``seat``'s report of the message, with a copy of it, for whoever runs the
        site; whether it is new (False: that seat had reported it already).
        UnknownMessageError where the match has no such message, OwnMessageError where it is
        the seat's own."""
        return await run_in_threadpool(self._report, match_id, message_id, seat)

    def _report(self, match_id: str, message_id: int, seat: int) -> bool:
        with Session(self.engine) as session:
            row = session.get(ChatMessageRow, message_id)
            if row is None or row.match_id != match_id:
                raise UnknownMessageError(message_id)
            if row.seat == seat:
                raise OwnMessageError(message_id)
            copy = {
                "match_id": match_id, "message_id": message_id, "reporter": seat,
                "channel": row.channel, "seat": row.seat, "user_id": row.user_id,
                "name": row.name, "text": row.text, "phrase": row.phrase,
                "sent_at": row.created_at, "created_at": now(),
            }
        try:
            with self.engine.begin() as connection:
                connection.execute(insert(ChatReportRow).values(copy))
        except IntegrityError:  # reported by this seat already (here or elsewhere)
            return False
        return True

    def heard(self, match_id: str, message_id: int) -> None:
        """Another process has written message ``message_id`` of the match (the relay's
        notice): where pages watch the match here, it is read from the table and pushed to
        them, in the background, with any later one committed already (two processes'
        messages may be committed in another order than their ids': a page may then be
        sent one twice, and keeps it once)."""
        if not self.hub.watching(match_id):
            return
        task = asyncio.get_running_loop().create_task(self._catch_up(match_id, message_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, match_id: str, message_id: int) -> None:
        try:
            rows = await self.store.rows(_SINCE, {"match_id": match_id, "first": message_id})
        except Exception:
            log.exception("the chat of match %s could not be read", match_id)
            return
        self._push(match_id, [Message.read(row) for row in rows])

    def _push(self, match_id: str, messages: list[Message]) -> None:
        """Push ``messages`` to the pages watching the match here."""
        for message in messages:
            self.hub.post(match_id, to_json({"chat": message.to_dict()}).decode())

    async def settle(self) -> None:
        """Wait until the pushes under way have ended (a clean shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
