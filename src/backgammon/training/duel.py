"""Cubeless money games between two players, to measure strength.

A player here is anything that picks one of a roll's legal plays (a :class:`Chooser`): the
network at 0-ply (:class:`GreedyPlayer`), pubeval, later the searching bot. :func:`duel` plays
pairs of games with the same dice, each player taking each seat once, which removes much of the
luck from the comparison.

>>> from backgammon.bot.evaluator import FakeEvaluator
>>> from backgammon.bot.pubeval import PubEval
>>> result = duel(GreedyPlayer(FakeEvaluator()), PubEval(), games=2, seed=1)
>>> result.games
2
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..bot.evaluator import Evaluator
from ..bot.search import best_plays
from ..moves import Play
from ..position import Position


class Chooser(Protocol):
    """Picks a play."""

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        """One of ``plays``: the legal plays (two or more) of one roll from ``position``."""
        ...


class GreedyPlayer:
    """Plays the play whose result is worst for the opponent, by an evaluator (0-ply)."""

    def __init__(self, evaluator: Evaluator) -> None:
        self.evaluator = evaluator

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        results = [play.result for play in plays]
        return plays[best_plays([results], self.evaluator.evaluate_batch)[0]]


def opening_roll(rng: random.Random) -> tuple[int, int]:
    """The first roll of a game: each player throws one die, again until they differ
    (RULES.md, Starting the game), and the first player plays both numbers."""
    while True:
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        if a != b:
            return a, b


def play_game(players: Sequence[Chooser], rng: random.Random) -> int:
    """One cubeless game, ``players[0]`` moving first; the points ``players[0]`` wins (1, 2 or
    3 for a single game, gammon or backgammon; negative when it loses)."""
    position = Position.initial()
    dice = opening_roll(rng)
    turn = 0
    while True:
        plays = position.legal_plays(dice)
        if not plays:
            position = position.flip()
        elif len(plays) == 1:
            position = plays[0].result
        else:
            position = players[turn].choose(position, plays).result
        outcome = position.outcome()
        if outcome is not None:
            # The player who just moved is the one not on roll now, and only they can win.
            points = int(outcome.kind)
            return points if turn == 0 else -points
        turn = 1 - turn
        dice = (rng.randint(1, 6), rng.randint(1, 6))


@dataclass(frozen=True)
class DuelResult:
    """Points per game won by the first player, with its standard error."""

    games: int
    points_per_game: float
    standard_error: float

    def __str__(self) -> str:
        return f"{self.points_per_game:+.3f} ± {self.standard_error:.3f} ppg in {self.games} games"


def duel(player: Chooser, opponent: Chooser, games: int, seed: int) -> DuelResult:
    """``games`` cubeless games (rounded up to an even number): each pair uses one dice
    sequence, first with ``player`` moving first, then with ``opponent`` moving first."""
    points: list[int] = []
    for pair in range((games + 1) // 2):
        dice_seed = seed * 1_000_003 + pair
        points.append(play_game((player, opponent), random.Random(dice_seed)))
        points.append(-play_game((opponent, player), random.Random(dice_seed)))
    mean = sum(points) / len(points)
    variance = sum((p - mean) ** 2 for p in points) / max(len(points) - 1, 1)
    return DuelResult(len(points), mean, math.sqrt(variance / len(points)))
