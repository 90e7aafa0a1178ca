"""Labelling methods against the truth set: each one's error, noise and cost a label.

    .venv/bin/python bench/bot/label_methods.py [--truth data/truth] [--limit N] [--classes ...]

For each position of the truth set labelled so far (bear-offs left out: the table answers
them exactly), each method labels the position twice, with two seeds where it has dice, and
is timed (CPU seconds of this process). Printed, a method a line: its cost a label, its
error against the truth (the root mean square of label less truth, the truth's own variance
subtracted: what a network trained on such labels is pulled by), its noise (the standard
deviation of one label, from the two seeds' differences) and its bias (what is left of the
error once the noise is taken out: the part more trials would not remove), then the error
by class. The methods are those ``backgammon train --stage rollout`` and the search offer:
the network's own 0-, 1- and 2-ply values, and rollouts by trials, truncation and luck
adjustment.

The truth is our own 0-ply play rolled out to the end (data/truth/README.md): a method that
plays as the truth's rollouts do shares their bias and is not charged for it.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from backgammon import Position
from backgammon.bot import Bot, Level
from backgammon.bot.rollout import rollout
from backgammon.training import truth

#: A method: the cubeless equity it labels a position with, given a seed.
Method = Callable[[Position, int], float]


def search(plies: int) -> Method:
    bot = Bot(level=Level.WORLD_CLASS)

    def label(position: Position, seed: int) -> float:
        bot.forget()  # each label thought out afresh, as a new position would be
        return bot.evaluate(position, plies=plies).equity

    return label


def rolled_out(trials: int, truncate: int, luck: bool) -> Method:
    def label(position: Position, seed: int) -> float:
        return rollout(position, trials=trials, truncate=truncate, seed=seed, workers=1,
                       luck=luck).equity

    return label


METHODS: dict[str, Method] = {
    "0-ply": search(0),
    "1-ply": search(1),
    "2-ply": search(2),
    "3-ply": search(3),
    "36 plain trials, 9 turns": rolled_out(36, 9, False),
    "144 plain trials, 9 turns": rolled_out(144, 9, False),
    "36 plain trials, 18 turns": rolled_out(36, 18, False),
    "36 luck-adjusted, 9 turns": rolled_out(36, 9, True),
    "144 luck-adjusted, 9 turns": rolled_out(144, 9, True),
    "36 luck-adjusted, 18 turns": rolled_out(36, 18, True),
    "72 luck-adjusted, 18 turns": rolled_out(72, 18, True),
    "108 luck-adjusted, 18 turns": rolled_out(108, 18, True),
    "36 luck-adjusted, 27 turns": rolled_out(36, 27, True),
    "36 luck-adjusted, to the end": rolled_out(36, 0, True),
    "108 luck-adjusted, to the end": rolled_out(108, 0, True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--truth", type=Path, default=Path("data/truth"))
    parser.add_argument("--limit", type=int, default=None, help="at most this many positions")
    parser.add_argument("--methods", nargs="*", default=list(METHODS), choices=list(METHODS))
    options = parser.parse_args()
    labels = [row for row in truth.read_labels(options.truth) if row["class"] != "bearoff"]
    labels = labels[: options.limit]
    print(f"{len(labels)} truth labels (bear-offs left out), "
          f"mean truth standard error {statistics.fmean(r['equity_se'] for r in labels):.4f}")
    positions = [Position.from_id(row["id"]) for row in labels]
    for position in positions[:2]:  # the kernel compiled before anything is timed
        METHODS["36 luck-adjusted, 9 turns"](position, 1)
        METHODS["2-ply"](position, 1)
    print(f"{'method':32} {'CPU s':>8} {'error':>7} {'noise':>7} {'bias':>7}   by class")
    for name in options.methods:
        method = METHODS[name]
        started = time.process_time()
        firsts, seconds = [], []
        for index, position in enumerate(positions):
            firsts.append(method(position, 2 * index + 1))
            seconds.append(method(position, 2 * index + 2))
        cost = (time.process_time() - started) / (2 * len(positions))
        truths = [row["equity"] for row in labels]
        variances = [row["equity_se"] ** 2 for row in labels]
        squared = [(a - t) ** 2 for a, t in zip(firsts, truths, strict=True)]
        squared += [(b - t) ** 2 for b, t in zip(seconds, truths, strict=True)]
        error = math.sqrt(max(statistics.fmean(squared) - statistics.fmean(variances), 0.0))
        noise = math.sqrt(statistics.fmean((a - b) ** 2 / 2 for a, b in
                                           zip(firsts, seconds, strict=True)))
        bias = math.sqrt(max(error**2 - noise**2, 0.0))
        by_class: dict[str, list[float]] = defaultdict(list)
        for row, a, b in zip(labels, firsts, seconds, strict=True):
            by_class[row["class"]] += [(a - row["equity"]) ** 2 - row["equity_se"] ** 2,
                                       (b - row["equity"]) ** 2 - row["equity_se"] ** 2]
        classes = " ".join(f"{cls} {math.sqrt(max(statistics.fmean(v), 0.0)):.3f}"
                           for cls, v in sorted(by_class.items()))
        print(f"{name:32} {cost:8.3f} {error:7.4f} {noise:7.4f} {bias:7.4f}   {classes}",
              flush=True)


if __name__ == "__main__":
    main()
