"""The web app: the REST API under /api (documented at /docs), live updates over a WebSocket,
and the browser page (``backgammon/web``) at /.

:func:`create_app` builds the app's parts once, each given what it needs as it is made
(:class:`Parts`), then the app around them: its state, its guards, its routers.
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.telemetry import TelemetryConfig
from sqlalchemy import Engine
from starlette.exceptions import HTTPException

from .accounts import routes as account_routes
from .accounts.ratings import Ratings
from .accounts.sessions import CsrfGuard, Sessions
from .accounts.users import Accounts
from .analysis import routes as analysis_routes
from .analysis.analyses import Analyses
from .chat import routes as chat_routes
from .chat.rooms import Chats
from .db import Checkpoints, is_shared, make_engine, migrate
from .editor.routes import router as editor_router
from .engine_api.rollouts import Rollouts
from .engine_api.rollouts import router as rollouts_router
from .engine_api.routes import router as engine_router
from .http.assets import page_files
from .http.errors import invalid_request, refused
from .http.guards import BodyLimit, BoundedPool, RateLimits, SocketCaps
from .http.headers import SecurityHeaders, mask_access_log
from .lobby import routes as lobby_routes
from .pages import help, players, tutorial
from .play.action_calls import ACTION_SCHEMAS
from .play.computer import Computer
from .play.idempotency import ActionKeys
from .play.relay import Relay
from .play.routes import actions, fair_dice, hints, matches, rematches, tutor, updates
from .play.service import MatchService
from .play.store import MatchStore
from .play.watchers import Hub
from .settings import Settings
from .tournaments import routes as tournament_routes
from .tournaments.pages import router as tournament_pages
from .tournaments.service import Tournaments
from .trainer.browser_deck import router as browser_deck_router
from .trainer.deck import Deck
from .trainer.routes import router as trainer_router
from .trainer.turns import router as trainer_turns

WEB = Path(__file__).resolve().parent.parent / "web"
#: FastAPI's OpenTelemetry, off (``BACKGAMMON_TELEMETRY``).
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}
#: Allocations between collections of the youngest objects (Python's default is 700).
GC_YOUNGEST = 50_000


def create_app(settings: Settings | None = None) -> FastAPI:
    """The app, its database migrated to the newest schema (settings from the environment
    unless given)."""
    settings = settings or Settings.from_env()
    parts = Parts.build(settings)
    app = FastAPI(
        title="Backgammon",
        summary="Play backgammon: matches and money sessions, one action at a time.",
        lifespan=parts.lifespan,
        telemetry=None if settings.telemetry else NO_TELEMETRY,
    )
    parts.serve(app)
    _guard(app, settings)
    _route(app)
    app.openapi = partial(_openapi, app, app.openapi)  # type: ignore[method-assign]
    return app


@dataclass(frozen=True)
class Parts:
    """What the app is made of, each part made once with what it needs."""

    settings: Settings
    engine: Engine
    hub: Hub
    store: MatchStore
    computer: Computer
    matches: MatchService
    keys: ActionKeys
    ratings: Ratings
    hint_pool: BoundedPool
    rollouts: Rollouts
    analyses: Analyses
    users: Accounts
    checkpoints: Checkpoints
    chats: Chats
    tournaments: Tournaments

    @classmethod
    def build(cls, settings: Settings) -> Parts:
        """The parts, on the database ``settings`` name, migrated to the newest schema."""
        engine = make_engine(settings.database_url)
        migrate(engine)
        hub, store = _matches(engine, settings)
        computer = Computer(store, hub, settings.computer_pause)
        keys, ratings = ActionKeys(engine), Ratings(engine)
        tournaments = Tournaments(
            engine, store, settings.claim_seconds, settings.tournament_sweep
        )
        hint_pool = BoundedPool(
            settings.hint_workers, settings.hint_queue,
            "The computer is busy with other hints; ask again in a moment.",
        )
        return cls(
            settings=settings,
            engine=engine,
            hub=hub,
            store=store,
            computer=computer,
            matches=MatchService(store, hub, computer, keys, ratings, tournaments.ended),
            keys=keys,
            ratings=ratings,
            hint_pool=hint_pool,
            rollouts=Rollouts(
                hint_pool, settings.rollouts_per_client, settings.rollouts_most,
                settings.rollout_keep,
            ),
            analyses=Analyses(
                engine, settings.analysis_plies, settings.analysis_workers,
                settings.analysis_queue, settings.analysis_per_client,
            ),
            users=Accounts(engine, queue=settings.hashing_queue),
            checkpoints=Checkpoints(engine),
            chats=Chats(store, hub, hub.relay),
            tournaments=tournaments,
        )

    @asynccontextmanager
    async def lifespan(self, _app: FastAPI) -> AsyncIterator[None]:
        """Start the parts that run beside the requests, and stop them all at the end."""
        # Fewer, later collections of the youngest objects: most of what an action makes is
        # gone by then, so less is promoted, and the full collections, which look at every
        # match in memory and paused all answers for up to 0.3 s under load, come rarely.
        gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])
        # What the app is made of (some 170,000 objects: the modules, the routes, the
        # schemas) lives as long as the process: kept out of every collection, the full ones,
        # 0.1 s each on this machine for those alone, look only at what came after.
        gc.freeze()
        self.checkpoints.start()
        await self.store.open()
        if self.hub.relay is not None:
            await self.hub.relay.start()
        self.tournaments.start()
        yield
        await self.tournaments.close()
        await self.computer.settle()
        await self.store.settle()
        await self.chats.settle()
        await self.store.close()
        if self.hub.relay is not None:
            await self.hub.relay.close()
        await self.analyses.settle()
        await self.rollouts.settle()
        self.hint_pool.close()
        self.users.close()
        self.checkpoints.stop()
        self.engine.dispose()

    def serve(self, app: FastAPI) -> None:
        """Give ``app``'s requests the parts (``app.state``, which the dependencies read),
        with the guards' own state."""
        settings, state = self.settings, app.state
        state.settings = settings
        state.store, state.hub, state.computer = self.store, self.hub, self.computer
        state.matches, state.keys, state.ratings = self.matches, self.keys, self.ratings
        state.hint_pool, state.analyses, state.accounts = (
            self.hint_pool, self.analyses, self.users
        )
        state.chats, state.rollouts = self.chats, self.rollouts
        state.tournaments = self.tournaments
        state.trainer = Deck(self.engine)
        state.socket_caps = SocketCaps(settings.sockets_per_client, settings.sockets_per_match)
        state.sessions = Sessions(self.engine, settings.session_days)
        state.limits = RateLimits(
            {
                "create": settings.create_rate,
                "hint": settings.hint_rate,
                "action": settings.action_rate,
                "upload": settings.upload_rate,
                "signin": settings.signin_rate,
                "account": settings.account_rate,
                "chat": settings.chat_rate,
            },
            settings.redis_url,
        )


def _matches(engine: Engine, settings: Settings) -> tuple[Hub, MatchStore]:
    """The pages watching the matches and the matches in memory, and between them, where
    other processes serve the same matches (Redis), the relay: the store tells it of each
    save, the hub follows the matches watched here through it, and what it hears of another
    process's save brings this copy up to its row (:meth:`MatchStore.heard`). Its callbacks
    are called only once it has started (the app's start), when ``hub`` and ``store`` are
    made."""
    relay = None
    if settings.redis_url is not None:
        relay = Relay(
            settings.redis_url,
            lambda match_id, version: store.heard(match_id, version),
            lambda: _resync(store, hub),
        )
    hub = Hub(settings.watcher_queue, relay=relay)
    store = MatchStore(
        engine,
        settings.live_matches,
        settings.idle_seconds,
        hub.watching,
        shared=is_shared(engine),
        shown=lambda live, again: hub.publish(live, again=again),
        saved=None if relay is None else relay.tell,
    )
    return hub, store


def _resync(store: MatchStore, hub: Hub) -> None:
    """When notices may have been missed (the relay's connection to Redis came back): every
    match watched here is brought up to its row."""
    for match_id in list(hub.watchers):
        live = store.cached(match_id)
        if live is not None:
            store.refresh_soon(live)


def _guard(app: FastAPI, settings: Settings) -> None:
    """The layers every request passes, and the refusals' shape."""
    # An upload, and the cards a browser kept, sent to the account's deck at its sign-in.
    larger = {"/api/analyses": settings.max_upload,
              "/api/trainer/browser-cards": settings.max_upload}
    app.add_middleware(BodyLimit, max_bytes=settings.max_body, larger=larger)
    app.add_middleware(CsrfGuard)
    app.add_middleware(SecurityHeaders)  # outermost: every answer, refusals too
    mask_access_log()
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(HTTPException, refused)


def _route(app: FastAPI) -> None:
    """The routers, in the order they are tried, then the page's files."""
    # The actions first: they are most of the requests, and the routes are tried in order.
    app.include_router(actions.router)
    app.include_router(lobby_routes.router)  # before matches: /api/matches/join is no match id
    app.include_router(matches.router)
    app.include_router(fair_dice.router)
    app.include_router(rematches.router)
    app.include_router(chat_routes.router)
    app.include_router(hints.router)
    app.include_router(tutor.router)
    app.include_router(analysis_routes.router)
    app.include_router(engine_router)
    app.include_router(rollouts_router)
    app.include_router(updates.router)
    app.include_router(account_routes.router)
    app.include_router(players.router)
    app.include_router(tournament_routes.router)
    app.include_router(tournament_pages)
    app.include_router(help.router)  # before the page's files, which would answer /help/ too
    app.include_router(tutorial.router)
    app.include_router(editor_router)
    app.include_router(trainer_router)
    app.include_router(browser_deck_router)
    app.include_router(trainer_turns)
    app.mount("/", page_files(WEB), name="web")


def _openapi(app: FastAPI, make: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The OpenAPI document, made once, with the schemas of the kinds of action (the action
    route reads its body itself: :mod:`.play.action_calls`)."""
    if app.openapi_schema is None:
        make().setdefault("components", {}).setdefault("schemas", {}).update(ACTION_SCHEMAS)
    assert app.openapi_schema is not None  # made by ``make``
    return app.openapi_schema
