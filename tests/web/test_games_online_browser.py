"""The other games online in two browsers: a signed-in player offers a rated match of Plakoto
in the lobby from the front page's form, another signed-in player sees the game and the
creator's Plakoto rating in the lobby and joins; both play their turns by clicks on their own
pages, one resigns, and the players' pages show the Plakoto ratings moved, backgammon's not.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    choose,
    click_first_step,
    fetch_state,
    open_pages,
    sign_up,
    start,
    wait_version,
)

#: Each player makes this many plays by clicks before the game is resigned.
PLAYS = 2


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Two players' browser contexts, each a page with no page errors."""
    yield from open_pages(browser, 2)


def act_by_clicks(page: Any, state: dict[str, Any], seat: int) -> None:
    """Make ``seat``'s next action on its own page: roll, confirm, or the first step on offer
    (``state`` as that seat's page draws it)."""
    actions = state["actions"][seat]
    if "roll" in actions:
        page.click('.controls [data-action="roll"]')
    elif "confirm" in actions:
        page.click('.controls [data-action="confirm"]')
    else:
        click_first_step(page, state)


def test_a_rated_match_of_plakoto_between_two_browsers(
    server: str, contexts: list[Any]
) -> None:
    first, second = contexts
    sign_up(first, server, "Alice")
    first.goto(server + "/")
    choose(first, "lobby")
    first.select_option('select[name="game"]', "plakoto")
    first.fill('input[name="length"]', "1")
    first.check('input[name="rated"]')
    start(first)
    first.wait_for_function("() => location.search.startsWith('?match=')")
    match_id = first.evaluate("new URLSearchParams(location.search).get('match')")
    assert fetch_state(server, match_id, 0)["game"] == "plakoto"

    # The other player finds it in the lobby: the game, and Alice's rating in it.
    sign_up(second, server, "Bobby")
    second.goto(server + "/")
    entry = second.locator("#lobby-list li", has_text="Alice (rating 1500.00)")
    entry.wait_for()
    text = entry.inner_text()
    assert "Alice (rating 1500.00): Plakoto; Match to 1;" in text and "; Rated" in text
    entry.get_by_role("button", name="Join").click()
    second.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    pages = {0: first, 1: second}
    for page in pages.values():
        page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
        wait_version(page, 1)  # the seat taken

    # Each plays their turns on their own page; the other page follows every action.
    plays = {0: 0, 1: 0}
    state = fetch_state(server, match_id, 0)
    while min(plays.values()) < PLAYS:
        seat = state["to_act"]
        if seat is None:  # the opening roll: each throws their own die
            seat = next(s for s in (0, 1) if "roll" in state["actions"][s])
        seen = fetch_state(server, match_id, seat)
        if "confirm" in seen["actions"][seat]:
            plays[seat] += 1
        act_by_clicks(pages[seat], seen, seat)
        for page in pages.values():
            wait_version(page, state["version"] + 1)
        state = fetch_state(server, match_id, 0)
        assert pages[1 - seat].locator('.controls [data-action="roll"]:visible').count() == 0 \
            or state["to_act"] != seat
    # No hint is offered to either player while they play.
    assert first.is_hidden("#hint-button") and second.is_hidden("#hint-button")

    # The player to roll resigns a single game on their page; the other accepts on theirs.
    state = fetch_state(server, match_id, 0)
    while state["to_act"] is None or "resign" not in state["actions"][state["to_act"]]:
        seat = state["to_act"]
        act_by_clicks(pages[seat], fetch_state(server, match_id, seat), seat)
        wait_version(pages[1 - seat], state["version"] + 1)
        state = fetch_state(server, match_id, 0)
    resigning = state["to_act"]
    resigner = pages[resigning]
    resigner.click('.controls [data-action="resign"]')
    resigner.wait_for_selector("#resign-dialog[open]")
    resigner.click("#resign-yes")
    pages[1 - resigning].click('.controls [data-action="accept"]')
    for page in pages.values():
        page.wait_for_selector("#game-end:not([hidden])")
    assert fetch_state(server, match_id, 0)["winner"] == 1 - resigning

    # The players' pages: the Plakoto ratings moved, backgammon's stayed at 1500.
    winner, loser = ("Bobby", "Alice") if resigning == 0 else ("Alice", "Bobby")
    for name, rating in ((winner, "1510.00"), (loser, "1490.00")):
        first.goto(f"{server}/players/{name}?lang=en")
        table = first.locator("#game-ratings")
        assert "Plakoto" in table.inner_text() and rating in table.inner_text()
        assert "1500.00" in first.inner_text(".facts")
