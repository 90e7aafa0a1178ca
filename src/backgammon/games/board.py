"""The board of any game on a backgammon board, seen from the player on roll.

Each side is 26 counts on that side's own numbering, as in :class:`~backgammon.Position`:
index 0 is the checkers borne off, 1..24 the points in the order the side travels (24 first,
1 last: every side moves "down" its own numbers), 25 the bar. A point a side numbers ``p`` has
another number for the other side, and which one depends on how the game travels
(:class:`Travel`):

- ``OPPOSITE`` (backgammon, Tavla, Portes, Plakoto): the sides move against each other and
  my point ``p`` is the opponent's ``25 - p``, as in backgammon.
- ``SAME`` (Fevga, Long Nardy): both sides move the same way round the board (counter-clockwise
  as the sources draw it), each starting on its own 24-point at diagonally opposite corners.
  My 24-point (my start, "the head") is the opponent's 12, and my point ``p`` is the
  opponent's ``p - 12`` (``p + 12`` below 13): my home board (1..6) is their third quarter
  (13..18) and theirs is my 13..18.

So "seen from the player on roll" keeps its meaning in every game: the mover's checkers travel
from 24 to 1 and off, ``flip()`` hands the move over, and only the mapping between the two
numberings changes with the game.

A point holds one side's checkers, except in Plakoto, where a lone checker may lie pinned
under the opponent's: the pinned checker still counts on its own side's point, and the
board's ``pinned`` masks say which (bit ``p`` set: that side's checker on its point ``p``
is pinned).

In Acey-deucey the checkers start off the board and enter as from the bar: the checkers not
yet entered count on the bar (index 25), and ``mine_waiting``/``theirs_waiting`` say how many
of a side's checkers there have never entered (the others were hit).

>>> Travel.SAME.their_point(24), Travel.SAME.their_point(1), Travel.OPPOSITE.their_point(1)
(12, 13, 24)
>>> board = Board.from_points({24: 15}, {24: 15})
>>> board.flip() == board, board.pips()
(True, (360, 360))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

from ..errors import InvalidPositionError
from ..position import BAR, MAX_CHECKERS, OFF, Position

__all__ = ["BAR", "OFF", "Board", "Travel"]


class Travel(StrEnum):
    """How the two sides travel round the board, which fixes how their numberings meet."""

    OPPOSITE = "opposite"
    SAME = "same"

    def their_point(self, point: int) -> int:
        """The opponent's number for the mover's point ``point`` (1..24).

        >>> [Travel.SAME.their_point(p) for p in (13, 12)]
        [1, 24]
        """
        if self is Travel.OPPOSITE:
            return 25 - point
        return point - 12 if point > 12 else point + 12


class Board:
    """An immutable, hashable board of any of the games, seen from the player on roll."""

    __slots__ = ("mine", "mine_pinned", "mine_waiting", "theirs", "theirs_pinned",
                 "theirs_waiting")

    mine: bytes
    theirs: bytes
    mine_pinned: int
    theirs_pinned: int
    mine_waiting: int
    theirs_waiting: int

    def __init__(
        self,
        mine: Sequence[int],
        theirs: Sequence[int],
        mine_pinned: int = 0,
        theirs_pinned: int = 0,
        mine_waiting: int = 0,
        theirs_waiting: int = 0,
    ) -> None:
        """A board from each side's 26 counts (off, points 1..24, bar), the pinned masks and
        the checkers not yet entered (counted on the bar).

        The counts are checked here (26 whole numbers, up to 15 checkers a side); whether the
        two sides may share a point is the game's to say (``GameRules.check``).
        """
        self.mine = _side(mine, "player on roll")
        self.theirs = _side(theirs, "opponent")
        self.mine_pinned = _mask(mine_pinned, self.mine, "player on roll")
        self.theirs_pinned = _mask(theirs_pinned, self.theirs, "opponent")
        self.mine_waiting = _waiting(mine_waiting, self.mine, "player on roll")
        self.theirs_waiting = _waiting(theirs_waiting, self.theirs, "opponent")

    @classmethod
    def _make(cls, mine: bytes, theirs: bytes, mine_pinned: int = 0,
              theirs_pinned: int = 0, mine_waiting: int = 0,
              theirs_waiting: int = 0) -> Board:
        """A board from trusted parts, unchecked (used by move generation)."""
        board = object.__new__(cls)
        board.mine = mine
        board.theirs = theirs
        board.mine_pinned = mine_pinned
        board.theirs_pinned = theirs_pinned
        board.mine_waiting = mine_waiting
        board.theirs_waiting = theirs_waiting
        return board

    @classmethod
    def from_points(cls, mine: Mapping[int, int], theirs: Mapping[int, int], *,
                    checkers: int = MAX_CHECKERS, mine_pinned: Sequence[int] = (),
                    theirs_pinned: Sequence[int] = (), mine_waiting: int = 0,
                    theirs_waiting: int = 0) -> Board:
        """A board from each side's own point numbers (1..24, 25 the bar) to counts, and
        each side's checkers waiting to enter (added to the bar); the checkers not placed are
        borne off, out of ``checkers`` a side.

        >>> Board.from_points({1: 1}, {24: 2}, mine_pinned=[1]).pinned()
        (frozenset({1}), frozenset())
        >>> Board.from_points({}, {}, mine_waiting=15, theirs_waiting=15).bar
        (15, 15)
        """
        return cls(_counts(mine, checkers, mine_waiting, "player on roll"),
                   _counts(theirs, checkers, theirs_waiting, "opponent"),
                   _bits(mine_pinned), _bits(theirs_pinned), mine_waiting, theirs_waiting)

    @classmethod
    def from_position(cls, position: Position) -> Board:
        """The board of a backgammon :class:`~backgammon.Position` (no pins)."""
        return cls._make(position.mine_bytes, position.theirs_bytes)

    def to_position(self) -> Position:
        """This board as a backgammon :class:`~backgammon.Position`; InvalidPositionError
        when it is not one (a pinned checker, shared points, unequal sides)."""
        if self.mine_pinned or self.theirs_pinned or self.mine_waiting or self.theirs_waiting:
            raise InvalidPositionError("A board with pinned checkers, or checkers waiting to "
                                       "enter, is not a backgammon position.")
        return Position(self.mine, self.theirs)

    def to_dict(self) -> dict[str, Any]:
        """The board as plain JSON values: each side's 26 counts, the points where each
        side's checkers lie pinned and each side's checkers waiting to enter.

        >>> board = Board.from_points({1: 1}, {24: 2}, mine_pinned=[1], theirs_waiting=3)
        >>> Board.from_dict(board.to_dict()) == board, board.to_dict()["pinned"]
        (True, [[1], []])
        """
        mine_pinned, theirs_pinned = self.pinned()
        return {"mine": list(self.mine), "theirs": list(self.theirs),
                "pinned": [sorted(mine_pinned), sorted(theirs_pinned)],
                "waiting": [self.mine_waiting, self.theirs_waiting]}

    @classmethod
    def from_dict(cls, data: Any) -> Board:
        """A board from :meth:`to_dict`; InvalidPositionError for what is malformed."""
        try:
            pinned, waiting = data["pinned"], data["waiting"]
            return cls(data["mine"], data["theirs"], _bits(pinned[0]), _bits(pinned[1]),
                       waiting[0], waiting[1])
        except (KeyError, TypeError, IndexError):
            raise InvalidPositionError(
                "A saved board has each side's 26 counts, its pinned points and its checkers "
                "waiting to enter."
            ) from None

    def flip(self) -> Board:
        """The same board with the other player on roll."""
        return Board._make(self.theirs, self.mine, self.theirs_pinned, self.mine_pinned,
                           self.theirs_waiting, self.mine_waiting)

    def pinned(self) -> tuple[frozenset[int], frozenset[int]]:
        """The points (each side's own numbers) where that side's checker lies pinned:
        (player on roll, opponent)."""
        return _points(self.mine_pinned), _points(self.theirs_pinned)

    def pips(self) -> tuple[int, int]:
        """Pip counts: (player on roll, opponent); a checker on the bar counts 25."""
        return (sum(i * n for i, n in enumerate(self.mine)),
                sum(i * n for i, n in enumerate(self.theirs)))

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return self.mine[OFF], self.theirs[OFF]

    @property
    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (player on roll, opponent)."""
        return self.mine[BAR], self.theirs[BAR]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.mine == other.mine and self.theirs == other.theirs
                and self.mine_pinned == other.mine_pinned
                and self.theirs_pinned == other.theirs_pinned
                and self.mine_waiting == other.mine_waiting
                and self.theirs_waiting == other.theirs_waiting)

    def __hash__(self) -> int:
        return hash((self.mine, self.theirs, self.mine_pinned, self.theirs_pinned,
                     self.mine_waiting, self.theirs_waiting))

    def __repr__(self) -> str:
        def points(side: bytes, waiting: int) -> dict[int, int]:
            return {p: side[p] - (waiting if p == BAR else 0) for p in range(BAR, 0, -1)
                    if side[p] - (waiting if p == BAR else 0)}
        mine_pinned, theirs_pinned = self.pinned()
        pins = ""
        if mine_pinned:
            pins += f", mine_pinned={sorted(mine_pinned)}"
        if theirs_pinned:
            pins += f", theirs_pinned={sorted(theirs_pinned)}"
        if self.mine_waiting:
            pins += f", mine_waiting={self.mine_waiting}"
        if self.theirs_waiting:
            pins += f", theirs_waiting={self.theirs_waiting}"
        checkers = sum(self.mine)
        extra = "" if checkers == MAX_CHECKERS else f", checkers={checkers}"
        return (f"Board.from_points({points(self.mine, self.mine_waiting)}, "
                f"{points(self.theirs, self.theirs_waiting)}{extra}{pins})")


def _side(counts: Sequence[int], who: str) -> bytes:
    values = list(counts)
    if len(values) != 26 or not all(type(n) is int and 0 <= n <= MAX_CHECKERS
                                    for n in values):
        raise InvalidPositionError(
            f"The {who}'s side is 26 whole numbers from 0 to 15 (off, points 1 to 24, bar)."
        )
    if not 1 <= sum(values) <= MAX_CHECKERS:
        raise InvalidPositionError(f"The {who} has {sum(values)} checkers; a side has from 1 "
                                   f"to {MAX_CHECKERS}.")
    return bytes(values)


def _mask(mask: int, side: bytes, who: str) -> int:
    if type(mask) is not int or mask < 0 or mask >> 25 or mask & 1:
        raise InvalidPositionError(f"The {who}'s pinned checkers are points 1 to 24.")
    for point in _points(mask):
        if side[point] != 1:
            raise InvalidPositionError(
                f"The {who} has {side[point]} checkers on point {point}; only a lone checker "
                "can be pinned."
            )
    return mask


def _waiting(waiting: int, side: bytes, who: str) -> int:
    if type(waiting) is not int or not 0 <= waiting <= side[BAR]:
        raise InvalidPositionError(
            f"The {who}'s checkers waiting to enter are counted on the bar: from 0 to the "
            f"{side[BAR]} there."
        )
    return waiting


def _counts(points: Mapping[int, int], checkers: int, waiting: int, who: str) -> list[int]:
    """A side's 26 counts from its points and its checkers waiting to enter (on the bar)."""
    if not isinstance(points, Mapping) or type(waiting) is not int or waiting < 0:
        raise InvalidPositionError(
            f"The {who}'s checkers are a mapping of points to counts, such as {{6: 5}}, and "
            "those waiting to enter a whole number."
        )
    side = [0] * 26
    side[BAR] = waiting
    for point, count in points.items():
        if type(point) is not int or not 1 <= point <= BAR or type(count) is not int \
                or count < 0:
            raise InvalidPositionError(
                f"The {who}'s checkers map points 1 to 24 (25 the bar) to counts."
            )
        side[point] += count
    on_board = sum(side)
    if type(checkers) is not int or not 1 <= checkers <= MAX_CHECKERS or on_board > checkers:
        raise InvalidPositionError(
            f"The {who} has {on_board} checkers on the board, more than the {checkers} a side "
            "has."
        )
    side[OFF] = checkers - on_board
    return side


def _bits(points: Sequence[int]) -> int:
    mask = 0
    for point in points:
        if type(point) is not int or not 1 <= point <= 24:
            raise InvalidPositionError("Pinned checkers stand on points 1 to 24.")
        mask |= 1 << point
    return mask


def _points(mask: int) -> frozenset[int]:
    return frozenset(p for p in range(1, 25) if mask >> p & 1)
