"""The bot's choices on a fixed set of questions stay what they were: plays and hints at several
scores and cubes (0 and 1 ply), cube decisions in money and match play, resignations offered
and answered.

The evaluator is a small network with seeded random weights (with the bearoff table), so that
the record does not change when the shipped networks do. ``tests/data/bot_choices.json`` is
what the code before the bot took one cube context (commit 3bfc83e) answered to the same
questions, asked with the API of the time. Only choices with a clear margin are kept, so
that rounding cannot flip them. Run this file
(``python tests/bot/test_choices_unchanged.py``) to write the record again after an intended change.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from backgammon import Position
from backgammon.bot import Bot, CubeContext, CubeOwner, MatchScore
from backgammon.bot.bearoff import BearoffEvaluator
from backgammon.bot.encoding import CONTACT_INPUTS, RACE_INPUTS
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.network import Network

RECORD = Path(__file__).parents[1] / "data" / "bot_choices.json"
#: The least margin (in equity or chance) a choice needs to be recorded.
MARGIN = 1e-3

#: Match scores of the play questions (length, score, Crawford game, cube), None for money.
SCORES: list[tuple[int, tuple[int, int], bool, int] | None] = [
    None, (7, (3, 5), False, 1), (5, (4, 2), True, 1), (5, (3, 4), False, 2), (3, (1, 1), False, 2)
]
#: The cubes of the cube questions.
CUBES = [
    CubeContext(),
    CubeContext(2, CubeOwner.ON_ROLL),
    CubeContext(2, CubeOwner.OPPONENT),
    CubeContext(beavers=True),
    CubeContext(match=MatchScore(7, (2, 4))),
    CubeContext(2, CubeOwner.ON_ROLL, MatchScore(7, (5, 5))),
    CubeContext(match=MatchScore(5, (3, 4))),
]
#: The cubes of the resignation questions (the player on roll's).
RESIGNATION_CUBES = [
    CubeContext(),
    CubeContext(2, CubeOwner.OPPONENT),
    CubeContext(match=MatchScore(5, (1, 4))),
    CubeContext(2, CubeOwner.ON_ROLL, MatchScore(11, (3, 8))),
]


def evaluator() -> BearoffEvaluator:
    contact = Network.create(CONTACT_INPUTS, 8, seed=1)
    race = Network.create(RACE_INPUTS, 8, seed=2)
    return BearoffEvaluator(NetworkEvaluator(contact, race))


def questions(count: int = 24, seed: int = 11) -> list[tuple[Position, tuple[int, int]]]:
    """Positions from seeded random games, each with a roll."""
    rng = random.Random(seed)
    found: list[tuple[Position, tuple[int, int]]] = []
    position = Position.initial()
    while len(found) < count:
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(plays).result if plays else position.flip()
        if position.is_game_over():
            position = Position.initial()
        elif rng.random() < 0.25:
            found.append((position, (rng.randint(1, 6), rng.randint(1, 6))))
    return found


def record() -> dict[str, list[Any]]:
    """The choices, with the margin of each above :data:`MARGIN`."""
    plays: list[Any] = []
    cube: list[Any] = []
    resignations: list[Any] = []
    ev = evaluator()
    for plies in (0, 1):
        bot = Bot(plies=plies, evaluator=ev)
        for position, dice in questions():
            for score in SCORES:
                context = None
                if score is not None:
                    context = CubeContext(score[3], match=MatchScore(*score[:3]))
                hints = bot.hints(position, dice, 2, context)
                best = bot.best_play(position, dice, context)
                clear = len(hints) < 2 or hints[0].equity - hints[1].equity >= MARGIN
                if best is not None and clear:
                    plays.append([plies, position.id(), list(dice), score, str(best)])
    bot = Bot(plies=0, evaluator=ev)
    for position, _ in questions():
        for index, context in enumerate(CUBES):
            d = bot.cube_decision(position, context)
            equities = (d.no_double, d.double_take, d.double_drop)
            if all(abs(a - b) >= MARGIN for a in equities for b in equities if a is not b):
                cube.append([position.id(), index, d.action.value, d.response.value])
        for index, context in enumerate(RESIGNATION_CUBES):
            answers = []
            for level in (1, 2, 3):
                for resigner_on_roll in (True, False):
                    a = bot.answer_resignation(position, level, resigner_on_roll, context)
                    clear = abs(a.accepting - a.playing_on) >= MARGIN
                    answers.append(a.accept if clear else None)
            offer = bot.resignation_to_offer(position, context)
            resignations.append([position.id(), index, None if offer is None else int(offer),
                                 answers])
    return {"plays": plays, "cube": cube, "resignations": resignations}


def test_the_bot_s_choices_are_unchanged() -> None:
    expected = json.loads(RECORD.read_text())
    found = json.loads(json.dumps(record()))
    for kind in ("plays", "cube", "resignations"):
        assert len(found[kind]) == len(expected[kind]) > 0
        for now, before in zip(found[kind], expected[kind], strict=True):
            assert now == before


if __name__ == "__main__":
    RECORD.write_text(json.dumps(record(), separators=(",", ":")) + "\n")
