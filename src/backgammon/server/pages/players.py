"""The account page (sign up, sign in, sign out) and each player's page (rating, its history,
rated matches), rendered by the server in the page's language.

The words are the game's catalogue's (``web/messages/<lang>.json``, the keys ``account.*``
and ``player.*``; a word a catalogue lacks is said in English, as on the game's page). The
language is ``?lang=`` where given, else the first of the browser's languages there is a
catalogue for. The forms work through ``/js/account.js``, which sends them to the API.
"""

from __future__ import annotations

import json
from functools import cache
from html import escape
from pathlib import Path
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from markupsafe import Markup
from starlette.concurrency import run_in_threadpool

from ..accounts.ratings import Book
from ..accounts.routes import PlayerName, PlayerView, player_view
from ..accounts.sessions import SESSION_COOKIE, Viewer, set_cookies
from ..accounts.users import NAME_LENGTHS, PASSWORD_LENGTHS, Users
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
    if account is None:
        body = _forms(words)
    else:
        page = f"/players/{quote(account.name)}?lang={code}"
        body = (
            f'<p>{escape(words["account.signedInAs"].format(name=account.name))}</p>'
            f'<p><a href="{page}">{escape(words["account.yourPage"])}</a></p>'
            f'<p><button type="button" id="sign-out">{escape(words["account.signOut"])}'
            "</button></p>"
        )
    response = HTMLResponse(_page(code, words["account.title"], body, script=True))
    secret = request.cookies.get(SESSION_COOKIE)
    if account is not None and secret is not None:
        # Given again, so that a browser that lost the CSRF cookie can still sign out.
        set_cookies(request, response, secret, request.app.state.settings.session_days)
    return response


@router.get("/players/{name}", response_class=HTMLResponse)
async def player_page(
    name: PlayerName, request: Request, accounts: Users, ratings: Book, lang: Lang = None
) -> HTMLResponse:
    """A player's rating, experience, rating history and rated matches."""
    code = page_language(lang, request.headers.get("accept-language", ""))
    words = catalogue(code)
    try:
        player = await run_in_threadpool(player_view, accounts, ratings, name)
    except HTTPException:
        body = f'<p>{escape(words["player.notFound"])}</p>'
        return HTMLResponse(_page(code, words["player.notFound"], body), status_code=404)
    return HTMLResponse(_page(code, player.name, _player(player, words, code)))


def _forms(words: dict[str, str]) -> str:
    """The sign-in and sign-up forms; the sentences the script shows on a refusal ride on
    the form as data attributes, in the page's language."""
    refusals = " ".join(
        f'data-{kind}="{escape(words[f"account.{kind}"])}"'
        for kind in ("wrong", "taken", "invalid", "busy", "failed")
    )
    forms = []
    for form, action, autocomplete in (
        ("sign-in", "account.signIn", "current-password"),
        ("sign-up", "account.signUp", "new-password"),
    ):
        rules = form == "sign-up"
        name_hint = f' aria-describedby="{form}-name-rules"' if rules else ""
        password_hint = f' aria-describedby="{form}-password-rules"' if rules else ""
        low, high = NAME_LENGTHS
        name_rules = (
            f'<p id="{form}-name-rules" class="rules">{escape(words["account.nameRules"])}</p>'
            if rules else ""
        )
        password_rules = (
            f'<p id="{form}-password-rules" class="rules">'
            f'{escape(words["account.passwordRules"])}</p>' if rules else ""
        )
        # The pattern and lengths only mirror the server's rules, which decide.
        pattern = r' pattern="[A-Za-z][A-Za-z0-9_\-]*"' if rules else ""
        forms.append(
            f'<section aria-labelledby="{form}-heading"><h2 id="{form}-heading">'
            f"{escape(words[action])}</h2>"
            f'<form id="{form}" class="account-form" {refusals}>'
            f'<p><label>{escape(words["account.name"])}<br><input name="name" required '
            f'autocomplete="username" minlength="{low}" maxlength="{high}"{pattern}'
            f"{name_hint}></label></p>{name_rules}"
            f'<p><label>{escape(words["account.password"])}<br><input name="password" '
            f'type="password" required autocomplete="{autocomplete}" '
            f'minlength="{PASSWORD_LENGTHS[0]}" maxlength="{PASSWORD_LENGTHS[1]}"'
            f"{password_hint}></label></p>{password_rules}"
            f'<p class="refusal" role="alert"></p>'
            f'<p><button type="submit">{escape(words[action])}</button></p></form></section>'
        )
    return f'<p>{escape(words["account.guest"])}</p>{"".join(forms)}'


def _player(player: PlayerView, words: dict[str, str], lang: str) -> str:
    facts = (
        f'<dl class="facts"><dt>{escape(words["player.rating"])}</dt>'
        f"<dd>{number(player.rating, lang)}</dd>"
        f'<dt>{escape(words["player.experience"])}</dt>'
        f"<dd>{number(player.experience, lang, places=0)}</dd>"
        f'<dt>{escape(words["player.since"])}</dt><dd>{player.created[:10]}</dd></dl>'
    )
    if not player.results:
        return f'{facts}<p>{escape(words["player.none"])}</p>'
    rows = []
    for result in player.results:
        opponent = f"/players/{quote(result.opponent)}?lang={lang}"
        outcome = words["player.won"] if result.won else words["player.lost"]
        rows.append(
            f"<tr><td>{result.finished[:10]}</td>"
            f'<td><a href="{opponent}">{escape(result.opponent)}</a></td>'
            f"<td>{number(result.length, lang, places=0)}</td><td>{escape(outcome)}</td>"
            f'<td class="number">{number(result.change, lang, signed=True)}</td>'
            f'<td class="number">{number(result.rating_after, lang)}</td></tr>'
        )
    heads = "".join(
        f'<th scope="col">{escape(words[key])}</th>'
        for key in ("player.date", "player.opponent", "player.length", "player.result",
                    "player.change", "player.after")
    )
    return (
        f'{facts}<h2>{escape(words["player.history"])}</h2>{_chart(player, words, lang)}'
        f'<h2>{escape(words["player.results"])}</h2>'
        f'<table class="results"><thead><tr>{heads}</tr></thead>'
        f'<tbody>{"".join(rows)}</tbody></table>'
    )


def _chart(player: PlayerView, words: dict[str, str], lang: str) -> str:
    """The rating before the first rated match and after each, as a line (oldest left); its
    text alternative says where it starts and ends, and the table below holds every value."""
    oldest_first = player.results[::-1]
    ratings = [oldest_first[0].rating_before, *(result.rating_after for result in oldest_first)]
    low, high = min(ratings), max(ratings)
    span = (high - low) or 1.0
    width, height = 320, 120
    step = width / (len(ratings) - 1)
    points = " ".join(
        f"{index * step:.1f},{height - (rating - low) / span * height:.1f}"
        for index, rating in enumerate(ratings)
    )
    label = words["player.chart"].format(
        first=number(ratings[0], lang), last=number(ratings[-1], lang)
    )
    return (
        f'<svg class="rating-chart" viewBox="-4 -4 {width + 8} {height + 8}" role="img" '
        f'aria-label="{escape(label)}"><polyline points="{points}" fill="none" '
        'stroke="currentColor" stroke-width="2"/></svg>'
    )


def _page(lang: str, title: str, body: str, script: bool = False) -> str:
    words = catalogue(lang)
    return render_template(
        "players.html",
        lang=lang,
        dir=words.get("meta.dir", "ltr"),
        title=f"{title} · {words['app.title']}",
        stylesheets=("/help/help.css", "/css/account.css"),
        scripts=("/js/account.js",) if script else (),
        back=words["account.back"],
        heading=title,
        content=Markup(body),  # made of escaped words (:func:`_forms`, :func:`_player`)
    )
