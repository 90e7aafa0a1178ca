"""The stake a decision is judged at: the EMG scale of a cube and score (:class:`Scale`, the
match equity table's, from :mod:`backgammon.bot.met`, which rollouts and the engine's answers
report by too), the weights of the bot's checker play there, and whether the player has a cube
decision at all."""

from __future__ import annotations

from ..bot.met import Scale, play_weights
from ..bot.network import Array
from ..cube import CubeContext


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
