"""The page on a phone: on a 390 x 844 screen (device scale 3, touch) every target
is at least 44 CSS px where the board's size allows and never under 24 (the points, the
checkers on them, the bar and trays, the cube, the dice, the buttons), the point numbers are
at least 10 CSS px, and at 320 px wide nothing scrolls sideways."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SEED, match_url, open_page, post, wait_version

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3,
         "has_touch": True, "is_mobile": True}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from open_page(browser, **PHONE)


def opened(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.tap("#board")  # the opening roll: black's dice, its checkers to move
    wait_version(page, 1)


def boxes(page: Any, selector: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        selector,
        """nodes => nodes.filter(n => n.getClientRects().length).map(n => {
          const box = n.getBoundingClientRect();
          return {what: n.dataset.place || n.id || n.getAttribute('class') || n.textContent,
                  width: box.width, height: box.height};
        })""",
    )
    return found


def test_the_targets_on_a_phone(server: str, phone: Any) -> None:
    opened(server, phone)
    # The board takes the screen's width.
    board = phone.locator("#board").bounding_box()
    assert board is not None and board["width"] >= 380
    places = boxes(phone, "#board [data-place]")
    assert len(places) == 28
    for place in places:  # the points (and their checkers), the bars and the trays
        assert place["width"] >= 24 and place["height"] >= 44, place
    for shape in boxes(phone, "#board .cube") + boxes(phone, "#board .dice"):
        assert shape["width"] >= 24 and shape["height"] >= 24, shape
    buttons = boxes(phone, "button, .top-actions a")
    assert any(button["what"] == "hint-button" for button in buttons)
    for button in buttons:
        assert button["width"] >= 44 and button["height"] >= 44, button
    for field in boxes(phone, "#play select, #play input, .top select"):
        assert field["width"] >= 24 and field["height"] >= 24, field
    # The point numbers, as drawn on the screen.
    sizes = phone.eval_on_selector_all(
        "#board .point-number",
        """nodes => nodes.map(n => parseFloat(getComputedStyle(n).fontSize)
                                 * document.querySelector('#board').getScreenCTM().a)""",
    )
    assert len(sizes) == 24 and min(sizes) >= 10, sizes
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.parametrize("where", ["setup", "play"])
def test_nothing_scrolls_sideways_at_320_px(server: str, browser: Any, where: str) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 640}, has_touch=True,
                                  is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(10_000)
    if where == "setup":
        page.goto(server + "/")
        page.wait_for_selector("#setup-form")
    else:
        opened(server, page)
        page.tap("#hint-button")
        page.wait_for_selector(".hint-play")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    context.close()
