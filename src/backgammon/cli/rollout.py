"""``backgammon rollout ID``: roll a position out and print its value with error bars.

:mod:`backgammon.cli` registers it::

    subcommand("rollout", SUMMARY, *ARGUMENTS)(rollout_command)

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> for argument in ARGUMENTS:
...     _ = parser.add_argument(*argument.flags, **argument.options)
>>> args = parser.parse_args(["4HPwATDgc/ABMA", "--trials", "36", "--truncate", "1",
...                           "--seed", "1", "--workers", "1", "--no-progress"])
>>> rollout_command(args)  # doctest: +ELLIPSIS
Rollout of 4HPwATDgc/ABMA: 36 trials at 0-ply, truncated after 1 turn, seed 1, ...
...
0

A full gnubg ID or an XGID gives the match score (and the cube), and the cubeful figure is then
the match's:

>>> args = parser.parse_args(["4HPwATDgc/ABMA:MAGgAAAAAAAE", "--trials", "36", "--truncate",
...                           "1", "--seed", "1", "--workers", "1", "--no-progress"])
>>> rollout_command(args)  # doctest: +ELLIPSIS
Rollout of ...
  cubeful equity ... EMG ... to win the match ... at 0-0 in a 5-point match;...
0

``--cubeful`` plays the cube in the trials:

>>> args = parser.parse_args(["4HPwATDgc/ABMA", "--trials", "36", "--truncate", "1",
...                           "--seed", "1", "--workers", "1", "--no-progress", "--cubeful"])
>>> rollout_command(args)  # doctest: +ELLIPSIS
Rollout of ...
  (a cubeful rollout: the cube played in the trials by Janowski's model, money play; ...)
0
"""

from __future__ import annotations

import argparse
import json

from ..bot import RolloutResult, rollout
from ..cube import CubeContext
from ..formats.ids import setup_from_id
from ..game.match import Match
from .arguments import Argument, arg

SUMMARY = (
    "Roll a position out with the computer's play: its cubeless chances and equity, and "
    "its cubeful equity (money, or the match's at the ID's score): the cube model's on the "
    "rolled-out chances, or with --cubeful the cube played in the trials; with 95%% "
    "confidence intervals."
)


def _whole(text: str) -> int:
    number = int(text) if text.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more; got {text!r}")
    return number


#: ``--ray ADDRESS``, for every subcommand that rolls out (:mod:`backgammon.bot.pools`).
RAY = arg(
    "--ray", metavar="ADDRESS", default=None,
    help="run the workers on the Ray cluster at ADDRESS ('auto': the one this machine joined; "
    "'local': one started here), with the same result as here; needs backgammon[cluster]",
)

ARGUMENTS: tuple[Argument, ...] = (
    arg("id", metavar="ID",
        help="the position: a gnubg Position ID, a full gnubg ID (Position ID:Match ID) or an "
        "XGID, which also give the cube and the match score; the player on roll is rolled out "
        "before rolling"),
    arg("--trials", type=_whole, default=1296, metavar="N",
        help="games to play (default 1296; a multiple of 36 balances the first rolls)"),
    arg("--plies", type=_whole, default=0, metavar="P",
        help="the depth at which both sides choose their plays: 0 (the default), 1 or 2 "
        "(about 10 and 200 times slower than 0)"),
    arg("--truncate", type=_whole, default=0, metavar="T",
        help="stop each game after T turns and take the network's value (default 0: play on "
        "to the end)"),
    arg("--seed", type=_whole, metavar="S", help="seed of the dice (default: a random one, shown)"),
    arg("--workers", type=_whole, metavar="W",
        help="processes to use (default: one a core, of this machine or of the cluster)"),
    RAY,
    arg("--no-luck", dest="luck", action="store_false",
        help="no variance reduction (faster games, wider intervals)"),
    arg("--cubeful", action="store_true",
        help="play the cube in the trials (doubles, takes and drops by the cube model at "
        "0-ply, as GNU Backgammon's cubeful rollouts): a cubeful rollout"),
    arg("--no-progress", dest="progress", action="store_false", help="no progress bar"),
    arg("--json", action="store_true", help="print the result as JSON"),
)


def rollout_command(args: argparse.Namespace) -> int:
    """Run the rollout the arguments describe and print it."""
    setting = setup_from_id(args.id)
    setup = setting.setup
    match = Match(
        setting.length or 0,
        setup=setup,
        score=setting.score,
        crawford_game=setting.crawford_game,
    )
    cube = match.game.cube_context(setup.on_roll)
    result = rollout(
        setup.position,
        cube,
        trials=args.trials,
        plies=args.plies,
        truncate=args.truncate,
        seed=args.seed,
        workers=args.workers or None,
        luck=args.luck,
        progress=args.progress,
        ray=args.ray,
        cubeful=args.cubeful,
    )
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
    else:
        print(format_result(result, ignored_dice=setup.dice is not None, cube=cube))
    return 0


def format_result(
    result: RolloutResult, ignored_dice: bool = False, cube: CubeContext | None = None
) -> str:
    """The result as lines of text (``cube``: the one the cubeful figure was found with,
    to name its score)."""
    truncated = (
        f"truncated after {result.truncate} turn{'s' if result.truncate != 1 else ''}"
        if result.truncate else "played to the end"
    )
    luck = "with" if result.luck else "without"
    lines = [
        f"Rollout of {result.position_id}: {result.trials} trials at {result.plies}-ply, "
        f"{truncated}, seed {result.seed}, {luck} variance reduction."
    ]
    if ignored_dice:
        lines.append("The ID's dice are ignored: the position is rolled out before the roll.")
    names = ("win", "win gammon", "win backgammon", "lose gammon", "lose backgammon")
    for name, value, se in zip(
        names, result.probabilities.as_tuple(), result.probabilities_se, strict=True
    ):
        lines.append(f"  {name:<16}{100 * value:7.2f}%  ± {100 * 1.96 * se:5.2f}")
    low, high = result.equity_interval
    lines.append(
        f"  cubeless equity {result.equity:+.4f}  (se {result.equity_se:.4f}; 95%: "
        f"{low:+.4f} to {high:+.4f})"
    )
    low, high = result.cubeful_interval
    chance, chance_interval = result.match_winning_chance, result.match_winning_interval
    unit = "" if chance is None else " EMG"
    lines.append(
        f"  cubeful equity  {result.cubeful_equity:+.4f}{unit}  (se {result.cubeful_se:.4f}; "
        f"95%: {low:+.4f} to {high:+.4f})"
    )
    if chance is None or chance_interval is None:
        model = "Janowski's model, money play"
    else:
        lines.append(
            f"                  {100 * chance:.2f}% to win the match  (95%: "
            f"{100 * chance_interval[0]:.2f} to {100 * chance_interval[1]:.2f})"
        )
        score = cube.match if cube is not None else None
        model = "Janowski's lines in match winning chances at " + (
            f"{score.score[0]}-{score.score[1]} in a {score.length}-point match"
            + (" (Crawford)" if score.crawford else "")
            if score is not None else "the match's score"
        )
    if result.cubeful and result.doubled is not None and result.dropped is not None:
        lines.append(
            f"  (a cubeful rollout: the cube played in the trials by {model}; a double in "
            f"{100 * result.doubled:.1f}% of the trials, a drop ended {100 * result.dropped:.1f}%)"
        )
    else:
        lines.append(
            f"  (the cube model on the rolled-out chances: {model}; the cube is not played "
            "in the trials)"
        )
    return "\n".join(lines)
