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

With a ``cube`` (:data:`CUBE_FIELDS`) the trials play it, as GNU Backgammon's cubeful
rollouts do: before each roll the player on roll doubles when :mod:`.cubemodel` says so on
the 0-ply outputs of the position and the cube is theirs to turn (:func:`_may_double`), the
opponent takes or drops by the same model; a drop settles the trial's cubeful value at the
cube, a take turns the cube (the Jacoby rule then ends); a game played out scores its points
times the cube, a truncated trial takes the model's value of the position reached. The
trial's cubeful value is the starting player's money points per unit of the starting cube or
chance of winning the match (:data:`CUBEFUL_FIELDS`). The plays stay cubeless and the trials
play on after a drop, so the cubeless outputs are those of the cubeless trials with the same
seed. With ``luck`` the cubeful luck of a turn is the model's value of the 0-ply play of the
roll (the opponent on roll, the cube as it is after that turn's cube action; a game won its
exact value) less its average over the 21 rolls: a function of the position and the roll
whose average over the rolls is zero, so the estimate stays unbiased, as for the cubeless
luck; only how much variance it removes depends on the model.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .cubemodel import CENTRE, ON_ROLL, OPPONENT, decide, efficiency, equities
from .cubemodel import after as match_after
from .deep import choose_deep, deep_work
from .evaluate import Nets, checkers_of, evaluate
from .games import HIGH, LOW, WEIGHT, choose, game_over, mover_view, roll, seed_state

#: The cube of a cubeful rollout, as :func:`rollout_trials` takes it (int64, from the side of
#: the player on roll at the start; an empty array for a cubeless rollout): its value, its
#: owner (:mod:`.cubemodel`'s codes), the Jacoby rule (1: in force), the highest value it may
#: reach (0: no limit), whether it is a match (1), the starting player's and the opponent's
#: points away, and the Crawford game (1).
CUBE_FIELDS = 8
VALUE, OWNER, JACOBY, MAX_CUBE, MATCH, AWAY, OTHER, CRAWFORD = range(CUBE_FIELDS)
#: What each cubeful trial reports, beside its cubeless outputs: its cubeful value (money:
#: points per unit of the starting cube; match: the chance of winning the match), its
#: cubeful luck, the doubles made and whether a drop ended it (1).
CUBEFUL_FIELDS = 4
#: A trial's cube as it goes (int64): its value, owner (the starting player's view), whether
#: it has turned, and whether a drop has settled the trial.
CUBE, HOLDER, TURNED, SETTLED = range(4)


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


@njit(cache=True, nogil=True)
def _owner_seen(owner: int, root_side: bool) -> int:
    """The owner of the cube (the starting player's view) as the player ``root_side`` (is the
    starting player or not) sees it."""
    return owner if root_side or owner == CENTRE else 3 - owner


@njit(cache=True, nogil=True)
def _cube_root(value: float, root_side: bool, cube: np.ndarray) -> float:
    """A cubeful value of one player (``root_side``: the starting player) as the trial counts
    it: money points per unit of the starting cube, or the chance of winning the match, of
    the starting player."""
    if cube[MATCH]:
        return value if root_side else 1.0 - value
    return (value if root_side else -value) / float(cube[VALUE])


@njit(cache=True, nogil=True)
def _won(points: int, root_side: bool, cube: np.ndarray, pre: np.ndarray,
         post: np.ndarray) -> float:
    """The trial's value when the player ``root_side`` wins ``points``."""
    if cube[MATCH]:
        away, other = (cube[AWAY], cube[OTHER]) if root_side else (cube[OTHER], cube[AWAY])
        return _cube_root(match_after(away, other, points, 0, pre, post), root_side, cube)
    return _cube_root(float(points), root_side, cube)


@njit(cache=True, nogil=True)
def _game_points(result: np.ndarray, state: np.ndarray, cube: np.ndarray) -> int:
    """The points of a game just won (``result`` has the loser on roll) at the trial's cube:
    single, gammon or backgammon times the cube (single only under the Jacoby rule before the
    cube has turned)."""
    kind = 1
    if result[0, 0] == 0 and not (cube[JACOBY] and state[TURNED] == 0):
        kind = 2
        for point in range(19, 26):
            if result[0, point] > 0:
                kind = 3
    return kind * int(state[CUBE])


@njit(cache=True, nogil=True)
def _may_double(state: np.ndarray, root_side: bool, cube: np.ndarray) -> bool:
    """Whether the player ``root_side`` may double now: the cube centred or theirs, not the
    Crawford game, not beyond the highest cube, and (in a match) not dead for them, as GNU
    Backgammon has it: a single game at the cube already wins them the match."""
    value = state[CUBE]
    if _owner_seen(state[HOLDER], root_side) == OPPONENT or cube[CRAWFORD]:
        return False
    if cube[MAX_CUBE] > 0 and 2 * value > cube[MAX_CUBE]:
        return False
    away = cube[AWAY] if root_side else cube[OTHER]
    return not cube[MATCH] or away > value


@njit(cache=True, nogil=True)
def _cube_model(p: np.ndarray, board: np.ndarray, root_side: bool, state: np.ndarray,
                cube: np.ndarray, pre: np.ndarray, post: np.ndarray) -> tuple[bool, bool, float]:
    """The cube model's decision for the player on roll of ``board`` (``root_side``: the
    starting player), with outputs ``p``: whether they double, whether the opponent drops,
    and the value of the right action as the trial counts it."""
    away, other = (cube[AWAY], cube[OTHER]) if root_side else (cube[OTHER], cube[AWAY])
    nd, dt, dp = equities(
        p, efficiency(board), _owner_seen(state[HOLDER], root_side), state[CUBE],
        cube[JACOBY] == 1 and state[TURNED] == 0, cube[MATCH] == 1, away, other,
        cube[CRAWFORD] == 1, pre, post,
    )
    double, drop, best = decide(nd, dt, dp, _may_double(state, root_side, cube))
    return double, drop, _cube_root(best, root_side, cube)


@njit(cache=True, nogil=True)
def _cube_action(board: np.ndarray, root_moves: bool, state: np.ndarray, cube: np.ndarray,
                 nets: Nets, scratch: np.ndarray, leaf: np.ndarray, p: np.ndarray,
                 pre: np.ndarray, post: np.ndarray, report: np.ndarray) -> None:
    """The player on roll's cube action before rolling, by the cube model on the 0-ply
    outputs: a double taken turns the cube; one dropped settles the trial (``report``: the
    trial's row of cubeful figures)."""
    if state[SETTLED] or not _may_double(state, root_moves, cube):
        return
    evaluate(board, nets, scratch, leaf)
    for k in range(5):
        p[k] = leaf[k]
    double, drop, _ = _cube_model(p, board, root_moves, state, cube, pre, post)
    if not double:
        return
    report[2] += 1.0
    if drop:
        state[SETTLED] = 1
        report[0] = _won(state[CUBE], root_moves, cube, pre, post)
        report[3] = 1.0
    else:
        state[CUBE] *= 2
        state[HOLDER] = OPPONENT if root_moves else ON_ROLL  # the taker owns it
        state[TURNED] = 1


@njit(cache=True, nogil=True, inline="always")
def _luck(board: np.ndarray, high: int, low: int, nets: Nets, work: tuple,  # type: ignore[type-arg]
          scratch_board: np.ndarray, value: np.ndarray, mean: np.ndarray, actual: np.ndarray,
          after: np.ndarray, root_moves: bool, seen: np.ndarray, state: np.ndarray,
          cube: np.ndarray, checkers: int, p: np.ndarray, pre: np.ndarray,
          post: np.ndarray) -> float:
    """The luck of rolling (``high``, ``low``) on ``board``, as the starting player sees it, in
    ``seen``; ``after``: the 0-ply play of that roll (the module says why 0-ply). In a
    cubeful trial whose cube is still in play, returns its cubeful luck (0 otherwise): the
    cube model's value of the roll's 0-ply play, with the opponent on roll and the cube as it
    is, less its average over the 21 rolls."""
    mean[:] = 0.0
    cubeful = cube.shape[0] > 0 and state[SETTLED] == 0
    cube_mean = cube_actual = 0.0
    for k in range(21):
        choose(board, HIGH[k], LOW[k], nets, work, scratch_board, value)
        for j in range(5):
            mean[j] += WEIGHT[k] * value[j]
        cube_value = 0.0
        if cubeful:
            if game_over(scratch_board, checkers):
                cube_value = _won(_game_points(scratch_board, state, cube), root_moves, cube,
                                  pre, post)
            else:
                mover_view(value, p)  # the opponent's outputs, on roll
                _, _, cube_value = _cube_model(p, scratch_board, not root_moves, state, cube,
                                               pre, post)
            cube_mean += WEIGHT[k] * cube_value
        if HIGH[k] == high and LOW[k] == low:
            after[:] = scratch_board
            actual[:] = value
            cube_actual = cube_value
    for j in range(5):
        value[j] = actual[j] - mean[j]
    _difference_to_root(value, root_moves, seen)
    return cube_actual - cube_mean


@njit(cache=True, nogil=True)
def _turn_arrays() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                            np.ndarray, np.ndarray, np.ndarray]:
    """The vectors a trial's turns work in: a value, the luck's mean and actual, the luck
    seen from the root, a player's outputs, a leaf's, an empty one (no prior) and the cube's
    state (:data:`CUBE` ...)."""
    return (np.zeros(5, dtype=np.float64), np.zeros(5, dtype=np.float64),
            np.zeros(5, dtype=np.float64), np.zeros(5, dtype=np.float64),
            np.zeros(5, dtype=np.float64), np.zeros(5, dtype=np.float32),
            np.zeros(0, dtype=np.float64), np.zeros(4, dtype=np.int64))


@njit(cache=True, nogil=True, inline="always")
def _truncated(board: np.ndarray, nets: Nets, scratch: np.ndarray, leaf: np.ndarray,
               value: np.ndarray, root_moves: bool, result: np.ndarray, state: np.ndarray,
               cube: np.ndarray, pre: np.ndarray, post: np.ndarray,
               cubeful: np.ndarray) -> None:
    """A trial cut at ``board``: its 0-ply outputs for the root in ``result``, and while the
    cube is in play the cube model's value there, the player on roll's action counted."""
    # The leaf's player on roll is the one about to move.
    _leaf_to_root(board, nets, scratch, leaf, value, root_moves, result)
    if not state[SETTLED]:
        _, _, reached = _cube_model(value, board, root_moves, state, cube, pre, post)
        cubeful[0] = reached


@njit(cache=True, nogil=True, inline="always")
def _finished(after: np.ndarray, nets: Nets, scratch: np.ndarray, leaf: np.ndarray,
              value: np.ndarray, root_moves: bool, result: np.ndarray, state: np.ndarray,
              cube: np.ndarray, pre: np.ndarray, post: np.ndarray,
              cubeful: np.ndarray) -> None:
    """A trial whose play ``after`` ended the game: its outputs for the root in ``result``,
    and while the cube is in play the game's points at the cube."""
    # ``after`` has the loser on roll: the mover's view is the other one.
    _leaf_to_root(after, nets, scratch, leaf, value, not root_moves, result)
    if not state[SETTLED]:
        cubeful[0] = _won(_game_points(after, state, cube), root_moves, cube, pre, post)


@njit(cache=True, nogil=True)
def rollout_trials(start: np.ndarray, first: int, trials: int, seed: int, truncate: int,
                   luck: bool, stratify: bool, plies: int, keep: np.ndarray,
                   threshold: np.ndarray, nets: Nets, cube: np.ndarray, pre: np.ndarray,
                   post: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Trials ``first .. first + trials - 1`` of a rollout of ``start`` (player on roll, before
    rolling): each trial's five outputs for that player, (with ``luck``) the sum of its
    lucks, both ``(trials, 5)`` float64, and its cubeful figures ``(trials, 4)``
    (:data:`CUBEFUL_FIELDS`; zeros when ``cube`` is empty: a cubeless rollout).
    ``truncate``: the turns to play before taking the 0-ply value (0: play to the end).
    ``plies``, ``keep``, ``threshold``: the depth of the plays and the filters of
    :func:`.deep.choose_deep`. ``cube`` (:data:`CUBE_FIELDS`), ``pre``, ``post`` (the match
    equity table, :func:`.cubemodel.met_arrays`): the cube played in the trials."""
    dwork = deep_work(nets, keep.max())
    work = dwork[0]
    scratch = work[1]
    checkers = checkers_of(start)
    results = np.zeros((trials, 5), dtype=np.float64)
    lucks = np.zeros((trials, 5), dtype=np.float64)
    cubeful = np.zeros((trials, CUBEFUL_FIELDS), dtype=np.float64)
    board, after, scratch_board = np.empty_like(start), np.empty_like(start), np.empty_like(start)
    value, mean, actual, seen, p, leaf, none, state = _turn_arrays()
    played = cube.shape[0] > 0
    for t in range(trials):
        index = first + t
        rng = seed_state(seed, index)
        board[:] = start
        turn = 0
        if played:
            state[CUBE], state[HOLDER], state[TURNED] = cube[VALUE], cube[OWNER], 0
        # A cubeless rollout's trials count as settled: no cube to play.
        state[SETTLED] = 0 if played else 1
        while True:
            root_moves = turn % 2 == 0
            if truncate > 0 and turn == truncate:
                _truncated(board, nets, scratch, leaf, value, root_moves, results[t], state,
                           cube, pre, post, cubeful[t])
                break
            _cube_action(board, root_moves, state, cube, nets, scratch, leaf, p, pre, post,
                         cubeful[t])
            r = _trial_roll(rng, index, turn, stratify)
            a, b = r // 6 + 1, r % 6 + 1
            high, low = max(a, b), min(a, b)
            if luck:
                cubeful[t, 1] += _luck(board, high, low, nets, work, scratch_board, value, mean,
                                       actual, after, root_moves, seen, state, cube, checkers,
                                       p, pre, post)
                for j in range(5):
                    lucks[t, j] += seen[j]
            if plies > 0:
                choose_deep(board, high, low, plies, keep, threshold, nets, dwork, after)
            elif not luck:
                choose(board, high, low, nets, work, after, none)
            turn += 1
            if game_over(after, checkers):
                _finished(after, nets, scratch, leaf, value, root_moves, results[t], state,
                          cube, pre, post, cubeful[t])
                break
            board[:] = after
    return results, lucks, cubeful
