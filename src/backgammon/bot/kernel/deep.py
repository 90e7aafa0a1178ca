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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluate import Nets, checkers_of, evaluate, scratch_for, terminal
from .games import choose, make_work

_HIGH = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_LOW = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_WEIGHT = np.where(_HIGH == _LOW, 1.0, 2.0) / 36.0


@njit(cache=True)
def _add_turned(values: np.ndarray, weight: float, total: np.ndarray) -> None:
    """Add ``weight`` times the outputs of the other side (``values`` turned round)."""
    total[0] += weight * (1.0 - values[0])
    total[1] += weight * values[3]
    total[2] += weight * values[4]
    total[3] += weight * values[1]
    total[4] += weight * values[2]


@njit(cache=True)
def _ply1(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, out: np.ndarray) -> None:
    """The 1-ply outputs of a live ``board`` into ``out`` (float64); ``buffers[0]`` and
    ``rows[0]`` are work space."""
    out[:] = 0.0
    for r in range(21):
        choose(board, _HIGH[r], _LOW[r], nets, work, buffers[0], rows[0])
        out += _WEIGHT[r] * rows[0]


@njit(cache=True)
def _over(board: np.ndarray, single: np.ndarray, out: np.ndarray) -> bool:
    """Whether the game of ``board`` is over, and if so its exact outputs into ``out``
    (``single``: float32 work space)."""
    if not terminal(board, checkers_of(board), single):
        return False
    out[:] = single
    return True


@njit(cache=True)
def _ply2(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, single: np.ndarray, out: np.ndarray) -> None:
    """The 2-ply outputs of a live ``board``: ``buffers[1]``, ``rows[1:3]`` and below."""
    out[:] = 0.0
    chosen, child = buffers[1], rows[2]
    for r in range(21):
        choose(board, _HIGH[r], _LOW[r], nets, work, chosen, rows[1])
        if not _over(chosen, single, child):
            _ply1(chosen, nets, work, buffers, rows, child)
        _add_turned(child, _WEIGHT[r], out)


@njit(cache=True)
def _ply3(board: np.ndarray, nets: Nets, work: tuple, buffers: np.ndarray,  # type: ignore[type-arg]
          rows: np.ndarray, single: np.ndarray, out: np.ndarray) -> None:
    """The 3-ply outputs of a live ``board``: ``buffers[2]``, ``rows[3:5]`` and below."""
    out[:] = 0.0
    chosen, child = buffers[2], rows[4]
    for r in range(21):
        choose(board, _HIGH[r], _LOW[r], nets, work, chosen, rows[3])
        if not _over(chosen, single, child):
            _ply2(chosen, nets, work, buffers, rows, single, child)
        _add_turned(child, _WEIGHT[r], out)


@njit(cache=True)
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
