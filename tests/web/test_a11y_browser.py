"""Accessibility in a real browser: the axe-core audit of every page in every language, and a
game played by the keyboard alone, heard through the page's live region.

axe-core comes from npm (``tests/web/package.json``, pinned by its lock file; ``make test``
runs ``npm ci --prefix tests/web``); without it the audits are skipped and say how to install
it. The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium;
skipped without it).
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    WEB,
    choose,
    fetch_state,
    listen,
    match_url,
    more_options,
    place,
    post,
    settled,
    sign_up,
    version,
    wait_version,
)
from test_board_analysis_browser import a_finished_board_match, open_board_analysis
from test_tournament_browser import running_tournament

from backgammon.server.pages.help import HELP, LANGUAGES, TOPICS

AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
#: The impacts that fail the audit; "moderate" and "minor" are axe's advice.
FAILING = ("serious", "critical")
SEED = 5  # the person (seat 0) against the computer: the person wins the opening roll, 5-3


@pytest.fixture(scope="module")
def axe() -> str:
    if not AXE.exists():
        pytest.skip(
            "axe-core is not installed: run `npm ci --prefix tests/web` (make test does)"
        )
    return AXE.read_text(encoding="utf-8")


def audit(page: Any, axe: str) -> list[str]:
    """The serious and critical violations axe-core finds in the page as it is now, each as
    "rule: what is wrong (the elements)"."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    results = page.evaluate(
        "() => axe.run(document, {resultTypes: ['violations']})"
    )
    return [
        f"{violation['id']}: {violation['help']} "
        f"({', '.join(str(node['target']) for node in violation['nodes'][:5])})"
        for violation in results["violations"]
        if violation["impact"] in FAILING
    ]


def in_language(page: Any, lang: str) -> None:
    """Switch the game page to ``lang`` by its menu, and wait until it speaks it."""
    if lang != "en":
        page.select_option("#language", lang)
    page.wait_for_function(f"document.documentElement.lang === '{lang}'")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_front_page_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    page.goto(server + "/")
    page.wait_for_selector("#setup-form button[type=submit]")
    in_language(page, lang)
    assert audit(page, axe) == []
    # Each choice's own fields, with "More options" open (axe audits only what is shown).
    more_options(page)
    for choice, where in (("friend", "online"), ("friend", "screen"), ("lobby", None)):
        choose(page, choice, where)
        assert audit(page, axe) == [], (choice, where)


def test_the_front_page_offering_a_rated_match_passes_the_audit(
    server: str, page: Any, axe: str
) -> None:
    page.goto(server + "/account")
    page.fill("#sign-up input[name=name]", "Audited" + secrets.token_hex(3))
    page.fill("#sign-up input[name=password]", "a long pass phrase")
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#sign-out")
    page.goto(server + "/")
    choose(page, "lobby")
    page.fill('input[name="length"]', "3")
    page.check('input[name="rated"]')  # enabled: a signed-in player's online match
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_with_open_and_live_games_passes_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    post(server, "/api/matches",
         {"opponent": "online", "lobby": True, "jacoby": True, "clock": "fast"})
    live = post(server, "/api/matches", {"opponent": "online", "lobby": True, "length": 3})
    post(server, "/api/matches/join", {"invite": live["invite"]})
    page.goto(server + "/")
    page.wait_for_selector("#lobby-list button")
    page.wait_for_selector("#live-list a")
    in_language(page, lang)
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_game_page_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "advanced", "seed": SEED}
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    in_language(page, lang)
    assert audit(page, axe) == []
    # The person's turn, a checker picked up and its points lit, the hint's panel open.
    page.click("#board", position={"x": 20, "y": 20})
    page.wait_for_selector("#board .place.is-source")
    page.click('[data-place="p13"]')
    page.wait_for_selector("#board .landing")
    page.click("#hint-button")
    page.wait_for_selector(".hint-play")
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_another_games_board_and_its_named_double_pass_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    """Acey-deucey after a 1-2: the checkers waiting to enter, each side's way round, the
    six buttons that name the double (tests/web/test_games_browser.py's seed), and the
    hint's panel ranking the doubles."""
    options = {"opponent": "computer", "game": "acey-deucey", "seed": 62}
    match_id = post(server, "/api/matches", options)["id"]
    state = fetch_state(server, match_id, 0)
    while state["phase"] != "name":
        actions = state["actions"][0]
        action: dict[str, Any] = {"action": "roll"}
        if "confirm" in actions:
            action = {"action": "confirm"}
        elif "step" in actions:
            step = state["steps"][0]
            action = {"action": "step", "from": step["from"], "to": step["to"]}
        state = post(server, f"/api/matches/{match_id}/actions",
                     {**action, "seat": 0, "version": state["version"]})
    page.goto(match_url(server, match_id))
    page.wait_for_selector(".controls .name-double:not([hidden])")
    in_language(page, lang)
    page.click("#hint-button")
    page.wait_for_selector("#hint-body .hint-equities dt")
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_another_games_analysis_passes_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    """The analysis of a match of Plakoto: each player's totals and the marked decisions
    (tests/web/test_board_analysis_browser.py's match)."""
    match_id = a_finished_board_match(server)
    open_board_analysis(server, page, match_id)
    in_language(page, lang)
    page.wait_for_selector("#analysis-games-marked tbody tr")
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_practice_match_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    created = post(server, "/api/matches", {"opponent": "online", "practice": True})
    # The invitation, saying what joining agrees to.
    page.goto(f"{server}/join/{created['invite']}")
    page.wait_for_selector("#join-practice:not([hidden])")
    in_language(page, lang)
    assert audit(page, axe) == []
    # The creator's board, once the friend has come, with its notice.
    post(server, "/api/matches/join", {"invite": created["invite"]})
    page.goto(match_url(server, created["id"]))
    page.wait_for_selector("#practice-note:not([hidden])")
    in_language(page, lang)
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_match_with_a_clock_passes_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    created = post(server, "/api/matches", {"opponent": "online", "clock": "casual"})
    # The invitation, saying the time control.
    page.goto(f"{server}/join/{created['invite']}")
    page.wait_for_selector("#join-clock:not([hidden])")
    in_language(page, lang)
    assert audit(page, axe) == []
    # The creator's board once the friend has come: both clocks, one of them running.
    post(server, "/api/matches/join", {"invite": created["invite"]})
    page.goto(match_url(server, created["id"]))
    page.wait_for_selector(".player .clock.is-running")
    in_language(page, lang)
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tutorial_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    page.goto(f"{server}/tutorial/{lang}")
    page.wait_for_selector('[data-place="p24"]')
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_pages_pass_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    failures = {}
    for topic in TOPICS:
        page.goto(f"{server}/help/{lang}/{'' if topic == 'index' else topic}")
        found = audit(page, axe)
        if found:
            failures[topic] = found
    assert failures == {}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_account_and_player_pages_pass_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    page.goto(f"{server}/account?lang={lang}")
    page.wait_for_selector("form")
    assert audit(page, axe) == []
    name = f"audit{lang}"
    post(server, "/api/accounts", {"name": name, "password": "a long enough secret"})
    page.goto(f"{server}/players/{name}?lang={lang}")
    page.wait_for_selector("#play")
    assert audit(page, axe) == []
    # Signed in: the page's privacy on the account page, then the hidden page's note.
    sign_up(page, server, f"hider{lang}")
    page.goto(f"{server}/account?lang={lang}")
    page.check("#privacy input[name=hidden]")
    page.click("#privacy button[type=submit]")
    page.wait_for_function("document.querySelector('#privacy .status').textContent !== ''")
    assert audit(page, axe) == []
    page.goto(f"{server}/players/hider{lang}?lang={lang}")
    page.wait_for_selector("#hidden-note")
    assert audit(page, axe) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tournament_pages_pass_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    tournament_id = running_tournament(server, page, lang)  # its draw, table and buttons
    assert audit(page, axe) == []
    page.goto(f"{server}/tournaments?lang={lang}")  # the lists, and the form to create one
    page.wait_for_selector("#create-tournament")
    assert tournament_id in page.inner_html("#running-list")
    assert audit(page, axe) == []


def test_the_dice_verifier_passes_the_audit(server: str, page: Any, axe: str) -> None:
    page.goto(f"{server}/verify.html")
    page.wait_for_selector("h1")
    assert audit(page, axe) == []


def a_kept_card() -> dict[str, Any]:
    """A card of the deck a browser keeps (js/localdeck.js), due now: the opening 31, where
    24/21 6/5 was played and 8/5 6/5 is best."""
    from datetime import UTC, datetime

    from backgammon.formats.matchid import MatchIdState, encode_match_id
    from backgammon.server.trainer.deck import new_schedule

    now = datetime.now(UTC)
    weighed = [{"text": "8/5 6/5", "equity": 0.17}, {"text": "24/21 6/5", "equity": 0.0}]
    return {
        "kind": "checker", "game": 1, "move_number": 1, "position_id": "4HPwATDgc/ABMA",
        "match_id": encode_match_id(MatchIdState(dice=(3, 1))), "dice": [3, 1],
        "played": "24/21 6/5", "best": "8/5 6/5", "equity_loss": 0.17, "mark": "very bad",
        "weighed": weighed, "choices": sorted(w["text"] for w in weighed),
        "schedule": new_schedule(now), "due": now.isoformat(), "key": "m:1:1:checker",
        "match": "m",
    }


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_trainer_passes_the_audit(server: str, page: Any, axe: str, lang: str) -> None:
    # A guest's trainer, with a card kept in the browser: asked, a checker picked up, then
    # answered.
    page.goto(f"{server}/trainer")
    page.evaluate(
        "card => localStorage.setItem('backgammon.trainer',"
        " JSON.stringify({cards: {[card.key]: card}, answers: []}))",
        a_kept_card(),
    )
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    in_language(page, lang)
    page.wait_for_selector('#trainer-board [data-place="p1"]')
    page.click('#trainer-board [data-place="p8"]')  # picked up, to go to 7 or 5
    page.wait_for_selector('#trainer-board [data-place="p8"].is-selected')
    assert audit(page, axe) == []
    page.click("#trainer-list summary")
    page.click('.trainer-choice[data-choice="8/5 6/5"]')
    page.wait_for_selector("body[data-answered=right]")  # with "how was it?"
    assert audit(page, axe) == []


def rgb(colour: str) -> tuple[float, float, float]:
    """A computed CSS colour ("rgb(34, 34, 34)") as three numbers."""
    red, green, blue = (float(part) for part in colour[colour.index("(") + 1 : -1].split(",")[:3])
    return red, green, blue


def contrast(first: str, second: str) -> float:
    """WCAG 2's contrast ratio of two computed colours."""

    def luminance(colour: str) -> float:
        def linear(channel: float) -> float:
            c = channel / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        red, green, blue = (linear(channel) for channel in rgb(colour))
        return 0.2126 * red + 0.7152 * green + 0.0722 * blue

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_checkers_and_marks_stand_out_without_their_colours(server: str, page: Any) -> None:
    """Each side's checkers, and the rings round the checker picked up and where it would land,
    reach 3:1 against every part of the board they lie on (WCAG 1.4.11), by their fill or
    their rim; black's carry an inner ring that white's do not."""
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "advanced", "seed": SEED}
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    page.click("#board", position={"x": 20, "y": 20})
    page.wait_for_selector("#board .place.is-source")
    page.click('[data-place="p13"]')  # picked up: it may go to 10 or 8
    page.wait_for_selector("#board .landing")

    def paint(selector: str, prop: str) -> str:
        return str(page.eval_on_selector(selector, f"n => getComputedStyle(n).{prop}"))

    grounds = {name: paint(selector, "fill") for name, selector in {
        "felt": ".felt", "light point": ".triangle--odd", "dark point": ".triangle--even",
        "bar": ".bar-area",
    }.items()}
    for side in ("white", "black"):
        fill = paint(f"circle.checker--{side}", "fill")
        rim = paint(f"circle.checker--{side}", "stroke")
        weak = {name: round(max(contrast(fill, ground), contrast(rim, ground)), 2)
                for name, ground in grounds.items()
                if max(contrast(fill, ground), contrast(rim, ground)) < 3}
        assert weak == {}, f"{side} checkers"
    white, black = paint("circle.checker--white", "fill"), paint("circle.checker--black", "fill")
    assert contrast(white, black) >= 3
    assert contrast(paint(".checker-ring", "stroke"), black) >= 3
    rings = page.locator("#board .checker-ring").count()
    assert rings == page.locator("#board circle.checker--black").count() > 0
    for ring in (".lifted", ".landing"):
        edge, line = paint(f"{ring} .ring-edge", "stroke"), paint(f"{ring} .ring-line", "stroke")
        on = dict(grounds, white=white, black=black)
        assert all(max(contrast(edge, g), contrast(line, g)) >= 3 for g in on.values()), ring
    # Where it may go is told by a dashed outline, not by colour alone.
    assert paint('[data-place="p8"] .point-area', "strokeDasharray") not in ("", "none")


#: The announcements' messages that name a glossary term: they use the help's words for it.
SAID_TERMS = {
    "say.bar": "bar", "say.tray": "tray", "say.point": "point", "say.hitting": "hit",
    "say.enter": "enter", "say.bearOff": "bear off", "say.pickedUp": "checker",
    "board.keys": "checker",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_what_is_said_uses_the_glossarys_words(lang: str) -> None:
    glossary = json.loads((HELP / "glossary" / f"{lang}.json").read_text(encoding="utf-8"))
    messages = json.loads((WEB / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
    differ = {key: messages[key] for key, term in SAID_TERMS.items()
              if not any(form.casefold() in messages[key].casefold()
                         for form in glossary["terms"][term])}
    assert differ == {}
    said = " ".join(text for key, text in messages.items() if key.startswith("say."))
    assert [word for word in glossary["avoid"] if word in said] == []


# The keyboard alone, and what a screen reader hears


def focused(page: Any) -> str:
    """The place or the control that has the focus ("" for anything else)."""
    return str(page.evaluate(
        "document.activeElement.dataset.place || document.activeElement.dataset.action || ''"
    ))


def tab_to(page: Any, target: str) -> None:
    """Press Tab until ``target`` (a place or a control's action) has the focus."""
    for _ in range(80):
        if focused(page) == target:
            return
        page.keyboard.press("Tab")
    pytest.fail(f"Tab never reached {target}")


def hear(page: Any, text: str, since: int) -> int:
    """Wait until a line from the ``since``-th on holds ``text``; the index after it."""
    handle = page.wait_for_function(
        "([text, since]) => { const i = window.heard.findIndex("
        "(line, n) => n >= since && line.includes(text)); return i < 0 ? null : i + 1; }",
        arg=[text, since],
    )
    return int(handle.json_value())


def spoken(start: int, end: int, hit: bool) -> str:
    """A step as the page says it in English, on the viewer's points (25 the bar, 0 off)."""
    if end == 0:
        text = f"bear off from {start}"
    elif start == 25:
        text = f"enter on {end}"
    else:
        text = f"{start} to {end}"
    return f"{text}, hitting" if hit else text


def test_a_game_by_the_keyboard_alone_is_heard(server: str, page: Any) -> None:
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "advanced", "seed": SEED}
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    listen(page)
    # The opening roll by the Roll button; the focus goes on to a checker that can move.
    tab_to(page, "roll")
    page.keyboard.press("Enter")
    heard = hear(page, "Opening roll: You 5, Computer 3.", 0)
    wait_version(page, 1)
    assert focused(page).startswith(("p", "bar"))
    # The board's places come in the order the person's checkers travel, 24 down to 1.
    order = page.eval_on_selector_all(
        "#board [data-place]", "nodes => nodes.map(n => n.dataset.place)"
    )
    assert order == ["bar0", *(f"p{n}" for n in range(24, 0, -1)), "off0", "bar1", "off1"]
    computer_plays = 0
    for _ in range(200):
        state = settled(server, match_id)
        wait_version(page, state["version"])
        if state["record"][0]["result"] is not None or computer_plays == 3:
            break
        offered = state["actions"][0]
        before = version(page)
        if "roll" in offered:
            # After the computer's turn the focus waits on Roll.
            assert focused(page) == "roll"
            page.keyboard.press("Enter")
            wait_version(page, before + 1)
            rolled = fetch_state(server, match_id)
            if rolled["phase"] == "move":
                first, second = [die["value"] for die in rolled["dice"]][:2]  # doubles: 4
                heard = hear(page, f"You rolled {first} and {second}.", heard)
        elif "take" in offered:
            tab_to(page, "take")
            page.keyboard.press("Enter")
            heard = hear(page, "You take", heard)
        elif state["phase"] == "move":
            step = state["steps"][0]
            source, target = place(step["board_from"], 0), place(step["board_to"], 0)
            ends = {each["board_to"] for each in state["steps"] if each["from"] == step["from"]}
            tab_to(page, source)
            page.keyboard.press("Enter")
            if len(ends) > 1:  # picked up: said where it can go, then Tab on to one of them
                heard = hear(page, "Picked up the checker on ", heard)
                tab_to(page, target)
                page.keyboard.press("Enter")
            wait_version(page, before + 1)
            made = fetch_state(server, match_id)
            hit = made["board"]["bar"][1] > state["board"]["bar"][1]
            heard = hear(page, spoken(step["board_from"], step["board_to"], hit), heard)
        else:
            assert "confirm" in offered, (state["phase"], offered)
            # The turn is whole: the focus is on Confirm.
            assert focused(page) == "confirm"
            page.keyboard.press("Enter")
            heard = hear(page, "You rolled ", heard)
            answered = settled(server, match_id)
            wait_version(page, answered["version"])
            known = state["record"][0]["entries"]
            for entry in answered["record"][0]["entries"][len(known):]:
                if entry["seat"] == 1 and entry["kind"] == "play":
                    heard = hear(page, computer_play(entry), heard)
                    computer_plays += 1
    assert computer_plays == 3


def computer_play(entry: dict[str, Any]) -> str:
    """The start of what the page says of the computer's play ``entry`` (on its own points,
    seen from seat 0's: 25 - n)."""
    first, second = entry["dice"]
    if entry["play"] is None:
        return f"Computer rolled {first} and {second}: no legal move."
    seen = [
        spoken(
            step["from"] if step["from"] == 25 else 25 - step["from"],
            0 if step["to"] == 0 else 25 - step["to"],
            step["hit"],
        )
        for step in entry["steps"]
    ]
    verb = "the only play" if entry["auto"] else "played"
    return f"Computer rolled {first} and {second}" + (
        f": {verb}, {seen[0]}" if entry["auto"] else f" and {verb} {seen[0]}"
    )


@pytest.mark.parametrize("lang", ["vi", "mt", "fa", "km"])
def test_the_live_region_speaks_the_pages_language(server: str, page: Any, lang: str) -> None:
    messages = json.loads((WEB / "messages" / f"{lang}.json").read_text(encoding="utf-8"))
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "advanced", "seed": SEED}
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    in_language(page, lang)
    listen(page)
    tab_to(page, "roll")
    page.keyboard.press("Enter")
    # "Opening roll: You 5, Computer 3." in the language: its words, its names for the players.
    opening = messages["say.opening"]
    heard = hear(page, opening[: opening.index("{")], 0)
    line = page.evaluate("window.heard")[heard - 1]
    assert messages["name.you"] in line and messages["name.computer"] in line
    wait_version(page, 1)
    # A checker picked up by the keyboard (the 13 may go to 10 or 8): said in the language too.
    tab_to(page, "p13")
    page.keyboard.press("Enter")
    picked = messages["say.pickedUp"]
    hear(page, picked[: picked.index("{")], heard)
    page.evaluate("localStorage.clear()")


def test_the_cube_and_a_games_end_are_heard(server: str, page: Any) -> None:
    # Seed 1: the computer wins the opening roll and plays first.
    match_id = post(
        server, "/api/matches", {"opponent": "computer", "level": "advanced", "seed": 1}
    )["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    listen(page)
    tab_to(page, "roll")
    page.keyboard.press("Enter")
    heard = hear(page, "Opening roll: You 2, Computer 5.", 0)
    heard = hear(page, "Computer rolled 5 and 2 and played ", heard)
    heard = hear(page, "Your turn: roll or double.", heard)
    wait_version(page, settled(server, match_id)["version"])
    assert focused(page) == "roll"
    # The person doubles; the computer (no noise at this level) takes, early in the game.
    tab_to(page, "double")
    page.keyboard.press("Enter")
    heard = hear(page, "You double to 2", heard)
    heard = hear(page, "Computer takes", heard)
    wait_version(page, settled(server, match_id)["version"])
    # The person resigns a single game (the menu's first choice), worth 2 at this cube; the
    # computer accepts, and the game's end is said.
    tab_to(page, "resign")
    page.keyboard.press("Enter")
    # Asked once more, in a dialog whose focus is on keeping playing: back to "Resign".
    page.wait_for_selector("#resign-dialog[open]")
    assert page.evaluate("document.activeElement.id") == "resign-no"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.id") == "resign-yes"
    page.keyboard.press("Enter")
    heard = hear(page, "You offer to resign a single game", heard)
    heard = hear(page, "Computer accepts", heard)
    hear(page, "Computer wins 2 points.", heard)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_rematch_offered_passes_the_audit(
    server: str, page: Any, axe: str, lang: str
) -> None:
    """The end-of-match panel of the player a rematch is offered to: its words, Accept and
    Decline."""
    from test_rematch_browser import ended_online, send

    match_id, tokens = ended_online(server)
    send(server, f"/api/matches/{match_id}/rematch", {"seat": 0}, tokens[0])
    page.goto(f"{server}/?match={match_id}#token={tokens[1]}&seats=1")
    page.wait_for_selector("#rematch-accept:visible")
    in_language(page, lang)
    assert audit(page, axe) == []
