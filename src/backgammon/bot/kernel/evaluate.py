"""Compiled 0-ply evaluation: the networks' encodings, their forward pass and the bearoff
table, one board at a time, exactly as the numpy path computes them.

The reference is :mod:`backgammon.bot.encoding`, :mod:`backgammon.bot.network`,
:func:`backgammon.bot.evaluator.terminal_values` and :mod:`backgammon.bot.bearoff`: the
encodings here are the same float32 numbers, bit for bit (each feature is computed in float64
and rounded once, as numpy does it), and the outputs agree to float32 rounding (the sums run
in another order than BLAS's). The first layer skips the inputs that are zero, about three
quarters of them, which makes it cheaper than a dense product for one position at a time.

numba's cache is keyed on this file alone, and the tables imported from encoding.py and
bearoff.py are frozen into the cached machine code: the kernel drops its cache when any of
these sources changes (``_stale.py``).

The weights travel as one tuple (:data:`Nets`, built by :class:`backgammon.bot.kernel.Kernel`):
the contact network's w1, b1, w2, b2, the race network's, the bearoff table's three arrays
(empty arrays when there is no table), and the crashed network's four (empty arrays when
there is none: the contact network evaluates crashed positions too).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from ..bearoff import BINOMIAL
from ..contact_inputs import EXTRA_FEATURES
from ..encoding import (
    CONTACT_INPUTS,
    CRASHED_CHECKERS,
    ESCAPES,
    HIGH_RUN,
    LONGEST,
    LOW_RUN,
    POPCOUNT,
    RACE_INPUTS,
    UNITS,
)

Nets = tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]

_CONTACT = CONTACT_INPUTS
_EXTRA = len(EXTRA_FEATURES)
_RACE = RACE_INPUTS
_ROLL_HIGH = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)
_ROLL_LOW = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int64)


@njit(cache=True, nogil=True)
def _rearmost(side: np.ndarray) -> int:
    for p in range(25, 0, -1):
        if side[p] > 0:
            return p
    return 0


@njit(cache=True, nogil=True)
def is_race(board: np.ndarray) -> bool:
    """No contact left (as :meth:`Position.is_race`)."""
    return _rearmost(board[0]) + _rearmost(board[1]) <= 25


@njit(cache=True, nogil=True)
def _crashed_side(side: np.ndarray) -> bool:
    """encoding._crashed_side for one side."""
    total = 0
    for p in range(1, 26):
        total += int(side[p])
    ace = int(side[1])
    deuce = int(side[2])
    n = CRASHED_CHECKERS
    if total <= n:
        return True
    if ace > 1:
        return total <= n + ace or (deuce > 1 and 1 + total - ace - deuce <= n)
    return total <= n + deuce - 1


@njit(cache=True, nogil=True)
def _either_crashed(board: np.ndarray) -> bool:
    """:func:`is_crashed` of a board known to be in contact (encoding.either_crashed)."""
    return _crashed_side(board[0]) or _crashed_side(board[1])


@njit(cache=True, nogil=True)
def is_crashed(board: np.ndarray) -> bool:
    """GNU Backgammon's crashed class (as :func:`backgammon.bot.encoding.is_crashed`)."""
    return not is_race(board) and _either_crashed(board)


@njit(cache=True, nogil=True)
def _made_own(side: np.ndarray) -> int:
    mask = 0
    for p in range(1, 25):
        if side[p] >= 2:
            mask |= 1 << (p - 1)
    return mask


@njit(cache=True, nogil=True)
def _landing(r: int, open_: int, sources: int, bar: int, waiting: int) -> int:
    """encoding.reach for one row and roll ``r`` of the 21: the points the hitter can land on
    (``open_``: the points it may land on; ``bar``: bit 25 where a checker waits there)."""
    free = waiting == 0
    high = _ROLL_HIGH[r]
    low = _ROLL_LOW[r]
    if high != low:
        enter_high = (bar >> high) & open_
        enter_low = (bar >> low) & open_
        from_high = (sources >> high) & open_
        from_low = (sources >> low) & open_
        entered_high = free or (enter_high != 0 and waiting == 1)
        entered_low = free or (enter_low != 0 and waiting == 1)
        reach = enter_high | enter_low
        if waiting == 1:
            reach |= ((enter_high >> low) | (enter_low >> high)) & open_
        if entered_high:
            reach |= from_low
        if entered_low:
            reach |= from_high
        if free:
            reach |= ((from_high >> low) | (from_low >> high)) & open_
        return int(reach)
    die = high
    step = (bar >> die) & open_
    entered = free or step != 0
    left = (4 if free else max(4 - waiting, 0)) if entered else 0
    reach = 0
    chain = sources
    for count in range(1, 5):
        if waiting > 0 and waiting <= 5 - count:
            reach |= step
        step = (step >> die) & open_
        chain = (chain >> die) & open_
        if left >= count:
            reach |= chain
    return int(reach)


@njit(cache=True, nogil=True)
def _shots(targets: int, closed: int, sources: int, on_bar: int, hits: np.ndarray) -> int:
    """encoding._side_features' shots for one row: the rolls of 36 on which the hitter hits
    a target; the targets each of the 21 rolls reaches into ``hits`` (encoding.side_features'
    hits), which the extra features of encoding 2 read."""
    bar = (1 << 25) if on_bar > 0 else 0
    total = 0
    for r in range(21):
        hits[r] = _landing(r, ~closed, sources, bar, on_bar) & targets
        if hits[r]:
            total += 2 if _ROLL_HIGH[r] != _ROLL_LOW[r] else 1
    return total


@njit(cache=True, nogil=True)
def _hit_masks(side: np.ndarray, other: np.ndarray) -> tuple[int, int, int]:
    """The bits, on the other side's numbering, of this side's blots (the targets) and of its
    made points (closed to the other side), and the bits of the other side's points with a
    checker (the sources of shots)."""
    targets = 0
    closed = 0
    for p in range(1, 25):
        if side[p] == 1:
            targets |= 1 << (25 - p)
        elif side[p] >= 2:
            closed |= 1 << (25 - p)
    sources = 0
    for q in range(1, 25):
        if other[q] > 0:
            sources |= 1 << q
    return targets, closed, sources


@njit(cache=True, nogil=True)
def _popcount(bits: int) -> int:
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


@njit(cache=True, nogil=True)
def _side_features(side: np.ndarray, other: np.ndarray, out: np.ndarray, at: int,
                   hits: np.ndarray) -> None:
    """encoding._side_features for one side against the other, written at ``out[at:]``; this
    side's blots that the other side reaches with each of the 21 rolls into ``hits``."""
    made_own = _made_own(side)
    other_made = _made_own(other)
    low, high = made_own & 0xFFF, made_own >> 12
    prime = max(max(LONGEST[low], LONGEST[high]), HIGH_RUN[low] + LOW_RUN[high])
    home = POPCOUNT[made_own & 0x3F]
    anchors = POPCOUNT[(made_own >> 18) & 0x3F]
    back = max(_rearmost(side), 1)
    escapes = ESCAPES[(other_made >> (25 - back)) & 0xFFF]
    targets, closed, sources = _hit_masks(side, other)
    blots = _popcount(targets)
    shots = _shots(targets, closed, sources, other[25], hits)
    pips = 0
    for p in range(26):
        pips += p * side[p]
    back_checkers = 0
    for p in range(19, 26):
        back_checkers += side[p]
    home_checkers = 0
    for p in range(1, 7):
        home_checkers += side[p]
    out[at] = np.float32(pips / 167)
    out[at + 1] = np.float32(blots / 5)
    out[at + 2] = np.float32(home / 6)
    out[at + 3] = np.float32(prime / 6)
    out[at + 4] = np.float32(back / 25)
    out[at + 5] = np.float32(escapes / 36.0)
    out[at + 6] = np.float32(shots / 36)
    out[at + 7] = np.float32(anchors / 2)
    out[at + 8] = np.float32(back_checkers / 5)
    out[at + 9] = np.float32(home_checkers / 15)


@njit(cache=True, nogil=True, inline="always")
def _forward_anchor(side: np.ndarray) -> int:
    """The other side's number of this side's most forward anchor in its home board, else in
    its outer board; 12 without one (its 12-point anchor gives the same value)."""
    for p in range(19, 25):
        if side[p] >= 2:
            return 25 - p
    for p in range(13, 19):
        if side[p] >= 2:
            return 25 - p
    return 12


@njit(cache=True, nogil=True, inline="always")
def _hit_costs(hits: np.ndarray) -> tuple[int, int]:
    """Of the 36 rolls, those that hit two blots or more, and the pips hits cost (the
    furthest blot a roll reaches), from :func:`_side_features`' masks."""
    double_shots = 0
    pip_loss = 0
    for r in range(21):
        reached = hits[r]
        if reached:
            weight = 2 if _ROLL_HIGH[r] != _ROLL_LOW[r] else 1
            if reached & (reached - 1):
                double_shots += weight
            top = 0
            while reached >> (top + 1):
                top += 1
            pip_loss += weight * top
    return double_shots, pip_loss


@njit(cache=True, nogil=True, inline="always")
def _containment(made_own: int, back: int) -> tuple[float, float]:
    """The two containments: from the other side's points 16..24, and from its point 16 to
    its rearmost checker ``back`` (contact_inputs._containment)."""
    fewest = 36
    fewest_reached = 36
    for j in range(16, 25):
        escapes = int(ESCAPES[(made_own >> (25 - j)) & 0xFFF])
        fewest = min(fewest, escapes)
        if j <= back:
            fewest_reached = min(fewest_reached, escapes)
    if back == 25:
        fewest_reached = min(fewest_reached, int(ESCAPES[made_own & 0xFFF]))
    return (36 - fewest) / 36, (36 - fewest_reached) / 36


@njit(cache=True, nogil=True, inline="always")
def _moment(side: np.ndarray) -> float:
    """The second moment of the checkers beyond their mean point, about that mean."""
    total = 0
    first_sum = 0
    for p in range(1, 26):
        total += side[p]
        first_sum += side[p] * p
    mean = first_sum / max(total, 1)
    many = 0
    first = 0
    second = 0
    for p in range(1, 26):
        if p > mean:
            many += side[p]
            first += side[p] * p
            second += side[p] * p * p
    if many == 0:
        return 0.0
    return (second - 2 * mean * first + mean * mean * many) / many


@njit(cache=True, nogil=True)
def _extra_features(side: np.ndarray, other: np.ndarray, hits: np.ndarray, out: np.ndarray,
                    at: int) -> None:
    """contact_inputs.extra_features for one side against the other, written at
    ``out[at:]``; ``hits`` are the masks :func:`_side_features` gave for this side."""
    made_own = _made_own(side)
    other_made = _made_own(other)
    off = side[0]
    front = 25 - _rearmost(other)
    break_contact = 0
    for p in range(front + 1, 26):
        break_contact += side[p] * (p - front)
    highest = 0
    for p in range(24, 0, -1):
        if side[p] >= 2:
            highest = p
            break
    double_shots, pip_loss = _hit_costs(hits)
    contain, reached = _containment(made_own, _rearmost(other))
    mobility = 0
    for p in range(7, 26):
        mobility += side[p] * int(ESCAPES[(other_made >> (25 - p)) & 0xFFF]) * (p - 6)
    closed_home = POPCOUNT[other_made & 0x3F]
    out[at] = np.float32(min(off, 5) / 5)
    out[at + 1] = np.float32(min(max(off - 5, 0), 5) / 5)
    out[at + 2] = np.float32(max(off - 10, 0) / 5)
    out[at + 3] = np.float32(break_contact / 152)
    out[at + 4] = np.float32(highest / 24)
    out[at + 5] = np.float32(_forward_anchor(side) / 6)
    out[at + 6] = np.float32(double_shots / 36)
    out[at + 7] = np.float32(pip_loss / 432)
    out[at + 8] = np.float32(contain)
    out[at + 9] = np.float32(contain * contain)
    out[at + 10] = np.float32(reached)
    out[at + 11] = np.float32(reached * reached)
    out[at + 12] = np.float32(mobility / 3600)
    out[at + 13] = np.float32(_moment(side) / 400)
    out[at + 14] = np.float32(closed_home * closed_home / 36)


@njit(cache=True, nogil=True)
def encode_contact(board: np.ndarray, x: np.ndarray) -> None:
    """The contact encoding of one board into ``x``: encoding 1 (CONTACT_INPUTS float32), or
    encoding 2 where ``x`` has room for it (CONTACT_INPUTS_V2)."""
    for s in range(2):
        side = board[s]
        base = 101 * s
        for p in range(1, 26):
            c = side[p]
            for k in range(4):
                x[base + 4 * (p - 1) + k] = UNITS[c, k]
        x[base + 100] = np.float32(side[0]) / np.float32(15.0)
    # Each side's blots reached by each roll, found once: the shots read them, and encoding
    # 2's double shots and pips lost.
    hits = np.empty((2, 21), dtype=np.int64)
    _side_features(board[0], board[1], x, 202, hits[0])
    _side_features(board[1], board[0], x, 212, hits[1])
    if x.shape[0] > _CONTACT:
        # Encoding 2 (contact_inputs.encode_contact_v2): the extra features of each side.
        _extra_features(board[0], board[1], hits[0], x, _CONTACT)
        _extra_features(board[1], board[0], hits[1], x, _CONTACT + _EXTRA)


@njit(cache=True, nogil=True)
def encode_race(board: np.ndarray, x: np.ndarray) -> None:
    """The race encoding of one board into ``x`` (RACE_INPUTS float32)."""
    for s in range(2):
        side = board[s]
        base = 113 * s
        for p in range(1, 25):
            c = side[p]
            for k in range(4):
                x[base + 4 * (p - 1) + k] = UNITS[c, k]
        for k in range(14):
            x[base + 96 + k] = 1.0 if side[0] >= k + 1 else 0.0
        pips = 0
        outside = 0
        crossovers = 0
        for p in range(1, 25):
            pips += p * side[p]
            crossovers += side[p] * ((p - 1) // 6)
            if p >= 7:
                outside += side[p]
        pips += 25 * side[25]
        x[base + 110] = np.float32(pips / 167)
        x[base + 111] = np.float32(outside / 15)
        x[base + 112] = np.float32(crossovers / 30)


_LOG2E = np.float32(1 / math.log(2))
# Taylor's coefficients of 2**f = exp(f ln 2): on |f| <= 1/2 seven terms are within 2e-7.
_C1, _C2, _C3, _C4, _C5, _C6, _C7 = (
    np.float32(math.log(2) ** k / math.factorial(k)) for k in range(1, 8)
)


@njit(cache=True, nogil=True)
def _sigmoids(values: np.ndarray, bias: np.ndarray, exponents: np.ndarray) -> None:
    """``values[i] = sigmoid(values[i] + bias[i])`` (clipped to ±40, as network._sigmoid),
    within 1e-7 of numpy's float32 result.

    exp(-v) = 2**n * 2**f with n whole and |f| <= 1/2: a polynomial gives 2**f and the bits
    of a float32 give 2**n, so the loops have no call to exp and run on vector registers,
    twice as fast as exp one value at a time.
    """
    units = values.shape[0]
    for h in range(units):
        v = min(max(values[h] + bias[h], np.float32(-40.0)), np.float32(40.0))
        y = -v * _LOG2E
        n = np.floor(y + np.float32(0.5))
        f = y - n
        values[h] = np.float32(1.0) + f * (
            _C1 + f * (_C2 + f * (_C3 + f * (_C4 + f * (_C5 + f * (_C6 + f * _C7)))))
        )
        exponents[h] = (np.int32(n) + np.int32(127)) << np.int32(23)
    powers = exponents[:units].view(np.float32)
    for h in range(units):
        values[h] = np.float32(1.0) / (np.float32(1.0) + values[h] * powers[h])


@njit(cache=True, nogil=True)
def forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray,
            out: np.ndarray) -> None:
    """The network's five outputs for one input row ``x`` into ``out`` (float32)."""
    units = b1.shape[0]
    # A fresh array, which the compiler knows no weight shares: the inner loop vectorises
    # (twice as fast as summing into an array passed in).
    hidden = np.empty(units, dtype=np.float32)
    exponents = np.empty(units, dtype=np.int32)
    for h in range(units):
        hidden[h] = 0.0
    for i in range(x.shape[0]):
        v = x[i]
        if v != 0.0:
            for h in range(units):
                hidden[h] += v * w1[i, h]
    _sigmoids(hidden, b1, exponents)
    for k in range(5):
        total = np.float32(0.0)
        for h in range(units):
            total += hidden[h] * w2[h, k]
        out[k] = total
    _sigmoids(out, b2, exponents)


@njit(cache=True, nogil=True)
def _rank(side: np.ndarray) -> int:
    """bearoff.rank of a side's points 1..6."""
    index = 0
    total = 0
    for i in range(1, 7):
        total += side[i]
        index += BINOMIAL[total + i - 1, i]
    return index


@njit(cache=True, nogil=True)
def is_bearoff(board: np.ndarray, checkers: int) -> bool:
    """bearoff.is_bearoff for one board with ``checkers`` a side."""
    for s in range(2):
        for p in range(7, 26):
            if board[s, p] > 0:
                return False
    return bool(board[0, 0] < checkers and board[1, 0] < checkers)


@njit(cache=True, nogil=True)
def bearoff_outputs(board: np.ndarray, nets: Nets, out: np.ndarray) -> None:
    """BearoffTable.outputs for one board."""
    off, off_tail, first_tail = nets[8], nets[9], nets[10]
    mine = _rank(board[0])
    theirs = _rank(board[1])
    rolls = off.shape[1]
    win = 0.0
    win_gammon = 0.0
    lose_gammon = 0.0
    for i in range(rolls):
        win += off[mine, i] * off_tail[theirs, i]
        win_gammon += off[mine, i] * first_tail[theirs, i]
        if i + 1 < rolls:
            lose_gammon += off[theirs, i] * first_tail[mine, i + 1]
    out[0] = win
    out[1] = win_gammon if board[1, 0] == 0 else 0.0
    out[2] = 0.0
    out[3] = lose_gammon if board[0, 0] == 0 else 0.0
    out[4] = 0.0


@njit(cache=True, nogil=True)
def checkers_of(board: np.ndarray) -> int:
    total = 0
    for p in range(26):
        total += board[0, p]
    return total


@njit(cache=True, nogil=True)
def terminal(board: np.ndarray, checkers: int, out: np.ndarray) -> bool:
    """evaluator.terminal_values for one board: True (and the exact outputs) if it is over."""
    won = board[0, 0] == checkers
    lost = board[1, 0] == checkers
    if not (won or lost):
        return False
    for k in range(5):
        out[k] = 0.0
    if won:
        out[0] = 1.0
        if board[1, 0] == 0:
            out[1] = 1.0
            for p in range(19, 26):
                if board[1, p] > 0:
                    out[2] = 1.0
    else:
        if board[0, 0] == 0:
            out[3] = 1.0
            for p in range(19, 26):
                if board[0, p] > 0:
                    out[4] = 1.0
    return True


@njit(cache=True, nogil=True)
def evaluate(board: np.ndarray, nets: Nets, scratch: np.ndarray, out: np.ndarray) -> None:
    """The 0-ply outputs of one board for its player on roll, as the shipped evaluator gives
    them: exact when the game is over, the bearoff table (if any) in a bear-off, the race
    network without contact, the crashed network (if any) in crashed positions, the contact
    network elsewhere. ``scratch`` is float32 work
    space for the inputs (:func:`scratch_for`)."""
    checkers = checkers_of(board)
    if terminal(board, checkers, out):
        return
    if nets[8].shape[0] > 0 and is_bearoff(board, checkers):
        bearoff_outputs(board, nets, out)
    elif is_race(board):
        x = scratch[:_RACE]
        encode_race(board, x)
        forward(x, nets[4], nets[5], nets[6], nets[7], out)
    elif nets[11].shape[0] > 0 and _either_crashed(board):  # not a race, as tested above
        x = scratch[: nets[11].shape[0]]
        encode_contact(board, x)
        forward(x, nets[11], nets[12], nets[13], nets[14], out)
    else:
        # The contact network's width says its encoding (contact_inputs.contact_encoder).
        x = scratch[: nets[0].shape[0]]
        encode_contact(board, x)
        forward(x, nets[0], nets[1], nets[2], nets[3], out)


@njit(cache=True, nogil=True)
def scratch_for(nets: Nets) -> np.ndarray:
    """Work space for :func:`evaluate`: room for the inputs of either network."""
    return np.zeros(max(nets[0].shape[0], nets[4].shape[0], nets[11].shape[0]),
                    dtype=np.float32)


@njit(cache=True, nogil=True)
def evaluate_batch(boards: np.ndarray, nets: Nets) -> np.ndarray:
    """:func:`evaluate` of each board ``(n, 2, 26)``: ``(n, 5)`` float32."""
    scratch = scratch_for(nets)
    out = np.zeros((boards.shape[0], 5), dtype=np.float32)
    for i in range(boards.shape[0]):
        evaluate(boards[i], nets, scratch, out[i])
    return out


@njit(cache=True, nogil=True)
def encode_batch(boards: np.ndarray, race: bool, width: int = _CONTACT) -> np.ndarray:
    """The contact (or race) encoding of each board: ``(n, inputs)`` float32; ``width``
    chooses the contact encoding (CONTACT_INPUTS or CONTACT_INPUTS_V2)."""
    if race:
        width = _RACE
    x = np.zeros((boards.shape[0], width), dtype=np.float32)
    for i in range(boards.shape[0]):
        if race:
            encode_race(boards[i], x[i])
        else:
            encode_contact(boards[i], x[i])
    return x
