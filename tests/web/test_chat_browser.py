"""The chat in the browser: two players online and a signed-in spectator exchange messages,
each delivered live; markup in a message shows as text and runs nothing; a quick phrase is
said in each reader's language; a player hides the spectators' channel, and mutes the other
player, which holds after a reload; a report is said done; the panel passes the accessibility
audit in every language, and a match against the computer has no chat.
"""

from __future__ import annotations

import json
import re
import secrets
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import WEB, match_url, open_pages, post, sign_up
from test_a11y_browser import audit, axe, in_language  # noqa: F401 (axe: a fixture)

from backgammon.server.chat.texts import PHRASES

MARKUP = '<img src=x onerror="window.hacked = 1"><b>bold</b> & <script>window.hacked = 2</script>'


@pytest.fixture
def contexts(browser: Any) -> Iterator[list[Any]]:
    """Three pages: the two players and a spectator, each with no page errors."""
    yield from open_pages(browser, 3)


def online(server: str) -> tuple[str, dict[int, str]]:
    """An online match between Ann (seat 0) and Bob (seat 1): its id and each seat's token."""
    created = post(server, "/api/matches", {"opponent": "online", "names": ["Ann", "Bob"]})
    joined = post(server, "/api/matches/join", {"invite": created["invite"]})
    return created["id"], {0: created["token"], 1: joined["token"]}


def open_as(page: Any, server: str, match_id: str, seat: int | None = None,
            token: str = "") -> None:
    """Open the match's page, for ``seat`` with its ``token`` (a spectator without)."""
    hand = "" if seat is None else f"#token={token}&seats={seat}"
    page.goto(f"{server}/?match={match_id}{hand}")
    page.wait_for_selector("#chat:not([hidden])")


def lines(page: Any) -> list[str]:
    """The chat's lines as the page shows them, the report buttons' words left out."""
    texts: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#chat-log .chat-line')].map((line) => {
             const copy = line.cloneNode(true);
             copy.querySelectorAll('button').forEach((button) => button.remove());
             return copy.textContent.trim();
           })"""
    )
    return texts


def shows(page: Any, text: str) -> None:
    """Wait until a line of the page's chat ends with ``text``."""
    page.wait_for_function(
        """text => [...document.querySelectorAll('#chat-log .chat-text')]
                    .some((said) => said.textContent === text)""",
        arg=text,
    )


def write(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-form button[type=submit]")


def test_two_players_and_a_spectator_chat(server: str, contexts: list[Any]) -> None:
    match_id, tokens = online(server)
    ann, bob, carol = contexts
    # Bob reads the page in Vietnamese.
    bob.goto(server + "/")
    bob.evaluate("localStorage.setItem('backgammon.language', 'vi')")
    sign_up(carol, server, "Carol" + secrets.token_hex(3))
    open_as(ann, server, match_id, 0, tokens[0])
    open_as(bob, server, match_id, 1, tokens[1])
    open_as(carol, server, match_id)
    assert bob.evaluate("document.documentElement.lang") == "vi"
    for page in contexts:
        assert page.is_visible("#chat-empty") and page.is_visible("#chat-form")
    assert not carol.is_visible("#chat-mute")  # a spectator mutes nobody

    # Markup is shown as text, and nothing of it runs, on every page.
    write(ann, MARKUP)
    for page in contexts:
        shows(page, MARKUP)
        assert page.evaluate("document.querySelectorAll('#chat-log img, #chat-log b, "
                             "#chat-log script').length") == 0
        assert page.evaluate("window.hacked") is None
    assert ann.input_value("#chat-text") == ""

    # A quick phrase, in each reader's language.
    ann.click("#chat-phrases [data-phrase=good-luck]")
    shows(ann, "Good luck!")
    shows(carol, "Good luck!")
    shows(bob, "Chúc may mắn!")
    assert bob.inner_text("#chat-phrases [data-phrase=thanks]") == "Cảm ơn!"
    bob.click("#chat-phrases [data-phrase=thanks]")
    shows(ann, "Thanks!")
    assert lines(ann)[-1] == "Bob: Thanks!"
    assert lines(bob)[-1] == "Bạn: Cảm ơn!"  # "You", in Vietnamese

    # The spectator writes in their own channel; a player may hide it.
    write(carol, "What a game!")
    for page in contexts:
        shows(page, "What a game!")
    assert lines(ann)[-1].endswith("(watching): What a game!")
    assert lines(bob)[-1].endswith("(đang xem): What a game!")
    bob.uncheck("#chat-spectators")
    assert "What a game!" not in " ".join(lines(bob))
    assert "What a game!" in " ".join(lines(ann))

    # Ann mutes Bob: his messages leave her page, the others still see them.
    ann.check("#chat-mute")
    ann.wait_for_function("() => !document.querySelector('#chat-log').textContent"
                          ".includes('Thanks!')")
    write(bob, "you will lose")
    write(carol, "sentinel")  # pushed to Ann after Bob's message, on the same socket
    shows(ann, "sentinel")
    shows(carol, "you will lose")
    assert not any("you will lose" in line for line in lines(ann))
    # The mute is kept on the server: it holds after a reload.
    ann.reload()
    ann.wait_for_selector("#chat:not([hidden])")
    shows(ann, "sentinel")
    assert ann.is_checked("#chat-mute")
    assert not any("Bob" in line for line in lines(ann)), lines(ann)

    # Bob reports Ann's phrase: the button says it is done.
    bob.locator("#chat-log .chat-line", has_text="Chúc may mắn!").locator(".chat-report").click()
    bob.wait_for_selector("#chat-log .chat-report[disabled]")
    # Ann hears Bob again, all he said read back in its place.
    ann.uncheck("#chat-mute")
    shows(ann, "you will lose")
    assert lines(ann)[-2] == "Bob: you will lose" and lines(ann)[-1].endswith(": sentinel")


def test_a_match_against_the_computer_has_no_chat(server: str, page: Any) -> None:
    match_id = post(server, "/api/matches", {"opponent": "computer", "seed": 5})["id"]
    page.goto(match_url(server, match_id))
    page.wait_for_selector('[data-place="p24"]')
    assert page.is_hidden("#chat")


@pytest.mark.parametrize("lang", ["en", "vi", "mt", "fa", "km"])
def test_the_chat_passes_the_audit(
    server: str, contexts: list[Any], axe: str, lang: str  # noqa: F811
) -> None:
    match_id, tokens = online(server)
    player, spectator, _ = contexts
    open_as(player, server, match_id, 0, tokens[0])
    open_as(spectator, server, match_id)  # a guest: asked to sign in to write
    in_language(player, lang)
    in_language(spectator, lang)
    assert audit(player, axe) == []  # empty
    write(player, "Hello <b>there</b>")
    player.click("#chat-phrases [data-phrase=well-played]")
    # The other seat writes through the API: a line with a report button.
    send(server, f"/api/matches/{match_id}/chat", tokens[1],
         {"channel": "players", "seat": 1, "text": "Thanks"})
    shows(player, "Thanks")
    assert player.is_visible("#chat-log .chat-report")
    assert audit(player, axe) == []
    shows(spectator, "Thanks")
    assert spectator.is_visible("#chat-sign-in") and not spectator.is_visible("#chat-form")
    assert audit(spectator, axe) == []


def send(server: str, path: str, token: str, body: dict[str, Any]) -> None:
    """POST ``body`` to ``path`` with a seat's ``token``."""
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), headers={
        "Content-Type": "application/json", "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201


def test_the_page_offers_the_servers_quick_phrases_each_in_every_language() -> None:
    source = (WEB / "js" / "chat.js").read_text()
    offered = re.search(r"const PHRASES = \[([^\]]*)\]", source)
    assert offered is not None
    assert tuple(re.findall(r'"([\w-]+)"', offered.group(1))) == PHRASES
    for lang in ("en", "vi", "mt", "fa", "km"):
        messages = (WEB / "messages" / f"{lang}.json").read_text()
        assert all(f'"chat.phrase.{key}"' in messages for key in PHRASES), lang


def test_the_chat_fits_a_narrow_phone(server: str, browser: Any) -> None:
    match_id, tokens = online(server)
    send(server, f"/api/matches/{match_id}/chat", tokens[1],
         {"channel": "players", "seat": 1, "text": "a-long-word-without-spaces-" * 8})
    pages = open_pages(browser, 1, viewport={"width": 320, "height": 640}, has_touch=True,
                       is_mobile=True, device_scale_factor=2)
    page = next(pages)[0]
    open_as(page, server, match_id, 0, tokens[0])
    shows(page, "a-long-word-without-spaces-" * 8)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    next(pages, None)  # closes the context, and checks that the page raised no error
