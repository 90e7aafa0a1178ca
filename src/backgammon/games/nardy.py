"""Long Nardy (Russian: длинные нарды): both sides travel the same way, and one checker holds
a point.

- Each side starts with all 15 checkers on its "head", its own 24-point; the heads lie at
  diagonally opposite corners and both sides travel counter-clockwise (``Travel.SAME``: my
  head is the opponent's 12-point).
- No hitting: a checker may not land on a point with any opposing checker.
- One checker a turn may leave the head, except on a side's first throw: 6-6, 4-4 or 3-3 may
  take two from the head (one alone could not play the whole roll: the opponent's head
  blocks it).
- No block of six points in a row unless an opposing checker is already beyond it.
- Bearing off as in backgammon, once all 15 checkers are in the home board (1..6).
- 1 point (oin), or 2 (mars) when the loser has borne off none. No cube.

>>> game = LongNardy()
>>> sorted(str(play) for play in game.legal_plays(game.initial(), (6, 6)))
['24/18 24/18']
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

HEAD = 24
#: The first throws that may take two checkers from the head.
TWO_FROM_HEAD = frozenset({6, 4, 3})


class LongNardy(SearchedRules):
    """The rules of Long Nardy, as the Russian sport nardy federation plays it."""

    name = "long-nardy"
    travel = Travel.SAME
    lone_checker = LoneChecker.HOLDS
    cube = False
    opening_reroll = False
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2})
    blocking = ("No six points in a row may be held unless an opposing checker is already "
                "beyond them.")

    def initial(self) -> Board:
        return Board.from_points({HEAD: 15}, {HEAD: 15})

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        mine = board.mine
        if source == HEAD:
            taken = start.mine[HEAD] - mine[HEAD]
            first_throw = start.mine[HEAD] == self.checkers
            # One checker from the head a turn; two on a first throw of 6-6, 4-4 or 3-3.
            limit = 2 if first_throw and dice[0] == dice[1] and die in TWO_FROM_HEAD else 1
            if taken >= limit:
                return None
        after = same_way_step(board, source, die)
        return None if after is None else (after, memo, False)

    def outcome(self, board: Board) -> Result | None:
        return winner_by_bearing_off(board)

