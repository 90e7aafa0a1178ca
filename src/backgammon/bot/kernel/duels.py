"""Duplicate-dice matches between the compiled players of the other games (:func:`duel`):
the network of :mod:`.players`, alone or searching one ply ahead (:func:`lookahead_values`),
and the baselines of :mod:`backgammon.bot.games.players` (the heuristic's counts and choice,
the random player), each held to its Python player by the tests.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .boards import PLAKOTO, flip, generate, outcome
from .boards import workspace as boards_workspace
from .games import roll, seed_state
from .players import (
    HOLDS,
    INPUTS,
    MOST_THROWS,
    TOP,
    _best,
    _encode,
    _forward,
    _opening,
    _play,
    _stage,
    _their,
)

#: The heuristic's counts, in the order of its weights' array (players.Features).
FEATURES = ("pips", "off", "points", "prime", "home", "blots", "hit", "pinned", "mother")
#: The kinds of player :func:`duel` plays: LOOKAHEAD is the network searching one ply ahead
#: (:func:`_lookahead_best`).
NETWORK, HEURISTIC, RANDOM, LOOKAHEAD = 0, 1, 2, 3
#: The most plays the lookahead searches a decision: the best by the network alone.
WIDTH = 8
#: The heuristic's score of a play that wins the game, a point (players.WON).
WON = 1e6


@njit(cache=True, nogil=True)
def _direct_shot(board: np.ndarray, point: int) -> bool:
    """players._direct_shot on ``board`` (the mover on row 0)."""
    for source in range(max(0, point - 6), point):
        tp = 25 - source
        count = board[1, tp]
        if count and not (count == 1 and board[3, tp]):
            return True
    return False


@njit(cache=True, nogil=True)
def heuristic_score(game: int, board: np.ndarray, weights: np.ndarray) -> float:
    """The weighted counts of players.features of ``board``, for its player on roll (the
    heuristic passes the result of a play turned back to the player who made it)."""
    their = _their(game)
    holds = HOLDS[game]
    pins = game == PLAKOTO
    need = 1 if holds else 2
    my_pips = 0
    their_pips = 0
    rearmost = 0
    for p in range(26):
        my_pips += p * board[0, p]
        their_pips += p * board[1, p]
        if p and board[1, p]:
            rearmost = p
    held = np.zeros(25, dtype=np.bool_)
    points = 0
    prime = 0
    run = 0
    home = 0
    for point in range(1, 25):
        count = board[0, point]
        held[point] = (count >= need or (pins and count == 1 and board[3, 25 - point] == 1)) \
            and their[point] < rearmost
        if held[point]:
            points += 1
            run += 1
            prime = max(prime, run)
            if point <= 6:
                home += 1
        else:
            run = 0
    blots = 0
    mother = 0
    if not holds:
        for point in range(1, 25):
            if board[0, point] != 1 or held[point] or board[2, point]:
                continue
            if _direct_shot(board, point):
                blots += 1
                if pins and point == 24:
                    mother = 1
    hit = 0
    if not holds and not pins:
        hit = board[1, 25] - board[3, 0]
    pinned = 0
    if pins:
        for p in range(1, 25):
            pinned += board[3, p] - board[2, p]
    return float(weights[0] * (their_pips - my_pips) + weights[1] * board[0, 0]
                 + weights[2] * points + weights[3] * prime + weights[4] * home
                 + weights[5] * blots + weights[6] * hit + weights[7] * pinned
                 + weights[8] * mother)


@njit(cache=True, nogil=True)
def _heuristic_best(game: int, ws: tuple, count: int, weights: np.ndarray,  # type: ignore[type-arg]
                    turned: np.ndarray) -> tuple[int, float]:
    """players.HeuristicPlayer's choice among the ``count`` results in ``ws[7]``."""
    results = ws[7]
    best, best_score = 0, -1e300
    for i in range(count):
        over, points = outcome(game, results[i])
        if over:
            score = -WON * points
        else:
            flip(results[i], turned)
            score = heuristic_score(game, turned, weights)
        if score > best_score:
            best, best_score = i, score
    return best, best_score


@njit(cache=True, nogil=True)
def reply_value(game: int, ws: tuple, board: np.ndarray, w1: np.ndarray,  # type: ignore[type-arg]
                b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, index: np.ndarray,
                value: np.ndarray, hidden: np.ndarray, turned: np.ndarray) -> float:
    """The value of ``board`` for its player on roll one ply ahead, over the game's largest
    score: the mean over the 21 rolls, each by its chance, of the value of their best play
    by the network (:func:`_best`; a play that ends the game is worth its points; a roll
    that cannot be played leaves the board to the other player). An Acey-deucey 1-2 is
    valued by its own play, without the double and the throw that follow."""
    top = TOP[game]
    over, points = outcome(game, board)
    if over:
        return float(points / top)
    total = 0.0
    for d1 in range(1, 7):
        for d2 in range(d1, 7):
            count = generate(ws, game, board, d1, d2)
            if count == 0:
                flip(board, turned)
                n = _encode(game, turned, index, value)
                reply = -_forward(w1, b1, w2, b2, index, value, n, hidden)
            else:
                best, reply = _best(game, ws, count, w1, b1, w2, b2, index, value, hidden)
                over, points = outcome(game, ws[7][best])
                if over:
                    reply = -points / top
            total += reply if d1 == d2 else 2.0 * reply
    return total / 36.0


@njit(cache=True, nogil=True)
def _zero_ply_scores(game: int, ws: tuple, count: int, w1: np.ndarray,  # type: ignore[type-arg]
                     b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, index: np.ndarray,
                     value: np.ndarray, hidden: np.ndarray) -> np.ndarray:
    """:func:`_best`'s score of each of the ``count`` results in ``ws[7]``."""
    results = ws[7]
    top = TOP[game]
    scores = np.empty(count, dtype=np.float64)
    for i in range(count):
        over, points = outcome(game, results[i])
        if over:
            scores[i] = -points / top * 2.0
        else:
            n = _encode(game, results[i], index, value)
            scores[i] = -_forward(w1, b1, w2, b2, index, value, n, hidden)
    return scores


@njit(cache=True, nogil=True)
def _lookahead_best(game: int, ws: tuple, inner: tuple, count: int,  # type: ignore[type-arg]
                    w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
                    index: np.ndarray, value: np.ndarray, hidden: np.ndarray,
                    turned: np.ndarray) -> tuple[int, float]:
    """Of the ``count`` results in ``ws[7]``, the best one ply ahead: the :data:`WIDTH`
    best by :func:`_best`'s scores (the first of equal ones first), each valued by the
    opponent's :func:`reply_value` (searched in the workspace ``inner``); a result that
    ends the game scores as in :func:`_best`. Returns its index and score."""
    results = ws[7]
    top = TOP[game]
    order = np.argsort(-_zero_ply_scores(game, ws, count, w1, b1, w2, b2, index, value,
                                         hidden), kind="mergesort")
    best, best_score = 0, -1e300
    for k in range(min(WIDTH, count)):
        i = order[k]
        over, points = outcome(game, results[i])
        if over:
            score = -points / top * 2.0
        else:
            score = -reply_value(game, inner, results[i], w1, b1, w2, b2, index, value,
                                 hidden, turned)
        if score > best_score:
            best, best_score = i, score
    return best, best_score


@njit(cache=True, nogil=True)
def lookahead_values(game: int, boards: np.ndarray, w1: np.ndarray, b1: np.ndarray,
                     w2: np.ndarray, b2: np.ndarray) -> np.ndarray:
    """:func:`reply_value` of each board ``(n, 4, 26)``, for its player on roll."""
    ws = boards_workspace()
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(b1.shape[0], dtype=np.float64)
    turned = np.empty((4, 26), dtype=np.int8)
    out = np.zeros(boards.shape[0], dtype=np.float64)
    for i in range(boards.shape[0]):
        out[i] = reply_value(game, ws, boards[i], w1, b1, w2, b2, index, value, hidden,
                             turned)
    return out


@njit(cache=True, nogil=True)
def _next_random(state: np.ndarray, count: int) -> int:
    """One of ``count`` choices, each with the same chance, from the generator ``state``."""
    r = roll(state)  # 0..35, then more bits for a wider choice
    return int((r * 1_000_003 + roll(state) * 36 + roll(state)) % count)


@njit(cache=True, nogil=True)
def _pick(kind: int, game: int, ws: tuple, inner: tuple, count: int,  # type: ignore[type-arg]
          w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray, weights: np.ndarray,
          state: np.ndarray, index: np.ndarray, value: np.ndarray, hidden: np.ndarray,
          turned: np.ndarray) -> tuple[int, float]:
    """The choice of a player of ``kind`` among the ``count`` results in ``ws[7]`` (a
    lookahead searches in ``inner``)."""
    if kind == NETWORK:
        return _best(game, ws, count, w1, b1, w2, b2, index, value, hidden)
    if kind == LOOKAHEAD:
        return _lookahead_best(game, ws, inner, count, w1, b1, w2, b2, index, value,
                               hidden, turned)
    if kind == HEURISTIC:
        return _heuristic_best(game, ws, count, weights, turned)
    return _next_random(state, count), 0.0


@njit(cache=True, nogil=True)
def _double_of(kind: int, game: int, ws: tuple, inner: tuple,  # type: ignore[type-arg]
               board: np.ndarray,
               w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
               weights: np.ndarray, state: np.ndarray, index: np.ndarray,
               value: np.ndarray, hidden: np.ndarray, turned: np.ndarray) -> int:
    """The double a player of ``kind`` names after a 1-2 (the best play's, 6 if none)."""
    if kind == RANDOM:
        return _next_random(state, 6) + 1
    best, best_score = 6, -1e300
    for die in range(1, 7):
        count = generate(ws, game, board, die, die)
        if count:
            _, score = _pick(kind, game, ws, inner, count, w1, b1, w2, b2, weights, state,
                             index, value, hidden, turned)
            if score > best_score:
                best, best_score = die, score
    return best


@njit(cache=True, nogil=True)
def duel(game: int, start: np.ndarray, kinds: np.ndarray, nets: tuple,  # type: ignore[type-arg]
         weights: np.ndarray, pairs: int,
         seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Duplicate-dice games between two players (``kinds``: NETWORK, LOOKAHEAD, HEURISTIC or
    RANDOM; ``nets``: w1, b1, w2, b2 of the first, then of the second, for a network): each
    dice stream played twice, each player starting once, as match.play_match does. Returns the
    first player's points in each game (each pair in turn), each game's throws, and how
    each ended (its points: 0 a draw, 1 single, 2 gammon, 3 backgammon; 4 a pinned
    mother)."""
    ws = boards_workspace()
    inner = boards_workspace()
    size = max(nets[1].shape[0], nets[5].shape[0])
    index = np.zeros(INPUTS, dtype=np.int64)
    value = np.zeros(INPUTS, dtype=np.float64)
    hidden = np.zeros(size, dtype=np.float64)
    points = np.zeros(2 * pairs, dtype=np.int64)
    throws = np.zeros(2 * pairs, dtype=np.int64)
    ends = np.zeros(2 * pairs, dtype=np.int64)
    board = np.empty_like(start)
    turned = np.empty_like(start)
    for g in range(pairs):
        for seat in range(2):
            state = seed_state(seed, g)
            # The players' own generators (for the random player's choices).
            chance = seed_state(seed + 1, 2 * g + seat)
            board[:] = start
            mover = seat  # the player on roll: 0 the first
            d1, d2 = _opening(game, state)
            named = False
            throw = 0
            while True:
                throw += 1
                if throw > MOST_THROWS:
                    raise RuntimeError("a game did not end")
                over, result, again = _duel_turn(game, ws, inner, board, turned, d1, d2,
                                                 named, kinds[mover], mover, nets, weights,
                                                 chance, index, value, hidden)
                if over:
                    # ``result`` is for the player on roll now: the mover's opponent.
                    points[2 * g + seat] = -result if mover == 0 else result
                    throws[2 * g + seat] = throw
                    ends[2 * g + seat] = abs(result)
                    if result and game == PLAKOTO and (board[2, 24] or board[3, 24]):
                        ends[2 * g + seat] = 4  # a pinned mother
                    break
                if again == 0:
                    mover = 1 - mover
                named = again == 1
                d1, d2 = _stage(board, turned, state, again)
                if named:
                    w1, b1, w2, b2 = _net(nets, mover)
                    d1 = d2 = _double_of(kinds[mover], game, ws, inner, board, w1, b1, w2,
                                         b2, weights, chance, index, value, hidden, turned)
    return points, throws, ends


@njit(cache=True, nogil=True)
def _net(nets: tuple, player: int) -> tuple:  # type: ignore[type-arg]
    """The network (w1, b1, w2, b2) of ``player`` (0 the first) in :func:`duel`'s ``nets``."""
    if player == 0:
        return nets[0], nets[1], nets[2], nets[3]
    return nets[4], nets[5], nets[6], nets[7]


@njit(cache=True, nogil=True)
def _duel_turn(game: int, ws: tuple, inner: tuple,  # type: ignore[type-arg]
               board: np.ndarray, turned: np.ndarray,
               d1: int, d2: int, named: bool, kind: int, mover: int, nets: tuple,  # type: ignore[type-arg]
               weights: np.ndarray, chance: np.ndarray, index: np.ndarray,
               value: np.ndarray, hidden: np.ndarray) -> tuple[bool, int, int]:
    """The play of (``d1``, ``d2``) by ``mover``, a player of ``kind``, as
    :func:`_play` makes and returns it."""
    w1, b1, w2, b2 = _net(nets, mover)
    count = generate(ws, game, board, d1, d2)
    best = 0
    if count:
        best, _ = _pick(kind, game, ws, inner, count, w1, b1, w2, b2, weights, chance, index,
                        value, hidden, turned)
    return _play(game, ws, count, best, board, turned, d1, d2, named)
