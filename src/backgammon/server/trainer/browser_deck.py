"""The deck a player without an account keeps in their browser: the server gives the
mistakes of a finished, analysed match to the seats the page holds, and judges an answer and
reschedules its card without keeping either (the page keeps them, in ``localStorage``), so
that judging and scheduling have one implementation, the signed-in decks'.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, status
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.concurrency import run_in_threadpool

from ...analysis.decisions import Mark
from ...analysis.reasons import say_all
from ...errors import BackgammonError
from ..analysis.analyses import Analyses
from ..db import now, utc
from ..http.guards import BoundedPool, rate_limited
from ..play import computer
from ..play.deps import Held, Live
from ..play.routes.hints import Lang
from ..play.schemas import Ascii
from .cards import Judged, NotAChoiceError, choices, judge_play, mistake
from .dealing import REASONS_LEVEL, equities
from .deck import new_schedule, reschedule
from .routes import Least
from .why import from_json, reasons_of

router = APIRouter(tags=["trainer"])

Text = Annotated[Ascii, Field(min_length=1, max_length=60)]
Die = Annotated[StrictInt, Field(ge=1, le=6)]


class Weighed(BaseModel):
    """A choice the analysis weighed, and its equity (EMG) for the player deciding."""

    model_config = ConfigDict(extra="forbid")

    text: Text
    equity: float = Field(ge=-10, le=10)


class LooseCard(BaseModel):
    """A card kept by the page: the decision as the analysis judged it, the choices offered
    (``choices``, in an order that gives nothing away) and its schedule (FSRS's card)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["checker", "cube", "take"]
    game: StrictInt = Field(ge=1, le=10_000)
    move_number: StrictInt = Field(ge=1, le=10_000)
    position_id: Annotated[Ascii, Field(min_length=14, max_length=14)]
    match_id: Annotated[Ascii, Field(min_length=12, max_length=12)]
    dice: tuple[Die, Die] | None
    played: Text
    best: Text
    equity_loss: float = Field(ge=0, le=10)
    mark: Literal["doubtful", "bad", "very bad"]
    weighed: list[Weighed] = Field(min_length=2, max_length=8)
    choices: list[Text] = Field(default_factory=list, max_length=8)
    schedule: dict[str, Any] = Field(default_factory=dict)
    due: str = ""


class LooseCards(BaseModel):
    cards: list[LooseCard]


class Review(BaseModel):
    """A card kept by the page, and the answer to it (as ``POST /api/trainer/cards/{id}/
    answer`` takes one)."""

    model_config = ConfigDict(extra="forbid")

    card: LooseCard
    answer: Text
    rating: Literal["hard", "good", "easy"] | None = None


class ReviewView(BaseModel):
    """The answer judged, the reasons in ``lang``, and the card's new schedule."""

    right: bool
    answer: str
    best: str
    played: str
    loss: float
    played_loss: float
    reasons: list[str]
    schedule: dict[str, Any]
    due: str


@router.get(
    "/api/matches/{match_id}/mistakes",
    response_model=LooseCards,
    responses={401: {"description": "no seat token"},
               403: {"description": "the token holds no seat of the match"},
               404: {}, 409: {"description": "the match is not over, or not analysed"}},
)
async def mistakes(request: Request, live: Live, held: Held, least: Least = "doubtful"
                   ) -> LooseCards:
    """The mistakes (marked ``least`` or worse) of the seats the token holds in the
    finished, analysed match, as cards for the page to keep, each new and due now."""
    if not live.match.is_over:
        raise HTTPException(status.HTTP_409_CONFLICT,
                            "The match is not over: its mistakes are for after it.")
    analyses: Analyses = request.app.state.analyses
    report = await run_in_threadpool(analyses.finished, live.id, live.version)
    if report is None:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "The match has no finished analysis: analyse it first."
        )
    stamp = now()
    return LooseCards(cards=[
        LooseCard(
            kind=d["kind"], game=d["game"], move_number=d["move_number"],
            position_id=d["position_id"], match_id=d["match_id"],
            dice=d["dice"], played=d["played"], best=d["best"],
            equity_loss=d["equity_loss"], mark=d["mark"],
            weighed=[Weighed(text=a["text"], equity=a["equity"]) for a in d["alternatives"]],
            choices=choices(d["kind"], d["alternatives"]),
            schedule=new_schedule(stamp), due=stamp.isoformat(),
        )
        for d in report["decisions"]
        if any(mistake(d, seat, Mark(least)) for seat in held)
    ])


@router.post(
    "/api/trainer/review",
    response_model=ReviewView,
    dependencies=[Depends(rate_limited("hint"))],
    responses={422: {"description": "a card or an answer that cannot be"},
               429: {"description": "too many from this address"},
               503: {"description": "the threads that think are all busy"}},
)
async def review(request: Request, body: Review, lang: Lang = "en") -> ReviewView:
    """Judge the answer to a card the page keeps and reschedule it (as a signed-in
    player's answer is), with the reasons worked out now: nothing is kept."""
    pool: BoundedPool = request.app.state.hint_pool
    try:
        answer, judged, schedule, due, reasons = await pool.run(_review, body)
    except NotAChoiceError as exc:
        raise HTTPException(422, str(exc)) from None
    except KeyError:
        raise HTTPException(422, "The card's choices are not those of its kind.") from None
    except _BadSchedule:
        raise HTTPException(422, "The card's schedule cannot be read.") from None
    except BackgammonError as exc:
        raise HTTPException(422, f"The card's position cannot be: {exc}") from None
    return ReviewView(
        right=judged.right, answer=answer, best=judged.best, played=body.card.played,
        loss=judged.loss, played_loss=body.card.equity_loss,
        reasons=say_all((from_json(r) for r in reasons), lang), schedule=schedule,
        due=utc(due).isoformat(),
    )


class _BadSchedule(Exception):
    """The card's schedule is not one ``fsrs`` wrote."""


def _review(body: Review) -> tuple[str, Judged, dict[str, Any], datetime, list[dict[str, Any]]]:
    """The answer judged (as the card names it), the card's new schedule and due time, and
    the reasons (in a worker thread: the bot may be asked)."""
    card = body.card
    weighed = [w.model_dump() for w in card.weighed]
    decision = {**card.model_dump(), "weighed": weighed, "alternatives": weighed}
    answer, judged = judge_play(decision, body.answer, equities)
    try:
        _, schedule, due = reschedule(card.schedule, judged.right, body.rating, now())
    except (KeyError, ValueError, TypeError):
        raise _BadSchedule from None
    reasons = computer.consult(REASONS_LEVEL, lambda bot: reasons_of(decision, bot))
    return answer, judged, schedule, due, reasons
