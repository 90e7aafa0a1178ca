"""The other games in the browser: started from the front page's form, drawn by their own
board (each side's way round, a pinned checker under its pinner's, the checkers waiting to
enter), played to the end against the computer by clicks, and Acey-deucey's double named
after a 1-2 with one of six buttons."""

from __future__ import annotations

from typing import Any

from browser_support import (
    choose,
    click_first_step,
    fetch_state,
    match_url,
    post,
    screenshot,
    settled,
    start,
    wait_version,
)

#: Seeded dice under which seat 0 wins Acey-deucey's opening and then rolls a 1-2.
ACEY_DEUCEY_SEED = 62


def act_by_clicks(page: Any, state: dict[str, Any]) -> None:
    """Make seat 0's next action by the page's controls and the board: roll, name a six,
    confirm, or the first step the server offers; then wait for the page to show it."""
    actions = state["actions"][0]
    if "roll" in actions:
        page.click('.controls [data-action="roll"]')
    elif "name" in actions:
        page.click('.controls [data-name="6"]')
    elif "confirm" in actions:
        page.click('.controls [data-action="confirm"]')
    else:
        click_first_step(page, state)
    wait_version(page, state["version"] + 1)


def test_the_form_starts_a_game_of_fevga_against_the_computer(server: str, page: Any) -> None:
    page.goto(server)
    choose(page, "computer")
    page.select_option('select[name="game"]', "fevga")
    start(page)
    page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
    match_id = page.evaluate("new URLSearchParams(location.search).get('match')")
    state = fetch_state(server, match_id, 0)
    assert state["game"] == "fevga" and state["board"]["travel"] == "same"
    # Seat 0's checkers on its 24 point, the computer's on its own, seat 0's 12.
    assert page.get_attribute('[data-place="p12"]', "data-seat") == "1"
    assert page.get_attribute('[data-place="p12"]', "data-count") == "15"
    # Each side's way round, the same for both: the computer's turns at the right.
    assert page.locator("#board .travel-way").count() == 2
    assert page.get_attribute("#board", "aria-label").endswith(
        "Both sides move the same way round the board")
    assert "Fevga" in page.inner_text("#match-info")
    assert page.is_hidden(".ids") and page.is_hidden("#tutor-option")
    screenshot(page, "browser-fevga.png")


def test_a_game_of_plakoto_against_the_computer_to_its_end(server: str, page: Any) -> None:
    options = {"opponent": "computer", "game": "plakoto", "length": 1, "seed": 3}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
    page.click("#board", position={"x": 20, "y": 20})  # the opening roll
    wait_version(page, 1)
    pins = 0
    for _ in range(1000):
        state = settled(server, match_id)
        wait_version(page, state["version"])
        # Each pinned checker is drawn under its pinner's, where the state says.
        for pin in state["board"]["pinned"]:
            pinned = page.get_attribute(f'#board [data-place="p{pin["point"]}"]', "data-pinned")
            assert pinned == str(pin["seat"])
            pins += 1
        if state["match_over"]:
            break
        # Hints for seat 0's plays, none while the computer thinks or before a roll.
        hintable = state["to_act"] == 0 and state["phase"] in ("move", "confirm")
        assert page.is_hidden("#hint-button") != hintable
        act_by_clicks(page, state)
    assert state["match_over"]
    page.wait_for_selector("#game-end:not([hidden])")
    assert page.inner_text("#game-end-heading") == "Match over"
    assert page.is_visible("#game-end-analyse")  # their engine's analysis
    entries = state["record"][0]["entries"]
    assert sum(entry["kind"] == "play" for entry in entries) >= 20
    assert page.locator("#record li").count() == len(entries) + 1  # and the result
    assert pins, "no checker was pinned in the whole game"


def test_acey_deucey_asks_for_a_double_after_a_1_2(server: str, page: Any) -> None:
    options = {"opponent": "computer", "game": "acey-deucey", "seed": ACEY_DEUCEY_SEED}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    # Every checker waits to enter, drawn on its bar.
    page.wait_for_selector('#board [data-place="bar0"][data-waiting="15"]')
    assert page.locator('#board [data-place="bar1"] .is-waiting').count() == 15
    state = fetch_state(server, match_id, 0)
    while state["phase"] == "opening":
        page.click("#board", position={"x": 20, "y": 20})
        wait_version(page, state["version"] + 1)
        state = fetch_state(server, match_id, 0)
    act_by_clicks(page, state)  # seat 0 won the opening and rolls: a 1-2
    state = fetch_state(server, match_id, 0)
    assert sorted(die["value"] for die in state["dice"]) == [1, 2]
    while state["phase"] != "name":
        act_by_clicks(page, state)
        state = fetch_state(server, match_id, 0)
    page.wait_for_selector(".controls .name-double:not([hidden])")
    buttons = page.locator(".controls [data-name]")
    assert [buttons.nth(i).inner_text() for i in range(6)] == [f"{n}–{n}" for n in range(1, 7)]
    assert page.is_hidden('.controls [data-action="roll"]')
    assert "name a double" in page.inner_text("#status")
    screenshot(page, "browser-acey-deucey-name.png")
    page.click('.controls [data-name="4"]')
    wait_version(page, state["version"] + 1)
    state = fetch_state(server, match_id, 0)
    assert [die["value"] for die in state["dice"]] == [4, 4, 4, 4]
    assert page.locator("#board .die").count() == 4
    assert page.is_hidden(".controls .name-double")
    assert "You name double 4s" in page.inner_text("#record")


def test_the_computers_play_in_fevga_is_marked_where_it_went(server: str, page: Any) -> None:
    """Both sides go the same way round: the computer's steps, on its own numbers, are marked
    on seat 0's board 12 points along (its 24-point is seat 0's 12-point)."""
    options = {"opponent": "computer", "game": "fevga", "seed": 4}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
    page.click("#board", position={"x": 20, "y": 20})  # the opening roll
    wait_version(page, 1)
    for _ in range(40):
        state = settled(server, match_id)
        wait_version(page, state["version"])
        last = state["record"][0]["entries"][-1]
        if last["kind"] == "play" and last["seat"] == 1 and last["steps"]:
            break
        act_by_clicks(page, state)
    else:
        raise AssertionError("the computer never played")

    def seen(point: int) -> str:
        return f"p{point - 12 if point > 12 else point + 12}"

    marks = page.locator("#board .last-play .play-mark")
    assert marks.count() == len(last["steps"])
    for index, step in enumerate(last["steps"]):
        mark = marks.nth(index)
        assert mark.get_attribute("data-from") == seen(step["from"])
        assert mark.get_attribute("data-to") == seen(step["to"])
