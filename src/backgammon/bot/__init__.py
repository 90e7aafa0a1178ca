"""The computer player: evaluation by networks it trained itself, search, and the cube.

This package's face is the list below; every other layer imports the bot from here alone (the
layers test checks it), so that what lies behind (the compiled kernel, the encodings, the
search's filters) can change without touching a caller.

* :class:`Bot` at its :class:`Level` (:data:`LEVELS`) answers every question of a game: the
  best play and :class:`Hint` lists, the cube (:class:`CubeDecision`, :class:`CubeAction`,
  :class:`CubeResponse`), resignations (:class:`ResignationAnswer`), and the equity of plays.
  Every question that depends on the stake takes the core's
  :class:`~backgammon.cube.CubeContext` (re-exported with :class:`~backgammon.cube.CubeOwner`
  and :class:`~backgammon.cube.MatchScore`).
* Evaluators give positions their :class:`Probabilities`: the shipped networks
  (:class:`NetworkEvaluator` with the exact bear-offs of :class:`BearoffEvaluator`), Tesauro's
  :class:`PubEval` as a baseline, a :class:`FakeEvaluator` for fast tests.
* Bots playing games through the game itself: :func:`decide`, :func:`act`,
  :func:`best_play`, :func:`play_out`, :func:`play_match`, and the questions they answer
  (:class:`CubeQuestion` at a :class:`CubeMoment`, :class:`ResignationQuestion`).
* :func:`rollout` (:class:`RolloutResult`), and the engine API's answers as JSON
  (:func:`move_answer`, :func:`eval_answer`, :func:`cube_answer`).
* The stake: match equities (:class:`MatchEquityTable`, :func:`match_equity`,
  :func:`equity_after`), equity normalised to money (:class:`Scale`), the weights of
  match-aware checker play (:func:`weights_at`) and the outputs' arithmetic
  (:func:`equities`, :func:`flip_outputs`).

Training it (self-play, rollout-labelled generations, refits, duels between players, the
truth set) is :mod:`backgammon.training`'s, which only the command line imports.

>>> from backgammon import Position
>>> str(Bot().best_play(Position.initial(), (6, 5)))  # the shipped networks, at 0-ply
'24/13'
"""

from ..cube import CubeContext, CubeOwner, MatchScore
from .answers import PROBABILITY_NAMES, cube_answer, eval_answer, move_answer
from .bearoff import BearoffEvaluator, BearoffTable, build_table
from .bot import LEVELS, MAX_PLIES, Bot, Hint, Level, ResignationAnswer
from .cube import CubeAction, CubeDecision, CubeResponse
from .cube_points import cube_points
from .evaluator import Evaluator, FakeEvaluator, NetworkEvaluator
from .met import MatchEquityTable, Scale, equity_after, match_equity, weights_at
from .network import equities, flip_outputs
from .player import (
    CubeMoment,
    CubeQuestion,
    ResignationQuestion,
    act,
    best_play,
    decide,
    play_match,
    play_out,
)
from .probabilities import Probabilities
from .pubeval import PubEval
from .rollout import RolloutError, RolloutResult, RolloutRun, rollout
from .search import Ranked
from .shipped import shipped_evaluator

__all__ = [
    "LEVELS",
    "MAX_PLIES",
    "PROBABILITY_NAMES",
    "BearoffEvaluator",
    "BearoffTable",
    "Bot",
    "CubeAction",
    "CubeContext",
    "CubeDecision",
    "CubeMoment",
    "CubeOwner",
    "CubeQuestion",
    "CubeResponse",
    "Evaluator",
    "FakeEvaluator",
    "Hint",
    "Level",
    "MatchEquityTable",
    "MatchScore",
    "NetworkEvaluator",
    "Probabilities",
    "PubEval",
    "Ranked",
    "ResignationAnswer",
    "ResignationQuestion",
    "RolloutError",
    "RolloutResult",
    "RolloutRun",
    "Scale",
    "act",
    "best_play",
    "build_table",
    "cube_answer",
    "cube_points",
    "decide",
    "equities",
    "equity_after",
    "eval_answer",
    "flip_outputs",
    "match_equity",
    "move_answer",
    "play_match",
    "play_out",
    "rollout",
    "shipped_evaluator",
    "weights_at",
]
