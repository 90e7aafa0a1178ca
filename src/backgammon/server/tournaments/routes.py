"""Tournaments: create one, list them, read one, join, leave, cancel, and take a seat in
one's match. The routes read the request; :class:`.service.Tournaments` acts, each change
in a transaction of its own, in a worker thread."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response, status
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from ...errors import BackgammonError
from ..accounts.sessions import SignedIn, Viewer
from ..accounts.users import Account
from ..db import now
from ..http.guards import rate_limited
from ..play.deps import MatchId
from .draw import MOST_ROUND_ROBIN
from .schemas import (
    MOST_DAYS_AHEAD,
    CreateTournament,
    TournamentList,
    TournamentSeat,
    TournamentSummary,
    TournamentView,
)
from .service import Tournaments, tournament_match
from .state import NewTournament
from .views import view_of

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

TournamentId = Annotated[str, Path(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$",
                                   description="the tournament's id")]


def get_tournaments(request: Request) -> Tournaments:
    """The app's tournaments."""
    tournaments: Tournaments = request.app.state.tournaments
    return tournaments


TournamentsDep = Annotated[Tournaments, Depends(get_tournaments)]

Refusals = dict[int | str, dict[str, Any]]
_SIGNED_IN: Refusals = {401: {"description": "not signed in"},
                        403: {"description": "a signed-in request without its CSRF token"}}
_CHANGES: Refusals = {**_SIGNED_IN, 404: {"description": "no such tournament"},
                      409: {"description": "started already, full, joined already, not in it"}}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=TournamentView,
    dependencies=[Depends(rate_limited("create"))],
    responses={**_SIGNED_IN, 429: {"description": "too many new tournaments or matches "
                                   "from this address"}},
)
async def create(body: CreateTournament, account: SignedIn,
                 tournaments: TournamentsDep) -> TournamentView:
    """Make a tournament; its creator is its first player. It starts at ``starts_at`` with
    the players it has, or without one once ``max_players`` have joined."""
    if body.kind == "round_robin" and body.max_players > MOST_ROUND_ROBIN:
        raise HTTPException(422, f"A round robin takes at most {MOST_ROUND_ROBIN} players: "
                            "each plays every other.")
    starts_at = body.starts_at
    if starts_at is not None:
        if starts_at.tzinfo is None:
            raise HTTPException(422, "A start time says its zone (such as Z for UTC).")
        if not now() < starts_at < now() + timedelta(days=MOST_DAYS_AHEAD):
            raise HTTPException(422, "A start time is in the future, within "
                                f"{MOST_DAYS_AHEAD} days.")
    try:  # a match of its game, as each of its matches will be made (none is kept)
        tournament_match(body.game, body.length, ("", ""))
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None
    new = NewTournament(body.name.strip() or body.name, body.kind, body.game, body.length,
                        body.time_control, body.rated, body.max_players, starts_at)
    tournament_id = await run_in_threadpool(tournaments.create, account, new)
    return await _view(tournaments, tournament_id, account)


@router.get("", response_model=TournamentList)
async def listing(tournaments: TournamentsDep) -> TournamentList:
    """The latest tournaments open to join, running, and finished (50 of each at most)."""
    found: dict[str, list[TournamentSummary]] = {"open": [], "running": [], "finished": []}
    for row, players in await run_in_threadpool(tournaments.listing):
        found[row.status].append(TournamentSummary(
            id=row.id, name=row.name, kind=row.kind, game=row.game, status=row.status,
            length=row.length,
            players=players, max_players=row.max_players,
            starts_at=None if row.starts_at is None else row.starts_at))
    return TournamentList(**found)


@router.get("/{tournament_id}", response_model=TournamentView,
            responses={404: {"description": "no such tournament"}})
async def read(tournament_id: TournamentId, tournaments: TournamentsDep,
               viewer: Viewer) -> TournamentView:
    """The tournament as it stands: its players, its draw, its standings; for the
    signed-in viewer, whether they joined and the match they are to play."""
    return await _view(tournaments, tournament_id, viewer)


@router.post("/{tournament_id}/join", response_model=TournamentView, responses=_CHANGES)
async def join(tournament_id: TournamentId, account: SignedIn,
               tournaments: TournamentsDep) -> TournamentView:
    """Enter the tournament, before it starts; the one that fills it starts it."""
    await run_in_threadpool(tournaments.join, tournament_id, account)
    try:
        await tournaments.settle(tournament_id)
    except SQLAlchemyError:  # the join is kept: the periodic task starts it
        log.exception("tournament %s could not be started", tournament_id)
    return await _view(tournaments, tournament_id, account)


@router.post("/{tournament_id}/leave", response_model=TournamentView, responses=_CHANGES)
async def leave(tournament_id: TournamentId, account: SignedIn,
                tournaments: TournamentsDep) -> TournamentView:
    """Take one's entry back, before it starts (its creator cancels it instead)."""
    await run_in_threadpool(tournaments.leave, tournament_id, account)
    return await _view(tournaments, tournament_id, account)


@router.post("/{tournament_id}/cancel", response_model=TournamentView,
             responses={**_CHANGES, 403: {"description": "not its creator, or no CSRF token"}})
async def cancel(tournament_id: TournamentId, account: SignedIn,
                 tournaments: TournamentsDep) -> TournamentView:
    """Call the tournament off before it starts: its creator only."""
    await run_in_threadpool(tournaments.cancel, tournament_id, account)
    return await _view(tournaments, tournament_id, account)


@router.get(
    "/{tournament_id}/matches/{match_id}/seat",
    response_model=TournamentSeat,
    responses={**_SIGNED_IN, 403: {"description": "not this match's player"},
               404: {"description": "no such tournament, or no such match of it"}},
)
async def seat(tournament_id: TournamentId, match_id: MatchId, account: SignedIn,
               tournaments: TournamentsDep, response: Response) -> TournamentSeat:
    """The signed-in player's seat in a match of the tournament and the token that holds
    it, to play it as any online match (``Authorization: Bearer <token>``)."""
    held, token = await run_in_threadpool(tournaments.seat, tournament_id, match_id, account)
    response.headers["Cache-Control"] = "no-store"  # a token: kept by no cache
    return TournamentSeat(id=match_id, seats=[held], token=token)


async def _view(tournaments: Tournaments, tournament_id: str,
                viewer: Account | None) -> TournamentView:
    tournament = await run_in_threadpool(tournaments.read, tournament_id)
    return view_of(tournament, viewer)
