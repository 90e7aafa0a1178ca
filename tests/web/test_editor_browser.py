"""The position editor (/editor) in a real browser: a position set by clicks, by a drag and by
the keys changes the IDs the page shows; a pasted XGID sets the editor; the address holds the
position; Hint and Evaluate answer for it; "Play from here" starts a match at it; a position
that cannot be says why; and the page passes the accessibility audit in every language and
fits a phone."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any
from urllib.parse import quote

import pytest
from browser_support import WEB, MarkupTexts, catalogue, centre, fetch_state
from test_a11y_browser import audit, axe, in_language  # noqa: F401 (axe: a fixture)

from backgammon.formats.editor import Edited
from backgammon.server.pages.languages import LANGUAGES
from backgammon.server.pages.templates import own_page

START = Edited.initial()
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:7:10"


def open_editor(page: Any, server: str, query: str = "") -> None:
    page.goto(f"{server}/editor{query}")
    page.wait_for_selector("body[data-ready=true]")


def shown_ids(page: Any) -> tuple[str, str]:
    return page.input_value("#gnubg-id"), page.input_value("#xgid")


def wait_ids(page: Any, edited: Edited) -> None:
    """Wait until the page shows the IDs of ``edited``, as the core writes them."""
    gnubg_id, xgid = edited.ids()
    page.wait_for_function(
        "([g, x]) => document.querySelector('#gnubg-id').value === g"
        " && document.querySelector('#xgid').value === x",
        arg=[gnubg_id, xgid],
    )


def moved(edited: Edited, seat: int, source: int, target: int) -> Edited:
    """``edited`` with one of ``seat``'s checkers moved between its own points."""
    boards = [list(board) for board in edited.boards]
    boards[seat][source - 1] -= 1
    boards[seat][target - 1] += 1
    return Edited((boards[0], boards[1]), edited.variant)


def test_the_markup_holds_no_text_and_names_only_known_messages() -> None:
    parser = MarkupTexts()
    parser.feed(own_page("editor.html"))
    assert parser.texts == []
    assert parser.keys and set(parser.keys) <= set(catalogue())


def test_clicks_a_drag_and_the_keys_set_a_position(server: str, page: Any) -> None:
    open_editor(page, server)
    wait_ids(page, START)
    assert page.input_value("#editor-link").endswith("/editor?id=" + quote(START.ids()[0], safe=""))
    # White's (seat 0's) 24 to its 23, by two clicks.
    page.click('#board [data-place="p24"]')
    page.wait_for_selector('#board [data-place="p24"].is-selected')
    page.click('#board [data-place="p23"]')
    one = moved(START, 0, 24, 23)
    wait_ids(page, one)
    # Black's (seat 1's) 13, the viewer's 12, to its 10 (the viewer's 15), by a drag.
    page.mouse.move(*centre(page, '#board [data-place="p12"] circle.checker'))
    page.mouse.down()
    page.mouse.move(*centre(page, '#board [data-place="p14"]'), steps=5)
    page.mouse.move(*centre(page, '#board [data-place="p15"]'), steps=5)
    page.mouse.up()
    two = Edited((one.boards[0], moved(one, 1, 13, 10).boards[1]))
    wait_ids(page, two)
    # White's 8 to its 7 by the keys.
    page.focus('#board [data-place="p8"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('#board [data-place="p7"][tabindex]')
    page.focus('#board [data-place="p7"]')
    page.keyboard.press("Enter")
    three = Edited((moved(two, 0, 8, 7).boards[0], two.boards[1]))
    wait_ids(page, three)
    said = page.locator("#announcements p").last.inner_text()
    assert said == "A checker moved from point 8 to point 7."
    # The rest of the position, by the form: Black on roll with 6-4, a 7-point match at 3-5.
    page.select_option("#editor-on-roll", "1")
    page.select_option("#editor-dice", "64")
    page.fill("#editor-length", "7")
    page.dispatch_event("#editor-length", "change")
    page.fill("#editor-score-0", "3")
    page.dispatch_event("#editor-score-0", "change")
    page.fill("#editor-score-1", "5")
    page.dispatch_event("#editor-score-1", "change")
    page.select_option("#editor-cube-value", "2")
    page.select_option("#editor-cube-owner", "0")
    wait_ids(page, Edited(three.boards, on_roll=1, dice=(6, 4), length=7, score=(3, 5),
                          cube_value=2, cube_owner=0))


def test_a_pasted_xgid_sets_the_editor_and_the_address(server: str, page: Any) -> None:
    open_editor(page, server)
    wait_ids(page, START)
    page.fill("#xgid", XGID)
    page.press("#xgid", "Enter")
    edited = Edited.from_id(XGID)
    wait_ids(page, edited)
    assert page.input_value("#editor-on-roll") == "1"
    assert page.input_value("#editor-dice") == "52"
    cube = page.input_value("#editor-cube-value"), page.input_value("#editor-cube-owner")
    assert cube == ("2", "0")
    assert (page.input_value("#editor-length"), page.input_value("#editor-score-0"),
            page.input_value("#editor-score-1")) == ("7", "2", "1")
    assert page.get_attribute('#board .dice', "data-dice") == "5,2"
    # The link opens the same position.
    link = page.input_value("#editor-link")
    open_editor(page, server, link.split("/editor", 1)[1])
    wait_ids(page, edited)
    # An ID that is none says why, and leaves the position.
    page.fill("#gnubg-id", "not an ID")
    page.press("#gnubg-id", "Enter")
    page.wait_for_function("document.querySelector('#editor-id-message').textContent.length > 0")
    assert shown_ids(page) == ("not an ID", edited.ids()[1])
    # Dice written low first are the same roll, kept when the rest changes.
    page.fill("#xgid", XGID.replace(":52:", ":25:"))
    page.press("#xgid", "Enter")
    page.wait_for_function("document.querySelector('#xgid').value.includes(':25:')")
    assert page.input_value("#editor-dice") == "52"
    page.select_option("#editor-cube-owner", "")
    wait_ids(page, replace(edited, cube_owner=None))
    # A link whose ID cannot be set up opens the start, and says why.
    open_editor(page, server, "?id=" + quote("4HPwATDgc/ABMA:MBkAAAAAAAAE", safe=""))
    wait_ids(page, START)
    assert "double" in page.inner_text("#editor-id-message")


def test_hint_evaluate_and_a_refusal(server: str, page: Any) -> None:
    open_editor(page, server, "?id=" + quote(Edited.from_id(XGID).ids()[0], safe=""))
    page.select_option("#editor-plies", "0")
    page.click("#editor-hint")
    page.wait_for_selector("#editor-answer[data-kind=move] .editor-plays li")
    assert page.locator("#editor-answer .editor-plays li").count() == 5
    page.select_option("#editor-dice", "")
    page.wait_for_function("!document.querySelector('#editor-hint').disabled")
    page.click("#editor-hint")
    page.wait_for_selector("#editor-answer[data-kind=cube] .hint-proper")
    page.click("#editor-evaluate")
    page.wait_for_selector("#editor-answer[data-kind=eval]")
    assert "%" in page.inner_text("#editor-answer")
    # A board with no checker cannot be played: said, and nothing to ask.
    page.click("#editor-clear")
    refusal = catalogue()["editor.refusal.all_off"]
    page.wait_for_selector("#editor-status.is-refused")
    assert page.inner_text("#editor-status") == refusal
    assert shown_ids(page) == ("", "")
    # Nor one where Black has none: White's checker from its tray to its 6.
    page.click('#board [data-place="off0"]')
    page.click('#board [data-place="p6"]')
    page.wait_for_function(
        "([said, refusal]) => [...document.querySelectorAll('#announcements p')]"
        ".some((line) => line.textContent === said)"
        " && document.querySelector('#editor-status').textContent === refusal",
        arg=["A checker moved from White's tray to point 6.", refusal],
    )
    # Nor a score that ends the match.
    page.click("#editor-start")
    wait_ids(page, START)
    page.fill("#editor-length", "5")
    page.dispatch_event("#editor-length", "change")
    page.fill("#editor-score-0", "5")
    page.dispatch_event("#editor-score-0", "change")
    page.wait_for_selector("#editor-status.is-refused")
    assert page.inner_text("#editor-status") == catalogue()["editor.refusal.score"]
    assert page.is_disabled("#editor-hint") and page.is_disabled("#editor-play-screen")
    assert shown_ids(page) == ("", "")
    assert page.is_disabled("#editor-rollout")


def test_a_rollout_shows_its_progress_and_result_and_another_is_cancelled(
    server: str, page: Any, axe: str  # noqa: F811
) -> None:
    open_editor(page, server)
    page.select_option("#editor-plies", "0")
    page.click("#editor-rollout")
    assert page.get_attribute("#editor-rollout", "aria-expanded") == "true"
    page.fill("#rollout-trials", "36")
    page.fill("#rollout-truncate", "2")
    page.click("#rollout-start")
    # The bar shows until the first answer after the start (half a second at least).
    page.wait_for_selector("#rollout-running", state="visible")
    assert page.is_disabled("#rollout-start")
    page.wait_for_selector('#rollout-result[data-status="done"]')
    assert page.get_attribute("#rollout-progress", "value") == "36"
    assert page.inner_text("#rollout-progress-label") == "36 of 36 trials"
    result = page.inner_text("#rollout-result")
    english = catalogue()
    for key in ("rollout.win", "rollout.cubeless", "rollout.cubeful"):
        assert english[key] in result
    assert result.count("±") == 5 and "Rollout for White" in result
    page.wait_for_selector("#rollout-running", state="hidden")
    assert audit(page, axe) == []
    # A long one, cancelled: what it had run stays, and the button is free again.
    page.fill("#rollout-trials", "1296")
    page.fill("#rollout-truncate", "0")
    page.click("#rollout-start")
    page.wait_for_selector("#rollout-running", state="visible")
    page.click("#rollout-cancel")
    page.wait_for_selector('#rollout-result[data-status="cancelled"]', state="attached")
    assert page.inner_text("#rollout-message").startswith("Rollout cancelled after ")
    assert page.inner_text("#rollout-message").endswith(" of 1,296 trials.")
    assert not page.is_disabled("#rollout-start")
    page.wait_for_selector("#rollout-running", state="hidden")


def test_a_cubeful_rollout_plays_the_cube_and_says_so(server: str, page: Any) -> None:
    open_editor(page, server)
    page.select_option("#editor-plies", "0")
    page.click("#editor-rollout")
    page.fill("#rollout-trials", "36")
    page.fill("#rollout-truncate", "2")
    page.check("#rollout-cubeful")
    page.click("#rollout-start")
    page.wait_for_selector('#rollout-result[data-status="done"]')
    result = page.inner_text("#rollout-result")
    english = catalogue()
    for key in ("rollout.cubefulPlayed", "rollout.doubled", "rollout.dropped"):
        assert english[key] in result
    assert english["rollout.cubeful"] not in result


def test_play_from_here_starts_the_match_at_the_position(server: str, page: Any) -> None:
    edited = Edited.from_id(XGID)
    open_editor(page, server, "?id=" + quote(edited.ids()[0], safe=""))
    page.click("#editor-play-screen")
    page.wait_for_url("**/?match=*")
    match_id = page.url.split("match=")[1]
    state = fetch_state(server, match_id)
    assert (state["gnubg_id"], state["xgid"]) == edited.ids()
    page.wait_for_selector('#board .dice[data-dice="5,2"]')


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_editor_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:  # noqa: F811
    open_editor(page, server)
    in_language(page, lang)
    page.wait_for_function("document.querySelector('#editor-status').textContent.length > 0")
    assert audit(page, axe) == []
    messages = json.loads((WEB / "messages" / f"{lang}.json").read_text())
    assert page.title() == messages["editor.title"]


def test_the_editor_fits_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                  is_mobile=True, has_touch=True)
    phone = context.new_page()
    phone.set_default_timeout(10_000)
    open_editor(phone, server)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.tap('#board [data-place="p6"]')
    phone.tap('#board [data-place="p5"]')
    wait_ids(phone, moved(START, 0, 6, 5))
    context.close()
