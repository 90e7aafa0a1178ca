"""The page's layout: the hint's panel opens beside the board on a wide screen and
below it on a narrow one, and the board does not move either way."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SEED, match_url, post, wait_version


def board_box(page: Any) -> dict[str, float]:
    """The board's box on the page (not the window: a scroll is no move)."""
    box: dict[str, float] = page.evaluate(
        """() => {
          const box = document.querySelector('#board').getBoundingClientRect();
          return {x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height};
        }"""
    )
    return box


@pytest.mark.parametrize("width", [1280, 1100, 700])
def test_the_hint_opens_without_moving_the_board(server: str, browser: Any, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    before = board_box(page)
    page.click("#hint-button")
    page.wait_for_selector(".hint-play")
    after = board_box(page)
    assert after == pytest.approx(before, abs=0.5)
    panel = page.locator("#hint").bounding_box()
    assert panel is not None
    if width >= 1100:  # beside the board, on the screen
        assert panel["x"] >= before["x"] + before["width"]
        assert panel["x"] + panel["width"] <= width
        assert panel["width"] >= 280
    else:  # below it
        assert panel["y"] + page.evaluate("scrollY") >= before["y"] + before["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Closed again: the board stays.
    page.click("#hint-close")
    page.wait_for_selector("#hint", state="hidden")
    assert board_box(page) == pytest.approx(before, abs=0.5)
    context.close()
    assert errors == [], errors
