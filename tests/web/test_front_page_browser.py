"""The front page in a real browser: three choices at the top (play the computer, play a friend,
find an opponent), each showing only its own fields, the rest under "More options"; the lobby's
open and live games beside them, all in view on a 1280 x 800 screen without scrolling; a game
for a friend is left out of the lobby, an opponent's is listed, and the creator of a friend's
game who opens its link keeps their seat and waits for their friend.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import choose, more_options, open_page, open_pages, post, start

DESKTOP = {"width": 1280, "height": 800}

#: The fields each choice shows (the names of the form's controls), "More options" closed.
FIELDS = {
    # The other games (Plakoto, Fevga, ...) in every mode.
    ("computer", None): {"choice", "level", "game", "length", "colour"},
    ("friend", "online"): {"choice", "where", "player_name", "game", "length", "colour"},
    ("friend", "screen"): {"choice", "where", "game", "length"},
    ("lobby", None): {"choice", "player_name", "game", "length", "colour"},
}
#: What "More options" holds, for every choice.
MORE = {"variant", "home_side", "cube", "auto_forced", "crawford", "jacoby", "beavers",
        "automatic_doubles", "position"}
#: What "More options" adds: for a game between people elsewhere a clock (its custom fields
#: only once "custom" is chosen), and for a friend's online game only a practice match (a
#: stranger's game in the lobby stays strict); against the computer and at one screen, the
#: tutor.
MORE_FOR = {("friend", "online"): {"practice", "clock"}, ("lobby", None): {"clock"},
            ("computer", None): {"tutor"}, ("friend", "screen"): {"tutor"}}
#: The start button's words in each.
START = {
    ("computer", None): "Start",
    ("friend", "online"): "Create the invitation link",
    ("friend", "screen"): "Start",
    ("lobby", None): "Offer the game in the lobby",
}


@pytest.fixture
def pages(browser: Any) -> Iterator[list[Any]]:
    """Three pages (a friend's game's creator, an opponent's, and someone looking), each its
    own browser, none with a script error."""
    yield from open_pages(browser, 3)


@pytest.fixture
def desktop(browser: Any) -> Iterator[Any]:
    yield from open_page(browser, viewport=DESKTOP)


def shown_fields(page: Any) -> set[str]:
    """The names of the form's controls that are shown (none in a closed <details>, which
    Chromium hides by content-visibility: checkVisibility sees that, a box's size does not)."""
    names: list[str] = page.eval_on_selector(
        "#setup-form",
        "form => [...form.elements].filter(e => e.name && e.checkVisibility()).map(e => e.name)",
    )
    return set(names)


def in_view(page: Any, selector: str) -> bool:
    """Whether the first element ``selector`` names lies wholly within the window as it is."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return bool(box["y"] >= 0 and box["y"] + box["height"] <= DESKTOP["height"]
                and box["x"] >= 0 and box["x"] + box["width"] <= DESKTOP["width"])


def fetch(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def test_the_choices_and_the_lobby_are_in_view_without_scrolling(
    server: str, desktop: Any
) -> None:
    post(server, "/api/matches", {"opponent": "online", "lobby": True, "names": ["Opal", "B"]})
    live = post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Lark", "B"], "length": 3})
    post(server, "/api/matches/join", {"invite": live["invite"], "name": "Wren"})
    desktop.goto(server + "/")
    desktop.locator("#lobby-list li", has_text="Opal").wait_for()
    desktop.locator("#live-list li", has_text="Lark").wait_for()
    assert desktop.evaluate("scrollY") == 0
    for choice in ("computer", "friend", "lobby"):
        assert in_view(desktop, f'label.choice:has(input[value="{choice}"])'), choice
    titles = [desktop.inner_text(f"#choice-{choice}") for choice in ("computer", "friend", "lobby")]
    assert titles == ["Play the computer", "Play a friend", "Find an opponent"]
    for selector in ("#lobby-heading", "#lobby-list li", "#live-heading", "#live-list li",
                     "#setup-start"):
        assert in_view(desktop, selector), selector


def test_each_choice_shows_its_own_fields_and_more_options_the_rest(
    server: str, desktop: Any
) -> None:
    desktop.goto(server + "/")
    desktop.wait_for_selector("#setup-start")
    assert desktop.is_checked('input[name="choice"][value="computer"]')  # the default
    for (choice, where), fields in FIELDS.items():
        choose(desktop, choice, where)
        assert shown_fields(desktop) == fields, (choice, where)
        assert desktop.inner_text("#setup-start") == START[choice, where]
    assert desktop.get_attribute("#setup-form .more-options", "open") is None
    more_options(desktop)
    for (choice, where), fields in FIELDS.items():
        choose(desktop, choice, where)
        wanted = fields | MORE | MORE_FOR.get((choice, where), set())
        assert shown_fields(desktop) == wanted, (choice, where)


def test_a_friends_game_is_unlisted_and_an_opponents_game_is_listed(
    server: str, pages: list[Any]
) -> None:
    friend, opponent, seen = pages
    # A game for a friend: its creator waits for their friend, even after opening the link.
    friend.goto(server + "/")
    choose(friend, "friend", "online")
    friend.fill('input[name="player_name"]', "Fern")
    start(friend)
    friend.wait_for_selector("#invite:not([hidden])")
    match_id = friend.evaluate("new URLSearchParams(location.search).get('match')")
    assert "Waiting for your friend" in friend.inner_text("#status")
    friend.goto(friend.input_value("#invite-link"))
    friend.wait_for_function("id => location.search === `?match=${id}`", arg=match_id)
    friend.wait_for_selector("#invite:not([hidden])")
    assert "Waiting for your friend" in friend.inner_text("#status")
    assert fetch(server, f"/api/matches/{match_id}")["waiting_for_opponent"]

    # A game for whoever finds it: listed in the lobby, with a clock.
    opponent.goto(server + "/")
    choose(opponent, "lobby")
    opponent.fill('input[name="player_name"]', "Lobo")
    more_options(opponent)
    opponent.select_option('select[name="clock"]', "fast")
    start(opponent)
    opponent.wait_for_selector("#invite:not([hidden])")
    assert "Waiting for an opponent" in opponent.inner_text("#status")

    # Another page's lobby lists the opponent's game, and not the friend's.
    seen.goto(server + "/")
    seen.locator("#lobby-list li", has_text="Lobo").wait_for()
    assert "Fern" not in seen.inner_text("#lobby-list")
    assert "Clock: 8 s a move, then 20 s a point" in seen.inner_text("#lobby-list")
    creators = [entry["creator"] for entry in fetch(server, "/api/lobby")]
    assert "Lobo" in creators and "Fern" not in creators
