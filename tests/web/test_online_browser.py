"""Two people on two browsers: one creates an online game in the page and hands on its
invitation, the other opens it in another browser context and takes the other seat; they play
a short game to its end, with a double and a take, one of them reloading mid-game, while a
third page without a seat watches every move and can make none.

The dice are the server's own (the page sends no seed): each move is read from the server's
state and made by clicks on the page of the seat the game waits for.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    Running,
    choose,
    click_first_step,
    fetch_state,
    match_url,
    more_options,
    open_pages,
    post,
    screenshot,
    start,
    wait_version,
)

#: Each side has four checkers left in its home board (pips 7 and 9), seat 0 to roll: a game
#: of a few turns.
SHORT_RACE = "TQAAYAUAAAAAAA"
#: Seat 0 throws a 4 and seat 1 a 5 at the opening roll.
SEED = 11
#: A guard against a game that never ends, never a measure.
MOST_ACTIONS = 80


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Three browser contexts (two players and a spectator), each a page with no page errors."""
    yield from open_pages(browser, 3)


def all_at(pages: list[Any], version: int) -> None:
    for page in pages:
        wait_version(page, version)


def test_two_browsers_play_an_online_game_that_a_third_watches(
    server: str, contexts: list[Any]
) -> None:
    first, second, spectator = contexts
    # The creator: a game for a friend from a position, which the lobby does not list.
    first.goto(server + "/")
    choose(first, "friend", "online")
    first.fill('input[name="player_name"]', "Ann")
    more_options(first)
    first.fill('input[name="position"]', SHORT_RACE)
    start(first)
    first.wait_for_selector("#invite:not([hidden])")
    link = first.input_value("#invite-link")
    assert "/join/" in link
    match_id = first.url.split("match=")[1]
    assert "Waiting for your friend" in first.inner_text("#status")
    assert first.locator(".controls button:visible").count() == 0
    screenshot(first, "online-invite.png")
    # The creator opening their own link keeps their seat and still waits.
    first.goto(link)
    first.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    first.wait_for_selector("#invite:not([hidden])")
    assert "Waiting for your friend" in first.inner_text("#status")
    assert fetch_state(server, match_id, 0)["waiting_for_opponent"]

    # The other player opens the invitation, gives a name and takes seat 1; both pages see
    # the game begin, with both names.
    second.goto(link)
    second.wait_for_selector("#join-form")
    assert second.inner_text("#join-heading") == "You are invited to a game"
    second.fill('#join-form [name="player_name"]', "Bob")
    second.click("#join-form button[type=submit]")
    second.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    second.wait_for_selector('[data-place="p24"]')
    first.wait_for_selector("#invite", state="hidden")
    seats = fetch_state(server, match_id, 0)["seats"]
    assert (seats[0]["name"], seats[1]["name"]) == ("Ann", "Bob")
    first.wait_for_function(
        "() => [...document.querySelectorAll('.player .name')].some(n => n.textContent === 'Bob')"
    )
    # Each player's own panel ("You") is beside their home board, at the bottom of their page.
    for own, other, name in ((first, second, "Ann"), (second, first, "Bob")):
        assert own.inner_text('.player[data-side="bottom"] .name') == "You"
        assert other.inner_text('.player[data-side="top"] .name') == name
    # A second use of the invitation is refused, and says why.
    spectator.goto(link)
    spectator.click("#join-form button[type=submit]")
    spectator.wait_for_function("document.querySelector('#setup-message').textContent !== ''")
    assert "has been used" in spectator.inner_text("#setup-message")

    # The spectator: the board, no seat, no control, and a click on the board acts for nobody.
    spectator.goto(f"{server}/?match={match_id}")
    spectator.wait_for_selector("#watching:not([hidden])")
    spectator.click("#board", position={"x": 20, "y": 20})
    assert fetch_state(server, match_id, 0)["version"] == 1  # the seat taken, and nothing since
    assert spectator.locator(".controls button:visible").count() == 0

    # Seat 0 doubles; seat 1 takes (each on their own page only).
    pages = {0: first, 1: second}
    assert second.locator('.controls [data-action="double"]:visible').count() == 0
    first.click('.controls [data-action="double"]')
    second.click('.controls [data-action="take"]')
    all_at([first, second, spectator], 3)
    assert fetch_state(server, match_id, 0)["cube"] == {
        "value": 2, "owner": 1, "offer": None, "used": True}

    # The doubler reloads mid-game: the seat is kept in the browser, the game resumes there,
    # and the next action (the roll) is theirs.
    first.reload()
    first.wait_for_selector('.controls [data-action="roll"]:visible')
    wait_version(first, 3)
    assert first.is_hidden("#watching") and first.is_hidden("#invite")

    for _ in range(MOST_ACTIONS):
        state = fetch_state(server, match_id, 0)
        if state["record"][0]["result"] is not None:
            break  # the game is over (a money session goes on to the next)
        seat = state["to_act"]
        page = pages[seat]
        seen = fetch_state(server, match_id, seat)  # as that page draws it
        if state["version"] == 3:
            # Before acting: the tab of the player the game waits for says so, the other's not.
            assert page.title() == "Your turn · Backgammon"
            assert pages[1 - seat].title() == "Backgammon"
        if "roll" in seen["actions"][seat]:
            page.click('.controls [data-action="roll"]')
        elif "confirm" in seen["actions"][seat]:
            page.click('.controls [data-action="confirm"]')
        else:
            # No engine help in an online game between people: no hint to ask for.
            assert page.is_hidden("#hint-button")
            click_first_step(page, seen)
        # Every page, the spectator's too, shows the action.
        all_at([first, second, spectator], state["version"] + 1)
    state = fetch_state(server, match_id, 0)
    assert state["record"][0]["result"] is not None
    result = state["record"][0]["result"]
    assert result["reason"] == "bear off" and result["points"] == 2  # the cube's value
    for page in (first, second, spectator):
        wait_version(page, state["version"])
        assert page.get_attribute("#board", "data-phase") == "opening"  # the next game's
        # A money session goes on: no analysis until it is over.
        assert page.is_hidden("#analyse-button")
    screenshot(spectator, "online-spectator.png")


def test_a_game_joined_from_the_lobby_and_claimed_from_a_player_who_left(
    tmp_path: Path, contexts: list[Any]
) -> None:
    # A server where a game may be claimed as soon as it waits for someone.
    running = Running(tmp_path / "games.sqlite", claim_seconds=0)
    try:
        first, second, _ = contexts
        first.goto(running.url + "/")
        choose(first, "lobby")  # listed, for anyone to join
        first.fill('input[name="player_name"]', "Ann")
        start(first)
        first.wait_for_selector("#invite:not([hidden])")
        match_id = first.url.split("match=")[1]
        assert "Waiting for an opponent" in first.inner_text("#status")

        # The lobby lists it with its creator's name; one click takes the seat.
        second.goto(running.url + "/")
        entry = second.locator("#lobby-list li", has_text="Ann")
        entry.wait_for()
        assert "Money game" in entry.inner_text()
        entry.locator("button").click()
        second.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
        first.wait_for_selector("#invite", state="hidden")
        with urllib.request.urlopen(running.url + "/api/lobby", timeout=10) as lobby:
            assert json.load(lobby) == []  # the seat is taken

        # The opening roll, each player throwing their own die from their page; then the
        # one who is not to move claims the game of the other, who has left (the claim's
        # time is none on this server).
        players = {0: first, 1: second}
        state = fetch_state(running.url, match_id, 0)
        while state["phase"] == "opening":  # again after a tie
            seat = 0 if state["to_act"] is None else state["to_act"]
            players[seat].click("#board", position={"x": 20, "y": 20})
            wait_version(players[seat], state["version"] + 1)
            state = fetch_state(running.url, match_id, 0)
        absent = state["to_act"]
        claimer = players[1 - absent]
        claimer.wait_for_selector(".controls .claim:not([hidden])")
        assert {0: first, 1: second}[absent].is_hidden(".controls .claim")
        claimer.click('[data-claim="game"]')
        wait_version(claimer, state["version"] + 1)
        result = fetch_state(running.url, match_id, 0)["record"][0]["result"]
        assert result == {"winner": 1 - absent, "kind": "single", "points": 1,
                          "reason": "claim"}
        # Both pages say it: the claimer that the other had left, the absent one (had they
        # come back) that they had.
        claimer.wait_for_function(
            "() => document.querySelector('#status').textContent.includes('had left')")
        absentee = {0: first, 1: second}[absent]
        absentee.wait_for_function(
            "() => document.querySelector('#status').textContent.includes('You had left')")
    finally:
        running.stop()


def test_each_player_throws_their_own_opening_die(server: str, contexts: list[Any]) -> None:
    """RULES.md, Starting the game: each player rolls one die. The first thrown shows in its
    player's half of every board, and the game waits for the other's."""
    first, second, spectator = contexts
    created = post(server, "/api/matches", {"opponent": "online", "names": ["Ann", "Player"],
                                             "length": 3, "seed": SEED})
    match_id = created["id"]
    bob = post(server, "/api/matches/join", {"invite": created["invite"], "name": "Bob"})
    first.goto(match_url(server, match_id))
    second.goto(f"{server}/?match={match_id}#token={bob['token']}&seats=1")
    spectator.goto(f"{server}/?match={match_id}")
    for page in contexts:
        wait_version(page, 1)  # Bob's seat taken

    first.click('.controls [data-action="roll"]')
    for page in contexts:
        wait_version(page, 2)
    for page, mine in ((first, True), (second, False), (spectator, True)):
        dice = page.locator("#board .dice")
        assert (dice.get_attribute("data-dice"), dice.get_attribute("data-thrown")) == ("4", "0")
        # Ann's die in her half: the right one on her board and the spectator's (drawn from
        # seat 0's side), the left one on Bob's.
        board, face = page.locator("#board").bounding_box(), dice.locator(".die-face")
        die = face.bounding_box()
        assert board is not None and die is not None
        assert (die["x"] > board["x"] + board["width"] / 2) == mine
    assert "You rolled 4; Bob to roll their die." in first.inner_text("#status")
    assert "Ann rolled 4. Your turn: roll your die." in second.inner_text("#status")
    assert "Ann rolled 4; Bob to roll their die." in spectator.inner_text("#status")
    assert first.is_hidden('.controls [data-action="roll"]')

    # Bob throws his, a 5: the opening roll is made, and he moves first with 5-4.
    second.click('.controls [data-action="roll"]')
    for page in contexts:
        wait_version(page, 3)
    state = fetch_state(server, match_id, 1)
    assert (state["phase"], state["to_act"], state["thrown"]) == ("move", 1, None)
    assert [die["value"] for die in state["dice"]] == [5, 4]
    second.wait_for_selector("#board .is-source")
    assert first.locator("#board .dice").get_attribute("data-dice") == "5,4"
