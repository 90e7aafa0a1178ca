"""Network inputs: positions encoded as rows of a float32 array, a batch at a time.

The encoding is kept apart from the networks so that a network only sees numbers. Every
function here works on a batch: two ``(n, 26)`` uint8 arrays holding each side's counts on its
own numbering (index 0 borne off, 1..24 the points, 25 the bar), as :class:`Position` stores
them, the player on roll first. Encoding is the hot path of training, so it is all table
look-ups and whole-array operations, with no Python loop over positions.

Contact positions get :data:`CONTACT_INPUTS` inputs, per side (player on roll first):

* Tesauro's raw units for points 1..24 and the bar, four a point: one checker or more, two or
  more, three or more, and half of each checker beyond three; and the checkers borne off / 15.
* Hand-made features, of the kind strong engines add (see :data:`CONTACT_FEATURES`): pips,
  blots, home points, the longest prime, the rearmost checker and its free rolls, the rolls
  on which the other side hits one of this side's blots, anchors, back and home checkers.

Race positions (no contact left) get :data:`RACE_INPUTS` inputs, per side: the raw units of the
points, checkers off as 14 step units, and the pips, the checkers still outside the home board
and the crossovers they need.

>>> from backgammon import Position
>>> mine, theirs = boards([Position.initial()])
>>> encode_contact(mine, theirs).shape == (1, CONTACT_INPUTS)
True
>>> bool(is_race(mine, theirs)[0])
False
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..position import Position

Board = NDArray[np.uint8]
Inputs = NDArray[np.float32]

#: The hand-made contact features of each side, in the order of the encoding.
CONTACT_FEATURES = (
    "pips / 167",
    "blots / 5",
    "home board points made / 6",
    "longest prime / 6",
    "rearmost checker's point / 25",
    "rolls on which the rearmost checker can move both dice / 36",
    "rolls on which the other side hits a blot / 36",
    "anchors in the other side's home board / 2",
    "checkers on the other side's home board or the bar / 5",
    "checkers in the home board / 15",
)

_RAW_PER_SIDE = 25 * 4 + 1
#: Inputs of the contact encoding.
CONTACT_INPUTS = 2 * (_RAW_PER_SIDE + len(CONTACT_FEATURES))
_RACE_PER_SIDE = 24 * 4 + 14 + 3
#: Inputs of the race encoding.
RACE_INPUTS = 2 * _RACE_PER_SIDE


def _units_table() -> NDArray[np.float32]:
    """Tesauro's four units for each count 0..15."""
    counts = np.arange(16, dtype=np.float32)
    return np.stack(
        [counts >= 1, counts >= 2, counts >= 3, np.maximum(counts - 3, 0) / 2], axis=1
    ).astype(np.float32)


def _run_tables() -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """For each 12-bit mask: its longest run of set bits, the run from bit 0 up and the run
    from bit 11 down (to join the runs of two halves of a 24-bit mask)."""
    longest = np.zeros(4096, dtype=np.int64)
    low_run = np.zeros(4096, dtype=np.int64)
    high_run = np.zeros(4096, dtype=np.int64)
    for mask in range(4096):
        bits = [(mask >> i) & 1 for i in range(12)]
        run = best = 0
        for bit in bits:
            run = run + 1 if bit else 0
            best = max(best, run)
        longest[mask] = best
        low_run[mask] = next((i for i, bit in enumerate(bits) if not bit), 12)
        high_run[mask] = next((i for i, bit in enumerate(reversed(bits)) if not bit), 12)
    return longest, low_run, high_run


def _escape_table() -> NDArray[np.float32]:
    """For each 12-bit mask of blocked points in front of a checker (bit d-1: the point d pips
    ahead is held by two or more opposing checkers), the rolls of 36 with which the checker can
    move the sum of the dice: the point that far is open, and so is the point of one die.

    This is GNU Backgammon's measure of how free the back checker is (its "escapes").
    """

    def blocked(mask: int, distance: int) -> bool:
        return distance <= 12 and bool(mask >> (distance - 1) & 1)

    table = np.zeros(4096, dtype=np.float32)
    for mask in range(4096):
        table[mask] = sum(
            not blocked(mask, a + b) and not (blocked(mask, a) and blocked(mask, b))
            for a in range(1, 7)
            for b in range(1, 7)
        )
    return table


# These tables are public because the compiled kernel (kernel/evaluate.py) reads them too;
# numba compiles them into its cached code as constants, so this file is part of the digest
# that decides when the kernel's cache is stale (kernel/_stale.py).
UNITS = _units_table()
LONGEST, LOW_RUN, HIGH_RUN = _run_tables()
POPCOUNT = np.array([bin(mask).count("1") for mask in range(4096)], dtype=np.int64)
ESCAPES = _escape_table()
_PIP_WEIGHTS = np.arange(26, dtype=np.int64)
# Bit p-1 for point p (1..24): a side's own points.
_BIT_OWN = 1 << np.arange(24, dtype=np.int32)
# Bit 25-p for point p (1..24): a side's points on the other side's numbering.
_BIT_OTHER = 1 << (25 - np.arange(1, 25, dtype=np.int32))
# Bit p for point p (1..24): where a side's checkers stand, on its own numbering.
_BIT_SOURCE = 1 << np.arange(1, 25, dtype=np.int32)
# The 21 rolls (high, low), in the order of dice.ALL_ROLLS, and how many of the 36 each
# stands for.
_HIGH = np.array([a for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int32)
_LOW = np.array([b for a in range(1, 7) for b in range(1, a + 1)], dtype=np.int32)
_ROLL_WEIGHTS = np.where(_HIGH == _LOW, 1.0, 2.0).astype(np.float32)
#: How many of the 36 rolls each of the 21 stands for.
ROLL_WEIGHTS = _ROLL_WEIGHTS.astype(np.int64)
_DOUBLES = np.flatnonzero(_HIGH == _LOW)
_CROSSOVERS = ((np.arange(1, 25) - 1) // 6).astype(np.int64)
_OFF_STEPS = (np.arange(16)[:, None] >= np.arange(1, 15)[None, :]).astype(np.float32)


def boards(positions: Sequence[Position]) -> tuple[Board, Board]:
    """The positions' counts as two ``(n, 26)`` uint8 arrays: player on roll, opponent."""
    mine = np.frombuffer(b"".join([p.mine_bytes for p in positions]), dtype=np.uint8)
    theirs = np.frombuffer(b"".join([p.theirs_bytes for p in positions]), dtype=np.uint8)
    return mine.reshape(-1, 26), theirs.reshape(-1, 26)


def rearmost(side: Board) -> NDArray[np.int64]:
    """The highest index (25 = bar) holding a checker of each row, 0 when all are off."""
    occupied = side[:, 25:0:-1] > 0
    first = occupied.argmax(axis=1)
    return np.where(occupied.any(axis=1), 25 - first, 0)


def is_race(mine: Board, theirs: Board) -> NDArray[np.bool_]:
    """True for the rows where no contact is left (as :meth:`Position.is_race`)."""
    return rearmost(mine) + rearmost(theirs) <= 25


#: gnubg's crashed class: a side with at most this many checkers in play (not counting the
#: extra ones piled on its ace and deuce points) has crashed.
CRASHED_CHECKERS = 6


def is_crashed(mine: Board, theirs: Board) -> NDArray[np.bool_]:
    """True for the contact rows that GNU Backgammon calls crashed (its ``CLASS_CRASHED``):
    either side has at most six checkers in play, or at most six once the checkers it has
    piled on its ace point (more than one there) and deuce point are set aside. Races and
    finished games are never crashed.

    >>> from backgammon import Position
    >>> bool(is_crashed(*boards([Position.initial()]))[0])
    False
    """
    return ~is_race(mine, theirs) & either_crashed(mine, theirs)


def either_crashed(mine: Board, theirs: Board) -> NDArray[np.bool_]:
    """:func:`is_crashed` of rows the caller knows to be in contact: True where either side
    has crashed (no test for a race)."""
    return _crashed_side(mine) | _crashed_side(theirs)


def _crashed_side(side: Board) -> NDArray[np.bool_]:
    """gnubg's test of one side. Its checkers in play count less those on its ace point
    where two or more are there (and less its deuce point's but one where that holds two or
    more as well); with one checker or none on the ace point, less its deuce point's but
    one."""
    total = side[:, 1:26].sum(axis=1, dtype=np.int64)
    ace, deuce = side[:, 1].astype(np.int64), side[:, 2].astype(np.int64)
    n = CRASHED_CHECKERS
    piled = ace > 1
    piled_crash = (total <= n + ace) | ((deuce > 1) & (1 + total - ace - deuce <= n))
    crashed: NDArray[np.bool_] = (total <= n) | np.where(piled, piled_crash,
                                                          total <= n + deuce - 1)
    return crashed


def encode_contact(mine: Board, theirs: Board) -> Inputs:
    """The contact encoding of a batch: ``(n, CONTACT_INPUTS)`` float32."""
    return contact_rows(mine, theirs, _side_features(np.concatenate((mine, theirs))))


def contact_rows(mine: Board, theirs: Board, features: Inputs) -> Inputs:
    """The contact encoding of a batch whose :func:`side_features` are known already."""
    n = len(mine)
    raw = UNITS[np.concatenate((mine[:, 1:26], theirs[:, 1:26]), axis=1)].reshape(n, 200)
    off = np.stack((mine[:, 0], theirs[:, 0]), axis=1).astype(np.float32) / 15
    return np.concatenate(
        (raw[:, :100], off[:, :1], raw[:, 100:], off[:, 1:], features[:n], features[n:]),
        axis=1,
    )


def encode_race(mine: Board, theirs: Board) -> Inputs:
    """The race encoding of a batch: ``(n, RACE_INPUTS)`` float32."""
    n = len(mine)
    sides = np.concatenate((mine, theirs))
    points = sides[:, 1:25]
    raw = UNITS[points].reshape(2 * n, 96)
    off = _OFF_STEPS[sides[:, 0]]
    counts = np.stack(
        (
            (sides @ _PIP_WEIGHTS) / 167,
            points[:, 6:].sum(axis=1) / 15,
            (points @ _CROSSOVERS) / 30,
        ),
        axis=1,
    ).astype(np.float32)
    per_side = np.concatenate((raw, off, counts), axis=1)
    return np.concatenate((per_side[:n], per_side[n:]), axis=1)


def _side_features(side: Board) -> Inputs:
    """The hand-made features of each side of a batch stacked as (players on roll, opponents):
    ``(2n, 10)``, each row's side against the other side of its position."""
    return side_features(side)[0]


@dataclass(frozen=True)
class SideMasks:
    """What :func:`side_features` finds on its way for each row of a stacked batch, which the
    richer encoding (:mod:`.contact_inputs`) reads as well."""

    #: The row of the other side of each row's position (row i + n, mod 2n).
    partner: NDArray[np.int64]
    #: Points 1..24 the row's side holds with two checkers or more: ``(2n, 24)``.
    made: NDArray[np.bool_]
    #: The same as bits, bit p-1 for point p.
    made_own: NDArray[np.int32]
    #: :func:`rearmost` of each row.
    rearmost: NDArray[np.int64]
    #: The row's blots that the other side reaches with each of the 21 rolls: ``(2n, 21)``
    #: masks, bit 25-p for point p (see :func:`reach`).
    hits: NDArray[np.int32]


def side_features(side: Board) -> tuple[Inputs, SideMasks]:
    """:func:`_side_features`, and the masks found on the way (:class:`SideMasks`).

    Bit masks hold the point sets (made points, blots, sources), so that hits and escapes come
    from shifts and small tables rather than from loops over points.
    """
    points = side[:, 1:25]
    made = points >= 2
    blots = points == 1
    made_own = made @ _BIT_OWN
    half = len(side) // 2
    # Row i's other side is row i + half (mod rows), whose masks are computed already.
    partner = np.roll(np.arange(len(side)), -half)
    other_made_own = made_own[partner]

    low, high = made_own & 0xFFF, made_own >> 12
    prime = np.maximum(
        np.maximum(LONGEST[low], LONGEST[high]), HIGH_RUN[low] + LOW_RUN[high]
    )
    home = POPCOUNT[made_own & 0x3F]
    anchors = POPCOUNT[(made_own >> 18) & 0x3F]

    back_point = rearmost(side)
    back = np.maximum(back_point, 1)
    # The other side's points 1..12 ahead of the rearmost checker on point p are its own
    # points 26-p..37-p, bits 25-p.. of its mask.
    escapes = ESCAPES[(other_made_own >> (25 - back)) & 0xFFF]

    hits = reach(
        closed=made @ _BIT_OTHER,
        sources=((points > 0) @ _BIT_SOURCE)[partner],
        on_bar=side[partner, 25],
    ) & (blots @ _BIT_OTHER)[:, None]
    shots = (hits != 0).astype(np.float32) @ _ROLL_WEIGHTS
    features = np.stack(
        (
            (side @ _PIP_WEIGHTS) / 167,
            blots.sum(axis=1) / 5,
            home / 6,
            prime / 6,
            back / 25,
            escapes / 36,
            shots / 36,
            anchors / 2,
            side[:, 19:26].sum(axis=1) / 5,
            points[:, :6].sum(axis=1) / 15,
        ),
        axis=1,
    )
    return features.astype(np.float32), SideMasks(partner, made, made_own, back_point, hits)


def reach(
    closed: NDArray[np.int32],
    sources: NDArray[np.int32],
    on_bar: NDArray[np.uint8],
) -> NDArray[np.int32]:
    """The points the hitter can land on with each of the 21 rolls (in the order of
    :data:`~backgammon.dice.ALL_ROLLS`): ``(n, 21)`` masks on the hitter's numbering (bit p for
    point p, moving down; ``sources`` are its points 1..24, ``closed`` the points it cannot
    land on).

    A checker hits with one die, or with both through an open point, or with up to four steps
    of a double. Checkers on the bar enter first: an entering checker may hit, and go on with
    the dice left; the others move only with the dice left once every bar checker is in. The
    rule to use both dice, or the larger, is left out: it rarely forbids a hit.
    """
    rows = len(closed)
    open_ = ~closed[:, None]
    bar = np.where(on_bar > 0, np.int32(1 << 25), np.int32(0))[:, None]
    waiting = on_bar.astype(np.int32)[:, None]
    free = waiting == 0
    sources = sources[:, None]
    # Non-doubles (the double columns are replaced below).
    enter_high = (bar >> _HIGH) & open_
    enter_low = (bar >> _LOW) & open_
    high = (sources >> _HIGH) & open_
    low = (sources >> _LOW) & open_
    entered_high = free | ((enter_high != 0) & (waiting == 1))
    entered_low = free | ((enter_low != 0) & (waiting == 1))
    landing = (
        enter_high
        | enter_low
        | (((enter_high >> _LOW) | (enter_low >> _HIGH)) & open_) * (waiting == 1)
        | low * entered_high
        | high * entered_low
        | (((high >> _LOW) | (low >> _HIGH)) & open_) * free
    )
    # Doubles: the last checker to enter takes the steps the others leave it; once all are in,
    # the steps left are for any checker.
    die = _HIGH[_DOUBLES]
    step = (bar >> die) & open_
    entered = free | (step != 0)
    left = np.where(free, np.int32(4), np.maximum(4 - waiting, 0)) * entered
    doubles = np.zeros((rows, len(die)), dtype=np.int32)
    chain = sources
    for count in range(1, 5):
        doubles |= step * (waiting > 0) * (waiting <= 5 - count)
        step = (step >> die) & open_
        chain = (chain >> die) & open_
        doubles |= chain * (left >= count)
    landing[:, _DOUBLES] = doubles
    result: NDArray[np.int32] = landing
    return result
