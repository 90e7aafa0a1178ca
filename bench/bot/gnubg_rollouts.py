"""Our rollouts against GNU Backgammon's own (Debian's ``gnubg -t``) on a set of positions.

    .venv/bin/python bench/bot/gnubg_rollouts.py [--trials 1296] [--gnubg-trials 648] [--seed 1]
                                             [--workers W] [IDS ...]

Each position (a gnubg Position ID, the player on roll before rolling) is rolled out by both
programs: cubeless, played to the end, 0-ply play, variance reduction and quasi-random dice
(gnubg's defaults for these: ``set rollout trials N``, ``varredn on``, ``cubeful off``). The
two differ in their networks, so in their play: a difference beyond the combined error says
that the programs play the position differently, not that either rollout is wrong. gnubg
prints its results only to a terminal, so it runs under ``script``; it stops its cubeless
trials at its one-sided bearoff database, ours play on to the end.

The evaluators' difference is measured beside each rollout: each program's 0-ply cubeless
equity of the position (ours from the shipped networks, gnubg's ``eval`` static line, the
network its rollout plays with). A position agrees when the rollouts' difference is within
the combined 95% interval (``|z| < 1.96``), or within that interval widened by the 0-ply
difference (the issue's test: "the two programs' combined confidence intervals plus the
evaluators' known difference").

Printed: each position's cubeless equity from both rollouts, with 95% intervals, the
difference and its z-score (difference over the combined standard error), both 0-ply
equities and their difference, the verdict, then a summary line.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from backgammon import Position
from backgammon.bot.kernel import Kernel, boards_of
from backgammon.bot.probabilities import EQUITY_WEIGHTS
from backgammon.bot.rollout import rollout

GNUBG = "/usr/games/gnubg"

#: Positions of seeded 0-ply self-play games (the opening, contact, races, a bear-off).
POSITIONS = (
    "4HPwATDgc/ABMA",
    "7MwxBwBmm+DBAA",
    "27YFwADbvgEGAA",
    "jG+DBSBszsEBMA",
    "bDsDAE4zfQYBKA",
    "595GAADs7goAGA",
    "2+4GAgCfAQCAAA",
    "uJ6DAQyb7UYEAA",
    "cvtVAADb1wAAAA",
    "bXcnAAB1exMEAA",
)

_RESULT = re.compile(
    r"Current Position:\s+([-\d.]+) ([-\d.]+) ([-\d.]+) - ([-\d.]+) ([-\d.]+) ([-\d.]+) "
    r"CL ([-+\d.]+)\s+\[([-\d.]+) ([-\d.]+) ([-\d.]+) - ([-\d.]+) ([-\d.]+) ([-\d.]+) "
    r"CL\s+([-\d.]+)\]"
)

# The static (0-ply) line of gnubg's ``eval``: five probabilities, the cubeless equity.
_STATIC = re.compile(r"static:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+"
                     r"([-\d.]+)\s+([-+\d.]+)")


def gnubg_output(commands: str) -> str:
    """What Debian's gnubg prints for ``commands`` (one a line), run as a terminal session
    (through ``script``: gnubg prints its rollouts' progress only to a terminal)."""
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "commands.txt"
        script.write_text(commands)
        done = subprocess.run(
            ["script", "-qc", f"{GNUBG} -t -q < {script}", "/dev/null"],
            capture_output=True, text=True, check=True,
        )
    return done.stdout.replace("\r", "\n")


def gnubg_rollout(position_id: str, trials: int, seed: int) -> tuple[float, float, float]:
    """gnubg's cubeless rollout equity of the position, its standard error, and gnubg's 0-ply
    cubeless equity of the position."""
    commands = "\n".join((
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        "new game",
        # A money game, player 0 on roll, no dice rolled, cube centred.
        f"set gnubgid {position_id}:cAkAAAAAAAAA",
        "set evaluation chequerplay evaluation plies 0",
        "eval",
        f"set rollout trials {trials}",
        "set rollout varredn on",
        "set rollout cubeful off",
        "set rollout quasirandom on",
        f"set rollout seed {seed}",
        "rollout",
        "",
    ))
    text = gnubg_output(commands)
    found = _RESULT.findall(text)
    static = _STATIC.search(text)
    if not found or static is None:
        raise RuntimeError(f"gnubg printed no rollout or evaluation for {position_id}:\n"
                           f"{text[-2000:]}")
    last = found[-1]
    return float(last[6]), float(last[13]), float(static.group(6))


def our_static(position: Position) -> float:
    """Our 0-ply cubeless equity of the position (the shipped networks, through the kernel
    that plays our rollouts)."""
    values = Kernel.shipped().evaluate(boards_of([position]))[0]
    return float(np.dot(values, EQUITY_WEIGHTS)) - 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ids", nargs="*", default=list(POSITIONS))
    parser.add_argument("--trials", type=int, default=1296, help="our trials (1296)")
    parser.add_argument("--gnubg-trials", type=int, default=648, help="gnubg's trials (648)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    if shutil.which("script") is None or not Path(GNUBG).exists():
        raise SystemExit("This needs Debian's gnubg (/usr/games/gnubg) and `script`.")
    print(f"{'position':<16}{'gnubg':>18}{'ours':>18}{'difference':>11}{'z':>7}"
          f"{'0-ply gnubg':>12}{'ours':>8}{'diff':>8}  agree")
    zs = []
    widened = 0
    gnubg_seconds = ours_seconds = 0.0
    for position_id in args.ids:
        began = time.perf_counter()
        theirs, theirs_se, theirs_static = gnubg_rollout(
            position_id, args.gnubg_trials, args.seed
        )
        gnubg_seconds += time.perf_counter() - began
        began = time.perf_counter()
        position = Position.from_id(position_id)
        ours = rollout(position, trials=args.trials, seed=args.seed, workers=args.workers)
        ours_seconds += time.perf_counter() - began
        difference = ours.equity - theirs
        combined = math.hypot(ours.equity_se, theirs_se)
        z = difference / combined if combined > 0 else 0.0 if difference == 0 else math.inf
        zs.append(z)
        static = our_static(position)
        static_difference = static - theirs_static
        if abs(z) < 1.96:
            verdict = "yes"
        elif abs(difference) < 1.96 * combined + abs(static_difference):
            verdict = "with 0-ply diff"
            widened += 1
        else:
            verdict = "no"
        print(f"{position_id:<16}{theirs:+8.3f} ± {1.96 * theirs_se:.3f}  "
              f"{ours.equity:+8.3f} ± {1.96 * ours.equity_se:.3f}  {difference:+9.3f}"
              f"{z:+7.2f}{theirs_static:+12.3f}{static:+8.3f}{static_difference:+8.3f}  "
              f"{verdict}")
    inside = sum(abs(z) < 1.96 for z in zs)
    print(f"{inside} of {len(zs)} positions agree within the combined 95% interval, "
          f"{widened} more within it widened by the 0-ply difference; "
          f"mean |z| {sum(abs(z) for z in zs) / len(zs):.2f}; "
          f"gnubg {args.gnubg_trials} trials in {gnubg_seconds:.0f} s in all, "
          f"ours {args.trials} in {ours_seconds:.0f} s in all")


if __name__ == "__main__":
    main()
