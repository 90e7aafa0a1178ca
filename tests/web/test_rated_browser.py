"""Rated matches from the front page in a browser: a signed-in player asks for one (the choice
is enabled only for an online match with a length), another signed-in player joins it from the
lobby, and it is listed as rated; a guest is not offered the choice.
"""

from __future__ import annotations

import secrets
from typing import Any

from browser_support import choose, more_options, sign_up, start


def signed_in(page: Any, server: str, name: str) -> None:
    """A new account ``name``, signed in on ``page``, which then shows the game's page."""
    sign_up(page, server, name)
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")


def test_a_signed_in_player_creates_a_rated_match_another_joins_it(
    server: str, page: Any, browser: Any
) -> None:
    alice, bob = ("Alice" + secrets.token_hex(3), "Bob" + secrets.token_hex(3))
    signed_in(page, server, alice)
    rated = page.locator('input[name="rated"]')
    assert rated.is_hidden() and rated.is_disabled()  # against the computer
    choose(page, "friend", "screen")
    assert rated.is_hidden() and rated.is_disabled()  # at one screen
    choose(page, "lobby")  # listed, for another to find
    assert rated.is_visible() and rated.is_disabled()  # money play
    page.fill('input[name="length"]', "3")
    assert rated.is_enabled()
    assert "FIBS formula" in page.inner_text("#rated-hint")
    more_options(page)
    page.fill("#setup-position", "4HPwATDgc/ABMA")
    assert rated.is_disabled()  # a position
    page.fill("#setup-position", "")
    rated.check()
    start(page)
    page.wait_for_function("() => location.search.startsWith('?match=')")
    match = page.evaluate("new URLSearchParams(location.search).get('match')")

    context = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        other = context.new_page()
        other.set_default_timeout(10_000)
        signed_in(other, server, bob)
        entry = other.locator("#lobby-list li", has_text=alice)
        entry.wait_for()
        assert "Match to 3" in entry.inner_text() and "Rated" in entry.inner_text()
        entry.get_by_role("button", name="Join").click()
        other.wait_for_function("id => location.search === `?match=${id}`", arg=match)
    finally:
        context.close()

    # A guest's page lists the match being played as rated, and offers no rated match.
    guest = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        seen = guest.new_page()
        seen.set_default_timeout(10_000)
        seen.goto(server + "/")
        playing = seen.locator("#live-list li", has_text=bob)
        playing.wait_for()
        assert alice in playing.inner_text() and "Rated" in playing.inner_text()
        for choice in ("friend", "lobby"):
            choose(seen, choice)
            seen.fill('input[name="length"]', "3")
            rated = seen.locator('input[name="rated"]')
            assert rated.is_hidden() and rated.is_disabled()
    finally:
        guest.close()


def test_a_rated_match_refused_says_why(server: str, page: Any) -> None:
    """A page that still looks signed in (its CSRF cookie) but whose session has gone (here
    its cookie, as when it expires or is signed out elsewhere) is offered a rated match; the
    server refuses it, and the page says so with the server's reason, not a general refusal."""
    signed_in(page, server, "Carol" + secrets.token_hex(3))
    page.context.clear_cookies(name="bg_session")
    choose(page, "friend", "online")
    page.fill('input[name="length"]', "3")
    page.check('input[name="rated"]')
    start(page)
    page.wait_for_function(
        "() => document.querySelector('#setup-message').textContent.includes('cannot be rated')"
    )
    assert "sign in" in page.inner_text("#setup-message")
    assert not page.evaluate("location.search")  # no match was made
