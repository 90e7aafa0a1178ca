"""Exact bear-offs: a one-sided table for up to 15 checkers on the six home points.

For every way of placing up to 15 checkers on the home points (54,264 positions; the checkers
not on them are off) the table holds two distributions of the number of rolls a player needs:
to bear off every checker, and to bear off at least one (for gammons). They come from dynamic
programming over the positions in order of pips, the fewest first: with each roll the player
makes the play that leaves the fewest rolls on average (for the second distribution, the one
that bears a checker off soonest), and every position that play can reach has fewer pips, so
its distribution is known already. No checker can be blocked or hit here, and once every
checker is home any die can be played, so these plays are all the rules allow.

Two players' distributions give the cubeless chances of a race in which both are bearing off
(:meth:`BearoffTable.outputs`): the player on roll wins when the other needs at least as many
rolls. The table is built by ``backgammon bearoff --out FILE`` (a few seconds), shipped in the
package as ``weights/bearoff.npz`` (the chances as uint16 fractions of 65,535) and loaded the
first time it is needed (:func:`shipped_table`).

>>> table = build_table()
>>> table.rolls((1, 0, 0, 0, 0, 0))[:3].tolist()   # one checker on the 1-point: one roll
[0.0, 1.0, 0.0]
>>> round(float(table.rolls((0, 0, 0, 0, 0, 1))[1]), 4)   # on the 6-point: 27 rolls of 36
0.75
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Sequence
from importlib import resources
from itertools import product
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from ..position import Position
from .encoding import Board, boards
from .evaluator import BoardEvaluator, NetworkEvaluator
from .network import OUTPUTS, Array
from .probabilities import Probabilities

POINTS = 6
MAX_CHECKERS = 15
#: How many positions the table holds: up to 15 checkers on 6 points, C(21, 6).
POSITIONS = 54_264
#: Entries of each distribution: 0 rolls up to the most any position needs.
MAX_ROLLS = 32
_SCALE = 65_535

Distribution = NDArray[np.float64]

# BINOMIAL[n, k] = C(n, k), for ranking positions in the combinatorial number system; the
# compiled kernel ranks with it too (kernel/evaluate.py).
BINOMIAL = np.array(
    [[math.comb(n, k) for k in range(POINTS + 1)] for n in range(MAX_CHECKERS + POINTS + 1)],
    dtype=np.int64,
)


def rank(counts: NDArray[np.integer]) -> NDArray[np.int64]:
    """The table index of each row of checker counts on points 1..6 ``(n, 6)``.

    With s_i the checkers on points 1..i, the index is the sum of C(s_i + i - 1, i): the
    combinatorial number system, since s_i + i - 1 rises strictly with i. It numbers the
    positions 0 (no checker left) to 54,263 without gaps.
    """
    sums = np.cumsum(counts, axis=1, dtype=np.int64)
    steps = np.arange(1, POINTS + 1)
    result: NDArray[np.int64] = BINOMIAL[sums + steps - 1, steps].sum(axis=1)
    return result


def _all_positions() -> NDArray[np.int64]:
    """Every count vector with at most 15 checkers, in table order ``(54264, 6)``."""
    rows = [c for c in product(range(MAX_CHECKERS + 1), repeat=POINTS) if sum(c) <= MAX_CHECKERS]
    counts = np.array(rows, dtype=np.int64)
    ordered = np.empty_like(counts)
    ordered[rank(counts)] = counts
    return ordered


def _single_steps(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """``steps[d - 1, x, p - 1]``: the position after moving a checker of position ``x`` from
    point ``p`` with a die ``d`` (``(6, N, 6)``), or, where that checker cannot move, some
    move that the die can make (there is always one while a checker is left).

    RULES.md, Bearing off: a checker on the die's point is borne off; a die larger than the
    highest occupied point bears off from the highest one.
    """
    n = len(counts)
    above = np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]  # checkers on point p or higher
    steps = np.zeros((POINTS, n, POINTS), dtype=np.int64)
    for die in range(1, POINTS + 1):
        legal = np.zeros((n, POINTS), dtype=bool)
        for point in range(1, POINTS + 1):
            higher = above[:, point] if point < POINTS else np.zeros(n, dtype=np.int64)
            legal[:, point - 1] = (counts[:, point - 1] > 0) & ((point >= die) | (higher == 0))
            moved = counts.copy()
            moved[:, point - 1] -= 1
            if point > die:
                moved[:, point - die - 1] += 1
            steps[die - 1, :, point - 1] = np.where(legal[:, point - 1], rank(moved.clip(0)), 0)
        # Fill the sources that cannot move with a legal move of the same die.
        first = legal.argmax(axis=1)
        fallback = steps[die - 1, np.arange(n), first]
        steps[die - 1] = np.where(legal, steps[die - 1], fallback[:, None])
    return steps


def _shift(distributions: Distribution) -> Distribution:
    """The distributions ``(..., MAX_ROLLS)`` one roll later."""
    shifted = np.zeros_like(distributions)
    shifted[..., 1:] = distributions[..., :-1]
    return shifted


class _Builder:
    """The dynamic programming of :func:`build_table`."""

    def __init__(self) -> None:
        self.counts = _all_positions()
        self.checkers = self.counts.sum(axis=1)
        self.steps = _single_steps(self.counts)
        n = len(self.counts)
        self.off = np.zeros((n, MAX_ROLLS))  # rolls to bear off every checker
        self.first = np.zeros((n, MAX_ROLLS))  # rolls to bear off one checker
        self.off[0, 0] = self.first[0, 0] = 1.0
        self.off_mean = np.zeros(n)
        self.first_mean = np.zeros(n)
        # For each die, the best position two steps of it reach from each position (by each
        # criterion): a double's four steps are two such pairs.
        self.best_pair = np.zeros((2, POINTS, n), dtype=np.int64)

    def build(self) -> BearoffTable:
        pips = self.counts @ np.arange(1, POINTS + 1)
        for pip in range(1, int(pips.max()) + 1):
            self._level(np.flatnonzero(pips == pip))
        return BearoffTable(self.off.astype(np.float32), self.first.astype(np.float32))

    def _pairs(self, rows: NDArray[np.int64], first: int, second: int) -> NDArray[np.int64]:
        """Positions after a step of ``first`` then of ``second`` from ``rows``: ``(k, 36)``."""
        after = self.steps[first - 1, rows]
        pairs: NDArray[np.int64] = self.steps[second - 1][after].reshape(len(rows), -1)
        return pairs

    def _choose(self, rows: NDArray[np.int64], candidates: NDArray[np.int64]) -> list[
        tuple[NDArray[np.int64], NDArray[np.bool_]]
    ]:
        """For each criterion, the candidate each row plays to and whether it bore off a
        checker (for the second criterion only)."""
        fewer = self.checkers[candidates] < self.checkers[rows][:, None]
        chosen = []
        for mean, bore_off in ((self.off_mean, None), (self.first_mean, fewer)):
            cost = mean[candidates] if bore_off is None else np.where(fewer, 0.0, mean[candidates])
            best = cost.argmin(axis=1)
            picked = candidates[np.arange(len(rows)), best]
            took = (
                np.zeros(len(rows), dtype=bool) if bore_off is None
                else bore_off[np.arange(len(rows)), best]
            )
            chosen.append((picked, took))
        return chosen

    def _level(self, rows: NDArray[np.int64]) -> None:
        """Fill in the positions ``rows``, which all have the same pips."""
        for die in range(1, POINTS + 1):
            pairs = self._pairs(rows, die, die)
            for criterion, (picked, _) in enumerate(self._choose(rows, pairs)):
                self.best_pair[criterion, die - 1, rows] = picked
        off = np.zeros((len(rows), MAX_ROLLS))
        first = np.zeros((len(rows), MAX_ROLLS))
        for high in range(1, POINTS + 1):
            for low in range(1, high + 1):
                if high == low:
                    pairs = self._pairs(rows, high, high)
                    chosen = [
                        self._choose(rows, self.best_pair[criterion, high - 1][pairs])[criterion]
                        for criterion in (0, 1)
                    ]
                    weight = 1.0 / 36
                else:
                    candidates = np.concatenate(
                        (self._pairs(rows, high, low), self._pairs(rows, low, high)), axis=1
                    )
                    chosen = self._choose(rows, candidates)
                    weight = 2.0 / 36
                (off_to, _), (first_to, took) = chosen
                off += weight * self.off[off_to]
                first += weight * np.where(took[:, None], self.first[0], self.first[first_to])
        self.off[rows] = _shift(off)
        self.first[rows] = _shift(first)
        rolls = np.arange(MAX_ROLLS)
        self.off_mean[rows] = self.off[rows] @ rolls
        self.first_mean[rows] = self.first[rows] @ rolls


class BearoffTable:
    """The two distributions of every position of the table, as float32 rows
    ``(54264, MAX_ROLLS)``: entry ``i`` is the chance of needing exactly ``i`` rolls."""

    def __init__(self, off: NDArray[np.float32], first: NDArray[np.float32]) -> None:
        if off.shape != (POSITIONS, MAX_ROLLS) or first.shape != off.shape:
            raise ValueError(f"A bearoff table has {POSITIONS} rows of {MAX_ROLLS} entries.")
        self.off = off
        self.first = first
        # Chances of needing at least i rolls, for the race sums of outputs() and the kernel's.
        self.off_tail = np.ascontiguousarray(np.cumsum(off[:, ::-1], axis=1)[:, ::-1])
        self.first_tail = np.ascontiguousarray(np.cumsum(first[:, ::-1], axis=1)[:, ::-1])

    def rolls(self, points: Sequence[int]) -> NDArray[np.float32]:
        """The distribution of the rolls to bear off every checker on points 1..6."""
        row: NDArray[np.float32] = self.off[self._index(points)]
        return row

    def first_rolls(self, points: Sequence[int]) -> NDArray[np.float32]:
        """The distribution of the rolls to bear off at least one of them."""
        row: NDArray[np.float32] = self.first[self._index(points)]
        return row

    @staticmethod
    def _index(points: Sequence[int]) -> int:
        counts = np.array([points], dtype=np.int64)
        if counts.shape != (1, POINTS) or counts.min() < 0 or counts.sum() > MAX_CHECKERS:
            raise ValueError(f"A bearoff position is up to {MAX_CHECKERS} checkers on 6 points.")
        return int(rank(counts)[0])

    def outputs(self, mine: Board, theirs: Board) -> Array:
        """The five probabilities ``(n, 5)`` of a batch of bear-offs (see :func:`is_bearoff`;
        both sides have checkers left), for the player on roll.

        The player on roll, needing ``i`` rolls, wins when the other needs ``i`` or more; wins
        a gammon when the other, with none off yet, needs ``i`` or more to bear one off; and
        loses a gammon when, with none off, it needs more rolls to bear one off than the
        other needs to finish. No backgammon is possible once both sides are home.
        """
        mine_rows = rank(mine[:, 1 : POINTS + 1])
        theirs_rows = rank(theirs[:, 1 : POINTS + 1])
        mine_off, theirs_off = self.off[mine_rows], self.off[theirs_rows]
        win = (mine_off * self.off_tail[theirs_rows]).sum(axis=1)
        win_gammon = (mine_off * self.first_tail[theirs_rows]).sum(axis=1)
        # Needing more than j rolls: the tail from j + 1.
        later = np.zeros_like(mine_off)
        later[:, :-1] = self.first_tail[mine_rows][:, 1:]
        lose_gammon = (theirs_off * later).sum(axis=1)
        values = np.zeros((len(mine), OUTPUTS), dtype=np.float32)
        values[:, 0] = win
        values[:, 1] = np.where(theirs[:, 0] == 0, win_gammon, 0.0)
        values[:, 3] = np.where(mine[:, 0] == 0, lose_gammon, 0.0)
        return values

    # Files

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table to a compressed ``.npz`` file (the chances as uint16 fractions)."""
        target = Path(path)
        partial = target.with_name(target.name + ".partial")
        with partial.open("wb") as file:
            np.savez_compressed(file, off=_to_uint16(self.off), first=_to_uint16(self.first))
        os.replace(partial, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> BearoffTable:
        """The table written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            return cls(_from_uint16(data["off"]), _from_uint16(data["first"]))


def _to_uint16(distributions: NDArray[np.float32]) -> NDArray[np.uint16]:
    return np.rint(distributions.astype(np.float64) * _SCALE).astype(np.uint16)


def _from_uint16(scaled: NDArray[np.uint16]) -> NDArray[np.float32]:
    return (scaled.astype(np.float32) / np.float32(_SCALE)).astype(np.float32)


def build_table() -> BearoffTable:
    """Compute the whole table (a few seconds)."""
    return _Builder().build()


#: Where the package keeps its table: ``backgammon/bot/weights/bearoff.npz``.
SHIPPED = "bearoff.npz"


@functools.cache
def shipped_table() -> BearoffTable:
    """The table shipped in the package, loaded once; built (and not saved) if it is missing."""
    resource = resources.files("backgammon.bot") / "weights" / SHIPPED
    if not resource.is_file():
        return build_table()
    with resources.as_file(resource) as path:
        return BearoffTable.load(path)


def is_bearoff(mine: Board, theirs: Board) -> NDArray[np.bool_]:
    """The rows where both sides have every checker left on their home points (and the game
    is not over): the positions the table answers exactly."""
    home = (mine[:, POINTS + 1 :].sum(axis=1) == 0) & (theirs[:, POINTS + 1 :].sum(axis=1) == 0)
    checkers = mine.sum(axis=1)
    result: NDArray[np.bool_] = home & (mine[:, 0] < checkers) & (theirs[:, 0] < checkers)
    return result


class BearoffEvaluator:
    """An evaluator that answers bear-offs from the table and everything else from ``base``."""

    def __init__(self, base: BoardEvaluator, table: BearoffTable | None = None) -> None:
        self.base = base
        self._table = table

    @property
    def table(self) -> BearoffTable:
        """The table (the shipped one unless given), loaded when first needed."""
        if self._table is None:
            self._table = shipped_table()
        return self._table

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.from_values(self.evaluate_batch([position])[0])

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        return self.evaluate_boards(*boards(positions))

    def evaluate_boards(self, mine: Board, theirs: Board) -> Array:
        """The outputs of a batch given as count arrays (see :func:`encoding.boards`): from
        the compiled kernel when the base is the networks, as every search computes them."""
        if isinstance(self.base, NetworkEvaluator):
            return self.base.kernel(self.table).evaluate(np.stack((mine, theirs), axis=1))
        return self._with_table(mine, theirs, self.base.evaluate_boards)

    def reference_boards(self, mine: Board, theirs: Board) -> Array:
        """:meth:`evaluate_boards` in numpy (the base's
        :meth:`~.evaluator.NetworkEvaluator.reference_boards`): what the tests hold the kernel
        to."""
        base = self.base
        return self._with_table(
            mine, theirs,
            base.reference_boards if isinstance(base, NetworkEvaluator) else base.evaluate_boards,
        )

    def _with_table(
        self, mine: Board, theirs: Board, evaluate: Callable[[Board, Board], Array]
    ) -> Array:
        """The table's exact values of the bear-offs, ``evaluate``'s of the rest."""
        exact = is_bearoff(mine, theirs)
        if not exact.any():
            return evaluate(mine, theirs)
        values = np.zeros((len(mine), OUTPUTS), dtype=np.float32)
        values[exact] = self.table.outputs(mine[exact], theirs[exact])
        rest = ~exact
        if rest.any():
            values[rest] = evaluate(mine[rest], theirs[rest])
        return values
