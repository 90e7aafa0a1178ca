"""A match with a clock between two browsers, and a spectator: the time control chosen in the
front page's form, each seat's clock shown on both boards and the spectator's, ticking down,
and a player who does not move losing the match on time, which every page shows.

The clock is a tiny custom one (a few seconds); the test waits for what the pages show, never
for a fixed time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    choose,
    fetch_state,
    listen,
    more_options,
    open_pages,
    start,
    wait_version,
)

#: Long enough for the few seconds the time control gives, however loaded the machine.
PATIENCE = 60_000


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    yield from open_pages(browser, 3)


def bank_of(page: Any, seat: int) -> int:
    return int(page.get_attribute(f'.player[data-seat="{seat}"] .clock', "data-bank"))


def test_the_clocks_tick_on_every_board_and_a_player_out_of_time_loses(
    server: str, contexts: list[Any]
) -> None:
    first, second, spectator = contexts
    first.goto(server + "/")
    choose(first, "friend", "online")
    first.fill('input[name="player_name"]', "Ann")
    first.fill('input[name="length"]', "1")
    more_options(first)
    assert first.is_hidden("#clock-custom")
    first.select_option('select[name="clock"]', "custom")
    first.fill('input[name="clock_delay"]', "3")
    first.fill('input[name="clock_bank"]', "4")
    start(first)
    first.wait_for_selector("#invite:not([hidden])")
    match_id = first.url.split("match=")[1]
    clock = fetch_state(server, match_id)["clock"]
    assert (clock["delay"], clock["bank"], clock["preset"]) == (3, 4, None)

    second.goto(first.input_value("#invite-link"))
    second.wait_for_selector("#join-clock:not([hidden])")
    assert second.inner_text("#join-clock") == "Clock: 3 s a move, then 4 s a point"
    second.fill('#join-form [name="player_name"]', "Bob")
    second.click("#join-form button[type=submit]")
    second.wait_for_selector('[data-place="p24"]')
    spectator.goto(f"{server}/?match={match_id}")
    spectator.wait_for_selector("#watching:not([hidden])")
    pages = (first, second, spectator)
    for page in pages:
        page.wait_for_selector(".player .clock:not([hidden]) >> nth=1")
        assert page.get_attribute(".player .clock", "role") == "timer"

    # The opening roll; then the player to move does not, and their clock runs down on
    # every page (the delay first, then the bank), until the server records the time-out.
    for page in (first, second):
        listen(page)
    state = fetch_state(server, match_id)
    while state["phase"] == "opening":  # each throws their own die, again after a tie
        thrower = first if state["to_act"] is None else pages[state["to_act"]]
        thrower.click('.controls [data-action="roll"]')
        wait_version(thrower, state["version"] + 1)
        state = fetch_state(server, match_id)
    assert not state["match_over"], "a player ran out of time at the opening roll"
    for page in pages:
        wait_version(page, state["version"])
    mover = state["to_act"]
    for page in pages:
        page.wait_for_selector(f'.player[data-seat="{mover}"] .clock.is-running')
    # A page drawn again (another language) keeps the running clock running, where it was.
    spectator.select_option("#language", "mt")
    spectator.wait_for_function("() => document.documentElement.lang === 'mt'")
    spectator.wait_for_selector(f'.player[data-seat="{mover}"] .clock.is-running')
    for page in pages:
        page.wait_for_function(
            "seat => Number(document.querySelector("
            "`.player[data-seat=\"${seat}\"] .clock`).dataset.bank) < 4",
            arg=mover, timeout=PATIENCE,
        )
        assert bank_of(page, 1 - mover) <= 4
    for page in pages:
        page.wait_for_selector("#game-end:not([hidden])", timeout=PATIENCE)
    state = fetch_state(server, match_id)
    assert state["match_over"] and state["winner"] == 1 - mover
    assert state["record"][0]["result"]["reason"] == "time"
    loser_page = pages[mover]
    assert "You ran out of time." in loser_page.inner_text("#game-end-result")
    # The low time was said once to the player whose time it was, not every second.
    heard = loser_page.evaluate("window.heard")
    assert sum("Your time is running out" in line for line in heard) == 1, heard
    for page in pages:
        assert page.locator(".player .clock.is-running").count() == 0
