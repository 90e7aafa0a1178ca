"""Hints that say why: short reasons for the bot's choice of a play, a cube action or an
answer to a resignation, from the features of the positions and the figures the bot measured,
and said in each language of the game.

A :class:`Reason` is a code and its figures (``Reason("makes_point", point=5)``,
``Reason("take", wins=0.31, needed=0.25)``); :func:`say` puts it in words from the language's
template. The reasons come from what the positions show (:mod:`.features`: points made, blots
and the opponent's exact shots at them, primes, anchors, back checkers, the race) and from
the bot's own figures: the chances after each play, the cube's take, doubling and
too-good points on its cube lines (:mod:`backgammon.bot.cube_points`), the values of a
resignation.

* :func:`hints_reasons`: each ranked play's reasons, the best against the next best, the
  others against the best (:mod:`.plays`);
* :func:`cube_reasons`: the cube decision's, for the player deciding (:mod:`.decisions`);
* :func:`resignation_reasons`: the answer to an offer to resign;
* :func:`board_hints_reasons`: the ranked plays' reasons in the other games, from the
  counts of their heuristic and the equities their engine judged (:mod:`.board_plays`).

>>> from backgammon import Position
>>> from backgammon.bot.bot import Hint
>>> from backgammon.bot.probabilities import Probabilities
>>> start = Position.initial()
>>> chances = Probabilities(0.52, 0.15, 0.01, 0.12, 0.01)
>>> best = Hint(start.parse_play("8/5 6/5", (3, 1)), chances, 0.17)
>>> other = Hint(start.parse_play("24/21 6/5", (3, 1)), chances, 0.0)
>>> for reason in say_all(hints_reasons([best, other])[0], "en"):
...     print(reason)
makes your 5-point
safe: no blot can be hit
fewer rolls hit you than after 24/21 6/5: 0 in 36 against 36
"""

from .board_plays import board_hints_reasons, board_play_reasons, what_board_play_does
from .decisions import answerer_chances, cube_reasons, resignation_reasons
from .features import Features, shots
from .plays import hints_reasons, play_reasons, what_it_does
from .reason import FIGURES, Code, Reason, UnknownReasonError
from .render import LANGUAGES, UnknownLanguageError, say, say_all

__all__ = [
    "FIGURES",
    "LANGUAGES",
    "Code",
    "Features",
    "Reason",
    "UnknownLanguageError",
    "UnknownReasonError",
    "answerer_chances",
    "board_hints_reasons",
    "board_play_reasons",
    "cube_reasons",
    "hints_reasons",
    "play_reasons",
    "resignation_reasons",
    "say",
    "say_all",
    "shots",
    "what_board_play_does",
    "what_it_does",
]
