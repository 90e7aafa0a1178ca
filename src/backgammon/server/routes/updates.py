"""Live updates: a WebSocket that receives the match's state after every action."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect, status

from ..computer import Computer
from ..hub import Hub, Watcher
from ..store import MatchStore, UnknownMatchError
from ..views import state_of

router = APIRouter(tags=["updates"])


@router.websocket("/api/matches/{match_id}/updates")
async def updates(socket: WebSocket, match_id: str, view: int = 0) -> None:
    """Send the state at once, then again after each action; messages sent in are ignored.

    ``view`` is the seat whose side the board is drawn from. An unknown match closes the
    socket with code 4404.
    """
    store: MatchStore = socket.app.state.store
    hub: Hub = socket.app.state.hub
    computer: Computer = socket.app.state.computer
    await socket.accept()
    if view not in (0, 1):
        await socket.close(code=status.WS_1008_POLICY_VIOLATION, reason="view is 0 or 1")
        return
    try:
        live = await store.get(match_id)
    except UnknownMatchError:
        await socket.close(code=4404, reason=f"There is no match with the id {match_id!r}.")
        return
    watcher = Watcher(socket, view)
    hub.join(match_id, watcher)
    try:
        await socket.send_json(state_of(live, view).model_dump(mode="json", by_alias=True))
        computer.wake(live)
        while True:
            await socket.receive_text()
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(match_id, watcher)
