"""Compiled move generation for the other games: every distinct result of a roll, as the
core's ``rules_for(name).legal_plays`` gives them, for Portes, Tavla, Plakoto, Fevga, Long
Nardy and Acey-deucey.

A board is a ``(4, 26)`` int8 array, the core's :class:`~backgammon.games.Board` seen from
the player on roll: row 0 the mover's counts and row 1 the opponent's (each on its own
numbering: 0 off, 1..24 the points, 25 the bar), rows 2 and 3 each side's pinned checkers
(1 on a point where that side's lone checker lies pinned) and, in column 0, the checkers
of that side still waiting to enter (Acey-deucey; they are counted on the bar too). A
result is a board in the same form with the opponent on roll, as ``GamePlay.result`` is.

The search is the core's (:class:`~backgammon.games.base.SearchedRules`), step for step:
the same depth-first walk over the dice and the sources in the same order, the same
pruning of a state met before (board, memo, dice left, highest source), the same record of
each result's most dice used and largest die, and the same "most dice, then the larger die"
filter at the end. So the results come out in the core's order (for every game but Portes,
whose core plays backgammon's own generator), and each game's step rules are written here
as numba branches of :func:`_step` and :func:`_sources`; the rules are quoted in the core's
modules (``games/*.py``), not here. Portes is Tavla without its home-board rule. Only the
games' default options are compiled (Acey-deucey enters freely and bears off as in
backgammon).

States and results are found again through a 64-bit key and, where keys agree, by
comparing the boards, so nothing is merged by chance. A workspace (:func:`workspace`) holds
one call's arrays, allocated once and reused.

>>> from backgammon.games import rules_for
>>> rules = rules_for("long-nardy")
>>> len(legal_results("long-nardy", rules.initial(), (6, 6)))
1
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ...dice import check_dice
from ...errors import BackgammonError
from ...games import Board

BAR = 25
PORTES, TAVLA, PLAKOTO, FEVGA, LONG_NARDY, ACEY_DEUCEY = range(6)
#: The compiled games by name, as ``rules_for`` takes them.
GAME_CODES = {"portes": PORTES, "tavla": TAVLA, "plakoto": PLAKOTO, "fevga": FEVGA,
              "long-nardy": LONG_NARDY, "acey-deucey": ACEY_DEUCEY}
#: Room for one call's states (and so its results). A roll's search meets a few thousand at
#: most (a double's four steps among 15 sources); the search raises beyond this.
CAPACITY = 24_576
_TABLE_BITS = 16
_TABLE_MASK = (1 << _TABLE_BITS) - 1

_rng = np.random.default_rng(20_261_207)
#: Key weights: each 8-byte word of a board's 104 bytes.
_KEYS = _rng.integers(1, 2**62, size=13, dtype=np.int64) * 2 + 1
_STATE_FACTOR = int(_rng.integers(1, 2**61)) * 2 + 1
#: The opponent's number of each of the mover's points where both travel the same way.
_SAME_THEIRS = np.array([0] + [p - 12 if p > 12 else p + 12 for p in range(1, 25)] + [0],
                        dtype=np.int64)

#: The arrays of :func:`workspace` (numba's tuple of ten arrays).
Workspace = tuple[np.ndarray, ...]


@njit(cache=True, nogil=True)
def workspace() -> Workspace:
    """The reusable arrays of :func:`generate`: 0. the stack's boards (a board a depth,
    0..4), 1. its ints (a row a depth: memo, dice left as a mask, highest source, largest
    die, die index, source index, sources), 2. the sources of each depth; 3. the states and
    results met, 4. their state words (-1 for a result), keys and table slots, 5. a result's
    most dice used and largest die; 6. the table (0: empty, else index + 1); 7. the results
    (flipped), 8. the order in which new results were found, 9. counters (entries, results,
    the dice the results use)."""
    return (
        np.zeros((6, 4, 26), dtype=np.int8),
        np.zeros((6, 7), dtype=np.int64),
        np.zeros((6, 26), dtype=np.int64),
        np.zeros((CAPACITY, 4, 26), dtype=np.int8),
        np.zeros((CAPACITY, 3), dtype=np.int64),
        np.zeros((CAPACITY, 2), dtype=np.int64),
        np.zeros(1 << _TABLE_BITS, dtype=np.int32),
        np.zeros((CAPACITY, 4, 26), dtype=np.int8),
        np.zeros(CAPACITY, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
    )


# The helpers below take boards as (array of boards, index) rather than views: a view of a
# numba array costs a reference count each time it is made, which made the search 3x slower.
@njit(cache=True, nogil=True)
def _key(words: np.ndarray, i: int) -> int:
    """The key of board ``i`` seen as 13 int64 words."""
    key = 0
    for w in range(13):
        key += words[i, w] * _KEYS[w]
    return key


@njit(cache=True, nogil=True)
def _copy(words: np.ndarray, d: int) -> None:
    """Board ``d`` of the stack onto board ``d + 1``, by 8-byte words."""
    for w in range(13):
        words[d + 1, w] = words[d, w]


@njit(cache=True, nogil=True)
def _meet(stack: np.ndarray, depth: int, state: int, table_key: int, met: np.ndarray,
          words: np.ndarray, table: np.ndarray, counters: np.ndarray) -> tuple[int, bool]:
    """The index of the entry with the board ``stack[depth]`` and ``state``, and whether it
    is new (stored now). Boards are seen here as 13 int64 words."""
    slot = (table_key ^ (table_key >> 29)) & _TABLE_MASK
    while table[slot] != 0:
        index = table[slot] - 1
        if words[index, 1] == table_key and words[index, 0] == state:
            same = True
            for w in range(13):
                if met[index, w] != stack[depth, w]:
                    same = False
                    break
            if same:
                return index, False
        slot = (slot + 1) & _TABLE_MASK
    index = counters[0]
    if index >= CAPACITY:
        raise ValueError("the move search met more states than the kernel has room for")
    counters[0] = index + 1
    for w in range(13):
        met[index, w] = stack[depth, w]
    words[index, 0] = state
    words[index, 1] = table_key
    words[index, 2] = slot
    table[slot] = index + 1
    return index, True


@njit(cache=True, nogil=True)
def _bits(mask: int) -> int:
    count = 0
    while mask:
        count += mask & 1
        mask >>= 1
    return count


@njit(cache=True, nogil=True)
def _sources(game: int, stack: np.ndarray, d: int, memo: int, out: np.ndarray) -> int:
    """The points a checker may move from (25: the bar), highest first, into ``out[d]``."""
    n = 0
    if game == ACEY_DEUCEY:
        waiting = stack[d, 2, 0]
        if stack[d, 0, BAR] > waiting:
            out[d, 0] = BAR
            return 1
        if waiting:
            out[d, 0] = BAR
            n = 1
        for p in range(24, 0, -1):
            if stack[d, 0, p]:
                out[d, n] = p
                n += 1
        return n
    if stack[d, 0, BAR]:
        out[d, 0] = BAR
        return 1
    for p in range(24, 0, -1):
        if game == TAVLA:
            if stack[d, 0, p] > (memo >> p & 1):
                out[d, n] = p
                n += 1
        elif stack[d, 0, p] and not stack[d, 2, p]:
            out[d, n] = p
            n += 1
    return n


@njit(cache=True, nogil=True)
def _race_target(stack: np.ndarray, d: int, source: int, die: int) -> int:
    """Where a checker on ``source`` lands with ``die`` (0: off), or -1 (base.race_target)."""
    target = source - die
    if target > 0:
        return target
    for p in range(7, 26):
        if stack[d, 0, p]:
            return -1
    for p in range(1, 7):
        if stack[d, 2, p]:
            return -1
    if target < 0:
        for p in range(source + 1, 7):
            if stack[d, 0, p]:
                return -1
    return 0


@njit(cache=True, nogil=True)
def _six_block(stack: np.ndarray, d: int) -> bool:
    """Long Nardy's and Fevga's forbidden block (base.six_block_without_opponent_ahead)."""
    empty = 0
    for p in range(1, 25):
        if stack[d, 0, p] == 0:
            empty += 1
    if empty > 18:
        return False
    run = 0
    lowest = -1
    # Their points 1..24 in turn: their point i + 1 is my 13 + i, then my i - 11.
    for i in range(24):
        p = 13 + i if i < 12 else i - 11
        if stack[d, 0, p]:
            run += 1
            if run == 6:
                lowest = i - 5
                break
        else:
            run = 0
    if lowest < 0:
        return False
    for q in range(1, lowest + 1):  # noqa: SIM110 (a loop numba compiles)
        if stack[d, 1, q]:
            return False
    return True


@njit(cache=True, nogil=True)
def _step(game: int, stack: np.ndarray, stack64: np.ndarray, d: int, dice_double: bool,
          memo: int, source: int, die: int) -> int:
    """The board after one checker of ``stack[d]`` moves from ``source`` by ``die``, into
    ``stack[d + 1]``; returns the turn's memo after it (Tavla: the home points where a
    checker that hit stays), or -1 when the step may not be made. ``stack[0]`` is the board
    the turn began on; ``stack64`` is the stack seen as 13 int64 words a board. The checks
    come first: most steps tried are refused. Each game's rules are a helper inlined here
    (``inline="always"``): called, they made move generation 20-30% slower."""
    if game == PORTES or game == TAVLA or game == ACEY_DEUCEY:  # noqa: SIM109 (numba)
        return _step_hitting(game, stack, stack64, d, memo, source, die)
    if game == PLAKOTO:
        return _step_pinning(stack, stack64, d, memo, source, die)
    return _step_holding(game, stack, stack64, d, dice_double, memo, source, die)


@njit(cache=True, nogil=True, inline="always")
def _step_hitting(game: int, stack: np.ndarray, stack64: np.ndarray, d: int, memo: int,
                  source: int, die: int) -> int:
    """:func:`_step` of Portes, Tavla and Acey-deucey: a lone checker is hit to the bar."""
    e = d + 1
    if source == BAR:
        target = BAR - die
    else:
        target = source - die
        if target <= 0:
            for p in range(7, 26):
                if stack[d, 0, p]:
                    return -1
            if target < 0:
                for p in range(source + 1, 7):
                    if stack[d, 0, p]:
                        return -1
            target = 0
    other = 25 - target
    if target and stack[d, 1, other] > 1:
        return -1
    _copy(stack64, d)
    if source == BAR and game == ACEY_DEUCEY and stack[d, 0, BAR] == stack[d, 2, 0]:
        stack[e, 2, 0] -= 1  # no hit checker is left on the bar: one never entered enters
    if target and stack[d, 1, other] == 1:
        stack[e, 1, other] = 0
        stack[e, 1, BAR] += 1
        if game == TAVLA and target <= 6:
            memo |= 1 << target
    stack[e, 0, source] -= 1
    stack[e, 0, target] += 1
    return memo


@njit(cache=True, nogil=True, inline="always")
def _step_pinning(stack: np.ndarray, stack64: np.ndarray, d: int, memo: int, source: int,
                  die: int) -> int:
    """:func:`_step` of Plakoto: a lone checker is pinned where it lies."""
    e = d + 1
    target = _race_target(stack, d, source, die)
    if target < 0:
        return -1
    other = 25 - target
    if target and (stack[d, 1, other] > 1 or (stack[d, 1, other] and stack[d, 2, target])):
        return -1
    _copy(stack64, d)
    if target and stack[d, 1, other] == 1 and not stack[d, 0, target]:
        stack[e, 3, other] = 1
    if stack[d, 0, source] == 1:
        stack[e, 3, 25 - source] = 0  # the last checker leaving frees one pinned under it
    stack[e, 0, source] -= 1
    stack[e, 0, target] += 1
    return memo


@njit(cache=True, nogil=True, inline="always")
def _step_holding(game: int, stack: np.ndarray, stack64: np.ndarray, d: int,
                  dice_double: bool, memo: int, source: int, die: int) -> int:
    """:func:`_step` of Fevga and Long Nardy: both travel the same way and one checker
    holds a point."""
    if source == 24 and not _may_leave_start(game, stack, d, dice_double, die):
        return -1
    target = _race_target(stack, d, source, die)
    if target < 0 or (target and stack[d, 1, _SAME_THEIRS[target]]):
        return -1
    e = d + 1
    _copy(stack64, d)
    stack[e, 0, source] -= 1
    stack[e, 0, target] += 1
    if target and _six_block(stack, e):
        return -1
    if game == FEVGA:
        full = True
        for p in range(19, 25):
            if stack[e, 0, p] == 0:
                full = False
                break
        if full:
            return -1
    return memo


@njit(cache=True, nogil=True, inline="always")
def _may_leave_start(game: int, stack: np.ndarray, d: int, dice_double: bool,
                     die: int) -> bool:
    """Whether a checker of ``stack[d]`` may leave the starting point (24): in Fevga, not
    another before one that left has gone past the opponent's starting point (our 12); in
    Long Nardy, one a turn, two on the first turn's 6-6, 4-4 or 3-3."""
    if game == FEVGA:
        left_start = False
        for p in range(24):
            if stack[d, 0, p]:
                left_start = True
                break
        passed = False
        for p in range(12):
            if stack[d, 0, p]:
                passed = True
                break
        return not left_start or passed
    taken = stack[0, 0, 24] - stack[d, 0, 24]
    limit = 1
    if stack[0, 0, 24] == 15 and dice_double and (die == 6 or die == 4 or die == 3):
        limit = 2
    return bool(taken < limit)


@njit(cache=True, nogil=True)
def flip(board: np.ndarray, out: np.ndarray) -> None:
    """``board`` with the other player on roll, into ``out``."""
    for p in range(26):
        out[0, p] = board[1, p]
        out[1, p] = board[0, p]
        out[2, p] = board[3, p]
        out[3, p] = board[2, p]


@njit(cache=True, nogil=True)
def generate(ws: Workspace, game: int, board: np.ndarray, d1: int, d2: int) -> int:
    """Store every distinct result of the roll (``d1``, ``d2``) from ``board`` in ``ws[7]``,
    in the core's order, and return how many there are (0: no checker can move). The dice
    used by each (all the same) are left in ``ws[9][2]``."""
    stack, ints, sources, met, words, found, table, results, order, counters = ws
    return _generate(stack, ints, sources, met, words, found, table, results, order,
                     counters, game, board, d1, d2)


# _generate stays whole, longer than the package's other functions: split into compiled
# helpers (the table's reset, the result's record, the loops over dice and sources, the final
# filter), even inlined, they made move generation 30-50% slower (Tavla 1.47x, Long Nardy
# 1.37x, Acey-deucey 1.53x, measured in one process); the step rules alone split for free.
@njit(cache=True, nogil=True)
def _generate(stack: np.ndarray, ints: np.ndarray, sources: np.ndarray, met: np.ndarray,
              words: np.ndarray, found: np.ndarray, table: np.ndarray, results: np.ndarray,
              order: np.ndarray, counters: np.ndarray, game: int, board: np.ndarray, d1: int,
              d2: int) -> int:
    # The same memory seen as 13 int64 words a board, to key, compare and store boards.
    stack64 = stack.reshape(stack.size).view(np.int64).reshape(stack.shape[0], 13)
    met64 = met.reshape(met.size).view(np.int64).reshape(met.shape[0], 13)
    for i in range(counters[0]):
        table[words[i, 2]] = 0
    counters[0] = 0
    counters[1] = 0
    double = d1 == d2
    faces = 4 if double else 2
    ordered = double and game == ACEY_DEUCEY  # the core's _doubles_in_source_order
    for r in range(4):
        for p in range(26):
            stack[0, r, p] = board[r, p]
    ints[0, 0] = 0
    ints[0, 1] = (1 << faces) - 1
    ints[0, 2] = BAR
    ints[0, 3] = 0
    depth = 0
    # Each pass meets the state at ``depth`` (new: record it, start its loops) or goes on
    # with the loops of ``depth`` over the dice left and the sources.
    fresh = True
    while depth >= 0:
        if fresh:
            fresh = False
            memo, left, highest, largest = ints[depth, 0], ints[depth, 1], ints[depth, 2], \
                ints[depth, 3]
            state = memo | (left << 8) | (highest << 12)
            board_key = _key(stack64, depth)
            index, new = _meet(stack64, depth, state,
                               board_key ^ ((state + 1) * _STATE_FACTOR), met64, words, table,
                               counters)
            if not new:
                depth -= 1
                continue
            # The result's own entry (state -1): most dice used, then the largest die, kept.
            used = faces - _bits(left)
            index, new = _meet(stack64, depth, -1, board_key ^ _STATE_FACTOR, met64, words,
                               table, counters)
            if new:
                found[index, 0] = used
                found[index, 1] = largest
                order[counters[1]] = index
                counters[1] += 1
            elif used > found[index, 0] or (used == found[index, 0]
                                            and largest > found[index, 1]):
                found[index, 0] = used
                found[index, 1] = largest
            if left == 0:
                depth -= 1
                continue
            ints[depth, 4] = 0
            ints[depth, 5] = 0
            ints[depth, 6] = _sources(game, stack, depth, memo, sources)
        advanced = False
        while ints[depth, 4] < faces:
            i = ints[depth, 4]
            left = ints[depth, 1]
            # A double's dice are one number: only the first left is tried.
            if not (left >> i & 1) or (double and (left & ((1 << i) - 1))):
                ints[depth, 4] += 1
                ints[depth, 5] = 0
                continue
            die = d1 if i == 0 or double else d2
            while ints[depth, 5] < ints[depth, 6]:
                source = sources[depth, ints[depth, 5]]
                ints[depth, 5] += 1
                if source > ints[depth, 2]:
                    continue
                memo = _step(game, stack, stack64, depth, double, ints[depth, 0], source, die)
                if memo < 0:
                    continue
                ints[depth + 1, 0] = memo
                ints[depth + 1, 1] = left & ~(1 << i)
                ints[depth + 1, 2] = source if ordered else BAR
                ints[depth + 1, 3] = max(ints[depth, 3], die)
                depth += 1
                advanced = True
                break
            if advanced:
                break
            ints[depth, 4] += 1
            ints[depth, 5] = 0
        if advanced:
            fresh = True
        else:
            depth -= 1
    # Only the plays using the most dice; of one die, the larger where it can be played.
    most = 0
    for k in range(counters[1]):
        most = max(most, found[order[k], 0])
    counters[2] = most
    if most == 0:
        return 0
    top = 0
    for k in range(counters[1]):
        if found[order[k], 0] == most:
            top = max(top, found[order[k], 1])
    count = 0
    for k in range(counters[1]):
        index = order[k]
        if found[index, 0] == most and (most > 1 or found[index, 1] == top):
            for p in range(26):
                results[count, 0, p] = met[index, 1, p]
                results[count, 1, p] = met[index, 0, p]
                results[count, 2, p] = met[index, 3, p]
                results[count, 3, p] = met[index, 2, p]
            count += 1
    return count


@njit(cache=True, nogil=True)
def outcome(game: int, board: np.ndarray) -> tuple[bool, int]:
    """Whether the game is over on ``board`` and the points for the player on roll
    (negative when they lost; 0 for Plakoto's draw), as each game's ``outcome`` scores."""
    if game == PLAKOTO:
        mother_mine = board[2, 24] == 1
        mother_theirs = board[3, 24] == 1
        if mother_mine and mother_theirs:
            return True, 0
        if mother_mine and board[1, 24] == 0:
            return True, -2
        if mother_theirs and board[0, 24] == 0:
            return True, 2
    for side in range(2):
        if board[side, 0] == 15:
            loser = 1 - side
            points = 1
            if board[loser, 0] == 0:
                points = 2
                if game == ACEY_DEUCEY:
                    for p in range(19, 26):
                        if board[loser, p]:
                            points = 3
                            break
            return True, points if side == 0 else -points
    return False, 0


@njit(cache=True, nogil=True)
def generate_batch(game: int, boards: np.ndarray,
                   dice: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The results of each board ``(n, 4, 26)`` with its roll ``(n, 2)``: all results in one
    array, the offsets ``(n + 1,)`` of each board's in it, and the dice each board's use."""
    ws = workspace()
    n = boards.shape[0]
    offsets = np.zeros(n + 1, dtype=np.int64)
    used = np.zeros(n, dtype=np.int64)
    out = np.empty((max(16 * n, 64), 4, 26), dtype=np.int8)
    total = 0
    for i in range(n):
        count = generate(ws, game, boards[i], dice[i, 0], dice[i, 1])
        used[i] = ws[9][2]
        if total + count > out.shape[0]:
            bigger = np.empty((2 * (total + count), 4, 26), dtype=np.int8)
            bigger[:total] = out[:total]
            out = bigger
        out[total:total + count] = ws[7][:count]
        total += count
        offsets[i + 1] = total
    return out[:total].copy(), offsets, used


def game_code(name: str) -> int:
    """The kernel's number of a game; BackgammonError for a game it does not compile."""
    code = GAME_CODES.get(name.strip().lower() if isinstance(name, str) else "")
    if code is None:
        raise BackgammonError(f"The kernel plays {', '.join(GAME_CODES)}; not {name!r}.")
    return code


def board_array(board: Board) -> NDArray[np.int8]:
    """The ``(4, 26)`` int8 array of a core board.

    >>> board_array(Board.from_points({}, {}, mine_waiting=15, theirs_waiting=15))[:, [0, 25]]
    array([[ 0, 15],
           [ 0, 15],
           [15,  0],
           [15,  0]], dtype=int8)
    """
    array: NDArray[np.int8] = boards_array([board])[0]
    return array


def boards_array(boards: Sequence[Board]) -> NDArray[np.int8]:
    """The ``(n, 4, 26)`` arrays of core boards."""
    out = np.zeros((len(boards), 4, 26), dtype=np.int8)
    points = np.arange(26)
    for i, board in enumerate(boards):
        out[i, 0] = np.frombuffer(board.mine, dtype=np.int8)
        out[i, 1] = np.frombuffer(board.theirs, dtype=np.int8)
        out[i, 2] = board.mine_pinned >> points & 1
        out[i, 3] = board.theirs_pinned >> points & 1
        out[i, 2, 0] = board.mine_waiting
        out[i, 3, 0] = board.theirs_waiting
    return out


def board_of_array(array: NDArray[np.integer]) -> Board:
    """The core board of a ``(4, 26)`` array (checked as any Board is)."""
    rows = [[int(c) for c in array[r]] for r in range(4)]
    pinned = [sum(1 << p for p in range(1, 25) if rows[r][p]) for r in (2, 3)]
    return Board(rows[0], rows[1], pinned[0], pinned[1], rows[2][0], rows[3][0])


_LOCAL = threading.local()  # a workspace a thread


def legal_results(name: str, board: Board, dice: Iterable[int]) -> NDArray[np.int8]:
    """The ``(n, 4, 26)`` results of every distinct legal play of ``dice`` (in their order)
    from ``board``, as ``rules_for(name).legal_plays`` gives them: the same boards, in the
    same order for every game but Portes."""
    d1, d2 = check_dice(tuple(dice))
    ws = getattr(_LOCAL, "workspace", None)
    if ws is None:
        ws = _LOCAL.workspace = workspace()
    count = generate(ws, game_code(name), board_array(board), d1, d2)
    results: NDArray[np.int8] = ws[7][:count].copy()
    return results
