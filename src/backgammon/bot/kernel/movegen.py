"""Compiled move generation: every distinct result of a roll, as the core's ``legal_plays``.

A board is a ``(2, 26)`` int8 array, the two sides of a :class:`~backgammon.Position` in its
own order (row 0 the player on roll, row 1 the opponent; each on its own numbering: 0 off,
1..24 the points, 25 the bar). A result is a board in the same form with the opponent on roll,
as ``Play.result`` is. The search is the core's (:mod:`backgammon.moves`), written with arrays
and explicit loops so that numba compiles it: the rules are quoted there, not here.

Results are told apart by a 64-bit key (a random weight for each checker on each point, and
the set of points hit) and, where two keys agree, by comparing the boards, so no result is
merged with another by chance. A tuple of arrays (:func:`workspace`) holds the results of one
call and the hash table, allocated once and reused.
"""

from __future__ import annotations

import numpy as np
from numba import njit

BAR = 25
#: Room for the results of one roll: a double's four steps from at most 24 sources can reach
#: at most C(27, 4) = 17,550 boards, and lower step counts are dropped before they pile up.
CAPACITY = 17_664
_TABLE_BITS = 16
_TABLE_MASK = (1 << _TABLE_BITS) - 1

_rng = np.random.default_rng(20_240_601)
# Key weights: a checker of the mover on each point, and each point hit.
_POINT_KEYS = _rng.integers(1, 2**62, size=26, dtype=np.int64)
_HIT_FACTOR = int(_rng.integers(1, 2**61)) * 2 + 1


Workspace = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]


@njit(cache=True, nogil=True)
def workspace() -> Workspace:
    """The reusable arrays of :func:`generate`: the results, their hit masks, their keys,
    their slots in the table, the table (0 = empty, else index + 1); then scratch space:
    the occupied points of a non-double, or the search of a double (its moves' sources,
    targets and hits, its stacks, and the points its checkers can reach)."""
    return (
        np.zeros((CAPACITY, 2, 26), dtype=np.int8),
        np.zeros(CAPACITY, dtype=np.int64),
        np.zeros(CAPACITY, dtype=np.int64),
        np.zeros(CAPACITY, dtype=np.int64),
        np.zeros(1 << _TABLE_BITS, dtype=np.int32),
        np.zeros(24, dtype=np.int64),
        np.zeros(24, dtype=np.int64),
        np.zeros(24, dtype=np.int64),
        np.zeros((6, 5), dtype=np.int64),
        np.zeros(26, dtype=np.bool_),
    )


@njit(cache=True, nogil=True)
def _clear(ws: Workspace, count: int) -> None:
    """Empty the table of the ``count`` results stored."""
    slots, table = ws[3], ws[4]
    for i in range(count):
        table[slots[i]] = 0


@njit(cache=True, nogil=True)
def _probe(ws: Workspace, key: int, mask: int, me: np.ndarray) -> int:
    """The slot of the result with ``key``, ``mask`` and board ``me`` in the table, or of the
    empty slot where it belongs (the table is searched linearly from the key's slot)."""
    results, masks, keys, table = ws[0], ws[1], ws[2], ws[4]
    slot = (key ^ (key >> 29)) & _TABLE_MASK
    while table[slot] != 0:
        other = table[slot] - 1
        if keys[other] == key and masks[other] == mask:
            same = True
            for p in range(26):
                if results[other, 1, p] != me[p]:
                    same = False
                    break
            if same:
                return slot
        slot = (slot + 1) & _TABLE_MASK
    return slot


@njit(cache=True, nogil=True)
def _record(ws: Workspace, count: int, me: np.ndarray, theirs: np.ndarray,
            mask: int, board_key: int) -> int:
    """Store the result of moving to ``me`` (whose key is ``board_key``) having hit the
    points in ``mask`` unless it is stored already; returns the new count."""
    results, masks, keys, slots, table = ws[:5]
    # Multiplying by an odd number is one-to-one on 64-bit ints: masks never collide.
    key = board_key + mask * _HIT_FACTOR
    slot = _probe(ws, key, mask, me)
    if table[slot] != 0:
        return count
    table[slot] = count + 1
    keys[count] = key
    masks[count] = mask
    slots[count] = slot
    for p in range(26):
        results[count, 1, p] = me[p]
        results[count, 0, p] = theirs[p]
    # The opponent's blots on the points hit go to the bar (point t is their 25 - t).
    if mask == 0:
        return count + 1
    for t in range(1, 25):
        if mask >> t & 1:
            results[count, 0, 25 - t] = 0
            results[count, 0, BAR] += 1
    return count + 1


@njit(cache=True, nogil=True)
def _target(me: np.ndarray, rev: np.ndarray, source: int, die: int, outside: int) -> int:
    """Where the checker on ``source`` lands with ``die`` (0 = off), or -1 if it may not."""
    target = source - die
    if target > 0:
        return target if rev[target] < 2 else -1
    if outside > 0:
        return -1
    if target < 0:
        for p in range(source + 1, 7):
            if me[p] > 0:
                return -1
    return 0


@njit(cache=True, nogil=True)
def _outside(me: np.ndarray) -> int:
    total = 0
    for p in range(7, 26):
        total += me[p]
    return total


@njit(cache=True, nogil=True)
def _board_key(me: np.ndarray) -> int:
    key = 0
    for p in range(26):
        key += me[p] * _POINT_KEYS[p]
    return key


# _non_doubles and _doubles stay whole, longer than the package's other functions: split into
# compiled helpers (the second step, the one-die fallback; the bar entry, the steps of a double,
# the next step to try), even inlined, they made move generation 15% slower.
@njit(cache=True, nogil=True)
def _non_doubles(ws: Workspace, me: np.ndarray, rev: np.ndarray,
                 theirs: np.ndarray, high: int, low: int) -> int:
    outside = _outside(me)
    key = _board_key(me)
    # The points with checkers, highest first (the bar's checkers move first, alone).
    points = ws[5]
    occupied = 0
    for p in range(24, 0, -1):
        if me[p] > 0:
            points[occupied] = p
            occupied += 1
    on_bar = me[BAR] > 0
    count = 0
    for order in range(2):
        first = high if order == 0 else low
        second = low if order == 0 else high
        for i in range(1 if on_bar else occupied):
            s1 = BAR if on_bar else points[i]
            t1 = _target(me, rev, s1, first, outside)
            if t1 < 0:
                continue
            mask1 = (1 << t1) if t1 > 0 and rev[t1] == 1 else 0
            key1 = key + _POINT_KEYS[t1] - _POINT_KEYS[s1]
            me[s1] -= 1
            me[t1] += 1
            out1 = outside - (1 if s1 > 6 and t1 <= 6 else 0)
            # The second checker: from the bar while any is left, else from a point that had a
            # checker or the one just reached (tried last, when it was empty before).
            still_on_bar = me[BAR] > 0
            extra = 1 if t1 > 0 and me[t1] == 1 else 0
            for j in range(1 if still_on_bar else occupied + extra):
                s2 = BAR if still_on_bar else (points[j] if j < occupied else t1)
                if me[s2] == 0:
                    continue
                t2 = _target(me, rev, s2, second, out1)
                if t2 < 0:
                    continue
                mask2 = mask1 | ((1 << t2) if t2 > 0 and rev[t2] == 1 else 0)
                me[s2] -= 1
                me[t2] += 1
                count = _record(
                    ws, count, me, theirs, mask2, key1 + _POINT_KEYS[t2] - _POINT_KEYS[s2]
                )
                me[t2] -= 1
                me[s2] += 1
            me[t1] -= 1
            me[s1] += 1
    if count > 0:
        return count
    # No play uses both dice: the larger die if it can be played, else the smaller.
    for die in (high, low):
        for i in range(1 if on_bar else occupied):
            s1 = BAR if on_bar else points[i]
            t1 = _target(me, rev, s1, die, outside)
            if t1 < 0:
                continue
            mask1 = (1 << t1) if t1 > 0 and rev[t1] == 1 else 0
            me[s1] -= 1
            me[t1] += 1
            count = _record(
                ws, count, me, theirs, mask1, key + _POINT_KEYS[t1] - _POINT_KEYS[s1]
            )
            me[t1] -= 1
            me[s1] += 1
        if count > 0:
            return count
    return 0


@njit(cache=True, nogil=True)
def _doubles(ws: Workspace, me: np.ndarray, rev: np.ndarray,
             theirs: np.ndarray, die: int) -> int:
    entered = 0
    entry_mask = 0
    if me[BAR] > 0:
        entry = BAR - die
        if rev[entry] > 1:
            return 0
        if rev[entry] == 1:
            entry_mask = 1 << entry
        entered = min(me[BAR], 4)
        me[BAR] -= entered
        me[entry] += entered
        if me[BAR] > 0 or entered == 4:
            return _record(ws, 0, me, theirs, entry_mask, _board_key(me))
    left = 4 - entered
    # The sources: points a checker stands on or can reach over open points, each with an
    # open point (or the tray) one die lower; highest first, so that the steps of a play are
    # taken with sources that never rise and each combination is met once.
    sources, targets, hits, stack = ws[5], ws[6], ws[7], ws[8]
    moves = 0
    reach = ws[9]
    reach[:] = False
    for start in range(24, 0, -1):
        if me[start] > 0:
            point = start
            for _ in range(left):
                if point <= die:
                    reach[point] = True
                    break
                if rev[point - die] > 1:
                    break
                reach[point] = True
                point -= die
    for point in range(24, 0, -1):
        if reach[point]:
            target = max(point - die, 0)
            sources[moves] = point
            targets[moves] = target
            hits[moves] = (1 << target) if target > 0 and rev[target] == 1 else 0
            moves += 1
    # Depth-first search over the steps, with explicit stacks (depth = steps made): for each
    # depth the next move to try, the move made, the checkers outside the home board, the
    # points hit and the board's key.
    next_index, chosen, outside, masks, keys = stack[0], stack[1], stack[2], stack[3], stack[4]
    moved = stack[5]
    next_index[0] = 0
    moved[0] = 0
    outside[0] = _outside(me)
    masks[0] = entry_mask
    keys[0] = _board_key(me)
    count = 0
    level = -1  # the steps of the results stored: only the plays with the most steps count
    depth = 0
    while True:
        found = -1
        j = next_index[depth]
        while j < moves:
            source = sources[j]
            if me[source] > 0:
                if targets[j] > 0:
                    found = j
                    break
                blocked = outside[depth] > 0
                if not blocked and source < die:
                    for p in range(source + 1, 7):
                        if me[p] > 0:
                            blocked = True
                            break
                if not blocked:
                    found = j
                    break
            j += 1
        steps = -1
        mask = 0
        key = 0
        if found >= 0:
            moved[depth] = 1
            next_index[depth] = found + 1
            source, target = sources[found], targets[found]
            me[source] -= 1
            me[target] += 1
            step_key = keys[depth] + _POINT_KEYS[target] - _POINT_KEYS[source]
            if depth + 1 == left:
                steps, mask, key = 4, masks[depth] | hits[found], step_key
            else:
                chosen[depth] = found
                depth += 1
                next_index[depth] = found
                moved[depth] = 0
                masks[depth] = masks[depth - 1] | hits[found]
                keys[depth] = step_key
                outside[depth] = outside[depth - 1] - (1 if source > 6 and target <= 6 else 0)
        elif moved[depth] == 0 and depth + entered > 0:
            steps, mask, key = depth + entered, masks[depth], keys[depth]
        if steps >= level and steps > 0:
            if steps > level:
                _clear(ws, count)
                count = 0
                level = steps
            count = _record(ws, count, me, theirs, mask, key)
        if found >= 0:
            if steps == 4:
                me[targets[found]] -= 1
                me[sources[found]] += 1
            continue
        if depth == 0:
            break
        depth -= 1
        f = chosen[depth]
        me[targets[f]] -= 1
        me[sources[f]] += 1
    return count


@njit(cache=True, nogil=True)
def generate(ws: Workspace, board: np.ndarray, high: int, low: int) -> int:
    """Store every distinct result of the roll (``high``, ``low``) from ``board`` in ``ws[0]``
    and return how many there are (0: no checker can move)."""
    me = board[0].copy()
    theirs = board[1]
    rev = theirs[::-1]
    if high == low:
        count = _doubles(ws, me, rev, theirs, high)
    else:
        count = _non_doubles(ws, me, rev, theirs, max(high, low), min(high, low))
    _clear(ws, count)
    return count


@njit(cache=True, nogil=True)
def generate_batch(boards: np.ndarray, dice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The results of each board ``(n, 2, 26)`` with its roll ``(n, 2)``: all results in one
    array ``(total, 2, 26)`` and the offsets ``(n + 1,)`` of each board's in it."""
    ws = workspace()
    n = boards.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    out = np.empty((max(16 * n, 64), 2, 26), dtype=np.int8)
    total = 0
    for i in range(n):
        count = generate(ws, boards[i], dice[i, 0], dice[i, 1])
        if total + count > out.shape[0]:
            bigger = np.empty((2 * (total + count), 2, 26), dtype=np.int8)
            bigger[:total] = out[:total]
            out = bigger
        out[total : total + count] = ws[0][:count]
        total += count
        offsets[i + 1] = total
    return out[:total].copy(), offsets
