"""uvicorn's HTTP protocol with a deadline on each request's arrival.

uvicorn closes a kept-alive connection that stays silent, but a client that opens a
connection and sends nothing, or sends half a request's headers or body and stops, holds it
(and its memory) for as long as it likes: thousands of such connections from one machine
starve the server of sockets. :class:`TimedHttp` gives each request ``REQUEST_SECONDS``
from the moment the connection is made or the request's first byte comes (its request line,
headers and body must all have arrived by then) and closes the connection of a request that
has not. The answer's time is not counted: a request that has arrived whole may take as long
as its work does.

``backgammon serve`` uses it; with uvicorn's command line::

    uvicorn --factory backgammon.server:create_app --http backgammon.server.protocol:TimedHttp

``BACKGAMMON_REQUEST_SECONDS`` sets the deadline (30 seconds by default: a 1 MB upload at
35 KB/s).
"""

from __future__ import annotations

import asyncio
import os

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a request has to arrive whole, from the connection or from its first byte.
REQUEST_SECONDS = float(os.environ.get("BACKGAMMON_REQUEST_SECONDS") or 30)


class TimedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing a connection whose request does not arrive whole
    within :data:`REQUEST_SECONDS`."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()  # the connection becomes the WebSocket's, which has its own pings
        super().handle_websocket_upgrade()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(REQUEST_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()
