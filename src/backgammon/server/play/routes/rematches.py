"""Rematches: offer one at a match's end, answer the other seat's offer, and take the seats
of the rematch once started (:mod:`..rematches`). The routes read the request;
:class:`..service.MatchService` acts."""

from __future__ import annotations

from fastapi import APIRouter, Depends, HTTPException, Request, status
from starlette.responses import Response

from ...accounts.sessions import Viewer
from ...http.guards import rate_limited
from ..deps import (
    Held,
    Live,
    LiveToAct,
    MatchServiceDep,
    StoreDep,
    bearer_token,
    check_holds,
    get_held,
)
from ..schemas import AnswerRematch, OfferRematch, Rematched, State
from ..seats import rematch_token

router = APIRouter(prefix="/api/matches", tags=["rematches"])

#: What the routes that change a rematch may answer besides the state.
_REFUSALS: dict[int | str, dict[str, str]] = {
    401: {"description": "no seat token"},
    403: {"description": "the token holds no seat of the match, or not this one; a rated "
          "match's rematch asked for without its player's account signed in"},
    404: {"description": "no such match"},
    409: {"description": "not now: the match goes on, an offer waits already, no offer to "
          "answer, the offerer's own offer, or the rematch has started"},
    429: {"description": "too many requests from this address"},
}


def _token(request: Request) -> str:
    """The request's seat token, checked already (:data:`..deps.Held`)."""
    token = bearer_token(request)
    assert token is not None  # the seats it holds were found
    return token


@router.post(
    "/{match_id}/rematch",
    response_model=State,
    dependencies=[Depends(rate_limited("create"))],
    responses=_REFUSALS,
)
async def offer(
    body: OfferRematch,
    request: Request,
    live: LiveToAct,
    held: Held,
    matches: MatchServiceDep,
    account: Viewer,
) -> Response:
    """Offer a rematch of a match that is over, for ``seat`` (its token as ``Authorization:
    Bearer <token>``): a new match with the same settings. Between people online it waits
    for the other seat's answer (the state's ``rematch.offered_by``); against the computer
    or at one screen it starts at once (``rematch.id``). The answer is the state after it,
    pushed to the watching pages too. Once started, each page takes its seat in it with
    ``GET /api/matches/{id}/rematch``."""
    check_holds(held, body.seat)
    return await matches.offer_rematch(live, body.seat, _token(request), held, account)


@router.post(
    "/{match_id}/rematch/answer",
    response_model=State,
    dependencies=[Depends(rate_limited("create"))],
    responses=_REFUSALS,
)
async def answer(
    body: AnswerRematch,
    request: Request,
    live: LiveToAct,
    held: Held,
    matches: MatchServiceDep,
    account: Viewer,
) -> Response:
    """Accept (``accept: true``), which starts the rematch, or decline the rematch the
    other seat offered, for ``seat``; the answer is the state after it, pushed to the
    watching pages too."""
    check_holds(held, body.seat)
    return await matches.answer_rematch(
        live, body.seat, _token(request), account, body.accept
    )


@router.get(
    "/{match_id}/rematch",
    response_model=Rematched,
    dependencies=[Depends(get_held)],
    responses={**_REFUSALS, 409: {"description": "no rematch has started"}},
)
async def seats(request: Request, response: Response, live: Live, store: StoreDep) -> Rematched:
    """The rematch started, for the token of the request (``Authorization: Bearer
    <token>``): the new match's id, the seats the token's player has there, and the token
    that holds them (made from the request's: only that seat's page has it)."""
    rematch_id = live.rematch.next
    if rematch_id is None:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "No rematch of this match has started."
        )
    token = rematch_token(_token(request), live.id)
    rematch = await store.fresh(await store.get(rematch_id))
    seated = rematch.seating.holds(token)
    if seated is None:  # a seat of the first match that has none in the rematch
        raise HTTPException(status.HTTP_403_FORBIDDEN, "This token holds no seat in the rematch.")
    response.headers["Cache-Control"] = "no-store"  # a token: kept by no cache
    return Rematched(id=rematch_id, seats=sorted(seated), token=token)
