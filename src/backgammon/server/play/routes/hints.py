"""Hints: the computer's advice to a person whose turn it is, on a play or on the cube.

What the bot is asked is read from the match at once, on the event loop, as plain values
(the position, the dice, the :class:`~backgammon.cube.CubeContext`), so the match may go on
while the bot thinks; the thinking is done in a bounded pool of threads
(:class:`~backgammon.server.http.guards.BoundedPool`), under the lock of the computer's shared bots
(:func:`~backgammon.server.play.computer.consult`). The answer carries the version it was asked
at, so a page can drop one that the game has overtaken.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status

from ....analysis.reasons import (
    answerer_chances,
    cube_reasons,
    hints_reasons,
    resignation_reasons,
    say_all,
)
from ....bot import (
    Bot,
    CubeMoment,
    CubeQuestion,
    Level,
    Probabilities,
    ResignationQuestion,
)
from ....game import Game, Phase
from ....game.board_game import BoardGame
from ....games import TITLES
from ....moves import Step
from ...http.guards import BoundedPool, rate_limited
from .. import computer
from ..board_hints import board_question
from ..deps import Held, Live, check_holds, no_engine_help
from ..hint_schemas import Chances, CubeHint, HintStepView, HintView, PlayHint, ResignationHint
from ..live import LiveMatch
from ..views import step_view

router = APIRouter(prefix="/api/matches", tags=["hints"])

#: The strength hints think at: 2-ply, about half a second a move hint on this project's
#: 2-core machine (its slowest positions near one), a tenth of that a cube decision.
LEVEL = Level.STRONGEST
#: The most plays a move hint ranks.
PLAYS = 5

View = Annotated[
    int, Query(ge=0, le=1, description="the seat whose side the board places are drawn from")
]
Lang = Annotated[
    Literal["en", "vi", "mt", "fa", "km"],
    Query(description="the language of the reasons (the page's)"),
]
_Question = Callable[[Bot], HintView]


@router.get(
    "/{match_id}/hint",
    response_model=HintView,
    dependencies=[Depends(rate_limited("hint"))],
    responses={
        401: {"description": "no seat token"},
        403: {"description": "the token does not hold the seat the game waits for, or the "
              "match is online between people and not over (no engine help then)"},
        404: {"description": "no such match"},
        409: {"description": "no hint now: the game waits for nobody, the computer, or "
              "a decision hints do not cover"},
        429: {"description": "too many hints asked from this address"},
        503: {"description": "the threads that think out hints are all busy"},
    },
)
async def get_hint(
    request: Request, live: Live, held: Held, view: View = 0, lang: Lang = "en"
) -> HintView:
    """The computer's advice to the seat whose turn it is (a person's): the best plays of
    its roll (up to five), or its cube decision when it may double or must answer a
    double, each with its reasons in words, in ``lang``; in the other games the plays by
    their equity in points, or after an Acey-deucey 1-2 the doubles to name. The bot
    thinks for up to about a second, in a pool of a few threads. Only the token of that
    seat gets it (``Authorization: Bearer <token>``)."""
    pool: BoundedPool = request.app.state.hint_pool
    seat = _seat_asking(live, held)
    game = live.match.game
    if isinstance(game, BoardGame):
        title = TITLES.get(game.game.name, game.game.name)
        judge = board_question(game, title, seat, view, live.version, lang)
        return await pool.run(judge)
    question = _question(live, seat, view, lang)
    return await pool.run(computer.consult, LEVEL, question)


def _seat_asking(live: LiveMatch, held: frozenset[int]) -> int:
    """The seat the game waits for, a person's whose token asks; 409 when there is nothing
    to ask, 403 when the seat is not one of the ``held`` or the engine may not help."""
    match, game = live.match, live.match.game
    no_engine_help(live, "Hints", other_games=True)
    if match.is_over:
        raise _refuse("The match is over.")
    seat = game.player_to_act
    if game.phase is Phase.OVER:
        raise _refuse("The game is over.")
    if seat is None:
        raise _refuse("The game waits for the opening roll, which needs no hint.")
    if live.seats[seat].kind == "computer":
        raise _refuse(f"The game waits for the computer (seat {seat}), which needs no hint.")
    check_holds(held, seat)
    return seat


def _question(live: LiveMatch, seat: int, view: int, lang: str) -> _Question:
    """What to ask backgammon's bot now, read from the match."""
    game = live.match.game
    assert isinstance(game, Game)  # the other games' are judged apart (get_hint)
    version = live.version
    if game.phase in (Phase.MOVE, Phase.CONFIRM):
        return move_question(game, seat, view, version, lang)
    if game.phase in (Phase.ROLL, Phase.CUBE):
        question = CubeQuestion.of(game, seat)
        if question is None:
            raise _refuse(
                f"Seat {seat} may not double now, so there is no cube decision; "
                "ask again after the roll for the play."
            )
        return cube_question(question, seat, version, lang)
    offer = ResignationQuestion.of(game, seat)
    assert offer is not None  # what is left: an offer to resign waits for the seat's answer
    return _resignation_question(offer, seat, version, lang)


def _refuse(sentence: str) -> HTTPException:
    return HTTPException(status.HTTP_409_CONFLICT, sentence)


def move_question(game: Game, seat: int, view: int, version: int, lang: str) -> _Question:
    assert game.dice is not None and game.turn is not None
    position, dice, turn, cube = game.position, game.dice, game.turn, game.cube_context(seat)
    made = [step_view(a, b, seat, view) for a, b in turn.made]
    # How to finish each play that the steps made still lead to (read now: the turn may
    # change while the bot thinks).
    ways = turn.completions() if turn.made else None

    def place(step: Step) -> HintStepView:
        seen = step_view(step.from_point, step.to_point, seat, view)
        return HintStepView(**seen.model_dump(), hit=step.hit)

    def ask(bot: Bot) -> HintView:
        hints = bot.hints(position, dice, PLAYS, cube)
        best = hints[0].equity if hints else 0.0
        plays = []
        for hint, reasons in zip(hints, hints_reasons(hints), strict=True):
            steps = [place(step) for step in hint.play.steps]
            rest = ways.get(hint.play.result) if ways is not None else hint.play.steps
            plays.append(
                PlayHint(
                    play=str(hint.play),
                    equity=hint.equity,
                    difference=hint.equity - best,
                    chances=_chances(hint.probabilities),
                    steps=steps,
                    remaining=None if rest is None else [place(step) for step in rest],
                    reasons=say_all(reasons, lang),
                )
            )
        return HintView(
            version=version,
            seat=seat,
            kind="move",
            level=LEVEL,
            dice=list(dice),
            from_turn_start=bool(made),
            made=made,
            plays=plays,
            cube=None,
            resignation=None,
        )

    return ask


def cube_question(question: CubeQuestion, seat: int, version: int, lang: str) -> _Question:
    """The cube decision ``seat`` faces (:class:`~backgammon.bot.player.CubeQuestion`)."""
    def ask(bot: Bot) -> HintView:
        decision = question.decide(bot)
        return _decision_view(
            version,
            seat,
            cube=CubeHint(
                doubler=question.doubler,
                action=decision.action.value,
                response=decision.response.value,
                recommended=question.advice(decision).value,  # type: ignore[arg-type]
                beavered=question.moment is CubeMoment.BEAVER_ANSWER,
                no_double=_finite(decision.no_double),
                double_take=_finite(decision.double_take),
                double_pass=_finite(decision.double_drop),
                unit="cube" if question.cube.money else "match",
                chances=_chances(decision.probabilities),
                reasons=say_all(cube_reasons(question, decision), lang),
            ),
        )

    return ask


def _resignation_question(
    offer: ResignationQuestion, seat: int, version: int, lang: str
) -> _Question:
    """Whether ``seat`` should accept the offer to resign (:class:`ResignationQuestion`)."""

    def ask(bot: Bot) -> HintView:
        answer = offer.decide(bot)
        # The evaluation the answer was made on, from the bot's cache.
        chances = answerer_chances(offer, bot.evaluate(offer.position))
        return _decision_view(
            version,
            seat,
            resignation=ResignationHint(
                by=1 - seat,
                level=int(offer.level),
                accept=answer.accept,
                accepting=answer.accepting,
                playing_on=answer.playing_on,
                unit="points" if offer.cube.money else "match",
                reasons=say_all(resignation_reasons(offer, answer, chances), lang),
            ),
        )

    return ask


def _decision_view(
    version: int,
    seat: int,
    cube: CubeHint | None = None,
    resignation: ResignationHint | None = None,
) -> HintView:
    """A hint on a decision without dice: the cube's, or the answer to a resignation."""
    return HintView(
        version=version,
        seat=seat,
        kind="cube" if cube is not None else "resign",
        level=LEVEL,
        dice=None,
        from_turn_start=False,
        made=[],
        plays=[],
        cube=cube,
        resignation=resignation,
    )


def _finite(value: float) -> float | None:
    """An equity as JSON can hold it: None where the decision has none (nan)."""
    return value if math.isfinite(value) else None


def _chances(probabilities: Probabilities) -> Chances:
    return Chances(
        win=probabilities.win,
        win_gammon=probabilities.win_gammon,
        win_backgammon=probabilities.win_backgammon,
        lose_gammon=probabilities.lose_gammon,
        lose_backgammon=probabilities.lose_backgammon,
    )

