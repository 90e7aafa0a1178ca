"""Matches of the other games played in the compiled kernel: the same duplicate-dice
matches as :func:`~backgammon.bot.games.play_match`, thousands of games a minute.

The players are the kernel's copies of :class:`~backgammon.bot.games.TDPlayer` (without
noise; at 0-ply or one ply ahead), :class:`~backgammon.bot.games.HeuristicPlayer` and
:class:`~backgammon.bot.games.RandomPlayer` (:mod:`backgammon.bot.kernel.duels`; the
tests hold the network's and the heuristic's choices to the Python players'). The dice
and the random player's choices come from the kernel's generators, so a compiled match
does not replay a Python one game for game; its figures estimate the same thing.

>>> from backgammon.games import rules_for
>>> from backgammon.bot.games import HeuristicPlayer, RandomPlayer
>>> result = compiled_match(rules_for("fevga"), HeuristicPlayer(), RandomPlayer(), 20, seed=1)
>>> result.games, result.points_per_game > 0
(20, True)
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from numpy.typing import NDArray

from ...games import GameRules
from ..kernel import boards, duels, players
from .match import MatchResult
from .players import DEFAULT_WEIGHTS, WEIGHTS, HeuristicPlayer, Player, RandomPlayer
from .td import TDPlayer

_NO_NETWORK = (np.zeros((players.INPUTS, 1)), np.zeros(1), np.zeros(1), np.zeros(1))
_ENDINGS = {0: "draw", 1: "single", 2: "gammon", 3: "backgammon"}


def _kind(rules: GameRules, player: Player) -> tuple[int, tuple[NDArray[np.float64], ...],
                                                     NDArray[np.float64]]:
    """The kernel's kind of ``player``, its network's arrays and its heuristic weights."""
    weights = np.zeros(len(duels.FEATURES))
    if isinstance(player, TDPlayer):
        if player.noise:
            raise ValueError("The kernel plays the network without noise.")
        net = player.network
        kind = duels.LOOKAHEAD if player.plies else duels.NETWORK
        return kind, (net.w1, net.b1, net.w2, np.array([net.b2])), weights
    if isinstance(player, HeuristicPlayer):
        chosen = player.weights if player.weights is not None else \
            WEIGHTS.get(rules.name, DEFAULT_WEIGHTS)
        weights = np.array([float(chosen.get(name, 0)) for name in duels.FEATURES])
        return duels.HEURISTIC, _NO_NETWORK, weights
    if isinstance(player, RandomPlayer):
        return duels.RANDOM, _NO_NETWORK, weights
    raise ValueError(f"The kernel does not play {type(player).__name__}.")


def compiled_match(rules: GameRules, first: Player, second: Player, games: int,
                   seed: int = 0) -> MatchResult:
    """``games`` games (an even number: each dice sequence twice, each player starting
    once) between ``first`` and ``second`` in the kernel; the figures for ``first``. Only
    one player may be a heuristic (the kernel takes one set of weights)."""
    if games < 2 or games % 2:
        raise ValueError("A match plays each dice sequence twice: give an even number of "
                         "games, 2 or more.")
    kind1, net1, weights1 = _kind(rules, first)
    kind2, net2, weights2 = _kind(rules, second)
    if kind1 == kind2 == duels.HEURISTIC and not np.array_equal(weights1, weights2):
        raise ValueError("The kernel plays one heuristic's weights a match.")
    weights = weights1 if kind1 == duels.HEURISTIC else weights2
    points, throws, ends = duels.duel(
        boards.game_code(rules.name), boards.board_array(rules.initial()),
        np.array([kind1, kind2]), (*net1, *net2), weights, games // 2, seed)
    endings = Counter("mother" if end == 4 else _ENDINGS[int(end)] for end in ends)
    return MatchResult(rules.name, first.name, second.name, tuple(int(p) for p in points),
                       endings, int(throws.sum()))
