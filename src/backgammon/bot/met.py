"""Match equity: each score's chance of winning the match, from a match equity table.

The table is Kazaross-XG2 (:mod:`backgammon.bot._met_kazaross_xg2`, GNU Backgammon's default),
for matches of up to 25 points. Its Crawford entries (one player 1 away, no doubling this game)
and post-Crawford entries (the games after it) are apart, as the cube's value differs.

>>> met = MatchEquityTable.kazaross_xg2()
>>> met.equity(1, 1)
0.5
>>> round(met.equity(2, 4), 5)          # 2-away against 4-away
0.6687
>>> score = MatchScore(length=5, score=(3, 0))
>>> score.away, score.opponent_away
(2, 5)
>>> round(score.equity_after(won=2), 5)  # winning a gammon wins the match
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..errors import BackgammonError
from . import _met_kazaross_xg2


class MatchEquityTable:
    """Chances of winning the match at each score (by points away), for matches up to
    ``len(pre_crawford)`` points."""

    def __init__(
        self, name: str, pre_crawford: Sequence[Sequence[float]], post_crawford: Sequence[float]
    ) -> None:
        size = len(pre_crawford)
        if any(len(row) != size for row in pre_crawford) or len(post_crawford) != size:
            raise ValueError("A match equity table is square, with a post-Crawford row as long.")
        self.name = name
        self.pre_crawford = tuple(tuple(row) for row in pre_crawford)
        self.post_crawford = tuple(post_crawford)

    @classmethod
    def kazaross_xg2(cls) -> MatchEquityTable:
        """Neil Kazaross's XG2 table (2011), as GNU Backgammon ships it."""
        return _KAZAROSS_XG2

    @property
    def max_length(self) -> int:
        """The longest match the table covers."""
        return len(self.pre_crawford)

    def equity(self, away: int, opponent_away: int, post_crawford: bool = False) -> float:
        """The chance that the player ``away`` points from winning wins the match against an
        opponent ``opponent_away`` away (0 or less: that player has won).

        ``post_crawford``: the Crawford game has been played (it matters only when one
        player is 1 away); otherwise a player 1 away is in the Crawford game.
        """
        if away <= 0:
            return 1.0
        if opponent_away <= 0:
            return 0.0
        if max(away, opponent_away) > self.max_length:
            raise BackgammonError(
                f"The {self.name} table covers matches up to {self.max_length} points."
            )
        if post_crawford and away == 1:
            return 1.0 - self.post_crawford[opponent_away - 1]
        if post_crawford and opponent_away == 1:
            return self.post_crawford[away - 1]
        return self.pre_crawford[away - 1][opponent_away - 1]


_KAZAROSS_XG2 = MatchEquityTable(
    _met_kazaross_xg2.NAME, _met_kazaross_xg2.PRE_CRAWFORD, _met_kazaross_xg2.POST_CRAWFORD
)


@dataclass(frozen=True)
class MatchScore:
    """The score of a match at the start of a game, for the player on roll: a match to
    ``length`` points, ``score`` (the player's, the opponent's), and whether this game is the
    Crawford game (no doubling in it)."""

    length: int
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    table: MatchEquityTable = _KAZAROSS_XG2

    def __post_init__(self) -> None:
        if self.length < 1 or not all(0 <= s < self.length for s in self.score):
            raise BackgammonError(
                f"A score in a {self.length}-point match is two numbers from 0 to "
                f"{self.length - 1}; got {self.score}."
            )
        if self.crawford and self.length - 1 not in self.score:
            raise BackgammonError("The Crawford game is played when a player is 1 away.")

    @property
    def away(self) -> int:
        """Points the player on roll still needs."""
        return self.length - self.score[0]

    @property
    def opponent_away(self) -> int:
        """Points the opponent still needs."""
        return self.length - self.score[1]

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game: one player is 1 away, and doubling is allowed."""
        return not self.crawford and min(self.away, self.opponent_away) == 1

    @property
    def cube_allowed(self) -> bool:
        """Whether doubling is allowed in this game (not in the Crawford game)."""
        return not self.crawford

    def equity_after(self, won: int = 0, lost: int = 0) -> float:
        """The player's chance of winning the match after this game ends with ``won`` points
        to the player or ``lost`` points to the opponent."""
        # A player 1 away now means the Crawford game is this one or behind: every later
        # score with a player 1 away is post-Crawford. Otherwise it would be the Crawford game.
        after_crawford = min(self.away, self.opponent_away) == 1
        return self.table.equity(self.away - won, self.opponent_away - lost, after_crawford)

    def flip(self) -> MatchScore:
        """The same score seen by the opponent."""
        return MatchScore(self.length, (self.score[1], self.score[0]), self.crawford, self.table)

    def play_weights(self, cube: int = 1) -> NDArray[np.float32]:
        """The weights ``w`` of the five outputs (win, win gammon, win backgammon, lose
        gammon, lose backgammon) such that ``outputs @ w - 1`` is the player's chance of
        winning the match after this game, rescaled so that a single game won is +1 and one
        lost is -1, as in money play: the equity that match-aware checker play maximises.

        >>> [round(w, 3) for w in MatchScore(7).play_weights().tolist()]  # money: 2, 1, 1, -1, -1
        [2.0, 1.019, 1.164, -1.019, -1.164]
        >>> # 1 away in the Crawford game: a gammon won adds nothing; a backgammon lost costs.
        >>> [round(w, 3) for w in MatchScore(3, (2, 0), crawford=True).play_weights().tolist()]
        [2.0, 0.0, 0.0, -0.049, -2.049]
        """
        won = [self.equity_after(won=k * cube) for k in (1, 2, 3)]
        lost = [self.equity_after(lost=k * cube) for k in (1, 2, 3)]
        scale = 2.0 / (won[0] - lost[0])
        return np.array(
            [
                2.0,
                (won[1] - won[0]) * scale,
                (won[2] - won[1]) * scale,
                (lost[1] - lost[0]) * scale,
                (lost[2] - lost[1]) * scale,
            ],
            dtype=np.float32,
        )

    def gammon_value(self, cube: int = 1) -> float:
        """What winning a gammon adds to winning a single game, for the player with the cube
        at ``cube``, in units of what a single game's win gains over its loss."""
        win, gammon = self.equity_after(won=cube), self.equity_after(won=2 * cube)
        lose = self.equity_after(lost=cube)
        return (gammon - win) / (win - lose)
