"""Match equity: each score's chance of winning the match, from a match equity table.

The score itself is the core's :class:`~backgammon.cube.MatchScore` (re-exported here); this
module adds what the table says of it: :func:`equity_after` a game, the weights of match-aware
checker play (:func:`play_weights`), the value of a gammon (:func:`gammon_value`) and the
scale of equity normalised to money, EMG (:class:`Scale`).

The table is Kazaross-XG2 (:mod:`backgammon.bot._met_kazaross_xg2`, GNU Backgammon's default),
for matches of up to 25 points, extended to :data:`MAX_MATCH_LENGTH` (64) points as GNU
Backgammon extends it (:class:`MatchEquityTable`). Its Crawford entries (one player 1 away,
no doubling this game) and post-Crawford entries (the games after it) are apart, as the
cube's value differs.

>>> met = MatchEquityTable.kazaross_xg2()
>>> met.equity(1, 1)
0.5
>>> round(met.equity(2, 4), 5)          # 2-away against 4-away
0.6687
>>> round(equity_after(MatchScore(7, (5, 3)), won=1), 5)  # then 1-away against 4-away
0.81436
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..cube import MAX_MATCH_LENGTH, CubeContext, MatchScore
from ..errors import BackgammonError
from . import _met_kazaross_xg2

# David Montgomery's standard deviations of the points one game moves a player's score, by
# points away (1 to 10; 1.77 beyond), by which GNU Backgammon extends its tables.
_SPREADS = (1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72)
_LONG_SPREAD = 1.77
# The share of gammons in the trailer's wins after the Crawford game, in GNU Backgammon's
# extension of a post-Crawford table.
_POST_CRAWFORD_GAMMONS = 0.25


class MatchEquityTable:
    """Chances of winning the match at each score (by points away), for matches up to
    :attr:`max_length` points.

    The table's own entries (``pre_crawford``, square, and ``post_crawford``, as long) cover
    matches up to :attr:`native_length` points; a longer ``max_length`` extends them as GNU
    Backgammon extends a table to its 64 points:

    * before and in the Crawford game, by David Montgomery's normal model of a long match:
      the score moves as a random walk, each game by a spread of points ``s`` that depends
      on how far the player is from the end (1.24 points at 1 away, up to 1.77 beyond 10
      away), so the player ``a`` away wins against ``b`` away with the chance that a normal
      variable of standard deviation ``sqrt((s_a² + s_b²) (a + b) / 2)`` exceeds ``a - b``.
      Every score with a player beyond the native length is the model's;
    * after the Crawford game, by the trailer's double at once: ``a`` away, it wins the
      match's next state with a single game (``a - 2`` away) or a gammon (``a - 4``),
      gammons a quarter of its wins, and loses the match otherwise.

    The extended Kazaross-XG2 table is GNU Backgammon's to the last digit it prints (a test
    compares them).

    >>> met = MatchEquityTable.kazaross_xg2()
    >>> met.native_length, met.max_length
    (25, 64)
    >>> round(met.equity(25, 25), 3), round(met.equity(40, 30), 3), round(met.equity(64, 63), 3)
    (0.5, 0.25, 0.48)
    """

    def __init__(
        self,
        name: str,
        pre_crawford: Sequence[Sequence[float]],
        post_crawford: Sequence[float],
        max_length: int | None = None,
    ) -> None:
        size = len(pre_crawford)
        if any(len(row) != size for row in pre_crawford) or len(post_crawford) != size:
            raise ValueError("A match equity table is square, with a post-Crawford row as long.")
        self.name = name
        self.native_length = size
        self.max_length = max(size, max_length or size)
        self.pre_crawford = tuple(
            tuple(
                pre_crawford[a - 1][b - 1] if max(a, b) <= size else _montgomery(a, b)
                for b in range(1, self.max_length + 1)
            )
            for a in range(1, self.max_length + 1)
        )
        trailer = list(post_crawford)
        if self.max_length > size:
            # As GNU Backgammon does, the last native entry is worked out again: the table's
            # own matches never reach it (25 away after the Crawford game of a 25-point
            # match, the trailer has lost that game and the match).
            del trailer[size - 1 :]
        for away in range(len(trailer) + 1, self.max_length + 1):
            single, gammon = (trailer[a - 1] if a > 0 else 1.0 for a in (away - 2, away - 4))
            g = _POST_CRAWFORD_GAMMONS
            trailer.append((1 - g) / 2 * single + g / 2 * gammon)
        self.post_crawford = tuple(trailer)

    @classmethod
    def kazaross_xg2(cls) -> MatchEquityTable:
        """Neil Kazaross's XG2 table (2011), as GNU Backgammon ships it, extended to
        :data:`MAX_MATCH_LENGTH` points."""
        return _KAZAROSS_XG2

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
                f"The {self.name} match equity table covers matches of up to "
                f"{self.max_length} points."
            )
        if post_crawford and away == 1:
            return 1.0 - self.post_crawford[opponent_away - 1]
        if post_crawford and opponent_away == 1:
            return self.post_crawford[away - 1]
        return self.pre_crawford[away - 1][opponent_away - 1]


def _spread(away: int) -> float:
    return _SPREADS[away - 1] if away <= len(_SPREADS) else _LONG_SPREAD


def _montgomery(away: int, opponent_away: int) -> float:
    """The chance of the player ``away`` against ``opponent_away`` by Montgomery's model."""
    games = (away + opponent_away) / 2
    sigma = math.sqrt((_spread(away) ** 2 + _spread(opponent_away) ** 2) * games)
    return 0.5 * math.erfc((away - opponent_away) / (sigma * math.sqrt(2)))


_KAZAROSS_XG2 = MatchEquityTable(
    _met_kazaross_xg2.NAME,
    _met_kazaross_xg2.PRE_CRAWFORD,
    _met_kazaross_xg2.POST_CRAWFORD,
    MAX_MATCH_LENGTH,
)


#: The table the bot plays by.
TABLE = _KAZAROSS_XG2


def equity_after(score: MatchScore, won: int = 0, lost: int = 0) -> float:
    """The chance of winning the match, for the player whose ``score`` it is, after the game
    being played ends with ``won`` points to that player or ``lost`` points to the opponent.

    >>> round(equity_after(MatchScore(5, (3, 0)), won=2), 5)  # a gammon wins the match
    1.0
    """
    # A player 1 away now means the Crawford game is this one or behind: every later score
    # with a player 1 away is post-Crawford. Otherwise it would be the Crawford game.
    after_crawford = min(score.away, score.opponent_away) == 1
    return TABLE.equity(score.away - won, score.opponent_away - lost, after_crawford)


def play_weights(score: MatchScore, cube: int = 1) -> NDArray[np.float32]:
    """The weights ``w`` of the five outputs (win, win gammon, win backgammon, lose gammon,
    lose backgammon) such that ``outputs @ w - 1`` is the player's chance of winning the match
    after this game, with the cube at ``cube``, rescaled so that a single game won is +1 and
    one lost is -1, as in money play: the equity that match-aware checker play maximises.

    >>> [round(w, 3) for w in play_weights(MatchScore(7)).tolist()]  # money: 2, 1, 1, -1, -1
    [2.0, 1.019, 1.164, -1.019, -1.164]
    >>> # 1 away in the Crawford game: a gammon won adds nothing; a backgammon lost costs.
    >>> [round(w, 3) for w in play_weights(MatchScore(3, (2, 0), crawford=True)).tolist()]
    [2.0, 0.0, 0.0, -0.049, -2.049]
    """
    won = [equity_after(score, won=k * cube) for k in (1, 2, 3)]
    lost = [equity_after(score, lost=k * cube) for k in (1, 2, 3)]
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


def weights_at(cube: CubeContext | None) -> NDArray[np.float32] | None:
    """The weights of checker play at the cube's score (:func:`play_weights`), or None in
    money play, where the outputs' plain money weights apply.

    >>> weights_at(CubeContext()) is None, weights_at(CubeContext(match=MatchScore(7))) is None
    (True, False)
    """
    if cube is None or cube.match is None:
        return None
    return play_weights(cube.match, cube.value)


def match_equity(score: MatchScore) -> float:
    """The chance of winning the match at ``score``, for the player whose score it is, before
    the game now played.

    >>> match_equity(MatchScore(7, (3, 3)))
    0.5
    """
    return TABLE.equity(score.away, score.opponent_away, score.post_crawford)


def gammon_value(score: MatchScore, cube: int = 1) -> float:
    """What winning a gammon adds to winning a single game, for the player whose ``score`` it
    is, with the cube at ``cube``, in units of what a single game's win gains over its loss."""
    win, gammon = equity_after(score, won=cube), equity_after(score, won=2 * cube)
    lose = equity_after(score, lost=cube)
    return (gammon - win) / (win - lose)


@dataclass(frozen=True)
class Scale:
    """A player's equity at a cube and a score, between its forms: EMG (money equity, a single
    game won +1 and lost -1, gnubg's "equity normalised to money") and the match's own
    (:meth:`chance`: chances of winning the match, or points at the cube's value in money
    play). ``centre`` is the chance
    of winning the match halfway between winning and losing a single game; ``unit`` the
    chance (or the points) that one EMG is worth.

    >>> from backgammon.cube import MatchScore
    >>> scale = Scale.of(CubeContext(match=MatchScore(1)))  # one game for the match
    >>> scale.centre, scale.unit, scale.emg(1.0)
    (0.5, 0.5, 1.0)
    >>> Scale.of(CubeContext(value=4)).unit
    4.0
    """

    centre: float
    unit: float

    @classmethod
    def of(cls, cube: CubeContext) -> Scale:
        """The scale of the player whose cube it is."""
        if cube.match is None:
            return cls(0.0, float(cube.value))
        won = equity_after(cube.match, won=cube.value)
        lost = equity_after(cube.match, lost=cube.value)
        return cls((won + lost) / 2, (won - lost) / 2)

    def emg(self, chance: float) -> float:
        """A chance of winning the match as EMG."""
        return (chance - self.centre) / self.unit

    def chance(self, emg: float) -> float:
        """EMG as a chance of winning the match (as points in money play)."""
        return self.centre + emg * self.unit


__all__ = [
    "MAX_MATCH_LENGTH",
    "TABLE",
    "MatchEquityTable",
    "MatchScore",
    "Scale",
    "equity_after",
    "gammon_value",
    "match_equity",
    "play_weights",
    "weights_at",
]
