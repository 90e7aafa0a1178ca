"""The pages watching each match, and the state pushed to them after every action."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from .store import LiveMatch
from .views import state_of

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Watcher:
    """One open WebSocket, and the seat whose side it sees the board from."""

    socket: WebSocket
    view: int


@dataclass
class Hub:
    """The watchers of each match, by match id."""

    watchers: dict[str, set[Watcher]] = field(default_factory=dict)

    def join(self, match_id: str, watcher: Watcher) -> None:
        """Start pushing ``match_id``'s state to ``watcher``."""
        self.watchers.setdefault(match_id, set()).add(watcher)

    def leave(self, match_id: str, watcher: Watcher) -> None:
        """Stop pushing to ``watcher``."""
        watchers = self.watchers.get(match_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.watchers[match_id]

    async def publish(self, live: LiveMatch) -> None:
        """Send the match's new state to every watcher, each from its own side."""
        for watcher in list(self.watchers.get(live.id, ())):
            state = state_of(live, watcher.view).model_dump(mode="json", by_alias=True)
            try:
                await watcher.socket.send_json(state)
            except Exception:  # a closed page: forget it, the others still get the state
                log.debug("dropping a watcher of match %s", live.id, exc_info=True)
                self.leave(live.id, watcher)
