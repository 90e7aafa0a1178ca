"""Hints in the other games in the browser: at one screen in Acey-deucey, the hint panel
ranks the plays of the roll with their equities in points (no chances) and their reasons,
as the API answers, and after the 1-2 the six doubles to name, each by its best play.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it).
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from browser_support import (
    TOKENS,
    act_with,
    fetch_state,
    match_url,
    post,
    request_for,
    wait_version,
)

#: Seeded dice under which seat 0 wins Acey-deucey's opening and then rolls a 1-2.
ACEY_DEUCEY_SEED = 62


def fetch_hint(base: str, match_id: str) -> dict[str, Any]:
    address = request_for(base, f"/api/matches/{match_id}/hint?view=0&lang=en")
    with urllib.request.urlopen(address, timeout=60) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def test_the_hint_panel_ranks_an_acey_deucey_roll_and_the_doubles(
    server: str, page: Any
) -> None:
    options = {"opponent": "human", "game": "acey-deucey", "seed": ACEY_DEUCEY_SEED}
    match_id = post(server, "/api/matches", options)["id"]
    token = TOKENS[match_id][0]
    state = fetch_state(server, match_id)
    while state["phase"] == "opening":
        state = act_with(server, match_id, token, {"seat": 0, "action": "roll"})
    state = act_with(server, match_id, token, {"seat": 0, "action": "roll"})
    assert state["phase"] == "move" and sorted(d["value"] for d in state["dice"]) == [1, 2]
    page.goto(match_url(server, match_id))
    wait_version(page, state["version"])
    page.click("#hint-button")
    page.wait_for_selector("#hint-body .hint-play")
    expected = fetch_hint(server, match_id)
    rows = page.locator("#hint-body .hint-play")
    assert rows.count() == len(expected["plays"]) >= 2
    assert [rows.nth(i).locator(".hint-notation").inner_text() for i in range(rows.count())] \
        == [play["play"] for play in expected["plays"]]
    assert page.inner_text("#hint-body .hint-play .hint-chances") == ""
    assert page.inner_text("#hint-body .hint-unit").endswith("can expect from the game.")
    shown = [item.inner_text() for item in page.query_selector_all("#hint-body .hint-reasons li")]
    assert shown == expected["plays"][0]["reasons"] and shown
    # The best play made, the page asks for a double: the hint ranks the six.
    best = expected["plays"][0]["play"]
    state = act_with(server, match_id, token, {"seat": 0, "action": "play", "play": best})
    if state["phase"] == "confirm":
        state = act_with(server, match_id, token, {"seat": 0, "action": "confirm"})
    assert state["phase"] == "name"
    wait_version(page, state["version"])
    page.wait_for_selector("#hint", state="hidden")  # the move's hint went with its turn
    page.click("#hint-button")
    page.wait_for_selector("#hint-body .hint-equities dt")
    doubles = fetch_hint(server, match_id)["doubles"]
    terms = page.locator("#hint-body .hint-equities dt")
    assert terms.count() == 6
    first = doubles[0]
    assert terms.nth(0).inner_text().startswith(f"{first['die']}–{first['die']}: ")
    assert "is-best" in (terms.nth(0).get_attribute("class") or "")
    assert page.inner_text("#hint-note") == (
        "The doubles to name, the best first, each by its best play.")
