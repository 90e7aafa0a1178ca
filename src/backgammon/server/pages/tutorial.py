"""The tutorial's routes: a guided first game at ``/tutorial/<lang>`` (:mod:`.tutorial_page`),
played on the game's own board, whose script (:mod:`.tutorial_script`) asks
``GET /api/tutorial/{step}`` what the board shows and which checker steps are allowed, with the
steps made so far (``?made=8/5,6/5``) or the button pressed (``?action=double``), and whether
that is what the step teaches (``verdict``: :mod:`.tutorial_views`).
"""

from __future__ import annotations

from fastapi import APIRouter, HTTPException
from fastapi.responses import RedirectResponse, Response

from ...errors import BackgammonError
from ..http.assets import PageResponse
from .languages import LANGUAGES
from .tutorial_page import not_found, render
from .tutorial_script import TutorialError, step_named
from .tutorial_views import TutorialView, parse_made, view_of

router = APIRouter(tags=["tutorial"])


@router.get("/tutorial", include_in_schema=False)
@router.get("/tutorial/", include_in_schema=False)
async def tutorial_root() -> RedirectResponse:
    """The English tutorial (the game and the help link to the one in their language)."""
    return RedirectResponse("/tutorial/en")


@router.get("/tutorial/{lang}", include_in_schema=False)
async def tutorial_page(lang: str) -> Response:
    """The tutorial in one language; a 404 that says which there are for any other."""
    if lang not in LANGUAGES:
        return PageResponse(not_found(), status_code=404)
    return PageResponse(render(lang))


@router.get("/api/tutorial/{name}")
async def tutorial_step(name: str, made: str = "", action: str | None = None) -> TutorialView:
    """A step of the tutorial (/tutorial/<lang>): its board after the checker steps ``made``
    (``from/to`` on the mover's points, comma-separated) or the ``action`` taken, the checker
    steps allowed next, and whether the whole play or the action is what the step teaches."""
    try:
        step = step_named(name)
    except TutorialError as error:
        raise HTTPException(404, str(error)) from error
    try:
        return view_of(step, parse_made(made), action)
    except BackgammonError as error:
        raise HTTPException(422, str(error)) from error
