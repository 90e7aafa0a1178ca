"""The stake a decision is judged at: the EMG scale of a cube and score, the weights of the
bot's checker play there, and whether the player has a cube decision at all."""

from __future__ import annotations

from dataclasses import dataclass

from ..bot.met import equity_after, play_weights
from ..bot.network import Array
from ..cube import CubeContext


@dataclass(frozen=True)
class Scale:
    """A player's equity at a cube and a score, between its forms: EMG (money equity, a single
    game won +1 and lost -1, gnubg's "equity normalised to money") and ``cost`` (chances of
    winning the match, or points at the cube's value in money play). ``centre`` is the chance
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


def weights_at(cube: CubeContext) -> Array | None:
    """The weights of the bot's checker play at the cube's score (None: money play)."""
    return None if cube.match is None else play_weights(cube.match, cube.value)


def may_double(cube: CubeContext) -> bool:
    """Whether the player has a cube decision before rolling: the cube is theirs to turn and
    alive, as gnubg's ``GetDPEq`` says (in a match, no double from a score that one game at
    the cube already wins: the leader after the Crawford game never doubles).

    >>> from backgammon.cube import MatchScore
    >>> may_double(CubeContext(match=MatchScore(5, (4, 2)))), may_double(CubeContext())
    (False, True)
    """
    if not cube.may_double:
        return False
    return cube.match is None or cube.match.score[0] + cube.value < cube.match.length


__all__ = ["Scale", "may_double", "weights_at"]
