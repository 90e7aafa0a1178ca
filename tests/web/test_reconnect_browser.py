"""A page of an online game loses its connection while the other player acts, reconnects, and
shows every event it missed once: the board, the record and what its live region says are
those of a page that never left, with nothing twice; and the game goes on from it.

The connection is cut by routing the page's WebSockets through Playwright
(``page.route_web_socket``): Chromium's offline emulation (``context.set_offline``) leaves an
open WebSocket open, so it cannot drop one. While cut, the page's attempts to reconnect are
closed at once; once restored, its next attempt reaches the server, naming the last version
it saw.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import fetch_state, listen, match_url, open_pages, post, wait_version

SEED = 11  # seat 1 wins the opening roll, 5 against 4


class Line:
    """The WebSocket route of a page: passed through to the server until cut; while cut, every
    connection the page opens is closed at once (the page then tries again)."""

    def __init__(self) -> None:
        self.cut = False
        self.open: list[Any] = []
        self.refused = 0

    def route(self, socket: Any) -> None:
        if self.cut:
            self.refused += 1
            socket.close()
            return
        socket.connect_to_server()
        self.open.append(socket)

    def drop(self) -> None:
        """Cut the line: close the page's open sockets (and so their server sides)."""
        self.cut = True
        for socket in self.open:
            socket.close()
        self.open.clear()


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Two browser contexts, each a page with no page errors."""
    yield from open_pages(browser, 2)


def act(base: str, match_id: str, token: str, action: dict[str, Any]) -> None:
    """An action of the seat ``token`` holds, made through the API."""
    version = fetch_state(base, match_id, 0)["version"]
    request = urllib.request.Request(
        f"{base}/api/matches/{match_id}/actions",
        data=json.dumps({**action, "version": version}).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=10):
        pass


def record_lines(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#record li").all_inner_texts()]


def test_a_page_that_lost_its_connection_shows_each_missed_event_once(
    server: str, pages: list[Any]
) -> None:
    first, second = pages
    created = post(server, "/api/matches", {"opponent": "online", "names": ["Ann", "Player"],
                                             "length": 3, "seed": SEED})
    match_id = created["id"]
    bob = post(server, "/api/matches/join", {"invite": created["invite"], "name": "Bob"})
    line = Line()
    first.route_web_socket(re.compile(r"/api/matches/[^/]+/updates"), line.route)
    first.goto(match_url(server, match_id))
    second.goto(f"{server}/?match={match_id}#token={bob['token']}&seats=1")
    for page in pages:
        wait_version(page, 1)  # the seat taken
    listen(first)

    line.drop()
    first.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('reconnecting')")
    # Each throws their opening die; Bob wins the opening roll (5-4), plays it step by step
    # and confirms: several events Ann's page does not hear of, while it keeps trying to
    # reconnect and is refused.
    act(server, match_id, created["token"], {"seat": 0, "action": "roll"})
    act(server, match_id, bob["token"], {"seat": 1, "action": "roll"})
    while "roll" not in (state := fetch_state(server, match_id, 1))["actions"][0]:
        if "confirm" in state["actions"][1]:
            act(server, match_id, bob["token"], {"seat": 1, "action": "confirm"})
        else:
            step = state["steps"][0]
            act(server, match_id, bob["token"],
                {"seat": 1, "action": "step", "from": step["from"], "to": step["to"]})
    missed = fetch_state(server, match_id, 0)
    wait_version(second, missed["version"])
    # Once the page has tried to reconnect and been refused, it still shows the state before.
    deadline = time.monotonic() + 10
    while line.refused == 0:  # the page tries again a second after each close
        assert time.monotonic() < deadline, "the page never tried to reconnect"
        first.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    assert first.get_attribute("#board", "data-version") == "1"

    line.cut = False  # the page's next attempt goes through
    wait_version(first, missed["version"])
    first.wait_for_function("() => document.querySelector('#message').textContent === ''")
    # The board is the server's, and the record that of a page opened now, once each.
    assert first.input_value("#gnubg-id") == missed["gnubg_id"]
    fresh = first.context.new_page()
    fresh.goto(f"{server}/?match={match_id}")  # the token is kept in this browser
    wait_version(fresh, missed["version"])
    assert record_lines(first) == record_lines(fresh)
    [game] = missed["record"]
    assert len(record_lines(first)) == len(game["entries"]) == 2  # the opening, Bob's play
    heard = first.evaluate("window.heard")
    opening = [text for text in heard if text.startswith("Opening roll:")]
    played = [text for text in heard if text.startswith("Bob rolled") and "played" in text]
    assert len(opening) == len(played) == 1, heard
    assert len(heard) == len(set(heard)), heard
    fresh.close()

    # The game goes on from there: Ann rolls on her page, and Bob's page sees it.
    first.click('.controls [data-action="roll"]')
    wait_version(second, missed["version"] + 1)
