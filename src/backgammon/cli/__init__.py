"""The console script ``backgammon``: one command, with a subcommand for each task.

::

    backgammon                          play in the terminal (the same as ``backgammon play``)
    backgammon play --variant nackgammon
    backgammon play --position 4HPwATDgc/ABMA
    backgammon moves 4HPwATDgc/ABMA 31  the board and the numbered legal plays of a roll
    backgammon train --games 400000     train the computer player by self-play
    backgammon --version

A subcommand is one function, registered with :func:`subcommand`: it takes the parsed
arguments and returns the exit status. Bad input ends with one line on standard error and
status 2, never a traceback.

>>> main(["moves", "4HPwATDgc/ABMA", "2-1"])  # doctest: +ELLIPSIS
 +13-14-15-16-17-18-+---+19-20-21-22-23-24-+
...
Legal plays of 2-1 (15):
  1. ...
 15. ...
0
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from ..dice import parse_dice
from ..errors import BackgammonError
from ..position import MAX_CHECKERS, Position
from ..variants import Variant
from .interactive import format_plays, outcome_text, run

#: What a subcommand does with its parsed arguments: the exit status.
Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Argument:
    """One ``add_argument`` call of a subcommand: its names or flags and its options."""

    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def arg(*flags: str, **options: Any) -> Argument:
    """An argument of a subcommand, given as to :meth:`argparse.ArgumentParser.add_argument`."""
    return Argument(flags, options)


@dataclass(frozen=True)
class _Subcommand:
    summary: str
    arguments: tuple[Argument, ...]
    handler: Handler


_SUBCOMMANDS: dict[str, _Subcommand] = {}

#: The subcommand run when the command line names none.
DEFAULT_SUBCOMMAND = "play"


def subcommand(name: str, summary: str, *arguments: Argument) -> Callable[[Handler], Handler]:
    """Register the decorated function as the subcommand ``name`` of ``backgammon``."""

    def register(handler: Handler) -> Handler:
        _SUBCOMMANDS[name] = _Subcommand(summary, arguments, handler)
        return handler

    return register


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="backgammon",
        description="Backgammon: play, study positions, and more.",
        epilog=f"With no command, {DEFAULT_SUBCOMMAND!r} is run.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for name, command in _SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=command.summary, description=command.summary)
        for argument in command.arguments:
            sub.add_argument(*argument.flags, **argument.options)
        sub.set_defaults(handler=command.handler)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``backgammon`` command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Options with no subcommand before them belong to the default one: `backgammon --variant
    # nackgammon` plays Nackgammon. The parser's own options stay with it.
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        args.insert(0, DEFAULT_SUBCOMMAND)
    parser = build_parser()
    namespace = parser.parse_args(args)
    handler: Handler = namespace.handler
    try:
        return handler(namespace)
    except BackgammonError as exc:
        parser.exit(2, f"backgammon {namespace.command}: error: {exc}\n")


def _version() -> str:
    try:
        return version("backgammon")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _checker_count(text: str) -> int:
    number = int(text) if text.isdigit() else 0
    if not 1 <= number <= MAX_CHECKERS:
        raise argparse.ArgumentTypeError(f"a side has from 1 to {MAX_CHECKERS} checkers")
    return number


@subcommand(
    "play",
    "Play on the board in the terminal: set up a position, enter or roll dice, make plays.",
    arg(
        "--variant",
        choices=[variant.value for variant in Variant],
        default="standard",
        help="the variant whose start to set up (default: standard)",
    ),
    arg(
        "--position",
        metavar="ID",
        help="start from this gnubg Position ID instead, with the variant's checkers a side",
    ),
)
def _play(args: argparse.Namespace) -> int:
    variant = Variant(args.variant)
    position = None
    if args.position is not None:
        position = Position.from_id(args.position, checkers=variant.checkers)
    return run(variant=variant, position=position)


@subcommand(
    "moves",
    "Print the board and the numbered legal plays of a position and a roll.",
    arg("id", metavar="ID", help="a gnubg Position ID, the player on roll's view"),
    arg("dice", metavar="DICE", nargs="+", help="the roll: 31, 3-1 or 3 1"),
    arg(
        "--checkers",
        type=_checker_count,
        default=MAX_CHECKERS,
        metavar="N",
        help="checkers a side, to count those borne off (default 15; 3 for Hypergammon)",
    ),
)
def _moves(args: argparse.Namespace) -> int:
    position = Position.from_id(args.id, checkers=args.checkers)
    dice = parse_dice(" ".join(args.dice))
    print(position)
    outcome = position.outcome()
    if outcome is not None:
        # The position has no colours: the player on roll is drawn as O.
        print(f"The game is over: {outcome_text(outcome, 'O')}")
        return 0
    plays = position.legal_plays(dice)
    roll = f"{dice[0]}-{dice[1]}"
    if not plays:
        print(f"No legal play with {roll}: the player on roll dances.")
        return 0
    print(f"Legal plays of {roll} ({len(plays)}):")
    print(format_plays(plays))
    return 0


@subcommand(
    "train",
    "Train the computer player's networks by self-play TD(lambda), with checkpoints.",
    arg("--games", type=int, default=400_000, help="games in the whole run (default 400000)"),
    arg("--out", default="data/training", help="folder of checkpoints (default data/training)"),
    arg("--resume", action="store_true", help="go on from the checkpoint in --out"),
    arg("--seed", type=int, default=1, help="seed of the weights and dice (default 1)"),
    arg("--hidden", type=int, default=80, help="hidden units of the contact network (80)"),
    arg("--race-hidden", type=int, default=40, help="hidden units of the race network (40)"),
    arg("--lam", type=float, default=0.7, help="TD(lambda)'s lambda (default 0.7)"),
    arg("--lr", type=float, default=0.03, help="learning rate at the start (default 0.03)"),
    arg("--lr-end", type=float, default=0.006, help="learning rate at the end (default 0.006)"),
    arg("--parallel", type=int, default=32, help="games played at once (default 32)"),
    arg("--eval-every", type=int, default=10_000, metavar="N",
        help="duel pubeval and write the checkpoint every N games (default 10000; 0: never)"),
    arg("--eval-games", type=int, default=200, help="games of each duel (default 200)"),
    arg("--checkpoint-minutes", type=float, default=10.0, metavar="M",
        help="keep a copy of the checkpoint every M minutes (default 10)"),
    arg("--no-progress", action="store_true", help="no progress bar"),
)
def _train(args: argparse.Namespace) -> int:
    # Training runs one process on one core: OpenBLAS's threads only fight over the cores for
    # batches this small. The variable is read when numpy loads, so it is set before.
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from pathlib import Path

    from ..bot.train import Settings, train

    return train(
        Settings(
            games=args.games,
            seed=args.seed,
            hidden=args.hidden,
            race_hidden=args.race_hidden,
            lam=args.lam,
            lr=args.lr,
            lr_end=args.lr_end,
            parallel=args.parallel,
            eval_every=args.eval_every,
            eval_games=args.eval_games,
            checkpoint_minutes=args.checkpoint_minutes,
            out=Path(args.out),
            resume=args.resume,
            progress=not args.no_progress,
        )
    )
