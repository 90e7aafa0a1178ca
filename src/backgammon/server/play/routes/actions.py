"""Actions: one move of the game at a time; the computer answers in the background. The
route reads the request; :class:`.service.MatchService` acts."""

from __future__ import annotations

from fastapi import APIRouter, Request
from starlette.responses import Response

from ...http.guards import count
from ..action_calls import ACTION_DOCS, read_action
from ..deps import check_holds, get_match_to_act, held_by
from ..schemas import State
from ..service import MatchService

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
    matches: MatchService = request.app.state.matches
    return await matches.act(live, action, options)
