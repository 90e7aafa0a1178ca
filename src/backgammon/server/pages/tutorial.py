"""The tutorial: a guided first game at ``/tutorial/<lang>``, played on the game's own board.

Its steps are data, ``backgammon/web/tutorial/script.json`` (the positions, the dice, the plays
and answers each step teaches), and its words are one catalogue a language,
``web/tutorial/<lang>.json`` (the glossary's terms, as the help pages use them). The page is
rendered here with every step's heading and instruction, so it reads in order without a script;
``js/tutorial.js`` shows one step at a time on the board and asks
``GET /api/tutorial/{step}`` what the board shows and which checker steps are allowed, with the
steps made so far (``?made=8/5,6/5``) or the button pressed (``?action=double``), and whether
that is what the step teaches (``verdict``). As on the game's page, the rules are the core's:
the page only offers the steps it is sent.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cache
from html import escape
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel

from ...errors import BackgammonError
from ...moves import Play
from ...position import Position
from ...turns import Turn
from ..play.schemas import BoardView, CubeView, DieView, OfferView, StepView
from ..play.views import board_view, step_view
from .help import LANGUAGES

TUTORIAL = Path(__file__).resolve().parents[2] / "web" / "tutorial"
#: Who is who on the tutorial's board: the player is seat 0 (White, at the bottom), the
#: computer seat 1, and the board is drawn from the player's side.
YOU, COMPUTER = 0, 1
#: What each kind of step lets the player do besides moving checkers.
CHOICES = {"roll": ("roll",), "move": (), "double": ("roll", "double"), "take": ("take", "drop")}
SEATS = {"you": YOU, "computer": COMPUTER}
OWNERS = {"centre": None, "you": YOU, "computer": COMPUTER}

router = APIRouter(tags=["tutorial"])


class TutorialError(BackgammonError):
    """A tutorial script that breaks the rules, or a question the tutorial cannot answer."""


@dataclass(frozen=True)
class Reply:
    """One turn played between two steps: its dice and its play, in notation."""

    dice: tuple[int, int]
    play: str


@dataclass(frozen=True)
class Step:
    """One step of the tutorial, as ``script.json`` gives it."""

    name: str
    kind: str
    position: Position  # seen from the player on roll
    mover: int  # YOU or COMPUTER: who is on roll
    dice: tuple[int, int] | None
    plays: tuple[str, ...]  # the plays a move step teaches
    answer: str | None  # the action a roll, double or take step teaches
    cube: int
    owner: int | None
    after: tuple[Reply, ...] | None  # None: the step does not follow the one before
    #: The last turn of ``after`` and who played it, shown on the board as the step opens.
    last: tuple[Play, int] | None = None

    def turn(self) -> Turn:
        """The turn to be played (a move step's)."""
        if self.dice is None or self.kind != "move":
            raise TutorialError(f"The step {self.name} has no checkers to move.")
        return _turn(self.name)

    def expected(self) -> frozenset[Position]:
        """The results of the plays the step teaches."""
        assert self.dice is not None
        return frozenset(self.position.parse_play(play, self.dice).result for play in self.plays)

    def end(self) -> tuple[Position, int]:
        """Where the step leaves the game: the position, seen from the side on roll, and who
        that is (a roll or a double moves no checker; a move step's first play is made)."""
        if self.kind != "move":
            return self.position, self.mover
        assert self.dice is not None
        return self.position.parse_play(self.plays[0], self.dice).result, 1 - self.mover


def _read_step(data: dict[str, Any]) -> Step:
    name = str(data["name"])
    kind = str(data["kind"])
    if kind not in CHOICES:
        raise TutorialError(f"The tutorial's step {name} is of no known kind ({kind}).")
    dice = tuple(data["dice"]) if "dice" in data else None
    cube = data.get("cube", {"value": 1, "owner": "centre"})
    step = Step(
        name=name,
        kind=kind,
        position=Position.from_id(data["position"]),
        mover=SEATS[data["on_roll"]],
        dice=(dice[0], dice[1]) if dice else None,
        plays=tuple(data.get("plays", ())),
        answer=data.get("answer", "roll" if kind == "roll" else None),
        cube=int(cube["value"]),
        owner=OWNERS[cube["owner"]],
        after=(
            tuple(Reply((turn["dice"][0], turn["dice"][1]), turn["play"]) for turn in data["after"])
            if "after" in data
            else None
        ),
    )
    if kind == "move" and (step.dice is None or not step.plays):
        raise TutorialError(f"The tutorial's move step {name} needs dice and plays.")
    if kind != "move" and step.answer not in CHOICES[kind]:
        raise TutorialError(f"The tutorial's step {name} expects an answer it does not offer.")
    if kind == "move":
        step.expected()  # every play it teaches is legal, or IllegalPlayError says which not
    return step


def follow(previous: Step, step: Step) -> Step:
    """``step`` with the last turn that leads to it from where ``previous`` ends; a
    TutorialError if its turns do not lead to its position (or are not legal)."""
    assert step.after is not None
    position, mover = previous.end()
    last = None
    for reply in step.after:
        play = position.parse_play(reply.play, reply.dice)
        last = (play, mover)
        position, mover = play.result, 1 - mover
    if (position, mover) != (step.position, step.mover):
        raise TutorialError(f"The tutorial's step {step.name} does not follow the one before.")
    return replace(step, last=last)


@cache
def script() -> tuple[Step, ...]:
    """The tutorial's steps, in order, read from ``script.json``: every play checked legal,
    and every step that follows another checked to follow from it."""
    data = json.loads((TUTORIAL / "script.json").read_text(encoding="utf-8"))
    steps: list[Step] = []
    for each in data["steps"]:
        step = _read_step(each)
        steps.append(follow(steps[-1], step) if step.after is not None and steps else step)
    return tuple(steps)


def step_named(name: str) -> Step:
    """The step called ``name``; TutorialError if there is none."""
    for step in script():
        if step.name == name:
            return step
    raise TutorialError("There is no such step in the tutorial.")


@cache
def _turn(name: str) -> Turn:
    step = step_named(name)
    assert step.dice is not None
    return step.position.turn(step.dice)


# The page


@cache
def words(lang: str) -> dict[str, str]:
    """A language's tutorial catalogue."""
    data: dict[str, str] = json.loads((TUTORIAL / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def number(lang: str, value: int) -> str:
    """``value`` in the language's digits (Persian and Khmer have their own).

    >>> number("fa", 12), number("en", 7)
    ('۱۲', '7')
    """
    digits = words(lang)["digits"]
    return "".join(digits[int(figure)] for figure in str(value))


@cache
def render(lang: str) -> str:
    """The whole tutorial page in ``lang``."""
    say = words(lang)
    steps = script()
    total = len(steps)
    contents = []
    sections = []
    for index, step in enumerate(steps, start=1):
        title = escape(say[f"{step.name}.title"])
        contents.append(f'<li><a href="#{step.name}">{title}</a></li>')
        counted = escape(say["stepOf"].format(n=number(lang, index), total=number(lang, total)))
        sections.append(
            f'<section class="tutorial-step" id="{step.name}" data-step="{step.name}"'
            f' data-kind="{step.kind}" aria-labelledby="{step.name}-heading">'
            f'<h2 id="{step.name}-heading" tabindex="-1"><span class="step-count">{counted}</span>'
            f" {title}</h2><p>{say[f'{step.name}.text']}</p></section>"
        )
    languages = []
    for other in LANGUAGES:
        current = ' aria-current="true"' if other == lang else ""
        direction = f' dir="{words(other)["meta.dir"]}"'
        languages.append(
            f'<li><a href="/tutorial/{other}" lang="{other}" hreflang="{other}"{direction}'
            f'{current}>{escape(words(other)["language"])}</a></li>'
        )
    buttons = "".join(
        f'<button type="button" id="{name}-button" data-action="{name}"{cls} hidden>'
        f"{escape(say[f'button.{name}'])}</button>"
        for name, cls in (
            ("roll", ' class="primary"'), ("double", ""), ("take", ' class="primary"'),
            ("drop", ""), ("undo", ""), ("again", ' class="primary"'),
        )
    )
    # The feedback the script says (a step's "done", "wrong" and "help"), for js/tutorial.js.
    feedback = {key: value for key, value in say.items() if key.rsplit(".", 1)[-1] in
                ("done", "wrong", "help", "error")}
    feedback_json = json.dumps(feedback, ensure_ascii=False).replace("<", "\\u003c")
    return f"""<!doctype html>
<html lang="{lang}" dir="{say["meta.dir"]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{escape(say["title"])}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/css/style.css">
<link rel="stylesheet" href="/css/tutorial.css">
<script type="module" src="/js/tutorial.js"></script>
</head>
<body>
<header class="top">
<p class="site"><a href="/">{escape(say["link.game"])}</a> ·
<a href="/help/{lang}/">{escape(say["link.help"])}</a></p>
<nav class="languages" aria-label="{escape(say["nav.languages"])}">
<ul>{"".join(languages)}</ul></nav>
</header>
<main id="tutorial" data-lang="{lang}">
<h1>{escape(say["title"])}</h1>
<p>{say["intro"]}</p>
<nav class="tutorial-steps" aria-label="{escape(say["nav.steps"])}">
<ol>{"".join(contents)}</ol></nav>
{"".join(sections)}
<div class="tutorial-play" hidden>
<svg id="board" class="board" xmlns="http://www.w3.org/2000/svg"></svg>
<p id="feedback" class="status" role="status" aria-live="polite"></p>
<div class="controls">{buttons}</div>
<div class="tutorial-nav">
<button type="button" id="back-button">{escape(say["button.back"])}</button>
<button type="button" id="next-button" class="primary">{escape(say["button.next"])}</button>
</div>
</div>
<section class="tutorial-step" id="end" data-step="end" aria-labelledby="end-heading">
<h2 id="end-heading" tabindex="-1">{escape(say["end.title"])}</h2>
<p>{say["end.text"]}</p>
<p class="tutorial-links"><a href="/">{escape(say["end.play"])}</a>
<a href="/help/{lang}/rules">{escape(say["end.rules"])}</a></p>
</section>
</main>
<script type="application/json" id="tutorial-words">{feedback_json}</script>
</body>
</html>
"""


@router.get("/tutorial", include_in_schema=False)
@router.get("/tutorial/", include_in_schema=False)
async def tutorial_root() -> RedirectResponse:
    """The English tutorial (the game and the help link to the one in their language)."""
    return RedirectResponse("/tutorial/en")


@router.get("/tutorial/{lang}", include_in_schema=False)
async def tutorial_page(lang: str) -> Response:
    """The tutorial in one language; a 404 that says which there are for any other."""
    if lang not in LANGUAGES:
        links = " ".join(f'<a href="/tutorial/{other}">{other}</a>' for other in LANGUAGES)
        return HTMLResponse(
            f'<!doctype html><html lang="en" dir="ltr"><head><meta charset="utf-8"><title>'
            f"{escape(words('en')['title'])}</title></head><body><main><h1>"
            f"{escape(words('en')['title'])}</h1><p>{escape(words('en')['notFound'])} {links}"
            "</p></main></body></html>",
            status_code=404,
        )
    return HTMLResponse(render(lang))


# The board of a step


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
    backgammon.server.pages.tutorial.TutorialError: The steps made are not a list of ...
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
