"""The compiled network of the other games, over the boards of :mod:`.boards`: the network
of :mod:`backgammon.bot.games.td` (its encoding, its forward pass and its gradient), its
choices and its TD(λ) self-play. The baselines and the matches between any two players are
:mod:`.duels`'.

The network is td.py's: ``w1`` (244, H), ``b1`` (H,), ``w2`` (H,), ``b2`` (1,) float64
arrays, one sigmoid hidden layer and a tanh output, the expected points of the player on
roll over the game's largest score. The encoding is td.encode's bit for bit (a test holds it
so); since a board's inputs are mostly zero, the forward pass sums the rows of ``w1`` of the
inputs that are not (``_encode`` lists them).

A training game is td.py's self-play, step for step: every board where a player is to
throw is valued from player 0's view; the weights move by α × (the next board's value, or
the game's score at the end, less this one's) along traces decayed by λ. Each game draws its
dice from its own generator (:func:`.games.seed_state`), seeded by the run's seed and the
game's index.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .boards import ACEY_DEUCEY, FEVGA, LONG_NARDY, flip, generate, outcome
from .boards import workspace as boards_workspace
from .games import roll, seed_state

#: Inputs a side: four a point (truncated unary), bar, off, 24 pinned bits (td.PER_SIDE).
PER_SIDE = 24 * 4 + 2 + 24
INPUTS = 2 * PER_SIDE
#: The largest score of each game, by kernel number (Acey-deucey's backgammon 3; Plakoto 2).
TOP = np.array([2, 2, 2, 2, 2, 3], dtype=np.int64)
#: The first throw's dice may be a double: every game but Long Nardy (``opening_reroll``).
OPENING_DOUBLE = np.array([True, True, True, True, False, True])
#: One checker holds a point (Fevga, Long Nardy), by kernel number.
HOLDS = np.array([False, False, False, True, True, False])
#: The most throws a training game may last (``match.MOST_TURNS`` × 4).
MOST_THROWS = 4000
#: The opponent's number of the mover's points 1..24 (index 1..24), by travel: the games
#: where both sides travel the same way, then the others.
_SAME = np.array([0] + [p - 12 if p > 12 else p + 12 for p in range(1, 25)], dtype=np.int64)
_OPPOSITE = np.array([0] + [25 - p for p in range(1, 25)], dtype=np.int64)


@njit(cache=True, nogil=True)
def _their(game: int) -> np.ndarray:
    return _SAME if game == FEVGA or game == LONG_NARDY else _OPPOSITE  # noqa: SIM109


@njit(cache=True, nogil=True)
def _encode(game: int, board: np.ndarray, index: np.ndarray, value: np.ndarray) -> int:
    """The inputs of ``board`` that are not zero: their numbers into ``index``, their values
    into ``value``; returns how many."""
    their = _their(game)
    n = 0
    for side in range(2):
        base = side * PER_SIDE
        for j in range(24):
            point = j + 1 if side == 0 else their[j + 1]
            count = board[side, point]
            if count >= 1:
                index[n] = base + j
                value[n] = 1.0
                n += 1
            if count >= 2:
                index[n] = base + 24 + j
                value[n] = 1.0
                n += 1
            if count >= 3:
                index[n] = base + 48 + j
                value[n] = 1.0
                n += 1
            if count >= 4:
                index[n] = base + 72 + j
                value[n] = (count - 3) / 2
                n += 1
            if board[2 + side, point]:
                index[n] = base + 98 + j
                value[n] = 1.0
                n += 1
        if board[side, 25]:
            index[n] = base + 96
            value[n] = board[side, 25] / 15
            n += 1
        if board[side, 0]:
            index[n] = base + 97
            value[n] = board[side, 0] / 15
            n += 1
    return n


@njit(cache=True, nogil=True)
def encode_dense(game: int, board: np.ndarray) -> np.ndarray:
    """The 244 inputs of ``board``, as td.encode gives them."""
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    out = np.zeros(INPUTS, dtype=np.float64)
    n = _encode(game, board, index, value)
    for k in range(n):
        out[index[k]] = value[k]
    return out


@njit(cache=True, nogil=True)
def _forward(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
             index: np.ndarray, value: np.ndarray, n: int, hidden: np.ndarray) -> float:
    """The network's value of the inputs listed, its hidden layer left in ``hidden``."""
    size = b1.shape[0]
    for h in range(size):
        hidden[h] = b1[h]
    for k in range(n):
        row = index[k]
        x = value[k]
        for h in range(size):
            hidden[h] += x * w1[row, h]
    total = b2[0]
    for h in range(size):
        hidden[h] = 1.0 / (1.0 + np.exp(-hidden[h]))
        total += hidden[h] * w2[h]
    return float(np.tanh(total))


@njit(cache=True, nogil=True)
def values(game: int, boards: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
           b2: np.ndarray) -> np.ndarray:
    """The network's value of each board ``(n, 4, 26)`` for its player on roll."""
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    out = np.zeros(boards.shape[0], dtype=np.float64)
    for i in range(boards.shape[0]):
        n = _encode(game, boards[i], index, value)
        out[i] = _forward(w1, b1, w2, b2, index, value, n, hidden)
    return out


@njit(cache=True, nogil=True)
def _best(game: int, ws: tuple, count: int, w1: np.ndarray, b1: np.ndarray,  # type: ignore[type-arg]
          w2: np.ndarray, b2: np.ndarray, index: np.ndarray, value: np.ndarray,
          hidden: np.ndarray) -> tuple[int, float]:
    """Of the ``count`` results in ``ws[7]``, the one whose board is worst for the opponent
    (a result that ends the game scores its points, doubled over the largest score, as
    td.TDPlayer does), and its score for the mover; the first of equal scores."""
    results = ws[7]
    top = TOP[game]
    best, best_score = 0, -1e300
    for i in range(count):
        over, points = outcome(game, results[i])
        if over:
            score = -points / top * 2.0
        else:
            n = _encode(game, results[i], index, value)
            score = -_forward(w1, b1, w2, b2, index, value, n, hidden)
        if score > best_score:
            best, best_score = i, score
    return best, best_score


@njit(cache=True, nogil=True)
def _named_double(game: int, ws: tuple, board: np.ndarray, w1: np.ndarray,  # type: ignore[type-arg]
                  b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, index: np.ndarray,
                  value: np.ndarray, hidden: np.ndarray) -> int:
    """The double to name after a 1-2: the one whose best play scores highest (6 when none
    can be played), as td.TDPlayer.name_double."""
    best, best_score = 6, -1e300
    for die in range(1, 7):
        count = generate(ws, game, board, die, die)
        if count:
            _, score = _best(game, ws, count, w1, b1, w2, b2, index, value, hidden)
            if score > best_score:
                best, best_score = die, score
    return best


@njit(cache=True, nogil=True)
def choose(game: int, board: np.ndarray, d1: int, d2: int, w1: np.ndarray, b1: np.ndarray,
           w2: np.ndarray, b2: np.ndarray, chosen: np.ndarray) -> int:
    """The network's play of (``d1``, ``d2``) from ``board``: its result into ``chosen``;
    returns the number of legal results (0: none, ``chosen`` untouched)."""
    ws = boards_workspace()
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    count = generate(ws, game, board, d1, d2)
    if count:
        best, _ = _best(game, ws, count, w1, b1, w2, b2, index, value, hidden)
        chosen[:] = ws[7][best]
    return count


@njit(cache=True, nogil=True)
def named_double(game: int, board: np.ndarray, w1: np.ndarray, b1: np.ndarray,
                 w2: np.ndarray, b2: np.ndarray) -> int:
    """The network's double after an Acey-deucey 1-2 on ``board`` (the namer on roll)."""
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    return _named_double(game, boards_workspace(), board, w1, b1, w2, b2, index, value,
                         hidden)


@njit(cache=True, nogil=True)
def _throw(state: np.ndarray) -> tuple[int, int]:
    r = roll(state)
    return r // 6 + 1, r % 6 + 1


@njit(cache=True, nogil=True)
def _opening(game: int, state: np.ndarray) -> tuple[int, int]:
    """The first throw, thrown again while a double where the game's opening allows none."""
    d1, d2 = _throw(state)
    while not OPENING_DOUBLE[game] and d1 == d2:
        d1, d2 = _throw(state)
    return d1, d2


@njit(cache=True, nogil=True)
def _play(game: int, ws: tuple, count: int, best: int, board: np.ndarray,  # type: ignore[type-arg]
                turned: np.ndarray, d1: int, d2: int, named: bool) -> tuple[bool, int, int]:
    """Play result ``best`` of the ``count`` in ``ws[7]`` (none: the board is only turned)
    onto ``board``; returns whether the game is over, its points for the player on roll
    now (the mover's opponent), and what follows: 0 the turn passes, 1 the mover names a
    double (Acey-deucey's 1-2), 2 the mover throws again (after the named double)."""
    if count == 0:
        flip(board, turned)
        board[:] = turned
        return False, 0, 0
    used = ws[9][2]
    board[:] = ws[7][best]
    over, points = outcome(game, board)
    if over:
        return True, points, 0
    if game == ACEY_DEUCEY:
        if not named and used == 2 and min(d1, d2) == 1 and max(d1, d2) == 2:
            return False, 0, 1
        if named and used == 4:
            return False, 0, 2
    return False, 0, 0


@njit(cache=True, nogil=True)
def _network_throw(game: int, ws: tuple, board: np.ndarray, turned: np.ndarray,  # type: ignore[type-arg]
                   d1: int, d2: int, named: bool, w1: np.ndarray, b1: np.ndarray,
                   w2: np.ndarray, b2: np.ndarray, index: np.ndarray, value: np.ndarray,
                   hidden: np.ndarray) -> tuple[bool, int, int]:
    """The network plays (``d1``, ``d2``) on ``board``: the results generated, the best by
    :func:`_best` played by :func:`_play`, whose answer it returns. Self-play, the
    rollouts' trials and the positions to label all throw through it."""
    count = generate(ws, game, board, d1, d2)
    best = 0
    if count:
        best, _ = _best(game, ws, count, w1, b1, w2, b2, index, value, hidden)
    return _play(game, ws, count, best, board, turned, d1, d2, named)


@njit(cache=True, nogil=True)
def _stage(board: np.ndarray, turned: np.ndarray, state: np.ndarray,
           again: int) -> tuple[int, int]:
    """The next throw after :func:`_play`'s ``again``; when the mover goes on, the
    board is turned back to them first. After a 1-2 (``again`` 1) the dice are the
    double the mover names: (0, 0) here."""
    if again == 0:
        return _throw(state)
    flip(board, turned)
    board[:] = turned
    if again == 1:
        return 0, 0
    return _throw(state)


@njit(cache=True, nogil=True)
def _td_update(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
               t1: np.ndarray, tb1: np.ndarray, tw2: np.ndarray, tb2: float,
               d_hidden: np.ndarray, cur_index: np.ndarray, cur_value: np.ndarray,
               cur_n: int, cur_hidden: np.ndarray, cur_v: float, cur_sign: float,
               target: float, alpha: float, lam: float) -> float:
    """One TD(λ) step from the current board (its inputs, hidden layer and value ``cur_v``,
    seen from player 0 through ``cur_sign``) towards ``target``: the traces become λ ×
    trace + the current board's gradient, the weights move by α × (target - value) along
    them. Returns the output bias's trace (the others are updated in place)."""
    size = b1.shape[0]
    grad_out = cur_sign * (1.0 - cur_v * cur_v)
    for h in range(size):
        d_hidden[h] = grad_out * w2[h] * cur_hidden[h] * (1.0 - cur_hidden[h])
    for row in range(INPUTS):
        for h in range(size):
            t1[row, h] *= lam
    for k in range(cur_n):
        row = cur_index[k]
        x = cur_value[k]
        for h in range(size):
            t1[row, h] += x * d_hidden[h]
    for h in range(size):
        tb1[h] = lam * tb1[h] + d_hidden[h]
        tw2[h] = lam * tw2[h] + grad_out * cur_hidden[h]
    tb2 = lam * tb2 + grad_out
    delta = alpha * (target - cur_sign * cur_v)
    for row in range(INPUTS):
        for h in range(size):
            w1[row, h] += delta * t1[row, h]
    for h in range(size):
        b1[h] += delta * tb1[h]
        w2[h] += delta * tw2[h]
    b2[0] += delta * tb2
    return tb2


@njit(cache=True, nogil=True)
def train(game: int, start: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray,
          b2: np.ndarray, games: int, seed: int, first: int, alpha: float,
          lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Train the network in place by TD(λ) over games ``first .. first + games - 1`` of a
    run seeded by ``seed``, each from ``start`` (the game's first board); returns each
    game's score for player 0 (the points, over the largest score) and its throws."""
    ws = boards_workspace()
    size = b1.shape[0]
    # A board's inputs and hidden layer, and the current board's, kept for the trace.
    scratch = (np.zeros(INPUTS, dtype=np.int64), np.zeros(INPUTS, dtype=np.float64),
               np.zeros(size, dtype=np.float64))
    current = (np.zeros(INPUTS, dtype=np.int64), np.zeros(INPUTS, dtype=np.float64),
               np.zeros(size, dtype=np.float64))
    # The traces of w1, b1 and w2, and the gradient's hidden factors.
    traces = (np.zeros((INPUTS, size), dtype=np.float64), np.zeros(size, dtype=np.float64),
              np.zeros(size, dtype=np.float64), np.zeros(size, dtype=np.float64))
    scores = np.zeros(games, dtype=np.float64)
    throws = np.zeros(games, dtype=np.int64)
    board = np.empty_like(start)
    turned = np.empty_like(start)
    for g in range(games):
        board[:] = start
        scores[g], throws[g] = _train_game(game, ws, board, turned, w1, b1, w2, b2,
                                           seed_state(seed, first + g), alpha, lam,
                                           scratch, current, traces)
    return scores, throws


@njit(cache=True, nogil=True)
def _train_game(game: int, ws: tuple, board: np.ndarray, turned: np.ndarray,  # type: ignore[type-arg]
                w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                state: np.ndarray, alpha: float, lam: float, scratch: tuple,  # type: ignore[type-arg]
                current: tuple, traces: tuple) -> tuple[float, int]:  # type: ignore[type-arg]
    """One self-play game of :func:`train` from ``board``, with the dice of ``state``:
    its score for player 0 and its throws."""
    index, value, hidden = scratch
    cur_index, cur_value, cur_hidden = current
    t1, tb1, tw2, d_hidden = traces
    t1[:] = 0.0
    tb1[:] = 0.0
    tw2[:] = 0.0
    tb2 = 0.0
    on_roll = 0
    # This board's value for player 0, and its encoding (for the gradient).
    cur_n = _encode(game, board, cur_index, cur_value)
    cur_v = _forward(w1, b1, w2, b2, cur_index, cur_value, cur_n, cur_hidden)
    cur_sign = 1.0
    d1, d2 = _opening(game, state)
    named = False
    turn, n, nv = 0, 0, 0.0
    while True:
        turn += 1
        if turn > MOST_THROWS:
            raise RuntimeError("a training game did not end")
        over, points, again = _network_throw(game, ws, board, turned, d1, d2, named, w1, b1,
                                             w2, b2, index, value, hidden)
        if over:
            # ``points`` are for the mover's opponent; the score is player 0's.
            target = (-points if on_roll == 0 else points) / TOP[game]
        else:
            if again == 0:
                on_roll = 1 - on_roll
            named = again == 1
            d1, d2 = _stage(board, turned, state, again)
            if named:
                d1 = d2 = _named_double(game, ws, board, w1, b1, w2, b2, index, value,
                                        hidden)
            n = _encode(game, board, index, value)
            nv = _forward(w1, b1, w2, b2, index, value, n, hidden)
            target = nv if on_roll == 0 else -nv
        # The TD step from the current board to this one (or to the game's score).
        tb2 = _td_update(w1, b1, w2, b2, t1, tb1, tw2, tb2, d_hidden, cur_index, cur_value,
                         cur_n, cur_hidden, cur_v, cur_sign, target, alpha, lam)
        if over:
            return target, turn
        # The new board becomes the current one (its gradient from the weights before
        # this step's change, as td.py's).
        cur_index[:n] = index[:n]
        cur_value[:n] = value[:n]
        cur_n = n
        cur_hidden[:] = hidden
        cur_v = nv
        cur_sign = 1.0 if on_roll == 0 else -1.0
