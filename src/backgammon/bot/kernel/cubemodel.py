"""Compiled cube decisions: Janowski's model of :mod:`backgammon.bot.cube`, for the kernel.

Cubeful rollouts (:mod:`.rollouts`) ask the cube model at every turn of every trial, and 21
times a turn for the variance reduction, so the model is compiled here: the same lines as
:func:`~backgammon.bot.cube.money_decision` and :func:`~backgammon.bot.cube.match_decision`
(a test holds the three equities of both to the Python model's), on five outputs of the
player on roll (float64) rather than a :class:`~backgammon.bot.probabilities.Probabilities`.

A cube is described from the side of the player on roll: its value ``cube``, its ``owner``
(:data:`CENTRE`, :data:`ON_ROLL`, :data:`OPPONENT`), in money play whether the Jacoby rule
holds, in a match both players' points away and whether this is the Crawford game, with the
match equity table as two arrays (:func:`met_arrays`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..met import TABLE

#: Owners of the cube, from the side of the player on roll.
CENTRE, ON_ROLL, OPPONENT = 0, 1, 2
#: Janowski's efficiencies, as :func:`backgammon.bot.cube.cube_efficiency`.
_CONTACT, _BEAROFF = 0.68, 0.6


def met_arrays() -> tuple[np.ndarray, np.ndarray]:
    """The bot's match equity table as the kernel reads it: before and in the Crawford game
    ``(64, 64)``, after it ``(64,)``, indexed by points away less one."""
    return (np.array(TABLE.pre_crawford, dtype=np.float64),
            np.array(TABLE.post_crawford, dtype=np.float64))


@njit(cache=True, nogil=True)
def _rearmost(side: np.ndarray) -> int:
    for index in range(25, 0, -1):
        if side[index] > 0:
            return index
    return 0


@njit(cache=True, nogil=True)
def efficiency(board: np.ndarray) -> float:
    """Janowski's x of a board (player on roll first), as
    :func:`~backgammon.bot.cube.cube_efficiency`."""
    mine, theirs = _rearmost(board[0]), _rearmost(board[1])
    if mine + theirs > 25:
        return _CONTACT
    if mine <= 6 and theirs <= 6:
        return _BEAROFF
    pips = 0
    for index in range(1, 26):
        pips += index * board[0, index]
    return min(max(0.55 + 0.00125 * pips, 0.6), 0.7)


# Money play


@njit(cache=True, nogil=True)
def _money_live(p: np.ndarray, owner: int, jacoby: bool) -> float:
    """:func:`~backgammon.bot.cube.money_live_equity`."""
    chance = float(p[0])
    lose_chance = 1.0 - chance
    win = 1.0 + float(p[1] + p[2]) / chance if chance > 1e-7 else 1.0
    lose = 1.0 + float(p[3] + p[4]) / lose_chance if lose_chance > 1e-7 else 1.0
    take = (lose - 0.5) / (win + lose + 0.5)
    cash = (lose + 1.0) / (win + lose + 0.5)
    if owner == CENTRE:
        if chance < take:
            return -1.0 if jacoby else -lose + (lose - 1.0) * chance / take
        if chance < cash:
            return -1.0 + 2.0 * (chance - take) / (cash - take)
        return 1.0 if jacoby else 1.0 + (win - 1.0) * (chance - cash) / (1.0 - cash)
    if owner == ON_ROLL:
        if chance < cash:
            return -lose + (1.0 + lose) * chance / cash
        return 1.0 + (win - 1.0) * (chance - cash) / (1.0 - cash)
    if chance < take:
        return -lose + (lose - 1.0) * chance / take
    return -1.0 + (win + 1.0) * (chance - take) / (1.0 - take)


@njit(cache=True, nogil=True)
def _money_equity(p: np.ndarray, x: float, owner: int, jacoby: bool) -> float:
    """:func:`~backgammon.bot.cube.money_equity`: per unit of the cube."""
    centred_jacoby = jacoby and owner == CENTRE
    dead = float(2.0 * p[0] - 1.0)
    if not centred_jacoby:
        dead += float(p[1] + p[2] - p[3] - p[4])
    return dead * (1.0 - x) + _money_live(p, owner, centred_jacoby) * x


@njit(cache=True, nogil=True)
def money_equities(p: np.ndarray, x: float, owner: int, jacoby: bool) -> tuple[float, float, float]:
    """No double, double and take, double and drop, per unit of the cube (as
    :func:`~backgammon.bot.cube.money_decision`'s)."""
    return _money_equity(p, x, owner, jacoby), 2.0 * _money_equity(p, x, OPPONENT, False), 1.0


# Match play: side 0 is the player on roll, side 1 the opponent; each side's chances its own.


@njit(cache=True, nogil=True)
def after(away: int, other: int, won: int, lost: int, pre: np.ndarray,
          post: np.ndarray) -> float:
    """:func:`~backgammon.bot.met.equity_after`: the chance of winning the match of the player
    ``away`` (the opponent ``other`` away) once the game ends with ``won`` points to the
    player or ``lost`` to the opponent."""
    after_crawford = min(away, other) == 1
    mine, theirs = away - won, other - lost
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    if after_crawford and mine == 1:
        return 1.0 - float(post[theirs - 1])
    if after_crawford and theirs == 1:
        return float(post[mine - 1])
    return float(pre[mine - 1, theirs - 1])


@njit(cache=True, nogil=True)
def _shares(a: float, b: float, c: float, out: np.ndarray, at: int) -> None:
    """The shares of single games, gammons and backgammons, as ``bot.cube._normalised``."""
    total = a + b + c
    if total <= 1e-7:
        out[at], out[at + 1], out[at + 2] = 1.0, 0.0, 0.0
    else:
        out[at], out[at + 1], out[at + 2] = (max(a, 0.0) / total, max(b, 0.0) / total,
                                             max(c, 0.0) / total)


@njit(cache=True, nogil=True)
def _value(shares: np.ndarray, aways: np.ndarray, side: int, cube: int, win: bool,
           pre: np.ndarray, post: np.ndarray) -> float:
    """The side's match equity after a win (``win``) or a loss at ``cube``, on average."""
    base = side * 6 + (0 if win else 3)
    total = 0.0
    for k in range(3):
        points = (k + 1) * cube
        if win:
            total += shares[base + k] * after(aways[side], aways[1 - side], points, 0, pre, post)
        else:
            total += shares[base + k] * after(aways[side], aways[1 - side], 0, points, pre, post)
    return total


@njit(cache=True, nogil=True)
def _interpolate(xs: np.ndarray, ys: np.ndarray, n: int, x: float) -> float:
    """``bot.cube._interpolate`` through the first ``n`` knots."""
    px = np.empty(4)
    py = np.empty(4)
    px[0], py[0] = xs[0], ys[0]
    m = 1
    for i in range(1, n):
        if xs[i] > px[m - 1]:
            px[m], py[m] = xs[i], ys[i]
            m += 1
    for i in range(m - 1):
        if x <= px[i + 1]:
            return float(py[i] + (py[i + 1] - py[i]) * (x - px[i]) / (px[i + 1] - px[i]))
    return float(py[m - 1])


@njit(cache=True, nogil=True)
def _invert(xs: np.ndarray, ys: np.ndarray, n: int, y: float) -> float:
    """``bot.cube._invert`` on the first ``n`` knots."""
    if y <= ys[0]:
        return 0.0
    for i in range(n - 1):
        x0, y0, x1, y1 = float(xs[i]), float(ys[i]), float(xs[i + 1]), float(ys[i + 1])
        if y0 <= y <= y1 and y1 > y0 and x1 > x0:
            return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return 1.0


@njit(cache=True, nogil=True)
def _may_redouble(aways: np.ndarray, crawford: bool, side: int, cube: int) -> bool:
    return not crawford and aways[side] > cube


@njit(cache=True, nogil=True)
def _take_point(shares: np.ndarray, aways: np.ndarray, crawford: bool, side: int, cube: int,
                pre: np.ndarray, post: np.ndarray) -> float:
    """``_MatchCube.take_point``, worked from the top of the cube down: the take point at one
    value needs the other side's at the next (its cash point)."""
    s, c, n = side, cube, 0
    while _may_redouble(aways, crawford, s, c):
        s, c, n = 1 - s, 2 * c, n + 1
    xs = np.empty(4)
    ys = np.empty(4)
    point = 0.0
    for step in range(n + 1):
        if step > 0:
            s, c = 1 - s, c // 2
        k = 0
        xs[k], ys[k] = 0.0, _value(shares, aways, s, c, False, pre, post)
        k += 1
        if step > 0:
            xs[k], ys[k] = 1.0 - point, after(aways[s], aways[1 - s], c, 0, pre, post)
            k += 1
        xs[k], ys[k] = 1.0, _value(shares, aways, s, c, True, pre, post)
        k += 1
        drop = after(aways[s], aways[1 - s], 0, c // 2, pre, post)
        point = _invert(xs, ys, k, drop)
    return point


@njit(cache=True, nogil=True)
def _live(shares: np.ndarray, aways: np.ndarray, crawford: bool, owner: int, chance: float,
          cube: int, pre: np.ndarray, post: np.ndarray) -> float:
    """Side 0's live match equity with the cube at ``cube`` held by ``owner``:
    ``_MatchCube.centred``, ``owned`` or ``facing``."""
    xs = np.empty(4)
    ys = np.empty(4)
    k = 0
    xs[k], ys[k] = 0.0, _value(shares, aways, 0, cube, False, pre, post)
    k += 1
    if owner != ON_ROLL and _may_redouble(aways, crawford, 1, cube):
        xs[k] = _take_point(shares, aways, crawford, 0, 2 * cube, pre, post)
        ys[k] = after(aways[0], aways[1], 0, cube, pre, post)
        k += 1
    if owner != OPPONENT and _may_redouble(aways, crawford, 0, cube):
        xs[k] = 1.0 - _take_point(shares, aways, crawford, 1, 2 * cube, pre, post)
        ys[k] = after(aways[0], aways[1], cube, 0, pre, post)
        k += 1
    xs[k], ys[k] = 1.0, _value(shares, aways, 0, cube, True, pre, post)
    k += 1
    return _interpolate(xs, ys, k, chance)


@njit(cache=True, nogil=True)
def match_equities(p: np.ndarray, x: float, owner: int, cube: int, away: int, other: int,
                   crawford: bool, pre: np.ndarray,
                   post: np.ndarray) -> tuple[float, float, float]:
    """No double, double and take, double and drop in chances of winning the match of the
    player on roll, ``away`` points from the match (the opponent ``other``), as
    :func:`~backgammon.bot.cube.match_decision`'s."""
    shares = np.empty(12)
    _shares(p[0] - p[1], p[1] - p[2], p[2], shares, 0)
    _shares(1.0 - p[0] - p[3], p[3] - p[4], p[4], shares, 3)
    shares[6:9] = shares[3:6]
    shares[9:12] = shares[0:3]
    aways = np.empty(2, dtype=np.int64)
    aways[0], aways[1] = away, other
    chance = p[0]
    win, loss = (_value(shares, aways, 0, cube, True, pre, post),
                 _value(shares, aways, 0, cube, False, pre, post))
    dead = chance * win + (1.0 - chance) * loss
    live = _live(shares, aways, crawford, owner, chance, cube, pre, post)
    doubled = 2 * cube
    win2, loss2 = (_value(shares, aways, 0, doubled, True, pre, post),
                   _value(shares, aways, 0, doubled, False, pre, post))
    dead2 = chance * win2 + (1.0 - chance) * loss2
    facing = _live(shares, aways, crawford, OPPONENT, chance, doubled, pre, post)
    return (dead * (1.0 - x) + live * x, dead2 * (1.0 - x) + facing * x,
            after(away, other, cube, 0, pre, post))


@njit(cache=True, nogil=True)
def equities(p: np.ndarray, x: float, owner: int, cube: int, jacoby: bool, match: bool,
             away: int, other: int, crawford: bool, pre: np.ndarray,
             post: np.ndarray) -> tuple[float, float, float]:
    """No double, double and take, double and drop for the player on roll: money equity in
    points (the cube's value counted in), or chances of winning the match."""
    if match:
        return match_equities(p, x, owner, cube, away, other, crawford, pre, post)
    nd, dt, dp = money_equities(p, x, owner, jacoby)
    return nd * cube, dt * cube, dp * cube


@njit(cache=True, nogil=True)
def decide(nd: float, dt: float, dp: float, may_double: bool) -> tuple[bool, bool, float]:
    """Whether the player on roll doubles, whether the opponent would drop, and the value of
    the right action (as ``bot.cube._decide``: a player too good to double plays on)."""
    drop = dt > dp
    if may_double and min(dt, dp) > nd:
        return True, drop, min(dt, dp)
    return False, drop, nd
