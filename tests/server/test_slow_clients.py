"""A client that holds a connection without sending a whole request is cut off: the server
(a real uvicorn process with backgammon.server.protocol.TimedHttp, as ``backgammon serve``
runs it) closes a connection that sends nothing, half a request's headers or half its body
once the request deadline has passed, while a WebSocket, once upgraded, stays open past it.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable
from typing import Any

import pytest

from backgammon.server import Settings

pytest.importorskip("uvicorn")
sync_client = pytest.importorskip("websockets.sync.client")

#: A guard against a hang, never a measure.
PATIENCE = 30.0


def _held(port: int, sent: bytes) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE)
    if sent:
        connection.sendall(sent)
    return connection


def _closed_by_server(connection: socket.socket) -> bool:
    """Whether the server closes the connection (before PATIENCE seconds), reading what it
    sends meanwhile."""
    try:
        while connection.recv(4096):
            pass
        return True
    except TimeoutError:
        return False
    finally:
        connection.close()


def test_half_sent_requests_are_cut_off_and_websockets_are_not(
    database: Settings, launch: Callable[..., Any]
) -> None:
    server = launch(database, BACKGAMMON_REQUEST_SECONDS="1")
    status, made = server.request("POST", "/api/matches", {"opponent": "human"})
    assert status == 201
    url = f"ws://127.0.0.1:{server.port}/api/matches/{made['id']}/updates"
    with sync_client.connect(url, open_timeout=PATIENCE) as watcher:
        assert json.loads(watcher.recv(timeout=PATIENCE))["version"] == 0
        silent = _held(server.port, b"")
        headers = _held(server.port, b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")
        body = _held(server.port, b"POST /api/matches HTTP/1.1\r\nHost: x\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"op")
        assert _closed_by_server(silent)
        assert _closed_by_server(headers)
        assert _closed_by_server(body)
        # The deadline has passed for the WebSocket too: it still carries the next state.
        status, _ = server.request("POST", f"/api/matches/{made['id']}/actions",
                                   {"seat": 0, "action": "roll", "version": 0}, made["token"])
        assert status == 200
        assert json.loads(watcher.recv(timeout=PATIENCE))["version"] >= 1
    # A request sent whole is answered as ever.
    assert server.request("GET", "/api/lobby")[0] == 200
