"""The pages work under their own Content-Security-Policy: loaded in a browser that enforces
it (the other browser tests bypass it, since Playwright evaluates their JavaScript conditions
with eval), no page breaks a directive, and the game page, the help, the tutorial, the
verifier and the account page draw what they should."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import match_url, post


@pytest.fixture
def strict(browser: Any) -> Iterator[tuple[Any, list[str]]]:
    """A page that enforces the CSP, and the violations it reports."""
    context = browser.new_context(bypass_csp=False, viewport={"width": 900, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text)
            if "Content Security Policy" in message.text else None)
    page.on("pageerror", lambda error: violations.append(str(error)))
    yield page, violations
    context.close()


@pytest.mark.parametrize(
    ("path", "drawn"),
    [("/", "#setup-form"), ("/help/en/", "#content"), ("/tutorial/en", ".tutorial-step"),
     ("/verify.html", "#verify-form"), ("/account", "#content"),
     ("/editor", "body[data-ready=true]"), ("/trainer", "body[data-ready=true]")],
)
def test_the_pages_keep_their_policy(
    server: str, strict: tuple[Any, list[str]], path: str, drawn: str
) -> None:
    page, violations = strict
    page.goto(f"{server}{path}")
    page.wait_for_selector(drawn, state="attached")
    page.wait_for_load_state("networkidle")
    assert violations == []


def test_a_game_is_played_under_the_policy(server: str, strict: tuple[Any, list[str]]) -> None:
    page, violations = strict
    match_id = post(server, "/api/matches", {"opponent": "human"})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector("#board circle")
    page.wait_for_load_state("networkidle")
    assert violations == []
