"""Online play: what an invite offers and taking the seat it gives, the lobby of matches
waiting for an opponent, and the live matches to watch. The seat tokens themselves are
checked by :func:`..play.deps.get_held`."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request, status
from fastapi import Path as InPath
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from ..accounts.ratings import Seated
from ..accounts.sessions import Viewer
from ..http.assets import page_file
from ..http.guards import rate_limited
from ..play.deps import Live, MatchServiceDep, StoreDep
from ..play.live import LiveMatch
from ..play.match_rows import UnknownMatchError
from ..play.schemas import (
    InviteView,
    Joined,
    JoinMatch,
    LiveMatchEntry,
    LivePlayer,
    LobbyEntry,
    Taken,
    TimeControlView,
)
from ..play.seats import digest_of
from ..play.service import SPENT
from .queries import find_invite, invite_offer, live_matches, open_matches

router = APIRouter(tags=["online"])

#: The page, which takes the seat of an invite opened as /join/<invite>.
PAGE = Path(__file__).resolve().parents[2] / "web" / "index.html"

#: The most matches the lobby lists, the newest first.
LOBBY_SIZE = 100
#: The most live matches listed, the latest acted in first.
LIVE_SIZE = 50



@router.post(
    "/api/matches/join",
    response_model=Joined,
    dependencies=[Depends(rate_limited("create"))],
    responses={
        403: {"description": "a rated match: a guest, or the creator's own account"},
        404: {"description": "no match has this invite"},
        410: {"description": "the invite has been used"},
        429: {"description": "too many requests from this address"},
    },
)
async def join(
    request: JoinMatch, store: StoreDep, matches: MatchServiceDep, account: Viewer
) -> Joined:
    """Take the seat an online match's invite gives: the answer's ``token`` holds it (send
    it as ``Authorization: Bearer <token>``). The invite is then spent: a second use is
    refused (410). A signed-in player's account is noted at the seat; a rated match takes
    only a signed-in player other than its creator (403)."""
    digest = digest_of(request.invite)
    found = await run_in_threadpool(find_invite, store.engine, digest)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No match has this invite.")
    match_id, spent = found
    if spent:
        raise HTTPException(status.HTTP_410_GONE, SPENT)
    try:
        live = await store.get(match_id)
    except UnknownMatchError:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No match has this invite.") from None
    seat, token = await matches.join(live, digest, account, request.name)
    return Joined(id=live.id, seat=seat, token=token)


#: An invite in a path, of the shape a join's body takes (:class:`..play.schemas.JoinMatch`).
Invite = Annotated[str, InPath(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


@router.get(
    "/api/invites/{invite}",
    response_model=InviteView,
    responses={
        404: {"description": "no match has this invite"},
        410: {"description": "the invite has been used"},
    },
)
async def preview(invite: Invite, store: StoreDep) -> InviteView:
    """What an online match's invite offers, before its seat is taken: who made the match,
    its length and rules, whether it is rated, and whether it is a practice match (hints and
    analyses for both players while it is played), which whoever joins agrees to. Nothing
    changes; no token is needed (the invite is the secret)."""
    digest = digest_of(invite)
    offer = await run_in_threadpool(invite_offer, store.engine, digest)
    if offer is not None:
        return offer
    found = await run_in_threadpool(find_invite, store.engine, digest)
    if found is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, "No match has this invite.")
    raise HTTPException(status.HTTP_410_GONE, SPENT)


@router.post(
    "/api/matches/{match_id}/take",
    response_model=Taken,
    dependencies=[Depends(rate_limited("create"))],
    responses={
        404: {"description": "no such match"},
        409: {"description": "the match's seats are held already"},
        429: {"description": "too many requests from this address"},
    },
)
async def take(live: Live, matches: MatchServiceDep) -> Taken:
    """Take the seats of a match saved before seats had tokens (its state says ``unheld``):
    then anyone who knew its id could act in it, so the first who asks now holds its seats
    played by people (both at one screen; against the computer, the person's), with the
    answer's ``token``. Once taken, a match is refused (409) like any other."""
    seats, token = await matches.take(live)
    return Taken(id=live.id, seats=sorted(seats), token=token)


@router.get("/api/lobby", response_model=list[LobbyEntry])
async def lobby(store: StoreDep) -> list[LobbyEntry]:
    """The online matches listed in the lobby that wait for an opponent, the newest first
    (at most 100), with a signed-in creator's name and rating and whether the match is
    rated: join one with its ``invite``."""
    return await run_in_threadpool(open_matches, store.engine, LOBBY_SIZE)


@router.get("/api/matches/live", response_model=list[LiveMatchEntry])
async def live_list(store: StoreDep) -> list[LiveMatchEntry]:
    """The online matches being played that spectators may watch (at ``/?match=<id>``, or
    through ``/api/matches/{id}`` and its updates): both players have come, the creator
    listed the match in the lobby, it is not over, and someone has acted in it within the
    hour; the latest acted in first (at most 50), with the players' names, signed-in
    players' ratings, and the score. No token or invite is in the answer."""
    found = await run_in_threadpool(live_matches, store.engine, LIVE_SIZE)
    entries = []
    for match_id, updated_at, version, accounts in found:
        copy = store.cached(match_id)
        # A copy in memory at the row's version is read as it is: the list is asked for
        # every few seconds by every open lobby, and most live matches are in memory.
        if copy is None or copy.stale or copy.version != version:
            try:
                # Brought up to its row, so that the score is the one a spectator will see.
                copy = await store.fresh(await store.get(match_id))
            except UnknownMatchError:
                continue
        if not copy.match.is_over:
            entries.append(_live_entry(copy, updated_at, accounts))
    return entries


def _live_entry(live: LiveMatch, updated_at: datetime, accounts: Seated | None
                ) -> LiveMatchEntry:
    """A live match as the list shows it: a signed-in player by their account's name."""
    seats = accounts.seats if accounts else (None, None)
    match, clock = live.match, live.seating.clock
    return LiveMatchEntry(
        id=live.id,
        players=[
            LivePlayer(name=match.players[seat], rating=None) if account is None
            else LivePlayer(name=account.name, rating=account.rating)
            for seat, account in enumerate(seats)
        ],
        score=list(match.score),
        length=match.length,
        rated=bool(accounts and accounts.rated),
        clock=None if clock is None else TimeControlView(**clock.to_dict()),
        updated_at=updated_at,
        game=match.plays,
    )


@router.get("/join/{invite}", response_class=HTMLResponse, include_in_schema=False)
async def join_page(
    invite: Annotated[str, InPath(max_length=64)], request: Request,
) -> Response:
    """The page, which joins with the invite in its address."""
    return page_file(PAGE, request.headers)
