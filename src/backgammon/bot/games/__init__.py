"""The computer players of the games other than backgammon (:mod:`backgammon.games`), and
the matches that measure them.

* The baselines every player of these games is measured against: :class:`RandomPlayer` and
  :class:`HeuristicPlayer` (a weighted count of :func:`features`, weights :data:`WEIGHTS`).
* :func:`play_match`: seeded, duplicate-dice matches scored by each game's rules, with a
  standard error (:class:`MatchResult`); :func:`play_game` plays one.
* :func:`games_player`: each game's computer, its shipped TD network at a level
  (:mod:`.shipped`). Its training and the fast matches run in the compiled kernel
  (:mod:`.td`, :mod:`.compiled`).

The figures are in docs/lab/game-baselines.md, and ``bench/bot/games_baselines.py`` makes
them.
"""

from .answers import accepts_resignation, most_at_stake
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
from .shipped import games_player

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
    "accepts_resignation",
    "features",
    "games_player",
    "most_at_stake",
    "play_game",
    "play_match",
    "score_for_starter",
]
