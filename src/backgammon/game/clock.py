"""A match's clocks: a time control, and each seat's time left, worked out from the record.

A time control gives a **delay** each time the game waits for a seat (to roll or double, to
move, to take or drop, to answer a resignation, the opening roll), then runs down the seat's
**bank**: so many seconds a match point for the whole match, carried from game to game. In a
money session each game gives both seats a fresh bank of :data:`MONEY_POINTS` points' worth.

The clocks are not kept anywhere: every event of the record holds its ``time``, and
:func:`clocks` works each seat's bank out from those times, the control and the time now. So
they survive a restart and agree in every process that reads the record. A wait begins at
each event but a checker's step and its undo (a turn's steps are one wait, up to its
confirm), and nothing before an online match's seat is taken (its ``join``) counts; the wait
is charged to the seats the game waited for then (:meth:`.Game.awaited_before`): at the
opening roll both, since either may roll it (until one has thrown their own die, where each
throws their own: then the other alone). A wait
that the record shows overran the time left (an action the server took at the last moment)
leaves the bank at zero.

>>> from datetime import datetime, timedelta, UTC
>>> from backgammon.dice import ManualDice
>>> from backgammon.game import Match
>>> t0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
>>> match = Match(3, dice=ManualDice(["6 1"]))
>>> match.game.roll(0)
>>> stamp(match.game, 0, t0 + timedelta(seconds=5))    # the opening roll, 5 s in
>>> fast = TimeControl.named("fast")                  # 8 s a wait, 20 s a point
>>> clocks(match, fast, t0, t0 + timedelta(seconds=5))
Clocks(banks=(60.0, 60.0), running=(0,), delay=8.0, out=None, ran_out=None)
>>> clocks(match, fast, t0, t0 + timedelta(seconds=30))   # 25 s into seat 0's move
Clocks(banks=(43.0, 60.0), running=(0,), delay=0.0, out=None, ran_out=None)
>>> late = clocks(match, fast, t0, t0 + timedelta(seconds=75))
>>> late.out, late.ran_out.time()          # 5 s, then the 8 s delay and the 60 s bank
(0, datetime.time(12, 1, 13))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from ..errors import BackgammonError
from ..position import WinKind
from .machine import Machine
from .match import Series
from .rules import Action

#: The points' worth of bank each game of a money session gives each seat.
MONEY_POINTS = 3
#: The longest delay and the largest bank a point a time control may give, in seconds.
MAX_DELAY = 600
MAX_BANK = 3600

#: The events that go on with the wait they are made in: a turn's steps are one wait.
_WITHIN_A_WAIT = frozenset({Action.STEP, Action.UNDO})


@dataclass(frozen=True)
class TimeControl:
    """``delay`` seconds each time the game waits for a seat, then ``bank`` seconds a match
    point (:data:`MONEY_POINTS` of them a money game); ``preset`` names one of
    :data:`PRESETS` (None: a custom control).

    >>> TimeControl.named("normal")
    TimeControl(delay=12, bank=60, preset='normal')
    >>> TimeControl.from_dict(TimeControl(3, 1).to_dict())
    TimeControl(delay=3, bank=1, preset=None)
    >>> TimeControl(0, 0)
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: A time control gives some time: a delay, a bank or both.
    """

    delay: int
    bank: int
    preset: str | None = None

    def __post_init__(self) -> None:
        for name, value, most in (("delay", self.delay, MAX_DELAY), ("bank", self.bank, MAX_BANK)):
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
                raise BackgammonError(
                    f"A time control's {name} is a whole number of seconds from 0 to {most}."
                )
        if not self.delay and not self.bank:
            raise BackgammonError("A time control gives some time: a delay, a bank or both.")

    @classmethod
    def named(cls, name: str) -> TimeControl:
        """One of :data:`PRESETS` by its name."""
        try:
            return PRESETS[name]
        except KeyError:
            names = ", ".join(PRESETS)
            raise BackgammonError(f"There is no time control named so: choose {names}.") from None

    def bank_for(self, length: int) -> float:
        """Each seat's bank at the start: of the match (``length`` points), or of each game
        of a money session (``length`` 0).

        >>> TimeControl.named("fast").bank_for(5), TimeControl.named("fast").bank_for(0)
        (100.0, 60.0)
        """
        return float(self.bank * (length or MONEY_POINTS))

    def to_dict(self) -> dict[str, Any]:
        """The control as plain JSON values."""
        return {"delay": self.delay, "bank": self.bank, "preset": self.preset}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        """A control from :meth:`to_dict`."""
        return cls(int(data["delay"]), int(data["bank"]), data.get("preset"))


#: The time controls offered by name, in the style of the sites people play on.
PRESETS: dict[str, TimeControl] = {
    "fast": TimeControl(8, 20, "fast"),
    "normal": TimeControl(12, 60, "normal"),
    "casual": TimeControl(15, 180, "casual"),
}
for _name, _control in PRESETS.items():
    assert _control.preset == _name


@dataclass(frozen=True)
class Clocks:
    """Each seat's clock at a moment: the seconds left in each seat's bank (``banks``), the
    seats whose clock runs (none once the match is over, both at an opening roll), the
    seconds left of the wait's delay before their banks run, and the seat whose time has run
    out, if any (only where the game waits for that seat alone: at an opening roll that
    waits for both, either player may still roll)."""

    banks: tuple[float, float]
    running: tuple[int, ...]
    delay: float
    out: int | None
    #: When ``out``'s time ran out (the record's time-out says so, however late it is made).
    ran_out: datetime | None = None


def clocks(match: Series[Any], control: TimeControl, start: datetime, now: datetime) -> Clocks:
    """Each seat's clock in ``match`` at ``now`` under ``control``, from its record's times;
    ``start`` is when the clocks started (the match's creation: its first wait starts there
    unless an event of the record came since). One :class:`ClockFold`'s read.

    >>> from datetime import datetime, timedelta, UTC
    >>> from backgammon.dice import ManualDice
    >>> from backgammon.game import Match
    >>> t0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    >>> money = Match(0, dice=ManualDice(["6 1"]))
    >>> clocks(money, TimeControl(10, 5), t0, t0 + timedelta(seconds=12))   # both at the opening
    Clocks(banks=(13.0, 13.0), running=(0, 1), delay=0.0, out=None, ran_out=None)
    >>> clocks(money, TimeControl(10, 5), t0, t0 + timedelta(seconds=99)).out is None
    True
    """
    return ClockFold(match, control, start).read(now)


class ClockFold:
    """:func:`clocks` over ``match``'s record, kept between reads: a record only grows, so
    each read takes only the events made since the last (a long match's every event read
    again at every state shown cost milliseconds). Made for one ``match`` object: a match
    read again whole is a new object, and needs a new fold.

    >>> from datetime import datetime, timedelta, UTC
    >>> from backgammon.dice import ManualDice
    >>> from backgammon.game import Match
    >>> t0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
    >>> match = Match(1, dice=ManualDice(["6 1"]))
    >>> fold = ClockFold(match, TimeControl(10, 30), t0)
    >>> fold.read(t0 + timedelta(seconds=15)).banks
    (25.0, 25.0)
    >>> match.game.roll(1); stamp(match.game, 0, t0 + timedelta(seconds=15))
    >>> later = t0 + timedelta(seconds=30)
    >>> fold.read(later) == clocks(match, fold.control, t0, later)
    True
    """

    def __init__(self, match: Series[Any], control: TimeControl, start: datetime) -> None:
        self.match = match
        self.control = control
        self._full = control.bank_for(match.length)
        self._banks = [self._full, self._full]
        self._began = start
        #: The game and the event of it that the next read takes first.
        self._game = 0
        self._event = 0

    def read(self, now: datetime) -> Clocks:
        """Each seat's clock at ``now``, its record's new events taken first."""
        self._take()
        banks, began, delay = list(self._banks), self._began, self.control.delay
        match, game = self.match, self.match.game
        if match.is_over or game.result is not None:
            return Clocks((banks[0], banks[1]), (), 0.0, None)
        running = _awaited(game)
        waited = max(0.0, (now - began).total_seconds())
        left = tuple(banks[seat] for seat in running)
        _charge(banks, running, waited - delay)
        out = ran_out = None
        if len(running) == 1 and waited >= delay and banks[running[0]] <= 0:
            out = running[0]
            ran_out = began + timedelta(seconds=delay + left[0])
        return Clocks((banks[0], banks[1]), running, max(0.0, delay - waited), out, ran_out)

    def _take(self) -> None:
        """Charge the waits the record's events made since the last read."""
        games, delay, full = self.match.games, self.control.delay, self._full
        while True:
            game = games[self._game]
            events = game.events
            if self._event < len(events):
                awaited = game.awaited_before(self._event)
                for event, seats in zip(events[self._event :], awaited, strict=True):
                    if event.action in _WITHIN_A_WAIT:
                        continue
                    at = _time(event.time)
                    if event.action is Action.JOIN:
                        # The clocks start once the other seat is taken: nobody was waited
                        # for before.
                        self._banks, self._began = [full, full], at
                        continue
                    _charge(self._banks, seats, (at - self._began).total_seconds() - delay)
                    self._began = at
                self._event = len(events)
            if self._game + 1 == len(games):
                return
            self._game, self._event = self._game + 1, 0
            if not self.match.length:
                self._banks = [full, full]  # a money game: a fresh bank each


def _charge(banks: list[float], seats: tuple[int, ...], spent: float) -> None:
    """Take ``spent`` seconds (past the delay) from each of ``seats``' banks, down to zero."""
    if spent > 0:
        for seat in seats:
            banks[seat] = max(0.0, banks[seat] - spent)


def _awaited(game: Machine[Any]) -> tuple[int, ...]:
    """The seats ``game`` waits for now: both at the opening roll."""
    seat = game.player_to_act
    return (0, 1) if seat is None else (seat,)


def _time(text: str) -> datetime:
    """An event's time, as the record keeps it (ISO 8601 with its zone)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise BackgammonError(f"A recorded event's time is not a time: {text[:40]!r}.") from None


def stamp(game: Machine[Any], index: int, when: datetime) -> None:
    """Give event ``index`` of ``game``'s record the time ``when`` (for examples and tests,
    which set the record's times rather than wait for them)."""
    game.events[index] = replace(
        game.events[index], time=when.isoformat(timespec="milliseconds")
    )


def time_out(match: Series[Any], seat: int, when: datetime) -> None:
    """Record that ``seat``'s time ran out at ``when`` (:attr:`Clocks.out` and
    :attr:`Clocks.ran_out`): the other seat claims the game at the highest level the position
    allows (RULES.md, Leaving a game), and in a match the whole match, which ends there; a
    money session goes on with its next game, whose clocks start at ``when``, the time the
    claim is recorded with. BackgammonError, and no change, where the game does not wait
    for ``seat``.

    >>> from datetime import UTC
    >>> from backgammon.dice import ManualDice
    >>> from backgammon.game import Match
    >>> match = Match(5, dice=ManualDice(["6 1"]))
    >>> match.game.roll(0)                  # seat 0 is to move, and its time runs out
    >>> time_out(match, 0, datetime(2026, 12, 7, 12, 0, tzinfo=UTC))
    >>> match.winner, match.game.result.kind.name, match.game.result.reason
    (1, 'BACKGAMMON', 'claim')
    >>> match.game.events[-1].time
    '2026-12-07T12:00:00.000+00:00'
    """
    game = match.game
    for level in (WinKind.BACKGAMMON, WinKind.GAMMON, WinKind.SINGLE):
        try:
            match.claim(1 - seat, level, whole=bool(match.length))
            break
        except BackgammonError:
            if level is WinKind.SINGLE:
                raise
    stamp(game, len(game.events) - 1, when)
