"""The bot's answers as plain JSON values: the ranked plays of a roll (:func:`move_answer`),
a position's probabilities and equities (:func:`eval_answer`) and the cube decision
(:func:`cube_answer`).

One shape for every program that asks the engine from outside: the HTTP engine API
(``/api/v1/engine/...``) and the terminal's ``backgammon hint --json`` and ``backgammon eval
--json`` both print these dictionaries. Everything is seen from the player on roll, before
the roll for ``eval`` and ``cube``. Equities are in points per unit of the cube in money
play; in a match they are the match's, in the same money units (``cubeful`` adds the chance
of winning the match). A figure that does not apply (a double where the cube may not be
turned) is None, never NaN, which JSON cannot carry.

>>> from backgammon import Position
>>> from backgammon.bot.evaluator import FakeEvaluator
>>> bot = Bot(evaluator=FakeEvaluator())
>>> answer = move_answer(bot, Position.initial(), (3, 1), n=2)
>>> answer["dice"], len(answer["plays"]), sorted(answer["plays"][0])
([3, 1], 2, ['difference', 'equity', 'play', 'probabilities', 'rank'])
>>> sorted(eval_answer(bot, Position.initial()))
['cubeful', 'cubeless_equity', 'match', 'plies', 'position_id', 'probabilities']
>>> cube_answer(bot, Position.initial())["action"]
'no double'
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from ..cube import CubeContext
from ..dice import check_dice
from ..position import Position
from .bot import Bot
from .cube import CubeDecision
from .met import Scale
from .probabilities import Probabilities

#: The names of the five probabilities, in gnubg's order.
PROBABILITY_NAMES = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")


def probabilities_dict(probabilities: Probabilities) -> dict[str, float]:
    """The five probabilities by name (cumulative, gnubg's convention), and ``lose``.

    >>> probabilities_dict(Probabilities(0.6, 0.2, 0.05, 0.1, 0.01))["lose"]
    0.4
    """
    values = dict(zip(PROBABILITY_NAMES, probabilities.as_tuple(), strict=True))
    return {**values, "lose": round(probabilities.lose, 12)}


def match_dict(cube: CubeContext | None) -> dict[str, Any] | None:
    """The match score of ``cube`` (the player on roll's first), or None in money play."""
    if cube is None or cube.match is None:
        return None
    score = cube.match
    return {"length": score.length, "score": list(score.score), "crawford": score.crawford}


def move_answer(
    bot: Bot,
    position: Position,
    dice: Iterable[int],
    cube: CubeContext | None = None,
    n: int = 5,
) -> dict[str, Any]:
    """The ``n`` best plays of ``dice`` at the bot's depth, best first: each play in gnubg's
    notation with its rank (from 1), its equity after the play (the player's, the opponent
    then on roll), the difference from the best, and its probabilities. ``legal`` is how
    many distinct legal plays the roll has; with none, ``plays`` is empty."""
    rolled = check_dice(dice)
    hints = bot.hints(position, rolled, n, cube)
    best = hints[0].equity if hints else 0.0
    return {
        "position_id": position.id(),
        "dice": list(rolled),
        "plies": bot.plies,
        "match": match_dict(cube),
        "legal": len(position.legal_plays(rolled)),
        "plays": [
            {
                "rank": rank,
                "play": str(hint.play),
                "equity": hint.equity,
                "difference": hint.equity - best,
                "probabilities": probabilities_dict(hint.probabilities),
            }
            for rank, hint in enumerate(hints, 1)
        ],
    }


def eval_answer(
    bot: Bot, position: Position, cube: CubeContext | None = None
) -> dict[str, Any]:
    """The probabilities of the player on roll before the roll, at the bot's depth, their
    cubeless money equity, and the cubeful equity of the right cube action
    (:func:`cubeful_dict`)."""
    decision = bot.cube_decision(position, cube, plies=bot.plies)
    return {
        "position_id": position.id(),
        "plies": bot.plies,
        "match": match_dict(cube),
        "probabilities": probabilities_dict(decision.probabilities),
        "cubeless_equity": decision.probabilities.equity,
        "cubeful": cubeful_dict(decision.best, cube),
    }


def cube_answer(
    bot: Bot, position: Position, cube: CubeContext | None = None
) -> dict[str, Any]:
    """The cube decision of the player on roll before the roll: the action ("no double",
    "double", "too good"), the opponent's right response to a double ("take", "drop",
    "beaver"), the cubeful equities of no double, double/take and double/drop (None where
    the player may not double), the probabilities and the cube's efficiency."""
    decision = bot.cube_decision(position, cube, plies=bot.plies)
    return {
        "position_id": position.id(),
        "plies": bot.plies,
        "match": match_dict(cube),
        "cube": {
            "value": 1 if cube is None else cube.value,
            "owner": "centre" if cube is None else str(cube.owner),
            "may_double": CubeContext().may_double if cube is None else cube.may_double,
        },
        "action": str(decision.action),
        "response": str(decision.response),
        "equities": _equities(decision, cube),
        "probabilities": probabilities_dict(decision.probabilities),
        "cubeless_equity": decision.probabilities.equity,
        "efficiency": decision.efficiency,
    }


def cubeful_dict(value: float, cube: CubeContext | None) -> dict[str, float | None]:
    """A cubeful figure as both programs read it: ``equity`` in points per unit of the cube
    (in a match: the normalised equity, gnubg's EMG, of the chance of winning the match),
    and ``match_winning_chance`` in a match (None in money play).

    >>> cubeful_dict(0.25, None)
    {'equity': 0.25, 'match_winning_chance': None}
    """
    if math.isnan(value):
        return {"equity": None, "match_winning_chance": None}
    if cube is None or cube.match is None:
        return {"equity": value, "match_winning_chance": None}
    # gnubg's normalisation: winning a single game at this cube is +1, losing one -1.
    return {"equity": Scale.of(cube).emg(value), "match_winning_chance": value}


def _equities(
    decision: CubeDecision, cube: CubeContext | None
) -> dict[str, dict[str, float | None]]:
    return {
        "no_double": cubeful_dict(decision.no_double, cube),
        "double_take": cubeful_dict(decision.double_take, cube),
        "double_drop": cubeful_dict(decision.double_drop, cube),
    }


__all__ = [
    "PROBABILITY_NAMES",
    "cube_answer",
    "cubeful_dict",
    "eval_answer",
    "match_dict",
    "move_answer",
    "probabilities_dict",
]
