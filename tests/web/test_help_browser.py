"""The help in a real browser: the game page's link opens the help in the page's language, and
the help pages (the rules, and the other games' rules) read in their language and direction
without any script.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from backgammon.server.pages.help import LANGUAGES

TITLES = {"en": "The rules of backgammon", "fa": "قوانین تخته نرد"}


@pytest.mark.parametrize("lang", ["en", "fa", "km"])
def test_the_game_pages_help_link_opens_the_help_in_its_language(
    server: str, page: Any, lang: str
) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    if lang != "en":
        page.select_option("#language", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    assert page.get_attribute("#help-link", "href") == f"/help/{lang}/"
    assert page.inner_text("#help-link").strip()
    page.click("#help-link")
    page.wait_for_url(f"{server}/help/{lang}/")
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
    assert page.locator("h1").count() == 1
    page.evaluate("localStorage.clear()")


def test_the_help_reads_without_scripts_in_each_language(server: str, browser: Any) -> None:
    context = browser.new_context(
        java_script_enabled=False, viewport={"width": 900, "height": 900}
    )
    opened = context.new_page()
    for lang, topic in itertools.product(LANGUAGES, ("rules", "games")):
        opened.goto(f"{server}/help/{lang}/{topic}")
        assert opened.get_attribute("html", "lang") == lang
        # The stylesheet applies, the boards are drawn and fit the page.
        width = "getComputedStyle(document.querySelector('main')).maxWidth"
        assert opened.evaluate(width) != "none"
        boards = opened.locator("figure.board svg")
        assert boards.count() >= 5
        for index in (0, boards.count() - 1):
            box = boards.nth(index).bounding_box()
            assert box is not None and 0 < box["width"] <= 900
        if lang in TITLES and topic == "rules":
            assert opened.inner_text("h1") == TITLES[lang]
    # Right to left: the Persian navigation starts on the right; the board is not mirrored.
    opened.goto(f"{server}/help/fa/rules")
    first, last = (opened.locator("nav.topics li").nth(i).bounding_box() for i in (0, 5))
    assert first is not None and last is not None and first["x"] > last["x"]
    assert opened.evaluate(
        "getComputedStyle(document.querySelector('figure.board svg')).direction"
    ) == "ltr"
    context.close()
