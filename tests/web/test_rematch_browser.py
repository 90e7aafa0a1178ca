"""A rematch in the browser: two people online end a 1-point match; one offers a rematch and
the other declines it, then the other offers and the first accepts, and both pages move to
the new match, where each plays its own (changed) seat; against the computer, "Rematch"
starts the new match at once. What changes is said in the live region.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    fetch_state,
    listen,
    match_url,
    open_pages,
    post,
    screenshot,
    throw_opening,
    wait_version,
)

SEED = 11  # seat 1 wins the opening roll, 5 against 4


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Two browser contexts, one a player, each a page with no page errors."""
    yield from open_pages(browser, 2)


def send(server: str, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    """POST ``body`` to ``path`` with a seat's ``token``: the answer."""
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.load(response)
    return answer


def ended_online(server: str) -> tuple[str, dict[int, str]]:
    """A 1-point online match between two seats, ended by a resignation: its id, and each
    seat's token."""
    created = post(server, "/api/matches", {"opponent": "online", "length": 1, "seed": SEED,
                                            "names": ["Ann", "Bob"]})
    match_id = created["id"]
    joined = post(server, "/api/matches/join", {"invite": created["invite"]})
    tokens = {0: created["token"], 1: joined["token"]}
    actions = f"/api/matches/{match_id}/actions"
    state = throw_opening(server, match_id, tokens)
    mover = state["to_act"]
    state = send(server, actions, {"seat": mover, "action": "resign", "level": 1,
                                   "version": state["version"]}, tokens[mover])
    send(server, actions, {"seat": 1 - mover, "action": "accept", "version": state["version"]},
         tokens[1 - mover])
    return match_id, tokens


def moved_on(page: Any, match_id: str) -> str:
    """Wait until ``page`` has left match ``match_id`` for another: that one's id."""
    page.wait_for_function("id => !location.search.endsWith(`=${id}`)", arg=match_id)
    search: str = page.evaluate("location.search")
    return search.removeprefix("?match=")


def heard(page: Any, text: str) -> None:
    """Wait until the live region has said ``text``."""
    page.wait_for_function("text => window.heard.includes(text)", arg=text)


def test_two_players_decline_then_accept_a_rematch_and_play_it(
    server: str, contexts: list[Any]
) -> None:
    match_id, tokens = ended_online(server)
    pages = {0: contexts[0], 1: contexts[1]}
    for seat, page in pages.items():
        page.goto(f"{server}/?match={match_id}#token={tokens[seat]}&seats={seat}")
        page.wait_for_selector("#game-end:not([hidden]) #rematch-offer:visible")
        listen(page)
    ann, bob = pages[0], pages[1]

    # Ann offers; Bob is asked, and declines; Ann hears it, and may offer again.
    ann.click("#rematch-offer")
    ann.wait_for_selector("#rematch-text:has-text(\"Waiting for your opponent's answer.\")")
    assert ann.is_hidden("#rematch-offer") and ann.is_hidden("#rematch-accept")
    bob.wait_for_selector("#rematch-accept:visible")
    assert bob.inner_text("#rematch-text") == "Your opponent offers a rematch."
    heard(bob, "Your opponent offers a rematch.")
    assert bob.is_hidden("#rematch-offer") and bob.is_visible("#rematch-decline")
    screenshot(bob, "rematch-offered.png")
    bob.click("#rematch-decline")
    heard(ann, "Your opponent declined the rematch.")
    ann.wait_for_selector("#rematch-offer:visible")
    bob.wait_for_selector("#rematch-offer:visible")
    assert fetch_state(server, match_id)["rematch"] is None

    # Bob offers this time, and Ann accepts: both pages move to the new match.
    bob.click("#rematch-offer")
    ann.wait_for_selector("#rematch-accept:visible")
    ann.click("#rematch-accept")
    rematch_id = moved_on(ann, match_id)
    for page in (ann, bob):
        page.wait_for_function("id => location.search === `?match=${id}`", arg=rematch_id)
        page.wait_for_selector("#game-end", state="hidden")
        heard(page, "The rematch has started.")
    rematch = fetch_state(server, rematch_id)
    assert rematch["rematch_of"] == match_id and rematch["version"] == 0
    # The players have changed seats: Bob has seat 0 and Ann seat 1, each "You" at the
    # bottom of their own board, the other named at the top.
    assert [seat["name"] for seat in rematch["seats"]] == ["Bob", "Ann"]
    for page, other in ((ann, "Bob"), (bob, "Ann")):
        assert page.inner_text('.player[data-side="bottom"] .name') == "You"
        assert page.inner_text('.player[data-side="top"] .name') == other

    # Each throws their opening die from their own page; the one who won it moves.
    ann.click('.controls [data-action="roll"]')
    for page in (ann, bob):
        wait_version(page, 1)
    bob.click('.controls [data-action="roll"]')
    for page in (ann, bob):
        wait_version(page, 2)
    state = fetch_state(server, rematch_id)
    mover = state["to_act"]
    page = bob if mover == 0 else ann
    page.wait_for_selector("#board .is-source")
    page.click("#board .is-source")
    target = page.locator("#board .is-target")
    if target.count():
        target.first.click()
    for each in (ann, bob):
        wait_version(each, 2)
    assert fetch_state(server, rematch_id)["version"] >= 2
    screenshot(ann, "rematch-started.png")


def test_against_the_computer_rematch_starts_the_new_match_at_once(
    server: str, contexts: list[Any]
) -> None:
    created = post(server, "/api/matches", {"opponent": "computer", "length": 1, "seed": SEED})
    match_id = created["id"]
    token = created["token"]
    actions = f"/api/matches/{match_id}/actions"
    state = send(server, actions, {"seat": 0, "action": "roll", "version": 0}, token)
    page = contexts[0]
    page.goto(match_url(server, match_id))
    # The computer, which won the opening roll, plays; then the person resigns.
    page.wait_for_selector('.controls [data-action="roll"]:visible')
    state = fetch_state(server, match_id)
    send(server, actions, {"seat": 0, "action": "resign", "level": 1,
                           "version": state["version"]}, token)
    page.wait_for_selector("#rematch-offer:visible")
    listen(page)
    page.click("#rematch-offer")
    rematch_id = moved_on(page, match_id)
    assert fetch_state(server, match_id)["rematch"]["id"] == rematch_id
    heard(page, "The rematch has started.")
    page.wait_for_selector('.controls [data-action="roll"]:visible')
    assert fetch_state(server, rematch_id)["seats"][1]["kind"] == "computer"
