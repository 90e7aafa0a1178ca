"""A turn of any game played one checker step at a time, as :class:`~backgammon.Turn` does
for backgammon: every order of single steps that makes one of the game's legal plays.

The plays are the rules' (``legal_plays``); the orders come from the same single steps the
rules' search takes (``_sources`` and ``_step``), kept only where they end in one of those
plays, so a step offered can always be completed.

>>> from backgammon.games import rules_for
>>> plakoto = rules_for("plakoto")
>>> turn = GameTurn(plakoto, plakoto.initial(), (6, 5))
>>> turn.legal_steps()
[(24, 19), (24, 18)]
>>> turn = turn.step(24, 18).step(18, 13)
>>> turn.is_complete, str(turn.play())
(True, '24/18 18/13')
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from ..dice import Dice, check_dice
from ..errors import IllegalPlayError
from ..position import BAR, OFF
from .base import GamePlay, SearchedRules
from .board import Board

# A tree of the orders of steps that make legal plays: each step (from, to) leads to the
# steps that may follow it, and the key None to the GamePlay the steps so far complete.
_StepTree = dict[Any, Any]


class GameTurn:
    """A turn of a game played one checker step at a time (the interface of
    :class:`~backgammon.Turn`, on a :class:`Board`)."""

    __slots__ = ("_node", "_root", "board", "dice", "made", "plays")

    def __init__(self, rules: SearchedRules, board: Board, dice: Dice) -> None:
        self.board = board
        self.dice = check_dice(dice)
        self.made: tuple[tuple[int, int], ...] = ()
        #: The turn's legal plays (the rules' ``legal_plays``).
        self.plays = rules.legal_plays(board, self.dice)
        self._root = _step_tree(rules, board, self.dice, self.plays)
        self._node = self._root

    def _with(self, made: tuple[tuple[int, int], ...]) -> GameTurn:
        turn = object.__new__(GameTurn)
        turn.board, turn.dice, turn.plays = self.board, self.dice, self.plays
        turn._root, turn.made = self._root, made
        node = self._root
        for move in made:
            node = node[move][0]
        turn._node = node
        return turn

    def legal_steps(self) -> list[tuple[int, int]]:
        """The (from, to) steps that may come next; empty when the turn is complete."""
        return sorted((move for move in self._node if move is not None), reverse=True)

    def step(self, from_point: int, to_point: int) -> GameTurn:
        """The turn with one more step made; IllegalPlayError if it is not offered."""
        move = (from_point, to_point)
        if move is None or move not in self._node:
            offered = ", ".join(f"{_name(a)}/{_name(b)}" for a, b in self.legal_steps())
            raise IllegalPlayError(
                f"Moving a checker from {_name(from_point)} to {_name(to_point)} is not allowed "
                f"here; the steps allowed are: {offered or 'none'}."
            )
        return self._with((*self.made, move))

    def undo(self) -> GameTurn:
        """The turn with its last step taken back (unchanged when no step was made)."""
        return self._with(self.made[:-1])

    def restarted(self) -> GameTurn:
        """The turn as it was rolled, no step made."""
        return self._with(())

    @property
    def is_complete(self) -> bool:
        """True when the steps made form a whole legal play (including no steps, when no
        checker can move)."""
        return None in self._node

    def play(self) -> GamePlay:
        """The whole play the steps made, or IllegalPlayError while steps are still due."""
        play = self._node.get(None)
        if play is None:
            raise IllegalPlayError("The turn is not finished: more checkers must move.")
        assert isinstance(play, GamePlay)
        return play

    def current(self) -> Board:
        """The board after the steps made so far, still the mover's view."""
        node, board = self._root, self.board
        for move in self.made:
            node, board = node[move]
        return board

    def parse(self, text: str) -> GamePlay:
        """The play written as its steps, ``24/18 18/13`` (``bar``, ``off``; ``*`` marks
        ignored; ``13/7(2)`` twice), made in any order; IllegalPlayError for anything else.

        >>> from backgammon.games import rules_for
        >>> fevga = rules_for("fevga")
        >>> str(GameTurn(fevga, fevga.initial(), (3, 3)).parse("21/18 24/21 18/15"))
        '24/21 21/18 18/15'
        """
        steps = _parse_steps(text)
        for order in _orders(steps):
            node = self._root
            for move in order:
                if move not in node:
                    break
                node = node[move][0]
            else:
                if None in node:
                    play = node[None]
                    assert isinstance(play, GamePlay)
                    return play
        options = ", ".join(sorted(str(play) for play in self.plays)) or "no move"
        raise IllegalPlayError(f"That is not a legal play of {self.dice[0]}-{self.dice[1]} "
                               f"here; the plays are: {options}.")


def _step_tree(rules: SearchedRules, board: Board, dice: Dice,
               plays: list[GamePlay]) -> _StepTree:
    """Every order of single steps that makes one of ``plays``, as a tree whose edges keep
    the board after each step: ``{(from, to): (subtree, board)}``, ``None: play`` at the end.

    Orders that meet on one board with the same dice left and the same note share the
    subtree from there: it is found once, and the tree is a graph that is only read.
    """
    if not plays:
        return {None: GamePlay(board, (), board.flip())}
    a, b = dice
    faces = (a, a, a, a) if a == b else (a, b)
    steps_a_play = len(plays[0].steps)
    by_result = {play.result: play for play in plays}
    found: dict[tuple[Board, int, tuple[int, ...]], _StepTree] = {}

    def walk(now: Board, memo: int, left: tuple[int, ...]) -> _StepTree:
        if len(faces) - len(left) == steps_a_play:
            play = by_result.get(now.flip())
            return {} if play is None else {None: play}
        key = (now, memo, left)
        node = found.get(key)
        if node is not None:
            return node
        node = {}
        sources = rules._sources(board, now, memo)
        for index, die in enumerate(left):
            if die in left[:index]:
                continue  # the same number again gives the same steps
            rest = left[:index] + left[index + 1:]
            for source in sources:
                after = rules._step(board, dice, now, memo, source, die)
                if after is None:
                    continue
                result, note, _ = after
                target = BAR - die if source == BAR else max(source - die, OFF)
                child = walk(result, note, rest)  # noqa: F821  (deleted once done)
                if child:
                    # Bearing off from the highest point with either die is one step.
                    other = node.get((source, target))
                    node[source, target] = (child if other is None
                                            else _merged(other[0], child), result)
        found[key] = node
        return node

    root = walk(board, 0, faces)
    del walk  # the closure refers to itself: cut the cycle
    return root


def _merged(one: _StepTree, other: _StepTree) -> _StepTree:
    """Two subtrees as one, made anew (either may be shared)."""
    if one is other:
        return one
    merged = dict(one)
    for move, edge in other.items():
        mine = merged.get(move)
        if mine is None or move is None:
            merged[move] = edge
        else:
            merged[move] = (_merged(mine[0], edge[0]), mine[1])
    return merged


def _parse_steps(text: str) -> list[tuple[int, int]]:
    """The (from, to) steps of a play written ``24/18 bar/22 6/off 13/7(2)``."""
    if not isinstance(text, str) or len(text) > 200:
        raise IllegalPlayError("A play is written as its steps, such as 24/18 18/13.")
    steps: list[tuple[int, int]] = []
    for word in text.lower().replace("*", "").split():
        times = 1
        if word.endswith(")") and "(" in word:
            word, _, count = word[:-1].partition("(")
            times = int(count) if count.isdigit() and 1 <= int(count) <= 4 else 0
        source, slash, target = word.partition("/")
        points = [_point(source, BAR), _point(target, OFF)]
        if not slash or times == 0 or None in points:
            raise IllegalPlayError(
                "A play is written as its steps, such as 24/18 18/13 (bar/22 enters, 6/off "
                "bears off, 13/7(2) moves two checkers)."
            )
        steps += [(points[0], points[1])] * times  # type: ignore[list-item]
    if len(steps) > 4:
        raise IllegalPlayError("A turn has at most four steps.")
    return steps


def _point(word: str, named: int) -> int | None:
    if word == ("bar" if named == BAR else "off"):
        return named
    return int(word) if word.isdigit() and 1 <= int(word) <= 24 else None


def _orders(steps: list[tuple[int, int]]) -> list[tuple[tuple[int, int], ...]]:
    """Every order of ``steps`` (at most 24)."""
    return list(dict.fromkeys(permutations(steps)))


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)
