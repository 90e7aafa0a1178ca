"""The hint panel says why, in the page's language: the reasons of the play selected (or
looked at) under the list of plays, those of a cube decision under its advice; a change of
language asks for them again in the new one.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from browser_support import match_url, post, request_for

from backgammon.analysis.reasons import LANGUAGES

#: White on roll with 3-1, Black's blot on White's 5-point (tests/server/test_hint_reasons.py).
HITTING_XGID = "XGID=-a---aE-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


def create(base: str, position: str) -> str:
    match_id: str = post(base, "/api/matches", {"opponent": "human", "position": position})["id"]
    return match_id


def fetch_hint(base: str, match_id: str, lang: str) -> dict[str, Any]:
    address = request_for(base, f"/api/matches/{match_id}/hint?view=0&lang={lang}")
    with urllib.request.urlopen(address, timeout=60) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def shown_reasons(tab: Any) -> list[str]:
    return [item.inner_text() for item in tab.query_selector_all("#hint-body .hint-reasons li")]


def open_in(tab: Any, base: str, match_id: str, lang: str) -> None:
    """The match's page in ``lang`` in ``tab``, its hint panel open."""
    tab.goto(match_url(base, match_id))
    tab.wait_for_selector('[data-place="p24"]')
    tab.select_option("#language", lang)
    tab.wait_for_function(f"document.documentElement.lang === '{lang}'")
    tab.click("#hint-button")
    tab.wait_for_selector("#hint-body .hint-reasons li")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_hint_panel_says_why_in_the_pages_language(
    server: str, page: Any, lang: str
) -> None:
    match_id = create(server, HITTING_XGID)
    open_in(page, server, match_id, lang)
    expected = fetch_hint(server, match_id, lang)["plays"]
    assert expected[0]["play"] == "8/5* 6/5" and expected[0]["reasons"]
    assert "8/5* 6/5" in page.inner_text("#hint-body .hint-why-heading")
    assert shown_reasons(page) == expected[0]["reasons"]
    # Looking at another play shows its reasons; the pointer gone, the selected play's again.
    page.hover('.hint-play[data-index="1"]')
    assert shown_reasons(page) == expected[1]["reasons"]
    assert expected[1]["play"] in page.inner_text("#hint-body .hint-why-heading")
    page.click('.hint-play[data-index="2"]')
    page.mouse.move(5, 5)
    assert shown_reasons(page) == expected[2]["reasons"]
    page.evaluate("localStorage.clear()")


def test_a_change_of_language_asks_for_the_reasons_in_it(
    server: str, page: Any
) -> None:
    match_id = create(server, HITTING_XGID)
    open_in(page, server, match_id, "en")
    assert shown_reasons(page) == fetch_hint(server, match_id, "en")["plays"][0]["reasons"]
    vietnamese = fetch_hint(server, match_id, "vi")["plays"][0]["reasons"]
    page.select_option("#language", "vi")
    page.wait_for_function(
        "first => document.querySelector('#hint-body .hint-reasons li')?.textContent === first",
        arg=vietnamese[0],
    )
    assert shown_reasons(page) == vietnamese
    page.evaluate("localStorage.clear()")


def test_a_cube_hint_says_why(server: str, page: Any) -> None:
    # The start, White to roll: the cube decision before the roll.
    match_id = create(server, "4HPwATDgc/ABMA")
    open_in(page, server, match_id, "fa")
    expected = fetch_hint(server, match_id, "fa")["cube"]["reasons"]
    assert shown_reasons(page) == expected and expected[0].startswith("هنوز برای داو")
    page.evaluate("localStorage.clear()")
