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
from typing import Any, NamedTuple

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
        return _notation.format_play(self)

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
            else:
                sources = points if not t1 or t1 in points else [*points, t1]
            out1 = outside - (s1 > 6 and t1 <= 6)
            played_both = False
            for s2 in sources:
                if not me[s2]:
                    continue
                t2 = _target(me, rev, s2, second, out1)
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
    entered: tuple[_RawStep, ...] = ()
    if me[BAR]:
        entry = BAR - die
        if rev[entry] > 1:
            return {}
        hit = rev[entry] == 1
        for _ in range(min(me[BAR], 4)):
            me[BAR] -= 1
            me[entry] += 1
            code += _DELTA[BAR][entry]
            entered += ((BAR, entry, hit),)
        if hit:
            code += _HIT[entry]
            rev[entry] = 0
        if me[BAR] or len(entered) == 4:
            return {code: entered}
    # Steps of one die can be reordered so that their sources never rise, so the search takes
    # sources in that order and meets each combination of checkers once. The sources are the
    # points a checker stands on or can reach by open points, that have an open point (or the
    # tray) one die lower.
    left = 4 - len(entered)
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
    sources = sorted(reachable, reverse=True)
    # For each source: the target (0 = off), the change of the result int, and the step.
    moves = []
    for source in sources:
        target = max(source - die, OFF)
        hit = target > 0 and rev[target] == 1
        moves.append((source, target, _DELTA[source][target] + (_HIT[target] if hit else 0),
                      (source, target, hit)))
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


class Turn:
    """A turn played one checker step at a time, for click-to-move interfaces.

    Every step offered can still be completed into a legal whole play, so a first step that
    would break the rule to use both dice, or the larger die, is never offered.

    >>> from backgammon import Position
    >>> turn = Position.initial().turn((6, 5))
    >>> turn.legal_steps()
    [(24, 18), (13, 8), (13, 7), (8, 3), (8, 2)]
    >>> turn = turn.step(24, 18).step(18, 13)
    >>> turn.is_complete, str(turn.play())
    (True, '24/13')
    """

    __slots__ = ("_node", "_root", "dice", "made", "plays", "position")

    def __init__(self, position: Position, dice: Dice) -> None:
        self.position = position
        self.dice = dice
        self.made: tuple[tuple[int, int], ...] = ()
        #: The turn's legal plays (:func:`legal_plays`), found with its steps.
        self.plays: list[Play]
        self._root, self.plays = _step_tree(position, dice)
        self._node = self._root

    def _with(self, made: tuple[tuple[int, int], ...]) -> Turn:
        turn = _new(Turn)
        turn.position = self.position
        turn.dice = self.dice
        turn.made = made
        turn.plays = self.plays
        turn._root = self._root
        node = self._root
        for move in made:
            node = node[move]
        turn._node = node
        return turn

    def legal_steps(self) -> list[tuple[int, int]]:
        """The (from, to) steps that may come next; empty when the turn is complete."""
        return sorted((move for move in self._node if move is not None), reverse=True)

    def step(self, from_point: int, to_point: int) -> Turn:
        """The turn with one more step made; IllegalPlayError if it is not offered."""
        move = (from_point, to_point)
        if move not in self._node or move is None:
            offered = ", ".join(f"{a}/{b}" for a, b in self.legal_steps()) or "none"
            raise IllegalPlayError(
                f"Moving a checker from {_name(from_point)} to {_name(to_point)} is not allowed "
                f"here; the steps allowed are: {offered}."
            )
        return self._with((*self.made, move))

    def undo(self) -> Turn:
        """The turn with its last step taken back (unchanged when no step was made)."""
        return self._with(self.made[:-1])

    @property
    def is_complete(self) -> bool:
        """True when the steps made form a whole legal play (including a dance: no steps)."""
        return None in self._node

    def play(self) -> Play:
        """The whole play the steps made, or IllegalPlayError while steps are still due."""
        play = self._node.get(None)
        if play is None:
            raise IllegalPlayError("The turn is not finished: more checkers must move.")
        return play  # type: ignore[no-any-return]

    def current(self) -> Position:
        """The board after the steps made so far, still the mover's view."""
        position = self.position
        mine = bytearray(position.mine_bytes)
        theirs = bytearray(position.theirs_bytes)
        for source, target in self.made:
            mine[source] -= 1
            mine[target] += 1
            if target and theirs[25 - target] == 1:
                theirs[25 - target] = 0
                theirs[BAR] += 1
        return Position._make(bytes(mine), bytes(theirs))

    def dice_used(self) -> tuple[int, ...]:
        """The die each step made so far used, in order (:func:`dice_of_steps`).

        >>> Position.initial().turn((6, 5)).step(13, 7).dice_used()
        (6,)
        """
        return dice_of_steps(self.dice, self.made)

    def dice_left(self) -> tuple[int, ...]:
        """The dice that no step made has used, highest first (a double is four dice). A
        complete turn keeps here a die that could not be played.

        >>> Position.initial().turn((3, 3)).step(8, 5).dice_left()
        (3, 3, 3)
        """
        return tuple(face for face, used in self.dice_faces() if not used)

    def dice_faces(self) -> tuple[tuple[int, bool], ...]:
        """Every die of the roll, highest first (a double is four dice), each with whether a
        step made has used it: the dice as a board shows them.

        >>> Position.initial().turn((5, 6)).step(13, 8).dice_faces()
        ((6, False), (5, True))
        """
        left = list(self.dice_used())
        faces = []
        for face in _faces(self.dice):
            used = face in left
            if used:
                left.remove(face)
            faces.append((face, used))
        return tuple(faces)

    def completions(self) -> dict[Position, tuple[Step, ...]]:
        """For each play the steps made can still be completed into (keyed by its resulting
        position), one way to complete it: the steps still to make, hits marked. A complete
        turn maps its play to no steps.

        >>> turn = Position.initial().turn((6, 5)).step(24, 18)
        >>> sorted(str(rest[0].from_point) + "/" + str(rest[0].to_point)
        ...        for rest in turn.completions().values())
        ['13/8', '18/13', '8/3']
        """
        theirs = self.current().theirs_bytes
        blots = {point for point in range(1, 25) if theirs[25 - point] == 1}
        ways: dict[Position, tuple[Step, ...]] = {}

        def walk(node: _StepTree, hit: frozenset[int], rest: tuple[Step, ...]) -> None:
            play = node.get(None)
            if play is not None:
                ways.setdefault(play.result, rest)
                return
            for move in sorted((move for move in node if move is not None), reverse=True):
                source, target = move
                hits = target in blots and target not in hit
                walk(  # noqa: F821  (deleted once done)
                    node[move],
                    hit | {target} if hits else hit,
                    (*rest, Step(source, target, hits)),
                )

        walk(self._node, frozenset(), ())
        del walk  # a cycle otherwise (see dice_of_steps)
        return ways


def dice_of_steps(dice: Dice, steps: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The die each of ``steps`` used: legal steps of one turn with ``dice``, in the order
    made, as (from, to) pairs or :class:`Step` s. A step uses the die of its length, or, a
    checker borne off from below the die's number, a larger die: the smallest that lets the
    later steps use theirs. IllegalPlayError for steps that the dice cannot make.

    >>> dice_of_steps((6, 4), [(3, 0), (5, 1)]), dice_of_steps((6, 4), [(3, 0), (5, 0)])
    ((6, 4), (4, 6))
    """

    def assign(index: int, left: list[int]) -> tuple[int, ...] | None:
        if index == len(steps):
            return ()
        source, target = steps[index][0], steps[index][1]
        distance = source - target
        for face in sorted(set(left), key=lambda face: (face != distance, face)):
            if face == distance or (target == OFF and face > distance):
                rest = list(left)
                rest.remove(face)
                tail = assign(index + 1, rest)  # noqa: F821  (deleted once done)
                if tail is not None:
                    return (face, *tail)
        return None

    used = assign(0, _faces(dice))
    # The recursive closure refers to itself through its cell, a cycle: cut, it is freed at
    # once with all it holds rather than left to the cycle collector (whose collections of
    # such garbage paused a busy server for up to a tenth of a second).
    del assign
    if used is None:
        made = " ".join(f"{step[0]}/{step[1]}" for step in steps)
        raise IllegalPlayError(f"The steps {made} cannot be made with {dice[0]}-{dice[1]}.")
    return used


def _faces(dice: Dice) -> list[int]:
    """The dice of a roll as they are played: a double four times, else the higher first."""
    high, low = max(dice), min(dice)
    return [high] * 4 if high == low else [high, low]


# A tree of the orders of steps that make legal plays: each step (from, to) leads to the
# steps that may follow it, and the key None to the Play that the steps so far complete.
_StepTree = dict[Any, Any]


def _step_tree(position: Position, dice: Dice) -> tuple[_StepTree, list[Play]]:
    """Every order of single steps that makes a legal play, as a tree; and the legal plays.

    Orders that meet in one board with the same dice left (a double's checkers moved in
    another order, say) share the subtree from there: it is found once, and the tree is a
    graph that is only ever read.
    """
    plays = legal_plays(position, dice)
    if not plays:
        return {None: Play.empty(position)}, plays
    # The plays by the sides they leave, as one string (the result is the opponent's view).
    by_result = {play.result.mine_bytes + play.result.theirs_bytes: play for play in plays}
    length = len(plays[0]._raw)
    a, b = dice
    faces = [a] * 4 if a == b else [a, b]
    done = len(faces) - length  # the dice left once a play is made
    me = bytearray(position.mine_bytes)
    theirs = bytearray(position.theirs_bytes)
    found: dict[bytes, _StepTree] = {}  # the subtrees found, by board and dice left

    def walk(remaining: list[int], outside: int) -> _StepTree:
        """The steps from the board now that lead to a legal play with the dice
        ``remaining``, each with its subtree; empty when none does."""
        if len(remaining) == done:
            play = by_result.get(bytes(theirs + me))
            return {} if play is None else {None: play}
        key = bytes(me + theirs) + bytes(remaining)
        node = found.get(key)
        if node is not None:
            return node
        node = {}
        rev = theirs[::-1]
        for i, die in enumerate(remaining):
            if die in remaining[:i]:
                continue  # the same number again gives the same steps
            rest = remaining[:i] + remaining[i + 1 :]
            for source in (BAR,) if me[BAR] else range(24, 0, -1):
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
                child = walk(rest, outside - (source > 6 and target <= 6))  # noqa: F821
                if child:
                    # Bearing off from the highest point with either die is one step.
                    other = node.get((source, target))
                    node[source, target] = child if other is None else _merged(other, child)
                if hit:
                    theirs[BAR] -= 1
                    theirs[25 - target] = 1
                me[target] -= 1
                me[source] += 1
        found[key] = node
        return node

    root = walk(faces, sum(me[7:]))
    del walk  # a cycle otherwise (see dice_of_steps)
    return root, plays


def _merged(one: _StepTree, other: _StepTree) -> _StepTree:
    """Two subtrees as one, made anew (either may be shared)."""
    if one is other:
        return one
    merged = dict(one)
    for move, subtree in other.items():
        mine = merged.get(move)
        merged[move] = subtree if mine is None or move is None else _merged(mine, subtree)
    return merged


def _name(point: int) -> str:
    return "the bar" if point == BAR else "off" if point == OFF else f"point {point}"


from . import notation as _notation  # noqa: E402  (notation formats Plays)
