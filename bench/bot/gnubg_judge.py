"""GNU Backgammon's judgement of checker plays, through PyPI ``gnubg-nn`` (a measuring
reference for the benchmarks only; the package never imports it).

Equities are cubeless money equities (win 1, gammon 2, backgammon 3) of the player who made
the play, as gnubg's network sees the position after it at ``plies`` (gnubg's count: 0 is the
network alone). Shared by ``bench/bot/strength.py`` and ``bench/bot/decisions.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from backgammon.moves import Play
from backgammon.position import Position, Side

#: gnubg-nn's position classes (``gnubg_nn.classify``) by the names the benchmarks print: 1
#: is a bear-off in its two-sided database (a few checkers a side), 2 one in its one-sided
#: database; 0 (a finished game) is never judged.
CLASSES = {1: "bear-off", 2: "bear-off", 3: "race", 4: "crashed", 5: "contact"}


def gnubg_board(position: Position) -> list[list[int]]:
    """gnubg-nn's board of ``position``: [the opponent's 25 counts, the on-roll side's 25]."""
    return [list(position.theirs[1:26]), list(position.mine[1:26])]


class GnubgJudge:
    """gnubg-nn's equities at ``plies`` (0 to 2 in gnubg's count), and its choice by them.

    >>> judge = GnubgJudge(0)
    >>> play = judge.choose(Position.initial(), Position.initial().legal_plays((3, 1)))
    >>> str(play)
    '8/5 6/5'
    """

    def __init__(self, plies: int = 0) -> None:
        import gnubg_nn

        self._gnubg = gnubg_nn
        self.plies = plies

    def equity(self, position: Position) -> float:
        """The cubeless equity of the player on roll in ``position``, before the roll."""
        outcome = position.outcome()
        if outcome is not None:
            points = float(outcome.kind)
            return points if outcome.winner is Side.ON_ROLL else -points
        win, win_g, win_bg, lose_g, lose_bg = self._gnubg.probabilities(
            gnubg_board(position), self.plies
        )
        return float(2 * win - 1 + win_g - lose_g + win_bg - lose_bg)

    def play_equity(self, play: Play) -> float:
        """The cubeless equity of the player who made ``play``, after it."""
        return -self.equity(play.result)

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        """gnubg's choice at :attr:`plies`: the play of highest equity."""
        return max(plays, key=self.play_equity)

    def position_class(self, position: Position) -> str:
        """gnubg's class of ``position`` (a key of :data:`CLASSES`' values)."""
        return CLASSES[self._gnubg.classify(gnubg_board(position))]
