"""Analysis: every decision of a match, or of an uploaded ``.mat`` file, judged by the bot
in the background (:mod:`..analyses`), and the board of each decision for the page.

Each answer is the report of ``backgammon analyse --json`` once it is done (200), or the
progress while the bot thinks (202, ``{"status": "running", "done": k, "total": n}``). A
match's analysis is of the match as it stands: asked again after the match has changed, it
starts afresh.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response, status

from ...errors import BackgammonError
from ...formats.mat import import_mat
from ...formats.matchid import decode_match_id
from ...position import Position
from ..analyses import Analyses, AnalysisFailedError
from ..deps import Live, get_held
from ..guards import rate_limited
from ..schemas import Ascii, DecisionBoard, UploadMat
from ..views import board_view

router = APIRouter(prefix="/api", tags=["analysis"])

_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"description": "a match's analysis: no seat token"},
    403: {"description": "a match's analysis: the token holds no seat of the match"},
    200: {"description": "the report, as ``backgammon analyse --json`` writes it"},
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


async def _match_analysis(request: Request, live: Live, response: Response) -> dict[str, Any]:
    try:
        report = await _analyses(request).of(live.id, live.version, live.match.to_dict)
    except AnalysisFailedError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    return _answer(response, report)


# A match's analysis is its players' (it costs the server seconds of thought): the request
# carries a token of either seat.
@router.post(
    "/matches/{match_id}/analysis",
    dependencies=[Depends(get_held)],
    responses={404: {}, **_ANSWERS},
)
async def start_match_analysis(
    request: Request, live: Live, response: Response
) -> dict[str, Any]:
    """Analyse the match as it stands (at the server's depth, BACKGAMMON_ANALYSIS_PLIES):
    the report if it is done, else the progress of the analysis, started now if none is
    under way for this version of the match."""
    return await _match_analysis(request, live, response)


@router.get(
    "/matches/{match_id}/analysis",
    dependencies=[Depends(get_held)],
    responses={404: {}, **_ANSWERS},
)
async def get_match_analysis(request: Request, live: Live, response: Response) -> dict[str, Any]:
    """The analysis of the match as it stands: as the POST, which the first GET stands in
    for."""
    return await _match_analysis(request, live, response)


@router.post(
    "/analyses",
    status_code=status.HTTP_202_ACCEPTED,
    dependencies=[Depends(rate_limited("upload"))],
    responses={422: {"description": "the file cannot be read: its line and the reason"},
               429: {"description": "too many files from this address"},
               503: _ANSWERS[503]},
)
async def upload(request: Request, body: UploadMat) -> dict[str, Any]:
    """Analyse a ``.mat`` file (GNU Backgammon, eXtreme Gammon, Jellyfish, the servers),
    given as its text: the analysis's ``id`` (for ``GET /api/analyses/{id}``) and its
    progress. A file that cannot be read is refused with its line and the reason."""
    try:
        match = import_mat(body.text)
    except BackgammonError as exc:
        raise HTTPException(
            422, f"The file cannot be read: {exc}"
        ) from None
    key, progress = await _analyses(request).upload(match)
    return {"id": key, **progress}


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
            status.HTTP_404_NOT_FOUND, f"There is no analysis with the id {analysis_id!r}."
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
