"""The players' seeds for the provably fair dice (docs/guide/online.md, "Provably fair dice").

A seed is an event of the game's record (``{"action": "seed", "player": 0, "seed": ...}``),
so it raises the match's version like any action: another process's copy of the match takes
it from the row before it rolls, and a roll made on the version before it is refused.

The state shows the game's commitment before its first roll (``fair_dice``) and, once the
game is over, its server seed; ``GET /api/matches/{id}/record`` gives the record that
``backgammon verify-dice`` and the page at ``/verify.html`` check.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends
from starlette.responses import Response

from ...http.guards import rate_limited
from ..deps import Held, Live, MatchServiceDep, check_holds
from ..schemas import AddSeed, State

router = APIRouter(prefix="/api/matches", tags=["actions"])


@router.post(
    "/{match_id}/seed",
    response_model=State,
    dependencies=[Depends(rate_limited("action"))],
    responses={
        401: {"description": "no seat token"},
        403: {"description": "the token does not hold the seat (a computer's seat is nobody's)"},
        404: {"description": "no such match"},
        409: {"description": "the game's dice have been rolled, or are not fair dice"},
        422: {"description": "a malformed request or seed"},
    },
)
async def add_seed(
    live: Live, held: Held, request: AddSeed, matches: MatchServiceDep
) -> Response:
    """Add a seat's own seed to the fair dice of the game in play, before its first roll
    (it replaces the seat's earlier one, and holds for the next games until changed); the
    rolls are then derived from it too, so the server cannot have chosen them alone. The
    request carries the seat's token (``Authorization: Bearer <token>``)."""
    check_holds(held, request.seat)
    return await matches.add_seed(live, request.seat, request.seed)
