"""How much common dice cut the noise of the differences between the positions after one
roll's plays (the factory's groups, ``truth choose --after-plays``).

    .venv/bin/python bench/bot/common_dice.py [--labels data/labels/people-plays] [--groups 20]
        [--trials 36]

For the first ``groups`` groups of three positions (the positions after a roll's three best
plays) of a label folder's positions, each position is rolled out as the factory labels it
(to the end at 0-ply, luck-adjusted, stratified first rolls), once with the group's dice
shared and once with each position's own. Printed: the mean over the pairs of a group's
positions of the standard error of the difference of their equities, each way (with common
dice, from the trials' paired differences; with their own, from both trials' variances), and
the ratio of the two: the factor by which a difference's noise falls, or, squared, how many
times the trials it would take to do as well with each position's own dice.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from backgammon import Position
from backgammon.bot.kernel import Kernel
from backgammon.bot.probabilities import EQUITY_WEIGHTS
from backgammon.training import truth

EQUITY = np.array(EQUITY_WEIGHTS)


def equities(kernel: Kernel, position_id: str, trials: int, seed: int) -> np.ndarray:
    """Each trial's luck-adjusted cubeless equity of ``position_id``'s rollout."""
    results, lucks = kernel.rollout_trials(Position.from_id(position_id), 0, trials, seed)
    return (results - lucks) @ EQUITY - 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--labels", type=Path, default=Path("data/labels/people-plays"))
    parser.add_argument("--groups", type=int, default=20)
    parser.add_argument("--trials", type=int, default=36)
    args = parser.parse_args()
    _, positions = truth.read_positions(args.labels)
    groups: dict[str, list[str]] = defaultdict(list)
    for candidate in positions:
        if candidate.group is not None and candidate.cls != "bearoff":
            groups[candidate.group].append(candidate.id)
    full = [ids for ids in groups.values() if len(ids) == 3][: args.groups]
    kernel = Kernel.shipped()
    common, own = [], []
    for number, ids in enumerate(full):
        shared = [equities(kernel, i, args.trials, 1000 + number) for i in ids]
        apart = [equities(kernel, i, args.trials, 5000 + 7 * number + k)
                 for k, i in enumerate(ids)]
        for a, b in itertools.combinations(range(3), 2):
            common.append(np.std(shared[a] - shared[b], ddof=1) / math.sqrt(args.trials))
            own.append(math.sqrt((np.var(apart[a], ddof=1) + np.var(apart[b], ddof=1))
                                 / args.trials))
    with_common, with_own = float(np.mean(common)), float(np.mean(own))
    print(f"{len(full)} groups, {len(common)} pairs, {args.trials} trials a position: the "
          f"standard error of a difference {with_common:.4f} with common dice, "
          f"{with_own:.4f} with each position's own (ratio {with_own / with_common:.2f})")


if __name__ == "__main__":
    main()
