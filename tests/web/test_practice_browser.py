"""Practice matches in a real browser: the creator of a friend's online game allows hints and
analysis (never with a rated match), the friend reads so on the invitation before the join
button, both boards say so for the whole match, and the player whose turn it is gets a hint;
in a match without the option the hint stays hidden, and the lobby names a practice match.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    catalogue,
    choose,
    fetch_state,
    more_options,
    open_pages,
    post,
    screenshot,
    sign_up,
    start,
    wait_version,
)

MESSAGES = catalogue()


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Two browser contexts, the creator's and the friend's, each a page with no page
    errors."""
    yield from open_pages(browser, 2)


def invite_a_friend(page: Any, practice: bool) -> tuple[str, str]:
    """Make a friend's online match to 3 from the front page (a practice match where asked):
    its id and its invite link."""
    choose(page, "friend", "online")
    page.fill('input[name="length"]', "3")
    if practice:
        more_options(page)
        page.check('input[name="practice"]')
    start(page)
    page.wait_for_selector("#invite:not([hidden])")
    return page.url.split("match=")[1], page.input_value("#invite-link")


def roll_the_opening(server: str, pages: list[Any], match_id: str) -> dict[str, Any]:
    """Roll the opening (again after a tie), each player throwing their own die from their
    page (``pages`` by seat): the state once a player is on roll."""
    state = fetch_state(server, match_id, 0)
    while state["phase"] == "opening":
        page = pages[0 if state["to_act"] is None else state["to_act"]]
        page.click("#board", position={"x": 20, "y": 20})
        wait_version(page, state["version"] + 1)
        state = fetch_state(server, match_id, 0)
    return state


def test_both_players_see_a_practice_match_and_get_hints(server: str, pages: list[Any]) -> None:
    first, second = pages
    # A signed-in creator, so that "Rated match" is offered: choosing it takes the practice
    # option away (a rated match is never a practice match).
    sign_up(first, server, "Ann" + secrets.token_hex(3))
    first.goto(server + "/")
    choose(first, "friend", "online")
    first.fill('input[name="length"]', "3")
    more_options(first)
    practice = first.locator('input[name="practice"]')
    assert practice.is_visible() and practice.is_enabled()
    assert first.inner_text('[data-msg="setup.practice"]') == MESSAGES["setup.practice"]
    practice.check()
    first.check('input[name="rated"]')
    assert practice.is_disabled() and not practice.is_checked()
    first.uncheck('input[name="rated"]')
    assert practice.is_enabled()
    # Not offered for a stranger found in the lobby, nor at one screen.
    for choice, where in (("lobby", None), ("friend", "screen"), ("computer", None)):
        choose(first, choice, where)
        assert practice.is_hidden() and practice.is_disabled()
    match_id, link = invite_a_friend(first, practice=True)
    assert fetch_state(server, match_id, 0)["practice"]

    # The friend reads that it is a practice match before the join button.
    second.goto(link)
    notice = second.locator("#join-practice")
    notice.wait_for()
    assert notice.inner_text() == MESSAGES["join.practice"]
    assert second.evaluate(
        "() => Boolean(document.querySelector('#join-practice').compareDocumentPosition("
        "document.querySelector('#join-form button[type=submit]'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING)"
    )
    screenshot(second, "practice-invite.png")
    second.click("#join-form button[type=submit]")
    second.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    first.wait_for_selector("#invite", state="hidden")

    # Both boards say so, and the player on roll gets a hint; the other does not (not their
    # turn).
    for page in pages:
        page.wait_for_selector("#practice-note:not([hidden])")
        assert page.inner_text("#practice-note") == MESSAGES["practice.notice"]
    state = roll_the_opening(server, pages, match_id)
    mover, other = pages[state["to_act"]], pages[1 - state["to_act"]]
    for page in pages:
        wait_version(page, state["version"])
    assert other.is_hidden("#hint-button")
    mover.click("#hint-button")
    mover.wait_for_selector("#hint .hint-play")
    assert mover.locator("#hint .hint-play").count() >= 1
    assert mover.is_visible("#practice-note")
    screenshot(mover, "practice-hint.png")


def test_a_match_without_the_option_keeps_the_hint_hidden(
    server: str, pages: list[Any]
) -> None:
    first, second = pages
    first.goto(server + "/")
    match_id, link = invite_a_friend(first, practice=False)
    second.goto(link)
    second.wait_for_selector("#join-form button[type=submit]")
    assert second.is_hidden("#join-practice")
    second.click("#join-form button[type=submit]")
    second.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    first.wait_for_selector("#invite", state="hidden")
    state = roll_the_opening(server, pages, match_id)
    for page in pages:
        wait_version(page, state["version"])
        assert page.is_hidden("#hint-button") and page.is_hidden("#practice-note")
    # The page on roll has its controls, but no hint (the server would refuse it).
    pages[state["to_act"]].wait_for_selector("#board .place.is-source")
    assert pages[state["to_act"]].is_hidden("#hint-button")


def test_the_lobby_names_a_practice_match(server: str, pages: list[Any]) -> None:
    page = pages[0]
    post(server, "/api/matches", {"opponent": "online", "lobby": True, "practice": True,
                                  "names": ["Pia", "Black"]})
    page.goto(server + "/")
    entry = page.locator("#lobby-list li", has_text="Pia")
    entry.wait_for()
    assert MESSAGES["lobby.practice"] in entry.inner_text()
