"""Bot-against-bot games through the game itself, for ``backgammon selfplay``.

>>> from backgammon.bot import Bot, FakeEvaluator
>>> match = selfplay(games=2, seed=1, bots=(Bot(evaluator=FakeEvaluator()),) * 2)
>>> sum(game.result is not None for game in match.games)
2
"""

from __future__ import annotations

from collections.abc import Sequence

from ..bot import Bot, play_match
from ..dice import SeededDice
from ..game.match import Match


def selfplay(
    games: int = 1,
    match_length: int = 0,
    seed: int | None = None,
    bots: Sequence[Bot] | None = None,
    names: tuple[str, str] = ("Bot 0", "Bot 1"),
) -> Match:
    """A money session of ``games`` games, or (``match_length`` > 0) one match to that many
    points, between ``bots`` (two seats; by default the shipped bot at 0-ply in both) with
    dice seeded by ``seed``."""
    players = tuple(bots) if bots is not None else (Bot(seed=seed),) * 2
    if len(players) != 2:
        raise ValueError("Self-play needs a bot for each of the two seats.")
    match = Match(match_length, dice=SeededDice(seed), players=names)
    play_match(match, players, None if match_length else games)
    return match
