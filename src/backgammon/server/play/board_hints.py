"""Hints in the other games (Portes, Tavla, Plakoto, Fevga, Long Nardy, Acey-deucey): the
plays of the roll ranked by the game's network one ply ahead, each with its equity in
points and its reasons, or after an Acey-deucey 1-2 the doubles to name
(:mod:`backgammon.bot.games.judge`), in the shape of backgammon's hints
(:class:`~.hint_schemas.HintView`).

What is judged is read from the game at once, on the event loop, as plain values; the
judging runs in the hints' pool of threads, needing none of backgammon's bots.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import HTTPException, status

from ...analysis.reasons import board_hints_reasons, say_all
from ...bot import Level
from ...bot.games import MOST_PLIES, judge_doubles, judge_plays
from ...game import Phase
from ...game.board_game import BoardGame
from ...moves import Step
from .board_views import game_step_view
from .hint_schemas import DoubleHint, HintStepView, HintView, PlayHint

#: The depth of these games' hints: their deepest search, one ply ahead (10 to 60 ms a
#: decision, docs/lab/game-baselines.md).
PLIES = MOST_PLIES
#: The level reported: the strongest, which looks :data:`PLIES` ahead in these games.
LEVEL = Level.STRONGEST
#: The most plays a move hint ranks.
PLAYS = 5


def board_question(game: BoardGame, title: str, seat: int, view: int, version: int,
                   lang: str) -> Callable[[], HintView]:
    """What to judge for ``seat``, whose decision ``game`` waits for: its plays, or the
    double to name; 409 before the roll (these games have no cube decision to hint) and on
    an offer to resign (the computer answers it by what the board can still give)."""
    if game.phase in (Phase.MOVE, Phase.CONFIRM):
        return _move_question(game, seat, view, version, lang)
    if game.phase is Phase.NAME:
        return _double_question(game, seat, version)
    if game.phase is Phase.RESIGN:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"In {title} the computer weighs no resignation: it accepts one that gives as much "
            "as the board can still score, and rejects the others.",
        )
    raise HTTPException(
        status.HTTP_409_CONFLICT,
        f"{title} has no decision before the roll; ask again after the roll for the play.",
    )


def _move_question(game: BoardGame, seat: int, view: int, version: int,
                   lang: str) -> Callable[[], HintView]:
    assert game.turn is not None and game.dice is not None
    rules, plays, dice, travel = game.game, game.turn.plays, game.dice, game.game.travel
    made = [game_step_view(a, b, seat, view, travel) for a, b in game.turn.made]
    made_steps = tuple(game.turn.made)

    def place(step: Step) -> HintStepView:
        seen = game_step_view(step.from_point, step.to_point, seat, view, travel)
        return HintStepView(**seen.model_dump(), hit=step.hit)

    def remaining(steps: tuple[Step, ...]) -> list[HintStepView] | None:
        """The play's steps less those made (null when one made is not among them)."""
        left = list(steps)
        for move in made_steps:
            found = next((s for s in left if (s.from_point, s.to_point) == move), None)
            if found is None:
                return None
            left.remove(found)
        return [place(step) for step in left]

    def ask() -> HintView:
        ranked = judge_plays(rules, plays, plies=PLIES)[:PLAYS] if plays else []
        reasons = board_hints_reasons(rules, ranked) if ranked else []
        return HintView(
            version=version, seat=seat, kind="move", level=LEVEL, dice=list(dice),
            from_turn_start=bool(made), made=made, cube=None, resignation=None,
            plays=[PlayHint(play=str(judged.play), equity=judged.equity,
                            difference=-judged.loss, chances=None,
                            steps=[place(step) for step in judged.play.steps],
                            remaining=remaining(judged.play.steps),
                            reasons=say_all(why, lang))
                   for judged, why in zip(ranked, reasons, strict=True)],
        )

    return ask


def _double_question(game: BoardGame, seat: int, version: int) -> Callable[[], HintView]:
    rules, board = game.game, game.position

    def ask() -> HintView:
        doubles = judge_doubles(rules, board, plies=PLIES)
        return HintView(
            version=version, seat=seat, kind="double", level=LEVEL, dice=None,
            from_turn_start=False, made=[], plays=[], cube=None, resignation=None,
            doubles=[DoubleHint(die=judged.die, play=None if judged.play is None
                                else str(judged.play), equity=judged.equity,
                                difference=-judged.loss) for judged in doubles],
        )

    return ask
