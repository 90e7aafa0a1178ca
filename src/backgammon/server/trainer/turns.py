"""A checker card's play made on the board, one step at a time (``POST /api/trainer/turn``):
the page sends the steps made so far and gets back the board after them, the dice used, the
steps that may come next and, once the steps make a whole play, its notation, which is the
answer it sends. The rules are the core's (:class:`backgammon.turns.Turn`), as in a game: the
page knows none. Pure and quick (no engine), so no pool and no limit beyond the server's.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ...errors import BackgammonError
from ...formats.matchid import decode_match_id
from ...position import Position
from ..play.schemas import Ascii, BoardView, DieView, StepView
from ..play.views import board_view, step_view

router = APIRouter(tags=["trainer"])

Point = Annotated[StrictInt, Field(ge=0, le=25)]


class TurnAsked(BaseModel):
    """A checker card's moment (gnubg's IDs, the Match ID holding the dice) and the steps
    made so far, each ``[from, to]`` on the mover's point numbers (25 the bar, 0 off)."""

    model_config = ConfigDict(extra="forbid")

    position_id: Annotated[Ascii, Field(min_length=14, max_length=14)]
    match_id: Annotated[Ascii, Field(min_length=12, max_length=12)]
    made: list[tuple[Point, Point]] = Field(default_factory=list, max_length=4)


class TurnView(BaseModel):
    """The board after the steps made, drawn from seat 0's side (as ``GET /api/board``
    draws it), the dice and whether each is used, the steps that may come next, and the
    play once the steps make one (else null)."""

    board: BoardView
    on_roll: int
    dice: list[DieView]
    cube_value: int
    cube_owner: int | None
    steps: list[StepView]
    play: str | None


@router.post("/api/trainer/turn", response_model=TurnView,
             responses={422: {"description": "IDs that are none, no dice, or a step not "
                              "allowed, with the reason"}})
async def turn(asked: TurnAsked) -> TurnView:
    """The card's turn with the steps ``made``: the board, the dice, the next steps."""
    try:
        position = Position.from_id(asked.position_id)
        state = decode_match_id(asked.match_id)
        if state.dice is None:
            raise HTTPException(422, "The Match ID holds no dice: there is no play to make.")
        played = position.turn(state.dice)
        for source, target in asked.made:
            played = played.step(source, target)
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None
    mover, view = state.player_on_roll, 0
    current = played.current()
    seen = current if view == mover else current.flip()
    return TurnView(
        board=board_view(seen, view),
        on_roll=mover,
        dice=[DieView(value=face, used=used) for face, used in played.dice_faces()],
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
        steps=[step_view(a, b, mover, view) for a, b in played.legal_steps()],
        play=str(played.play()) if played.is_complete else None,
    )
