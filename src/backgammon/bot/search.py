"""Search: the evaluation of positions n plies deep, and the ranking of a roll's plays.

Plies are counted as GNU Backgammon counts them. At 0-ply a position's value is the
evaluator's. At n-ply it is the average over the 21 rolls of the value, at (n-1)-ply, of the
position after the play that the player on roll makes with that roll, chosen at 0-ply, as
inside GNU Backgammon's searches.

With the compiled kernel of the networks (``Search(evaluator, kernel=...)``, as every
:class:`~backgammon.bot.Bot` of the networks has) the values at every depth come from
:meth:`~backgammon.bot.kernel.Kernel.values`, which keeps the whole tree below the positions
asked about as boards. Without it (any other evaluator) each level of the tree is evaluated
as one batch: every position of a level is expanded (its rolls and legal plays), all their
results are evaluated at once, and then the level below is evaluated in the same way.

Values are cached by position and depth (and, without the kernel, so are the chosen replies
of each position), so the stages of one decision share their work, and so do successive
decisions.

A roll's plays are ranked in stages (:meth:`Search.rank`): all of them at 0-ply, then those
that pass the first filter at 1-ply, and so on (GNU Backgammon's move filters: keep at most
``keep`` plays within ``threshold`` of the best).

>>> from backgammon import Position
>>> from backgammon.bot.evaluator import FakeEvaluator
>>> search = Search(FakeEvaluator())
>>> search.values([Position.initial()], plies=1).shape
(1, 5)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..dice import ALL_ROLLS, ROLL_CHANCES
from ..moves import Play
from ..position import Position
from .encoding import boards
from .evaluator import Evaluator, terminal_values
from .kernel import Kernel, boards_of
from .network import OUTPUTS, Array, equities, flip_outputs

#: The weight of each of the 21 rolls (ALL_ROLLS order) out of 1: doubles 1/36, others 2/36.
ROLL_WEIGHTS = np.array(ROLL_CHANCES, dtype=np.float32)


@dataclass(frozen=True)
class MoveFilter:
    """Keep at most ``keep`` plays whose equity is within ``threshold`` of the best."""

    keep: int
    threshold: float


#: GNU Backgammon's "normal" filter after 0-ply, and a narrower one after 1-ply: on 80
#: decisions of bench/bot/bot.py, keeping 2 plays within 0.06 (rather than 3 within 0.08) for
#: 2-ply chose the same play 78 times and cut the 95th percentile of the time by a quarter.
DEFAULT_FILTERS = (MoveFilter(8, 0.16), MoveFilter(2, 0.06))


@dataclass(frozen=True)
class Ranked:
    """A play with its probabilities and cubeless equity for the player who makes it, at
    the depth it was last evaluated at."""

    play: Play
    values: Array
    equity: float
    plies: int


class Search:
    """n-ply evaluation over an evaluator, with caches of at most ``cache_size`` positions
    per depth (the oldest are dropped first)."""

    def __init__(
        self, evaluator: Evaluator, cache_size: int = 200_000, kernel: Kernel | None = None
    ) -> None:
        """``kernel``: the compiled kernel of the same networks, which then gives the values
        at 1 ply or more in one call, the whole tree below the positions asked about kept
        as boards (:meth:`Kernel.values`)."""
        self.evaluator = evaluator
        self.cache_size = cache_size
        self.kernel = kernel
        self._values: dict[int, dict[Position, Array]] = {}
        self._replies: dict[Position, tuple[Position, ...]] = {}

    def clear(self) -> None:
        """Forget every cached value and reply."""
        self._values.clear()
        self._replies.clear()

    def values(self, positions: Sequence[Position], plies: int) -> Array:
        """The probabilities ``(n, 5)`` of ``positions`` at ``plies``, each for its player
        on roll."""
        if plies < 0:
            raise ValueError(f"The depth of a search is 0 plies or more; got {plies}.")
        cache = self._values.setdefault(plies, {})
        rows = [cache.get(p) for p in positions]
        # Positions are hashed as few times as possible: hashing is much of a deep search.
        slots: dict[Position, int] = {}
        missing: list[tuple[int, int]] = []
        for index, row in enumerate(rows):
            if row is None:
                missing.append((index, slots.setdefault(positions[index], len(slots))))
        if not missing:
            return _rows(rows)
        unique = list(slots)
        computed = self._evaluate(unique, plies)
        result = _rows(rows, missing, computed)
        _trim(cache, self.cache_size - len(unique))
        cache.update(zip(unique, computed, strict=True))
        return result

    def _evaluate(self, positions: list[Position], plies: int) -> Array:
        if self.kernel is not None:  # every depth in the kernel: one path for a decision
            return self.kernel.values(boards_of(positions), plies)
        if plies == 0:
            return self.evaluator.evaluate_batch(positions)
        over, values = terminal_values(*boards(positions))
        live = [p for p, done in zip(positions, over, strict=True) if not done]
        if live:
            replies = self.replies(live)
            after = [reply for row in replies for reply in row]
            # Each reply's value is for its player on roll, the other side: turn it round.
            child = flip_outputs(self.values(after, plies - 1))
            child = child.reshape(len(live), -1, OUTPUTS)
            values[~over] = np.einsum("nrk,r->nk", child, ROLL_WEIGHTS)
        return values

    def replies(self, positions: Sequence[Position]) -> list[tuple[Position, ...]]:
        """For each position (game not over), the position after the play its player on roll
        makes with each of the 21 rolls, chosen at 0-ply (the position turned round when the
        roll cannot be played)."""
        missing = [p for p in dict.fromkeys(positions) if p not in self._replies]
        if missing:
            chosen = self._choose_replies(missing)
            rolls = len(ALL_ROLLS)
            found = {
                position: tuple(chosen[index * rolls : (index + 1) * rolls])
                for index, position in enumerate(missing)
            }
            result = [self._replies[p] if p in self._replies else found[p] for p in positions]
            _trim(self._replies, self.cache_size - len(found))
            self._replies.update(found)
            return result
        return [self._replies[p] for p in positions]

    def _choose_replies(self, positions: list[Position]) -> list[Position]:
        """The 21 replies of each position, in order (see :meth:`replies`)."""
        groups: list[list[Position]] = []
        for position in positions:
            for roll in ALL_ROLLS:
                plays = position.legal_plays(roll)
                groups.append([play.result for play in plays] if plays else [position.flip()])
        best = best_plays(groups, lambda results: self.values(results, 0))
        return [group[index] for group, index in zip(groups, best, strict=True)]

    def rank(
        self,
        plays: Sequence[Play],
        plies: int,
        filters: Sequence[MoveFilter] = DEFAULT_FILTERS,
        at_least: int = 1,
        noise: float = 0.0,
        rng: np.random.Generator | None = None,
        weights: Array | None = None,
    ) -> list[Ranked]:
        """The plays ranked best first for the player who makes them: all at 0-ply, then, at
        each further ply up to ``plies``, those that passed the filter of the ply before
        (``filters[0]`` after 0-ply, ...), keeping at least ``at_least``.

        Plays evaluated deeper rank above the others. ``noise`` (with ``rng``) adds normal
        noise of that standard deviation to each play's equity, for the filters and the
        ranking both (the equities reported are without it). ``weights`` rank by the equity
        at a match score (:func:`~backgammon.bot.met.play_weights`) instead of
        money's; the search below the plays stays cubeless money play.
        """
        if not plays:
            return []
        depth = np.zeros(len(plays), dtype=np.int64)
        values = flip_outputs(self.values([play.result for play in plays], 0))
        equity = equities(values, weights).astype(np.float64)
        # The noise of each play is drawn once and counts at every stage, filters included.
        shift = (
            (rng or np.random.default_rng()).normal(0.0, noise, len(plays))
            if noise > 0.0
            else np.zeros(len(plays))
        )
        alive = np.arange(len(plays))
        for ply in range(1, plies + 1):
            window = filters[min(ply - 1, len(filters) - 1)]
            alive = _filter(alive, equity + shift, window, at_least)
            if len(alive) <= 1 and at_least <= 1:
                break  # the one play left ranks first already
            deeper = flip_outputs(self.values([plays[int(i)].result for i in alive], ply))
            values[alive] = deeper
            equity[alive] = equities(deeper, weights)
            depth[alive] = ply
        order = np.lexsort((-(equity + shift), -depth))
        return [
            Ranked(plays[i], values[i], float(equity[i]), int(depth[i])) for i in order
        ]


def best_plays(
    groups: Sequence[Sequence[Position]], evaluate: Callable[[Sequence[Position]], Array]
) -> list[int]:
    """For each group of results of one roll's plays (each with the opponent on roll), the
    index of the best play at 0-ply: the one that leaves the opponent the least cubeless
    equity, by ``evaluate`` (the results of every group in one batch, a group of one too).

    >>> from backgammon.bot.evaluator import FakeEvaluator
    >>> hit, quiet = Position.from_points({8: 1}, {22: 1}, checkers=1).legal_plays((5, 1))
    >>> groups = [[quiet.result, hit.result], [quiet.result]]
    >>> str(hit), best_plays(groups, FakeEvaluator().evaluate_batch)
    ('8/3*/2', [1, 0])
    """
    if not groups:
        return []
    equity = equities(evaluate([result for group in groups for result in group]))
    chosen, offset = [], 0
    for group in groups:
        chosen.append(int(equity[offset : offset + len(group)].argmin()) if len(group) > 1 else 0)
        offset += len(group)
    return chosen


def _filter(
    alive: NDArray[np.int64], equity: NDArray[np.float64], window: MoveFilter, at_least: int
) -> NDArray[np.int64]:
    """The indices of ``alive`` that pass ``window`` (at least ``at_least`` of them), best
    first."""
    ordered: NDArray[np.int64] = alive[np.argsort(-equity[alive], kind="stable")]
    best = equity[ordered[0]]
    close = ordered[equity[ordered] >= best - window.threshold][: max(window.keep, 1)]
    return ordered[: max(len(close), min(at_least, len(ordered)))]


def _rows(
    rows: list[Array | None],
    missing: Sequence[tuple[int, int]] = (),
    computed: Array | None = None,
) -> Array:
    """The values ``(n, 5)``: ``rows`` where known, else ``computed[slot]`` for each
    ``(index, slot)`` of ``missing``."""
    result = np.empty((len(rows), OUTPUTS), dtype=np.float32)
    known = [i for i, row in enumerate(rows) if row is not None]
    if known:
        result[known] = [rows[i] for i in known]
    if missing and computed is not None:
        indices, slots = zip(*missing, strict=True)
        result[list(indices)] = computed[list(slots)]
    return result


def _trim(cache: dict[Any, Any], room: int) -> None:
    """Drop the oldest entries so that ``cache`` keeps at most ``room`` of them."""
    excess = len(cache) - max(room, 0)
    if excess > 0:
        for key in list(islice(cache, excess)):
            del cache[key]
