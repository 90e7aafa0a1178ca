"""Rollouts of the other games in the kernel, and the positions to roll out: the labels of
the networks' supervised stage (issue 38, item 4), as backgammon's rollouts label its
network (:mod:`.rollouts`).

A rollout plays trials from a board (its player on roll, about to throw) to the game's end,
both sides played by one network at 0-ply (:func:`.players._best`: a play that ends the game
scores its real points), and averages the points the player on roll won. Variance reduction:
the first throw is stratified, trial ``t`` throwing the permutation ``t % 36`` (so each of
the 36 comes up as often); the trials after it draw their own dice. The standard error is
the stratified estimate's (each permutation's own variance over its trials). A luck
adjustment (the value of each throw's best play less the mean over the 36 throws) would
cost 36 move generations a throw, some 20 times a trial's work, and is left out.

The positions (:func:`self_play_positions`) are boards of the network's own self-play where
a player is about to throw, each kept with a given chance.

Figures and the compute plan: docs/lab/game-rollouts.md.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ...errors import BackgammonError
from ...games import Board
from .boards import board_array, game_code, outcome
from .boards import workspace as boards_workspace
from .games import roll, seed_state
from .players import (
    INPUTS,
    MOST_THROWS,
    _named_double,
    _network_throw,
    _opening,
    _stage,
)

#: The permutations of the first throw a rollout stratifies over.
STRATA = 36


@njit(cache=True, nogil=True)
def _trial(game: int, ws: tuple, board: np.ndarray, turned: np.ndarray,  # type: ignore[type-arg]
           d1: int, d2: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
           b2: np.ndarray, state: np.ndarray, index: np.ndarray, value: np.ndarray,
           hidden: np.ndarray) -> tuple[int, int]:
    """One trial from ``board`` (changed in place) whose first throw is (``d1``, ``d2``),
    the later ones from ``state``: the points for the player on roll at the start, and
    the throws played."""
    mover = 0  # 0: the player on roll at the start
    named = False
    throw = 0
    while True:
        throw += 1
        if throw > MOST_THROWS:
            raise RuntimeError("a rollout trial did not end")
        over, points, again = _network_throw(game, ws, board, turned, d1, d2, named, w1, b1,
                                             w2, b2, index, value, hidden)
        if over:
            # ``points`` are for the player on roll now, the mover's opponent.
            return (-points if mover == 0 else points), throw
        if again == 0:
            mover = 1 - mover
        named = again == 1
        d1, d2 = _stage(board, turned, state, again)
        if named:
            d1 = d2 = _named_double(game, ws, board, w1, b1, w2, b2, index, value, hidden)


@njit(cache=True, nogil=True)
def rollout(game: int, start: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
            b2: np.ndarray, trials: int, seed: int,
            position: int) -> tuple[float, float, int]:
    """``trials`` (a multiple of 36, 72 or more) trials from ``start`` (a ``(4, 26)`` board,
    its player on roll about to throw, the game not over); trial ``t`` throws permutation
    ``t % 36`` first, then the dice of generator (``seed``, ``position`` × 2²⁰ + ``t``).
    Returns the mean points for the player on roll, the stratified standard error of that
    mean, and the throws played in all."""
    ws = boards_workspace()
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    board = np.empty_like(start)
    turned = np.empty_like(start)
    total = np.zeros(STRATA, dtype=np.float64)
    squares = np.zeros(STRATA, dtype=np.float64)
    throws = 0
    for t in range(trials):
        board[:] = start
        r = t % STRATA
        points, played = _trial(game, ws, board, turned, r // 6 + 1, r % 6 + 1, w1, b1, w2,
                                b2, seed_state(seed, position * (1 << 20) + t), index, value,
                                hidden)
        total[r] += points
        squares[r] += points * points
        throws += played
    per = trials // STRATA
    variance = 0.0  # of the mean: (1/36²) Σ each stratum's variance / its trials
    for r in range(STRATA):
        mean = total[r] / per
        variance += (squares[r] - per * mean * mean) / (per - 1) / per
    return total.sum() / trials, np.sqrt(max(variance, 0.0)) / STRATA, throws


@njit(cache=True, nogil=True)
def rollouts(game: int, starts: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
             b2: np.ndarray, trials: int, seed: int,
             first: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rollout` of each board of ``starts`` ``(n, 4, 26)``, numbered ``first ..``
    for their dice; each one's mean points, standard error and throws."""
    n = starts.shape[0]
    means = np.zeros(n, dtype=np.float64)
    errors = np.zeros(n, dtype=np.float64)
    throws = np.zeros(n, dtype=np.int64)
    for i in range(n):
        means[i], errors[i], throws[i] = rollout(game, starts[i], w1, b1, w2, b2, trials,
                                                 seed, first + i)
    return means, errors, throws


@njit(cache=True, nogil=True)
def _chance(state: np.ndarray) -> float:
    """A uniform number in [0, 1) from a dice generator (36³ steps)."""
    return ((roll(state) * 36 + roll(state)) * 36 + roll(state)) / 46656.0


@njit(cache=True, nogil=True)
def self_play_positions(game: int, start: np.ndarray, w1: np.ndarray, b1: np.ndarray,
                        w2: np.ndarray, b2: np.ndarray, games: int, seed: int,
                        probability: float) -> tuple[np.ndarray, np.ndarray]:
    """The boards of ``games`` games of the network against itself from ``start`` (game
    ``g``'s dice from generator (``seed``, ``g``)) where a player is about to throw, after
    the first throw, each kept with chance ``probability`` (drawn from generator
    (``seed`` + 1, ``g``)); the boards ``(m, 4, 26)`` and the game each came from."""
    ws = boards_workspace()
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    board = np.empty_like(start)
    turned = np.empty_like(start)
    kept = np.empty((1024, 4, 26), dtype=np.int8)
    origin = np.empty(1024, dtype=np.int64)
    m = 0
    for g in range(games):
        state = seed_state(seed, g)
        keep = seed_state(seed + 1, g)
        board[:] = start
        d1, d2 = _opening(game, state)
        named = False
        throw = 0
        while True:
            throw += 1
            if throw > MOST_THROWS:
                raise RuntimeError("a self-play game did not end")
            over, _, again = _network_throw(game, ws, board, turned, d1, d2, named, w1, b1,
                                            w2, b2, index, value, hidden)
            if over:
                break
            named = again == 1
            d1, d2 = _stage(board, turned, state, again)
            if named:
                d1 = d2 = _named_double(game, ws, board, w1, b1, w2, b2, index, value,
                                        hidden)
            elif _chance(keep) < probability:
                if m == kept.shape[0]:
                    kept = np.concatenate((kept, np.empty_like(kept)))
                    origin = np.concatenate((origin, np.empty_like(origin)))
                kept[m] = board
                origin[m] = g
                m += 1
    return kept[:m].copy(), origin[:m].copy()


def rollout_board(name: str, board: Board, network: Sequence[NDArray[np.float64]],
                  trials: int = 360, seed: int = 0) -> tuple[float, float]:
    """The rollout of ``board`` (its player on roll about to throw) in game ``name`` with
    ``network`` (its ``w1``, ``b1``, ``w2`` and ``b2`` arrays, ``b2`` of one value):
    the mean points for the player on roll and their standard error.

    >>> from backgammon.games import rules_for
    >>> board = Board([14, 1] + [0] * 24, [0] * 13 + [15] + [0] * 12)
    >>> net = (np.zeros((INPUTS, 1)), np.zeros(1), np.zeros(1), np.zeros(1))
    >>> rollout_board("fevga", board, net, trials=72)
    (2.0, 0.0)
    """
    if not isinstance(trials, int) or trials < 2 * STRATA or trials % STRATA:
        raise BackgammonError(f"A rollout stratifies its first throw over the {STRATA} "
                              f"permutations: give a multiple of {STRATA}, {2 * STRATA} or "
                              "more, as its trials.")
    code = game_code(name)
    start = board_array(board)
    if outcome(code, start)[0]:
        raise BackgammonError("The game is over on this board: there is nothing to roll out.")
    w1, b1, w2, b2 = (np.asarray(a, dtype=np.float64) for a in network)
    mean, error, _ = rollout(code, start, w1, b1, w2, b2.reshape(1), trials, seed, 0)
    return float(mean), float(error)
