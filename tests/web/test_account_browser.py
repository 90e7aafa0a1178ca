"""Accounts in a real browser: the account page's forms sign up, in and out, a refusal is said
on the form, and a signed-in page plays (its requests carry the CSRF token).

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import secrets
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
