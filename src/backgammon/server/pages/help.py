"""The help pages: the rules, the questions players ask, strategy, the variants, the cube and
the other games' rules, in each language of the game, as plain server-rendered HTML (no
script needed).

The content lives in ``backgammon/web/help``: for each language a folder of HTML fragments, one
a topic (``index.html`` the contents page), each starting with its one ``<h1>``, and a
``page.json`` with the words around them (the topics' names, the navigation, the board's
description). A fragment draws a board with a placeholder,
``<board id="gnubg Position ID" caption="…" dice="3 1" cube="2" owner="opponent"
checkers="3">``, which the page replaces by :func:`~backgammon.formats.svg.board_svg`'s image
in a ``<figure>``. The other games' boards (the ``games`` topic) name the game instead of an
ID: ``<board game="plakoto" mine="24:12 5:3" theirs="24:14 20:1" theirs-pinned="20">`` (each
side's ``point:count`` on its own numbering, 25 the bar; ``mine-pinned`` and ``theirs-pinned``
the points where that side's checker lies pinned, ``waiting="15 15"`` each side's checkers not
yet entered; without ``mine`` and ``theirs``, the game's start), checked by the game's rules.
``glossary/<lang>.json`` holds each language's words for the game's terms.
"""

from __future__ import annotations

import json
import re
from functools import cache
from html import escape
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from ...cube import CubeOwner
from ...errors import BackgammonError
from ...formats.svg import BoardLabels, board_svg
from ...games import Board, rules_for
from ...position import Position
from ..http.assets import PageResponse
from .languages import LANGUAGES
from .templates import render as render_template

HELP = Path(__file__).resolve().parents[2] / "web" / "help"
#: The topics, in the navigation's order; "index" is the contents page at /help/<lang>/.
TOPICS = ("index", "rules", "faq", "strategy", "variants", "cube", "games")

router = APIRouter(prefix="/help", tags=["help"], include_in_schema=False)


class HelpContentError(BackgammonError):
    """A help fragment that cannot be drawn: a board placeholder that is malformed."""


@router.get("/help.css")
async def stylesheet() -> Response:
    """The help pages' own small stylesheet."""
    return Response((HELP / "help.css").read_text(encoding="utf-8"), media_type="text/css")


@router.get("")
@router.get("/")
async def help_root() -> RedirectResponse:
    """The English contents (the game's page links to the contents in its own language)."""
    return RedirectResponse("/help/en/")


@router.get("/{lang}")
async def help_language(lang: str) -> Response:
    """A language's contents, at the address with its slash."""
    if lang not in LANGUAGES:
        return _not_found("en", f"/help/{lang}")
    return RedirectResponse(f"/help/{lang}/")


@router.get("/{lang}/")
async def help_index(lang: str) -> Response:
    """A language's contents page."""
    if lang not in LANGUAGES:
        return _not_found("en", f"/help/{lang}/")
    return PageResponse(render(lang, "index"))


@router.get("/{lang}/{topic}")
async def help_page(lang: str, topic: str) -> Response:
    """One topic in one language; a page saying what exists, with a 404, for anything else
    (the contents too: its one address is /help/<lang>/)."""
    if lang not in LANGUAGES:
        return _not_found("en", f"/help/{lang}/{topic}")
    if topic not in TOPICS or topic == "index":
        return _not_found(lang, f"/help/{lang}/{topic}")
    return PageResponse(render(lang, topic))


@cache
def words(lang: str) -> dict[str, Any]:
    """A language's page.json: the words around the content."""
    data: dict[str, Any] = json.loads((HELP / lang / "page.json").read_text(encoding="utf-8"))
    return data


@cache
def labels(lang: str) -> BoardLabels:
    """The words a language describes a board in."""
    return BoardLabels(**words(lang)["board"])


@cache
def render(lang: str, topic: str) -> str:
    """The whole page of ``topic`` in ``lang``."""
    fragment = (HELP / lang / f"{topic}.html").read_text(encoding="utf-8")
    return _page(lang, topic, Markup(boards(fragment, labels(lang))))


_BOARD = re.compile(r"<board\b([^>]*?)/?>(?:\s*</board>)?")
_ATTRIBUTE = re.compile(r'([\w-]+)="([^"]*)"')
_OWNERS = {"centre": CubeOwner.CENTRE, "me": CubeOwner.ON_ROLL, "opponent": CubeOwner.OPPONENT}


def boards(fragment: str, board_labels: BoardLabels) -> str:
    """``fragment`` with each ``<board …>`` placeholder drawn as a figure.

    >>> page = boards('<p>x</p><board id="4HPwATDgc/ABMA" caption="The start">', BoardLabels())
    >>> page[:39], page[-49:]
    ('<p>x</p><figure class="board"><svg xmln', '</svg><figcaption>The start</figcaption></figure>')
    >>> boards('<board caption="no id">', BoardLabels())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.server.pages.help.HelpContentError: A board in the help has no position: ...
    """

    def draw(found: re.Match[str]) -> str:
        attributes = dict(_ATTRIBUTE.findall(found.group(1)))
        try:
            dice = attributes.get("dice")
            cube = attributes.get("cube")
            options: dict[str, Any] = {
                "labels": board_labels,
                "dice": (int(dice[0]), int(dice[-1])) if dice else None,
                "cube": int(cube) if cube else None,
                "cube_owner": _OWNERS[attributes.get("owner", "centre")],
            }
            if "game" in attributes:
                game = rules_for(attributes["game"])
                svg = board_svg(_game_board(attributes), travel=game.travel, **options)
            else:
                position = Position.from_id(
                    attributes["id"], checkers=int(attributes.get("checkers", "15"))
                )
                svg = board_svg(position, **options)
        except (KeyError, ValueError, BackgammonError) as error:
            raise HelpContentError(
                f"A board in the help has no position: {found.group(0)}."
                if "id" not in attributes and "game" not in attributes
                else f"A board in the help cannot be drawn ({error}): {found.group(0)}."
            ) from error
        caption = escape(attributes.get("caption", ""))
        return f'<figure class="board">{svg}<figcaption>{caption}</figcaption></figure>'

    return _BOARD.sub(draw, fragment)


def _game_board(attributes: dict[str, str]) -> Board:
    """The board a ``<board game=…>`` placeholder names, checked by its game's rules: the
    game's start, or each side's ``point:count`` pairs, pinned points and checkers waiting.

    >>> _game_board({"game": "plakoto", "mine": "24:14 5:1", "theirs": "24:14 20:1",
    ...              "theirs-pinned": "20"}).pinned()
    (frozenset(), frozenset({20}))
    >>> _game_board({"game": "fevga", "mine": "24:15 12:1", "theirs": "24:15"})
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionError: The player on roll has 16 checkers on the board, \
more than the 15 a side has.
    """
    game = rules_for(attributes["game"])
    if "mine" not in attributes and "theirs" not in attributes:
        return game.initial()

    def points(name: str) -> dict[int, int]:
        pairs = (pair.split(":") for pair in attributes.get(name, "").split())
        return {int(point): int(count) for point, count in pairs}

    def pinned(name: str) -> list[int]:
        return [int(point) for point in attributes.get(name, "").split()]

    waiting = [int(count) for count in attributes.get("waiting", "0 0").split()]
    return game.check(Board.from_points(
        points("mine"), points("theirs"),
        mine_pinned=pinned("mine-pinned"), theirs_pinned=pinned("theirs-pinned"),
        mine_waiting=waiting[0], theirs_waiting=waiting[-1],
    ))


def _topics(lang: str, topic: str | None) -> list[dict[str, Any]]:
    """The links to each topic in ``lang``, the page's own (``topic``) marked."""
    names = words(lang)["topics"]
    return [
        {"href": f"/help/{lang}/" if name == "index" else f"/help/{lang}/{name}",
         "name": names[name], "current": name == topic}
        for name in TOPICS
    ]


def _languages(lang: str, topic: str | None) -> list[dict[str, Any]]:
    """The links to ``topic`` (the contents where None) in each language."""
    return [
        {"href": f"/help/{other}/" if topic in (None, "index") else f"/help/{other}/{topic}",
         "lang": other, "dir": words(other)["dir"], "name": words(other)["language"],
         "current": other == lang}
        for other in LANGUAGES
    ]


def _page(lang: str, topic: str | None, content: Markup) -> str:
    say = words(lang)
    title = say["not_found_title"] if topic is None else say["topics"][topic]
    return render_template(
        "help.html",
        lang=lang,
        dir=say["dir"],
        title=f"{title} · {say['site']}",
        stylesheets=("/help/help.css",),
        say=say,
        topics=_topics(lang, topic),
        links=_languages(lang, topic),
        content=content,
        # The translation's note carries its own markup (a link).
        note=Markup(say.get("note") or ""),
    )


def _not_found(lang: str, path: str) -> Response:
    """404: a sentence in the language asked for (English when it is not one of ours), and the
    navigation to every page there is."""
    say = words(lang)
    content = Markup(render_template(
        "help_not_found.html", say=say, sentence=say["not_found"].format(path=path)
    ))
    return PageResponse(_page(lang, None, content), status_code=404)
