"""Matches between two players of a game, with seeded dice: each dice sequence is played
twice, once with each player starting (duplicate style, which takes much of the dice's luck
out of the difference between the players).

A game is scored by the rules (``outcome``): the winner's points count for the winner and
against the loser, a draw (Plakoto's two pinned mothers) 0. A match reports the first
player's points a game and the standard error of that mean, taken over the pairs of games
that share their dice (so the error is of the duplicate estimate, and smaller than one over
single games would be).

>>> from backgammon.games import rules_for
>>> from backgammon.bot.games import HeuristicPlayer, RandomPlayer
>>> result = play_match(rules_for("long-nardy"), HeuristicPlayer(), RandomPlayer(), 4, seed=1)
>>> result.games, len(result.scores)
(4, 4)
"""

from __future__ import annotations

import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass

from ...dice import Dice
from ...games import Board, Ending, GameRules, Result, Stage
from ...position import Side
from .players import Player

#: No game of these lasts this many turns (tests/core/test_games_fuzz.py: at most ~380 pips
#: of dice a side); a game that does is a bug, and raises.
MOST_TURNS = 1000


class DiceStream:
    """The throws of one game, in order, from a seed: the same seed, the same throws."""

    def __init__(self, seed: str) -> None:
        self._rng = random.Random(seed)

    def throw(self) -> Dice:
        return self._rng.randint(1, 6), self._rng.randint(1, 6)

    def opening(self, doubles: bool) -> Dice:
        """The first turn's dice: a fresh throw, or the opening roll (no double: each player
        throws one die, and a tie is thrown again) in games without the opening reroll."""
        dice = self.throw()
        while not doubles and dice[0] == dice[1]:
            dice = self.throw()
        return dice


@dataclass(frozen=True)
class GameScore:
    """One game's end: the points for the player who started (negative when they lost),
    how it ended, and the turns it took (a turn's throws again included)."""

    points: int
    ending: Ending
    turns: int


def score_for_starter(result: Result, starter_on_roll: bool) -> int:
    """The points of ``result`` for the player who started the game, ``starter_on_roll``
    saying whether they are on roll on the board the result was read from.

    >>> score_for_starter(Result(Side.OPPONENT, Ending.GAMMON, 2), False)
    2
    >>> score_for_starter(Result(None, Ending.DRAW, 0), True)
    0
    """
    if result.winner is None:
        return 0
    starter_won = (result.winner is Side.ON_ROLL) == starter_on_roll
    return result.points if starter_won else -result.points


def play_game(rules: GameRules, first: Player, second: Player, dice: DiceStream,
              rngs: tuple[random.Random, random.Random]) -> GameScore:
    """One game from the start, ``first`` on roll first, to its end; the score for
    ``first``. ``rngs`` are the players' own (for random choices)."""
    players = (first, second)
    board: Board = rules.initial()
    mover = 0
    turns = 0
    throw = dice.opening(rules.opening_reroll)
    while turns < MOST_TURNS:
        turns += 1
        board = _turn(rules, players[mover], rngs[mover], board, throw, dice)
        mover = 1 - mover
        result = rules.outcome(board)
        if result is not None:
            return GameScore(score_for_starter(result, mover == 0), result.ending, turns)
        throw = dice.throw()
    raise RuntimeError(f"{rules.name}: a game passed {MOST_TURNS} turns without an end.")


def _turn(rules: GameRules, player: Player, rng: random.Random, board: Board, throw: Dice,
          dice: DiceStream) -> Board:
    """One whole turn of ``player`` (on roll on ``board``), its throws again and named
    doubles included; the board after it, the opponent on roll."""
    stage = Stage.THROW
    while True:
        plays = rules.legal_plays(board, throw)
        if not plays:
            return board.flip()
        play = player.choose(rules, plays, rng)
        if rules.outcome(play.result) is not None:
            return play.result
        stage_next = rules.next_stage(play, throw, stage)
        if stage_next is None:
            return play.result
        stage, board = stage_next, play.result.flip()
        if stage is Stage.NAMED_DOUBLE:
            die = player.name_double(rules, board, rng)
            throw = (die, die)
        else:
            throw = dice.throw()


@dataclass(frozen=True)
class MatchResult:
    """A match's figures: the first player's points in each game (in the order played:
    each dice sequence with the first player starting, then the second)."""

    game: str
    first: str
    second: str
    scores: tuple[int, ...]
    endings: Counter[str]
    turns: int

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def points_per_game(self) -> float:
        """The first player's mean points a game."""
        return sum(self.scores) / len(self.scores)

    @property
    def standard_error(self) -> float:
        """The standard error of :attr:`points_per_game`, over the pairs of games that
        share their dice (nan for a single pair)."""
        pairs = [(a + b) / 2 for a, b in zip(self.scores[::2], self.scores[1::2], strict=True)]
        if len(pairs) < 2:
            return math.nan
        return statistics.stdev(pairs) / math.sqrt(len(pairs))

    @property
    def wins(self) -> float:
        """The share of the games the first player won (a draw counts half)."""
        return sum(1 if s > 0 else 0.5 if s == 0 else 0 for s in self.scores) / len(self.scores)


def play_match(rules: GameRules, first: Player, second: Player, games: int,
               seed: int | str = 0) -> MatchResult:
    """``games`` games (an even number: each dice sequence twice, each player starting
    once) between ``first`` and ``second``; the figures for ``first``."""
    if games < 2 or games % 2:
        raise ValueError("A match plays each dice sequence twice: give an even number of "
                         "games, 2 or more.")
    scores: list[int] = []
    endings: Counter[str] = Counter()
    turns = 0
    for pair in range(games // 2):
        for seat in (0, 1):
            key = f"{rules.name}:{seed}:{pair}"
            rngs = (random.Random(f"{key}:{seat}:a"), random.Random(f"{key}:{seat}:b"))
            if seat == 0:
                score = play_game(rules, first, second, DiceStream(key), rngs)
                points = score.points
            else:
                score = play_game(rules, second, first, DiceStream(key), rngs[::-1])
                points = -score.points
            scores.append(points)
            endings[score.ending.value] += 1
            turns += score.turns
    return MatchResult(rules.name, first.name, second.name, tuple(scores), endings, turns)


