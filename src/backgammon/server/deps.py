"""The objects a request handler is given (FastAPI dependencies)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Path, Request, status

from .computer import Computer
from .hub import Hub
from .settings import Settings
from .store import LiveMatch, MatchStore, UnknownMatchError

#: The longest match id (the ids made are 16 characters).
MATCH_ID_LENGTH = 32

MatchId = Annotated[
    str, Path(min_length=1, max_length=MATCH_ID_LENGTH, description="the match's id")
]


def get_settings(request: Request) -> Settings:
    """The app's settings."""
    settings: Settings = request.app.state.settings
    return settings


def get_store(request: Request) -> MatchStore:
    """The app's match store."""
    store: MatchStore = request.app.state.store
    return store


def get_hub(request: Request) -> Hub:
    """The app's hub of watching pages."""
    hub: Hub = request.app.state.hub
    return hub


def get_computer(request: Request) -> Computer:
    """The app's computer seats."""
    computer: Computer = request.app.state.computer
    return computer


async def get_match_to_act(
    match_id: MatchId, store: Annotated[MatchStore, Depends(get_store)]
) -> LiveMatch:
    """The match named in the path, or 404, as this process holds it: an action brings it up
    to its row under its lock (:meth:`.store.MatchStore.current`), only where it must."""
    try:
        return await store.get(match_id)
    except UnknownMatchError:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, f"There is no match with the id {match_id!r}."
        ) from None


async def get_match(
    live: Annotated[LiveMatch, Depends(get_match_to_act)],
    store: Annotated[MatchStore, Depends(get_store)],
) -> LiveMatch:
    """The match named in the path, or 404; up to date with its row."""
    return await store.fresh(live)


Setup = Annotated[Settings, Depends(get_settings)]
Store = Annotated[MatchStore, Depends(get_store)]
Watchers = Annotated[Hub, Depends(get_hub)]
Computers = Annotated[Computer, Depends(get_computer)]
Live = Annotated[LiveMatch, Depends(get_match)]
LiveToAct = Annotated[LiveMatch, Depends(get_match_to_act)]
