"""The matches being played: kept in memory while in use, written through to the database.

Each accepted action is saved, in one write, before its answer goes out, so the database
always holds the record the players last saw. A save names the version it was made on and is
refused if the database holds another (:class:`MatchChangedError`), so two copies of a match
can never both write. A match not in memory (after a restart) is rebuilt by replaying its
record; seeded dice then resume where the record left them, so they go on exactly as they
would have.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Engine, update
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ..bot import Level
from ..dice import DiceSource, SeededDice
from ..fairdice import FairMatchDice
from ..match import Match
from .db import MatchRow, now
from .seats import Seating

SeatKind = Literal["human", "computer"]


@dataclass(frozen=True)
class SeatSettings:
    """Who plays a seat: a person at this screen, or the computer at a level."""

    kind: SeatKind
    level: Level | None = None

    def to_dict(self) -> dict[str, Any]:
        """The seat as plain JSON values."""
        return {"kind": self.kind, "level": self.level.value if self.level else None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatSettings:
        """A seat from :meth:`to_dict`."""
        level = data.get("level")
        return cls(data["kind"], Level(level) if level else None)


@dataclass
class LiveMatch:
    """A match in play, with what the engine does not keep: seats, dice settings, a lock."""

    id: str
    match: Match
    seats: tuple[SeatSettings, SeatSettings]
    seed: int | None
    created_at: datetime
    #: Who holds each seat (:mod:`.seats`).
    seating: Seating = field(default_factory=Seating)
    #: Serialises the actions on this match, the computer's included.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The copy of the match the computer thinks on (:mod:`.computer`), made when first needed.
    shadow: Match | None = None
    #: Each game's record as the pages see it, with the number of events it was made from
    #: (:func:`.views.state_of` rebuilds only a game that has changed).
    record_views: dict[int, tuple[int, Any]] = field(default_factory=dict)
    #: Whether a task of the computer's waits for the lock (:meth:`.computer.Computer.wake`).
    computer_queued: bool = False
    #: The events of the finished games, and how many games they are: a finished game's
    #: record never changes, so :attr:`version` counts only the game in play.
    _finished: tuple[int, int] = field(default=(0, 0), init=False, repr=False)

    @property
    def version(self) -> int:
        """The number of events in the record: it grows with every accepted action."""
        games = self.match.games
        if self._finished[0] != len(games) - 1:
            self._finished = (len(games) - 1, events_in(self.match) - len(games[-1].events))
        return self._finished[1] + len(games[-1].events)

    def synced_shadow(self) -> Match:
        """The shadow copy, brought up to date with the match's record (call with the lock
        held: the match must not change meanwhile)."""
        if self.shadow is None:
            self.shadow = Match.from_dict(self.match.to_dict(), self.match.dice_source)
            return self.shadow
        index = 0
        while index < len(self.match.games):
            # A game that ends here starts the next one in the shadow too.
            events = self.match.games[index].events
            copy = self.shadow.games[index]
            if len(copy.events) < len(events):
                missing = [event.to_dict() for event in events[len(copy.events) :]]
                copy.apply_record(missing, f"game {index + 1}")
            index += 1
        return self.shadow

    def settings(self) -> dict[str, Any]:
        """What the database keeps beside the engine's record."""
        return {
            "seats": [seat.to_dict() for seat in self.seats],
            "seed": self.seed,
            "seating": self.seating.to_dict(),
        }


def events_in(match: Match) -> int:
    """The number of events in ``match``'s record (its version)."""
    return sum(len(game.events) for game in match.games)


def dice_for(seed: int | None) -> DiceSource | FairMatchDice:
    """The dice of a new match: provably fair ones, or seeded ones when a seed is given."""
    return FairMatchDice() if seed is None else SeededDice(seed)


class UnknownMatchError(LookupError):
    """No match has this id."""


class MatchChangedError(RuntimeError):
    """The database holds another version of the match than the one an action was made on
    (another copy of it wrote first): the action is not kept."""


class MatchStore:
    """Loads, caches and saves matches; one per app.

    At most ``most`` matches stay in memory, and none unused for ``idle`` seconds, except
    those in use: an action or the computer under way, or a page watching (``watched``).
    A match that left memory is loaded again from the database when next asked for.
    """

    def __init__(
        self,
        engine: Engine,
        most: int = 1000,
        idle: float = 600.0,
        watched: Callable[[str], bool] = lambda _id: False,
    ) -> None:
        self.engine = engine
        self.most = most
        self.idle = idle
        self.watched = watched
        # By last use, the least recent first, with the time of that use.
        self._live: OrderedDict[str, tuple[LiveMatch, float]] = OrderedDict()

    def __contains__(self, match_id: object) -> bool:
        """Whether the match is in memory."""
        return match_id in self._live

    async def add(
        self,
        match: Match,
        seats: tuple[SeatSettings, SeatSettings],
        seed: int | None,
        seating: Seating,
    ) -> LiveMatch:
        """Store a new match and keep it in memory."""
        live = LiveMatch(secrets.token_urlsafe(12), match, seats, seed, now(), seating)
        await run_in_threadpool(self._insert, live)
        self._keep(live)
        return live

    async def get(self, match_id: str) -> LiveMatch:
        """The match with this id, from memory or rebuilt from the database."""
        kept = self._live.get(match_id)
        if kept is not None:
            return self._keep(kept[0])
        loaded = await run_in_threadpool(self._load, match_id)
        # Another request may have loaded it meanwhile: keep one copy, and one lock.
        kept = self._live.get(match_id)
        return self._keep(loaded if kept is None else kept[0])

    def _keep(self, live: LiveMatch) -> LiveMatch:
        """Note ``live``'s use now, and let the matches unused too long leave memory."""
        stamp = time.monotonic()
        self._live[live.id] = (live, stamp)
        self._live.move_to_end(live.id)
        for match_id, (other, used) in list(self._live.items())[:-1]:  # not ``live`` itself
            if len(self._live) <= self.most and stamp - used < self.idle:
                break  # the rest were used later
            if not self._in_use(other):
                del self._live[match_id]
        return live

    def _in_use(self, live: LiveMatch) -> bool:
        return live.lock.locked() or live.computer_queued or self.watched(live.id)

    async def save(self, live: LiveMatch, before: int, match: Match | None = None) -> None:
        """Write the record of ``match`` (the live match by default) in place of version
        ``before``, in one write; on failure (MatchChangedError if the database no longer
        holds version ``before``, or the database's error), forget the match so that the
        next read reloads it."""
        match = match or live.match
        version = live.version if match is live.match else events_in(match)
        try:
            await run_in_threadpool(self._update, live.id, match, version, before)
        except Exception:
            self._forget(live)
            raise

    async def save_seating(self, live: LiveMatch, invite: str) -> None:
        """Write ``live``'s seating and record (a player's name) in place of the one whose
        open invite has the digest ``invite``: MatchChangedError, and the match forgotten,
        if the database no longer holds that invite (it was spent meanwhile, elsewhere)."""
        try:
            await run_in_threadpool(self._update_seating, live, invite)
        except Exception:
            self._forget(live)
            raise

    def _update_seating(self, live: LiveMatch, invite: str) -> None:
        spent = MatchRow.settings["seating"]["invite"]["digest"].as_string()
        with Session(self.engine) as session, session.begin():
            written = session.execute(
                update(MatchRow)
                .where(MatchRow.id == live.id, MatchRow.version == live.version, spent == invite)
                .values(settings=live.settings(), record=live.match.to_dict(), updated_at=now())
            )
            if written.rowcount != 1:  # type: ignore[attr-defined]
                raise MatchChangedError(live.id)

    def _forget(self, live: LiveMatch) -> None:
        """Drop ``live`` from memory (if it is the copy there), so the next read reloads it."""
        kept = self._live.get(live.id)
        if kept is not None and kept[0] is live:
            del self._live[live.id]

    def _insert(self, live: LiveMatch) -> None:
        stamp = now()
        with Session(self.engine) as session, session.begin():
            session.add(
                MatchRow(
                    id=live.id,
                    created_at=stamp,
                    updated_at=stamp,
                    settings=live.settings(),
                    record=live.match.to_dict(secrets=True),
                    version=live.version,
                )
            )

    def _update(self, match_id: str, match: Match, version: int, before: int) -> None:
        # The record is written out here, in a worker thread: the match does not change
        # meanwhile (its lock is held, or it is the computer's shadow).
        with Session(self.engine) as session, session.begin():
            written = session.execute(
                update(MatchRow)
                .where(MatchRow.id == match_id, MatchRow.version == before)
                .values(record=match.to_dict(secrets=True), version=version, updated_at=now())
            )
            if written.rowcount != 1:  # type: ignore[attr-defined]
                raise MatchChangedError(match_id)

    def _load(self, match_id: str) -> LiveMatch:
        with Session(self.engine) as session:
            row = session.get(MatchRow, match_id)
            if row is None:
                raise UnknownMatchError(match_id)
            settings, record, created = row.settings, row.record, row.created_at
        seed = settings.get("seed")
        # Seeded dice go on from the rolls the record has drawn, as they would have; fair
        # dice (and an old record's secure ones) come from the record.
        dice = None if seed is None else SeededDice(seed)
        match = Match.from_dict(record, dice, resume=True)
        first, second = (SeatSettings.from_dict(seat) for seat in settings["seats"])
        seating = Seating.from_dict(settings.get("seating", {}))
        return LiveMatch(match_id, match, (first, second), seed, created, seating)
