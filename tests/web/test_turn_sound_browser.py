"""The sound when the turn comes in an online game: off unless the player turns it
on, the choice kept in the browser, and played (js/sound.js: the page tells the document
"backgammon:turn-sound") each time the game comes to wait for this page's player."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from browser_support import (
    SEED,
    TOKENS,
    act_with,
    fetch_state,
    match_url,
    post,
    wait_version,
)

COUNT_SOUNDS = """() => {
  window.sounds = 0;
  document.addEventListener('backgammon:turn-sound', () => { window.sounds += 1; });
}"""


def play_turn(server: str, match_id: str, seat: int, token: str) -> dict[str, Any]:
    """Seat ``seat`` rolls (unless its dice are there), plays its first steps and confirms,
    through the API with its token; returns the state after."""

    def act(action: dict[str, Any]) -> None:
        version = fetch_state(server, match_id, seat)["version"]
        request = urllib.request.Request(
            f"{server}/api/matches/{match_id}/actions",
            data=json.dumps({**action, "seat": seat, "version": version}).encode(),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
        )
        with urllib.request.urlopen(request, timeout=10):
            pass

    state = fetch_state(server, match_id, seat)
    if "roll" in state["actions"][seat]:
        act({"action": "roll"})
    for _ in range(8):
        state = fetch_state(server, match_id, seat)
        if "confirm" in state["actions"][seat]:
            act({"action": "confirm"})
        elif "step" in state["actions"][seat]:
            step = state["steps"][0]
            act({"action": "step", "from": step["from"], "to": step["to"]})
        else:
            break
    return fetch_state(server, match_id, seat)


def test_the_turn_sound_is_off_until_asked_for_and_kept(server: str, page: Any) -> None:
    created = post(server, "/api/matches", {"opponent": "online", "names": ["Ann", "Player"],
                                            "length": 3, "seed": SEED})
    match_id = created["id"]
    bob = post(server, "/api/matches/join", {"invite": created["invite"], "name": "Bob"})
    ann = TOKENS[match_id][0]
    page.goto(match_url(server, match_id))
    wait_version(page, 1)  # Bob's seat taken
    page.evaluate(COUNT_SOUNDS)
    assert not page.is_checked("#turn-sound")  # off by default

    # Each throws their opening die; Bob wins the opening roll (5-4) and plays it: Ann's
    # turn comes, and no sound (off).
    act_with(server, match_id, ann, {"seat": 0, "action": "roll"})
    state = play_turn(server, match_id, 1, bob["token"])
    assert state["to_act"] == 0
    wait_version(page, state["version"])
    assert page.title().startswith("Your turn")
    assert page.evaluate("window.sounds") == 0

    # Turned on: kept across a reload.
    page.check("#turn-sound")
    page.reload()
    page.wait_for_selector('[data-place="p24"]')
    assert page.is_checked("#turn-sound")
    assert page.evaluate("localStorage.getItem('backgammon.turnSound')") == "on"
    page.evaluate(COUNT_SOUNDS)

    # Ann plays (no sound for her own steps); Bob plays; her turn comes again: one sound.
    state = play_turn(server, match_id, 0, ann)
    wait_version(page, state["version"])
    assert page.evaluate("window.sounds") == 0
    state = play_turn(server, match_id, 1, bob["token"])
    assert state["to_act"] == 0
    wait_version(page, state["version"])
    assert page.evaluate("window.sounds") == 1

    # Turned off again: Ann's next turn comes in silence.
    page.uncheck("#turn-sound")
    state = play_turn(server, match_id, 0, ann)
    wait_version(page, state["version"])
    state = play_turn(server, match_id, 1, bob["token"])
    wait_version(page, state["version"])
    assert page.evaluate("window.sounds") == 1
    assert page.evaluate("localStorage.getItem('backgammon.turnSound')") == "off"
