"""The computer player: evaluation by networks it trained itself, and the tools to train them.

Phase 1 holds the parts below the searching bot: the input encoding (:mod:`.encoding`), the
numpy networks (:mod:`.network`), evaluators (:mod:`.evaluator`), Tesauro's pubeval as a
baseline (:mod:`.pubeval`), games between players (:mod:`.duel`) and self-play TD(lambda)
training (:mod:`.train`, the ``backgammon train`` command).
"""

from .duel import Chooser, DuelResult, GreedyPlayer, duel
from .evaluator import Evaluator, FakeEvaluator, NetworkEvaluator
from .network import Network
from .probabilities import Probabilities
from .pubeval import PubEval

__all__ = [
    "Chooser",
    "DuelResult",
    "Evaluator",
    "FakeEvaluator",
    "GreedyPlayer",
    "Network",
    "NetworkEvaluator",
    "Probabilities",
    "PubEval",
    "duel",
]
