"""The web app: the REST API under /api (documented at /docs), live updates over a WebSocket,
and the browser page (``backgammon/web``) at /."""

from __future__ import annotations

import gc
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.telemetry import TelemetryConfig
from starlette.exceptions import HTTPException
from starlette.responses import Response

from .accounts import routes as account_routes
from .accounts.ratings import Ratings
from .accounts.sessions import CsrfGuard, Sessions
from .accounts.users import Accounts
from .analysis import routes as analysis_routes
from .analysis.analyses import Analyses
from .db import Checkpoints, is_shared, make_engine, migrate
from .engine_api.routes import router as engine_router
from .http.guards import BodyLimit, BoundedPool, RateLimits, SocketCaps
from .http.headers import SecurityHeaders, mask_access_log
from .lobby import routes as lobby_routes
from .pages import help, players, tutorial
from .play.action_calls import ACTION_SCHEMAS
from .play.computer import Computer
from .play.idempotency import ActionKeys
from .play.news import read_news
from .play.relay import Relay
from .play.routes import actions, fair_dice, hints, matches, updates
from .play.service import MatchService
from .play.store import MatchStore
from .play.views import Shown
from .play.watchers import Hub
from .settings import Settings

WEB = Path(__file__).resolve().parent.parent / "web"
#: FastAPI's OpenTelemetry, off (``BACKGAMMON_TELEMETRY``).
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
#: Allocations between collections of the youngest objects (Python's default is 700).
GC_YOUNGEST = 50_000


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app, its database migrated to the newest schema (settings from the environment
    unless given)."""
    settings = settings or Settings.from_env()
    engine = make_engine(settings.database_url)
    migrate(engine)

    hub = Hub(settings.watcher_queue)
    store = MatchStore(
        engine,
        settings.live_matches,
        settings.idle_seconds,
        hub.watching,
        shared=is_shared(engine),
    )
    store.shown = lambda live, shared, again: hub.publish(
        live, again=again, shown=Shown(live, shared)
    )
    if settings.redis_url is not None:
        hub.relay = _relay(settings.redis_url, store, hub)
        store.saved, store.telling = hub.relay.tell, True
    computer = Computer(store, hub, settings.computer_pause)
    hint_pool = BoundedPool(
        settings.hint_workers, settings.hint_queue,
        "The computer is busy with other hints; ask again in a moment.",
    )
    analyses = Analyses(
        engine, settings.analysis_plies, settings.analysis_workers, settings.analysis_queue,
        settings.analysis_per_client,
    )
    users = Accounts(engine, queue=settings.hashing_queue)
    checkpoints = Checkpoints(engine)
    keys = ActionKeys(engine)
    ratings = Ratings(engine)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Fewer, later collections of the youngest objects: most of what an action makes is
        # gone by then, so less is promoted, and the full collections, which look at every
        # match in memory and paused all answers for up to 0.3 s under load, come rarely.
        gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])
        # What the app is made of (some 170,000 objects: the modules, the routes, the
        # schemas) lives as long as the process: kept out of every collection, the full ones,
        # 0.1 s each on this machine for those alone, look only at what came after.
        gc.freeze()
        checkpoints.start()
        await store.open()
        if hub.relay is not None:
            await hub.relay.start()
        yield
        await computer.settle()
        await store.settle()
        await store.close()
        if hub.relay is not None:
            await hub.relay.close()
        await analyses.settle()
        hint_pool.close()
        users.close()
        checkpoints.stop()
        engine.dispose()

    app = FastAPI(
        title="Backgammon",
        summary="Play backgammon: matches and money sessions, one action at a time.",
        lifespan=lifespan,
        telemetry=None if settings.telemetry else NO_TELEMETRY,
    )
    app.state.settings = settings
    app.state.store = store
    app.state.hub = hub
    app.state.computer = computer
    app.state.hint_pool = hint_pool
    app.state.socket_caps = SocketCaps(settings.sockets_per_client, settings.sockets_per_match)
    app.state.analyses = analyses
    app.state.accounts = users
    app.state.keys = keys
    app.state.matches = MatchService(store, hub, computer, keys, ratings)
    app.state.sessions = Sessions(engine, settings.session_days)
    app.state.ratings = ratings
    app.state.limits = RateLimits(
        {
            "create": settings.create_rate,
            "hint": settings.hint_rate,
            "action": settings.action_rate,
            "upload": settings.upload_rate,
            "signin": settings.signin_rate,
            "account": settings.account_rate,
        },
        settings.redis_url,
    )
    app.add_middleware(
        BodyLimit, max_bytes=settings.max_body, larger={"/api/analyses": settings.max_upload}
    )
    app.add_middleware(CsrfGuard)
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals too
    mask_access_log()
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(HTTPException, _refused)
    # The actions first: they are most of the requests, and the routes are tried in order.
    app.include_router(actions.router)
    app.include_router(lobby_routes.router)  # before matches: /api/matches/join is not a match id
    app.include_router(matches.router)
    app.include_router(fair_dice.router)
    app.include_router(hints.router)
    app.include_router(analysis_routes.router)
    app.include_router(engine_router)
    app.include_router(updates.router)
    app.include_router(account_routes.router)
    app.include_router(players.router)
    app.include_router(help.router)  # before the page's files, which would answer /help/ too
    app.include_router(tutorial.router)
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    app.openapi = partial(_openapi, app, app.openapi)  # type: ignore[method-assign]
    return app


def _openapi(app: FastAPI, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The OpenAPI document, made once, with the schemas of the kinds of action (the action
    route reads its body itself: :mod:`.action_calls`)."""
    if app.openapi_schema is None:
        make().setdefault("components", {}).setdefault("schemas", {}).update(ACTION_SCHEMAS)
    assert app.openapi_schema is not None  # made by ``make``
    return app.openapi_schema


def _relay(url: str, store: MatchStore, hub: Hub) -> Relay:
    """The relay to the other processes: a notice of a newer version of a match watched here
    shows its pages the state it tells, this copy taking its news when next used, or where
    it cannot, brings this copy up to its row (from the notice's news where it can)."""

    def heard(match_id: str, version: int, news: str | None) -> None:
        live = store.cached(match_id)
        # A match waiting for its opponent hears of its seat taken at the version it has.
        if live is None or not (live.version < version or live.seating.invite is not None):
            return
        # Read once, here (None: no news, or none this process understands: the row is read).
        told = None if news is None else read_news(news)
        if (told is not None and told.shared is not None and told.sides is not None
                and store.may_hold(live)
                and hub.told(match_id, version, told.before, told.shared, told.sides)):
            store.hold(live, version, told)  # taken when the match is next used
        else:
            store.refresh_soon(live, version, told)

    def resync() -> None:
        for match_id in list(hub.watchers):
            live = store.cached(match_id)
            if live is not None:
                store.refresh_soon(live)

    return Relay(url, heard, resync)


async def _invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """A malformed request: 422 with one sentence saying what is wrong, and each problem's
    place, kind and message. What was sent is never echoed (:func:`_unechoed`): it may be
    a script, something JSON cannot hold (NaN, a lone surrogate) or megabytes long."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "loc": _place(error),
            "type": _printable(error.get("type", "")),
            "msg": _unechoed(str(_printable(error.get("msg", ""), 300)), _sent(error)),
        }
        for error in exc.errors()
    ]
    return JSONResponse(status_code=422, content={"detail": _sentence(errors), "errors": errors})


def _place(error: Any) -> list[str | int]:
    """An error's place, each name in it as the schemas spell names (an unknown field's too:
    a word of at most 40 letters, digits, ``_`` or ``-`` can carry no markup), any other
    left out.

    >>> _place({"loc": ("body", "names", 0), "type": "string_type"})
    ['body', 'names', 0]
    >>> _place({"loc": ("body", "<b>x</b>"), "type": "extra_forbidden"})
    ['body', '…']
    """
    return [
        part if isinstance(part, int) and not isinstance(part, bool)
        else str(part) if _NAME.fullmatch(str(part)) else "…"
        for part in error.get("loc", ())
    ]


def _sent(error: Any) -> set[str]:
    """What a validation error's message may quote of what was sent: its input, and the tag
    of a union's, where they are text or numbers."""
    found = (error.get("input"), (error.get("ctx") or {}).get("tag"))
    return {str(each) for each in found if isinstance(each, str | int | float)}


#: A field's name as the API's schemas spell them (a header's with hyphens).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")
#: A quoted piece of a message (Python's repr of a string, pydantic's quoting of an input): an
#: opening quote not after a letter (an apostrophe is), the closing one not before a letter.
_QUOTED = re.compile(r"""(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|(?<![A-Za-z])"[^"\n]*"(?![A-Za-z])""")


def _unechoed(text: str, sent: set[str] | None = None) -> str:
    """``text`` with the quoted pieces that are in ``sent`` left out (None: every quoted
    piece): the messages of the rules and of pydantic quote what they were given (an ID, a
    move, a line of a file), which a refusal must not send back (a script reflected, a
    megabyte answered to a megabyte). Where what was sent is not known, every quoted piece
    goes, the examples of the server's own sentences too.

    >>> _unechoed("There is no match with the id '<script>'.")
    'There is no match with the id ….'
    >>> _unechoed("Line 4: Cannot read '31: 8/4': a player's entry reads as '52: 13/8'.")
    "Line 4: Cannot read …: a player's entry reads as …."
    >>> _unechoed("Input tag 'fly' found using 'action'", {"fly"})
    "Input tag … found using 'action'"
    """

    def left_out(quoted: re.Match[str]) -> str:
        return "…" if sent is None or quoted.group()[1:-1] in sent else quoted.group()

    return _QUOTED.sub(left_out, text)


#: Starlette's and FastAPI's own refusals, said as sentences.
_SENTENCES = {
    400: "The request could not be read: its body is not JSON text.",
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
}


async def _refused(request: Request, exc: Exception) -> Response:
    """A refusal, with its detail a sentence even where the framework wrote a phrase."""
    assert isinstance(exc, HTTPException)
    detail = exc.detail
    if not (isinstance(detail, str) and detail.endswith(".")):
        detail = _SENTENCES.get(exc.status_code, f"The request is refused ({detail}).")
    detail = _unechoed(detail)
    changed = HTTPException(exc.status_code, detail, exc.headers)
    return await http_exception_handler(request, changed)


def _printable(part: object, longest: int = 40) -> str | int:
    """A piece of an error as JSON can hold it: short, and without lone surrogates.

    >>> _printable(3), _printable("name"), _printable("\\ud800x"), len(_printable("n" * 99))
    (3, 'name', '?x', 41)
    """
    if isinstance(part, int) and not isinstance(part, bool):
        return part
    text = str(part).encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= longest else text[:longest] + "…"


def _sentence(errors: Sequence[Any]) -> str:
    if not errors:
        return "The request is malformed."
    first = errors[0]
    where = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        return "The request's body is not valid JSON."
    if where == ("body",) and first.get("type") == "model_attributes_type":
        return "The request's body is not a JSON object."
    place = " → ".join(str(part) for part in where)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"The request is malformed at {place}: {first.get('msg', 'invalid')}{more}."
