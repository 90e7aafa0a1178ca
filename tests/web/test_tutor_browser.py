"""The tutor in the page: against the computer, with the tutor on, a clearly bad play made
and confirmed is not sent but warned of, with the better play and its reasons; "Take back"
undoes its steps (the better play then goes through without a word), "Keep it" sends it as
it was. The warning is said once to screen readers and the focus is on its choice.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    choose,
    listen,
    match_url,
    more_options,
    post,
    request_for,
    version,
    wait_version,
)

from backgammon.server.pages.help import LANGUAGES

#: The starting position, White (seat 0, the person) on roll with 6-4: 8/2 6/2 is best, 13/3
#: loses about 0.09 (a bad play) (tests/server/test_tutor.py).
OPENING_64 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:0:10"
#: The starting position, White to roll or double: doubling is a very bad mistake.
START = "4HPwATDgc/ABMA"
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"


def open_match(page: Any, server: str, position: str = OPENING_64) -> str:
    match_id: str = post(server, "/api/matches", {
        "opponent": "computer", "position": position, "seed": 7,
    })["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p13"]')
    page.select_option("#tutor-level", "bad")
    listen(page)
    return match_id


def step(page: Any, source: str, target: str | None = None) -> None:
    """Move a checker from ``source`` (to ``target`` where it has a choice)."""
    before = version(page)
    page.click(f'[data-place="{source}"]')
    if target is not None:
        page.click(f'[data-place="{target}"]')
    wait_version(page, before + 1)


def bad_play_warned(page: Any) -> None:
    step(page, "p13", "p7")
    step(page, "p7")
    page.click('.controls [data-action="confirm"]')
    page.wait_for_selector("#tutor:not([hidden])")
    assert "8/2 6/2" in page.inner_text("#tutor-better")
    assert page.get_attribute("#tutor", "data-mark") == "bad" and page.inner_text("#tutor-loss")
    assert page.query_selector_all("#tutor-reasons li")
    assert page.evaluate("document.activeElement.id") == "tutor-take-back"
    heading = page.inner_text("#tutor-heading")
    said = [line for line in page.evaluate("window.heard") if line.startswith(heading)]
    assert len(said) == 1 and "8/2 6/2" in said[0], said
    assert page.get_attribute("#board", "data-phase") == "confirm"  # nothing sent


def notes(server: str, match_id: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(request_for(server, f"/api/matches/{match_id}/tutor")) as answer:
        kept: list[dict[str, Any]] = json.load(answer)["notes"]
    return kept


def events(server: str, match_id: str) -> list[str]:
    with urllib.request.urlopen(request_for(server, f"/api/matches/{match_id}/record")) as answer:
        return [event["action"] for event in json.load(answer)["games"][0]]


def test_a_bad_play_is_taken_back_and_the_good_one_made(server: str, page: Any) -> None:
    match_id = open_match(page, server)
    bad_play_warned(page)
    before = version(page)
    page.keyboard.press("Enter")  # "Take back", which has the focus
    wait_version(page, before + 2)
    page.wait_for_selector("#tutor", state="hidden")
    assert page.get_attribute("#board", "data-phase") == "move"
    step(page, "p8", "p2")
    step(page, "p6")
    page.click('.controls [data-action="confirm"]')
    # No warning: the play is sent, and the computer answers it.
    page.wait_for_function(
        "document.querySelector('#board').dataset.phase !== 'confirm'"
        " && document.querySelector('#tutor').hidden"
    )
    kept = notes(server, match_id)
    assert [(n["played"], n["best"], n["mark"]) for n in kept] == [("13/3", "8/2 6/2", "bad")]
    after = events(server, match_id)[kept[0]["event"]:]
    assert after[:5] == ["undo", "undo", "step", "step", "confirm"], after
    page.evaluate("localStorage.clear()")


def test_keep_it_sends_the_bad_play(server: str, page: Any) -> None:
    match_id = open_match(page, server)
    bad_play_warned(page)
    page.click("#tutor-keep")
    page.wait_for_selector("#tutor", state="hidden")
    page.wait_for_function("document.querySelector('#board').dataset.phase !== 'confirm'")
    kept = notes(server, match_id)
    assert len(kept) == 1
    assert events(server, match_id)[kept[0]["event"]] == "confirm"
    page.evaluate("localStorage.clear()")


def test_a_double_warned_of_is_not_sent_when_taken_back(server: str, page: Any) -> None:
    match_id = open_match(page, server, START)
    page.click('.controls [data-action="double"]')
    page.wait_for_selector("#tutor:not([hidden])")
    assert page.get_attribute("#tutor", "data-mark") == "very bad"
    assert page.query_selector_all("#tutor-reasons li")
    page.keyboard.press("Escape")  # takes back
    page.wait_for_selector("#tutor", state="hidden")
    assert page.get_attribute("#board", "data-phase") == "roll"
    assert [n["action"] for n in notes(server, match_id)] == ["double"]
    assert "double" not in events(server, match_id)
    page.evaluate("localStorage.clear()")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutor_passes_the_audit(server: str, page: Any, lang: str) -> None:
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci --prefix tests/web` (make test does)")
    from test_a11y_browser import audit, in_language

    page.goto(server + "/")
    # The page set up (its words in place), so that the language menu is listened to.
    page.wait_for_function("document.querySelector('#setup-start').textContent !== ''")
    in_language(page, lang)
    choose(page, "computer")
    more_options(page)
    page.select_option('[name="tutor"]', "doubtful")
    assert audit(page, AXE.read_text(encoding="utf-8")) == []
    open_match(page, server)  # in the language chosen, kept in the browser
    assert page.evaluate("document.documentElement.lang") == lang
    assert page.input_value("#tutor-level") == "bad"
    bad_play_warned(page)
    assert audit(page, AXE.read_text(encoding="utf-8")) == []
    page.evaluate("localStorage.clear()")
