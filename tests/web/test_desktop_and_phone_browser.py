"""Two people, one at a desktop and one on a phone, as players meet on a site: they find each
other in the lobby, each throws their own opening die, they see each other's plays, the cube
is turned and dropped, the match ends, and they play again (a rematch). Every action is made
by clicks (or taps) on the page of the player the game waits for, read from the server's
state; the dice are the server's own."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from browser_support import (
    choose,
    click_first_step,
    fetch_state,
    open_page,
    screenshot,
    start,
    wait_version,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "has_touch": True, "is_mobile": True}
#: A guard against a game that never reaches the state looked for, never a measure.
MOST_ACTIONS = 120
State = dict[str, Any]


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    yield from open_page(browser, viewport={"width": 1280, "height": 800})


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from open_page(browser, **PHONE)


def both_at(pages: dict[int, Any], version: int) -> None:
    for page in pages.values():
        wait_version(page, version)


def play_until(server: str, match_id: str, pages: dict[int, Any],
               done: Callable[[State], bool]) -> State:
    """Make, on the page of the seat the game waits for (seat 0's at an opening roll no one
    has thrown at), the first action it offers (a roll, a confirm, a checker's step) until
    ``done(state)``; both pages are at each state before the next action."""
    for _ in range(MOST_ACTIONS):
        state = fetch_state(server, match_id)
        if done(state):
            return state
        seat = 0 if state["to_act"] is None else state["to_act"]
        seen = fetch_state(server, match_id, seat)  # as that page draws it
        page = pages[seat]
        if "roll" in seen["actions"][seat]:
            page.click('.controls [data-action="roll"]')
        elif "confirm" in seen["actions"][seat]:
            page.click('.controls [data-action="confirm"]')
        else:
            click_first_step(page, seen)
        both_at(pages, state["version"] + 1)
    raise AssertionError("the game never reached the state looked for")


def test_a_desktop_and_a_phone_play_a_match_and_a_rematch(
    server: str, desktop: Any, phone: Any
) -> None:
    # Ann, at her desktop, offers a 2-point match in the lobby.
    desktop.goto(server + "/")
    choose(desktop, "lobby")
    desktop.fill('input[name="player_name"]', "Ann")
    desktop.fill('input[name="length"]', "2")
    start(desktop)
    desktop.wait_for_selector("#invite:not([hidden])")
    match_id = desktop.url.split("match=")[1]

    # Bob, on his phone, finds it in the lobby and takes the seat with a tap.
    phone.goto(server + "/")
    entry = phone.locator("#lobby-list li", has_text="Ann")
    entry.wait_for()
    entry.locator("button").tap()
    phone.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    desktop.wait_for_selector("#invite", state="hidden")
    pages = {0: desktop, 1: phone}
    both_at(pages, 1)

    # Each throws their own die; the winner plays the opening roll; the other sees the play
    # marked on their board, where each checker left and landed.
    state = play_until(server, match_id, pages, lambda s: s["phase"] == "roll")
    mover = 1 - state["to_act"]
    play = state["record"][0]["entries"][-1]
    assert play["kind"] == "play" and play["seat"] == mover
    watcher = pages[1 - mover]
    marks = watcher.locator(".last-play .play-mark")
    marks.first.wait_for()
    assert marks.count() >= 1

    # The other doubles before rolling; the opening's mover drops: 1 point to the doubler.
    doubler = state["to_act"]
    pages[doubler].click('.controls [data-action="double"]')
    both_at(pages, state["version"] + 1)
    pages[mover].click('.controls [data-action="drop"]')
    both_at(pages, state["version"] + 2)
    state = fetch_state(server, match_id)
    assert state["score"][doubler] == 1 and state["crawford"] and not state["match_over"]
    for page in pages.values():
        page.wait_for_selector("#game-end:not([hidden]) #next-game:visible")
    # "Next game" throws Ann's die of the next game; the panel goes on both boards, and Bob
    # throws his from the board.
    desktop.click("#next-game")
    both_at(pages, state["version"] + 1)
    phone.wait_for_selector("#game-end", state="hidden")

    # The Crawford game: whoever trails resigns on their turn; the match is over, 2-0.
    trailing = 1 - doubler
    state = play_until(server, match_id, pages, lambda s: s["to_act"] == trailing and (
        s["phase"] in ("roll", "move") and "resign" in s["actions"][trailing]))
    page = pages[trailing]
    page.select_option("#resign-level", "1")
    page.click('[data-action="resign"]')
    page.click("#resign-yes")
    both_at(pages, state["version"] + 1)
    pages[doubler].click('.controls [data-action="accept"]')
    both_at(pages, state["version"] + 2)
    state = fetch_state(server, match_id)
    assert state["match_over"] and state["winner"] == doubler and state["score"][doubler] == 2
    screenshot(phone, "desktop-and-phone-match-over.png")

    # A rematch: the phone offers, the desktop accepts, both pages move to the new match.
    for page in pages.values():
        page.wait_for_selector("#game-end:not([hidden]) #rematch-offer:visible")
    phone.tap("#rematch-offer")
    desktop.wait_for_selector("#rematch-accept:visible")
    desktop.click("#rematch-accept")
    for page in pages.values():
        page.wait_for_function("id => !location.search.endsWith(`=${id}`)", arg=match_id)
    rematch_id = desktop.evaluate("location.search").removeprefix("?match=")
    assert phone.evaluate("location.search") == f"?match={rematch_id}"
    rematch = fetch_state(server, rematch_id)
    assert rematch["rematch_of"] == match_id and rematch["length"] == 2
    assert rematch["phase"] == "opening" and rematch["thrown"] is None
