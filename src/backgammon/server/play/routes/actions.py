"""Actions: one move of the game at a time; the computer answers in the background."""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.exceptions import RequestValidationError
from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from ....errors import BackgammonError
from ....game import Act, Action
from ....match import Match
from ....position import WinKind
from ...accounts.ratings import Ratings
from ...http.guards import count
from ..action_calls import ACTION_DOCS, read_action
from ..computer import Computer
from ..deps import check_holds, get_match_to_act, held_by
from ..idempotency import ActionKeys, KeptKey, digest
from ..live import LiveMatch, as_it_was
from ..saves import MatchChangedError
from ..schemas import (
    ActionRequest,
    Claim,
    Play,
    Resign,
    State,
    Step,
)
from ..store import MatchStore
from ..views import Shown, claim_refusal, claim_window
from ..watchers import Hub

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/matches", tags=["actions"])


@router.post(
    "/{match_id}/actions",
    response_model=State,
    responses={
        401: {"description": "no seat token"},
        403: {"description": "the token holds no seat of the match, or not this one (a "
              "computer's seat is nobody's)"},
        404: {"description": "no such match"},
        409: {"description": "not allowed now: out of turn, an illegal step, a stale version"},
        422: {"description": "a malformed request, or an Idempotency-Key sent before with "
              "another action"},
        429: {"description": "too many actions from this address"},
    },
    openapi_extra=ACTION_DOCS,
)
async def post_action(request: Request) -> Response:
    """Make one action for a seat, on the state's ``version`` it names (a stale one is
    refused, 409, and changes nothing: the same action sent twice acts once); the answer is
    the state after it. The computer's replies, if it is to act, follow in the background,
    each pushed to the watching pages. The request carries the token of the seat that acts
    (``Authorization: Bearer <token>``), and may carry an ``Idempotency-Key``: the action
    sent again with it is answered as the first time (with ``Idempotent-Replayed: true``)
    and applies nothing; the key sent with another action is refused (422). With
    ``record_since`` (the version the client holds, usually the one it acts on) the answer's
    record holds only what changed after it. A page watching the match that names itself
    (``Watcher-Id``, as it named its WebSocket) is not pushed the state the answer carries."""
    # The request is read in one step (action_calls), not parameter by parameter as FastAPI
    # reads a route's: counted first, then checked, then its match and seat looked up.
    await count(request, "action")
    action, options, token = await read_action(request)
    live = await get_match_to_act(options.match_id, request)
    check_holds(await held_by(live, request, token), action.seat)
    app = request.app.state
    store: MatchStore = app.store
    hub: Hub = app.hub
    computer: Computer = app.computer
    ratings: Ratings = app.ratings
    keys: ActionKeys = app.keys
    key, view, record_since = options.key, options.view, options.record_since
    side = action.seat if view is None else view
    asked = "" if key is None else digest(action.model_dump_json(by_alias=True), view)
    async with live.lock:
        if key is not None:
            keys.check(live.id, action.seat, key, asked)
        if (live.stale or live.news or action.version != live.version
                or live.seating.invite is not None):
            # Another process may have acted: a copy behind the version named takes the
            # news held, and reads its row unless that brings it to the version last heard
            # of, which the action names or is behind (on the version it holds, the save's
            # version check finds a change elsewhere).
            await store.current(live, live.heard if action.version <= live.heard else -1)
        if action.version != live.version:
            kept = None if key is None else await keys.version(live.id, action.seat, key, asked)
            if kept is not None:  # a resend of an action applied already
                return _replayed(live, kept, side, record_since)
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                f"The action was made on version {action.version} of the game, "
                f"which is now at version {live.version}; look again and retry.",
            )
        if live.match.is_over:
            raise HTTPException(status.HTTP_409_CONFLICT, "The match is over.")
        if live.seating.invite is not None:
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                "The match waits for its opponent to take the other seat with the invite.",
            )
        if isinstance(action, Claim):
            _check_claim(live, action.seat)
        before = live.version
        try:
            apply(live.match, action)
        except BackgammonError as exc:
            raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
        # The state is made once, for the answer (kept with the key) and the watching pages,
        # those another process serves included: its shared part goes with the save's news.
        shown = Shown(live)
        keeping = None if key is None else KeptKey(action.seat, key, asked)
        told = shown.told(before) if store.telling else None
        try:
            await save_or_refuse(store, live, before, keeping, ratings.counting(live), told)
        except HTTPException as refused:
            # The same action, sent again to another process at once, may have been kept
            # there first: it is answered as that one was.
            if key is None or refused.status_code != status.HTTP_409_CONFLICT:
                raise
            kept = await keys.version(live.id, action.seat, key, asked)
            if kept is None:
                raise
            await store.current(live)  # this copy made the action too: the row's is kept
            return _replayed(live, kept, side, record_since)
        if key is not None:
            keys.note(live.id, action.seat, key, asked)
        hub.publish(live, shown=shown, answered=options.watcher)
        computer.wake(live)
    return shown.response(side, record_since)


#: What answers a refusal (the app's handler of its kind of exception).
Answer = Callable[[Request, Exception], Awaitable[Response]]


class DirectActions:
    """ASGI middleware: an action (``POST /api/matches/{match_id}/actions``) goes straight
    to :func:`post_action`, its refusals answered by the app's handlers (``refused`` for an
    HTTPException, ``malformed`` for a RequestValidationError), past FastAPI's routing and
    the layers around it (its exception middleware, its exit stack, its request handler),
    which cost an online action a tenth of its CPU (``bench/server/server.py``). Every other
    request, and an action the pattern does not see (under a root path), goes on to the app,
    whose route is the same function, documented at /docs. Placed inside the app's guards
    (the body's limit, CSRF), so that they hold for actions too."""

    PATH = re.compile(r"/api/matches/([^/]+)/actions")

    def __init__(self, app: ASGIApp, refused: Answer, malformed: Answer) -> None:
        self.app = app
        self.refused = refused
        self.malformed = malformed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = (
            self.PATH.fullmatch(scope["path"])
            if scope["type"] == "http" and scope["method"] == "POST"
            else None
        )
        if found is None:
            await self.app(scope, receive, send)
            return
        scope["path_params"] = {"match_id": found[1]}
        request = Request(scope, receive, send)
        try:
            response = await post_action(request)
        except StarletteHTTPException as exc:
            response = await self.refused(request, exc)
        except RequestValidationError as exc:
            response = await self.malformed(request, exc)
        await response(scope, receive, send)


def _replayed(live: LiveMatch, version: int, side: int, since: int | None) -> Response:
    """The answer to an action kept with an idempotency key, given again: the state of the
    ``version`` it made (from seat ``side``'s side, the record's changes after ``since``)."""
    answer = Shown(as_it_was(live, version)).response(side, since)
    answer.headers["Idempotent-Replayed"] = "true"
    return answer


async def save_or_refuse(
    store: MatchStore,
    live: LiveMatch,
    before: int,
    key: KeptKey | None = None,
    also: Callable[[Connection], None] | None = None,
    state: str | None = None,
) -> None:
    """Save ``live`` in place of version ``before`` (with the action's ``key``, what ``also``
    writes, and the ``state`` to tell: :meth:`.store.MatchStore.save`), or refuse the
    request (409, 503)."""
    try:
        await store.save(live, before, key=key, also=also, state=state)
    except MatchChangedError:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "The match was changed elsewhere meanwhile, so the action was not kept; "
            "look again and retry.",
        ) from None
    except SQLAlchemyError:
        log.exception("match %s could not be saved", live.id)
        raise HTTPException(
            status.HTTP_503_SERVICE_UNAVAILABLE,
            "The game could not be saved, so the action was not kept; try again.",
        ) from None


def _check_claim(live: LiveMatch, seat: int) -> None:
    """409 unless ``seat`` may claim now: an online game that has waited for the other seat
    for the match's claim time (the game itself then says whether the claim is allowed)."""
    refusal = claim_refusal(claim_window(live), seat)
    if refusal is not None:
        raise HTTPException(status.HTTP_409_CONFLICT, refusal)


def apply(match: Match, action: ActionRequest) -> None:
    """Make ``action`` in ``match``; BackgammonError, and no change, when it is not allowed."""
    if isinstance(action, Claim):
        match.claim(action.seat, action.level, whole=action.match)
        return
    game = match.game
    if isinstance(action, Step):
        act = Act(Action.STEP, step=(action.from_, action.to))
    elif isinstance(action, Play):
        act = Act(Action.PLAY, play=action.play)
    elif isinstance(action, Resign):
        act = Act(Action.RESIGN, level=WinKind(action.level))
    else:
        act = Act(Action(action.action))
    game.act(action.seat, act)
