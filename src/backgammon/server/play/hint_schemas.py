"""The shapes of the hints' answers (``GET /api/matches/{id}/hint``), as /docs shows them:
the best plays of a roll, a cube decision or the answer to an offer to resign, each with the
bot's chances and its reasons (kept apart from :mod:`.schemas`, the game's states and
actions). In the other games (Portes, Tavla, Plakoto, Fevga, Long Nardy, Acey-deucey) a
play's equity is the points its maker can expect, without chances, and after an
Acey-deucey 1-2 the doubles to name are ranked."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from ...bot import Level
from .schemas import RequestBody, StepView


class Chances(BaseModel):
    """One player's chances (whose, the answer says), cumulative as GNU Backgammon's: a
    gammon counts the backgammons too."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float


class HintStepView(StepView):
    """A checker step of a hinted play, and whether it hits a blot."""

    hit: bool


class PlayHint(BaseModel):
    """A candidate play of the roll, with the bot's judgement of it."""

    play: str = Field(description="in GNU Backgammon's notation, on the mover's point numbers")
    equity: float = Field(
        description="cubeless money equity for the mover, after the play; in the other "
        "games, the points the mover can expect from the game (a play that ends it: its "
        "points)"
    )
    difference: float = Field(description="the equity less the best play's: 0 or below")
    chances: Chances | None = Field(
        description="the mover's, after the play; null in the other games (their engine "
        "judges points only)"
    )
    steps: list[HintStepView] = Field(description="its checker steps, in an order they can go")
    remaining: list[HintStepView] | None = Field(
        description="the steps still to make after those made this turn (all of ``steps`` "
        "when none is made); null when the steps made do not lead to this play"
    )
    reasons: list[str] = Field(
        description="why, in short sentences in the language asked (``lang``)"
    )


class DoubleHint(BaseModel):
    """A double that may be named after an Acey-deucey 1-2, judged by its best play."""

    die: int = Field(ge=1, le=6, description="the double named: this die four times")
    play: str | None = Field(description="its best play; null where no checker can move")
    equity: float = Field(description="the points the namer can expect after that play")
    difference: float = Field(description="the equity less the best double's: 0 or below")


class CubeHint(BaseModel):
    """The cube decision, seen as GNU Backgammon shows it: from the doubler's side."""

    doubler: int = Field(description="the seat that doubles, or may double")
    action: Literal["no double", "double", "too good"] = Field(
        description="the doubler's right action"
    )
    response: Literal["take", "drop", "beaver"] = Field(
        description="the opponent's right answer to a double"
    )
    recommended: Literal["roll", "double", "take", "drop", "beaver"] = Field(
        description="what the seat asking should do now"
    )
    beavered: bool = Field(description="the double was beavered: the doubler takes or drops")
    no_double: float | None = Field(description="the doubler's equity without a double")
    double_take: float | None = Field(description="the doubler's equity if doubled and taken")
    double_pass: float | None = Field(description="the doubler's equity if doubled and dropped")
    unit: Literal["cube", "match"] = Field(
        description="cube: points per unit of the cube before the double (money play); "
        "match: the doubler's chances of winning the match"
    )
    chances: Chances = Field(description="the doubler's cubeless chances, before rolling")
    reasons: list[str] = Field(
        description="why, in short sentences in the language asked (``lang``)"
    )


class ResignationHint(BaseModel):
    """Whether to accept an offer to resign, and the two values the answer weighs, for the
    seat answering: the game the offer gives, and playing on (cubeless)."""

    by: int = Field(description="the seat that offers to resign")
    level: int = Field(ge=1, le=3, description="1 a single game, 2 a gammon, 3 a backgammon")
    accept: bool = Field(description="the right answer: accept (else reject)")
    accepting: float = Field(description="the value of accepting")
    playing_on: float = Field(description="the value of playing on")
    unit: Literal["points", "match"] = Field(
        description="points: points a game (money play, the cube's value in); match: the "
        "seat's chances of winning the match"
    )
    reasons: list[str] = Field(
        description="why, in short sentences in the language asked (``lang``)"
    )


class HintView(BaseModel):
    """The computer's advice to the seat the game waits for: the best plays of its roll, its
    cube decision, or its answer to an offer to resign.

    A move's plays are whole plays of the roll from the position at the turn's start, even
    when steps of the turn have been made (``from_turn_start``): a player asks how the roll
    is best played, not how to go on from a step that may be the mistake. Each play's
    ``remaining`` steps say how to finish it from the steps made, where they lead to it.
    In the other games a move's plays are judged in points (``chances`` null), and after
    an Acey-deucey 1-2 the hint is the doubles to name (``kind`` "double").
    """

    version: int = Field(description="the state's version the hint is for")
    seat: int = Field(description="the seat the hint is for")
    kind: Literal["move", "cube", "resign", "double"]
    level: Level = Field(description="the strength the bot thought at")
    dice: list[int] | None = Field(description="the roll of a move hint")
    from_turn_start: bool = Field(description="steps were made: the plays start before them")
    made: list[StepView] = Field(description="the steps made so far this turn")
    plays: list[PlayHint] = Field(description="a move's best plays, best first")
    cube: CubeHint | None = Field(description="a cube decision")
    resignation: ResignationHint | None = Field(description="the answer to an offer to resign")
    doubles: list[DoubleHint] = Field(
        default_factory=list,
        description="after an Acey-deucey 1-2, the six doubles to name, best first",
    )


class TutorAsk(RequestBody):
    """What the tutor is asked to judge (``POST /api/matches/{id}/tutor``): the play made and
    not yet confirmed (``confirm``), or a cube action not yet sent."""

    action: Literal["confirm", "double", "take", "drop"] = Field(
        description="the action about to be sent: confirm the play made, double, take, drop"
    )
    threshold: Literal["doubtful", "bad", "very bad"] = Field(
        description="warn only of a mistake marked this or worse (GNU Backgammon's marks: "
        "more than 0.04, 0.08, 0.16 of equity lost)"
    )
    version: int = Field(ge=0, description="the state's version the action would be sent at")
    view: int = Field(0, ge=0, le=1, description="the seat whose side board places are from")
    lang: Literal["en", "vi", "mt", "fa", "km"] = Field(
        "en", description="the language of the reasons (the page's)"
    )


class TutorView(BaseModel):
    """The tutor's judgement of an action about to be sent: what it loses against the best
    (normalised to money, as the analysis counts it) and, when that is more than the
    threshold, a warning with the better play or cube action and its reasons."""

    version: int = Field(description="the state's version judged")
    seat: int = Field(description="the seat that would act")
    action: Literal["confirm", "double", "take", "drop"]
    played: str = Field(description="the play made (gnubg notation), or the cube action")
    best: str = Field(description="the best play or cube action")
    loss: float = Field(ge=0, description="the equity the action loses against the best (EMG)")
    mark: Literal["doubtful", "bad", "very bad"] | None = Field(
        description="the analysis's mark of a mistake of that size; null: none"
    )
    warn: bool = Field(description="the loss is more than the threshold asked: a warning")
    hint: HintView | None = Field(
        description="with a warning: the hint of the decision (the better plays or the cube "
        "decision, with their reasons); else null"
    )


class TutorNote(BaseModel):
    """A warning the tutor gave, kept with the match (``GET /api/matches/{id}/tutor``).
    ``game`` (from 1) and ``event`` (the number of that game's events then) say when; the
    record's next event of that game says what the player did: an undo or another step
    (taken back), or the action warned of (kept)."""

    game: int
    event: int
    seat: int
    action: Literal["confirm", "double", "take", "drop"]
    played: str
    best: str
    loss: float
    mark: Literal["doubtful", "bad", "very bad"] | None
    threshold: Literal["doubtful", "bad", "very bad"]


class TutorNotes(BaseModel):
    """The tutor's warnings in a match, oldest first."""

    notes: list[TutorNote]
