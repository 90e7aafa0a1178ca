"""The pages watching each match, and the state pushed to them after every action.

Publishing never waits on a page: each watcher has a queue of at most ``queue_size`` states
and its own sender task (:meth:`Watcher.start`), so an action puts its state in the queues and
goes on. A watcher whose queue is full (a page that stopped reading) is dropped: its sender
stopped and its socket closed with code 1013.

Each state pushed carries the match's ``version``, the number of events in its record, which
every event raises: it is the event id. A watcher is sent only states newer than the last it
was sent, so it never has one twice or out of order. A page that reconnects names the last
version it saw (``since``) and is sent what it missed (the state now) or nothing if it missed
nothing. A watcher of ``changes`` is sent, in each state, only the record's changes since the
previous state it was sent (or since ``since``): a page that keeps the states it is sent
extends its record with them.

Where several processes serve the matches, the hub of each follows, through a
:class:`~.relay.Relay`, the matches its pages watch: a notice that another process has
saved a new version brings this process's copy up to its row, each event it lacked shown
here too (:meth:`.store.MatchStore.heard`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from starlette.websockets import WebSocket, WebSocketDisconnect

from .live import LiveMatch
from .relay import Relay
from .views import Shown

log = logging.getLogger(__name__)

#: The states a watcher may have waiting by default.
QUEUE_SIZE = 32
#: The close code of a page dropped for falling behind (RFC 6455's "try again later").
BEHIND = 1013
#: A page's name for itself (:attr:`Watcher.name`): 16 to 64 letters, digits, '-' or '_', of
#: which a page makes a random one (long enough that nobody else's page guesses it).
WATCHER_NAME = "^[A-Za-z0-9_-]{16,64}$"


@dataclass(eq=False)
class Watcher:
    """One open WebSocket, the seat whose side it sees the board from, and the states (as
    JSON text) waiting to be sent to it."""

    socket: WebSocket
    view: int
    queue: asyncio.Queue[str]
    #: The version of the last state sent (or the one the page last saw): only newer ones go.
    last: int = -1
    #: Each state's record holds only what changed since the last state sent.
    changes: bool = False
    #: The page's own name for itself (empty: none), which its actions name (``Watcher-Id``):
    #: the state an action makes is not pushed to the page whose action it was, which has it
    #: from the answer.
    name: str = ""
    #: The task sending the queued states, and the one closing a dropped watcher's socket.
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def start(self) -> None:
        """Start sending the queued states as they come."""
        self.tasks.append(asyncio.create_task(self._send_all()))

    def stop(self) -> None:
        """Stop sending (the page has gone)."""
        for task in self.tasks:
            task.cancel()

    def drop(self) -> None:
        """Stop sending and close the socket: the page fell behind."""
        self.stop()
        self.tasks.append(asyncio.create_task(self._close()))

    async def _send_all(self) -> None:
        try:
            while True:
                await self.socket.send_text(await self.queue.get())
        except (OSError, RuntimeError, WebSocketDisconnect):
            log.debug("a watcher's socket failed", exc_info=True)  # the page has gone

    async def _close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, WebSocketDisconnect):
            await self.socket.close(code=BEHIND, reason="Too far behind; reconnect.")


@dataclass
class Hub:
    """The watchers of each match, by match id."""

    queue_size: int = QUEUE_SIZE
    watchers: dict[str, set[Watcher]] = field(default_factory=dict)
    #: The other processes' notices of new versions, where there are other processes.
    relay: Relay | None = None

    def watcher(
        self,
        socket: WebSocket,
        view: int,
        since: int = -1,
        *,
        changes: bool = False,
        name: str = "",
    ) -> Watcher:
        """A new watcher of ``socket``, from seat ``view``'s side, with an empty queue, for
        a page that has seen the match up to version ``since`` (-1: nothing yet), sent the
        record's ``changes`` only, or the whole record in every state; ``name``: the page's
        own name for itself, which its actions give (:meth:`publish`)."""
        return Watcher(socket, view, asyncio.Queue(self.queue_size), since, changes, name)

    async def join(self, match_id: str, watcher: Watcher) -> None:
        """Start pushing the match's new states to ``watcher`` (and, the first watcher here,
        follow the other processes' notices about the match: any state read after this
        returns is one this process will hear about)."""
        first = match_id not in self.watchers
        self.watchers.setdefault(match_id, set()).add(watcher)
        if first and self.relay is not None:
            await self.relay.follow(match_id)

    def catch_up(self, live: LiveMatch, watcher: Watcher) -> None:
        """Send ``watcher`` the state now if it has not seen it; a match over's always: its
        rematch may have been offered or answered since, at the same version."""
        if live.version > watcher.last or live.match.is_over:
            watcher.queue.put_nowait(Shown(live).text(watcher.view, _base(watcher)))
            watcher.last = live.version

    def leave(self, match_id: str, watcher: Watcher) -> None:
        """Stop pushing to ``watcher``."""
        watchers = self.watchers.get(match_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.watchers[match_id]
                if self.relay is not None:
                    self.relay.unfollow(match_id)

    def watching(self, match_id: str) -> bool:
        """Whether some page watches the match."""
        return match_id in self.watchers

    def publish(
        self,
        live: LiveMatch,
        *,
        again: bool = False,
        shown: Shown | None = None,
        answered: str | None = None,
    ) -> None:
        """Queue the match's new state for every watcher, each from its own side (the state
        of each side is made once, or taken from ``shown``, the state now that an action
        answers with too). Waits for nobody. ``again``: the state has changed without a new
        event (a seat taken), so it goes to those sent its version already. ``answered``:
        the name of the page whose action made the state, which has it from the answer: it
        is not sent again there (a watcher of another process is, and the page ignores it)."""
        shown = shown or Shown(live)
        version = live.version
        for watcher in list(self.watchers.get(live.id, ())):
            if version < watcher.last or (version == watcher.last and not again):
                continue  # sent already, or older than what was
            if answered and watcher.name == answered and not again:
                # The answer's record holds the changes since the version the page acted
                # on, which is the one it was last sent: its next push goes on from here.
                watcher.last = version
                continue
            self._send(live.id, watcher, shown.text(watcher.view, _base(watcher)), version)

    def post(self, match_id: str, text: str) -> None:
        """Queue ``text``, news that is no state of the match (a chat message: :mod:`..chat`),
        for every watcher of the match, whatever version it was last sent; a watcher whose
        queue is full is dropped, as :meth:`publish` drops it."""
        for watcher in list(self.watchers.get(match_id, ())):
            self._send(match_id, watcher, text, watcher.last)

    def _send(self, match_id: str, watcher: Watcher, text: str, version: int) -> None:
        """Queue ``text``, the state of ``version``, for ``watcher``, or drop it (it fell
        behind)."""
        try:
            watcher.queue.put_nowait(text)
            watcher.last = version
        except asyncio.QueueFull:
            log.info("dropping a watcher of match %s that fell behind", match_id)
            self.leave(match_id, watcher)
            watcher.drop()


def _base(watcher: Watcher) -> int | None:
    """The version the record of the next state sent to ``watcher`` starts after (None: the
    whole record)."""
    return watcher.last if watcher.changes and watcher.last >= 0 else None
