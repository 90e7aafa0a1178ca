"""The position: where every checker stands, seen from the player on roll.

Each side is 26 counts on that side's own numbering: index 0 is the checkers borne off,
1..24 the points, 25 the bar. The player on roll moves from 25 (the bar) down toward 0 (off);
their point ``p`` is the opponent's point ``25 - p``. ``flip()`` is the only way to change sides.

>>> p = Position.initial()
>>> p.id()
'4HPwATDgc/ABMA'
>>> p.pips()
(167, 167)
>>> p.flip() == p
True
>>> Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2}) == p
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from operator import mul
from typing import TYPE_CHECKING, Any

from .dice import check_dice
from .drawing import draw
from .errors import InvalidPositionError
from .ids import decode_position_id, encode_position_id
from .variants import Variant

if TYPE_CHECKING:
    from .moves import Play
    from .turns import Turn

OFF = 0
BAR = 25
MAX_CHECKERS = 15


class Side(StrEnum):
    """One of the two players, relative to the position: the one on roll or the other."""

    ON_ROLL = "on roll"
    OPPONENT = "opponent"


class WinKind(IntEnum):
    """How a game is won; the value is the multiple of the cube the loser pays.

    RULES.md, Winning and scoring: a single game when the loser has borne off a checker, a
    gammon when not, a backgammon when not and a loser's checker is still on the bar or in the
    winner's home board.
    """

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


@dataclass(frozen=True)
class Outcome:
    """The end of a game: who won and how."""

    winner: Side
    kind: WinKind


# Keys are point numbers or "bar", checked at run time.
PointMap = Mapping[Any, int]


class Position:
    """An immutable, hashable backgammon position, seen from the player on roll."""

    __slots__ = ("_mine", "_theirs")

    _mine: bytes
    _theirs: bytes

    def __init__(self, mine: Sequence[int], theirs: Sequence[int]) -> None:
        """Build a position from two sequences of 26 counts (off, points 1..24, bar).

        Both sides must have the same number of checkers, at most 15, and may not share a point.
        """
        self._mine = _side_bytes(mine, "player on roll")
        self._theirs = _side_bytes(theirs, "opponent")
        total_mine, total_theirs = sum(self._mine), sum(self._theirs)
        if total_mine != total_theirs:
            raise InvalidPositionError(
                f"The player on roll has {total_mine} checkers and the opponent {total_theirs}; "
                "both sides must have the same number."
            )
        if self._mine[OFF] == total_mine and self._theirs[OFF] == total_theirs:
            raise InvalidPositionError(
                "Both sides have borne off all their checkers; the game ends when the first does.",
                code="all_off",
            )
        for point in range(1, 25):
            if self._mine[point] and self._theirs[25 - point]:
                raise InvalidPositionError(
                    f"Both sides have checkers on point {point} (the opponent's {25 - point}); "
                    "a point holds one side's checkers only.",
                    code="shared_point",
                )

    @classmethod
    def _make(cls, mine: bytes, theirs: bytes) -> Position:
        """A position from trusted sides, with no checks (used by move generation)."""
        position = object.__new__(cls)
        position._mine = mine
        position._theirs = theirs
        return position

    # Constructors

    @classmethod
    def initial(cls, variant: Variant | str = Variant.STANDARD) -> Position:
        """The starting position of a variant: "standard", "nackgammon" or "hypergammon"."""
        layout = Variant(variant).layout
        return cls.from_points(layout, layout, checkers=Variant(variant).checkers)

    @classmethod
    def from_points(
        cls, mine: PointMap, theirs: PointMap, *, checkers: int = MAX_CHECKERS
    ) -> Position:
        """A position from mappings of each side's own point numbers to counts.

        Keys are 1..24 or ``"bar"`` (25 also means the bar); the checkers not on the board are
        borne off, out of ``checkers`` a side.

        >>> Position.from_points({"bar": 1, 6: 2}, {1: 1}, checkers=3).bar
        (1, 0)
        """
        return cls(
            _side_from_map(mine, checkers, "player on roll"),
            _side_from_map(theirs, checkers, "opponent"),
        )

    @classmethod
    def from_id(cls, position_id: str, *, checkers: int = MAX_CHECKERS) -> Position:
        """The position of a gnubg Position ID, the player on roll's view.

        Checkers not on the board are borne off, out of ``checkers`` a side (3 for Hypergammon).
        """
        on_roll, opponent = decode_position_id(position_id)
        return cls(
            _side_from_counts(on_roll, checkers, "player on roll"),
            _side_from_counts(opponent, checkers, "opponent"),
        )

    # Views

    @property
    def mine(self) -> tuple[int, ...]:
        """The player on roll's 26 counts: off, points 1..24, bar."""
        return tuple(self._mine)

    @property
    def theirs(self) -> tuple[int, ...]:
        """The opponent's 26 counts on the opponent's own numbering: off, points 1..24, bar."""
        return tuple(self._theirs)

    @property
    def mine_bytes(self) -> bytes:
        """The player on roll's 26 counts as they are kept (read-only, no copy), for code
        that reads many positions at once.

        >>> Position.initial().mine_bytes[6], len(Position.initial().mine_bytes)
        (5, 26)
        """
        return self._mine

    @property
    def theirs_bytes(self) -> bytes:
        """The opponent's 26 counts, on the opponent's numbering, as they are kept."""
        return self._theirs

    @property
    def checkers(self) -> int:
        """How many checkers each side has, on the board and off."""
        return sum(self._mine)

    @property
    def bar(self) -> tuple[int, int]:
        """Checkers on the bar: (player on roll, opponent)."""
        return self._mine[BAR], self._theirs[BAR]

    @property
    def off(self) -> tuple[int, int]:
        """Checkers borne off: (player on roll, opponent)."""
        return self._mine[OFF], self._theirs[OFF]

    def pips(self) -> tuple[int, int]:
        """Pip counts: (player on roll, opponent); a checker on the bar counts 25."""
        return _pips(self._mine), _pips(self._theirs)

    def flip(self) -> Position:
        """The same position with the other player on roll."""
        return Position._make(self._theirs, self._mine)

    def id(self) -> str:
        """The gnubg Position ID (14 characters), as GNU Backgammon writes it."""
        return encode_position_id(_gnubg_counts(self._mine), _gnubg_counts(self._theirs))

    def is_race(self) -> bool:
        """True when no contact is left: every checker of one side has passed the other's.

        >>> Position.from_points({5: 15}, {3: 15}).is_race()
        True
        >>> Position.initial().is_race()
        False
        """
        return _rearmost(self._mine) + _rearmost(self._theirs) <= 25

    def is_game_over(self) -> bool:
        """True when a side has borne off all its checkers."""
        return self._mine[OFF] == sum(self._mine) or self._theirs[OFF] == sum(self._theirs)

    def outcome(self) -> Outcome | None:
        """Who has won and how, or None while the game goes on.

        >>> Position.from_points({}, {1: 1, 20: 14}).outcome()
        Outcome(winner=<Side.ON_ROLL: 'on roll'>, kind=<WinKind.BACKGAMMON: 3>)
        """
        if self._mine[OFF] == sum(self._mine):
            return Outcome(Side.ON_ROLL, _win_kind(self._theirs))
        if self._theirs[OFF] == sum(self._theirs):
            return Outcome(Side.OPPONENT, _win_kind(self._mine))
        return None

    # Plays (the rules live in moves.py)

    def legal_plays(self, dice: Iterable[int]) -> list[Play]:
        """Every distinct legal play for a roll; [] when no checker can move.

        >>> len(Position.initial().legal_plays((3, 1)))
        16
        """
        # Imported here, not at the top: moves and notation build Positions, so they import
        # this module; the class must not import them back (no import cycle in the core).
        from .moves import legal_plays

        return legal_plays(self, check_dice(dice))

    def parse_play(self, text: str, dice: Iterable[int]) -> Play:
        """The legal play that ``text`` describes, as people type it, or IllegalPlayError.

        >>> str(Position.initial().parse_play("6/5 8/5", (3, 1)))
        '8/5 6/5'
        """
        from .notation import parse_play  # here, as in legal_plays: notation imports Position

        return parse_play(self, text, check_dice(dice))

    def turn(self, dice: Iterable[int]) -> Turn:
        """A turn to play step by step (for click-to-move interfaces)."""
        from .turns import Turn  # here: turns imports moves, which is importing this module

        return Turn(self, check_dice(dice))

    # Value semantics

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._mine == other._mine and self._theirs == other._theirs

    def __hash__(self) -> int:
        return hash((self._mine, self._theirs))

    def __repr__(self) -> str:
        extra = "" if self.checkers == MAX_CHECKERS else f", checkers={self.checkers}"
        return f"Position.from_id({self.id()!r}{extra})"

    def __str__(self) -> str:
        return _draw(self)


def _side_bytes(counts: Sequence[int], who: str) -> bytes:
    try:
        values = list(counts)
    except TypeError:
        raise InvalidPositionError(
            f"The {who}'s side is 26 counts (off, points 1 to 24, bar); got {counts!r}."
        ) from None
    if len(values) != 26:
        raise InvalidPositionError(
            f"The {who}'s side needs 26 counts (off, points 1 to 24, bar); got {len(values)}."
        )
    for index, count in enumerate(values):
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 15:
            where = "off" if index == OFF else "the bar" if index == BAR else f"point {index}"
            raise InvalidPositionError(
                f"The {who} has {count!r} checkers on {where}; "
                "a count is a whole number from 0 to 15."
            )
    total = sum(values)
    if not 1 <= total <= MAX_CHECKERS:
        raise InvalidPositionError(
            f"The {who} has {total} checkers; a side has from 1 to {MAX_CHECKERS}."
        )
    return bytes(values)


def _side_from_map(points: PointMap, checkers: int, who: str) -> list[int]:
    side = [0] * 26
    if not isinstance(points, Mapping):
        raise InvalidPositionError(
            f"The {who}'s checkers are a mapping of points to counts, such as {{6: 5, 'bar': 1}}; "
            f"got {points!r}."
        )
    for key, count in points.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise InvalidPositionError(
                f"The {who} has {count!r} checkers on {key!r}; "
                "a count is a whole number, 0 or more."
            )
        if isinstance(key, str) and key.strip().lower() == "bar":
            index = BAR
        elif isinstance(key, int) and not isinstance(key, bool) and 1 <= key <= 25:
            index = key
        else:
            raise InvalidPositionError(
                f"{key!r} is not a point: use 1 to 24, or 'bar' (or 25) for the bar."
            )
        side[index] += count
    return _with_off(side, checkers, who)


def _side_from_counts(counts: Sequence[int], checkers: int, who: str) -> list[int]:
    """A side from gnubg's 25 counts (points 1..24, bar)."""
    return _with_off([0, *counts], checkers, who)


def _with_off(side: list[int], checkers: int, who: str) -> list[int]:
    if not isinstance(checkers, int) or not 1 <= checkers <= MAX_CHECKERS:
        raise InvalidPositionError(
            f"A side has from 1 to {MAX_CHECKERS} checkers; got {checkers!r}."
        )
    on_board = sum(side)
    if on_board > checkers:
        raise InvalidPositionError(
            f"The {who} has {on_board} checkers on the board, more than the {checkers} a side has."
        )
    side[OFF] = checkers - on_board
    return side


def _gnubg_counts(side: bytes) -> tuple[int, ...]:
    return tuple(side[1:26])


def _pips(side: bytes) -> int:
    return sum(map(mul, _INDEXES, side))


_INDEXES = range(26)


def _rearmost(side: bytes) -> int:
    """The highest index (25 = bar) holding a checker of this side, 0 if none."""
    for index in range(BAR, 0, -1):
        if side[index]:
            return index
    return 0


def _win_kind(loser: bytes) -> WinKind:
    if loser[OFF]:
        return WinKind.SINGLE
    # The winner's home board is the loser's points 19..24; index 25 is the bar.
    if any(loser[19:26]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON


def _draw(position: Position) -> str:
    """The board in text: O is the player on roll, moving from 24 to 1 (bottom right home)."""
    mine, theirs = position._mine, position._theirs
    pips_mine, pips_theirs = position.pips()
    return draw(
        lambda point: "O" * mine[point] or "X" * theirs[25 - point],
        (f"X bar {theirs[BAR]}  off {theirs[OFF]}", f"O bar {mine[BAR]}  off {mine[OFF]}"),
        [f"O on roll, pips {pips_mine}; X pips {pips_theirs}; id {position.id()}"],
    )

