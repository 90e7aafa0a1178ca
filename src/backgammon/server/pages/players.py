"""The account page (sign up, sign in, sign out, the page's privacy) and each player's page
(rating, its history, rated matches, how well they played those analysed), rendered by the
server in the page's language. A page its player hid is shown to them only, with a note.

The words are the game's catalogue's (``web/messages/<lang>.json``, the keys ``account.*``
and ``player.*``; a word a catalogue lacks is said in English, as on the game's page). The
language is ``?lang=`` where given, else the first of the browser's languages there is a
catalogue for. The forms work through ``/js/account.js``, which sends them to the API.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from ..accounts.ratings import RatingsDep
from ..accounts.routes import AnalysedView, PlayerName, PlayerView, ResultView, player_view
from ..accounts.sessions import SESSION_COOKIE, Viewer, set_cookies
from ..accounts.users import NAME_LENGTHS, PASSWORD_LENGTHS, AccountsDep
from ..db import BACKGAMMON
from ..http.assets import PageResponse
from .languages import LANGUAGES
from .templates import render as render_template

MESSAGES = Path(__file__).resolve().parents[2] / "web" / "messages"

router = APIRouter(tags=["players"], include_in_schema=False)

Lang = Annotated[str | None, Query(max_length=8, description="the page's language")]


@cache
def catalogue(lang: str) -> dict[str, str]:
    """A language's messages, English for those it lacks."""
    english: dict[str, str] = json.loads((MESSAGES / "en.json").read_text(encoding="utf-8"))
    if lang == "en":
        return english
    own = json.loads((MESSAGES / f"{lang}.json").read_text(encoding="utf-8"))
    return {**english, **own}


def page_language(asked: str | None, accept: str) -> str:
    """The language asked for, else the first of the browser's there is a catalogue for.

    >>> page_language(None, "fa-IR,fa;q=0.9,en;q=0.8"), page_language("km", "vi")
    ('fa', 'km')
    >>> page_language("xx", "de-DE, de")
    'en'
    """
    if asked in LANGUAGES:
        return asked
    for part in accept.split(","):
        primary = part.split(";")[0].strip().lower().split("-")[0]
        if primary in LANGUAGES:
            return primary
    return "en"


#: How each language writes a number's digits and decimal sign (as the page's Intl does).
_DIGITS = {"fa": str.maketrans("0123456789.-+", "۰۱۲۳۴۵۶۷۸۹٫−+")}
_DECIMAL_COMMA = str.maketrans(".-", ",−")
_NUMERALS = {"vi": _DECIMAL_COMMA, "km": _DECIMAL_COMMA, **_DIGITS}


def number(value: float | int, lang: str, places: int = 2, signed: bool = False) -> str:
    """``value`` as ``lang`` writes it (no grouping: ratings have four digits).

    >>> number(1510.5, "en"), number(-10, "vi", signed=True), number(1500.25, "fa")
    ('1510.50', '−10,00', '۱۵۰۰٫۲۵')
    >>> number(12, "fa", places=0)
    '۱۲'
    """
    text = f"{value:+.{places}f}" if signed else f"{value:.{places}f}"
    table = _NUMERALS.get(lang)
    return text.translate(table) if table else text


@router.get("/account", response_class=HTMLResponse)
async def account_page(request: Request, account: Viewer, lang: Lang = None) -> HTMLResponse:
    """Sign up or in, or, signed in, the account's name, its page and sign-out."""
    code = page_language(lang, request.headers.get("accept-language", ""))
    words = catalogue(code)
    own = {"signed_in": None} if account is None else {
        "signed_in": words["account.signedInAs"].format(name=account.name),
        "own_page": f"/players/{quote(account.name)}?lang={code}",
        "hidden": account.hidden,
    }
    response = PageResponse(_page(
        "account.html", code, words["account.title"], script=True,
        forms=FORMS, refusals=REFUSALS, names=NAME_LENGTHS, passwords=PASSWORD_LENGTHS, **own,
    ))
    secret = request.cookies.get(SESSION_COOKIE)
    if account is not None and secret is not None:
        # Given again, so that a browser that lost the CSRF cookie can still sign out.
        set_cookies(request, response, secret, request.app.state.settings.session_days)
    return response


@router.get("/players/{name}", response_class=HTMLResponse)
async def player_page(
    name: PlayerName, request: Request, accounts: AccountsDep, ratings: RatingsDep,
    viewer: Viewer, lang: Lang = None,
) -> HTMLResponse:
    """A player's rating, experience, rating history, rated matches and how well they played
    them; a hidden page is "not found" to all but its player."""
    code = page_language(lang, request.headers.get("accept-language", ""))
    words = catalogue(code)
    try:
        player = await run_in_threadpool(player_view, accounts, ratings, name, viewer)
    except HTTPException:
        missing = _page("player.html", code, words["player.notFound"], facts=None)
        return PageResponse(missing, status_code=404)
    return PageResponse(_page("player.html", code, player.name, **_player(player, code)))


#: The account page's two forms: their ids, the words of their heading and button, the
#: password's autocomplete, and whether the form says the rules of names and passwords (the
#: pattern and lengths only mirror the server's rules, which decide).
FORMS = (
    {"id": "sign-in", "action": "account.signIn", "autocomplete": "current-password",
     "rules": False},
    {"id": "sign-up", "action": "account.signUp", "autocomplete": "new-password",
     "rules": True},
)
#: The refusals the account page's script says, each a data attribute of the forms.
REFUSALS = ("wrong", "taken", "invalid", "busy", "failed")
#: The columns of a player's results.
HEADS = ("player.date", "player.game", "player.opponent", "player.length", "player.result",
         "player.change", "player.after")
#: The columns of how well they played each analysed match.
PLAY_HEADS = ("player.date", "player.game", "player.opponent", "player.length", "player.result",
              "player.checker", "player.cube", "player.overall", "player.pr")
#: How many of the latest analysed matches the trend sets against all of them.
RECENT = 10


def _page(template: str, lang: str, title: str, script: bool = False, **values: Any) -> str:
    """The page ``template`` in ``lang``, headed ``title``, in the pages' one shell."""
    words = catalogue(lang)
    if "forms" in values:
        values["forms"] = [{**form, "label": words[form["action"]]} for form in values["forms"]]
    return render_template(
        template,
        lang=lang,
        dir=words.get("meta.dir", "ltr"),
        title=f"{title} · {words['app.title']}",
        stylesheets=("/help/help.css", "/css/account.css"),
        scripts=("/js/account.js",) if script else (),
        say=words,
        heading=title,
        **values,
    )


def _player(player: PlayerView, lang: str) -> dict[str, Any]:
    """What a player's page shows, its numbers written in ``lang``'s digits."""
    words = catalogue(lang)
    facts = {
        "rating": number(player.rating, lang),
        "experience": number(player.experience, lang, places=0),
        "since": player.created[:10],
    }
    games = [
        {"game": words[f"game.{standing.game}"], "rating": number(standing.rating, lang),
         "experience": number(standing.experience, lang, places=0)}
        for standing in player.games
    ]
    results = [
        {
            **_match(result, words, lang),
            "game": words[f"game.{result.game}"],
            "change": number(result.change, lang, signed=True),
            "after": number(result.rating_after, lang),
        }
        for result in player.results
    ]
    backgammon = [result for result in player.results if result.game == BACKGAMMON]
    chart = _chart(backgammon, words, lang) if backgammon else None
    return {"facts": facts, "games": games, "results": results, "chart": chart,
            "heads": HEADS, "hidden": player.hidden, **_play(player.analysed, words, lang)}


def _match(played: ResultView | AnalysedView, words: dict[str, str], lang: str
           ) -> dict[str, Any]:
    """A match's date, opponent (linked unless they hid their page), length and result."""
    return {
        "date": played.finished[:10],
        "opponent": played.opponent,
        "opponent_page": None if played.opponent_hidden
        else f"/players/{quote(played.opponent)}?lang={lang}",
        "length": number(played.length, lang, places=0),
        "outcome": words["player.won"] if played.won else words["player.lost"],
    }


def _play(analysed: list[AnalysedView], words: dict[str, str], lang: str) -> dict[str, Any]:
    """How well they played: each analysed match's error rates (mEMG a decision) and PR,
    the trend (the mean overall rate of the latest matches against all), and its line."""
    rows = [
        {
            **_match(played, words, lang),
            "figures": [number(value, lang, places=1) for value in (
                played.checker, played.cube, played.overall)],
            "pr": "" if played.pr is None else number(played.pr, lang, places=1),
        }
        for played in analysed
    ]
    if not analysed:
        return {"play": rows, "play_heads": PLAY_HEADS, "trend": None, "play_chart": None}
    rates = [played.overall for played in analysed]
    recent = rates[:RECENT]
    trend = words["player.trend"].format(
        recent=number(len(recent), lang, places=0),
        recentRate=number(sum(recent) / len(recent), lang, places=1),
        all=number(len(rates), lang, places=0),
        allRate=number(sum(rates) / len(rates), lang, places=1),
    )
    oldest_first = rates[::-1]
    play_chart = None if len(rates) < 2 else {
        **_line(oldest_first),
        "label": words["player.playChart"].format(
            first=number(oldest_first[0], lang, places=1),
            last=number(oldest_first[-1], lang, places=1)),
    }
    return {"play": rows, "play_heads": PLAY_HEADS, "trend": trend, "play_chart": play_chart}


def _chart(results: list[ResultView], words: dict[str, str], lang: str) -> dict[str, str]:
    """The backgammon rating before the first of ``results`` (backgammon's, the latest first)
    and after each, as a line (oldest left); its text alternative says where it starts and
    ends, and the table below holds every value."""
    oldest_first = results[::-1]
    ratings = [oldest_first[0].rating_before, *(result.rating_after for result in oldest_first)]
    label = words["player.chart"].format(
        first=number(ratings[0], lang), last=number(ratings[-1], lang)
    )
    return {**_line(ratings), "label": label}


def _line(values: list[float]) -> dict[str, str]:
    """``values`` (two or more) as an SVG polyline's points from left to right, the highest
    at the top, and the viewBox that holds them with room for the stroke."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    width, height = 320, 120
    step = width / (len(values) - 1)
    points = " ".join(
        f"{index * step:.1f},{height - (value - low) / span * height:.1f}"
        for index, value in enumerate(values)
    )
    return {"box": f"-4 -4 {width + 8} {height + 8}", "points": points}
