"""The page in a real browser: Playwright driving Debian's chromium against a live server.

The server runs in a thread (uvicorn, on a free loopback port, its database in a temporary
folder). The games use seeded dice, and a game of the engine played alongside with the same
dice says what the page must offer: the highlighted checkers and points are the engine's legal
steps. Screenshots go to ``artifacts/`` (git-ignored). Without chromium the browser tests are
skipped; the checks of the page's texts need no browser.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    SEED,
    WEB,
    MarkupTexts,
    Running,
    catalogue,
    centre,
    choose,
    click_step,
    fetch_state,
    highlighted,
    match_url,
    more_options,
    place,
    post,
    request_for,
    screenshot,
    settled,
    start,
    targets_of,
    version,
    wait_version,
)

from backgammon.bot import Level
from backgammon.dice import SeededDice
from backgammon.formats.ids import setup_from_id
from backgammon.game import Action, Game, Phase
from backgammon.server.pages.templates import own_page
from backgammon.variants import Variant

# The page's texts: all in the catalogue, none in the markup or the scripts


def test_the_markup_holds_no_text_and_names_only_known_messages() -> None:
    parser = MarkupTexts()
    parser.feed(own_page("index.html"))
    assert parser.texts == []
    assert parser.keys and set(parser.keys) <= set(catalogue())


def test_the_scripts_ask_only_for_known_messages() -> None:
    messages = catalogue()
    keys: set[str] = set()
    for script in (WEB / "js").glob("*.js"):
        source = script.read_text()
        keys |= set(re.findall(r"\bt\(\s*\"([\w.]+)\"", source))
        for counted in re.findall(r"\bplural\(\s*\"([\w.]+)\"", source):
            keys |= {f"{counted}.one", f"{counted}.other"}
    assert keys and keys <= set(messages), sorted(keys - set(messages))
    # Messages named by pattern in the scripts (`${key}.checkers`, `result.${kind}`, ...).
    for prefix in ("point", "bar", "tray"):
        assert {f"{prefix}.empty", f"{prefix}.checkers.one", f"{prefix}.checkers.other"} <= set(
            messages
        )
    for kind in ("single", "gammon", "backgammon"):
        for who in ("", ".you"):
            assert {f"result.{kind}{who}.one", f"result.{kind}{who}.other"} <= set(messages)
    assert {"result.claimed", "result.claimed.you"} <= set(messages)
    for level in Level:
        assert f"level.{level.value}" in messages
    for variant in Variant:  # the lobby names an open game's variant
        assert f"variant.{variant.value}" in messages


def test_the_record_speaks_to_the_person_in_the_second_person() -> None:
    messages = catalogue()
    verbs = ["double", "beaver", "take", "drop", "resign", "accept", "reject"]
    assert all(f"record.{verb}.you" in messages for verb in verbs)


# The browser


def test_two_players_at_one_screen(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    game = Game(dice=SeededDice(SEED))
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    assert page.get_attribute('[data-place="p6"]', "data-count") == "5"
    assert "Roll" in page.inner_text("#status")

    # The opening roll, by a click on the board; the winner's dice show in its half.
    page.click("#board", position={"x": 20, "y": 20})
    game.roll(0)
    assert game.phase is Phase.MOVE and game.on_roll == 1 and game.dice is not None
    wait_version(page, 1)
    assert page.get_attribute("[data-dice]", "data-dice") == "5,4"
    assert "Black" in page.inner_text("#status")

    # A refused drop: a click on a point not highlighted changes nothing (black's 13, which
    # may go to 9 or 8, is picked up rather than moved).
    play = game.position.legal_plays(game.dice)[0]
    first = (play.steps[0].from_point, play.steps[0].to_point)
    assert len(targets_of(game, 13)) == 2
    page.click(f'[data-place="{place(13, 1)}"]')
    assert highlighted(page, "selected") == {place(13, 1)}
    offered = highlighted(page, "target") | highlighted(page, "source")
    wrong = next(f"p{n}" for n in range(1, 25) if f"p{n}" not in offered)
    counts = [page.get_attribute(f'[data-place="p{n}"]', "data-count") for n in range(1, 25)]
    page.click(f'[data-place="{wrong}"]')
    assert highlighted(page, "target") == set() and highlighted(page, "selected") == set()
    assert [page.get_attribute(f'[data-place="p{n}"]', "data-count") for n in range(1, 25)] == (
        counts
    )
    assert fetch_state(server, match_id)["version"] == 1

    # A step, then undo.
    click_step(page, game, first)
    assert page.is_visible('[data-action="undo"]')
    page.click('[data-action="undo"]')
    game.undo(1)
    wait_version(page, 3)
    assert fetch_state(server, match_id)["made"] == []

    # The whole play by clicks, then confirm.
    for step in play.steps:
        click_step(page, game, (step.from_point, step.to_point))
    page.click('[data-action="confirm"]')
    game.confirm(1)
    wait_version(page, len(game.events))
    state = fetch_state(server, match_id)
    assert state["phase"] == "roll" and state["to_act"] == 0
    assert state["record"][0]["entries"][-1]["play"] == str(play)
    # The play just made stays marked until the next roll: where each checker left and landed.
    marks = page.locator(".last-play .play-mark")
    assert [(marks.nth(i).get_attribute("data-from"), marks.nth(i).get_attribute("data-to"))
            for i in range(marks.count())] == [
        (place(step.from_point, 1), place(step.to_point, 1)) for step in play.steps]
    # And its dice stay in view, spent, on Black's side.
    rolled = state["record"][0]["entries"][-1]["dice"]
    assert page.get_attribute("#board .dice", "data-dice") == ",".join(map(str, rolled))
    assert page.locator("#board .dice .die.is-used").count() == len(rolled)
    screenshot(page, "browser-two-players.png")

    # White rolls with the button, makes one step, and the page is reloaded mid-turn.
    page.click('[data-action="roll"]')
    game.roll(0)
    wait_version(page, len(game.events))
    assert page.locator(".last-play").count() == 0  # rolled: the marks have gone
    assert game.turn is not None
    step = game.turn.legal_steps()[0]
    click_step(page, game, step)
    page.reload()
    page.wait_for_selector('[data-place="p24"]')
    wait_version(page, len(game.events))
    assert page.is_visible('[data-action="undo"]')
    assert fetch_state(server, match_id)["made"][0]["from"] == step[0]
    shown = game.turn.current()
    for n in range(1, 25):
        count = shown.mine[n] or shown.theirs[25 - n]
        assert page.get_attribute(f'[data-place="p{n}"]', "data-count") == str(count)
    # The turn goes on where it was.
    while game.phase is Phase.MOVE:
        assert game.turn is not None
        click_step(page, game, game.turn.legal_steps()[0])
    page.click('[data-action="confirm"]')
    game.confirm(0)
    wait_version(page, len(game.events))
    assert fetch_state(server, match_id)["to_act"] == 1
    screenshot(page, "browser-after-reload.png")


def test_the_page_fits_a_phone(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    assert page.inner_text("h1") == "Backgammon"
    choose(page, "computer")
    start(page)
    page.wait_for_selector('[data-place="p24"]')
    assert "match=" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.tap("#board")  # the opening roll; the computer answers if it won it
    page.wait_for_function("document.querySelector('#board').dataset.phase !== 'opening'"
                           " || document.querySelector('[data-dice]') !== null")
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert all(labels) and any("Point 6: 5 white checkers" in label for label in labels)
    screenshot(page, "browser-phone.png")
    context.close()
    assert errors == [], errors


def click_next(page: Any, state: dict[str, Any], double: bool) -> None:
    """Make seat 0's next action by clicks: double when ``double`` and offered, take a double
    offered, accept a resignation offered, else roll, else the first step on offer (its
    checker, then its destination), else confirm."""
    offered = state["actions"][0]
    before = version(page)
    if double and "double" in offered:
        page.click('[data-action="double"]')
    elif "take" in offered:
        page.click('[data-action="take"]')
    elif "accept" in offered:  # the computer resigns
        page.click('[data-action="accept"]')
    elif "roll" in offered:
        page.click('[data-action="roll"]')
    elif state["phase"] == "move":
        step = state["steps"][0]
        page.click(f'[data-place="{place(step["board_from"], 0)}"]')
        ends = {each["board_to"] for each in state["steps"] if each["from"] == step["from"]}
        if len(ends) > 1:  # else that one click made the step
            page.click(f'[data-place="{place(step["board_to"], 0)}"]')
    else:
        assert "confirm" in offered, (state["phase"], offered)
        page.click('[data-action="confirm"]')
    wait_version(page, before + 1)


COMPUTER_SEED = 5


def test_a_whole_game_against_the_computer_by_clicks(server: str, page: Any) -> None:
    match_id = post(
        server,
        "/api/matches",
        {"opponent": "computer", "level": "beginner", "length": 0, "seed": COMPUTER_SEED},
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})  # the opening roll
    wait_version(page, 1)
    doubled = False
    for _ in range(1000):
        state = settled(server, match_id)
        wait_version(page, state["version"])
        game = state["record"][0]
        if game["result"] is not None:
            break
        if not doubled and "double" in state["actions"][0]:
            click_next(page, state, double=True)
            doubled = True
            answer = settled(server, match_id)["record"][0]["entries"][-2:]
            assert answer[0]["kind"] == "double" and answer[0]["seat"] == 0
            assert answer[1]["kind"] in ("take", "drop") and answer[1]["seat"] == 1
            screenshot(page, "browser-computer-double.png")
            continue
        click_next(page, state, double=False)
    else:
        pytest.fail("the game did not end")
    assert doubled
    result = game["result"]
    assert state["score"][result["winner"]] == result["points"]
    assert state["score"][1 - result["winner"]] == 0
    # The points are the cube's value (doubled by each take) times the win's kind: a drop
    # concedes a single game at the value before the double.
    kinds = {"single": 1, "gammon": 2, "backgammon": 3}
    takes = sum(entry["kind"] == "take" for entry in game["entries"])
    assert result["points"] == 2**takes * kinds[result["kind"]]
    # The score on the page: each player's panel, and the result in the status line.
    for seat in (0, 1):
        shown = page.inner_text(f'.player[data-seat="{seat}"] .score')
        assert shown == f"{state['score'][seat]} points"
    status = page.inner_text("#status")
    assert f"{result['points']} point" in status
    assert ("You win" in status) == (result["winner"] == 0)
    screenshot(page, "browser-computer-end.png")


def test_a_server_restart_resumes_the_game(tmp_path: Path, page: Any) -> None:
    database = tmp_path / "restart.sqlite"
    running = Running(database)
    try:
        match_id = post(running.url, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
        game = Game(dice=SeededDice(SEED))
        page.goto(match_url(running.url, match_id))
        page.wait_for_selector('[data-place="p24"]')
        page.click("#board", position={"x": 20, "y": 20})
        game.roll(0)
        wait_version(page, 1)
        assert game.turn is not None
        made = game.turn.legal_steps()[0]
        click_step(page, game, made)

        # Stop the server in the middle of the turn; a new one on the same database.
        running.stop()
        running = Running(database, running.port)
        page.reload()
        page.wait_for_selector('[data-place="p24"]')
        wait_version(page, len(game.events))
        assert fetch_state(running.url, match_id)["made"][0]["from"] == made[0]
        assert page.is_visible('[data-action="undo"]')
        shown = game.turn.current()
        for n in range(1, 25):
            count = shown.theirs[n] or shown.mine[25 - n]  # black (seat 1) is on roll
            assert page.get_attribute(f'[data-place="p{n}"]', "data-count") == str(count)
        screenshot(page, "browser-after-restart.png")

        # The turn goes on, and the seeded dice go on as they would have.
        while game.phase is Phase.MOVE:
            assert game.turn is not None
            click_step(page, game, game.turn.legal_steps()[0])
        page.click('[data-action="confirm"]')
        game.confirm(1)
        wait_version(page, len(game.events))
        page.click('[data-action="roll"]')
        game.roll(0)
        wait_version(page, len(game.events))
        assert game.dice is not None
        high, low = sorted(game.dice, reverse=True)
        dice = ",".join(map(str, [high, low] * (2 if high == low else 1)))  # doubles: four dice
        assert page.get_attribute("[data-dice]", "data-dice") == dice
    finally:
        running.stop()


# The ways to move: dragging, one-click obvious moves, the keyboard, the mirrored board


def test_the_obvious_step_is_a_pure_function_of_the_steps(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")

    def step(a: int, b: int, board_a: int | None = None, board_b: int | None = None) -> Any:
        return {"from": a, "to": b, "board_from": a if board_a is None else board_a,
                "board_to": b if board_b is None else board_b}

    cases: list[tuple[list[Any], int, str, Any]] = [
        # One die blocked: the other's step is the only one, made at once.
        ([step(24, 20), step(13, 9), step(13, 8)], 0, "p24", step(24, 20)),
        # Two dice, two destinations: a choice, so the checker is picked up.
        ([step(24, 20), step(13, 9), step(13, 8)], 0, "p13", None),
        # A double: every step from the point ends on the same point.
        ([step(13, 9), step(8, 4)], 0, "p13", step(13, 9)),
        # Entering from the bar with one point open; the second seat's places on the board.
        ([step(25, 22, 25, 3), step(13, 9, 12, 16)], 1, "bar1", step(25, 22, 25, 3)),
        ([step(25, 22, 25, 3), step(25, 21, 25, 4)], 1, "bar1", None),
        # Bearing off with either die: one place, the tray.
        ([step(3, 0), step(5, 1)], 0, "p3", step(3, 0)),
        # A place with no step, and no steps at all.
        ([step(24, 20)], 0, "p6", None),
        ([], 0, "p6", None),
    ]
    answers = page.evaluate(
        """async (cases) => {
            const moves = await import('/js/moves.js');
            return cases.map(([steps, mover, from]) => moves.obviousStep(steps, mover, from));
        }""",
        [[steps, mover, source] for steps, mover, source, _ in cases],
    )
    assert answers == [expected for *_, expected in cases]


def drag(page: Any, source: str, to: tuple[float, float], shot: str | None = None) -> None:
    """Press the mouse on the top checker of ``source``, move it to ``to`` and let go."""
    page.mouse.move(*centre(page, f'[data-place="{source}"] circle.checker'))
    page.mouse.down()
    page.mouse.move(*to, steps=8)
    if shot:
        screenshot(page, shot)
    page.mouse.up()


def counts(page: Any) -> list[str]:
    return page.eval_on_selector_all(
        "[data-place]", "nodes => nodes.map(n => n.dataset.place + ':' + n.dataset.count)"
    )


def opened(server: str, page: Any, seed: int) -> tuple[str, Game]:
    """A game between two players at this screen, past its opening roll, and the engine's."""
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": seed})["id"]
    game = Game(dice=SeededDice(seed))
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    game.roll(0)
    wait_version(page, len(game.events))
    return match_id, game


def test_dragging_a_checker(server: str, page: Any) -> None:
    match_id, game = opened(server, page, SEED)
    assert game.on_roll == 1 and game.dice == (5, 4)
    board = counts(page)

    # Dropped on a point that is not offered (black's 13 to its 10): back, and nothing sent.
    page.mouse.move(*centre(page, f'[data-place="{place(13, 1)}"] circle.checker'))
    page.mouse.down()
    page.mouse.move(*centre(page, f'[data-place="{place(10, 1)}"]'), steps=8)
    # While it is carried, the places it may go to are lit, as for a click.
    assert highlighted(page, "target") == targets_of(game, 13)
    assert page.locator(".is-dragged").count() == 1
    page.mouse.up()
    assert page.locator(".is-dragged, .is-lifted").count() == 0
    assert highlighted(page, "selected") == set() and highlighted(page, "target") == set()
    # Dropped off the board, on its own place, on an opponent's point: the same.
    below = page.locator("#status").bounding_box()
    assert below is not None
    drag(page, place(13, 1), (below["x"] + 10, below["y"] + 5))
    drag(page, place(13, 1), centre(page, f'[data-place="{place(13, 1)}"] .point-area'))
    drag(page, place(13, 1), centre(page, f'[data-place="{place(19, 1)}"]'))
    # The opponent's checkers cannot be picked up at all.
    drag(page, place(6, 0), centre(page, f'[data-place="{place(8, 1)}"]'))
    assert page.locator(".is-dragged, .is-lifted, .is-selected").count() == 0
    assert counts(page) == board
    assert fetch_state(server, match_id)["version"] == 1

    # Dropped on a highlighted point: the step, as the engine has it.
    drag(page, place(13, 1), centre(page, f'[data-place="{place(8, 1)}"]'), "browser-drag.png")
    game.step(1, 13, 8)
    wait_version(page, len(game.events))
    assert fetch_state(server, match_id)["made"] == [
        {"from": 13, "to": 8, "board_from": 12, "board_to": 17}
    ]
    assert page.get_attribute(f'[data-place="{place(8, 1)}"]', "data-count") == "4"
    # A press that does not move is a click: with one place to go (24 to 20), it moves.
    assert targets_of(game, 24) == {place(20, 1)}
    page.click(f'[data-place="{place(24, 1)}"] circle.checker >> nth=-1')
    game.step(1, 24, 20)
    wait_version(page, len(game.events))
    assert game.phase is Phase.CONFIRM
    assert "So far: 13/8 24/20." in page.inner_text("#status")


def test_a_checker_dragged_by_a_finger(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.tap("#board")
    wait_version(page, 1)
    touch = context.new_cdp_session(page)
    x, y = centre(page, f'[data-place="{place(13, 1)}"] circle.checker')
    x1, y1 = centre(page, f'[data-place="{place(9, 1)}"]')
    for i in range(11):
        point = {"x": x + (x1 - x) * i / 10, "y": y + (y1 - y) * i / 10}
        kind = "touchStart" if i == 0 else "touchMove"
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [point]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_version(page, 2)
    assert fetch_state(server, match_id)["made"][0]["to"] == 9
    # The page did not scroll sideways under the finger.
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    context.close()


def test_the_keyboard_alone_plays_a_turn(server: str, page: Any) -> None:
    match_id, game = opened(server, page, SEED)

    def focused() -> str:
        return str(page.evaluate(
            "document.activeElement.dataset.place || document.activeElement.dataset.action || ''"
        ))

    def tab_to(target: str) -> None:
        for _ in range(60):
            page.keyboard.press("Tab")
            if focused() == target:
                return
        pytest.fail(f"Tab never reached {target}")

    # Black's 13 may go to 9 or 8: Enter picks it up, Escape puts it back, Enter again.
    tab_to(place(13, 1))
    page.keyboard.press("Enter")
    assert highlighted(page, "selected") == {place(13, 1)} and focused() == place(13, 1)
    label = page.get_attribute(f'[data-place="{place(13, 1)}"]', "aria-label")
    assert label == "Point 12: 5 black checkers, selected"
    page.keyboard.press("Escape")
    assert highlighted(page, "selected") == set() and focused() == place(13, 1)
    page.keyboard.press("Enter")
    assert highlighted(page, "target") == targets_of(game, 13)
    tab_to(place(8, 1))
    assert "move here" in str(page.get_attribute(f'[data-place="{place(8, 1)}"]', "aria-label"))
    page.keyboard.press("Enter")
    game.step(1, 13, 8)
    wait_version(page, len(game.events))
    # The focus stays on the board; 24 has one place to go (20): Enter makes it at once.
    assert focused().startswith(("p", "bar"))
    tab_to(place(24, 1))
    page.keyboard.press(" ")
    game.step(1, 24, 20)
    wait_version(page, len(game.events))
    # The turn is whole: the focus goes on to Confirm.
    assert focused() == "confirm"
    page.keyboard.press("Enter")
    game.confirm(1)
    wait_version(page, len(game.events))
    assert fetch_state(server, match_id)["record"][0]["entries"][-1]["play"] == "24/20 13/8"


def test_the_home_board_on_the_left(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    choose(page, "friend", "screen")
    more_options(page)
    page.select_option('select[name="home_side"]', "left")
    start(page)
    page.wait_for_selector('[data-place="p24"]')

    def x(selector: str) -> float:
        return centre(page, selector)[0]

    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    # Point 1 on the left, 12 on the right, the trays on the left, the bar between.
    assert x('[data-place="p1"]') < x('[data-place="bar0"]') < x('[data-place="p12"]')
    assert x('[data-place="off0"]') < x('[data-place="p1"]')
    assert x('[data-place="p24"]') < x('[data-place="p13"]')
    assert page.input_value("#home-side") == "left"
    screenshot(page, "browser-home-left.png")

    # Kept in this browser, for a reload and the next game; the play's menu turns it back.
    page.reload()
    page.wait_for_selector('[data-place="p24"]')
    assert x('[data-place="p1"]') < x('[data-place="p12"]')
    page.select_option("#home-side", "right")
    assert x('[data-place="p1"]') > x('[data-place="bar0"]') > x('[data-place="p12"]')
    assert x('[data-place="off0"]') > x('[data-place="p1"]')
    # The same places, named the same.
    assert [n.get_attribute("aria-label") for n in page.query_selector_all("[data-place]")] == (
        labels
    )
    assert page.evaluate("localStorage.getItem('backgammon.homeSide')") == "right"
    page.select_option("#home-side", "left")

    # Another game, mirrored too; there a drag still lands where it is let go.
    match_id, game = opened(server, page, SEED)
    assert x('[data-place="p1"]') < x('[data-place="p12"]')
    drag(page, place(13, 1), centre(page, f'[data-place="{place(9, 1)}"]'))
    game.step(1, 13, 9)
    wait_version(page, len(game.events))
    assert fetch_state(server, match_id)["made"][0]["to"] == 9
    page.evaluate("localStorage.clear()")


DANCE_SEED = 157  # one dance (black's, after 20 rolls), a gammon borne off by white


def test_a_whole_game_at_one_screen_by_clicks(server: str, page: Any) -> None:
    match_id, game = opened(server, page, DANCE_SEED)
    dances = 0
    borne_off = [0, 0]
    for _ in range(2000):
        if game.phase is Phase.OVER:
            break
        if game.phase is Phase.ROLL:
            roller = game.on_roll
            page.click('[data-action="roll"]')
            game.roll(roller)
            wait_version(page, len(game.events))
            if game.on_roll != roller:  # no legal move: the game passed the roll
                dances += 1
                assert game.events[-1].action is Action.PASS
                entry = fetch_state(server, match_id)["record"][0]["entries"][-1]
                assert entry["play"] is None and entry["seat"] == roller
                first, second = entry["dice"]
                name = ["White", "Black"][roller]
                status = page.inner_text("#status")
                assert f"{name} rolled {first} and {second}: no legal move." in status
                assert page.inner_text("#record li >> nth=-1") == (
                    f"{name} {first}{second}: no move"
                )
                screenshot(page, "browser-dance.png")
        elif game.phase is Phase.MOVE:
            assert game.turn is not None
            click_step(page, game, game.turn.legal_steps()[0])
            position = game.turn.current()
            mine, theirs = position.mine[0], position.theirs[0]
            borne_off = [mine, theirs] if game.on_roll == 0 else [theirs, mine]
            for seat in (0, 1):
                shown = page.get_attribute(f'[data-place="off{seat}"]', "data-count")
                assert shown == str(borne_off[seat])
        else:
            assert game.phase is Phase.CONFIRM
            if game.turn is not None and game.turn.current().mine[0] == 15:
                screenshot(page, "browser-borne-off.png")
            page.click('[data-action="confirm"]')
            game.confirm(game.on_roll)
            wait_version(page, len(game.events))
    else:
        pytest.fail("the game did not end")
    assert dances >= 1 and 15 in borne_off
    assert game.result is not None and game.result.reason == "bear off"
    state = fetch_state(server, match_id)
    assert state["record"][0]["result"]["winner"] == game.result.winner
    assert state["score"][game.result.winner] == game.result.points
    name = ["White", "Black"][game.result.winner]
    assert f"{name} wins" in page.inner_text("#status")


def test_a_game_set_up_from_an_xgid_in_the_form(server: str, page: Any) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    choose(page, "friend", "screen")
    more_options(page)
    page.fill('input[name="position"]', "XGID=not-a-position")
    start(page)
    # Said on the form, where the player is.
    page.wait_for_function("document.querySelector('#setup-message').textContent !== ''")
    assert "That position cannot be set up: XGID" in page.inner_text("#setup-message")
    assert page.is_visible("#setup-message")

    xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:7:10"
    page.fill('input[name="position"]', xgid)
    start(page)
    page.wait_for_selector('[data-place="p24"]')
    match_id = page.url.split("match=")[1]
    state = fetch_state(server, match_id)
    assert state["xgid"] == xgid and state["length"] == 7 and state["score"] == [2, 1]
    assert page.input_value("#xgid") == xgid
    assert page.get_attribute("[data-dice]", "data-dice") == "5,2"
    # The moves on offer are the engine's for that position and roll.
    setting = setup_from_id(xgid)
    game = Game(setup=setting.setup)
    assert game.turn is not None
    sources = {place(a, 0) for a, _ in game.turn.legal_steps()}
    assert highlighted(page, "source") == sources


# Hints


def test_the_hint_panel_names_only_known_messages() -> None:
    messages = catalogue()
    source = (WEB / "js" / "hint.js").read_text()
    assert "hint.js" in (WEB / "js" / "app.js").read_text()
    # Messages the panel names by pattern: the cube's actions, answers and advice.
    for proper in ("noDouble", "double", "tooGood"):
        assert f"hint.cube.proper.{proper}" in messages
    for response in ("take", "drop", "beaver"):
        assert f"hint.cube.response.{response}" in messages
    for advice in ("roll", "double", "take", "drop", "beaver"):
        assert f"hint.cube.advice.{advice}" in messages
    for answer in ("accept", "reject", "unitPoints", "unitMatch"):
        assert f"hint.resign.{answer}" in messages
    # The rows of the cube's and the resignation's lists.
    for name in re.findall(r'\["\w+", "(\w+)"\]', source):
        assert f"hint.cube.{name}" in messages or f"hint.resign.{name}" in messages


def fetch_hint(base: str, match_id: str) -> dict[str, Any]:
    hint = request_for(base, f"/api/matches/{match_id}/hint?view=0")
    with urllib.request.urlopen(hint, timeout=30) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def marks(page: Any) -> list[tuple[str, str, str]]:
    """The steps of a hint drawn over the board: (from place, to place, number)."""
    return [
        (node.get_attribute("data-from"), node.get_attribute("data-to"),
         node.get_attribute("data-number"))
        for node in page.query_selector_all("#board .play-marks .play-mark")
    ]


def marks_of(play: dict[str, Any], mover: int) -> list[tuple[str, str, str]]:
    return [
        (place(step["from"], mover), place(step["to"], mover), str(number))
        for number, step in enumerate(play["steps"], start=1)
    ]


def test_a_hint_shows_the_best_plays_and_draws_them(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    assert page.is_hidden("#hint-button")  # the opening roll needs no hint
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    assert page.inner_text("#hint-button") == "Hint"
    assert page.get_attribute("#hint-button", "aria-expanded") == "false"

    page.click("#hint-button")
    page.wait_for_selector(".hint-play")
    expected = fetch_hint(server, match_id)
    mover = expected["seat"]
    rows = page.query_selector_all(".hint-play")
    assert [row.get_attribute("data-play") for row in rows] == [
        play["play"] for play in expected["plays"]
    ]
    for row, play in zip(rows, expected["plays"], strict=True):
        assert row.query_selector(".hint-equity").inner_text() == _signed(play["equity"])
        assert f"{play['chances']['win']:.1%}" in row.inner_text()
        words = str(page.text_content(f"#{row.get_attribute('aria-describedby')}"))
        assert play["play"] in words
    assert rows[0].get_attribute("aria-pressed") == "true"
    assert page.get_attribute("#hint-button", "aria-expanded") == "true"
    # The best play is drawn when the panel opens.
    best = expected["plays"][0]
    assert marks(page) == marks_of(best, mover)
    screenshot(page, "browser-hint.png")

    # Hovering a row draws its play; a click selects it; the pointer gone, the selected stays.
    page.hover('.hint-play[data-index="1"]')
    assert marks(page) == marks_of(expected["plays"][1], mover)
    page.click('.hint-play[data-index="2"]')
    page.mouse.move(5, 5)
    assert page.get_attribute('.hint-play[data-index="2"]', "aria-pressed") == "true"
    assert marks(page) == marks_of(expected["plays"][2], mover)
    # By keyboard: the focus shows a row's play, Enter selects it.
    page.focus('.hint-play[data-index="3"]')
    assert marks(page) == marks_of(expected["plays"][3], mover)
    page.keyboard.press("Enter")
    assert page.get_attribute('.hint-play[data-index="3"]', "aria-pressed") == "true"

    # A step made: the game has moved on, so the hint goes, and its marks with it.
    step = expected["plays"][0]["steps"][0]
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": mover, "action": "step", "from": step["from"], "to": step["to"],
          "version": 1})
    wait_version(page, 2)
    page.wait_for_selector("#hint", state="hidden")
    assert marks(page) == []
    # Asked again mid-turn: the same plays, from the start of the turn, the best one drawn on
    # from the step made.
    page.click("#hint-button")
    page.wait_for_selector(".hint-play")
    again = fetch_hint(server, match_id)
    assert again["from_turn_start"]
    assert "start of the turn" in page.inner_text("#hint-note")
    rest = again["plays"][0]["remaining"]
    assert marks(page) == [
        (place(s["from"], mover), place(s["to"], mover), str(number))
        for number, s in enumerate(rest, start=2)
    ]
    context.close()
    assert errors == [], errors


def _signed(value: float) -> str:
    """An equity as the panel writes it (Intl.NumberFormat, signed except zero)."""
    text = f"{value:+.3f}"
    return "0.000" if text in ("+0.000", "-0.000") else text


def test_a_cube_hint_in_the_browser(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "play", "play": "24/20 13/8", "version": 1})
    wait_version(page, 2)
    page.click("#hint-button")
    page.wait_for_selector(".hint-proper")
    expected = fetch_hint(server, match_id)["cube"]
    assert expected["action"] in page.inner_text(".hint-proper").lower()
    shown = {
        node.get_attribute("data-equity"): node.inner_text()
        for node in page.query_selector_all(".hint-equities dd")
    }
    assert shown == {key: _signed(expected[key]) for key in ("no_double", "double_take",
                                                             "double_pass")}
    assert marks(page) == []
    page.click("#hint-close")
    assert page.is_hidden("#hint")


def test_a_resignation_hint_in_the_browser(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    # Black, to move, offers a single game; white is asked.
    post(server, f"/api/matches/{match_id}/actions",
         {"seat": 1, "action": "resign", "level": 1, "version": 1})
    wait_version(page, 2)
    page.click("#hint-button")
    page.wait_for_selector('.hint-equities dd[data-equity="accepting"]')
    expected = fetch_hint(server, match_id)["resignation"]
    assert expected["accept"] and page.inner_text("#hint-note") == "Best now: accept."
    shown = {
        node.get_attribute("data-equity"): node.inner_text()
        for node in page.query_selector_all(".hint-equities dd")
    }
    assert shown == {key: _signed(expected[key]) for key in ("accepting", "playing_on")}
    assert "Accept a single game" in page.inner_text(".hint-equities")


# Languages: a catalogue each, English the fallback

LANGUAGES = ["en", "vi", "mt", "fa", "km"]
# CLDR's plural categories of each language (those Intl.PluralRules selects among): a counted
# message has exactly these forms in that language's catalogue.
PLURAL_CATEGORIES = {
    "en": {"one", "other"},
    "vi": {"other"},
    "mt": {"one", "two", "few", "many", "other"},
    "fa": {"one", "other"},
    "km": {"other"},
}
ENDONYMS = {"en": "English", "vi": "Tiếng Việt", "mt": "Malti", "fa": "فارسی", "km": "ភាសាខ្មែរ"}
PERSIAN = re.compile(r"[\u0600-\u06ff]")


def catalogue_of(lang: str) -> dict[str, str]:
    messages: dict[str, str] = json.loads((WEB / "messages" / f"{lang}.json").read_text())
    return messages


def counted(messages: dict[str, str]) -> set[str]:
    """The counted messages of the English catalogue (those with an "other" form)."""
    return {key.rsplit(".", 1)[0] for key in messages if key.endswith(".other")}


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_there_is_a_catalogue_for_each_language_and_no_other() -> None:
    assert sorted(path.stem for path in (WEB / "messages").glob("*.json")) == sorted(LANGUAGES)
    source = (WEB / "js" / "i18n.js").read_text()
    assert f"export const LANGUAGES = {json.dumps(LANGUAGES)};" in source.replace("'", '"')
    # Every page's language menu is filled from that list (js/language_menu.js; the options
    # are checked in the browser: test_the_language_menu_switches_and_is_kept).
    for page in ("index.html", "editor.html", "trainer.html"):
        markup = own_page(page)
        assert '<select id="language" data-msg-label="language.label"></select>' in markup
    assert "LANGUAGES.map" in (WEB / "js" / "language_menu.js").read_text()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalogue_has_the_english_keys_and_placeholders(lang: str) -> None:
    english = catalogue()
    messages = catalogue_of(lang)  # valid JSON, or this fails
    assert all(isinstance(text, str) and text.strip() for text in messages.values())
    assert messages["meta.lang"] == lang
    assert messages["meta.dir"] == ("rtl" if lang == "fa" else "ltr")
    plurals = counted(english)
    plain = {key for key in english if key.rsplit(".", 1)[0] not in plurals}
    # Every plain message, and nothing else but the plural forms of the counted ones.
    assert {key for key in messages if key.rsplit(".", 1)[0] not in plurals} == plain
    for key in plain:
        assert placeholders(messages[key]) == placeholders(english[key]), (lang, key)
    for base in plurals:
        forms = {key.rsplit(".", 1)[1] for key in messages if key.rsplit(".", 1)[0] == base}
        assert forms == PLURAL_CATEGORIES[lang], (lang, base, forms)
        wanted = placeholders(english[f"{base}.other"]) - {"count"}
        for form in forms:
            # A form may say its number in words ("1 checker", "żewġ pedini"): {count} aside.
            assert placeholders(messages[f"{base}.{form}"]) - {"count"} == wanted, (lang, base)
    # The language menu names each language in its own, the same in every catalogue.
    assert {code: messages[f"language.{code}"] for code in LANGUAGES} == ENDONYMS


def test_the_page_in_persian_reads_right_to_left(server: str, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 1000}, locale="fa-IR")
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    persian = catalogue_of("fa")
    # The plural categories the catalogues are written for are the browser's own.
    for lang, categories in PLURAL_CATEGORIES.items():
        found = page.evaluate(
            "lang => new Intl.PluralRules(lang).resolvedOptions().pluralCategories", lang
        )
        assert set(found) == categories, lang
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    # From the browser's language, with nothing chosen yet.
    assert page.get_attribute("html", "lang") == "fa"
    assert page.get_attribute("html", "dir") == "rtl"
    assert page.input_value("#language") == "fa"
    assert page.title() == persian["app.title"] == page.inner_text("h1")
    assert page.inner_text("#new-game") == persian["button.newGame"]
    assert PERSIAN.search(page.inner_text("#status"))
    assert page.inner_text('[data-action="roll"]') == persian["button.roll"]

    page.click("#board", position={"x": 20, "y": 20})  # the opening roll: black moves 5-4
    wait_version(page, 1)
    assert page.inner_text("#status").startswith("نوبت حرکت سیاه")
    assert page.inner_text("#hint-button") == persian["button.hint"]
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert "خانهٔ ۶: ۵ مهرهٔ سفید" in labels
    # The layout reads from the right: the player's name right of the score, the controls
    # from the right, the record's numbers on the right.
    def x(selector: str) -> float:
        return centre(page, selector)[0]

    assert x('.player[data-seat="0"] .name') > x('.player[data-seat="0"] .score')
    assert page.evaluate("getComputedStyle(document.querySelector('.record')).direction") == "rtl"
    record_list = "getComputedStyle(document.querySelector('#record ol')).listStyleType"
    assert page.evaluate(record_list) == "persian"  # its numbers in Persian digits too
    # The board is not mirrored by the language: the home board on the right, 1 to 6.
    assert x('[data-place="p1"]') > x('[data-place="bar0"]') > x('[data-place="p12"]')
    assert x('[data-place="off0"]') > x('[data-place="p1"]')

    page.click("#hint-button")
    page.wait_for_selector(".hint-play")
    assert x("#hint-heading") > x("#hint-close")
    assert x("#hint") < x("#board")  # beside the board, on its left
    equity = page.inner_text('.hint-play[data-index="0"] .hint-equity')
    assert re.search(r"[۰-۹]", equity) and not re.search(r"[0-9]", equity)
    assert "٪" in page.inner_text('.hint-play[data-index="0"] .hint-chances')
    # The notation stays left to right: its first step on the left.
    row = '.hint-play[data-index="0"] .hint-notation'
    assert page.evaluate(f"getComputedStyle(document.querySelector('{row}')).direction") == "ltr"
    page.click('.hint-play[data-index="0"]')
    screenshot(page, "browser-persian.png")
    context.close()
    assert errors == [], errors


def test_the_language_menu_switches_and_is_kept(server: str, page: Any) -> None:
    vietnamese = catalogue_of("vi")
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    assert page.get_attribute("html", "lang") == "en"
    assert page.input_value("#language") == "en"  # the browser's language: en-US
    options = page.query_selector_all("#language option")
    assert {o.get_attribute("value"): o.inner_text() for o in options} == ENDONYMS
    assert all(o.get_attribute("lang") == o.get_attribute("value") for o in options)
    assert [o.get_attribute("value") for o in options] == LANGUAGES
    assert [o.get_attribute("dir") for o in options] == [
        "rtl" if lang == "fa" else None for lang in LANGUAGES]

    page.select_option("#language", "vi")
    page.wait_for_function("document.documentElement.lang === 'vi'")
    assert page.get_attribute("html", "dir") == "ltr"
    assert page.inner_text("#setup-heading") == vietnamese["setup.heading"]
    assert page.inner_text("#setup-form button[type=submit]") == vietnamese["setup.start"]
    assert page.get_attribute("#language", "aria-label") == vietnamese["language.label"]
    assert page.evaluate("localStorage.getItem('backgammon.language')") == "vi"

    # Kept for a reload, and for a game: its texts in Vietnamese.
    page.reload()
    page.wait_for_selector("#setup-form button[type=submit]")
    page.wait_for_function("document.documentElement.lang === 'vi'")
    assert page.input_value("#language") == "vi"
    choose(page, "friend", "screen")
    start(page)
    page.wait_for_selector('[data-place="p24"]')
    assert page.inner_text('[data-action="roll"]') == vietnamese["button.roll"]
    assert page.inner_text("#record-heading") == vietnamese["record.heading"]
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert "Ô 6: 5 quân trắng" in labels

    # Back to English mid-game: the board and the status said again at once.
    page.select_option("#language", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert "Roll" in page.inner_text("#status")
    assert page.inner_text('[data-action="roll"]') == "Roll"
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert "Point 6: 5 white checkers" in labels
    page.reload()
    page.wait_for_selector('[data-place="p24"]')
    assert page.get_attribute("html", "lang") == "en" and page.input_value("#language") == "en"
    page.evaluate("localStorage.clear()")


def test_a_message_missing_from_a_catalogue_is_said_in_english(
    server: str, browser: Any
) -> None:
    # The browser's first language with a catalogue (Vietnamese) is the page's; a catalogue
    # that lacks a message, or a counted message's forms, gives the English one.
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.add_init_script(
        "Object.defineProperty(navigator, 'languages', {get: () => ['de-DE', 'vi-VN']})"
    )
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    shortened = {key: text for key, text in catalogue_of("vi").items()
                 if key != "setup.start" and not key.startswith("point.checkers.")}
    page.route("**/messages/vi.json", lambda route: route.fulfill(
        status=200, content_type="application/json", body=json.dumps(shortened)))
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    page.wait_for_function("document.documentElement.lang === 'vi'")
    assert page.inner_text("#setup-heading") == catalogue_of("vi")["setup.heading"]
    assert page.inner_text("#setup-form button[type=submit]") == "Start"
    choose(page, "friend", "screen")
    start(page)
    page.wait_for_selector('[data-place="p24"]')
    labels = [node.get_attribute("aria-label") for node in page.query_selector_all("[data-place]")]
    assert "Point 6: 5 trắng checkers" in labels  # the English form, the colour Vietnamese
    assert "Ô 2, trống" in labels
    context.close()
    assert errors == [], errors


def test_a_forced_play_is_made_for_the_player_and_said(server: str, page: Any) -> None:
    # White: one checker on the bar, the rest off; Black's home board closed but its 5 point.
    # The seeded roll is 2-5: enter on the 20 point and go on to the 18, the only play.
    options = {"opponent": "human", "position": "22bABwAAAAABAA", "seed": 1, "auto_forced": True}
    match_id = post(server, "/api/matches", options)["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 2)  # the roll and the play the game made
    entries = fetch_state(server, match_id)["record"][0]["entries"]
    assert entries[-1]["auto"] and entries[-1]["play"] == "bar/18"
    status = page.inner_text("#status")
    assert "White rolled" in status and "the only play, bar/18, was made" in status
    assert "Black" in status  # and whose turn it is now


def test_a_match_won_by_a_resignation_says_the_winners_score_first(
    server: str, page: Any
) -> None:
    # A 1-point match: black wins the opening roll and resigns, white accepts.
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED, "length": 1})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    page.click('[data-action="resign"]')
    page.click("#resign-yes")
    wait_version(page, 2)
    page.click('[data-action="accept"]')
    wait_version(page, 3)
    state = fetch_state(server, match_id)
    assert state["match_over"] and state["score"] == [1, 0]
    assert page.inner_text("#status") == "White wins the match, 1–0."


def test_resigning_is_asked_once_more(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED, "length": 3})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    wait_version(page, 1)
    page.select_option("#resign-level", "2")
    page.click('[data-action="resign"]')
    page.wait_for_selector("#resign-dialog[open]")
    assert page.inner_text("#resign-question") == (
        "Offer to resign a gammon? If your opponent accepts, the game ends."
    )
    screenshot(page, "resign-dialog.png")
    page.keyboard.press("Enter")  # the default: keep playing
    page.wait_for_selector("#resign-dialog[open]", state="detached")
    assert fetch_state(server, match_id)["version"] == 1  # nothing was sent
    page.click('[data-action="resign"]')
    page.click("#resign-yes")
    wait_version(page, 2)
    assert fetch_state(server, match_id)["resignation"]["level"] == 2


def test_copying_an_id_says_it_was_copied(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    button = page.locator('[data-copy="gnubg-id"]')
    assert button.inner_text() == "Copy"
    button.click()
    # Copied (the clipboard of a secure context), or selected with the keys to press: said.
    page.wait_for_function(
        "() => ['Copied', 'Press Ctrl+C'].includes("
        "document.querySelector('[data-copy=\"gnubg-id\"]').textContent)"
    )
    page.wait_for_function(
        "() => document.querySelector('[data-copy=\"gnubg-id\"]').textContent === 'Copy'"
    )


def test_too_many_actions_are_said_as_such(tmp_path: Path, page: Any) -> None:
    running = Running(tmp_path / "games.sqlite", action_rate="1/minute")
    try:
        match_id = post(running.url, "/api/matches", {"opponent": "human", "seed": SEED})["id"]
        page.goto(match_url(running.url, match_id))
        page.wait_for_selector('[data-place="p24"]')
        page.click("#board", position={"x": 20, "y": 20})  # the opening roll: the one allowed
        wait_version(page, 1)
        page.click(f'[data-place="{place(13, 1)}"]')  # Black's 13/8: one action too many
        page.click(f'[data-place="{place(8, 1)}"]')
        page.wait_for_function(
            "text => document.querySelector('#message').textContent === text",
            arg=catalogue()["error.tooMany"],
        )
        assert fetch_state(running.url, match_id)["version"] == 1
    finally:
        running.stop()
