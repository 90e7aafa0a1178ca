"""Whether the player has a cube decision at all. (The stake a decision is judged at, the EMG
scale of a cube and score, is the bot's :class:`~backgammon.bot.Scale`.)"""

from __future__ import annotations

from ..cube import CubeContext


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


__all__ = ["may_double"]
