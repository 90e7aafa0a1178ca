"""The lobby in a browser: each open game says who made it (with a signed-in creator's rating),
what is played (the length, the rules that differ from the plain game) and whether it is
rated; the games being played are listed with their players, ratings and score, and a Watch
link opens one read-only. Each Join button and Watch link is described by its game's text,
and the lists are drawn again in a language chosen later. The lists read themselves again
while the lobby is shown in a tab that is seen, keeping the lines that stay (and focus on
them), and say politely what changed.
"""

from __future__ import annotations

import http.cookiejar
import json
import urllib.request
from typing import Any

from browser_support import post, screenshot, wait_version

SEED = 11  # seat 1 wins the opening roll, 5 against 4


def signed_in_match(base: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
    """A new account ``name``, signed in, creates a match with ``body``."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def send(path: str, data: dict[str, Any], headers: dict[str, str]) -> dict[str, Any]:
        request = urllib.request.Request(base + path, data=json.dumps(data).encode(),
                                         headers={"Content-Type": "application/json", **headers})
        with opener.open(request, timeout=10) as response:
            answer: dict[str, Any] = json.load(response)
        return answer

    csrf = send("/api/accounts", {"name": name, "password": "correct horse battery"}, {})["csrf"]
    return send("/api/matches", body, {"X-CSRF-Token": csrf})


def fetch_json(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def described(page: Any, control: Any) -> str:
    """The text of what describes ``control`` (its aria-describedby)."""
    return str(page.locator(f"#{control.get_attribute('aria-describedby')}").inner_text())


def test_the_lobby_shows_each_games_details_and_a_live_game_to_watch(
    server: str, page: Any
) -> None:
    rated = signed_in_match(server, "Alice", {
        "opponent": "online", "lobby": True, "length": 5, "rated": True, "seed": SEED})
    post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Ann", "Player"], "jacoby": True,
        "beavers": True, "automatic_doubles": 2, "seed": SEED})
    post(server, "/api/matches", {"opponent": "online", "lobby": False, "seed": SEED})  # a friend's
    watched = post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Cat", "Player"], "length": 3,
        "crawford": False, "seed": SEED})
    post(server, "/api/matches/join", {"invite": watched["invite"], "name": "Dan"})

    page.goto(server + "/")
    joins = page.get_by_role("button", name="Join")
    joins.nth(1).wait_for()
    assert joins.count() == 2
    assert sorted(described(page, joins.nth(i)) for i in range(2)) == [
        "Alice (rating 1500.00): Match to 5; Crawford rule; Rated",
        "Ann (guest): Money game; Jacoby rule; Beavers; Automatic doubles, at most 2; Unrated",
    ]
    watch = page.get_by_role("link", name="Watch")
    assert watch.count() == 1
    assert described(page, watch) == (
        "Cat (guest) against Dan (guest): Score 0–0; Match to 3; Unrated")
    assert rated["invite"] not in page.inner_text("#lobby")  # it is in the button's handler
    screenshot(page, "lobby.png")

    # In another language, the lists say the same in its words.
    page.select_option("#language", "vi")
    page.wait_for_function(
        "() => document.querySelector('#live-list').textContent.includes('đấu với')")
    assert "Tính xếp hạng" in page.inner_text("#lobby-list")
    page.select_option("#language", "en")
    page.get_by_role("link", name="Watch").wait_for()

    # Watch: the game opens read-only, and follows the players' actions.
    page.get_by_role("link", name="Watch").click()
    page.wait_for_function("id => location.search === `?match=${id}`", arg=watched["id"])
    page.wait_for_selector("#watching:not([hidden])")
    wait_version(page, 1)  # the seat taken
    assert page.locator(".controls button:visible").count() == 0
    post(server, f"/api/matches/{watched['id']}/actions",
         {"seat": 0, "action": "roll", "version": 1})  # the opening roll, by Cat's token
    wait_version(page, 2)
    assert page.is_visible("#watching")


#: What a page runs to make its tab seem hidden, or seen again (Playwright's tab is always seen).
TAB_SEEN = """seen => {
  if (seen) delete document.visibilityState;  // the document's own again
  else Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => "hidden",
  });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_lobby_reads_itself_again_keeping_focus_while_shown(server: str, page: Any) -> None:
    eve = post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Eve", "Player"], "seed": SEED})
    page.goto(server + "/")
    eves = page.locator("#lobby-list li", has_text="Eve (guest)")
    eves.wait_for()
    page.wait_for_selector('#lobby[data-refresh="on"]')
    # The page's hook for the interval (ten seconds otherwise), taken at once.
    page.eval_on_selector("#lobby", "lobby => { lobby.dataset.refreshSeconds = '0.2'; }")
    eves.get_by_role("button", name="Join").focus()
    page.evaluate("""() => {
        window.focused = document.activeElement;
        window.lines = [...document.querySelectorAll('#lobby-list li, #live-list li')];
    }""")

    # A game made elsewhere comes by itself; the lines there were stay, focus with them.
    post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Fay", "Player"], "seed": SEED})
    fays = page.locator("#lobby-list li", has_text="Fay (guest)")
    fays.wait_for()
    assert page.evaluate("() => document.activeElement === window.focused")
    assert page.evaluate("() => window.lines.every(line => line.isConnected)")
    assert page.inner_text("#lobby-update").startswith("The lists have changed. Open games: ")

    # Eve's game taken elsewhere: its line goes, the game is listed to watch, and focus goes
    # to the Join button now in its place.
    post(server, "/api/matches/join", {"invite": eve["invite"], "name": "Gus"})
    page.locator("#live-list li", has_text="Eve (guest) against Gus (guest)").wait_for()
    assert eves.count() == 0
    assert page.evaluate("""() => document.activeElement.matches('#lobby-list button')
        && document.activeElement !== window.focused""")

    # The games being played come latest acted in first, but a line does not move once shown:
    # Hal's game, taken after Eve's, comes above it and stays there after Eve's first roll.
    hal = post(server, "/api/matches", {
        "opponent": "online", "lobby": True, "names": ["Hal", "Player"], "seed": SEED,
        "clock": "fast"})
    post(server, "/api/matches/join", {"invite": hal["invite"], "name": "Ivy"})
    page.locator("#live-list li", has_text="Hal (guest)").wait_for()
    # A spectator sees the time control of a game being played, as the lobby showed it.
    assert "8 s a move" in page.locator("#live-list li", has_text="Hal (guest)").inner_text()
    post(server, f"/api/matches/{eve['id']}/actions", {"seat": 0, "action": "roll", "version": 1})
    order = [entry["players"][0]["name"] for entry in fetch_json(server, "/api/matches/live")]
    assert order.index("Eve") < order.index("Hal")
    for _ in range(2):  # the second read began after the roll: reads do not overlap
        with page.expect_response(lambda response: "/api/matches/live" in response.url):
            pass
    shown = page.locator("#live-list li").all_inner_texts()
    assert [line.split()[0] for line in shown if line.split()[0] in ("Eve", "Hal")] == [
        "Hal", "Eve"]

    # Not while the tab is hidden, nor while a game is shown; again once the lobby is seen.
    page.evaluate(TAB_SEEN, False)
    page.wait_for_selector('#lobby[data-refresh="off"]')
    page.evaluate(TAB_SEEN, True)
    page.wait_for_selector('#lobby[data-refresh="on"]')
    fays.get_by_role("button", name="Join").click()
    page.wait_for_selector("#play:not([hidden])")
    page.wait_for_selector('#lobby[data-refresh="off"]', state="attached")
    page.click("#new-game")
    page.wait_for_selector('#lobby[data-refresh="on"]')
