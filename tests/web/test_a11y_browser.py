"""Accessibility in a real browser: the axe-core audit of every page in every language, and a
game played by the keyboard alone, heard through the page's live region.

axe-core comes from npm (``tests/web/package.json``, pinned by its lock file; ``make test``
runs ``npm ci --prefix tests/web``); without it the audits are skipped and say how to install
it. The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_browser import (  # noqa: F401 (fixtures)
    CHROMIUM_ARGS,
    browser,
    page,
    post,
    server,
    wait_version,
)

from backgammon.server.routes.help import LANGUAGES, TOPICS

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail the audit; "moderate" and "minor" are axe's advice.
FAILING = ("serious", "critical")
SEED = 5  # the person (seat 0) against the computer: the computer wins the opening roll


@pytest.fixture(scope="module")
def axe() -> str:
    if not AXE.exists():
        pytest.skip(
            "axe-core is not installed: run `npm ci --prefix tests/web` (make test does)"
        )
    return AXE.read_text(encoding="utf-8")


def audit(page: Any, axe: str) -> list[str]:  # noqa: F811
    """The serious and critical violations axe-core finds in the page as it is now, each as
    "rule: what is wrong (the elements)"."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    results = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        f"{violation['id']}: {violation['help']} "
        f"({', '.join(str(node['target']) for node in violation['nodes'][:5])})"
        for violation in results["violations"]
        if violation["impact"] in FAILING
    ]


def in_language(page: Any, lang: str) -> None:
    """Switch the game page to ``lang`` by its menu, and wait until it speaks it."""
    if lang != "en":
        page.select_option("#language", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_setup_form_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:  # noqa: F811
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    in_language(page, lang)
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_page_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:  # noqa: F811
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "beginner", "seed": SEED}
    )["id"]
    page.goto(f"{server}/?match={match_id}")
    page.wait_for_selector('[data-place="p24"]')
    in_language(page, lang)
    assert audit(page, axe) == []
    # The person's turn, a checker picked up and its points lit.
    page.click("#board", position={"x": 20, "y": 20})
    page.wait_for_selector("#board .place.is-source")
    page.click("#board .place.is-source")
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_pages_pass_the_audit(server: str, page: Any, axe: str, lang: str) -> None:  # noqa: F811
    failures = {}
    for topic in TOPICS:
        page.goto(f"{server}/help/{lang}/{'' if topic == 'index' else topic}")
        found = audit(page, axe)
        if found:
            failures[topic] = found
    assert failures == {}
