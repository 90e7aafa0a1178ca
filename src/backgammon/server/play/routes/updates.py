"""Live updates: a WebSocket that receives the match's state after every action."""

from __future__ import annotations

import re

from fastapi import APIRouter, WebSocket, status

from ...http.guards import SocketCaps, client_of
from ..computer import Computer
from ..deps import MATCH_ID_LENGTH
from ..live import LiveMatch
from ..match_rows import UnknownMatchError
from ..store import MatchStore
from ..watchers import WATCHER_NAME, Hub

router = APIRouter(tags=["updates"])


@router.websocket("/api/matches/{match_id}/updates")
async def updates(
    socket: WebSocket,
    match_id: str,
    view: str = "0",
    since: str = "-1",
    record: str = "whole",
    watcher: str = "",
) -> None:
    """Send the state at once, then again after each event; messages sent in, text or
    binary, are ignored.

    ``view`` is the seat whose side the board is drawn from. Each state carries the match's
    ``version``, its event id: a page that reconnects names the last it saw as ``since`` and
    is sent the state only if it has changed since, and never a state twice (a match over
    is sent its state again: a rematch offered or answered keeps its version). With
    ``record=changes`` each state's record holds only what changed since the previous state
    sent (the first: since ``since``, or the whole record), its ``record_since`` the version
    of that state: a page that keeps what it is sent extends its record with them. A page
    that names itself (``watcher``: 16 to 64 letters, digits, '-' or '_', random) and gives
    that name with its actions (the header ``Watcher-Id``) is not sent the states its own
    actions make, which their answers carry: only the other side's, and the computer's. An unknown
    match closes the socket with code 4404; a client that holds ``sockets_per_client`` sockets
    already, or a match with ``sockets_per_match`` watchers, with 1013; a page too slow to
    read the states sent is closed with 1013, and reconnects.
    """
    await socket.accept()
    refusal = _refusal(view, since, record, watcher)
    if refusal is not None:
        await socket.close(code=status.WS_1008_POLICY_VIOLATION, reason=refusal)
        return
    store: MatchStore = socket.app.state.store
    try:
        if len(match_id) > MATCH_ID_LENGTH:
            raise UnknownMatchError(match_id)
        live = await store.get(match_id)
    except UnknownMatchError:
        # A close reason holds at most 123 bytes: the id is not repeated in it.
        await socket.close(code=4404, reason="There is no match with this id.")
        return
    caps: SocketCaps = socket.app.state.socket_caps
    client = client_of(socket)
    refused = caps.take(client, match_id)
    if refused is not None:
        await socket.close(code=status.WS_1013_TRY_AGAIN_LATER, reason=refused)
        return
    try:
        await _watch(socket, live, int(view), int(since), record == "changes", watcher)
    finally:
        caps.give_back(client, match_id)


def _refusal(view: str, since: str, record: str, watcher: str) -> str | None:
    """Why the socket's query is refused, or None where it is well formed (read here rather
    than by FastAPI, whose refusal on a WebSocket is not a sentence).

    >>> _refusal("0", "-1", "whole", ""), _refusal("2", "-1", "whole", "")
    (None, 'The view is seat 0 or 1.')
    """
    if view not in ("0", "1"):
        return "The view is seat 0 or 1."
    if not (since == "-1" or (since.isdigit() and len(since) < 10)):
        return "since is a version the page saw."
    if record not in ("whole", "changes"):
        return "The record is whole or changes."
    if watcher and re.fullmatch(WATCHER_NAME, watcher) is None:
        return "The watcher's name is 16 to 64 letters, digits, '-' or '_'."
    return None


async def _watch(
    socket: WebSocket, live: LiveMatch, view: int, since: int, changes: bool, name: str
) -> None:
    """Send ``live``'s states to ``socket`` until it disconnects: the state now, if the page
    has not seen it, then each one after (and wake the computer, if it is to act)."""
    store: MatchStore = socket.app.state.store
    hub: Hub = socket.app.state.hub
    computer: Computer = socket.app.state.computer
    page = hub.watcher(socket, view, since, changes=changes, name=name)
    try:
        # Joined (and following the other processes' notices) before the state is read, so no
        # event falls between the two.
        await hub.join(live.id, page)
        hub.catch_up(await store.fresh(live), page)
        page.start()
        computer.wake(live)
        while (await socket.receive())["type"] != "websocket.disconnect":
            pass
    finally:
        hub.leave(live.id, page)
        page.stop()
