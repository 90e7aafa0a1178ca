"""What the state machine (:mod:`.machine`) plays on: the type of board (``P``: backgammon's
:class:`~backgammon.Position` or any game's :class:`~backgammon.games.Board`), the type of a
play as each game keeps it (``X``, for its history), and the turns and plays made on it, as
protocols both kinds meet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, Self, TypeVar

from ..games import Board, GamePlay
from ..moves import Play, Step
from ..position import Position

#: The board a game is played on: backgammon's Position, or any game's Board.
P = TypeVar("P", Position, Board)
#: A whole turn's play on it, as the game keeps it: backgammon's Play, or any game's GamePlay.
X = TypeVar("X", Play, GamePlay)
B = TypeVar("B", Position, Board, covariant=True)


class PlayOn(Protocol[B]):
    """A whole turn's play on a board of type ``B``: its steps and the board it leaves (the
    opponent on roll): :class:`~backgammon.Play`, :class:`~backgammon.games.GamePlay`."""

    @property
    def steps(self) -> tuple[Step, ...]: ...

    @property
    def result(self) -> B: ...


class TurnOn(Protocol[B]):
    """A turn made step by step on a board of type ``B``: :class:`~backgammon.Turn`,
    :class:`~backgammon.games.turn.GameTurn`."""

    @property
    def made(self) -> tuple[tuple[int, int], ...]: ...

    @property
    def plays(self) -> Sequence[PlayOn[B]]: ...

    @property
    def is_complete(self) -> bool: ...

    def step(self, from_point: int, to_point: int) -> Self: ...

    def undo(self) -> Self: ...

    def restarted(self) -> Self: ...

    def play(self) -> PlayOn[B]: ...
