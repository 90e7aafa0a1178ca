"""What a position shows a player at a glance, measured exactly: the points made, the blots and
the opponent's shots at them, the longest prime, the anchors, the back checkers, the race.

The shots are counted on the rules core's own move generator: of the opponent's 36 rolls,
those with a legal play that hits (so entering from the bar, blocked points and the use of
both dice are the rules', not an approximation).

>>> from backgammon import Position
>>> start = Features.of(Position.initial())
>>> sorted(start.made), start.prime, sorted(start.anchors), start.back
([6, 8, 13, 24], 1, [24], 2)
>>> play = Position.initial().parse_play("13/11 6/5", (2, 1))   # two blots, seen by the mover
>>> after = Features.after(play)
>>> after.blots, after.shots
((5, 11), 15)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ...moves import Play
from ...position import BAR, OFF, Position

#: The opponent's home board on the player's own numbering: where anchors are made.
THEIR_HOME = range(19, 25)
#: Where back checkers stand: the opponent's home board and bar point, and the bar. A back
#: checker escapes when it passes the bar point into the opponent's outfield.
BACK = range(18, 26)
#: Every roll of two dice once, as the 36 ordered pairs count: each non-double twice.
ROLLS = tuple(((a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7))


@dataclass(frozen=True)
class Features:
    """A position as the player (``mine``) sees it: the player's points made (two checkers
    or more), blots (one checker, on the board), the longest run of made points, the made
    points in the opponent's home board (anchors), the checkers there, on the opponent's bar
    point and on the bar (back checkers), those borne off, both sides' pips, the opponent's
    checkers on the bar, whether the sides are still in contact, and the opponent's shots:
    how many of their 36 rolls hit a blot of the player's (counted only by :meth:`after`,
    with the opponent on roll; None otherwise)."""

    made: frozenset[int]
    blots: tuple[int, ...]
    prime: int
    anchors: frozenset[int]
    back: int
    off: int
    pips: tuple[int, int]
    their_bar: int
    contact: bool
    shots: int | None = None

    @classmethod
    def of(cls, position: Position, shots: int | None = None) -> Features:
        """The features of the player on roll in ``position``."""
        mine = position.mine
        made = frozenset(point for point in range(1, 25) if mine[point] >= 2)
        return cls(
            made=made,
            blots=tuple(point for point in range(1, 25) if mine[point] == 1),
            prime=_longest_run(made),
            anchors=frozenset(made & set(THEIR_HOME)),
            back=sum(mine[point] for point in BACK),
            off=mine[OFF],
            pips=position.pips(),
            their_bar=position.theirs[BAR],
            contact=not position.is_race(),
            shots=shots,
        )

    @classmethod
    def after(cls, play: Play) -> Features:
        """The features of the player who made ``play``, after it, with the opponent's shots
        at the blots it leaves."""
        return cls.of(play.result.flip(), shots=shots(play.result))


@lru_cache(maxsize=4096)  # a hint asks of each play's result several times
def shots(position: Position) -> int:
    """How many of the 36 rolls of the player on roll in ``position`` have a legal play that
    hits (sends a checker of the opponent's to the bar).

    >>> from backgammon import Position
    >>> shots(Position.from_points({13: 1}, {20: 1}, checkers=1))   # a blot 8 pips away
    6
    >>> # The same from the bar, the 5 to enter blocked: only 4-4 enters and still hits.
    >>> shots(Position.from_points({"bar": 1, 13: 1}, {20: 1, 5: 2}, checkers=3))
    1
    """
    on_bar = position.theirs[BAR]
    hit = 0
    for dice, ways in ROLLS:
        if any(play.result.mine[BAR] > on_bar for play in position.legal_plays(dice)):
            hit += ways
    return hit


def _longest_run(points: frozenset[int]) -> int:
    """The most consecutive points in ``points``."""
    longest = run = 0
    for point in range(1, 25):
        run = run + 1 if point in points else 0
        longest = max(longest, run)
    return longest
