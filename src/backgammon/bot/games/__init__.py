"""The computer players of the games other than backgammon (:mod:`backgammon.games`), and
the matches that measure them.

* The baselines every player of these games is measured against: :class:`RandomPlayer` and
  :class:`HeuristicPlayer` (a weighted count of :func:`features`, weights :data:`WEIGHTS`).
* :func:`play_match`: seeded, duplicate-dice matches scored by each game's rules, with a
  standard error (:class:`MatchResult`); :func:`play_game` plays one.
* :func:`games_player`: each game's computer, its shipped TD network at a level
  (:mod:`.shipped`; the levels above ``advanced`` look one ply ahead). Its training and the
  fast matches run in the compiled kernel (:mod:`.td`, :mod:`.compiled`).
* :func:`judge_plays`, :func:`judge_doubles`: the engine's judgement of a decision, every
  play ranked with its equity in points and its loss against the best (:mod:`.judge`), for
  hints and analysis.

The figures are in docs/lab/game-baselines.md, and ``bench/bot/games_baselines.py`` makes
them.
"""

from .answers import accepts_resignation, most_at_stake
from .judge import JudgedDouble, JudgedPlay, equity_of, judge_doubles, judge_plays
from .match import DiceStream, GameScore, MatchResult, play_game, play_match, score_for_starter
from .players import (
    DEFAULT_WEIGHTS,
    WEIGHTS,
    Features,
    HeuristicPlayer,
    Player,
    RandomPlayer,
    features,
    held_points,
)
from .shipped import MOST_PLIES, games_player

__all__ = [
    "DEFAULT_WEIGHTS",
    "MOST_PLIES",
    "WEIGHTS",
    "DiceStream",
    "Features",
    "GameScore",
    "HeuristicPlayer",
    "JudgedDouble",
    "JudgedPlay",
    "MatchResult",
    "Player",
    "RandomPlayer",
    "accepts_resignation",
    "equity_of",
    "features",
    "games_player",
    "held_points",
    "judge_doubles",
    "judge_plays",
    "most_at_stake",
    "play_game",
    "play_match",
    "score_for_starter",
]
