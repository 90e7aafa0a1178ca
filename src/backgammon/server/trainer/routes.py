"""The trainer's page (``/trainer``) and its API (``/api/trainer/``), for a signed-in player.

A finished match the player sat at, once analysed, gives its decisions they got wrong to
their deck: when its analysis is read (``routes`` of :mod:`..analysis`) and when the
trainer is asked for its cards (``POST /api/trainer/matches/{id}``). A player sees and
answers only their own cards (another's is "not in your deck": 404). Fair play: cards come
from a match only once it is over, so that no engine judgement of a match between people
reaches its players while they play it.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Path, Query, Request, status
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from ...analysis.decisions import Mark
from ...analysis.reasons import say_all
from ..accounts.sessions import SignedIn
from ..analysis.analyses import Analyses
from ..db import TrainerCardRow, utc
from ..http.assets import PageResponse
from ..http.guards import BoundedPool
from ..pages.templates import own_page
from ..play.board_games import refuse_other_games
from ..play.deps import Live
from ..play.routes.hints import Lang
from .cards import NotAChoiceError, choices
from .dealing import deal, equities, seats_of
from .deck import Deck, NoCardError, NotRatableError
from .why import from_json

router = APIRouter(tags=["trainer"])

NOT_YOURS = "There is no card with that id in your deck."

#: A card's id in the path: a positive 32-bit integer, as the deck's table keeps it.
CardId = Annotated[int, Path(ge=1, le=2**31 - 1, description="the card's id")]
#: What a request about one card may be refused with, beside its own refusals.
CARD_REFUSALS: dict[int | str, dict[str, Any]] = {
    401: {"description": "not signed in"},
    404: {"description": "no card of that id in the player's deck"},
}

Least = Annotated[
    Literal["doubtful", "bad", "very bad"],
    Query(description="the least mark a decision needs to join the deck"),
]


class CardView(BaseModel):
    """A card as the question shows it: the moment (gnubg's IDs, from the decider's side,
    for ``GET /api/board``), the dice of a checker card, and the choices, in an order that
    gives nothing away. What was played and what was best come with the answer."""

    id: int
    match: str
    game: int
    move_number: int
    kind: Literal["checker", "cube", "take"]
    position_id: str
    match_id: str = Field(description="gnubg's Match ID of the moment")
    dice: list[int] | None
    mark: str = Field(description="the mark the played choice earned")
    choices: list[str]
    due: str = Field(description="when it is due, ISO 8601 in UTC")


class CardsView(BaseModel):
    """The cards asked for, and how many the match's analysis added to the deck (0 when
    none was asked for)."""

    added: int = 0
    cards: list[CardView]


class Answer(BaseModel):
    """An answer to a card: one of its choices (or, to a checker card, any legal play of its
    roll in gnubg's notation, as made on the board), and (if right) how it felt."""

    model_config = ConfigDict(extra="forbid")

    answer: str = Field(min_length=1, max_length=60)
    rating: Literal["hard", "good", "easy"] | None = None


class Rating(BaseModel):
    """How a right answer felt, said after it."""

    model_config = ConfigDict(extra="forbid")

    rating: Literal["hard", "good", "easy"]


class Rescheduled(BaseModel):
    due: str = Field(description="when the card is due again, ISO 8601 in UTC")


class ChoiceView(BaseModel):
    text: str
    equity: float


class AnswerView(BaseModel):
    """The answer judged: right or wrong, the best choice, what the answer lost and what the
    played choice lost (EMG), the choices weighed, the reasons in ``lang``, and when the
    card comes back."""

    right: bool
    answer: str
    best: str
    played: str
    loss: float = Field(description="what the answer lost against the best, EMG")
    played_loss: float = Field(description="what the match's play lost, EMG")
    choices: list[ChoiceView]
    reasons: list[str]
    due: str


class DayView(BaseModel):
    day: str
    answered: int
    right: int


class ProgressView(BaseModel):
    """The deck's cards, those due now, those learned, and the answers of each day (UTC)
    of the last 30 with any."""

    cards: int
    due: int
    learned: int
    days: list[DayView]


def _deck(request: Request) -> Deck:
    deck: Deck = request.app.state.trainer
    return deck


def _iso(stamp: datetime) -> str:
    return utc(stamp).isoformat()


def _view(row: TrainerCardRow) -> CardView:
    return CardView(
        id=row.id, match=row.match_id, game=row.game, move_number=row.move_number,
        kind=row.kind,  # type: ignore[arg-type]
        position_id=row.position_id, match_id=row.gnubg_match_id, dice=row.dice,
        mark=row.mark, choices=choices(row.kind, row.choices), due=_iso(row.due),
    )


@router.post(
    "/api/trainer/matches/{match_id}",
    response_model=CardsView,
    responses={
        401: {"description": "not signed in"},
        403: {"description": "the account did not sit at the match"},
        404: {"description": "no such match"},
        409: {"description": "the match is not over, or has no finished analysis"},
        503: {"description": "the threads that think are all busy"},
    },
)
async def practise_match(
    request: Request, live: Live, account: SignedIn, least: Least = "doubtful"
) -> CardsView:
    """Add the finished, analysed match's mistakes of the signed-in player (marked ``least``
    or worse) to their deck, and give its cards that are due."""
    refuse_other_games(live, "The trainer's cards")
    deck = _deck(request)
    if not await run_in_threadpool(seats_of, deck, live.id, account.id):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "You did not play this match with your account: its mistakes are not yours to "
            "practise.",
        )
    if not live.match.is_over:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "The match is not over: its mistakes join your deck once it is, and analysed.",
        )
    analyses: Analyses = request.app.state.analyses
    report = await run_in_threadpool(analyses.finished, live.id, live.version)
    if report is None:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "The match has no finished analysis: analyse it first."
        )
    added = await deal(request, live, account.id, report, Mark(least))
    rows = await run_in_threadpool(deck.cards, account.id, live.id)
    return CardsView(added=added, cards=[_view(row) for row in rows])


@router.get("/api/trainer/cards", response_model=CardsView,
            responses={401: {"description": "not signed in"}})
async def due_cards(
    request: Request,
    account: SignedIn,
    match: Annotated[str | None, Query(min_length=1, max_length=32,
                                       description="only this match's cards")] = None,
) -> CardsView:
    """The signed-in player's cards due now (of one match, if asked), the longest due
    first, at most 100."""
    rows = await run_in_threadpool(_deck(request).cards, account.id, match)
    return CardsView(cards=[_view(row) for row in rows])


@router.post(
    "/api/trainer/cards/{card_id}/answer",
    response_model=AnswerView,
    responses={**CARD_REFUSALS, 422: {"description": "the answer is none of the card's choices"}},
)
async def answer_card(
    request: Request,
    account: SignedIn,
    card_id: CardId,
    body: Answer,
    lang: Lang = "en",
) -> AnswerView:
    """Judge the answer, rate it (wrong: again; right: good, or ``rating``) and reschedule
    the card: the answer, the best choice, the losses, the reasons in ``lang``, and when it
    is due again."""
    # In the hints' pool: a play the analysis did not weigh asks the bot.
    pool: BoundedPool = request.app.state.hint_pool
    try:
        reviewed = await pool.run(
            _deck(request).answer, account.id, card_id, body.answer, equities, body.rating
        )
    except NoCardError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_YOURS) from None
    except NotAChoiceError as exc:
        raise HTTPException(422, str(exc)) from None
    row, judged = reviewed.card, reviewed.judged
    return AnswerView(
        right=judged.right, answer=reviewed.answer, best=judged.best, played=row.played,
        loss=judged.loss, played_loss=row.equity_loss,
        choices=[ChoiceView(text=c["text"], equity=c["equity"]) for c in row.choices],
        reasons=say_all((from_json(r) for r in row.reasons), lang), due=_iso(row.due),
    )


@router.post(
    "/api/trainer/cards/{card_id}/rating",
    response_model=Rescheduled,
    responses={
        **CARD_REFUSALS,
        409: {"description": "the card has no answer yet, or its last answer was wrong"},
    },
)
async def rate_card(
    request: Request,
    account: SignedIn,
    card_id: CardId,
    body: Rating,
) -> Rescheduled:
    """Say how the last answer to the card, a right one, felt ("hard", "good" or "easy"):
    the card rescheduled as if the answer had been rated so."""
    try:
        row = await run_in_threadpool(_deck(request).rate, account.id, card_id, body.rating)
    except NoCardError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, NOT_YOURS) from None
    except NotRatableError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    return Rescheduled(due=_iso(row.due))


@router.get("/api/trainer/progress", response_model=ProgressView,
            responses={401: {"description": "not signed in"}})
async def progress(request: Request, account: SignedIn) -> dict[str, Any]:
    """How the signed-in player's deck stands, and their answers by day."""
    return await run_in_threadpool(_deck(request).progress, account.id)


@cache
def _page() -> str:
    return own_page("trainer.html")


@router.get("/trainer", include_in_schema=False)
async def page() -> PageResponse:
    """The trainer's page; its address may name a match (``?match=``) whose cards to
    practise."""
    return PageResponse(_page())
