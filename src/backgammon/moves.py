"""Legal plays: every way to play a roll, by the rules of RULES.md.

A play is a whole turn. Plays that reach the same position are one play, so generation works
on resulting positions (as wildbg does) and keeps the first sequence of steps that reaches each.

The generator works on the mover's 26 counts in a ``bytearray`` (0 off, 1..24, 25 the bar) and
on ``rev``, the opponent's counts as seen on the mover's numbering (``rev[t]`` is the number of
opposing checkers on the mover's point ``t``), making and unmaking each step in place.

>>> from backgammon import Position
>>> sorted(str(play) for play in Position.initial().legal_plays((6, 5)))
['13/2', '13/7 8/3', '13/8 13/7', '24/13', '24/18 13/8', '24/18 8/3', '8/3 8/2']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .dice import Dice
from .notation import format_play
from .position import BAR, OFF, Position


class Step(NamedTuple):
    """One checker moved by one die: from a point (25 = bar) to a point (0 = off)."""

    from_point: int
    to_point: int
    hit: bool = False


class Play:
    """One whole turn: its checker steps and the resulting position (the opponent on roll)."""

    __slots__ = ("_raw", "position", "result")

    position: Position
    result: Position
    _raw: tuple[tuple[int, int, bool], ...]

    def __init__(self, position: Position, steps: Sequence[Step], result: Position) -> None:
        self.position = position
        self.result = result
        self._raw = tuple(steps)

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checker steps, in an order in which they can be played."""
        # The search marks every step that lands on an opposing blot; only the first one hits.
        steps = []
        hit_points = set()
        for source, target, hit in self._raw:
            hit = hit and target not in hit_points
            if hit:
                hit_points.add(target)
            steps.append(Step(source, target, hit))
        return tuple(steps)

    @classmethod
    def empty(cls, position: Position) -> Play:
        """The play of a roll with no legal move: no steps, and the opponent on roll.

        >>> str(Play.empty(Position.initial()))
        'no move'
        """
        return cls(position, (), position.flip())

    def __str__(self) -> str:
        return format_play(self)

    def __repr__(self) -> str:
        return f"<Play {self}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.result == other.result and self.position == other.position

    def __hash__(self) -> int:
        return hash(self.result)


# The search names each result by one int: the mover's 26 counts as the bytes of a
# little-endian number, and above them a 3-bit field a point counting the steps that landed on
# an opposing blot there (up to four with doubles). A step changes the int by a precomputed
# amount, so a leaf of the search needs no copy of the board. The steps of a result, and so
# these counts, follow from the result itself, so each result has one int.
_HIT_SHIFT = 8 * 26
_MASK = (1 << _HIT_SHIFT) - 1
_DELTA = [[(1 << 8 * to) - (1 << 8 * source) for to in range(26)] for source in range(26)]
_HIT = [1 << (_HIT_SHIFT + 3 * point) for point in range(26)]
_RawStep = tuple[int, int, bool]
_Found = dict[int, tuple[_RawStep, ...]]
_new = object.__new__


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every distinct legal play of ``dice`` from ``position`` (dice already checked)."""
    theirs = position.theirs_bytes
    mine = position.mine_bytes
    me = bytearray(mine)
    rev = bytearray(theirs[::-1])
    code = int.from_bytes(mine, "little")
    a, b = dice
    if a == b:
        found = _doubles(me, rev, code, a)
    else:
        found = _non_doubles(me, rev, code, max(a, b), min(a, b))
    plays: list[Play] = []
    append = plays.append
    after_hits: dict[int, bytes] = {}
    for key, raw in found.items():
        # Building the objects inline (not through __init__) is a third of the whole cost.
        result = _new(Position)
        result._theirs = (key & _MASK).to_bytes(26, "little")
        if key <= _MASK:
            result._mine = theirs
        else:
            fields = key >> _HIT_SHIFT
            result._mine = after_hits.get(fields) or after_hits.setdefault(
                fields, _theirs_after(theirs, fields)
            )
        play = _new(Play)
        play.position = position
        play.result = result
        play._raw = raw
        append(play)
    return plays


def _theirs_after(theirs: bytes, hit_fields: int) -> bytes:
    """The opponent's side once the blots on the mover's points marked in ``hit_fields`` are hit."""
    after = bytearray(theirs)
    while hit_fields:
        lowest = hit_fields & -hit_fields
        point = (lowest.bit_length() - 1) // 3
        after[25 - point] = 0
        after[BAR] += 1
        hit_fields &= ~(7 << 3 * point)
    return bytes(after)


def target_of(me: bytearray, rev: bytearray, source: int, die: int, outside: int) -> int:
    """Where the checker on ``source`` lands with ``die``, or -1 if it may not move.

    RULES.md, Moving: two or more opposing checkers close a point. RULES.md, Bearing off: only
    with all checkers home (``outside`` counts those that are not); a die removes a checker
    from its own point, or from a lower point when no checker stands higher.
    """
    target = source - die
    if target > 0:
        return target if rev[target] < 2 else -1
    if outside or (target < 0 and any(me[source + 1 : 7])):
        return -1
    return OFF


def _non_doubles(me: bytearray, rev: bytearray, code: int, high: int, low: int) -> _Found:
    # RULES.md, Moving: "a player must use both numbers if any legal sequence does ... if
    # either can be used but not both, the larger must be used." Full plays found in either
    # order beat any one-die play; among one-die plays, those with the larger die win.
    outside = sum(me[7:])
    if me[BAR] or outside <= 1:
        return _non_doubles_in_order(me, rev, code, high, low, outside)
    # No checker is on the bar and none can bear off, so steps of two checkers may be played
    # in either order: each pair of a step with each die is one play.
    points = [p for p in range(24, 0, -1) if me[p]]
    with_high = _steps_in_play(points, rev, high)
    with_low = _steps_in_play(points, rev, low)
    full: _Found = {}
    for s1, k1, step1 in with_high:
        base = code + k1
        alone = me[s1] == 1
        for s2, k2, step2 in with_low:
            if s2 != s1 or not alone:
                full[base + k2] = (step1, step2)
    # One checker moving twice, by either die first.
    for first, second in ((with_high, low), (with_low, high)):
        for _, k1, step1 in first:
            t1 = step1[1]
            t2 = t1 - second
            if t2 > 0 and rev[t2] < 2:
                key = code + k1 + _DELTA[t1][t2] + (_HIT[t2] if rev[t2] == 1 else 0)
                full[key] = (step1, (t1, t2, rev[t2] == 1))
    if full:
        return full
    return {code + k: (step,) for _, k, step in with_high or with_low}


def _steps_in_play(
    points: list[int], rev: bytearray, die: int
) -> list[tuple[int, int, _RawStep]]:
    """(source, change of the result int, step) for each checker that can move ``die`` pips
    to an open point (bearing off aside)."""
    steps = []
    for source in points:
        target = source - die
        if target > 0 and rev[target] < 2:
            hit = rev[target] == 1
            change = _DELTA[source][target] + (_HIT[target] if hit else 0)
            steps.append((source, change, (source, target, hit)))
    return steps


def _non_doubles_in_order(
    me: bytearray, rev: bytearray, code: int, high: int, low: int, outside: int
) -> _Found:
    """The general search, for when entering or bearing off makes the order of steps matter."""
    full: _Found = {}
    single_high: _Found = {}
    single_low: _Found = {}
    on_bar = me[BAR]
    points = [p for p in range(24, 0, -1) if me[p]]
    for first, second in ((high, low), (low, high)):
        for s1 in (BAR,) if on_bar else points:
            t1 = target_of(me, rev, s1, first, outside)
            if t1 < 0:
                continue
            hit1 = t1 > 0 and rev[t1] == 1
            code1 = code + _DELTA[s1][t1] + (_HIT[t1] if hit1 else 0)
            step1 = (s1, t1, hit1)
            me[s1] -= 1
            me[t1] += 1
            if me[BAR]:
                sources: Sequence[int] = (BAR,)
            else:
                sources = points if not t1 or t1 in points else [*points, t1]
            out1 = outside - (s1 > 6 and t1 <= 6)
            played_both = False
            for s2 in sources:
                if not me[s2]:
                    continue
                t2 = target_of(me, rev, s2, second, out1)
                if t2 < 0:
                    continue
                played_both = True
                hit2 = t2 > 0 and rev[t2] == 1
                key = code1 + _DELTA[s2][t2] + (_HIT[t2] if hit2 else 0)
                if key not in full:
                    full[key] = (step1, (s2, t2, hit2))
            me[t1] -= 1
            me[s1] += 1
            if not played_both and not full:
                single = single_high if first == high else single_low
                if code1 not in single:
                    single[code1] = (step1,)
    return full or single_high or single_low


def _doubles(me: bytearray, rev: bytearray, code: int, die: int) -> _Found:
    # RULES.md, Moving: "Doubles are played four times ... play as many as can be played."
    # Entering from the bar comes first, and with doubles every entry is the same step.
    entry = _enter_doubles(me, rev, code, die)
    if entry is None:
        return {}
    code, entered = entry
    if me[BAR] or len(entered) == 4:
        return {code: entered}
    left = 4 - len(entered)
    moves = _double_moves(me, rev, die, left)
    found: list[_Found] = [{} for _ in range(left + 1)]
    count = len(moves)

    def extend(
        start: int, code: int, outside: int, chain: tuple[_RawStep, ...], depth: int
    ) -> None:
        moved = False
        last = depth == 1
        done = found[left]
        for index in range(start, count):
            source, target, change, step = moves[index]
            if not me[source]:
                continue
            # RULES.md, Bearing off: all checkers home, and from a lower point only when no
            # checker stands higher.
            if target == OFF and (outside or (source < die and any(me[source + 1 : 7]))):
                continue
            moved = True
            if last:
                key = code + change
                if key not in done:
                    done[key] = (*chain, step)
                continue
            me[source] -= 1
            me[target] += 1
            extend(  # noqa: F821  (deleted once done)
                index,
                code + change,
                outside - (source > 6 and target <= 6),
                (*chain, step),
                depth - 1,
            )
            me[target] -= 1
            me[source] += 1
        if not moved and chain:
            partial = found[left - depth]
            if code not in partial:
                partial[code] = chain

    extend(0, code, sum(me[7:]), entered, left)
    del extend  # a cycle otherwise (see dice_of_steps)
    for results in reversed(found):
        if results:
            return results
    return {}


#: A step of a double, as the search takes it: source, target (0 = off), the change of the
#: result's int, and the step.
_DoubleMove = tuple[int, int, int, _RawStep]


def _enter_doubles(
    me: bytearray, rev: bytearray, code: int, die: int
) -> tuple[int, tuple[_RawStep, ...]] | None:
    """Enter as many checkers from the bar as the double allows, in place: the new result int
    and the steps made (none with no checker on the bar), or None when the entry point is
    blocked."""
    entered: tuple[_RawStep, ...] = ()
    if not me[BAR]:
        return code, entered
    entry = BAR - die
    if rev[entry] > 1:
        return None
    hit = rev[entry] == 1
    for _ in range(min(me[BAR], 4)):
        me[BAR] -= 1
        me[entry] += 1
        code += _DELTA[BAR][entry]
        entered += ((BAR, entry, hit),)
    if hit:
        code += _HIT[entry]
        rev[entry] = 0
    return code, entered


def _double_moves(me: bytearray, rev: bytearray, die: int, left: int) -> list[_DoubleMove]:
    """The steps a double's ``left`` remaining steps can use, highest source first."""
    # Steps of one die can be reordered so that their sources never rise, so the search takes
    # sources in that order and meets each combination of checkers once. The sources are the
    # points a checker stands on or can reach by open points, that have an open point (or the
    # tray) one die lower.
    reachable = set()
    for start in range(24, 0, -1):
        point = start
        if me[point]:
            for _ in range(left):
                if point <= die:
                    reachable.add(point)
                    break
                if rev[point - die] > 1:
                    break
                reachable.add(point)
                point -= die
    moves = []
    for source in sorted(reachable, reverse=True):
        target = max(source - die, OFF)
        hit = target > 0 and rev[target] == 1
        moves.append((source, target, _DELTA[source][target] + (_HIT[target] if hit else 0),
                      (source, target, hit)))
    return moves

