"""Tournaments in a real browser: a player creates one with the form, another joins on its
page, which then shows the draw and the button to play their match, and the page follows the
match's end to the winner by itself, with no reload; a tournament of Plakoto made with the
form is played on Plakoto's board.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import http.cookiejar
import json
import secrets
import urllib.request
from typing import Any

from browser_support import PASSWORD, fetch_state, sign_up


class Member:
    """A player signed in through the API, with cookies of their own."""

    def __init__(self, server: str, name: str) -> None:
        self.server, self.name = server, name
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.call("POST", "/api/accounts", {"name": name, "password": PASSWORD})

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        csrf = next((cookie.value for cookie in self.jar if cookie.name == "bg_csrf"), None)
        if csrf and method != "GET":
            headers["X-CSRF-Token"] = csrf
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.server + path, data=data, headers=headers,
                                         method=method)
        with self.opener.open(request, timeout=10) as response:
            return json.load(response)


def finish(member: Member, match_id: str, tokens: dict[int, str]) -> None:
    """End a one-point match through the API: after the opening roll (each player throws
    their own die), the player not to move resigns and the mover accepts."""

    def act(seat: int, **action: Any) -> dict[str, Any]:
        state = member.call("GET", f"/api/matches/{match_id}")
        answer: dict[str, Any] = member.call(
            "POST", f"/api/matches/{match_id}/actions",
            {"seat": seat, "version": state["version"], **action}, tokens[seat])
        return answer

    state = member.call("GET", f"/api/matches/{match_id}")
    while state["phase"] == "opening":  # each throws their own die (ties: again)
        state = act(next(seat for seat in (0, 1) if "roll" in state["actions"][seat]),
                    action="roll")
    mover = state["to_act"]
    act(1 - mover, action="resign", level=1)
    assert act(mover, action="accept")["match_over"]


def running_tournament(server: str, page: Any, lang: str) -> str:
    """A round robin of two made by a player through the API, joined by the page's player
    (a new account) on its page, in ``lang``: the page is left on it, running; its id."""
    host = Member(server, "Host" + secrets.token_hex(3))
    made = host.call("POST", "/api/tournaments", {
        "name": "Cup " + host.name, "kind": "round_robin", "length": 1, "max_players": 2})
    sign_up(page, server, "Joiner" + secrets.token_hex(3))
    page.goto(f"{server}/tournaments/{made['id']}?lang={lang}")
    page.click("#join")
    page.wait_for_selector("#play-match")
    return str(made["id"])


def test_a_player_joins_and_the_page_follows_the_bracket_to_its_winner(
    server: str, page: Any
) -> None:
    host = Member(server, "Host" + secrets.token_hex(3))
    made = host.call("POST", "/api/tournaments", {
        "name": "Browser cup", "kind": "elimination", "length": 1, "max_players": 2})
    joiner = "Joiner" + secrets.token_hex(3)
    sign_up(page, server, joiner)
    page.goto(f"{server}/tournaments/{made['id']}?lang=en")
    assert page.inner_text(".tournament-status") == "Open to join"
    assert page.query_selector("#draw") is None
    page.click("#join")
    # Full with two: it starts, and the page shows the draw and the match to play.
    page.wait_for_selector("#draw")
    assert page.inner_text(".tournament-status") == "Being played"
    assert f"{host.name} – {joiner}" in page.inner_text("#draw") or (
        f"{joiner} – {host.name}" in page.inner_text("#draw"))
    match_id = page.get_attribute("#play-match", "data-match")
    # The button takes the player's seat in their match, on the game's page.
    page.click("#play-match")
    page.wait_for_url(f"**/?match={match_id}")
    page.wait_for_selector('[data-place="p24"]')
    seats = page.evaluate("JSON.parse(localStorage.getItem('backgammon.seats'))")
    assert match_id in seats and len(seats[match_id]["seats"]) == 1
    mine = seats[match_id]
    page.goto(f"{server}/tournaments/{made['id']}?lang=en")
    page.wait_for_selector("#play-match")
    # The match ends elsewhere: the page, left alone, shows the winner.
    theirs = host.call("GET", f"/api/tournaments/{made['id']}/matches/{match_id}/seat")
    finish(host, match_id, {mine["seats"][0]: mine["token"], theirs["seats"][0]: theirs["token"]})
    page.wait_for_selector("#tournament-winner")
    winner = host.call("GET", f"/api/tournaments/{made['id']}")["winner"]
    assert page.inner_text("#tournament-winner") == f"Won by {winner}"
    assert page.inner_text(".tournament-status").startswith("Finished")
    assert page.query_selector("#play-match") is None
    assert page.inner_text("#standings tbody tr:first-child td:nth-child(2)") == winner
    assert page.inner_text("#tournament-update").startswith("Finished")


def test_a_signed_in_player_creates_a_tournament_with_the_form(server: str, page: Any) -> None:
    page.goto(f"{server}/tournaments?lang=en")
    assert page.query_selector("#create-tournament") is None  # a guest: the way to sign in
    sign_up(page, server, "Maker" + secrets.token_hex(3))
    page.goto(server + "/")
    page.click("#tournaments-link")
    page.wait_for_selector("#create-tournament")
    page.fill("#create-tournament input[name=name]", "Form cup")
    page.select_option("#create-tournament select[name=kind]", "round_robin")
    page.fill("#create-tournament input[name=max_players]", "9")
    page.click("#create-tournament button[type=submit]")
    # More than a round robin takes: said on the form.
    page.wait_for_function(
        "document.querySelector('#create-tournament .refusal').textContent !== ''")
    assert "do not follow the rules" in page.inner_text("#create-tournament .refusal")
    page.fill("#create-tournament input[name=max_players]", "3")
    page.click("#create-tournament button[type=submit]")
    page.wait_for_selector("#cancel")
    assert page.inner_text("h1") == "Form cup"
    page.goto(f"{server}/tournaments?lang=en")
    assert "Form cup" in page.inner_text("#open-list")


def test_a_tournament_of_plakoto_is_made_with_the_form_and_played_on_its_board(
    server: str, page: Any
) -> None:
    maker = "Maker" + secrets.token_hex(3)
    sign_up(page, server, maker)
    page.goto(f"{server}/tournaments?lang=en")
    # The form offers the main page's games.
    offered = page.eval_on_selector_all("#create-tournament select[name=game] option",
                                        "options => options.map(o => o.value)")
    assert offered == ["backgammon", "portes", "tavla", "plakoto", "fevga", "long-nardy",
                       "acey-deucey", "tavli"]
    page.fill("#create-tournament input[name=name]", "Plakoto cup")
    page.select_option("#create-tournament select[name=game]", "plakoto")
    page.fill("#create-tournament input[name=max_players]", "2")
    page.click("#create-tournament button[type=submit]")
    page.wait_for_selector("#cancel")
    facts = page.eval_on_selector_all(".facts dt", "terms => Object.fromEntries(terms.map("
                                      "t => [t.textContent, t.nextElementSibling.textContent]))")
    assert facts["Game"] == "Plakoto"
    tournament_id = page.evaluate("location.pathname.split('/').pop()")
    made = Member(server, "Host" + secrets.token_hex(3))
    assert made.call("GET", f"/api/tournaments/{tournament_id}")["game"] == "plakoto"
    # Another player joins: it starts, and the maker's page, left alone, offers the match.
    made.call("POST", f"/api/tournaments/{tournament_id}/join")
    page.wait_for_selector("#play-match")
    match_id = page.get_attribute("#play-match", "data-match")
    page.click("#play-match")
    page.wait_for_url(f"**/?match={match_id}")
    # Plakoto's board: each side's fifteen on its starting point.
    page.wait_for_selector('#board [data-place="p24"][data-count="15"]')
    assert fetch_state(server, match_id)["game"] == "plakoto"
    page.goto(f"{server}/tournaments?lang=en")
    assert "Plakoto: Single elimination" in page.inner_text("#running-list")
