"""The tournaments' pages, rendered by the server in the page's language: the list (open,
running, finished) with the form that creates one, and each tournament's page (its facts,
its players, its draw or table, its standings), whose live part ``/js/tournament.js`` reads
again every few seconds (``?part=live``) and puts in place when its version has moved.

The words are the game's catalogue's (``web/messages/<lang>.json``, the keys
``tournament.*``), as the players' pages' are.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from ...cube import MAX_MATCH_LENGTH
from ...games import TAVLI_MATCH
from ..accounts.sessions import Viewer
from ..http.assets import PageResponse
from ..pages.players import catalogue, number, page_language
from ..pages.templates import render
from .draw import MOST_ELIMINATION, MOST_ROUND_ROBIN, elimination_rounds
from .routes import TournamentId, TournamentsDep
from .schemas import Game, TournamentView
from .views import view_of

router = APIRouter(tags=["tournaments"], include_in_schema=False)

Lang = Annotated[str | None, Query(max_length=8, description="the page's language")]
Part = Annotated[Literal["live"] | None, Query(description="only the part that changes")]
#: The clocks offered, in the form's order.
CLOCKS = ("none", "fast", "normal", "casual")
#: The games offered, in the form's order (the main page's setup's), each with the key of
#: its name there: a Tavli match said in full.
GAMES = tuple((game, "game.tavliMatch" if game == TAVLI_MATCH else f"game.{game}")
              for game in get_args(Game))


def game_title(game: str, words: dict[str, str]) -> str:
    """The name of ``game`` in the catalogue ``words`` (a Tavli match's short one).

    >>> game_title("long-nardy", catalogue("en")), game_title("tavli", catalogue("en"))
    ('Long Nardy', 'Tavli')
    """
    return words[f"game.{game}"]


def _page(template: str, lang: str, title: str, **values: Any) -> str:
    words = catalogue(lang)
    return render(
        template,
        lang=lang,
        dir=words.get("meta.dir", "ltr"),
        title=f"{title} · {words['app.title']}",
        stylesheets=("/help/help.css", "/css/account.css", "/css/tournament.css"),
        scripts=("/js/tournament.js",),
        say=words,
        heading=title,
        **values,
    )


@router.get("/tournaments", response_class=HTMLResponse)
async def list_page(request: Request, tournaments: TournamentsDep, viewer: Viewer,
                    lang: Lang = None) -> HTMLResponse:
    """The tournaments open to join, running and finished, and, signed in, the player's own
    (those with a match waiting for them said so) and the form that creates one."""
    code = page_language(lang, request.headers.get("accept-language", ""))
    words = catalogue(code)
    found: dict[str, list[dict[str, Any]]] = {"open": [], "running": [], "finished": []}
    for row, players in await run_in_threadpool(tournaments.listing):
        found[row.status].append({
            "href": f"/tournaments/{row.id}?lang={code}",
            "name": row.name,
            "about": words["tournament.summary"].format(
                game=game_title(row.game, words),
                kind=words[f"tournament.kind.{row.kind}"],
                length=number(row.length, code, places=0),
                players=number(players, code, places=0),
                most=number(row.max_players, code, places=0)),
        })
    yours = [] if viewer is None else [
        {"href": f"/tournaments/{tournament.id}?lang={code}", "name": tournament.name,
         "about": words["tournament.yourMatch" if tournament.match_of(viewer.id)
                        else f"tournament.status.{tournament.status}"]}
        for tournament in await run_in_threadpool(tournaments.entered, viewer.id)
    ]
    return PageResponse(_page(
        "tournaments.html", code, words["tournament.listTitle"], lists=found, yours=yours,
        signed_in=viewer is not None, clocks=CLOCKS, games=GAMES, longest=MAX_MATCH_LENGTH,
        most=MOST_ELIMINATION, most_round_robin=number(MOST_ROUND_ROBIN, code, places=0),
    ))


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(tournament_id: TournamentId, request: Request,
                          tournaments: TournamentsDep, viewer: Viewer, lang: Lang = None,
                          part: Part = None) -> HTMLResponse:
    """A tournament: what it is, who plays, its draw and standings, and the viewer's
    buttons (join, leave, cancel, play their match)."""
    code = page_language(lang, request.headers.get("accept-language", ""))
    words = catalogue(code)
    try:
        tournament = await run_in_threadpool(tournaments.read, tournament_id)
    except HTTPException:
        missing = _page("tournament.html", code, words["tournament.notFound"], shown=None)
        return PageResponse(missing, status_code=404)
    view = view_of(tournament, viewer)
    shown = _shown(view, viewer is not None, viewer is not None and
                   tournament.creator == viewer.id, code)
    if part == "live":
        return HTMLResponse(render("tournament_live.html", say=words, shown=shown))
    return PageResponse(_page("tournament.html", code, view.name, shown=shown))


def _rounds(view: TournamentView, words: dict[str, str], lang: str) -> list[dict[str, Any]]:
    """The draw's rounds, each titled (the final, the semi-finals, round N) with its
    pairings as the page shows them."""
    rounds = elimination_rounds(len(view.players)) if view.kind == "elimination" else 0
    by_round: dict[int, list[dict[str, Any]]] = {}
    for pairing in view.draw:
        by_round.setdefault(pairing.round, []).append({
            "players": pairing.players,
            "winner": pairing.winner,
            "points": [number(points, lang, places=0) for points in pairing.points],
            "watch": None if pairing.match is None else f"/?match={pairing.match}",
            "bye": pairing.players[1] is None,
        })
    named = []
    for round_, pairings in sorted(by_round.items()):
        if view.kind == "elimination" and round_ == rounds - 1:
            title = words["tournament.final"]
        elif view.kind == "elimination" and round_ == rounds - 2:
            title = words["tournament.semifinals"]
        else:
            title = words["tournament.round"].format(number=number(round_ + 1, lang, places=0))
        named.append({"title": title, "pairings": pairings})
    return named


def _shown(view: TournamentView, signed_in: bool, creator: bool, lang: str) -> dict[str, Any]:
    """What the tournament's page shows, its numbers in ``lang``'s digits."""
    words = catalogue(lang)
    starts = (words["tournament.whenFull"] if view.starts_at is None
              else view.starts_at.strftime("%Y-%m-%d %H:%M UTC"))
    return {
        "id": view.id,
        "kind": view.kind,
        "game": view.game,
        "version": view.version,
        "status": view.status,
        "status_text": words[f"tournament.status.{view.status}"],
        "facts": [
            (words["setup.game"], game_title(view.game, words)),
            (words["tournament.kind"], words[f"tournament.kind.{view.kind}"]),
            (words["tournament.length"], number(view.length, lang, places=0)),
            (words["tournament.clock"], words[f"tournament.clock.{view.time_control}"]),
            (words["tournament.rated"], words["tournament.yes" if view.rated else "tournament.no"]),
            (words["tournament.players"], words["tournament.count"].format(
                players=number(len(view.players), lang, places=0),
                most=number(view.max_players, lang, places=0))),
            (words["tournament.starts"], starts),
            (words["tournament.creator"], view.creator),
        ],
        "winner": None if view.winner is None
        else words["tournament.won"].format(name=view.winner),
        "players": [{"name": p.name, "rating": number(p.rating, lang),
                     "seed": None if p.seed is None else number(p.seed, lang, places=0)}
                    for p in view.players],
        "rounds": _rounds(view, words, lang),
        "standings": [
            {"place": number(s.place, lang, places=0), "name": s.name,
             "figures": [number(value, lang, places=0)
                         for value in (s.wins, s.losses, s.points_won, s.points_lost)]}
            for s in view.standings
        ],
        "signed_in": signed_in,
        "can_join": signed_in and view.status == "open" and not view.joined
        and len(view.players) < view.max_players,
        "can_leave": signed_in and view.status == "open" and view.joined and not creator,
        "can_cancel": creator and view.status == "open",
        "your_match": view.your_match,
    }
