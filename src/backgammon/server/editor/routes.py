"""The position editor's page, ``/editor``, and its questions under ``/api/editor``.

The page sets the checkers, the dice, the cube, the match and the variant; the server checks
the position and writes its IDs (``POST /api/editor/ids``), and reads a pasted ID back as a
position (``POST /api/editor/read``). Both answer the same :class:`Edit`, the IDs included, or
422 with the rules' sentence. The IDs are the server's to write, not the page's: the core
already writes and reads them (:mod:`backgammon.formats.editor`) and checks a position as the
rules check any game set up from an ID, so the page never carries a second copy of GNU
Backgammon's bit packing or of the rules' refusals, and what the editor shows is what "Play
from here" starts. The work is a few microseconds of pure Python, with no engine: no pool, and
no limit beyond the server's own.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse
from pydantic import Field, StrictBool, StrictInt

from ...cube import HIGHEST_CUBE, MAX_MATCH_LENGTH
from ...errors import BackgammonError
from ...formats.editor import Edited
from ...variants import Variant
from ..http.assets import PageResponse
from ..pages.templates import own_page
from ..play.schemas import Ascii, RequestBody, Seat

router = APIRouter(tags=["editor"])

Count = Annotated[StrictInt, Field(ge=0, le=15)]
Board = Annotated[list[Count], Field(min_length=25, max_length=25)]
Die = Annotated[StrictInt, Field(ge=1, le=6)]
Points = Annotated[StrictInt, Field(ge=0, lt=MAX_MATCH_LENGTH)]


class Position(RequestBody):
    """A position set up by hand, by seat (seat 0 is GNU Backgammon's player 0 and XG's
    bottom player)."""

    variant: Variant = Variant.STANDARD
    checkers: tuple[Board, Board] = Field(
        description="each seat's checkers on its own point numbers: points 1 to 24, then the "
        "bar; the rest of the variant's checkers are borne off"
    )
    on_roll: Seat = 0
    dice: tuple[Die, Die] | None = Field(None, description="none: the player on roll is to roll")
    cube_value: StrictInt = Field(1, ge=1, le=HIGHEST_CUBE, description="a power of two")
    cube_owner: Seat | None = Field(None, description="none: the cube is in the middle")
    length: StrictInt = Field(0, ge=0, le=MAX_MATCH_LENGTH, description="0: money play")
    score: tuple[Points, Points] = Field((0, 0), description="by seat, in a match")
    crawford: StrictBool = Field(False, description="this game is the Crawford game")


class Edit(Position):
    """A position checked, and its IDs."""

    per_side: int = Field(description="the variant's checkers a side, on the board and off")
    gnubg_id: str = Field(description="the GNU Backgammon ID, PositionID:MatchID")
    xgid: str


class Pasted(RequestBody):
    """An ID to read: a GNU Backgammon Position ID, a full GNU Backgammon ID or an XGID; none,
    the variant's starting position."""

    id: Ascii | None = Field(None, max_length=100)
    variant: Variant = Field(Variant.STANDARD, description="the IDs do not say which")


_RESPONSES: dict[int | str, dict[str, Any]] = {
    422: {"description": "a position that cannot be, or an ID that is none, with the reason "
          "(and, for the refusals the editor's page words itself, its ``code``: too_many, "
          "shared_point, all_off, shut_out, score, crawford, crawford_cube, money_score)"},
}


@router.post("/api/editor/ids", response_model=Edit, responses=_RESPONSES)
async def ids(position: Position) -> dict[str, Any] | JSONResponse:
    """The position checked, and its GNU Backgammon ID and XGID."""
    try:
        edited = Edited(
            tuple(position.checkers),  # type: ignore[arg-type]
            position.variant,
            position.on_roll,
            position.dice,
            position.cube_value,
            position.cube_owner,
            position.length,
            position.score,
            position.crawford,
        )
    except BackgammonError as exc:
        if exc.code is None:
            raise HTTPException(422, str(exc)) from None
        # The sentence, and the refusal's name, by which the page says it in its language
        # (the rules' sentences hold no part of the request, only numbers).
        return JSONResponse({"detail": str(exc), "code": exc.code}, status_code=422)
    return _answer(edited)


@router.post("/api/editor/read", response_model=Edit, responses=_RESPONSES)
async def read(pasted: Pasted) -> dict[str, Any]:
    """The position an ID holds (none: the variant's start), checked, and its IDs as the
    editor writes them."""
    try:
        if pasted.id is None:
            edited = Edited.initial(pasted.variant)
        else:
            edited = Edited.from_id(pasted.id, pasted.variant)
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None
    return _answer(edited)


def _answer(edited: Edited) -> dict[str, Any]:
    gnubg_id, xgid = edited.ids()
    return {
        "variant": edited.variant,
        "checkers": [list(board) for board in edited.boards],
        "on_roll": edited.on_roll,
        "dice": None if edited.dice is None else list(edited.dice),
        "cube_value": edited.cube_value,
        "cube_owner": edited.cube_owner,
        "length": edited.length,
        "score": list(edited.score),
        "crawford": edited.crawford,
        "per_side": edited.variant.checkers,
        "gnubg_id": gnubg_id,
        "xgid": xgid,
    }


@cache
def _page() -> str:
    return own_page("editor.html")


@router.get("/editor", include_in_schema=False)
async def page() -> PageResponse:
    """The editor's page; its address may hold an ID (``?id=``) and a variant
    (``&variant=``), which the page's script reads."""
    return PageResponse(_page())
