"""The board of a tutorial step as the page's script asks for it (``GET /api/tutorial/{step}``):
what it shows after the checker steps made or the button pressed, the checker steps allowed
next, and whether that is what the step teaches. The rules are the core's: the page only
offers the steps it is sent.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

from ..play.schemas import BoardView, CubeView, DieView, OfferView, StepView
from ..play.views import board_view, step_view
from .tutorial_script import CHOICES, COMPUTER, YOU, Step, TutorialError


class MarkView(BaseModel):
    """A checker step of the computer's reply, on the player's board (25 the bar, 0 the tray)."""

    board_from: int
    board_to: int
    hit: bool


class ReplyView(BaseModel):
    """The computer's turn that led to the step: the board before it and its steps, which the
    page marks on the board as the step opens (``drawPlayMarks``)."""

    board: BoardView
    steps: list[MarkView]


class TutorialView(BaseModel):
    """What the board of a step shows after what the player did, drawn from the player's side
    (seat 0; the computer is seat 1), and whether it is what the step teaches."""

    name: str
    kind: Literal["roll", "move", "double", "take"]
    mover: int
    board: BoardView
    dice: list[DieView]
    cube: CubeView
    steps: list[StepView]
    made: list[StepView]
    play: str | None
    verdict: Literal["right", "wrong"] | None
    reply: ReplyView | None


_MADE = re.compile(r"(?:\d{1,2}/\d{1,2}(?:,\d{1,2}/\d{1,2}){0,3})?")


def parse_made(text: str) -> tuple[tuple[int, int], ...]:
    """The checker steps of ``?made=`` (``from/to`` on the mover's points, comma-separated).

    >>> parse_made("25/21,13/8"), parse_made("")
    (((25, 21), (13, 8)), ())
    >>> parse_made("13-8")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.server.pages.tutorial_script.TutorialError: The steps made are not a list of ...
    """
    if not _MADE.fullmatch(text):
        raise TutorialError("The steps made are not a list of from/to points.")
    return tuple(
        (int(a), int(b)) for a, b in (pair.split("/") for pair in text.split(",") if pair)
    )


def view_of(step: Step, made: tuple[tuple[int, int], ...] = (), action: str | None = None) -> (
    TutorialView
):
    """The board of ``step`` after the checker steps ``made`` (a move step) or the ``action``
    (any other), and the verdict once the play is whole or the action taken.

    >>> from backgammon.server.pages.tutorial_script import step_named
    >>> view_of(step_named("first-move"), ((8, 5), (6, 5))).verdict
    'right'
    >>> view_of(step_named("double"), action="roll").verdict
    'wrong'
    """
    misplaced = action is not None if step.kind == "move" else bool(made)
    if misplaced or (action is not None and action not in CHOICES[step.kind]):
        raise TutorialError(f"The step {step.name} is answered by {_answered_by(step)}.")
    position, steps, dice, play, verdict = step.position, [], [], None, None
    cube, owner, offer = step.cube, step.owner, None
    if step.kind == "move":
        turn = step.turn()
        for source, target in made:
            turn = turn.step(source, target)
        position = turn.current()
        steps = turn.legal_steps()
        dice = [DieView(value=face, used=used) for face, used in turn.dice_faces()]
        if turn.is_complete:
            whole = turn.play()
            play = str(whole)
            verdict = "right" if whole.result in step.expected() else "wrong"
    elif action is not None:
        verdict = "right" if action == step.answer else "wrong"
    if step.kind == "roll" and action == "roll" and step.dice is not None:
        dice = [DieView(value=face, used=False) for face in step.dice]
    if step.kind == "double" and verdict == "right":
        cube, owner = 2 * cube, COMPUTER  # doubled, and the computer takes
    if step.kind == "take":
        if verdict == "right":
            cube, owner = 2 * cube, YOU
        else:
            offer = OfferView(by=COMPUTER, value=2 * cube, beavered=False)
    seen = position if step.mover == YOU else position.flip()
    return TutorialView(
        name=step.name,
        kind=step.kind,  # type: ignore[arg-type]
        mover=step.mover,
        board=board_view(seen, YOU),
        dice=dice,
        cube=CubeView(value=cube, owner=owner, offer=offer, used=True),
        steps=[step_view(a, b, step.mover, YOU) for a, b in steps],
        made=[step_view(a, b, step.mover, YOU) for a, b in made],
        play=play,
        verdict=verdict,  # type: ignore[arg-type]
        reply=_reply(step),
    )


def _reply(step: Step) -> ReplyView | None:
    """The computer's turn just before the step, if that is how it opens."""
    if step.last is None or step.last[1] != COMPUTER:
        return None
    play, _ = step.last
    marks = []
    for each in play.steps:
        seen = step_view(each.from_point, each.to_point, COMPUTER, YOU)
        marks.append(MarkView(board_from=seen.board_from, board_to=seen.board_to, hit=each.hit))
    return ReplyView(board=board_view(play.position.flip(), YOU), steps=marks)


def _answered_by(step: Step) -> str:
    return "moving checkers" if step.kind == "move" else " or ".join(CHOICES[step.kind])
