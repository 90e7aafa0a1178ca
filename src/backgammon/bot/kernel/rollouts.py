"""Compiled rollout trials: games played from a position with the bot's play at 0 to 2 plies.

Trials (:func:`rollout_trials`) play from a position to the end, or for ``truncate`` turns and
then take the 0-ply value of the position reached, and report the five outputs of each trial
for the player on roll at the start. Each trial's dice come from its own generator, seeded by
the run's seed and the trial's index (:func:`.games.seed_state`), so a rollout gives the same
trials however it is split between processes. Both sides choose their plays at ``plies``:
at 0-ply as :func:`.games.choose`, deeper as :func:`.deep.choose_deep` with the filters given
(the bot's search at that depth, cubeless).

With ``stratify`` the first two rolls are quasi-random (as GNU Backgammon's rotation, for a
number of trials that is a multiple of 36): trial ``i = 36 k + a`` rolls the ``a``-th of the
36 first and the ``(a + k) mod 36``-th second, so every block of 36 trials has each first
roll once and each second roll once, and every 1,296 trials each pair once; later rolls are
random.

With ``luck`` each turn's luck is measured as GNU Backgammon's variance reduction measures
it: the 0-ply value of the 0-ply play of the roll, less the average over the 21 rolls of the
0-ply value of the 0-ply play of each; the trial reports the sum of its lucks (seen by the
starting player) beside its result, and ``result - luck`` estimates the same expectation
with a smaller variance. The luck of a roll is a function of the position and the roll whose
average over the rolls is zero whatever the play made, so the estimate stays unbiased when
the plays are chosen deeper: at 1 ply this is GNU Backgammon's own measure (its variance
reduction evaluates one ply less than the play); at 2 plies GNU Backgammon would measure at
1 ply, 21 times the cost of the play itself, where 0-ply costs a small part of it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .deep import choose_deep, deep_work
from .evaluate import Nets, checkers_of, evaluate
from .games import HIGH, LOW, WEIGHT, choose, game_over, mover_view, roll, seed_state


@njit(cache=True, nogil=True)
def _to_root(values: np.ndarray, root_moves: bool, out: np.ndarray) -> None:
    """Outputs for the player who moves as the starting player sees them."""
    if root_moves:
        out[:] = values
    else:
        mover_view(values, out)


@njit(cache=True, nogil=True)
def _difference_to_root(difference: np.ndarray, root_moves: bool, out: np.ndarray) -> None:
    """A difference of two outputs of the player who moves, as the starting player sees it
    (the constant of :func:`_to_root` cancels)."""
    _to_root(difference, root_moves, out)
    if not root_moves:
        out[0] -= 1.0


@njit(cache=True, nogil=True, inline="always")
def _trial_roll(state: np.ndarray, index: int, turn: int, stratify: bool) -> int:
    """The roll (0..35) of trial ``index``'s turn ``turn``: with ``stratify`` the first two are
    the rotation's (see the module), later ones random."""
    if stratify and turn == 0:
        return index % 36
    if stratify and turn == 1:
        return (index + index // 36) % 36
    return roll(state)


@njit(cache=True, nogil=True, inline="always")
def _leaf_to_root(board: np.ndarray, nets: Nets, scratch: np.ndarray, leaf: np.ndarray,
                  value: np.ndarray, root_on_roll: bool, out: np.ndarray) -> None:
    """The 0-ply value of ``board`` (``root_on_roll``: the starting player is on roll there),
    as the starting player sees it, in ``out``."""
    evaluate(board, nets, scratch, leaf)
    for k in range(5):
        value[k] = leaf[k]
    _to_root(value, root_on_roll, out)


@njit(cache=True, nogil=True, inline="always")
def _luck(board: np.ndarray, high: int, low: int, nets: Nets, work: tuple,  # type: ignore[type-arg]
          scratch_board: np.ndarray, value: np.ndarray, mean: np.ndarray, actual: np.ndarray,
          after: np.ndarray, root_moves: bool, seen: np.ndarray) -> None:
    """The luck of rolling (``high``, ``low``) on ``board``, as the starting player sees it, in
    ``seen``; ``after``: the 0-ply play of that roll (the module says why 0-ply)."""
    mean[:] = 0.0
    for k in range(21):
        choose(board, HIGH[k], LOW[k], nets, work, scratch_board, value)
        for j in range(5):
            mean[j] += WEIGHT[k] * value[j]
        if HIGH[k] == high and LOW[k] == low:
            after[:] = scratch_board
            actual[:] = value
    for j in range(5):
        value[j] = actual[j] - mean[j]
    _difference_to_root(value, root_moves, seen)


@njit(cache=True, nogil=True)
def rollout_trials(start: np.ndarray, first: int, trials: int, seed: int, truncate: int,
                   luck: bool, stratify: bool, plies: int, keep: np.ndarray,
                   threshold: np.ndarray, nets: Nets) -> tuple[np.ndarray, np.ndarray]:
    """Trials ``first .. first + trials - 1`` of a rollout of ``start`` (player on roll, before
    rolling): each trial's five outputs for that player, and (with ``luck``) the sum of its
    lucks, both ``(trials, 5)`` float64. ``truncate``: the turns to play before taking the
    0-ply value (0: play to the end). ``plies``, ``keep``, ``threshold``: the depth of the
    plays and the filters of :func:`.deep.choose_deep`."""
    dwork = deep_work(nets, keep.max())
    work = dwork[0]
    scratch = work[1]
    checkers = checkers_of(start)
    results = np.zeros((trials, 5), dtype=np.float64)
    lucks = np.zeros((trials, 5), dtype=np.float64)
    board = np.empty_like(start)
    after = np.empty_like(start)
    scratch_board = np.empty_like(start)
    value = np.zeros(5, dtype=np.float64)
    mean = np.zeros(5, dtype=np.float64)
    actual = np.zeros(5, dtype=np.float64)
    seen = np.zeros(5, dtype=np.float64)
    leaf = np.zeros(5, dtype=np.float32)
    none = np.zeros(0, dtype=np.float64)
    for t in range(trials):
        index = first + t
        state = seed_state(seed, index)
        board[:] = start
        turn = 0
        while True:
            root_moves = turn % 2 == 0
            if truncate > 0 and turn == truncate:
                # The leaf's player on roll is the one about to move.
                _leaf_to_root(board, nets, scratch, leaf, value, root_moves, results[t])
                break
            r = _trial_roll(state, index, turn, stratify)
            a, b = r // 6 + 1, r % 6 + 1
            high, low = max(a, b), min(a, b)
            if luck:
                _luck(board, high, low, nets, work, scratch_board, value, mean, actual, after,
                      root_moves, seen)
                for j in range(5):
                    lucks[t, j] += seen[j]
            if plies > 0:
                choose_deep(board, high, low, plies, keep, threshold, nets, dwork, after)
            elif not luck:
                choose(board, high, low, nets, work, after, none)
            turn += 1
            if game_over(after, checkers):
                # ``after`` has the loser on roll: the mover's view is the other one.
                _leaf_to_root(after, nets, scratch, leaf, value, not root_moves, results[t])
                break
            board[:] = after
    return results, lucks
