"""Rollouts of the other games in the kernel, and the positions to roll out: the labels of
the networks' supervised stage (issue 38, item 4), as backgammon's rollouts label its
network (:mod:`.rollouts`).

A rollout plays trials from a board (its player on roll, about to throw) to the game's end,
both sides played by one network at 0-ply (:func:`.players._network_throw`: a play that
ends the game scores its real points), and averages the points the player on roll won.
Variance reduction:

- the first throw is stratified, trial ``t`` throwing the permutation ``t % 36`` (so each
  of the 36 comes up as often); the trials after it draw their own dice. The standard
  error is the stratified estimate's (each permutation's own variance over its trials).
- with ``luck``, each throw's luck is taken out of the trial's points, as GNU Backgammon's
  rollouts do (:mod:`.rollouts`): the network's value of the throw's play (:func:`_roll_value`)
  less the mean of the 21 throws', each by its chance. Its mean over the dice is nothing
  whatever the network, so the estimate stays unbiased; the better the network, the more
  variance it removes. Acey-deucey's 1-2 is valued after the named double's play (the
  mover on roll again), so the named double, no throw of the dice, has no luck of its own.
  It costs some 21 move generations a throw where a trial makes one.

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
from .boards import board_array, flip, game_code, outcome
from .boards import workspace as boards_workspace
from .games import roll, seed_state
from .players import (
    INPUTS,
    MOST_THROWS,
    TOP,
    _encode,
    _forward,
    _named_double,
    _network_throw,
    _opening,
    _stage,
)

#: The permutations of the first throw a rollout stratifies over.
STRATA = 36


@njit(cache=True, nogil=True)
def _roll_value(game: int, ws: tuple, board: np.ndarray, scratch: np.ndarray,  # type: ignore[type-arg]
                turned: np.ndarray, d1: int, d2: int, w1: np.ndarray, b1: np.ndarray,
                w2: np.ndarray, b2: np.ndarray, index: np.ndarray, value: np.ndarray,
                hidden: np.ndarray) -> float:
    """The network's value, for the mover, of its play of (``d1``, ``d2``) on ``board``
    (played on ``scratch``), over the game's largest score: a play that ends the game is
    worth its points. Acey-deucey's 1-2 played in full goes on to the named double and
    its play, valued with the mover on roll again when they throw again."""
    scratch[:] = board
    over, points, again = _network_throw(game, ws, scratch, turned, d1, d2, False, w1, b1,
                                         w2, b2, index, value, hidden)
    if again == 1:
        flip(scratch, turned)
        scratch[:] = turned
        die = _named_double(game, ws, scratch, w1, b1, w2, b2, index, value, hidden)
        over, points, again = _network_throw(game, ws, scratch, turned, die, die, True, w1,
                                             b1, w2, b2, index, value, hidden)
    if over:
        return -points / float(TOP[game])  # ``points`` are the opponent's
    sign = -1.0  # the opponent on roll on ``scratch``
    if again == 2:
        flip(scratch, turned)
        scratch[:] = turned
        sign = 1.0
    n = _encode(game, scratch, index, value)
    return sign * _forward(w1, b1, w2, b2, index, value, n, hidden)


@njit(cache=True, nogil=True)
def _luck(game: int, ws: tuple, board: np.ndarray, scratch: np.ndarray,  # type: ignore[type-arg]
          turned: np.ndarray, d1: int, d2: int, w1: np.ndarray, b1: np.ndarray,
          w2: np.ndarray, b2: np.ndarray, index: np.ndarray, value: np.ndarray,
          hidden: np.ndarray) -> float:
    """The luck of throwing (``d1``, ``d2``) on ``board``, for the mover: its
    :func:`_roll_value` less the mean of the 21 throws' (each by its chance)."""
    low, high = min(d1, d2), max(d1, d2)
    total, thrown = 0.0, 0.0
    for a in range(1, 7):
        for b in range(a, 7):
            v = _roll_value(game, ws, board, scratch, turned, a, b, w1, b1, w2, b2, index,
                            value, hidden)
            total += v if a == b else 2.0 * v
            if a == low and b == high:
                thrown = v
    return thrown - total / 36.0


@njit(cache=True, nogil=True)
def _trial(game: int, ws: tuple, board: np.ndarray, turned: np.ndarray,  # type: ignore[type-arg]
           d1: int, d2: int, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
           b2: np.ndarray, state: np.ndarray, index: np.ndarray, value: np.ndarray,
           hidden: np.ndarray, luck: bool, scratch: np.ndarray) -> tuple[float, int]:
    """One trial from ``board`` (changed in place) whose first throw is (``d1``, ``d2``),
    the later ones from ``state``: the points for the player on roll at the start (with
    ``luck``, less the lucks of the throws, seen by that player, in points), and the
    throws played. The double named after a 1-2 is no throw of the dice: its luck is the
    1-2's."""
    mover = 0  # 0: the player on roll at the start
    named = False
    throw = 0
    lucks = 0.0
    while True:
        throw += 1
        if throw > MOST_THROWS:
            raise RuntimeError("a rollout trial did not end")
        if luck and not named:
            turn_luck = _luck(game, ws, board, scratch, turned, d1, d2, w1, b1, w2, b2, index,
                              value, hidden)
            lucks += turn_luck if mover == 0 else -turn_luck
        over, points, again = _network_throw(game, ws, board, turned, d1, d2, named, w1, b1,
                                             w2, b2, index, value, hidden)
        if over:
            # ``points`` are for the player on roll now, the mover's opponent.
            return (-points if mover == 0 else points) - lucks * TOP[game], throw
        if again == 0:
            mover = 1 - mover
        named = again == 1
        d1, d2 = _stage(board, turned, state, again)
        if named:
            d1 = d2 = _named_double(game, ws, board, w1, b1, w2, b2, index, value, hidden)


@njit(cache=True, nogil=True)
def rollout(game: int, start: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
            b2: np.ndarray, trials: int, seed: int, position: int,
            luck: bool) -> tuple[float, float, int]:
    """``trials`` (a multiple of 36, 72 or more) trials from ``start`` (a ``(4, 26)`` board,
    its player on roll about to throw, the game not over); trial ``t`` throws permutation
    ``t % 36`` first, then the dice of generator (``seed``, ``position`` × 2²⁰ + ``t``);
    with ``luck``, each trial's points less its lucks (:func:`_trial`). Returns the mean
    points for the player on roll, the stratified standard error of that mean, and the
    throws played in all."""
    ws = boards_workspace()
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    board = np.empty_like(start)
    turned = np.empty_like(start)
    scratch = np.empty_like(start)
    total = np.zeros(STRATA, dtype=np.float64)
    squares = np.zeros(STRATA, dtype=np.float64)
    throws = 0
    for t in range(trials):
        board[:] = start
        r = t % STRATA
        points, played = _trial(game, ws, board, turned, r // 6 + 1, r % 6 + 1, w1, b1, w2,
                                b2, seed_state(seed, position * (1 << 20) + t), index, value,
                                hidden, luck, scratch)
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
             b2: np.ndarray, trials: int, seed: int, first: int,
             luck: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`rollout` of each board of ``starts`` ``(n, 4, 26)``, numbered ``first ..``
    for their dice; each one's mean points, standard error and throws."""
    n = starts.shape[0]
    means = np.zeros(n, dtype=np.float64)
    errors = np.zeros(n, dtype=np.float64)
    throws = np.zeros(n, dtype=np.int64)
    for i in range(n):
        means[i], errors[i], throws[i] = rollout(game, starts[i], w1, b1, w2, b2, trials,
                                                 seed, first + i, luck)
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
                  trials: int = 360, seed: int = 0, luck: bool = False) -> tuple[float, float]:
    """The rollout of ``board`` (its player on roll about to throw) in game ``name`` with
    ``network`` (its ``w1``, ``b1``, ``w2`` and ``b2`` arrays, ``b2`` of one value):
    the mean points for the player on roll and their standard error; ``luck`` takes each
    throw's luck out of the trials (:func:`rollout`): off by default, as it removes less
    variance than it costs (docs/lab/game-rollouts.md).

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
    mean, error, _ = rollout(code, start, w1, b1, w2, b2.reshape(1), trials, seed, 0,
                             bool(luck))
    return float(mean), float(error)
