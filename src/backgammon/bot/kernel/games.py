"""Compiled games: the dice, the 0-ply choice of a play, and whole self-play games.

Each game (or trial) draws its dice from its own small generator (splitmix64) seeded by the
run's seed and the game's index, so a run gives the same games however it is split between
processes. A roll is ``(high, low)`` or ``(low, high)`` alike: the generator takes one of the
36 outcomes (its bias is below 1e-8) and the moves depend only on the two numbers.

The 0-ply choice is the one :class:`~backgammon.bot.Bot` makes at 0 plies: of the results of
the roll, the one with the highest cubeless equity for the player who moves (the opponent's
outputs turned round); among equal equities the first found.

Rollout trials, which play on these games' dice, are in :mod:`.rollouts`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .evaluate import Nets, checkers_of, evaluate, scratch_for
from .movegen import CAPACITY, generate, workspace

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
#: The 21 rolls (high die, low die) and the chance of each out of 1.
HIGH = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
LOW = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
WEIGHT = np.where(HIGH == LOW, 1.0, 2.0) / 36.0


@njit(cache=True, nogil=True)
def _next(state: np.ndarray) -> np.uint64:
    """splitmix64: the next 64 random bits of the generator ``state`` (one uint64)."""
    z = state[0] + _GOLDEN
    state[0] = z
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    result: np.uint64 = z ^ (z >> np.uint64(31))
    return result


@njit(cache=True, nogil=True)
def seed_state(seed: int, index: int) -> np.ndarray:
    """The generator of game ``index`` of a run seeded by ``seed``."""
    state = np.zeros(1, dtype=np.uint64)
    state[0] = np.uint64(seed) * _MIX1 + np.uint64(index)
    _next(state)
    return state


@njit(cache=True, nogil=True)
def roll(state: np.ndarray) -> int:
    """One of the 36 outcomes of the dice, 0..35 (first die ``r // 6 + 1``, second
    ``r % 6 + 1``)."""
    return int(np.int64(((_next(state) >> np.uint64(32)) * np.uint64(36)) >> np.uint64(32)))


@njit(cache=True, nogil=True)
def flip(board: np.ndarray, out: np.ndarray) -> None:
    out[0] = board[1]
    out[1] = board[0]


@njit(cache=True, nogil=True)
def mover_view(values: np.ndarray, out: np.ndarray) -> None:
    """Outputs of a result (its player on roll's) as the player who made it sees them."""
    out[0] = 1.0 - values[0]
    out[1] = values[3]
    out[2] = values[4]
    out[3] = values[1]
    out[4] = values[2]


@njit(cache=True, nogil=True)
def equity_of(v: np.ndarray) -> float:
    return float(2.0 * v[0] - 1.0 + v[1] + v[2] - v[3] - v[4])


@njit(cache=True, nogil=True)
def make_work(nets: Nets) -> tuple:  # type: ignore[type-arg]
    """Work space of :func:`choose`: the move generator's, the evaluation's, two rows, and
    the 0-ply equity of each legal result."""
    return (workspace(), scratch_for(nets), np.zeros(5, dtype=np.float32),
            np.zeros(5, dtype=np.float64), np.zeros(CAPACITY, dtype=np.float64))


@njit(cache=True, nogil=True)
def choose(board: np.ndarray, high: int, low: int, nets: Nets, work: tuple,  # type: ignore[type-arg]
           chosen: np.ndarray, value: np.ndarray) -> int:
    """The 0-ply play of (``high``, ``low``) from ``board``: its result into ``chosen`` and
    its outputs for the player who moves into ``value`` (float64); returns the number of
    legal results (0: the roll cannot be played, ``chosen`` is the board turned round).
    With ``value`` of length 0 a forced play is not evaluated. Whenever the results are
    evaluated, each one's equity for the player who moves stays in ``work[4]`` (in the order
    of the results, ``work[0][0]``) until the next call: :func:`.deep.choose_deep` ranks the
    first ply by them."""
    ws, scratch, out, mover, equities = work
    count = generate(ws, board, high, low)
    results = ws[0]
    if count == 0:
        flip(board, chosen)
        if value.shape[0]:
            evaluate(chosen, nets, scratch, out)
            mover_view(out, value)
        return 0
    best = 0
    if count > 1 or value.shape[0]:
        best_equity = -1e9
        for i in range(count):
            evaluate(results[i], nets, scratch, out)
            mover_view(out, mover)
            equity = equity_of(mover)
            equities[i] = equity
            if equity > best_equity:
                best_equity = equity
                best = i
                if value.shape[0]:
                    value[:] = mover
    chosen[:] = results[best]
    return count


@njit(cache=True, nogil=True)
def best_batch(boards: np.ndarray, dice: np.ndarray, nets: Nets) -> np.ndarray:
    """The 0-ply result of each board ``(n, 2, 26)`` with its roll ``(n, 2)``."""
    work = make_work(nets)
    out = np.empty_like(boards)
    none = np.zeros(0, dtype=np.float64)
    for i in range(boards.shape[0]):
        choose(boards[i], dice[i, 0], dice[i, 1], nets, work, out[i], none)
    return out


@njit(cache=True, nogil=True)
def game_over(result: np.ndarray, checkers: int) -> bool:
    """Whether the player who made ``result`` has borne off every checker."""
    return bool(result[1, 0] == checkers)


@njit(cache=True, nogil=True)
def selfplay(start: np.ndarray, games: int, seed: int, first: int,
             nets: Nets) -> tuple[np.ndarray, np.ndarray]:
    """Games ``first .. first + games - 1`` of a run seeded by ``seed``: cubeless money games
    from ``start`` at 0-ply for both sides, the first roll no double (as an opening roll).
    Returns the points each game won for the side that moved first (±1, ±2, ±3) and the
    number of turns each lasted."""
    work = make_work(nets)
    checkers = checkers_of(start)
    points = np.zeros(games, dtype=np.int64)
    turns = np.zeros(games, dtype=np.int64)
    board = np.empty_like(start)
    after = np.empty_like(start)
    none = np.zeros(0, dtype=np.float64)
    for g in range(games):
        state = seed_state(seed, first + g)
        board[:] = start
        turn = 0
        while True:
            r = roll(state)
            a, b = r // 6 + 1, r % 6 + 1
            while turn == 0 and a == b:
                r = roll(state)
                a, b = r // 6 + 1, r % 6 + 1
            choose(board, a, b, nets, work, after, none)
            turn += 1
            if game_over(after, checkers):
                # The result's player on roll lost: single, gammon or backgammon.
                kind = 1
                if after[0, 0] == 0:
                    kind = 2
                    for p in range(19, 26):
                        if after[0, p] > 0:
                            kind = 3
                points[g] = kind if turn % 2 == 1 else -kind
                turns[g] = turn
                break
            board[:] = after
    return points, turns
