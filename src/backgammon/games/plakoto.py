"""Plakoto, the second game of Greek Tavli: a lone checker is pinned, not hit.

- Each side starts with all 15 checkers on its own 24-point (the opponent's 1-point), and the
  sides travel against each other, as in backgammon.
- A checker may land on an empty point, on its own side's checkers, or on a lone opposing
  checker, which it pins: the pinned checker stays where it is until every checker on top of
  it has left. The pinner may stack more checkers on it; the pinned side may not land there,
  and two or more checkers of a side close a point as in backgammon.
- Bearing off as in backgammon, once all 15 checkers are home and none of them is pinned.
- The "mother", the last checker on a side's starting point, pinned there: the pinned side
  loses 2 points at once, unless the pinner still has checkers on their own starting point;
  then the game goes on, and if the pinned side pins the pinner's mother in turn, the game is
  a draw. Otherwise 1 point, or 2 when the loser has borne off none. No cube.

>>> game = Plakoto()
>>> sorted(str(play) for play in game.legal_plays(game.initial(), (6, 5)))
['24/18 18/13', '24/18 24/19']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from ..dice import Dice
from ..position import Side
from .base import (
    Ending,
    LoneChecker,
    Result,
    SearchedRules,
    moved,
    race_target,
    winner_by_bearing_off,
)
from .board import Board, Travel

START = 24


class Plakoto(SearchedRules):
    """The rules of Plakoto."""

    name = "plakoto"
    travel = Travel.OPPOSITE
    lone_checker = LoneChecker.PIN
    cube = False
    opening_reroll = True
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2, Ending.MOTHER: 2, Ending.DRAW: 0})
    blocking = ("Two checkers of a side close a point, and so does a checker pinning an "
                "opposing one.")

    def initial(self) -> Board:
        return Board.from_points({START: 15}, {START: 15})

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        mine, theirs = board.mine, board.theirs
        target = race_target(mine, source, die, board.mine_pinned)
        if target < 0:
            return None
        mine_pinned, theirs_pinned = board.mine_pinned, board.theirs_pinned
        pins = False
        if target:
            other = 25 - target
            # A point is closed by two opposing checkers, or by one pinning a checker of ours.
            if theirs[other] > 1 or (theirs[other] and mine_pinned >> target & 1):
                return None
            pins = theirs[other] == 1 and not mine[target]
            if pins:
                theirs_pinned |= 1 << other
        if mine[source] == 1:
            # The last checker leaving a point frees an opposing checker pinned under it.
            theirs_pinned &= ~(1 << (25 - source))
        return Board._make(moved(mine, source, target), theirs, mine_pinned,
                           theirs_pinned), memo, pins

    def outcome(self, board: Board) -> Result | None:
        mother_mine = bool(board.mine_pinned >> START & 1)
        mother_theirs = bool(board.theirs_pinned >> START & 1)
        if mother_mine and mother_theirs:
            return Result(None, Ending.DRAW, 0)
        # A pinned mother loses at once unless the pinner's own mother may still be caught:
        # while the pinner has checkers on their starting point, the game goes on.
        if mother_mine and not board.theirs[START]:
            return Result(Side.OPPONENT, Ending.MOTHER, self.points[Ending.MOTHER])
        if mother_theirs and not board.mine[START]:
            return Result(Side.ON_ROLL, Ending.MOTHER, self.points[Ending.MOTHER])
        return winner_by_bearing_off(board)
