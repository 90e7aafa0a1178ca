"""Compiled n-ply values: the search's inner levels as boards from end to end.

The value of a board at n plies is the one :class:`~backgammon.bot.search.Search` defines:
its exact outputs when the game is over, the 0-ply outputs at 0 plies, and otherwise the
average over the 21 rolls of the value at n - 1 plies of the result of the 0-ply play of each
roll (:func:`.games.choose`), turned round to the player on roll. At 1 ply that is the
average of the values :func:`.games.choose` gives for the chosen plays, so the leaves of a
search cost one evaluation per legal result and nothing else: no Position objects, no
hashing, no caches below the plays being ranked.

Each depth has its own function, with its own rows of the work buffers, rather than one
recursive function: :func:`_ply1` makes 21 choices, :func:`_ply2` 21 of those, :func:`_ply3`
21 of those again. A 2-ply value so makes 462 choices, each evaluating every legal result of
its roll.

:func:`choose_deep` chooses a roll's play as :meth:`~backgammon.bot.search.Search.rank` ranks
plays at n plies (the play of a :class:`~backgammon.bot.Bot` of that depth, cubeless): every
result at 0-ply, then at each further ply those that pass the filter of the ply before (at
most ``keep`` within ``threshold`` of the best), the play valued deepest and highest first.
Rollouts play their trials with it (:mod:`.rollouts`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluate import Nets, checkers_of, evaluate, scratch_for, terminal
from .games import HIGH, LOW, WEIGHT, choose, equity_of, make_work, mover_view


@njit(cache=True, nogil=True)
def _add_turned(values: np.ndarray, weight: float, total: np.ndarray) -> None:
    """Add ``weight`` times the outputs of the other side (``values`` turned round)."""
    total[0] += weight * (1.0 - values[0])
    total[1] += weight * values[3]
    total[2] += weight * values[4]
    total[3] += weight * values[1]
    total[4] += weight * values[2]


@njit(cache=True, nogil=True)
def _ply1(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, out: np.ndarray) -> None:
    """The 1-ply outputs of a live ``board`` into ``out`` (float64); ``buffers[0]`` and
    ``rows[0]`` are work space."""
    out[:] = 0.0
    for r in range(21):
        choose(board, HIGH[r], LOW[r], nets, work, buffers[0], rows[0])
        out += WEIGHT[r] * rows[0]


@njit(cache=True, nogil=True)
def _over(board: np.ndarray, single: np.ndarray, out: np.ndarray) -> bool:
    """Whether the game of ``board`` is over, and if so its exact outputs into ``out``
    (``single``: float32 work space)."""
    if not terminal(board, checkers_of(board), single):
        return False
    out[:] = single
    return True


@njit(cache=True, nogil=True)
def _ply2(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, single: np.ndarray, out: np.ndarray) -> None:
    """The 2-ply outputs of a live ``board``: ``buffers[1]``, ``rows[1:3]`` and below."""
    out[:] = 0.0
    chosen, child = buffers[1], rows[2]
    for r in range(21):
        choose(board, HIGH[r], LOW[r], nets, work, chosen, rows[1])
        if not _over(chosen, single, child):
            _ply1(chosen, nets, work, buffers, rows, child)
        _add_turned(child, WEIGHT[r], out)


@njit(cache=True, nogil=True)
def _ply3(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, single: np.ndarray, out: np.ndarray) -> None:
    """The 3-ply outputs of a live ``board``: ``buffers[2]``, ``rows[3:5]`` and below."""
    out[:] = 0.0
    chosen, child = buffers[2], rows[4]
    for r in range(21):
        choose(board, HIGH[r], LOW[r], nets, work, chosen, rows[3])
        if not _over(chosen, single, child):
            _ply2(chosen, nets, work, buffers, rows, single, child)
        _add_turned(child, WEIGHT[r], out)


@njit(cache=True, nogil=True)
def values_batch(boards: np.ndarray, plies: int, nets: Nets) -> np.ndarray:
    """The outputs ``(n, 5)`` float32 of each board ``(n, 2, 26)`` at ``plies`` (0 to 3),
    each for its player on roll."""
    work = make_work(nets)
    scratch = scratch_for(nets)
    buffers = np.zeros((3, 2, 26), dtype=np.int8)
    rows = np.zeros((5, 5), dtype=np.float64)
    total = np.zeros(5, dtype=np.float64)
    single = np.zeros(5, dtype=np.float32)
    result = np.zeros((boards.shape[0], 5), dtype=np.float32)
    for i in range(boards.shape[0]):
        board = boards[i]
        if plies == 0:
            evaluate(board, nets, scratch, single)
            result[i] = single
            continue
        if terminal(board, checkers_of(board), single):
            result[i] = single
            continue
        if plies == 1:
            _ply1(board, nets, work, buffers, rows, total)
        elif plies == 2:
            _ply2(board, nets, work, buffers, rows, single, total)
        else:
            _ply3(board, nets, work, buffers, rows, single, total)
        result[i] = total
    return result


@njit(cache=True, nogil=True)
def deep_work(nets: Nets, most: int) -> tuple:  # type: ignore[type-arg]
    """Work space of :func:`choose_deep` for filters that keep at most ``most`` plays: the
    choices', the search's buffers and rows, a float32 row, the plays kept (boards, equities,
    their indices among the results; twice, to reorder them), and two float64 rows."""
    room = max(most, 1)
    return (
        make_work(nets), np.zeros((3, 2, 26), dtype=np.int8), np.zeros((5, 5)),
        np.zeros(5, dtype=np.float32),
        np.zeros((room, 2, 26), dtype=np.int8), np.zeros(room), np.zeros(room, dtype=np.int64),
        np.zeros((room, 2, 26), dtype=np.int8), np.zeros(room), np.zeros(room, dtype=np.int64),
        np.zeros(5), np.zeros(5),
    )


@njit(cache=True, nogil=True)
def _window(equity: np.ndarray, order: np.ndarray, keep: int, threshold: float) -> int:
    """How many of the plays in ``order`` (best first) pass a filter: at most ``keep`` (one at
    least) within ``threshold`` of the best, as search._filter keeps them."""
    best = equity[order[0]]
    passed = 1
    while (passed < order.shape[0] and passed < max(keep, 1)
           and equity[order[passed]] >= best - threshold):
        passed += 1
    return passed


@njit(cache=True, nogil=True)
def _equity_at(result: np.ndarray, plies: int, nets: Nets, dwork: tuple) -> float:  # type: ignore[type-arg]
    """The cubeless equity at ``plies`` (1 or 2) of a result for the player who made it."""
    work, buffers, rows, single = dwork[0], dwork[1], dwork[2], dwork[3]
    child, mover = dwork[10], dwork[11]
    if not _over(result, single, child):
        if plies == 1:
            _ply1(result, nets, work, buffers, rows, child)
        else:
            _ply2(result, nets, work, buffers, rows, single, child)
    mover_view(child, mover)
    return equity_of(mover)


@njit(cache=True, nogil=True)
def _reorder(dwork: tuple, order: np.ndarray, count: int) -> None:  # type: ignore[type-arg]
    """Keep the first ``count`` of the kept plays in ``order``."""
    kept, equity, index, boards, equities, indices = dwork[4:10]
    for j in range(count):
        boards[j] = kept[order[j]]
        equities[j] = equity[order[j]]
        indices[j] = index[order[j]]
    kept[:count] = boards[:count]
    equity[:count] = equities[:count]
    index[:count] = indices[:count]


@njit(cache=True, nogil=True)
def choose_deep(board: np.ndarray, high: int, low: int, plies: int, keep: np.ndarray,
                threshold: np.ndarray, nets: Nets, dwork: tuple,  # type: ignore[type-arg]
                chosen: np.ndarray) -> int:
    """The play of (``high``, ``low``) from ``board`` at ``plies`` (0 to 2), its result into
    ``chosen``: ranked as Search.rank ranks plays, with the filters (``keep[i]``,
    ``threshold[i]``) after ply ``i`` (the last for the plies past them). Returns the number
    of legal results (0: ``chosen`` is the board turned round). ``dwork``: :func:`deep_work`.
    """
    work = dwork[0]
    # The 0-ply choice ranks the first ply: its scan leaves every result's equity in work[4].
    count = choose(board, high, low, nets, work, chosen, np.zeros(0))
    if plies == 0 or count <= 1:
        return count
    results, equity = work[0][0], work[4][:count]
    order = np.argsort(-equity, kind="mergesort")
    kept_count = _window(equity, order, keep[0], threshold[0])
    # The deeper values below choose plays in the same work space: copy the kept ones out.
    kept, kept_equity, kept_index = dwork[4], dwork[5], dwork[6]
    for j in range(kept_count):
        kept[j] = results[order[j]]
        kept_equity[j] = equity[order[j]]
        kept_index[j] = order[j]
    ply = 1
    while kept_count > 1:
        for j in range(kept_count):
            kept_equity[j] = _equity_at(kept[j], ply, nets, dwork)
        if ply == plies:
            break
        step = min(ply, keep.shape[0] - 1)
        order = np.argsort(-kept_equity[:kept_count], kind="mergesort")
        kept_count = _window(kept_equity, order, keep[step], threshold[step])
        _reorder(dwork, order, kept_count)
        ply += 1
    # The deepest valued, then the highest equity, then the first result: as Search.rank.
    best = 0
    for j in range(1, kept_count):
        if kept_equity[j] > kept_equity[best] or (
            kept_equity[j] == kept_equity[best] and kept_index[j] < kept_index[best]
        ):
            best = j
    chosen[:] = kept[best]
    return count


@njit(cache=True, nogil=True)
def best_batch_deep(boards: np.ndarray, dice: np.ndarray, plies: int, keep: np.ndarray,
                    threshold: np.ndarray, nets: Nets) -> np.ndarray:
    """The result of the play at ``plies`` (:func:`choose_deep`) of each board ``(n, 2, 26)``
    with its roll ``(n, 2)``."""
    dwork = deep_work(nets, keep.max())
    out = np.empty_like(boards)
    for i in range(boards.shape[0]):
        choose_deep(boards[i], dice[i, 0], dice[i, 1], plies, keep, threshold, nets, dwork,
                    out[i])
    return out
