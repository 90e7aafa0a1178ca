"""The computer players of the games other than backgammon (:mod:`backgammon.games`), and
the matches that measure them.

* The baselines every player of these games is measured against: :class:`RandomPlayer` and
  :class:`HeuristicPlayer` (a weighted count of :func:`features`, weights :data:`WEIGHTS`).
* :func:`play_match`: seeded, duplicate-dice matches scored by each game's rules, with a
  standard error (:class:`MatchResult`); :func:`play_game` plays one.

The figures are in docs/lab/game-baselines.md, and ``bench/bot/games_baselines.py`` makes
them.
"""

from .match import DiceStream, GameScore, MatchResult, play_game, play_match, score_for_starter
from .players import (
    DEFAULT_WEIGHTS,
    WEIGHTS,
    Features,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    features,
)

__all__ = [
    "DEFAULT_WEIGHTS",
    "WEIGHTS",
    "DiceStream",
    "Features",
    "GameScore",
    "HeuristicPlayer",
    "MatchResult",
    "Player",
    "RandomPlayer",
    "features",
    "play_game",
    "play_match",
    "score_for_starter",
]
