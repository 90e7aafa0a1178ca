"""Legal plays: every way to play a roll, by the rules of RULES.md.

A play is a whole turn. Plays that reach the same position are one play, so generation works
on resulting positions (as wildbg does) and keeps the first sequence of steps that reaches each.

The generator works on the mover's 26 counts in a ``bytearray`` (0 off, 1..24, 25 the bar) and
on ``rev``, the opponent's counts as seen on the mover's numbering (``rev[t]`` is the number of
opposing checkers on the mover's point ``t``), making and unmaking each step in place.

>>> from backgammon import Position
>>> [str(play) for play in Position.initial().legal_plays((6, 5))][:3]
['24/18/13', '24/18 13/8', '24/18 8/3']
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

from .dice import Dice
from .errors import IllegalPlayError
from .position import BAR, OFF, Position


class Step(NamedTuple):
    """One checker moved by one die: from a point (25 = bar) to a point (0 = off)."""

    from_point: int
    to_point: int
    hit: bool = False


class Play:
    """One whole turn: its checker steps and the resulting position (the opponent on roll)."""

    __slots__ = ("position", "result", "_raw")

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
        return tuple(map(Step._make, self._raw))

    def __str__(self) -> str:
        return _notation.format_play(self)

    def __repr__(self) -> str:
        return f"<Play {self}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.result == other.result and self.position == other.position

    def __hash__(self) -> int:
        return hash(self.result)


# The search names each result by one int: the mover's 26 counts as bytes of a little-endian
# number, plus a bit above them for each point where a blot was hit. A step changes it by a
# precomputed delta, so a leaf of the search needs no copy of the board.
_HIT_SHIFT = 8 * 26
_MASK = (1 << _HIT_SHIFT) - 1
_DELTA = [[(1 << 8 * to) - (1 << 8 * source) for to in range(26)] for source in range(26)]
_HIT = [1 << (_HIT_SHIFT + point) for point in range(26)]
_RawStep = tuple[int, int, bool]
_Found = dict[int, tuple[_RawStep, ...]]
_new = object.__new__


def legal_plays(position: Position, dice: Dice) -> list[Play]:
    """Every distinct legal play of ``dice`` from ``position`` (dice already checked)."""
    theirs = position._theirs
    mine = position._mine
    me = bytearray(mine)
    rev = bytearray(theirs[::-1])
    code = int.from_bytes(mine, "little")
    a, b = dice
    if a == b:
        found = _doubles(me, rev, code, a)
    else:
        found = _non_doubles(me, rev, code, max(a, b), min(a, b))
    plays = []
    append = plays.append
    for key, raw in found.items():
        # Building the objects inline (not through __init__) is a third of the whole cost.
        result = _new(Position)
        result._theirs = (key & _MASK).to_bytes(26, "little")
        result._mine = theirs if key <= _MASK else _theirs_after(theirs, key >> _HIT_SHIFT)
        play = _new(Play)
        play.position = position
        play.result = result
        play._raw = raw
        append(play)
    return plays


def _theirs_after(theirs: bytes, hit_points: int) -> bytes:
    """The opponent's side once the blots on the mover's points in ``hit_points`` are hit."""
    after = bytearray(theirs)
    for point in range(1, 25):
        if hit_points >> point & 1:
            after[25 - point] = 0
            after[BAR] += 1
    return bytes(after)


def _target(me: bytearray, rev: bytearray, source: int, die: int, outside: int) -> int:
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
    full: _Found = {}
    single_high: _Found = {}
    single_low: _Found = {}
    outside = sum(me[7:])
    on_bar = me[BAR]
    points = [p for p in range(24, 0, -1) if me[p]]
    # In the second order only the same checker going on can add a result, unless entering
    # from the bar or bearing off makes the order of two checkers' steps matter.
    order_matters = on_bar or outside <= 1
    for first, second in ((high, low), (low, high)):
        for s1 in (BAR,) if on_bar else points:
            t1 = _target(me, rev, s1, first, outside)
            if t1 < 0:
                continue
            hit1 = t1 > 0 and rev[t1] == 1
            code1 = code + _DELTA[s1][t1] + (_HIT[t1] if hit1 else 0)
            step1 = (s1, t1, hit1)
            me[s1] -= 1
            me[t1] += 1
            if me[BAR]:
                sources: Sequence[int] = (BAR,)
            elif first == low and not order_matters:
                sources = (t1,) if t1 else ()
            else:
                sources = points if not t1 or t1 in points else [*points, t1]
            out1 = outside - (s1 > 6 and t1 <= 6)
            played_both = False
            for s2 in sources:
                if not me[s2]:
                    continue
                t2 = s2 - second
                if t2 > 0:
                    if rev[t2] > 1:
                        continue
                    key = code1 + _DELTA[s2][t2]
                    # A blot hit by the first step is no longer there for the second.
                    hit2 = rev[t2] == 1 and not (hit1 and t2 == t1)
                    if hit2:
                        key += _HIT[t2]
                elif out1 or (t2 < 0 and any(me[s2 + 1 : 7])):
                    continue
                else:
                    t2 = OFF
                    key = code1 + _DELTA[s2][OFF]
                    hit2 = False
                played_both = True
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
    entered: tuple[_RawStep, ...] = ()
    if me[BAR]:
        entry = BAR - die
        if rev[entry] > 1:
            return {}
        for _ in range(min(me[BAR], 4)):
            hit = rev[entry] == 1
            if hit:
                rev[entry] = 0
                code += _HIT[entry]
            me[BAR] -= 1
            me[entry] += 1
            code += _DELTA[BAR][entry]
            entered += ((BAR, entry, hit),)
        if me[BAR] or len(entered) == 4:
            return {code: entered}
    # Steps of one die can be reordered so that their sources never rise, so the search takes
    # sources in that order and meets each combination of checkers once. Only points that a
    # checker stands on, or can reach, can be sources.
    left = 4 - len(entered)
    sources = sorted(
        {
            point
            for p in range(24, 0, -1)
            if me[p]
            for k in range(left)
            if (point := p - k * die) > 0 and (point <= die or rev[point - die] < 2)
        },
        reverse=True,
    )
    found: list[_Found] = [{} for _ in range(left + 1)]
    count = len(sources)

    def extend(start: int, code: int, outside: int, chain: tuple[_RawStep, ...], depth: int) -> None:
        moved = False
        for index in range(start, count):
            source = sources[index]
            if not me[source]:
                continue
            target = source - die
            if target <= 0:
                if outside or (target < 0 and any(me[source + 1 : 7])):
                    continue
                target = OFF
                hit = False
            else:
                hit = rev[target] == 1
            moved = True
            key = code + _DELTA[source][target]
            if hit:
                key += _HIT[target]
            if depth == 1:
                done = found[left]
                if key not in done:
                    done[key] = (*chain, (source, target, hit))
                continue
            me[source] -= 1
            me[target] += 1
            if hit:
                rev[target] = 0
            extend(
                index,
                key,
                outside - (source > 6 and target <= 6),
                (*chain, (source, target, hit)),
                depth - 1,
            )
            if hit:
                rev[target] = 1
            me[target] -= 1
            me[source] += 1
        if not moved and chain:
            done = found[left - depth]
            if code not in done:
                done[code] = chain

    extend(0, code, sum(me[7:]), entered, left)
    for results in reversed(found):
        if results:
            return results
    return {}


class Turn:
    """A turn played one checker step at a time, for click-to-move interfaces.

    Every step offered can still be completed into a legal whole play, so a first step that
    would break the rule to use both dice, or the larger die, is never offered.

    >>> from backgammon import Position
    >>> turn = Position.initial().turn((6, 5))
    >>> turn.legal_steps()
    [(24, 19), (24, 18), (13, 8), (13, 7), (8, 3), (8, 2), (6, 1)]
    >>> turn = turn.step(24, 18).step(18, 13)
    >>> turn.is_complete, str(turn.play())
    (True, '24/13')
    """

    __slots__ = ("position", "dice", "made", "_plays")

    def __init__(
        self,
        position: Position,
        dice: Dice,
        made: tuple[tuple[int, int], ...] = (),
        _plays: tuple[tuple[tuple[tuple[int, int], ...], Play], ...] | None = None,
    ) -> None:
        self.position = position
        self.dice = dice
        self.made = made
        self._plays = _plays if _plays is not None else _orderings(position, dice)

    def legal_steps(self) -> list[tuple[int, int]]:
        """The (from, to) steps that may come next; empty when the turn is complete."""
        depth = len(self.made)
        nexts = {
            path[depth]
            for path, _ in self._plays
            if len(path) > depth and path[:depth] == self.made
        }
        return sorted(nexts, reverse=True)

    def step(self, from_point: int, to_point: int) -> Turn:
        """The turn with one more step made; IllegalPlayError if it is not offered."""
        move = (from_point, to_point)
        if move not in self.legal_steps():
            offered = ", ".join(f"{a}/{b}" for a, b in self.legal_steps()) or "none"
            raise IllegalPlayError(
                f"Moving a checker from {_name(from_point)} to {_name(to_point)} is not allowed "
                f"here; the steps allowed are: {offered}."
            )
        return Turn(self.position, self.dice, (*self.made, move), self._plays)

    def undo(self) -> Turn:
        """The turn with its last step taken back (unchanged when no step was made)."""
        return Turn(self.position, self.dice, self.made[:-1], self._plays)

    @property
    def is_complete(self) -> bool:
        """True when the steps made form a whole legal play (including a dance: no steps)."""
        return self._complete_play() is not None

    def play(self) -> Play:
        """The whole play the steps made, or IllegalPlayError while steps are still due."""
        play = self._complete_play()
        if play is None:
            raise IllegalPlayError("The turn is not finished: more checkers must move.")
        return play

    def current(self) -> Position:
        """The board after the steps made so far, still the mover's view."""
        position = self.position
        mine = bytearray(position._mine)
        theirs = bytearray(position._theirs)
        for source, target in self.made:
            mine[source] -= 1
            mine[target] += 1
            if target and theirs[25 - target] == 1:
                theirs[25 - target] = 0
                theirs[BAR] += 1
        return Position._make(bytes(mine), bytes(theirs))

    def _complete_play(self) -> Play | None:
        if not self._plays:
            return _dance(self.position) if not self.made else None
        for path, play in self._plays:
            if path == self.made:
                return play
        return None


def _dance(position: Position) -> Play:
    return Play(position, (), position.flip())


def _orderings(
    position: Position, dice: Dice
) -> tuple[tuple[tuple[tuple[int, int], ...], Play], ...]:
    """Every order of steps that makes each legal play, with that play."""
    plays = legal_plays(position, dice)
    if not plays:
        return ()
    by_result = {play.result: play for play in plays}
    length = len(plays[0].steps)
    a, b = dice
    dice_left = [a] * 4 if a == b else [a, b]
    paths: list[tuple[tuple[tuple[int, int], ...], Play]] = []
    me = bytearray(position._mine)
    theirs = bytearray(position._theirs)
    path: list[tuple[int, int]] = []

    def walk(remaining: list[int], outside: int) -> None:
        if len(path) == length:
            result = Position._make(bytes(theirs), bytes(me))
            play = by_result.get(result)
            if play is not None:
                paths.append((tuple(path), play))
            return
        rev = bytearray(theirs[::-1])
        tried = set()
        for i, die in enumerate(remaining):
            if die in tried:
                continue
            tried.add(die)
            sources = (BAR,) if me[BAR] else range(24, 0, -1)
            for source in sources:
                if not me[source]:
                    continue
                target = _target(me, rev, source, die, outside)
                if target < 0:
                    continue
                hit = target > 0 and theirs[25 - target] == 1
                me[source] -= 1
                me[target] += 1
                if hit:
                    theirs[25 - target] = 0
                    theirs[BAR] += 1
                path.append((source, target))
                walk(remaining[:i] + remaining[i + 1 :], outside - (source > 6 and target <= 6))
                path.pop()
                if hit:
                    theirs[BAR] -= 1
                    theirs[25 - target] = 1
                me[target] -= 1
                me[source] += 1

    walk(dice_left, sum(me[7:]))
    unique = dict.fromkeys(paths)
    return tuple(unique)


def _name(point: int) -> str:
    return "the bar" if point == BAR else "off" if point == OFF else f"point {point}"


from . import notation as _notation  # noqa: E402  (notation formats Plays)
