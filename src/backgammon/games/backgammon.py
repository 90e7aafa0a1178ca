"""Backgammon and the games that share its layout and its hits: Portes (Greek) and Tavla
(Turkish).

Backgammon (with its Nackgammon and Hypergammon layouts) and Portes play exactly the moves of
:mod:`backgammon.moves`; only the scoring and the cube differ. Tavla adds one rule to them:
no hit-and-run in the home board, so its plays come from the shared search.

>>> Ending.BACKGAMMON in Portes().points, Tavla().cube, Backgammon().points[Ending.BACKGAMMON]
(False, False, 3)
>>> board = Board.from_points({8: 1, 6: 2}, {21: 1, 18: 2})
>>> sorted(str(play) for play in Portes().legal_plays(board, (2, 1)))
['6/4* 4/3', '6/4* 6/5', '6/5 5/3', '8/6 6/5']
>>> sorted(str(play) for play in Tavla().legal_plays(board, (2, 1)))
['6/4* 6/5', '6/5 5/3', '8/6 6/5']
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import ClassVar

from ..dice import Dice, check_dice
from ..moves import legal_plays
from ..position import BAR, OFF, Position, WinKind
from ..variants import Variant
from .base import Ending, GamePlay, LoneChecker, Result, SearchedRules, land_hitting
from .board import Board, Travel

_ENDINGS = {WinKind.SINGLE: Ending.SINGLE, WinKind.GAMMON: Ending.GAMMON,
            WinKind.BACKGAMMON: Ending.BACKGAMMON}


class Backgammon(SearchedRules):
    """Backgammon by RULES.md, in one of its layouts: the rules of :mod:`backgammon.moves`
    and :meth:`Position.outcome`, unchanged. Its single steps (``_step``, for a turn made
    step by step) are the shared search's, which finds the same plays more slowly."""

    travel = Travel.OPPOSITE
    lone_checker = LoneChecker.HIT
    cube = True
    opening_reroll = False
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2, Ending.BACKGAMMON: 3})

    def __init__(self, variant: Variant | str = Variant.STANDARD) -> None:
        self.variant = Variant(variant)
        self.name = self.variant.value
        self.checkers = self.variant.checkers

    def initial(self) -> Board:
        return Board.from_position(Position.initial(self.variant))

    def legal_plays(self, board: Board, dice: Dice) -> list[GamePlay]:
        # The steps are the core's, read only when asked for: most plays are never shown.
        return [GamePlay(board, play, Board._make(play.result.mine_bytes,
                                                  play.result.theirs_bytes))
                for play in legal_plays(board.to_position(), check_dice(dice))]

    def outcome(self, board: Board) -> Result | None:
        found = board.to_position().outcome()
        if found is None:
            return None
        ending = self._ending(_ENDINGS[found.kind])
        return Result(found.winner, ending, self.points[ending])

    def _ending(self, ending: Ending) -> Ending:
        return ending

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        mine, theirs = board.mine, board.theirs
        target = source - die
        if target <= 0:
            # RULES.md, Bearing off: all home, from the die's point or the highest.
            if any(mine[7:]) or (target < 0 and any(mine[source + 1:7])):
                return None
            target = OFF
        landed = land_hitting(mine, theirs, source, target)
        if landed is None:
            return None
        return Board._make(landed[0], landed[1]), memo, landed[2]


class Portes(Backgammon):
    """Portes, the first game of Greek Tavli: backgammon's layout and moves, no cube, the
    opening roll's winner throws afresh, and a backgammon counts as a gammon (2 points)."""

    name = "portes"
    cube = False
    opening_reroll = True
    points: ClassVar[Mapping[Ending, int]] = MappingProxyType(
        {Ending.SINGLE: 1, Ending.GAMMON: 2})

    def __init__(self) -> None:
        super().__init__(Variant.STANDARD)
        self.name = type(self).name  # Tavla's too

    def _ending(self, ending: Ending) -> Ending:
        # Tavli knows no triple game: "There is no equivalent of a backgammon".
        return Ending.GAMMON if ending is Ending.BACKGAMMON else ending


class Tavla(Portes):
    """Tavla, Turkish backgammon: Portes' scoring and no cube (a mars, the gammon, scores
    2), and no hit-and-run in the home board: a checker that hits a blot on one of the
    mover's points 1..6 stays there for the rest of the turn."""

    name = "tavla"

    def legal_plays(self, board: Board, dice: Dice) -> list[GamePlay]:
        return SearchedRules.legal_plays(self, board, dice)

    def _sources(self, start: Board, board: Board, memo: int) -> list[int]:
        # The memo marks the home points where a checker stays after hitting this turn.
        mine = board.mine
        if mine[BAR]:
            return [BAR]
        return [p for p in range(24, 0, -1) if mine[p] > (memo >> p & 1)]

    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        after = super()._step(start, dice, board, memo, source, die)
        if after is not None and after[2] and source - die <= 6:
            return after[0], memo | 1 << (source - die), True  # stays for the turn
        return after
