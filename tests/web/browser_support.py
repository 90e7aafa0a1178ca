"""What the browser tests share: a live server in a thread, requests to its API with the seat
tokens of the matches made here, and the page's names of the board's places.

The fixtures (``server``, ``browser``, ``page``) are in ``conftest.py``; screenshots go to
``artifacts/`` (git-ignored).
"""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from backgammon.game import Game

ROOT = Path(__file__).resolve().parents[2]


WEB = ROOT / "src" / "backgammon" / "web"


ARTIFACTS = ROOT / "artifacts"


CHROMIUM = "/usr/bin/chromium"


CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


SEED = 11  # seat 1 (black, at the top) wins the opening roll, 5 against 4


def catalogue() -> dict[str, str]:
    messages: dict[str, str] = json.loads((WEB / "messages" / "en.json").read_text())
    return messages


class MarkupTexts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.keys: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("data-msg", "data-msg-label", "data-msg-title") and value:
                self.keys.append(value)
            if name in ("aria-label", "title", "placeholder", "alt") and value:
                self.texts.append(f"{name}={value}")

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.texts.append(data.strip())


class Running:
    """A uvicorn server in a thread, serving the app on an SQLite database, on a loopback port
    (a free one, or the one given, so that a page open on the old server's address reaches the
    new one after a restart)."""

    def __init__(self, database: Path, port: int = 0, **options: Any) -> None:
        uvicorn = pytest.importorskip("uvicorn")
        from backgammon.server import Settings, create_app
        from backgammon.server.settings import sqlite_url

        # The pages are tested here, not the limits (tests/server test those): the browser
        # tests, all from one address, sign up more than ten accounts a minute.
        unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                     "upload_rate": None, "signin_rate": None}
        settings = Settings(
            database_url=sqlite_url(database), computer_pause=0.05, allow_seed=True,
            **{**unlimited, **options},
        )
        app = create_app(settings)
        warm_the_computer()
        listener = socket.socket()
        # The old server's connections may linger in TIME_WAIT on the port taken over.
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        self.port: int = listener.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._listener = listener
        config = uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2)
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [listener]}, daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        """Shut the server down and wait until it has."""
        self._server.should_exit = True
        self._thread.join(10)
        assert not self._thread.is_alive(), "the server did not stop"
        self._listener.close()


#: The seat token of each match made through the API here, and the seats it holds (as the
#: page's address hands them over: "0,1" at one screen, "0" against the computer).
TOKENS: dict[str, tuple[str, str]] = {}


def request_for(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """A request to ``path``, with the token of the match it names, if made here."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    named = re.match(r"/api/matches/([^/?]+)", path)
    if named and named.group(1) in TOKENS:
        headers["Authorization"] = f"Bearer {TOKENS[named.group(1)][0]}"
    data = None if body is None else json.dumps(body).encode()
    return urllib.request.Request(base + path, data=data, headers=headers)


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with urllib.request.urlopen(request_for(base, path, body), timeout=10) as response:
        data: dict[str, Any] = json.load(response)
    if path == "/api/matches":
        TOKENS[data["id"]] = (data["token"], "0,1" if body.get("opponent") == "human" else "0")
    return data


def match_url(base: str, match_id: str) -> str:
    """The page of a match made here, with its seats handed over in the address."""
    token, seats = TOKENS[match_id]
    return f"{base}/?match={match_id}#token={token}&seats={seats}"


def fetch_state(base: str, match_id: str, view: int | None = None) -> dict[str, Any]:
    """The match's state through the API (its board from seat ``view``'s side, if given)."""
    query = "" if view is None else f"?view={view}"
    with urllib.request.urlopen(f"{base}/api/matches/{match_id}{query}", timeout=10) as response:
        data: dict[str, Any] = json.load(response)
    return data


def act_with(base: str, match_id: str, token: str, action: dict[str, Any]) -> dict[str, Any]:
    """Make ``action`` (its seat in it) through the API with a seat's ``token``, on the
    match's version now: the state after."""
    body = {**action, "version": fetch_state(base, match_id)["version"]}
    request = urllib.request.Request(
        f"{base}/api/matches/{match_id}/actions", data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.load(response)
    return data


def throw_opening(base: str, match_id: str, tokens: dict[int, str]) -> dict[str, Any]:
    """The opening roll of an online match through the API, each player throwing their own
    die with their seat's token (seat 0 first; again after a tie): the state once a player
    is to move."""
    state = fetch_state(base, match_id)
    while state["phase"] == "opening":
        seat = 0 if state["to_act"] is None else state["to_act"]
        state = act_with(base, match_id, tokens[seat], {"seat": seat, "action": "roll"})
    return state


#: The password of the accounts the tests sign up.
PASSWORD = "a long pass phrase"


def sign_up(page: Any, server: str, name: str) -> None:
    """A new account ``name``, signed in on ``page`` (left on the account page)."""
    page.goto(server + "/account")
    page.fill("#sign-up input[name=name]", name)
    page.fill("#sign-up input[name=password]", PASSWORD)
    page.click("#sign-up button[type=submit]")
    page.wait_for_selector("#sign-out")


def choose(page: Any, choice: str, where: str | None = None) -> None:
    """Pick one of the front page's three choices ("computer", "friend" or "lobby": find an
    opponent) and, for a friend, where they are ("online": a link to send them; "screen": at
    this screen)."""
    page.check(f'input[name="choice"][value="{choice}"]')
    if where is not None:
        page.check(f'input[name="where"][value="{where}"]')


def more_options(page: Any) -> None:
    """Open the front page's "More options" (the variant, the rules, a position), as a click
    on it does."""
    if not page.eval_on_selector("#setup-form .more-options", "details => details.open"):
        page.click("#setup-form .more-options summary")


def start(page: Any) -> None:
    """Press the front page's start button (its words say what the choice starts)."""
    page.click("#setup-start")


def listen(page: Any) -> None:
    """Keep every line the live region is given in ``window.heard`` (the region keeps the
    last few only)."""
    page.evaluate(
        """() => {
          window.heard = [];
          new MutationObserver((changes) => {
            for (const change of changes) {
              for (const node of change.addedNodes) window.heard.push(node.textContent);
            }
          }).observe(document.querySelector('#announcements'), {childList: true});
        }"""
    )


def open_pages(
    browser: Any, count: int, timeout: float = 15_000, **options: Any
) -> Iterator[list[Any]]:
    """``count`` browser contexts made with ``options`` (a 900 x 1000 viewport unless they
    say), each a page with no page errors (for a fixture: yields the pages, then closes the
    contexts and checks that no page raised an error)."""
    options = {"viewport": {"width": 900, "height": 1000}, **options}
    contexts, pages, errors = [], [], []
    for _ in range(count):
        context = browser.new_context(**options)
        page = context.new_page()
        page.set_default_timeout(timeout)
        page.on("pageerror", lambda error: errors.append(str(error)))
        contexts.append(context)
        pages.append(page)
    yield pages
    for context in contexts:
        context.close()
    assert errors == [], errors


def open_page(browser: Any, **options: Any) -> Iterator[Any]:
    """One page of :func:`open_pages`, for a fixture of a single page."""
    opened = open_pages(browser, 1, 10_000, **options)
    yield next(opened)[0]
    next(opened, None)  # closes its context and checks that it raised no error


def place(location: int, mover: int) -> str:
    """The page's name of a place of the mover's numbering, on seat 0's board."""
    if location == 25:
        return f"bar{mover}"
    if location == 0:
        return f"off{mover}"
    return f"p{location if mover == 0 else 25 - location}"


def highlighted(page: Any, kind: str) -> set[str]:
    return {node.get_attribute("data-place") for node in page.query_selector_all(f".is-{kind}")}


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => { const board = document.querySelector('#board');"
        " return Number(board.dataset.version) >= v && board.ariaBusy !== 'true'; }",
        arg=version,
    )


def version(page: Any) -> int:
    return int(page.get_attribute("#board", "data-version"))


def targets_of(game: Game, source: int) -> set[str]:
    """The places the engine lets the checker on the mover's point ``source`` go to now."""
    assert game.turn is not None
    return {place(b, game.on_roll) for a, b in game.turn.legal_steps() if a == source}


def click_step(page: Any, game: Game, step: tuple[int, int]) -> None:
    """Click the checker, check the highlighted destinations, click the destination; a checker
    with one destination goes there on the first click."""
    assert game.turn is not None
    mover = game.on_roll
    sources = {place(a, mover) for a, _ in game.turn.legal_steps()}
    assert highlighted(page, "source") == sources
    targets = targets_of(game, step[0])
    before = version(page)
    page.click(f'[data-place="{place(step[0], mover)}"]')
    if len(targets) > 1:
        assert highlighted(page, "target") == targets
        page.click(f'[data-place="{place(step[1], mover)}"]')
    game.step(mover, *step)
    wait_version(page, before + 1)


def click_first_step(page: Any, state: dict[str, Any]) -> None:
    """Make the first step the server offers by clicks on ``page`` (the side ``state`` was
    drawn from): the checker, then its destination where it has more than one."""
    step, mover = state["steps"][0], state["on_roll"]

    def name(point: int) -> str:
        return f"bar{mover}" if point == 25 else f"off{mover}" if point == 0 else f"p{point}"

    targets = {s["board_to"] for s in state["steps"] if s["board_from"] == step["board_from"]}
    page.click(f'[data-place="{name(step["board_from"])}"]')
    if len(targets) > 1:
        page.click(f'[data-place="{name(step["board_to"])}"]')


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def warm_the_computer() -> None:
    """Have the computer think once at every level, so that numba compiles its kernels (into
    its cache on disk) before a test waits for a move: on a fresh clone the first compile
    takes seconds, longer than a test waits for the computer to act (each level's bot is
    then kept, so it costs a server started later nothing)."""
    from backgammon.bot import Level
    from backgammon.dice import ManualDice
    from backgammon.server.play.computer import _bot, best_play

    for level in Level:
        game = Game(dice=ManualDice(["6 1"]))
        game.roll(0)
        best_play(_bot(level), game, game.on_roll)


def settled(base: str, match_id: str) -> dict[str, Any]:
    """The match's state once the computer has made its actions (the page is told of the
    person's action before the computer answers it)."""
    deadline = time.monotonic() + 10
    state = fetch_state(base, match_id)
    while state["to_act"] == 1 and not state["match_over"]:
        assert time.monotonic() < deadline, "the computer did not act"
        time.sleep(0.02)
        state = fetch_state(base, match_id)
    return state


def centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).last.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

