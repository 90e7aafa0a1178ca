"""The engine API for other programs, under ``/api/v1/engine/``: the ranked plays of a roll
(``move``), a position's probabilities and equities (``eval``) and the cube decision
(``cube``), in the JSON that :mod:`backgammon.bot.answers` builds (the terminal's ``backgammon
hint --json`` and ``eval --json`` print the same).

A question names a position by a GNU Backgammon Position ID (the player on roll's view), a
full GNU Backgammon ID (``PositionID:MatchID``) or an XGID, the last two with the player on
roll, the cube, the match score and perhaps the dice; or by the ``checkers`` of both sides.
The cube and the match score not in the ID are given as ``cube`` and ``match``. Everything,
the answer's too, is seen from the player on roll. The bot thinks at ``plies`` (0 to 3) in
the bounded pool of threads that thinks out hints, and each question counts against the
client's rate of hints. For example::

    curl -s http://127.0.0.1:8000/api/v1/engine/move -H 'content-type: application/json' \
         -d '{"position": "4HPwATDgc/ABMA", "dice": [3, 1], "plays": 3}'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel, Field, StrictBool, StrictInt

from ...bot import Bot, Level, cube_answer, eval_answer, move_answer
from ...cube import MAX_MATCH_LENGTH, CubeContext, CubeOwner, MatchScore
from ...dice import Dice
from ...errors import BackgammonError
from ...formats.ids import setup_from_id
from ...position import Position
from ..http.guards import BoundedPool, rate_limited
from ..play import computer
from ..play.schemas import Ascii, RequestBody

router = APIRouter(prefix="/api/v1/engine", tags=["engine"])

#: The bot of each depth: the server's shared bots, without noise.
LEVELS = {0: Level.ADVANCED, 1: Level.EXPERT, 2: Level.STRONGEST, 3: Level.WORLD_CLASS}
#: The most plays a move answer ranks.
MOST_PLAYS = 32
#: The most plays a move answer ranks at 3 plies: the work of an answer grows with the plays
#: searched at full depth (3-ply: about half a second each here), and one question must not
#: hold a thread for long (8 plays: about 4.5 s; 32 took 16 s).
MOST_DEEP_PLAYS = 8

Die = Annotated[StrictInt, Field(ge=1, le=6)]
Count = Annotated[StrictInt, Field(ge=0, le=15)]
Side = Annotated[list[Count], Field(min_length=26, max_length=26)]
Points = Annotated[StrictInt, Field(ge=0, lt=MAX_MATCH_LENGTH)]


class Checkers(RequestBody):
    """Both sides' checkers, each on its own point numbers: 26 counts a side, index 0 borne
    off, 1 to 24 the points, 25 the bar."""

    on_roll: Side = Field(description="the player on roll's checkers")
    opponent: Side = Field(description="the opponent's checkers")


class MatchRequest(RequestBody):
    """The match score at the start of the game, the player on roll's first."""

    length: StrictInt = Field(ge=1, le=MAX_MATCH_LENGTH, description="points to win")
    score: tuple[Points, Points] = Field((0, 0), description="(on roll's, opponent's)")
    crawford: StrictBool = Field(False, description="this game is the Crawford game")


class CubeRequest(RequestBody):
    """The cube as the player on roll sees it, and the money-play options in force."""

    value: StrictInt = Field(1, ge=1, le=4096, description="a power of two")
    owner: CubeOwner = Field(CubeOwner.CENTRE, description="whose cube, from the player on roll")
    jacoby: StrictBool = Field(False, description="money: the Jacoby rule holds (cube not turned)")
    beavers: StrictBool = Field(False, description="money: the opponent may beaver")


class Question(RequestBody):
    """A position, and the cube and score it is judged at."""

    position: Ascii | None = Field(
        None,
        max_length=100,
        description="a GNU Backgammon Position ID, a full GNU Backgammon ID or an XGID",
        examples=["4HPwATDgc/ABMA"],
    )
    checkers: Checkers | None = Field(None, description="the checkers, instead of an ID")
    match: MatchRequest | None = Field(
        None, description="the match score (not with a full ID or XGID, which hold it); "
        "none: money play"
    )
    cube: CubeRequest | None = Field(
        None, description="the cube (its value and owner not with a full ID or XGID)"
    )
    plies: StrictInt = Field(0, ge=0, le=3, description="the depth of the bot's search")


class MoveQuestion(Question):
    """A position and a roll: the plays of the roll, best first."""

    dice: tuple[Die, Die] | None = Field(
        None, description="the roll; needed unless the ID holds dice", examples=[[3, 1]]
    )
    plays: StrictInt = Field(
        5, ge=1, le=MOST_PLAYS,
        description=f"how many plays to rank (at most {MOST_DEEP_PLAYS} at 3 plies: the work "
        "of an answer is its plays searched at full depth)",
    )


class Chances(BaseModel):
    """The chances of a player, cumulative as GNU Backgammon's (a gammon counts the
    backgammons too), and ``lose``."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    lose: float


class MatchView(BaseModel):
    """The match score, the player on roll's first."""

    length: int
    score: list[int]
    crawford: bool


class Cubeful(BaseModel):
    """A cubeful figure: ``equity`` in points per unit of the cube (in a match, gnubg's
    normalised equity), and in a match the chance of winning it; None where it does not
    apply."""

    equity: float | None
    match_winning_chance: float | None


class RankedPlay(BaseModel):
    """One play of the roll: its rank from 1, the equity after it (the mover's) and its
    difference from the best, and the mover's chances after it."""

    rank: int
    play: str = Field(description="in GNU Backgammon's notation")
    equity: float
    difference: float
    probabilities: Chances


class MoveAnswer(BaseModel):
    """The best plays of a roll."""

    position_id: str
    dice: list[int]
    plies: int
    match: MatchView | None = Field(description="None: money play")
    legal: int = Field(description="how many distinct legal plays the roll has")
    plays: list[RankedPlay] = Field(description="best first; empty when no checker can move")


class EvalAnswer(BaseModel):
    """A position's chances before the roll, and its equities."""

    position_id: str
    plies: int
    match: MatchView | None
    probabilities: Chances
    cubeless_equity: float = Field(description="cubeless money equity")
    cubeful: Cubeful = Field(description="the equity of the right cube action")


class CubeView(BaseModel):
    """The cube the decision is taken with."""

    value: int
    owner: Literal["on roll", "centre", "opponent"]
    may_double: bool


class CubeEquities(BaseModel):
    """The cubeful equities of the three ways the cube can go."""

    no_double: Cubeful
    double_take: Cubeful
    double_drop: Cubeful


class CubeAnswer(BaseModel):
    """The cube decision of the player on roll, before the roll."""

    position_id: str
    plies: int
    match: MatchView | None
    cube: CubeView
    action: Literal["no double", "double", "too good"]
    response: Literal["take", "drop", "beaver"]
    equities: CubeEquities
    probabilities: Chances
    cubeless_equity: float
    efficiency: float = Field(description="Janowski's cube efficiency used")


_RESPONSES: dict[int | str, dict[str, Any]] = {
    422: {"description": "a malformed question: a bad ID, checkers, roll, cube or score"},
    429: {"description": "too many questions from this address"},
    503: {"description": "the threads that think are all busy"},
}


@router.post(
    "/move",
    response_model=MoveAnswer,
    dependencies=[Depends(rate_limited("hint"))],
    responses=_RESPONSES,
)
async def move(question: MoveQuestion, request: Request) -> dict[str, Any]:
    """The best plays of the roll, ranked at ``plies``, with their equities and chances."""
    position, cube, held = _read(question)
    if question.dice is not None and held is not None and set(held) != set(question.dice):
        raise _malformed(
            f"The ID holds the dice {held[0]}-{held[1]}, other than those given; give the "
            "dice once."
        )
    dice = held or question.dice
    if dice is None:
        raise _malformed("A move question needs the dice: give dice, or an ID that holds them.")
    count = question.plays
    if question.plies == 3 and count > MOST_DEEP_PLAYS:
        raise _malformed(
            f"At 3 plies a move answer ranks at most {MOST_DEEP_PLAYS} plays (each is searched "
            "to full depth); ask for fewer plays or fewer plies."
        )

    def ask(bot: Bot) -> dict[str, Any]:
        return move_answer(bot, position, dice, cube, count)

    return await _think(request, question.plies, ask)


@router.post(
    "/eval",
    response_model=EvalAnswer,
    dependencies=[Depends(rate_limited("hint"))],
    responses=_RESPONSES,
)
async def evaluate(question: Question, request: Request) -> dict[str, Any]:
    """The chances of the player on roll before the roll, and the cubeless and cubeful
    equities (any dice in the ID are not read)."""
    position, cube, _ = _read(question)
    return await _think(request, question.plies, lambda bot: eval_answer(bot, position, cube))


@router.post(
    "/cube",
    response_model=CubeAnswer,
    dependencies=[Depends(rate_limited("hint"))],
    responses=_RESPONSES,
)
async def cube_decision(question: Question, request: Request) -> dict[str, Any]:
    """The cube decision of the player on roll before the roll: double or not, the right
    answer to a double, and the equities they come from (any dice in the ID are not read)."""
    position, cube, _ = _read(question)
    return await _think(request, question.plies, lambda bot: cube_answer(bot, position, cube))


async def _think(
    request: Request, plies: int, ask: Callable[[Bot], dict[str, Any]]
) -> dict[str, Any]:
    pool: BoundedPool = request.app.state.hint_pool
    answer: dict[str, Any] = await pool.run(computer.consult, LEVELS[plies], ask)
    return answer


def _malformed(sentence: str) -> HTTPException:
    return HTTPException(422, sentence)


def _read(question: Question) -> tuple[Position, CubeContext, Dice | None]:
    """The position, the cube context and the ID's dice that ``question`` describes; 422
    with the reason where they are not a position to judge."""
    if (question.position is None) == (question.checkers is None):
        raise _malformed("Give the position once: as an ID (position) or as checkers.")
    try:
        if question.checkers is not None:
            sides = question.checkers
            position = Position(sides.on_roll, sides.opponent)
            if position.is_game_over():
                raise _malformed("The game is over: a side has borne off all its checkers.")
            return position, _context(question, 1, CubeOwner.CENTRE, None), None
        setting = setup_from_id(question.position or "")
        setup = setting.setup
        if setting.length is None:
            return setup.position, _context(question, 1, CubeOwner.CENTRE, None), setup.dice
        if question.match is not None or (
            question.cube is not None
            and (question.cube.value != 1 or question.cube.owner is not CubeOwner.CENTRE)
        ):
            raise _malformed(
                "The ID holds the cube and the match score; leave out match, and the cube's "
                "value and owner."
            )
        seat = setup.on_roll
        owner = {None: CubeOwner.CENTRE, seat: CubeOwner.ON_ROLL}.get(
            setup.cube_owner, CubeOwner.OPPONENT
        )
        score = setting.score if seat == 0 else (setting.score[1], setting.score[0])
        match = (
            MatchScore(setting.length, score, setting.crawford_game) if setting.length else None
        )
        return setup.position, _context(question, setup.cube_value, owner, match), setup.dice
    except BackgammonError as exc:
        raise _malformed(str(exc)) from None


def _context(
    question: Question, value: int, owner: CubeOwner, match: MatchScore | None
) -> CubeContext:
    """The cube context: the ID's cube and score, or the question's."""
    cube = question.cube
    if question.match is not None:
        given = question.match
        match = MatchScore(given.length, given.score, given.crawford)
    if cube is not None and (value, owner) == (1, CubeOwner.CENTRE):
        value, owner = cube.value, cube.owner
    return CubeContext(
        value,
        owner,
        match,
        jacoby=cube is not None and cube.jacoby,
        beavers=cube is not None and cube.beavers,
    )
