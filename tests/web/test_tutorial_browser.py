"""The tutorial in a real browser: played through from the opening roll to the take, in English
and in Persian (right to left), with a wrong play corrected on the way, by clicks, a drag and
the buttons; and loaded in every language with every text said (no message missing).

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from browser_support import centre, screenshot

from backgammon import Position
from backgammon.server.pages.help import LANGUAGES
from backgammon.server.pages.tutorial_script import TUTORIAL

RAW: list[dict[str, Any]] = json.loads((TUTORIAL / "script.json").read_text())["steps"]


def words(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((TUTORIAL / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def place(point: int) -> str:
    """The board's name of one of your points (you are seat 0, the board drawn from your side)."""
    return "bar0" if point == 25 else "off0" if point == 0 else f"p{point}"


def watch_console(page: Any) -> list[str]:
    said: list[str] = []
    page.on("console", lambda message: said.append(message.text))
    return said


def wait_drawn(page: Any, name: str, made: int = 0, verdict: str = "") -> None:
    """Wait until the board shows step ``name`` with ``made`` checker steps and ``verdict``."""
    page.wait_for_function(
        "([name, made, verdict]) => { const b = document.querySelector('#board');"
        " return b.dataset.step === name && b.dataset.made === String(made)"
        " && b.dataset.verdict === verdict && b.getAttribute('aria-busy') === 'false'; }",
        arg=[name, made, verdict],
    )


def feedback(page: Any) -> str:
    return str(page.inner_text("#feedback")).strip()


def play(
    page: Any, step: dict[str, Any], notation: str, drag_first: bool = False,
    keyboard: bool = False,
) -> None:
    """Make ``notation`` on the board one checker at a time: a click on the checker (which
    goes at once where it has one place to go) and one on the point, Enter on each instead,
    or a drag."""

    def press(where: str) -> None:
        if keyboard:
            page.focus(f'[data-place="{where}"]')
            page.keyboard.press("Enter")
        else:
            page.click(f'[data-place="{where}"]')

    position = Position.from_id(step["position"])
    turn = position.turn(step["dice"])
    steps = position.parse_play(notation, step["dice"]).steps
    for count, each in enumerate(steps):
        source, target = place(each.from_point), place(each.to_point)
        offered = {b for a, b in turn.legal_steps() if a == each.from_point}
        if drag_first and count == 0:
            page.mouse.move(*centre(page, f'[data-place="{source}"] circle.checker'))
            page.mouse.down()
            page.mouse.move(*centre(page, f'[data-place="{target}"]'), steps=8)
            page.mouse.up()
        else:
            press(source)
            if len(offered) > 1:
                assert page.locator(f'[data-place="{target}"].is-target').count() == 1
                press(target)
        turn = turn.step(each.from_point, each.to_point)
        last = count == len(steps) - 1
        wait_drawn(page, step["name"], count + 1, "" if not last else "right" if notation
                   in step["plays"] else "wrong")


def go_on(page: Any, lang: str, name: str) -> None:
    """The step is done: Next is offered, and leads to the step after."""
    assert page.is_enabled("#next-button")
    page.click("#next-button")
    following = {step["name"]: RAW[i + 1]["name"] for i, step in enumerate(RAW[:-1])}
    if name in following:
        wait_drawn(page, following[name])
        assert page.is_visible(f"#{following[name]}-heading")
    else:
        page.wait_for_selector("#end-heading", state="visible")


def play_through(page: Any, lang: str) -> None:
    say = words(lang)
    steps = {step["name"]: step for step in RAW}
    wait_drawn(page, "opening")
    assert not page.is_enabled("#next-button")
    page.click("#roll-button")
    wait_drawn(page, "opening", verdict="right")
    assert feedback(page) == say["opening.done"]
    assert page.get_attribute("#board .dice", "data-dice") == "3,1"
    go_on(page, lang, "opening")

    # A first move: a wrong play is corrected and tried again.
    first = steps["first-move"]
    play(page, first, "13/10 6/5")
    assert feedback(page) == say["first-move.wrong"]
    assert page.is_visible("#again-button") and not page.is_enabled("#next-button")
    page.click("#again-button")
    wait_drawn(page, "first-move")
    # Undo takes back a step.
    page.click('[data-place="p6"]')
    page.click('[data-place="p5"]')
    wait_drawn(page, "first-move", 1)
    page.click("#undo-button")
    wait_drawn(page, "first-move", 0)
    play(page, first, "8/5 6/5")
    assert feedback(page) == say["first-move.done"]
    assert page.get_attribute('[data-place="p5"]', "data-count") == "2"
    go_on(page, lang, "first-move")

    # The computer's reply is marked on the board until you move; a hit, its first checker
    # dragged.
    marks = page.query_selector_all(".play-marks .play-mark")
    assert [(m.get_attribute("data-from"), m.get_attribute("data-to")) for m in marks] == [
        ("p1", "p7"), ("p12", "p16")]
    if lang == "en":
        screenshot(page, "tutorial-hit.png")
    play(page, steps["hit"], "13/7* 8/7", drag_first=True)
    assert page.locator(".play-marks").count() == 0
    assert feedback(page) == say["hit.done"]
    assert page.get_attribute('[data-place="bar1"]', "data-count") == "1"
    go_on(page, lang, "hit")

    # Entering: a checker elsewhere cannot move while one is on the bar.
    page.click('[data-place="p6"]')
    assert feedback(page) == say["enter.help"]
    assert page.get_attribute('[data-place="bar0"]', "data-count") == "1"
    play(page, steps["enter"], "bar/21 13/8*")
    assert feedback(page) == say["enter.done"]
    go_on(page, lang, "enter")

    play(page, steps["bear-off"], "6/off 3/off", keyboard=True)
    assert page.get_attribute('[data-place="off0"]', "data-count") == "4"
    assert feedback(page) == say["bear-off.done"]
    go_on(page, lang, "bear-off")

    # Doubling: rolling instead is corrected; the computer takes.
    assert page.get_attribute("#board .cube", "data-cube") == "1,"  # in the middle
    page.click("#roll-button")
    wait_drawn(page, "double", verdict="wrong")
    assert feedback(page) == say["double.wrong"]
    page.click("#again-button")
    wait_drawn(page, "double")
    page.click("#double-button")
    wait_drawn(page, "double", verdict="right")
    assert page.get_attribute("#board .cube", "data-cube") == "2,1"
    go_on(page, lang, "double")

    assert page.get_attribute("#board .cube", "data-cube") == "4,0"  # offered to you
    page.click("#take-button")
    wait_drawn(page, "take", verdict="right")
    assert feedback(page) == say["take.done"]
    assert page.get_attribute("#board .cube", "data-cube") == "4,0"
    assert not page.is_visible("#take-button")
    screenshot(page, f"tutorial-{lang}.png")
    go_on(page, lang, "take")
    assert page.is_hidden("#board")
    assert page.get_attribute("#end a[href='/']", "href") == "/"


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_tutorial_played_through(server: str, page: Any, lang: str) -> None:
    said = watch_console(page)
    page.goto(f"{server}/tutorial/{lang}")
    play_through(page, lang)
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
    assert [text for text in said if "missing message" in text] == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutorial_loads_in_each_language_with_every_text(
    server: str, page: Any, lang: str
) -> None:
    said = watch_console(page)
    page.goto(f"{server}/tutorial/{lang}")
    wait_drawn(page, "opening")
    assert page.get_attribute("html", "lang") == lang
    assert page.get_attribute("html", "dir") == ("rtl" if lang == "fa" else "ltr")
    say = words(lang)
    assert page.inner_text("h1") == say["title"]
    # One step shown, with its instruction; the others wait.
    assert page.is_visible("#opening-heading") and page.is_hidden("#hit-heading")
    # Every control and every place of the board has a name in the language (no key shown).
    for button in page.query_selector_all("button:visible"):
        assert button.inner_text().strip()
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert len(labels) == 28 and all(labels)
    assert [label for label in labels if re.fullmatch(r"[a-z]+(\.[A-Za-z]+)+", str(label))] == []
    assert page.get_attribute("#board", "aria-label")
    # Each step's board is drawn in the language too.
    for step in RAW:
        page.click(f'a[href="#{step["name"]}"]')
        wait_drawn(page, step["name"])
        assert page.is_visible(f"#{step['name']}-heading")
        assert page.get_attribute(".tutorial-steps a[aria-current]", "href") == f"#{step['name']}"
    assert [text for text in said if "missing message" in text] == []
    # The board reads left to right in every language: your 1-point at the right.
    one, twelve = (centre(page, f'[data-place="p{n}"]') for n in (1, 12))
    assert one[0] > twelve[0]


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_the_game_page_links_to_the_tutorial_in_its_language(
    server: str, page: Any, lang: str
) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    if lang != "en":
        page.select_option("#language", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    assert page.inner_text("#tutorial-link").strip()
    page.click("#tutorial-link")
    page.wait_for_url(f"{server}/tutorial/{lang}")
    wait_drawn(page, "opening")
    page.evaluate("localStorage.clear()")


def test_a_step_the_server_does_not_answer_changes_nothing(server: str, page: Any) -> None:
    page.goto(f"{server}/tutorial/en#first-move")
    wait_drawn(page, "first-move")
    page.route("**/api/tutorial/**", lambda route: route.abort())
    page.click('[data-place="p6"]')
    page.click('[data-place="p5"]')
    page.wait_for_function(
        "text => document.querySelector('#feedback').textContent === text", arg=words("en")["error"]
    )
    wait_drawn(page, "first-move", 0)
    assert page.get_attribute('[data-place="p6"]', "data-count") == "5"
    page.unroute("**/api/tutorial/**")
    page.click('[data-place="p6"]')
    page.click('[data-place="p5"]')
    wait_drawn(page, "first-move", 1)
    assert page.get_attribute('[data-place="p5"]', "data-count") == "1"
