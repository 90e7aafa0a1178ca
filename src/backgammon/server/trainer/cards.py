"""What a card of the trainer holds, and how an answer to it is judged (pure, no database).

A checker card's answer may also be any legal play of its roll, as made on the board: one
that reaches the position of a play weighed is that play; another is judged against the best
by the bot at once (:data:`Evaluate`), since the analysis did not weigh it.

A card is one decision of an analysed match (:func:`backgammon.analysis.report.to_json`'s
``decisions``) that its player got wrong by at least a mark (gnubg's "doubtful", "bad" or
"very bad"): a checker play, a cube action (double or not), or the answer to a double (take
or drop). Resignations are not cards. The choices a player picks from are the plays the
analysis weighed (a checker card, the played one among them), or the cube's two actions; an
answer's loss is the best choice's equity less the answer's, in EMG, from the analysis's own
figures, so that judging an answer needs no engine.

>>> decision = {"kind": "take", "player": 1, "mark": "bad", "equity_loss": 0.1, "played":
...     "drop", "best": "take", "alternatives": [{"text": "take", "equity": -0.6},
...     {"text": "drop", "equity": -0.7}]}
>>> mistake(decision, 1, Mark.DOUBTFUL), mistake(decision, 0, Mark.DOUBTFUL)
(True, False)
>>> mistake(decision, 1, Mark.VERY_BAD)
False
>>> judge("take", [{"text": "take", "equity": -0.6}, {"text": "drop", "equity": -0.7}],
...       "take", "drop")
Judged(right=False, best='take', loss=0.1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ...analysis.decisions import SKILL_THRESHOLDS, Mark
from ...errors import BackgammonError
from ...position import Position

#: The equities (EMG, for the mover, at the cube of gnubg's Match ID given) of plays'
#: results: how a play the analysis did not weigh is judged against the best.
Evaluate = Callable[[str, list[Position]], list[float]]

#: The decisions that make cards, and the answers each offers (a checker card's: its plays).
KINDS = ("checker", "cube", "take")
CUBE_ANSWERS = {"cube": ("no double", "double"), "take": ("take", "drop")}
#: The least mark a decision needs to join a deck unless the player asks otherwise.
DEFAULT_LEAST = Mark.DOUBTFUL
#: How close two equities are to count as one (the analysis's own rounding).
_SAME = 1e-9


class Judged(NamedTuple):
    """An answer judged: whether it was the best choice, which that is, and what the answer
    lost against it (EMG, 0 or more)."""

    right: bool
    best: str
    loss: float


class NotAChoiceError(BackgammonError):
    """An answer that is none of the card's choices."""


def least_loss(least: Mark) -> float:
    """The loss (EMG) above which a decision earns ``least``'s mark or a worse one.

    >>> least_loss(Mark.DOUBTFUL), least_loss(Mark.VERY_BAD)
    (0.04, 0.16)
    """
    return dict(SKILL_THRESHOLDS)[least]


def mistake(decision: dict[str, Any], seat: int, least: Mark) -> bool:
    """Whether the report's ``decision`` is ``seat``'s, of a kind that makes a card, and
    marked ``least`` or worse."""
    return (
        decision.get("player") == seat
        and decision.get("kind") in KINDS
        and decision.get("mark") is not None
        and decision.get("equity_loss", 0.0) > least_loss(least)
    )


def choices(kind: str, weighed: Sequence[dict[str, Any]]) -> list[str]:
    """What a player may answer: the cube's two actions, or the plays weighed in notation's
    order (so that their order gives nothing away).

    >>> choices("checker", [{"text": "24/18 13/11", "equity": 0.1},
    ...                     {"text": "13/7 13/11", "equity": 0.0}])
    ['13/7 13/11', '24/18 13/11']
    >>> choices("cube", [])
    ['no double', 'double']
    """
    if kind in CUBE_ANSWERS:
        return list(CUBE_ANSWERS[kind])
    return sorted(choice["text"] for choice in weighed)


def _equities(kind: str, weighed: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Each answer's equity for the player deciding: a double is worth the worse of its take
    and its drop (the opponent answers it as suits them)."""
    values = {choice["text"]: float(choice["equity"]) for choice in weighed}
    if kind == "cube":
        return {"no double": values["no double"],
                "double": min(values["double, take"], values["double, drop"])}
    return values


def judge(kind: str, weighed: Sequence[dict[str, Any]], best: str, answer: str) -> Judged:
    """``answer`` to a card of ``kind`` whose choices were ``weighed`` (the analysis's
    alternatives) and whose ``best`` choice is the analysis's (its plays are judged at
    several depths, so the highest figure is not always the deepest judgement's): right
    when it is the best or worth as much. NotAChoiceError when it is none of the choices."""
    if answer not in choices(kind, weighed):
        raise NotAChoiceError("That answer is none of the card's choices.")
    equities = _equities(kind, weighed)
    loss = max(equities[best] - equities[answer], 0.0)
    return Judged(answer == best or loss <= _SAME, best, round(loss, 6))


def judge_play(
    card: dict[str, Any], answer: str, evaluate: Evaluate
) -> tuple[str, Judged]:
    """``answer`` to ``card`` (its ``kind``, ``weighed`` choices, ``best``, ``position_id``,
    ``match_id`` and ``dice``), where a checker card's answer may be any legal play of its
    roll: the answer as the card names it (a weighed play's notation, or the play's own) and
    its judgement. NotAChoiceError when it is none of the choices, nor a legal play."""
    kind, weighed, best = card["kind"], card["weighed"], card["best"]
    if kind != "checker" or answer in choices(kind, weighed):
        return answer, judge(kind, weighed, best, answer)
    position = Position.from_id(card["position_id"])
    dice = tuple(card["dice"])
    try:
        made = position.parse_play(answer, dice)
    except BackgammonError:
        raise NotAChoiceError(
            "That answer is none of the card's choices, nor a legal play of its roll."
        ) from None
    for choice in weighed:
        if position.parse_play(choice["text"], dice).result == made.result:
            return choice["text"], judge(kind, weighed, best, choice["text"])
    best_play = position.parse_play(best, dice)
    values = evaluate(card["match_id"], [best_play.result, made.result])
    return str(made), Judged(False, best, round(max(values[0] - values[1], 0.0), 6))
