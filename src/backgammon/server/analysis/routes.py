"""Analysis: every decision of a match, or of an uploaded ``.mat`` file, judged by the bot
in the background (:mod:`..analyses`), and the board of each decision for the page.

Each answer is the report of ``backgammon analyse --json`` once it is done (200; a match of
the other games gets their engine's, marked ``"kind": "board"``:
:func:`.analyses.board_report`), or the progress while the bot thinks (202,
``{"status": "running", "done": k, "total": n}``). A match's analysis is of the match as it
stands: asked again after the match has changed, it starts afresh.
"""

from __future__ import annotations

import logging
import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from ...errors import BackgammonError
from ...formats.mat import import_mat
from ...formats.matchid import decode_match_id
from ...game.match import Match
from ...position import Position
from ..accounts.sessions import Viewer
from ..accounts.users import Account
from ..http.guards import client_of, rate_limited
from ..play.deps import Live, get_held, no_engine_help
from ..play.live import LiveMatch
from ..play.schemas import Ascii, DecisionBoard, UploadMat
from ..play.views import board_view
from ..trainer.dealing import deal
from .analyses import Analyses, AnalysisFailedError

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api", tags=["analysis"])

_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "a match's analysis: no seat token"},
    403: {"description": "a match's analysis: the token holds no seat of the match, or the "
          "match is online between people and not over"},
    200: {"description": "the report, as ``backgammon analyse --json`` writes it (for a "
          "match of the other games: ``kind`` \"board\", its decisions and each player's "
          "totals)"},
    202: {"description": "the analysis under way: ``status``, ``done``, ``total``"},
    409: {"description": "the match could not be analysed (the reason is said)"},
    503: {"description": "the threads that analyse are all busy"},
}


def _analyses(request: Request) -> Analyses:
    analyses: Analyses = request.app.state.analyses
    return analyses


def _answer(response: Response, report: dict[str, Any]) -> dict[str, Any]:
    if report.get("status") == "running":
        response.status_code = status.HTTP_202_ACCEPTED
    return report


async def _match_analysis(
    request: Request, live: Live, response: Response, account: Account | None
) -> dict[str, Any]:
    no_engine_help(live, "Analyses", other_games=True)
    try:
        report = await _analyses(request).of(
            live.id, live.version, live.match.to_dict, client_of(request)
        )
    except AnalysisFailedError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    # The trainer's cards are backgammon's: the other games' mistakes are not dealt.
    if account is not None and report.get("status") != "running" and not live.board_game:
        await _deal(request, live, account, report)
    return _answer(response, report)


async def _deal(request: Request, live: LiveMatch, account: Account, report: dict[str, Any]
                ) -> None:
    """The finished match's mistakes to the signed-in player's deck (:mod:`..trainer`), if
    they sat at it: a help the analysis gives on the way, which never fails it (the
    trainer's page asks again)."""
    try:
        await deal(request, live, account.id, report)
    except HTTPException:
        log.info("the mistakes of %s wait for the trainer: the pool is busy", live.id)
    except Exception:
        log.exception("the mistakes of %s could not be dealt", live.id)


# A match's analysis is its players' (it costs the server seconds of thought): the request
# carries a token of either seat.
@router.post(
    "/matches/{match_id}/analysis",
    dependencies=[Depends(get_held)],
    responses={404: {}, **_ANSWERS},
)
async def start_match_analysis(
    request: Request, live: Live, response: Response, account: Viewer
) -> dict[str, Any]:
    """Analyse the match as it stands (at the server's depth, BACKGAMMON_ANALYSIS_PLIES):
    the report if it is done, else the progress of the analysis, started now if none is
    under way for this version of the match. A signed-in player who sat at the match, once
    it is over, gets its mistakes in their trainer's deck."""
    return await _match_analysis(request, live, response, account)


@router.get(
    "/matches/{match_id}/analysis",
    dependencies=[Depends(get_held)],
    responses={404: {}, **_ANSWERS},
)
async def get_match_analysis(
    request: Request, live: Live, response: Response, account: Viewer
) -> dict[str, Any]:
    """The analysis of the match as it stands: as the POST, which the first GET stands in
    for."""
    return await _match_analysis(request, live, response, account)


@router.post(
    "/analyses",
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[Depends(rate_limited("upload"))],
    responses={413: {"description": "the file is longer than an analysis takes"},
               422: {"description": "the file cannot be read: its line and the reason"},
               429: {"description": "too many files or analyses from this address"},
               503: _ANSWERS[503]},
)
async def upload(request: Request, body: UploadMat) -> dict[str, Any]:
    """Analyse a ``.mat`` file (GNU Backgammon, eXtreme Gammon, Jellyfish, the servers),
    given as its text: the analysis's ``id`` (for ``GET /api/analyses/{id}``) and its
    progress. A file that cannot be read is refused with its line and the reason; one of
    more than ``MOST_MOVE_LINES`` numbered lines is refused before it is read. The file is
    read in a worker thread once the pool has taken it (each client may have
    ``per_client`` analyses under way: 429 beyond; 503 when the pool is full)."""
    analyses = _analyses(request)
    client = client_of(request)
    async with analyses.admitted(client):
        match = await run_in_threadpool(_read_upload, body.text)
        key, progress = await analyses.upload(match, client)
    return {"id": key, **progress}


#: The most numbered move lines an uploaded file may have (each holds a turn of each player):
#: a long match of 25 points has some 1,000; the analysis of an upload is bounded by it.
MOST_MOVE_LINES = 3000
_MOVE_LINE = re.compile(r"^\s*\d+\)", re.MULTILINE)


def _read_upload(text: str) -> Match:
    """The match an uploaded file records (in a worker thread); 422 with the line and the
    reason when it cannot be read, 413 when it is longer than an analysis takes."""
    lines = len(_MOVE_LINE.findall(text))
    if lines > MOST_MOVE_LINES:
        raise HTTPException(
            413, f"The file has {lines} move lines; an analysis takes at most "
            f"{MOST_MOVE_LINES}: send one match at a time."
        )
    try:
        return import_mat(text)
    except BackgammonError as exc:
        raise HTTPException(422, f"The file cannot be read: {exc}") from None


@router.get("/analyses/{analysis_id}", responses={404: {}, **_ANSWERS})
async def get_upload(
    request: Request,
    analysis_id: Annotated[str, Path(min_length=1, max_length=32)],
    response: Response,
) -> dict[str, Any]:
    """The analysis of an uploaded file: the report once done, else its progress."""
    try:
        report = await _analyses(request).of(analysis_id, 0, None)
    except LookupError:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, "There is no analysis with that id."
        ) from None
    except AnalysisFailedError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    return _answer(response, report)


@router.get("/board", response_model=DecisionBoard)
async def board(
    position_id: Annotated[Ascii, Query(max_length=20, description="gnubg's Position ID")],
    match_id: Annotated[Ascii, Query(max_length=20, description="gnubg's Match ID")],
    view: Annotated[int, Query(ge=0, le=1, description="the seat whose side it is drawn from")]
    = 0,
) -> DecisionBoard:
    """The board of a moment given by gnubg's IDs (an analysed decision's), drawn as the
    match's state draws it, so that the page can show it without knowing the rules."""
    try:
        position = Position.from_id(position_id)
        state = decode_match_id(match_id)
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None
    mover = state.player_on_roll
    seen = position if view == mover else position.flip()
    return DecisionBoard(
        board=board_view(seen, view),
        on_roll=mover,
        dice=list(state.dice) if state.dice else None,
        cube_value=state.cube_value,
        cube_owner=state.cube_owner,
    )
