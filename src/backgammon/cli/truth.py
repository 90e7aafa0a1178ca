"""``backgammon truth``: build, label and read the truth set (:mod:`backgammon.training.truth`).

:mod:`backgammon.cli` registers it::

    subcommand("truth", SUMMARY, *ARGUMENTS)(truth_command)

Three actions::

    backgammon truth choose --mat-dir DIR --people 500 --engines 500 --decisions FILE ...
    backgammon truth label [--workers N] [--limit N] [--commit]
    backgammon truth report [--weights FILE ...]

``label`` goes on from the last chunk written, so the same command resumes it on any clone;
with ``--commit`` each chunk is committed to git as it is written (only that file).
``report`` with several ``--weights`` adds each file's paired difference from the first.

>>> import argparse
>>> parser = argparse.ArgumentParser()
>>> for argument in ARGUMENTS:
...     _ = parser.add_argument(*argument.flags, **argument.options)
>>> parser.parse_args(["label", "--workers", "2"]).workers
2
"""

from __future__ import annotations

import argparse
import subprocess
import time
from collections import defaultdict
from pathlib import Path

from ..errors import BackgammonError
from ..training import truth
from .arguments import Argument, arg
from .rollout import RAY

SUMMARY = (
    "The truth set: choose its positions, roll them out to the end (resumable, chunk by "
    "chunk), and report networks' 0-ply error on it by class."
)

ARGUMENTS: tuple[Argument, ...] = (
    arg("action", choices=("choose", "label", "report")),
    arg("--out", type=Path, default=Path("data/truth"), help="the truth set's folder"),
    arg("--mat-dir", type=Path, action="append", default=[],
        help="choose: a folder of .mat files of matches people played (repeatable)"),
    arg("--source", default="",
        help="choose: where the .mat files came from and their licence, kept in the header"),
    arg("--skip-player", action="append", default=[],
        help="choose: leave out matches with a player of this name (a computer opponent)"),
    arg("--people", type=int, default=500, help="choose: positions from people's matches"),
    arg("--every-turn", action="store_true",
        help="choose: every turn of the .mat files a candidate, not one a game"),
    arg("--natural", action="store_true",
        help="choose: draw as the candidates come, not to the truth set's class shares"),
    arg("--from-positions", type=Path, action="append", default=[],
        help="choose: the positions of this folder (its positions.jsonl.gz) as candidates "
        "of people's matches, repeatable"),
    arg("--after-plays", type=int, default=0,
        help="choose: each candidate of people's matches replaced by the positions after "
        "this many best plays (0-ply) of a roll drawn for it (a label factory's)"),
    arg("--exclude", type=Path, action="append", default=[],
        help="choose: leave out the positions of this folder (the truth set's, for training "
        "labels), repeatable"),
    arg("--decisions", type=Path, action="append", default=[],
        help="choose: a decision set of engine games (bench/bot/decisions.py), repeatable"),
    arg("--engines", type=int, default=500, help="choose: positions from engine games"),
    arg("--disagreements", type=int, default=0,
        help="choose: this many more positions, those of all the candidates whose 0-ply and "
        "2-ply equities differ most (a label factory's, not the truth set's)"),
    arg("--seed", type=int, default=1, help="choose: the draw's seed"),
    arg("--workers", type=int, default=1, help="label: processes"),
    RAY,
    arg("--limit", type=int, default=None, help="label: stop after this many new labels"),
    arg("--minutes", type=float, default=None,
        help="label: stop after this many minutes (the labels under way then are dropped)"),
    arg("--chunk", type=int, default=10, help="label: labels a file"),
    arg("--target-se", type=float, default=truth.Settings.target_se,
        help="label: trials until the equity's standard error is at most this"),
    arg("--max-trials", type=int, default=truth.Settings.max_trials,
        help="label: the most trials a position"),
    arg("--truncate", type=int, default=0,
        help="label: turns before the 0-ply value stands in (0: to the end, the truth's)"),
    arg("--commit", action="store_true", help="label: commit each chunk to git as written"),
    arg("--weights", type=Path, action="append", default=[],
        help="report: a networks file to judge (default: the shipped networks); repeatable, "
        "each after the first also paired with the first"),
)


def truth_command(args: argparse.Namespace) -> int:
    if args.action == "choose":
        return _choose(args)
    if args.action == "label":
        return _label(args)
    return _report(args)


def _choose(args: argparse.Namespace) -> int:
    excluded = {c.id for folder in args.exclude for c in truth.read_positions(folder)[1]}
    people = [c for folder in args.mat_dir
              for c in truth.candidates_from_mat(
                  (p for p in folder.rglob("*") if p.is_file()), args.seed, args.skip_player,
                  args.every_turn)]
    people += [c for folder in args.from_positions for c in truth.read_positions(folder)[1]]
    if args.after_plays:
        people = list(truth.after_plays(people, args.after_plays, args.seed))
    people = [c for c in people if c.id not in excluded]
    engines = [c for path in args.decisions for c in truth.candidates_from_decisions(path)
               if c.id not in excluded]
    header = {"command": "backgammon " + " ".join(args.argv), "people_source": args.source,
              "engine_source": [str(path) for path in args.decisions]}
    groups = [("people", people, args.people), ("engines", engines, args.engines)]
    if args.disagreements:
        gaps = truth.disagreements([*people, *engines], args.disagreements)
        groups.append(("disagreements", gaps, len(gaps)))
    shares = None if args.natural else truth.SHARES
    chosen = truth.choose(args.out, groups, shares, args.seed, header)
    counts: dict[str, int] = defaultdict(int)
    for candidate in chosen:
        counts[candidate.cls] += 1
    print(f"{len(chosen)} positions ({len(people)} candidates from people's matches, "
          f"{len(engines)} from engine games): " + ", ".join(f"{c} {n}" for c, n in counts.items()))
    return 0


def _label(args: argparse.Namespace) -> int:
    def commit(path: Path) -> None:
        print(f"{time.strftime('%H:%M:%S')} {path}", flush=True)
        if args.commit:
            _commit(path)

    settings = truth.Settings(target_se=args.target_se, max_trials=args.max_trials,
                              truncate=args.truncate)
    made = truth.label(args.out, settings, args.chunk, args.workers, args.limit, commit,
                       args.minutes, args.ray)
    print(f"{made} labels added; {len(truth.read_labels(args.out))} in all")
    return 0


def _commit(path: Path) -> None:
    """Commit ``path`` alone (another commit in progress holds git's lock: try again)."""
    for attempt in range(10):
        added = subprocess.run(["git", "add", str(path)], capture_output=True)
        done = added.returncode == 0 and subprocess.run(
            ["git", "commit", "--quiet", "-m", f"labels: {path.parent.name}/{path.name}", "--",
             str(path)],
            capture_output=True,
        ).returncode == 0
        if done:
            return
        time.sleep(5 * (attempt + 1))
    print(f"could not commit {path}; it stays in the folder for the next commit", flush=True)


def _report(args: argparse.Namespace) -> int:
    labels = truth.read_labels(args.out)
    if not labels:
        raise BackgammonError(f"{args.out} has no labels yet.")
    for weights in args.weights or [None]:
        errors = truth.errors(labels, weights)
        print(f"{weights or 'shipped networks'}: 0-ply cubeless equity error against "
              f"{len(labels)} truth labels (RMS with the truth's variance subtracted; mean "
              "absolute)")
        for cls, (count, rms, mae) in errors.items():
            print(f"  {cls:9} {count:5}  rms {rms:.4f}  mean {mae:.4f}")
    base, *others = args.weights or [None]
    for weights in others:
        print(f"{weights} less {base}, paired over the same labels: mean absolute error, "
              "mean squared error")
        for cls, (mae, mae_se, mse, mse_se) in truth.paired(labels, weights, base).items():
            print(f"  {cls:9} {mae:+.4f} ± {mae_se:.4f}  {mse:+.5f} ± {mse_se:.5f}")
    return 0
