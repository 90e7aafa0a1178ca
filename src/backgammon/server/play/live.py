"""A match in play as one server process holds it: the match itself, who sits where, and what
the process keeps beside it (its lock, its views, its tasks).
:mod:`.store` loads, caches and saves these copies.
"""

from __future__ import annotations

import asyncio
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime
from typing import Any, Literal

from ...bot import Level
from ...dice import DiceSource, SeededDice
from ...fairdice import FairDice, FairMatchDice
from ...game.board_game import BoardGame
from ...game.clock import ClockFold
from ...game.match import BoardMatch, Match
from .seats import Seating

SeatKind = Literal["human", "computer"]
#: A match the server plays: backgammon's, or one of the other games' (:class:`BoardMatch`).
AnyMatch = Match | BoardMatch


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


@dataclass(frozen=True)
class Rematching:
    """Where a match stands on its rematch (:mod:`.rematches`): the seat that has offered
    one and the digest of that seat's token for it (None: no offer waits), the rematch
    once started, the match this one is a rematch of, and the number of changes so far,
    which a save names so that two processes never both change it."""

    offered_by: int | None = None
    offer_digest: str | None = None
    next: str | None = None
    of: str | None = None
    step: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The rematch as plain JSON values, for the match's settings."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rematching:
        """A rematch from :meth:`to_dict` (a match saved before rematches has none)."""
        return cls(data.get("offered_by"), data.get("offer_digest"), data.get("next"),
                   data.get("of"), int(data.get("step", 0)))


def _set_event() -> asyncio.Event:
    event = asyncio.Event()
    event.set()
    return event


@dataclass
class LiveMatch:
    """A match in play, with what the engine does not keep: seats, dice settings, a lock."""

    id: str
    match: AnyMatch
    seats: tuple[SeatSettings, SeatSettings]
    seed: int | None
    created_at: datetime
    #: Who holds each seat (:mod:`.seats`).
    seating: Seating = field(default_factory=Seating)
    #: Its rematch, offered or started, and the match it is a rematch of.
    rematch: Rematching = field(default_factory=Rematching)
    #: The tutor's warnings (:mod:`.routes.tutor`), each a :class:`.hint_schemas.TutorNote`
    #: as plain values: notes beside the record, which keeps what the player did next.
    tutor: tuple[dict[str, Any], ...] = ()
    #: Serialises the actions on this match, the computer's included.
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Clear while a write of this match is under way: the copy may then hold an action not
    #: yet committed, which no reader is shown (:meth:`.store.MatchStore.fresh` waits).
    written: asyncio.Event = field(default_factory=_set_event)
    #: The copy of the match the computer thinks on (:mod:`.computer`), made when first needed.
    shadow: AnyMatch | None = None
    #: Each game's record entries as the pages see them, with the number of events they
    #: were made from and the event of each entry (:func:`.views.record_view` makes only
    #: the entries of new events).
    record_views: dict[int, tuple[int, list[Any], list[int]]] = field(default_factory=dict)
    #: The game in play's GNU Backgammon ID and XGID, with the game and the number of its
    #: events they were made at (:func:`.views.state_of` makes them again only when needed).
    ids: tuple[Any, int, str | None, str | None] | None = None
    #: Whether a task of the computer's waits for the lock (:meth:`.computer.Computer.wake`).
    computer_queued: bool = False
    #: Whether a task waits for the lock to bring the match up to its row
    #: (:meth:`.store.MatchStore.refresh_soon`).
    refresh_queued: bool = False
    #: Whether this copy may differ from the row (a save of it failed): it is read again from
    #: the row before it is next used.
    stale: bool = False
    #: While the computer's action, saved whole, is shown one event at a time: the version
    #: saved, which the row holds ahead of this copy (:meth:`.store.MatchStore.fresh`).
    showing: int | None = field(default=None, init=False)
    #: The clocks' fold over this copy's record (:mod:`.clocks`), made when first needed:
    #: each read takes only the new events. A match read again whole gets a new one.
    clock_fold: ClockFold | None = field(default=None, init=False, repr=False)
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

    @property
    def board_game(self) -> bool:
        """Whether the match is of one of the other games (:class:`BoardMatch`)."""
        return isinstance(self.match, BoardMatch)

    def synced_shadow(self) -> AnyMatch:
        """The shadow copy, brought up to date with the match's record (call with the lock
        held: the match must not change meanwhile)."""
        if self.shadow is None:
            self.shadow = type(self.match).from_dict(self.match.to_dict(),
                                                     self.match.dice_source)
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
            "rematch": self.rematch.to_dict(),
            **({"tutor": list(self.tutor)} if self.tutor else {}),
        }

    def adopt(self, loaded: LiveMatch) -> None:
        """Take the match and settings of ``loaded`` (read from the row) in place of this
        copy's, keeping this object, its lock and its queued tasks (call with the lock held)."""
        for each in fields(self):
            if each.init and each.name not in _RUNTIME:
                setattr(self, each.name, getattr(loaded, each.name))
        self.shadow = None
        self.record_views = {}
        self._finished = (0, 0)
        self.stale = False


def as_it_was(live: LiveMatch, version: int) -> LiveMatch:
    """A copy of ``live`` as it stood at ``version`` (``live`` itself at its own), replayed
    from its record: the answer to an action sent again is the state that action made.

    >>> from backgammon.game import Act, Action
    >>> from backgammon.server.db import now
    >>> match = Match(3, dice=FairMatchDice([FairDice(bytes(32))]))  # no tie in the opening
    >>> live = LiveMatch("m", match, (SeatSettings("human"), SeatSettings("human")), None, now())
    >>> game = match.game
    >>> game.roll(0); game.resign(game.on_roll); game.accept(1 - game.on_roll)
    >>> match.game.act(0, Act(Action.SEED, seed="mine"))
    >>> [(each.version, len(each.match.games), each.match.game.dice_source.seeds)
    ...  for each in (as_it_was(live, 1), as_it_was(live, 3), live)]
    [(1, 1, ('', '')), (3, 2, ('', '')), (4, 2, ('mine', ''))]
    >>> as_it_was(live, 3).match.game.dice_source.commitment == match.game.dice_source.commitment
    True
    """
    if version >= live.version:
        return live
    record = live.match.to_dict(secrets=True)
    games: list[list[dict[str, Any]]] = []
    left = version
    for events in record["games"]:
        # A game ended at ``version`` is followed by the next, begun then with its own dice.
        games.append(events[:left])
        left -= len(games[-1])
        if len(games[-1]) < len(events):
            break
    record["games"] = games
    if "dice" in record:
        dice = record["dice"][: len(games)]
        # The players' seeds as the last game began with them (the previous game's), its own
        # seed events replayed after: the record keeps only the seeds in use now.
        dice[-1] = {**dice[-1], "seeds": dice[-2]["seeds"] if len(dice) > 1 else ["", ""]}
        record["dice"] = dice
    record.pop("forfeited", None)  # a claim ends the match: it is past ``version``
    return LiveMatch(
        live.id, match_from_dict(record), live.seats, live.seed, live.created_at, live.seating,
        live.rematch, live.tutor,
    )


#: What a match's copy holds about this process rather than the match, kept by :meth:`adopt`.
_RUNTIME = frozenset(
    {"id", "lock", "written", "computer_queued", "refresh_queued", "stale", "created_at"}
)

def match_from_dict(
    record: dict[str, Any], dice: DiceSource | None = None, *, resume: bool = False
) -> AnyMatch:
    """A saved match rebuilt (``Series.from_dict``): a :class:`BoardMatch` where its rules
    name one of the other games, a backgammon :class:`Match` otherwise.

    >>> from backgammon.game import Rules
    >>> type(match_from_dict(BoardMatch(1, Rules.for_game("fevga")).to_dict())).__name__
    'BoardMatch'
    >>> type(match_from_dict(Match(1).to_dict())).__name__
    'Match'
    """
    rules = record.get("rules") if isinstance(record, dict) else None
    board = isinstance(rules, dict) and rules.get("game") is not None
    return (BoardMatch if board else Match).from_dict(record, dice, resume=resume)


def game_name(match: AnyMatch) -> str:
    """The name of the game in play (:data:`backgammon.games.GAMES`): backgammon's layout,
    or the other game's.

    >>> from backgammon.game import Rules
    >>> game_name(Match(1)), game_name(BoardMatch(1, Rules.for_game("plakoto")))
    ('standard', 'plakoto')
    """
    game = match.game
    return game.game.name if isinstance(game, BoardGame) else game.rules.variant.value


def fair_dice_of(match: AnyMatch) -> list[dict[str, Any]] | None:
    """The fair dice of ``match``'s games as its row keeps them (with their server seeds), or
    None for a match without fair dice."""
    fair = [game.dice_source for game in match.games if isinstance(game.dice_source, FairDice)]
    if len(fair) != len(match.games):
        return None
    return [dice.to_dict(reveal=True) for dice in fair]


def events_in(match: AnyMatch) -> int:
    """The number of events in ``match``'s record (its version)."""
    return sum(len(game.events) for game in match.games)


def dice_for(seed: int | None) -> DiceSource | FairMatchDice:
    """The dice of a new match: provably fair ones, or seeded ones when a seed is given."""
    return FairMatchDice() if seed is None else SeededDice(seed)
