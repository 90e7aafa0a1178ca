"""Fevga, the third game of Greek Tavli: both sides travel the same way and one checker holds
a point.

- Each side starts with all 15 checkers on its own 24-point, at diagonally opposite corners;
  both travel counter-clockwise (``Travel.SAME``, as in Long Nardy: my start is the
  opponent's 12-point).
- No hitting: a checker may not land on a point with any opposing checker.
- The start: a side's first checker must pass the opponent's starting point (the mover's
  12-point) before a second checker may leave the start.
- A side may never hold all six points of its starting quarter (19..24) at once, nor six points
  in a row with no opposing checker beyond them (see docs/guide/games.md for this choice).
- Bearing off as in backgammon; 1 point, or 2 when the loser has borne off none. No cube.

>>> game = Fevga()
>>> sorted(str(play) for play in game.legal_plays(game.initial(), (6, 5)))
['24/18 18/13']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from ..dice import Dice
from .base import (
    Ending,
    LoneChecker,
    Result,
    SearchedRules,
    same_way_step,
    winner_by_bearing_off,
)
from .board import Board, Travel

START = 24
#: The mover's number for the opponent's starting point.
THEIR_START = 12


class Fevga(SearchedRules):
    """The rules of Fevga."""

    name = "fevga"
    travel = Travel.SAME
    lone_checker = LoneChecker.HOLDS
    cube = False
    opening_reroll = True
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2})
    blocking = ("A side may not hold all six points of its starting quarter, nor six points in "
                "a row unless an opposing checker is already beyond them.")

    def initial(self) -> Board:
        return Board.from_points({START: 15}, {START: 15})

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        if source == START and not _started(board.mine):
            return None
        after = same_way_step(board, source, die)
        # Nor all six points of the starting quarter (a checker borne off leaves them open).
        if after is None or all(after.mine[19:25]):
            return None
        return after, memo, False

    def outcome(self, board: Board) -> Result | None:
        return winner_by_bearing_off(board)


def _started(mine: bytes) -> bool:
    """True when a checker may leave the start: none has left it yet, or one has passed the
    opponent's starting point.

    >>> _started(bytes([0] * 24 + [15, 0])), _started(bytes([0] * 13 + [1] + [0] * 10 + [14, 0]))
    (True, False)
    """
    left_start = any(mine[:START])
    passed = any(mine[:THEIR_START])
    return passed or not left_start
