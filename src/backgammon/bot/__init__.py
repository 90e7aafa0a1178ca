"""The computer player: evaluation by networks it trained itself, search, and the cube.

* Evaluation: the input encoding (:mod:`.encoding`), the numpy networks (:mod:`.network`),
  evaluators (:mod:`.evaluator`), exact bear-offs (:mod:`.bearoff`) and the shipped weights
  (:mod:`.shipped`).
* Play: n-ply search with move filters (:mod:`.search`) and the :class:`Bot` with its levels
  (:mod:`.bot`); cube decisions (:mod:`.cube`) with match equities (:mod:`.met`), every
  question that depends on the stake asked with the core's :class:`~backgammon.cube.CubeContext`
  (re-exported here with :class:`~backgammon.cube.CubeOwner` and
  :class:`~backgammon.cube.MatchScore`); bots playing games through the engine
  (:mod:`.player`, :mod:`.selfplay`); Tesauro's pubeval as a baseline (:mod:`.pubeval`).

Training it (self-play, rollout-labelled generations, refits, duels between players, the
truth set) is :mod:`backgammon.training`'s, which only the command line imports.
"""

from ..cube import CubeContext, CubeOwner, MatchScore
from .bearoff import BearoffEvaluator, BearoffTable
from .bot import Bot, Hint, Level, ResignationAnswer
from .cube import CubeAction, CubeDecision, CubeResponse
from .evaluator import Evaluator, FakeEvaluator, NetworkEvaluator
from .met import MatchEquityTable
from .network import Network
from .player import act, decide, play_match, play_out
from .probabilities import Probabilities
from .pubeval import PubEval
from .search import MoveFilter, Search

__all__ = [
    "BearoffEvaluator",
    "BearoffTable",
    "Bot",
    "CubeAction",
    "CubeContext",
    "CubeDecision",
    "CubeOwner",
    "CubeResponse",
    "Evaluator",
    "FakeEvaluator",
    "Hint",
    "Level",
    "MatchEquityTable",
    "MatchScore",
    "MoveFilter",
    "Network",
    "NetworkEvaluator",
    "Probabilities",
    "PubEval",
    "ResignationAnswer",
    "Search",
    "act",
    "decide",
    "play_match",
    "play_out",
]
