"""The deck a player without an account keeps in their browser: the server gives the
mistakes of a finished, analysed match to the seats the page holds, and judges an answer and
reschedules its card without keeping either (the page keeps them, in ``localStorage``), so
that judging and scheduling have one implementation, the signed-in decks'. Once the player
signs in, the page sends the cards it keeps, once, to join their account's deck
(``POST /api/trainer/browser-cards``), and forgets them.
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
from ..accounts.sessions import SignedIn
from ..analysis.analyses import Analyses
from ..db import now, utc
from ..http.guards import BoundedPool, rate_limited
from ..play import computer
from ..play.board_games import refuse_other_games
from ..play.deps import Held, Live
from ..play.match_rows import UnknownMatchError
from ..play.routes.hints import Lang
from ..play.schemas import Ascii
from ..play.store import MatchStore
from .cards import Judged, NotAChoiceError, choices, judge_play, mistake
from .dealing import REASONS_LEVEL, equities
from .deck import Deck, new_schedule, reschedule
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


class KeptCard(LooseCard):
    """A card the page keeps, with the id of the match it comes from."""

    match: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


#: The most cards one request may bring to an account's deck: the page sends more in turns.
MOST_MERGED = 200


class KeptCards(BaseModel):
    """The cards a browser keeps, sent to join the signed-in player's deck."""

    model_config = ConfigDict(extra="forbid")

    cards: list[KeptCard] = Field(max_length=MOST_MERGED)


class Merged(BaseModel):
    """How many of the cards sent joined the deck (the others were in it already, or come
    from no match over)."""

    added: int


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
    refuse_other_games(live, "The trainer's cards")
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


@router.post(
    "/api/trainer/browser-cards",
    response_model=Merged,
    responses={401: {"description": "not signed in"},
               422: {"description": "more cards than one request takes, or one malformed"},
               503: {"description": "the threads that think are all busy"}},
)
async def merge(request: Request, body: KeptCards, account: SignedIn) -> Merged:
    """Add the cards the browser kept before the player signed in to their account's deck:
    those it does not hold yet (one a decision of a match: its game, move and kind), each
    with the schedule the browser kept, and its reasons worked out now. A card of a match
    that is not over, or of none, is left out (fair play: no engine judgement of a match
    reaches its players while they play it), and one whose position cannot be."""
    store: MatchStore = request.app.state.store
    over: dict[str, bool] = {}
    for match_id in {card.match for card in body.cards}:
        try:
            over[match_id] = (await store.fresh(await store.get(match_id))).match.is_over
        except UnknownMatchError:
            over[match_id] = False
    cards = [(card.match, _decision(card)) for card in body.cards if over[card.match]]
    pool: BoundedPool = request.app.state.hint_pool
    return Merged(added=await pool.run(_trainer(request).merge, account.id, cards, _sound))


def _trainer(request: Request) -> Deck:
    deck: Deck = request.app.state.trainer
    return deck


def _decision(card: LooseCard) -> dict[str, Any]:
    """A card the page keeps as the judging and the reasons read a decision."""
    weighed = [w.model_dump() for w in card.weighed]
    return {**card.model_dump(), "weighed": weighed, "alternatives": weighed}


def _sound(decision: dict[str, Any]) -> list[dict[str, Any]] | None:
    """:func:`_reasons`, or None for a card whose position cannot be (a page's own
    making: it is not merged)."""
    try:
        return _reasons(decision)
    except BackgammonError:
        return None


def _reasons(decision: dict[str, Any]) -> list[dict[str, Any]]:
    """Why the best choice of ``decision`` is best (in a worker thread: the bot is asked)."""
    return computer.consult(REASONS_LEVEL, lambda bot: reasons_of(decision, bot))


class _BadSchedule(Exception):
    """The card's schedule is not one ``fsrs`` wrote."""


def _review(body: Review) -> tuple[str, Judged, dict[str, Any], datetime, list[dict[str, Any]]]:
    """The answer judged (as the card names it), the card's new schedule and due time, and
    the reasons (in a worker thread: the bot may be asked)."""
    card = body.card
    decision = _decision(card)
    answer, judged = judge_play(decision, body.answer, equities)
    try:
        _, schedule, due = reschedule(card.schedule, judged.right, body.rating, now())
    except (KeyError, ValueError, TypeError):
        raise _BadSchedule from None
    return answer, judged, schedule, due, _reasons(decision)
