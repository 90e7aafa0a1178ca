"""The tutorial's script: its steps, read from ``backgammon/web/tutorial/script.json`` (the
positions, the dice, the plays and answers each step teaches), each checked against the rules
as it is read. The page (:mod:`.tutorial_page`), the board of each step
(:mod:`.tutorial_views`) and the routes (:mod:`.tutorial`) are built on it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from ...errors import BackgammonError
from ...moves import Play
from ...position import Position
from ...turns import Turn

TUTORIAL = Path(__file__).resolve().parents[2] / "web" / "tutorial"
#: Who is who on the tutorial's board: the player is seat 0 (White, at the bottom), the
#: computer seat 1, and the board is drawn from the player's side.
YOU, COMPUTER = 0, 1
#: What each kind of step lets the player do besides moving checkers.
CHOICES = {"roll": ("roll",), "move": (), "double": ("roll", "double"), "take": ("take", "drop")}
SEATS = {"you": YOU, "computer": COMPUTER}
OWNERS = {"centre": None, "you": YOU, "computer": COMPUTER}



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
