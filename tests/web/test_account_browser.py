"""Accounts in a real browser: the account page's forms sign up, in and out, a refusal is said
on the form, a signed-in page plays (its requests carry the CSRF token), and a player hides
their page from everyone else.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import secrets
import urllib.error
import urllib.request
from typing import Any

from browser_support import PASSWORD, choose, sign_up, start


def test_sign_up_then_play_signed_in_then_sign_out(server: str, page: Any) -> None:
    name = "Walker" + secrets.token_hex(3)
    sign_up(page, server, name)
    assert f"You are signed in as {name}." in page.inner_text("main")
    # The game's page, signed in: a new game and a roll are state-changing requests.
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    assert page.get_attribute("#account-link", "href") == "/account"
    choose(page, "friend", "screen")
    start(page)
    page.wait_for_selector('[data-action="roll"]')
    page.click('[data-action="roll"]')
    page.wait_for_function("Number(document.querySelector('#board').dataset.version) > 0")
    page.goto(server + "/account")
    page.click("#sign-out")
    page.wait_for_selector("#sign-in")
    assert page.evaluate("document.cookie") == ""


def test_a_refused_sign_in_is_said_on_its_form(server: str, page: Any) -> None:
    page.goto(server + "/account")
    page.fill("#sign-in input[name=name]", "Nobody" + secrets.token_hex(3))
    page.fill("#sign-in input[name=password]", PASSWORD)
    page.click("#sign-in button[type=submit]")
    page.wait_for_function("document.querySelector('#sign-in .refusal').textContent !== ''")
    assert page.inner_text("#sign-in .refusal") == "The name or the password is wrong."


def test_the_account_page_follows_the_language_chosen_in_the_game(
    server: str, page: Any
) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    page.select_option("#language", "fa")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    page.click("#account-link")
    page.wait_for_function("document.documentElement.lang === 'fa'")
    assert page.get_attribute("html", "dir") == "rtl" and "lang=fa" in page.url


def test_a_player_hides_their_page_from_everyone_else(server: str, page: Any) -> None:
    name = "Hider" + secrets.token_hex(3)
    sign_up(page, server, name)
    assert not page.is_checked("#privacy input[name=hidden]")
    page.check("#privacy input[name=hidden]")
    page.click("#privacy button[type=submit]")
    page.wait_for_function("document.querySelector('#privacy .status').textContent !== ''")
    assert page.inner_text("#privacy .status") == "Saved."
    page.reload()
    assert page.is_checked("#privacy input[name=hidden]")  # kept on the account
    page.click("text=Your rating and rated matches")
    page.wait_for_selector("#hidden-note")
    assert "Only you can see this page" in page.inner_text("#hidden-note")
    assert page.inner_text("h1") == name
    # Anyone else: the sentence of an unknown name, with its status.
    try:
        urllib.request.urlopen(f"{server}/players/{name}?lang=en", timeout=10)
        raise AssertionError("a hidden page was shown to a guest")
    except urllib.error.HTTPError as refused:
        assert refused.code == 404
        assert "There is no player by that name." in refused.read().decode()
    page.context.clear_cookies()
    page.reload()
    assert page.inner_text("main p") == "There is no player by that name."
