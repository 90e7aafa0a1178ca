"""The end of a game in its own panel: who won, how many points and why, the match
score, the Crawford game to come, "Next game"; at the match's end its result and "Analyse"."""

from __future__ import annotations

from typing import Any

from browser_support import (
    SEED,
    fetch_state,
    listen,
    match_url,
    post,
    screenshot,
    settled,
    wait_version,
)


def resign_when_offered(page: Any, server: str, match_id: str) -> dict[str, Any]:
    """Seat 0 resigns a single game, by the page's controls, once it may; the computer
    accepts. Returns the state after."""
    state = settled(server, match_id)
    for _ in range(10):
        wait_version(page, state["version"])
        if "resign" in state["actions"][0]:
            break
        assert "roll" in state["actions"][0], state["actions"]
        post(server, f"/api/matches/{match_id}/actions",
             {"seat": 0, "action": "roll", "version": state["version"]})
        state = settled(server, match_id)
    page.select_option("#resign-level", "1")
    page.click('[data-action="resign"]')
    page.click("#resign-yes")
    page.wait_for_selector("#game-end:not([hidden])")
    return settled(server, match_id)


def test_a_game_and_the_match_end_in_a_panel(server: str, page: Any) -> None:
    options = {"opponent": "computer", "level": "beginner", "length": 2, "seed": 5}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    assert page.is_hidden("#game-end")
    listen(page)
    page.click("#board", position={"x": 20, "y": 20})  # the opening roll
    wait_version(page, 1)

    # The first game: resigned, the computer 1 point up, 1 away: the Crawford game next.
    state = resign_when_offered(page, server, match_id)
    assert state["score"] == [0, 1] and not state["match_over"] and state["crawford"]
    assert page.inner_text("#game-end-heading") == "Game over"
    assert page.inner_text("#game-end-result") == "Computer wins 1 point."
    assert page.inner_text("#game-end-why") == (
        "You resigned a single game, and the resignation was accepted."
    )
    assert page.inner_text("#game-end-score") == "Score: You 0, Computer 1, in a match to 2."
    assert page.inner_text("#game-end-crawford") == (
        "The next game is the Crawford game: no doubling in it."
    )
    assert page.is_visible("#next-game") and page.is_hidden("#game-end-analyse")
    screenshot(page, "browser-game-end.png")
    # Said to screen readers, and the way on is where the keyboard is.
    page.wait_for_function("() => window.heard.some(line => line.includes('Crawford game:'))")
    heard = page.evaluate("window.heard")
    assert "Computer wins 1 point." in heard
    assert "Score: You 0, Computer 1, in a match to 2." in heard
    assert page.evaluate("document.activeElement.id") == "next-game"
    # The panel stays while the next game waits (a reload shows it again).
    page.reload()
    page.wait_for_selector("#game-end:not([hidden])")

    # "Next game": the panel goes, and the next game's opening roll is made.
    before = state["version"]
    page.click("#next-game")
    wait_version(page, before + 1)
    assert page.is_hidden("#game-end")
    after = fetch_state(server, match_id)
    assert after["phase"] != "opening" or after["opening_tie"]

    # The Crawford game resigned too: the match is over, and its analysis is offered.
    state = resign_when_offered(page, server, match_id)
    assert state["match_over"] and state["score"] == [0, 2]
    assert page.inner_text("#game-end-heading") == "Match over"
    assert page.inner_text("#game-end-score") == "Computer wins the match, 2–0."
    assert page.is_hidden("#next-game") and page.is_visible("#game-end-analyse")
    assert page.evaluate("document.activeElement.id") == "game-end-analyse"
    page.click("#game-end-analyse")
    page.wait_for_selector("#analysis:not([hidden])")
    assert "analyse=1" in page.url


def test_the_panel_says_when_the_jacoby_rule_made_a_gammon_single(
    server: str, page: Any
) -> None:
    # Money play under the Jacoby rule, two players at this screen: black, on roll after the
    # opening, resigns a gammon with the cube never turned, and white accepts: 1 point.
    options = {"opponent": "human", "seed": SEED, "length": 0, "jacoby": True}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "resign", "level": 2, "version": 1})
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 0, "action": "accept", "version": 2})
    page.wait_for_selector("#game-end:not([hidden])")
    state = fetch_state(server, match_id)
    assert state["result"]["kind"] == "gammon" and state["result"]["points"] == 1
    assert page.inner_text("#game-end-result") == "White wins a gammon, 1 point."
    assert page.inner_text("#game-end-why") == (
        "Black resigned a gammon, and the resignation was accepted. The Jacoby rule: the cube "
        "was not turned in this game, so it counts as a single game."
    )
    assert page.inner_text("#game-end-score") == "Score: White 1, Black 0."
    assert page.is_hidden("#game-end-crawford")
