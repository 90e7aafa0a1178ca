"""Provably fair dice in a real browser: the derivation in JavaScript (WebCrypto) gives the
Python derivation's rolls; the game's panel shows the commitment and takes a player's seed
before the first roll; /verify.html checks a finished match's rolls and names the roll of a
tampered record.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it). The page's texts are checked against the catalogue without a browser.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from browser_support import MarkupTexts, catalogue, fetch_state, match_url, post, screenshot

from backgammon.fairdice import derive_roll
from backgammon.server.pages.templates import own_page


def test_the_verify_page_holds_no_text_and_names_only_known_messages() -> None:
    parser = MarkupTexts()
    parser.feed(own_page("verify.html"))
    assert parser.texts == []
    assert parser.keys and set(parser.keys) <= set(catalogue())


def record_of(base: str, match_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{base}/api/matches/{match_id}/record", timeout=10) as answer:
        data: dict[str, Any] = json.load(answer)
    return data


def act(base: str, match_id: str, **action: Any) -> dict[str, Any]:
    version = fetch_state(base, match_id)["version"]
    return post(base, f"/api/matches/{match_id}/actions", {**action, "version": version})


def finish_game(base: str, match_id: str) -> None:
    """Roll the opening roll (and any ties), then resign the game."""
    state = act(base, match_id, seat=0, action="roll")
    while state["phase"] == "opening":
        state = act(base, match_id, seat=0, action="roll")
    seat = state["on_roll"]
    act(base, match_id, seat=seat, action="resign", level=1)
    act(base, match_id, seat=1 - seat, action="accept")


def test_the_javascript_derivation_is_the_pythons(
    server: str, page: Any
) -> None:
    page.goto(f"{server}/verify.html")
    key, seeds = bytes(range(32)), ("alice", "bob")
    rolls = page.evaluate(
        """async ([seed, seeds]) => {
            const fair = await import("/js/fairdice.js");
            const key = await fair.keyOf(seed);
            const rolls = [];
            for (let n = 1; n <= 200; n += 1) rolls.push(await fair.rollOf(key, seeds, n));
            return [await fair.commitmentOf(seed), rolls];
        }""",
        [key.hex(), list(seeds)],
    )
    assert rolls[0] == "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
    assert [tuple(roll) for roll in rolls[1]] == [derive_roll(key, seeds, n) for n in range(1, 201)]


def test_the_panel_takes_a_seed_and_links_to_the_check(
    server: str, page: Any
) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "length": 1})["id"]
    commitment = fetch_state(server, match_id)["fair_dice"]["commitment"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector("#fair-dice:not([hidden])")
    assert page.input_value("#fair-commitment") == commitment
    assert page.is_hidden("#fair-verify")
    page.fill('#fair-seed-form [name="seed0"]', "my-own.seed_7")
    page.click('#fair-seed-form button[type="submit"]')
    page.wait_for_function(
        "id => fetch(`/api/matches/${id}`).then(r => r.json())"
        ".then(s => s.fair_dice.seeds[0] === 'my-own.seed_7')",
        arg=match_id,
    )
    finish_game(server, match_id)
    page.reload()
    page.wait_for_selector("#fair-verify:not([hidden])")
    assert page.is_hidden("#fair-seed-form")
    screenshot(page, "fair-dice-panel.png")
    page.click("#fair-verify")
    page.wait_for_selector('#verify-verdict[data-ok="true"]')
    assert page.text_content("#verify-verdict") == catalogue()["verify.allMatch"]
    assert record_of(server, match_id)["dice"][0]["seeds"] == ["my-own.seed_7", ""]


def test_the_check_names_a_tampered_roll(
    server: str, page: Any
) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "length": 3})["id"]
    finish_game(server, match_id)
    record = record_of(server, match_id)
    roll = next(event for event in record["games"][0] if event["action"] == "roll")
    derived = list(roll["dice"])
    roll["dice"] = [7 - derived[0], derived[1]]
    page.goto(f"{server}/verify.html")
    page.fill("#verify-record", json.dumps(record))
    page.click('#verify-form button[type="submit"]')
    page.wait_for_selector('#verify-verdict[data-ok="false"]')
    games = page.locator("#verify-games li").all_text_contents()
    recorded = f"{7 - derived[0]}-{derived[1]}"
    assert games[0] == (
        f"Game 1: roll 1 differs: recorded {recorded}, derived {derived[0]}-{derived[1]}."
    )
    assert games[1] == "Game 2: not over yet, so its seed is not revealed."
    screenshot(page, "verify-tampered.png")


def test_the_check_names_a_replaced_player_seed(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "length": 1})["id"]
    post(server, f"/api/matches/{match_id}/seed", {"seat": 1, "seed": "given-by-me"})
    finish_game(server, match_id)
    record = record_of(server, match_id)
    assert any(event["action"] == "seed" for event in record["games"][0])
    record["dice"][0]["seeds"] = ["", "someone-elses"]
    page.goto(f"{server}/verify.html")
    page.fill("#verify-record", json.dumps(record))
    page.click('#verify-form button[type="submit"]')
    page.wait_for_selector('#verify-verdict[data-ok="false"]')
    assert page.locator("#verify-games li").all_text_contents() == [
        catalogue()["verify.gameSeedReplaced"].replace("{number}", "1")
    ]


def test_the_way_back_leads_to_the_match_checked(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "human", "length": 1})["id"]
    finish_game(server, match_id)
    page.goto(f"{server}/verify.html")
    page.fill("#verify-match", match_id)
    page.click('#verify-form button[type="submit"]')
    page.wait_for_selector('#verify-verdict[data-ok="true"]')
    assert page.get_attribute("#verify-back", "href") == f"/?match={match_id}"


def test_the_check_says_what_it_cannot_read(
    server: str, page: Any
) -> None:
    page.goto(f"{server}/verify.html?match=no-such-match")
    page.wait_for_function("document.querySelector('#verify-verdict').textContent !== ''")
    assert page.text_content("#verify-verdict") == catalogue()["verify.notFound"]
    page.fill("#verify-match", "")
    page.fill("#verify-record", '{"games": 3}')
    page.click('#verify-form button[type="submit"]')
    page.wait_for_function(
        "text => document.querySelector('#verify-verdict').textContent === text",
        arg=catalogue()["verify.notRecord"],
    )
