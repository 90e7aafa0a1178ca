"""``backgammon analyse FILE.mat``: judge every decision of a match and report on it.

::

    backgammon analyse match.mat                  0-ply is quick; the default is 2-ply
    backgammon analyse match.mat --plies 0 --json match.json --html match.html
    backgammon analyse match.mat --workers 1      one process (the default: one per core)
    backgammon analyse match.mat --rollout 1:5 --rollout 2:3 --trials 1296 --truncate 10

The text summary (each game's statistics and marked decisions, then the match's) goes to
standard output, a progress bar to standard error; ``--json`` and ``--html`` write the
reports of :mod:`backgammon.analysis.report` and :mod:`backgammon.analysis.html`. A file that
cannot be read ends the command with its line and the reason; ``--rollout GAME:MOVE`` (as
often as wanted) rolls that checker decision out after the analysis
(:mod:`backgammon.analysis.rollout`), in every report, and a place with no checker
decision to roll out ends the command with a sentence; what the reader read past (a
game's points the rules do not give) is told on standard error, with its line.

A game or match of the other games, saved at the table as JSON (``save FILE.json``), is
analysed by its game's engine (:mod:`backgammon.analysis.board_games`: each decision's loss
in points, each player's totals; at most 1-ply, their deepest search); ``--json`` writes
its decisions, and the HTML report and rollouts are backgammon's.

The command is registered by :mod:`backgammon.cli` from :data:`ARGUMENTS` and
:func:`analyse_command`; :func:`build_parser` makes a parser of its own, for tests.

>>> build_parser().parse_args(["m.mat", "--plies", "0"]).plies
0
>>> build_parser().parse_args(["m.mat", "--rollout", "2:14", "--rollout", "1:3"]).rollout
[(2, 14), (1, 3)]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..analysis import Analyser
from ..analysis.html import html_report
from ..analysis.report import text_report, to_json
from ..analysis.rollout import TRIALS, with_rollouts
from ..bot import MAX_PLIES
from ..errors import BackgammonError
from ..formats.mat import MatWarning, read_mat
from .arguments import Argument, arg
from .rollout import RAY

#: The subcommand's summary, for the list of commands.
SUMMARY = (
    "Analyse a match or money session from a .mat file: every checker play, cube decision "
    "and roll judged, with statistics per player as GNU Backgammon reports them."
)


def _workers(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"the workers are 1 or more; got {text!r}")
    return int(text)


def _plies(text: str) -> int:
    number = int(text) if text.isdigit() else -1
    if not 0 <= number <= MAX_PLIES:
        raise argparse.ArgumentTypeError(f"the depth is 0 to {MAX_PLIES} plies; got {text!r}")
    return number


def _place(text: str) -> tuple[int, int]:
    game, colon, move = text.partition(":")
    if not (colon and game.isdigit() and move.isdigit() and int(game) >= 1 and int(move) >= 1):
        raise argparse.ArgumentTypeError(
            f"a decision is GAME:MOVE, two numbers from 1 (as the reports number them), "
            f"such as 1:5; got {text!r}")
    return int(game), int(move)


def _count(least: int, what: str) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not text.isdigit() or int(text) < least:
            raise argparse.ArgumentTypeError(f"the {what} are {least} or more; got {text!r}")
        return int(text)
    return parse


#: The subcommand's arguments.
ARGUMENTS: tuple[Argument, ...] = (
    arg("file", metavar="FILE.mat", help="the match to analyse (.mat; or the other games' "
        "JSON saved at the table)"),
    arg("--plies", type=_plies, default=2, metavar="N",
        help="the depth of the analysis (default 2; 0 is quick)"),
    arg("--workers", type=_workers, default=None, metavar="N",
        help="processes judging the games (default: one per core)"),
    arg("--json", metavar="OUT", help="write the analysis as JSON to OUT"),
    arg("--html", metavar="OUT", help="write the analysis as an HTML page to OUT"),
    arg("--rollout", type=_place, action="append", default=[], metavar="GAME:MOVE",
        help="roll out the checker decision of MOVE of GAME after the analysis (repeatable)"),
    arg("--trials", type=_count(2, "trials"), default=TRIALS, metavar="N",
        help=f"trials of each rolled-out play (default {TRIALS})"),
    arg("--truncate", type=_count(0, "turns"), default=0, metavar="T",
        help="turns a rollout plays before the 0-ply value stands in (default 0: to the end)"),
    RAY,
    arg("--no-progress", action="store_true", help="no progress bar"),
)


def build_parser() -> argparse.ArgumentParser:
    """A parser of the subcommand's arguments alone."""
    parser = argparse.ArgumentParser(prog="backgammon analyse", description=SUMMARY)
    for argument in ARGUMENTS:
        parser.add_argument(*argument.flags, **argument.options)
    return parser


def analyse_command(args: argparse.Namespace) -> int:
    """Run the subcommand; a file that cannot be read or written raises BackgammonError."""
    if str(args.file).lower().endswith(".json"):
        return _board_command(args)
    warnings: list[MatWarning] = []
    try:
        match = read_mat(args.file, warnings)
    except OSError as exc:
        raise BackgammonError(f"Cannot read {args.file}: {exc.strerror or exc}.") from exc
    for warning in warnings:
        print(f"{args.file}: warning: {warning}", file=sys.stderr)
    analyser = Analyser(plies=args.plies, workers=args.workers)
    if args.no_progress:
        analysis = analyser.analyse(match)
    else:
        from tqdm import tqdm  # type: ignore[import-untyped]

        with tqdm(desc="Analysing", unit=" turns", file=sys.stderr) as bar:

            def progress(done: int, total: int) -> None:
                bar.total = total
                bar.update(done - bar.n)

            analysis = analyser.analyse(match, progress)
    if args.rollout:
        analysis = with_rollouts(analysis, args.rollout, trials=args.trials,
                                 truncate=args.truncate, workers=args.workers, ray=args.ray)
    print(text_report(analysis), end="")
    for path, write in ((args.json, _json), (args.html, html_report)):
        if path is not None:
            try:
                Path(path).write_text(write(analysis), encoding="utf-8")
            except OSError as exc:
                raise BackgammonError(f"Cannot write {path}: {exc.strerror or exc}.") from exc
    return 0


def _json(analysis: Any) -> str:
    return json.dumps(to_json(analysis), indent=1)


def _board_command(args: argparse.Namespace) -> int:
    """Analyse a game or match of the other games saved as JSON at the table."""
    # Imported here: the table's reader, and the other games' engine, only for such a file.
    from ..analysis.board_games import analyse_board_record, board_text_report, board_to_json
    from ..bot.games import MOST_PLIES
    from ..game import BoardGame, BoardMatch
    from .files import load

    record = load(args.file)
    if not isinstance(record, BoardMatch | BoardGame):
        raise BackgammonError(f"{args.file} holds backgammon: analyse reads backgammon from "
                              "a .mat file (export FILE.mat at the table).")
    if args.html is not None or args.rollout:
        raise BackgammonError("The HTML report and rollouts are backgammon's: the other "
                              "games' analysis is written as text and --json.")
    # A match names its players; a lone game its colours ("white": White).
    analysis = analyse_board_record(record, plies=min(args.plies, MOST_PLIES))
    print(board_text_report(analysis), end="")
    if args.json is not None:
        try:
            Path(args.json).write_text(json.dumps(board_to_json(analysis), indent=1),
                                       encoding="utf-8")
        except OSError as exc:
            raise BackgammonError(f"Cannot write {args.json}: {exc.strerror or exc}.") from exc
    return 0
