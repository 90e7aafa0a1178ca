"""Acey-deucey, the American game: every checker starts off the board.

- Each side's fifteen checkers start off the board and enter into the opponent's home board
  as from the bar (a die's number counted from the mover's 25). Once one has entered, a
  player may move the entered checkers, enter more, or both (an option, ``enter_all_first``,
  keeps every entered checker still until all fifteen are in).
- Moves, hits and the bar as in backgammon: a hit checker must enter before any other checker
  moves; checkers never entered wait, and need not.
- The 1-2: a player who throws 1-2 and plays both numbers names any double and plays it
  (as much of it as can be played), then, having played all four, throws again. A 1-2 whose
  two numbers cannot both be played, or a named double not played in full, ends the turn.
- Bearing off once all fifteen are home, as in backgammon (an option,
  ``exact_bearing_off``, bears off only from the point of a die's number).
- Scoring as backgammon's single game, gammon and backgammon (1, 2 and 3 points), no cube.

>>> game = AceyDeucey()
>>> sorted(str(play) for play in game.legal_plays(game.initial(), (2, 1)))
['bar/23 23/22', 'bar/23 bar/24']
>>> play = game.legal_plays(game.initial(), (2, 1))[0]
>>> game.next_stage(play, (2, 1), Stage.THROW)
<Stage.NAMED_DOUBLE: 'named double'>
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from ..dice import Dice
from ..position import BAR, OFF
from .base import (
    Ending,
    GamePlay,
    LoneChecker,
    Result,
    SearchedRules,
    Stage,
    land_hitting,
    winner_by_bearing_off,
)
from .board import Board, Travel


class AceyDeucey(SearchedRules):
    """The rules of American acey-deucey, with the other sources' rules as options."""

    name = "acey-deucey"
    travel = Travel.OPPOSITE
    lone_checker = LoneChecker.HIT
    cube = False
    opening_reroll = True
    enters = True
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2, Ending.BACKGAMMON: 3})
    _doubles_in_source_order = True  # entering is the highest source, as in backgammon

    def __init__(self, *, enter_all_first: bool = False,
                 exact_bearing_off: bool = False) -> None:
        #: No entered checker moves until all fifteen have entered (Wikipedia's rule).
        self.enter_all_first = enter_all_first
        #: A checker bears off only from the point of a die's number (the European rule).
        self.exact_bearing_off = exact_bearing_off

    def initial(self) -> Board:
        return Board.from_points({}, {}, mine_waiting=15, theirs_waiting=15)

    def _sources(self, start: Board, board: Board, memo: int) -> list[int]:
        mine, waiting = board.mine, board.mine_waiting
        if mine[BAR] > waiting:
            return [BAR]  # a hit checker enters before anything else moves
        if waiting and self.enter_all_first:
            return [BAR]
        points = [p for p in range(24, 0, -1) if mine[p]]
        return [BAR, *points] if waiting else points

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        mine, theirs, waiting = board.mine, board.theirs, board.mine_waiting
        if source == BAR:
            target = BAR - die
            if mine[BAR] == waiting:
                waiting -= 1  # no hit checker is left on the bar: this one enters first
        else:
            target = source - die
            if target <= 0:
                if any(mine[7:]):
                    return None
                if target < 0 and (self.exact_bearing_off or any(mine[source + 1:7])):
                    return None
                target = OFF
        landed = land_hitting(mine, theirs, source, target)
        if landed is None:
            return None
        return Board._make(landed[0], landed[1], 0, 0, waiting, board.theirs_waiting), memo, \
            landed[2]

    def next_stage(self, play: GamePlay, dice: Dice, stage: Stage) -> Stage | None:
        if stage is Stage.THROW and sorted(dice) == [1, 2] and len(play.steps) == 2:
            return Stage.NAMED_DOUBLE
        if stage is Stage.NAMED_DOUBLE and len(play.steps) == 4:
            return Stage.THROW
        return None

    def outcome(self, board: Board) -> Result | None:
        return winner_by_bearing_off(board, self.points[Ending.GAMMON],
                                     self.points[Ending.BACKGAMMON])
