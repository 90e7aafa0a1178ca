"""The objects a request handler is given (FastAPI dependencies)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Path, Query, Request, status
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.security.utils import get_authorization_scheme_param

from ..settings import Settings
from .board_games import refuse_other_games
from .computer import Computer
from .live import LiveMatch
from .match_rows import UnknownMatchError
from .seats import SECRET_LENGTH
from .service import MatchService
from .store import MatchStore
from .watchers import Hub

#: The longest match id (the ids made are 16 characters).
MATCH_ID_LENGTH = 32

MatchId = Annotated[
    str, Path(min_length=1, max_length=MATCH_ID_LENGTH, description="the match's id")
]

#: What a request's ``record_since`` asks for.
RECORD_SINCE = (
    "a version the client holds the state of: the answer's record then holds only what "
    "changed after it (``record_since``); the whole record by default"
)
#: A request's ``record_since``: the state answered carries only the record's changes after
#: that version (:func:`.views.record_view`).
RecordSince = Annotated[int | None, Query(ge=0, description=RECORD_SINCE)]


# The dependencies are ``async`` even where they await nothing: FastAPI runs one defined with
# ``def`` in a worker thread, and the hand-over costs far more than reading the app's state.


async def get_settings(request: Request) -> Settings:
    """The app's settings."""
    settings: Settings = request.app.state.settings
    return settings


async def get_store(request: Request) -> MatchStore:
    """The app's match store."""
    store: MatchStore = request.app.state.store
    return store


async def get_hub(request: Request) -> Hub:
    """The app's hub of watching pages."""
    hub: Hub = request.app.state.hub
    return hub


async def get_computer(request: Request) -> Computer:
    """The app's computer seats."""
    computer: Computer = request.app.state.computer
    return computer


async def get_match_to_act(match_id: MatchId, request: Request) -> LiveMatch:
    """The match named in the path, or 404, as this process holds it: an action brings it up
    to its row under its lock (:meth:`.store.MatchStore.current`), only where it must."""
    # The store is read here rather than as a dependency of its own: FastAPI solves each
    # dependency afresh (its own dependencies, and its parameters of every kind) at every
    # request, a tenth of a millisecond each, however often the request uses it.
    store: MatchStore = request.app.state.store
    try:
        return await store.get(match_id)
    except UnknownMatchError:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, "There is no match with that id."
        ) from None


async def get_match(
    live: Annotated[LiveMatch, Depends(get_match_to_act)], request: Request
) -> LiveMatch:
    """The match named in the path, or 404; up to date with its row."""
    store: MatchStore = request.app.state.store
    return await store.fresh(live)


async def get_matches(request: Request) -> MatchService:
    """The app's service that acts on matches."""
    matches: MatchService = request.app.state.matches
    return matches


# Each dependency named for the type it gives, "Dep" after it (as FastAPI's docs name them).
SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[MatchStore, Depends(get_store)]
HubDep = Annotated[Hub, Depends(get_hub)]
ComputerDep = Annotated[Computer, Depends(get_computer)]
MatchServiceDep = Annotated[MatchService, Depends(get_matches)]
Live = Annotated[LiveMatch, Depends(get_match)]
LiveToAct = Annotated[LiveMatch, Depends(get_match_to_act)]


#: The seat token, read from ``Authorization: Bearer <token>`` (absent: None, answered below).
_bearer = HTTPBearer(
    auto_error=False,
    scheme_name="seat token",
    description="the token that POST /api/matches or POST /api/matches/join answered",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def bearer_token(request: Request) -> str | None:
    """The token of the request's ``Authorization: Bearer <token>`` header, read as
    :data:`_bearer` reads it; None without one."""
    scheme, token = get_authorization_scheme_param(request.headers.get("Authorization"))
    return token if token and scheme.lower() == "bearer" else None


def seats_held(live: LiveMatch, token: str | None) -> frozenset[int]:
    """The seats of ``live`` that the request's ``token`` holds: 401 without a token, 403
    for one that holds no seat of this match."""
    if token is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "This request needs the seat token that the match's creation or the join "
            "answered, sent as the header Authorization: Bearer <token>.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    held = live.seating.holds(token) if len(token) <= SECRET_LENGTH else None
    if held is None:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN, "This token holds no seat in this match."
        )
    return held


async def get_held(live: LiveToAct, request: Request, credentials: Credentials) -> frozenset[int]:
    """The seats the request's token holds in the match named in the path (401, 403)."""
    return await held_by(live, request, None if credentials is None else credentials.credentials)


async def held_by(live: LiveMatch, request: Request, token: str | None) -> frozenset[int]:
    """The seats ``token`` holds in ``live`` (401, 403). A token this process's copy does
    not know is looked for again in the match's row, where other processes write too: the
    seat may have been taken there (a join)."""
    store: MatchStore = request.app.state.store
    try:
        return seats_held(live, token)
    except HTTPException as refused:
        if refused.status_code != status.HTTP_403_FORBIDDEN or not store.shared:
            raise
    await store.fresh(live)
    return seats_held(live, token)


def check_holds(held: frozenset[int], seat: int) -> None:
    """403 unless ``seat`` is one of the ``held`` seats."""
    if seat not in held:
        holds = " and ".join(f"seat {each}" for each in sorted(held))
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"This token holds {holds}, not seat {seat}: it may not act for that seat.",
        )


def no_engine_help(live: LiveMatch, help_name: str, *, other_games: bool = False) -> None:
    """403 while an online match between people is in play: no help of the engine (hints,
    analyses) reaches a player of it until the match is over, as on the sites people play
    on; at one screen and against the computer the help is the player's own business, and
    in a practice match both players agreed to it before the first roll. A help the other
    games do not have (``other_games`` False) is refused in them with 409."""
    if not other_games:
        refuse_other_games(live, help_name)
    if live.seating.online and not live.seating.practice and not live.match.is_over:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"{help_name} are off in an online match between people until the match is over: "
            "each player plays on their own judgement.",
        )


Held = Annotated[frozenset[int], Depends(get_held)]
