"""``backgammon hint ID`` and ``backgammon eval ID``: the engine's answers for scripts, the
same as the HTTP engine API's (:mod:`backgammon.bot.answers`), as text or, with ``--json``,
as the API's JSON.

ID is a gnubg Position ID (the player on roll to roll, money play), a full gnubg ID or an
XGID (which also give the dice, the cube and the match score). ``hint`` ranks the plays of the
dice (``--dice``, or the ID's), or gives the cube decision when no dice are rolled, with the
reasons of each in words (``--lang``, the text only); ``eval`` gives the position's
probabilities and equities before the roll.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> for argument in HINT_ARGUMENTS:
...     _ = parser.add_argument(*argument.flags, **argument.options)
>>> hint_command(parser.parse_args(["4HPwATDgc/ABMA", "--dice", "31", "--plies", "0"]))
... # doctest: +ELLIPSIS
Position 4HPwATDgc/ABMA, money play, 3-1 at 0-ply (16 legal plays):
 1. 8/5 6/5 ...
...
0
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis.reasons import LANGUAGES, cube_reasons, hints_reasons, say_all
from ..bot import (
    MAX_PLIES,
    PROBABILITY_NAMES,
    Bot,
    CubeMoment,
    CubeQuestion,
    Hint,
    Probabilities,
    cube_answer,
    eval_answer,
    move_answer,
)
from ..cube import CubeContext
from ..dice import Dice, parse_dice
from ..formats.ids import setup_from_id
from ..position import Position
from .arguments import Argument, arg

HINT_SUMMARY = (
    "The computer's best plays of a roll in a position (or its cube decision before the "
    "roll), as the HTTP engine API gives them."
)
EVAL_SUMMARY = (
    "A position's winning chances and its cubeless and cubeful equities, as the HTTP engine "
    "API gives them."
)


def _plies(text: str) -> int:
    number = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 <= number <= MAX_PLIES:
        raise argparse.ArgumentTypeError(f"the depth is 0 to {MAX_PLIES} plies; got {text!r}")
    return number


def _dice(text: str) -> Dice:
    try:
        return parse_dice(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


_ID = arg("id", metavar="ID", help="a gnubg Position ID, a full gnubg ID or an XGID")
_PLIES = arg("--plies", type=_plies, default=2, metavar="N",
             help=f"the depth of the search, 0 to {MAX_PLIES} (default 2)")
_JSON = arg("--json", action="store_true", help="print the engine API's JSON")

HINT_ARGUMENTS: tuple[Argument, ...] = (
    _ID,
    arg("--dice", type=_dice, metavar="DICE",
        help="the roll to play, like 31 (default: the ID's dice; none: the cube decision)"),
    _PLIES,
    arg("--plays", type=int, default=5, metavar="N", help="how many plays to list (default 5)"),
    arg("--lang", choices=LANGUAGES, default="en",
        help="the language of the reasons (default en)"),
    _JSON,
)
EVAL_ARGUMENTS: tuple[Argument, ...] = (_ID, _PLIES, _JSON)


def _question(text: str) -> tuple[Position, Dice | None, CubeContext]:
    """The position (its player on roll's view), the dice rolled and the cube of an ID."""
    setting = setup_from_id(text)
    setup = setting.setup
    match = setting.match()
    return setup.position, setup.dice, match.game.cube_context(setup.on_roll)


def hint_command(args: argparse.Namespace) -> int:
    """Print the ranked plays of the roll, or the cube decision before a roll."""
    position, dice, cube = _question(args.id)
    bot = Bot(plies=args.plies)
    dice = args.dice or dice
    if dice is None:
        answer = cube_answer(bot, position, cube)
        if args.json:
            print(json.dumps(answer, indent=2))
            return 0
        question = CubeQuestion(position, cube, 0, CubeMoment.ROLL)
        why = cube_reasons(question, bot.cube_decision(position, cube))
        print(_cube_text(answer) + _why(say_all(why, args.lang)))
        return 0
    answer = move_answer(bot, position, dice, cube, max(args.plays, 1))
    if args.json:
        print(json.dumps(answer, indent=2))
        return 0
    hints = [
        Hint(
            position.parse_play(play["play"], dice),
            Probabilities.from_values(play["probabilities"][name] for name in PROBABILITY_NAMES),
            play["equity"],
        )
        for play in answer["plays"]
    ]
    reasons = [say_all(why, args.lang) for why in hints_reasons(hints)]
    print(_move_text(answer, reasons))
    return 0


def eval_command(args: argparse.Namespace) -> int:
    """Print the position's probabilities and equities."""
    position, _dice_rolled, cube = _question(args.id)
    answer = eval_answer(Bot(plies=args.plies), position, cube)
    print(json.dumps(answer, indent=2) if args.json else _eval_text(answer))
    return 0


def _heading(answer: dict[str, Any]) -> str:
    match = answer["match"]
    stake = (
        "money play"
        if match is None
        else f"{match['score'][0]}-{match['score'][1]} in a {match['length']}-point match"
        + (" (Crawford)" if match["crawford"] else "")
    )
    return f"Position {answer['position_id']}, {stake}"


def _chances(p: dict[str, float]) -> str:
    return (
        f"win {100 * p['win']:.1f}% (gammon {100 * p['win_gammon']:.1f}%, backgammon "
        f"{100 * p['win_backgammon']:.1f}%), lose gammon {100 * p['lose_gammon']:.1f}%"
    )


def _why(reasons: list[str], indent: str = " ") -> str:
    """The reasons on a line of their own (nothing where there are none)."""
    return f"\n{indent}Why: {'; '.join(reasons)}." if reasons else ""


def _move_text(answer: dict[str, Any], reasons: list[list[str]]) -> str:
    high, low = answer["dice"]
    lines = [
        f"{_heading(answer)}, {high}-{low} at {answer['plies']}-ply "
        f"({answer['legal']} legal play{'s' if answer['legal'] != 1 else ''}):"
    ]
    if not answer["plays"]:
        lines.append(" No checker can move.")
    for play in answer["plays"]:
        behind = f" ({play['difference']:+.3f})" if play["rank"] > 1 else ""
        lines.append(
            f"{play['rank']:2}. {play['play']:<24} {play['equity']:+.3f}{behind}  "
            f"{_chances(play['probabilities'])}" + _why(reasons[play["rank"] - 1], "     ")
        )
    return "\n".join(lines)


def _equity(figure: dict[str, float | None]) -> str:
    if figure["equity"] is None:
        return "-"
    chance = figure["match_winning_chance"]
    return f"{figure['equity']:+.3f}" + (f" ({100 * chance:.1f}% to win the match)"
                                         if chance is not None else "")


def _cube_text(answer: dict[str, Any]) -> str:
    equities = answer["equities"]
    response = answer["response"]
    return "\n".join(
        [
            f"{_heading(answer)}, cube {answer['cube']['value']} ({answer['cube']['owner']}), "
            f"before the roll, at {answer['plies']}-ply:",
            f" {_chances(answer['probabilities'])}",
            f" no double     {_equity(equities['no_double'])}",
            f" double, take  {_equity(equities['double_take'])}",
            f" double, drop  {_equity(equities['double_drop'])}",
            f" Right action: {answer['action']}; to a double: {response}.",
        ]
    )


def _eval_text(answer: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"{_heading(answer)}, before the roll, at {answer['plies']}-ply:",
            f" {_chances(answer['probabilities'])}",
            f" cubeless equity {answer['cubeless_equity']:+.3f}",
            f" cubeful equity  {_equity(answer['cubeful'])}",
        ]
    )
