"""Turns played one checker step at a time, for click-to-move interfaces: every order of
single steps that makes a legal play (:func:`backgammon.moves.legal_plays`), and the die each
step uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .dice import Dice
from .errors import IllegalPlayError
from .moves import Play, Step, legal_plays, target_of
from .position import BAR, OFF, Position

_new = object.__new__


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

    def restarted(self) -> Turn:
        """The turn with every step made taken back: as it was rolled.

        >>> Position.initial().turn((6, 5)).step(24, 18).restarted().made
        ()
        """
        return self._with(())

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
    a, b = dice
    faces = [a] * 4 if a == b else [a, b]
    search = _StepSearch(position, plays, len(faces) - len(plays[0]._raw))
    return search.walk(faces, sum(position.mine_bytes[7:])), plays


class _StepSearch:
    """The search of :func:`_step_tree`: the board it makes and unmakes steps on, and the
    subtrees found so far."""

    def __init__(self, position: Position, plays: list[Play], done: int) -> None:
        # The plays by the sides they leave, as one string (the result is the opponent's view).
        self.by_result = {play.result.mine_bytes + play.result.theirs_bytes: play
                          for play in plays}
        self.done = done  # the dice left once a play is made
        self.me = bytearray(position.mine_bytes)
        self.theirs = bytearray(position.theirs_bytes)
        self.found: dict[bytes, _StepTree] = {}  # the subtrees found, by board and dice left

    def walk(self, remaining: list[int], outside: int) -> _StepTree:
        """The steps from the board now that lead to a legal play with the dice
        ``remaining``, each with its subtree; empty when none does."""
        me, theirs = self.me, self.theirs
        if len(remaining) == self.done:
            play = self.by_result.get(bytes(theirs + me))
            return {} if play is None else {None: play}
        key = bytes(me + theirs) + bytes(remaining)
        node = self.found.get(key)
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
                target = target_of(me, rev, source, die, outside)
                if target < 0:
                    continue
                child = self._after_step(source, target, rest, outside)
                if child:
                    # Bearing off from the highest point with either die is one step.
                    other = node.get((source, target))
                    node[source, target] = child if other is None else _merged(other, child)
        self.found[key] = node
        return node

    def _after_step(self, source: int, target: int, rest: list[int], outside: int) -> _StepTree:
        """The subtree after the step from ``source`` to ``target`` (hitting a blot there),
        made on the board and unmade once it is found."""
        me, theirs = self.me, self.theirs
        hit = target > 0 and theirs[25 - target] == 1
        me[source] -= 1
        me[target] += 1
        if hit:
            theirs[25 - target] = 0
            theirs[BAR] += 1
        child = self.walk(rest, outside - (source > 6 and target <= 6))
        if hit:
            theirs[BAR] -= 1
            theirs[25 - target] = 1
        me[target] -= 1
        me[source] += 1
        return child


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
