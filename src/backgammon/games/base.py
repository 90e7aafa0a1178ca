"""The interface every game's rules object gives, and the search of whole-turn plays that the
games other than backgammon share.

A game's rules say where the checkers start, how the sides travel, what landing on a lone
opposing checker does, which points may not be blocked, how checkers bear off, how a game is
scored and whether the cube is used. The game, the bot and the page are to ask the rules
object (they do not yet: issue 38's next steps), so that none of them knows any one game.

>>> from backgammon.games import rules_for
>>> game = rules_for("plakoto")
>>> game.travel, game.lone_checker, game.cube, game.points[Ending.GAMMON]
(<Travel.OPPOSITE: 'opposite'>, <LoneChecker.PIN: 'pin'>, False, 2)
>>> len(game.legal_plays(game.initial(), (6, 5)))
2
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Protocol

from ..dice import Dice, check_dice
from ..errors import InvalidPositionError
from ..moves import Step
from ..position import BAR, OFF, Side
from .board import Board, Travel


class LoneChecker(StrEnum):
    """What a checker that lands on a lone opposing checker does."""

    HIT = "hit"  # sends it to the bar (backgammon, Tavla, Portes)
    PIN = "pin"  # pins it where it stands until the pinner leaves (Plakoto)
    HOLDS = "holds"  # may not land: one checker holds a point (Fevga, Long Nardy)


class Ending(StrEnum):
    """How a game ended; each game's ``points`` says what each is worth (before the cube)."""

    SINGLE = "single"  # the loser has borne off a checker
    GAMMON = "gammon"  # the loser has borne off none (Tavli's "double", Nardy's "mars")
    BACKGAMMON = "backgammon"  # ... and has a checker on the bar or in the winner's home
    MOTHER = "mother"  # Plakoto: the loser's last checker on its starting point was pinned
    DRAW = "draw"  # Plakoto: both mothers pinned


class Stage(StrEnum):
    """Where a turn stands: which dice the player on roll plays next."""

    THROW = "throw"  # dice just thrown: the turn's first throw, or a throw again
    NAMED_DOUBLE = "named double"  # Acey-deucey: the double the player named after a 1-2


@dataclass(frozen=True)
class Result:
    """The end of a game: the winner (None for a draw), how, and the points it scores."""

    winner: Side | None
    ending: Ending
    points: int


class HasSteps(Protocol):
    """A play that knows its steps (the core's :class:`~backgammon.Play`)."""

    @property
    def steps(self) -> tuple[Step, ...]: ...


class GamePlay:
    """One whole turn: the steps in an order they can be made (``hit`` marks a step that hits
    or pins) and the resulting board, the opponent on roll. Plays with the same result are one
    play."""

    __slots__ = ("_steps", "board", "result")

    board: Board
    result: Board

    def __init__(self, board: Board, steps: tuple[Step, ...] | HasSteps, result: Board) -> None:
        """A play from its board, its steps (or a core :class:`~backgammon.Play`, whose
        steps are read when first asked for) and its result."""
        self.board = board
        self._steps = steps
        self.result = result

    @property
    def steps(self) -> tuple[Step, ...]:
        """The checker steps, in an order in which they can be made."""
        steps = self._steps
        if not isinstance(steps, tuple):
            steps = self._steps = steps.steps
        return steps

    def __repr__(self) -> str:
        return f"<GamePlay {self}>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GamePlay):
            return NotImplemented
        return self.board == other.board and self.result == other.result

    def __hash__(self) -> int:
        return hash(self.result)

    def __str__(self) -> str:
        """The steps one by one, ``*`` where a step hits or pins: ``24/18 18/13*``."""
        if not self.steps:
            return "no move"
        return " ".join(f"{_name(s.from_point)}/{_name(s.to_point)}{'*' if s.hit else ''}"
                        for s in self.steps)


class GameRules(ABC):
    """The rules of one game on a backgammon board, behind one interface.

    The class attributes describe the game (for the page, the help and the setup); the methods
    play it. Boards are seen from the player on roll (:mod:`backgammon.games.board`).
    """

    #: The game's name, as ``rules_for`` takes it.
    name: str
    #: How the two sides travel; it fixes how their point numbers meet.
    travel: ClassVar[Travel]
    #: What landing on a lone opposing checker does.
    lone_checker: ClassVar[LoneChecker]
    #: Whether the doubling cube is used.
    cube: ClassVar[bool]
    #: Whether the winner of the opening roll throws both dice afresh for the first turn.
    opening_reroll: ClassVar[bool]
    #: The points each ending scores, before the cube (only the endings the game knows).
    points: ClassVar[Mapping[Ending, int]]
    #: The rules on blocking, in a sentence for the help ("" when any point may be blocked).
    blocking: ClassVar[str] = ""
    #: Checkers a side.
    checkers: int = 15
    #: Whether the checkers start off the board and enter as from the bar (Acey-deucey).
    enters: ClassVar[bool] = False

    @abstractmethod
    def initial(self) -> Board:
        """The starting board (the first player on roll)."""

    @abstractmethod
    def legal_plays(self, board: Board, dice: Dice) -> list[GamePlay]:
        """Every distinct legal whole-turn play of ``dice``; [] when no checker can move."""

    @abstractmethod
    def outcome(self, board: Board) -> Result | None:
        """Who has won, how and for how many points; None while the game goes on."""

    def next_stage(self, play: GamePlay, dice: Dice, stage: Stage) -> Stage | None:
        """What the same player does after ``play`` of ``dice`` at ``stage``: None when the
        turn passes to the opponent (every game but Acey-deucey); ``Stage.NAMED_DOUBLE``
        when they name a double and play it, ``Stage.THROW`` when they throw again. The
        player goes on from ``play.result.flip()``."""
        return None

    def check(self, board: Board) -> Board:
        """``board`` if it can arise in this game, else InvalidPositionError saying why:
        both sides have the game's number of checkers, and no point holds both sides except
        a pinned lone checker under the pinner's."""
        for who, side in (("player on roll", board.mine), ("opponent", board.theirs)):
            if sum(side) != self.checkers:
                raise InvalidPositionError(
                    f"The {who} has {sum(side)} checkers; a side has {self.checkers} here."
                )
            if side[BAR] and self.lone_checker is not LoneChecker.HIT:
                raise InvalidPositionError(f"The {who} has checkers on the bar, which this "
                                           "game never sends there.")
        if (board.mine_waiting or board.theirs_waiting) and not self.enters:
            raise InvalidPositionError("In this game every checker starts on the board.")
        if board.mine_waiting > board.mine[BAR] or board.theirs_waiting > board.theirs[BAR]:
            raise InvalidPositionError("The checkers waiting to enter are counted on the bar.")
        if (board.mine_pinned or board.theirs_pinned) and self.lone_checker is not \
                LoneChecker.PIN:
            raise InvalidPositionError("This game pins no checkers.")
        for point in range(1, 25):
            other = self.travel.their_point(point)
            if board.mine[point] and board.theirs[other]:
                mine_under = board.mine_pinned >> point & 1
                theirs_under = board.theirs_pinned >> other & 1
                if mine_under == theirs_under:
                    raise InvalidPositionError(
                        f"Both sides have checkers on point {point} (the opponent's {other}), "
                        "and neither is pinned there."
                    )
            elif board.mine_pinned >> point & 1 or board.theirs_pinned >> other & 1:
                raise InvalidPositionError(f"A checker is pinned on point {point} with no "
                                           "checker on top of it.")
        return board

    def __repr__(self) -> str:
        return f"rules_for({self.name!r})"


class SearchedRules(GameRules):
    """Rules whose plays are found by a search over single checker steps.

    A game says which checkers may move (``_sources``) and where one moving by one die lands
    (``_step``); the search adds what every game here shares: the dice are separate moves, a
    double is four, a player uses as many dice as any legal play does, and when only one of
    two different dice can be used, the larger if it can.
    """

    #: Whether a double's steps may be searched highest source first: true when the order of
    #: one die's steps never changes what they may do (backgammon's rules; not a start rule
    #: or a head rule, where the first checker's steps let the next one leave).
    _doubles_in_source_order: ClassVar[bool] = False

    def _sources(self, start: Board, board: Board, memo: int) -> list[int]:
        """The points (25: the bar) a checker may move from now; by default every point with a
        checker of the mover's that is not pinned, the bar first and alone."""
        mine = board.mine
        if mine[BAR]:
            return [BAR]
        return [p for p in range(24, 0, -1) if mine[p] and not board.mine_pinned >> p & 1]

    @abstractmethod
    def _step(self, start: Board, dice: Dice, board: Board, memo: int, source: int,
              die: int) -> tuple[Board, int, bool] | None:
        """The board after one checker moves from ``source`` by ``die``, with the turn's memo
        (a game's note of what happened so far this turn) and whether the step hit or pinned;
        None when the step is not allowed. ``start`` is the board the turn began on, and
        ``dice`` its roll."""

    def legal_plays(self, board: Board, dice: Dice) -> list[GamePlay]:
        a, b = check_dice(dice)
        faces = (a, a, a, a) if a == b else (a, b)
        # A double's steps taken highest source first meet each set of steps once.
        ordered = a == b and self._doubles_in_source_order
        found: dict[Board, tuple[int, int, tuple[Step, ...]]] = {}
        seen: set[tuple[Board, int, tuple[int, ...], int]] = set()

        def walk(now: Board, memo: int, left: tuple[int, ...], steps: tuple[Step, ...],
                 largest: int, highest: int) -> None:
            key = (now, memo, left, highest)
            if key in seen:
                return
            seen.add(key)
            used = len(faces) - len(left)
            best = found.get(now)
            if best is None or (used, largest) > best[:2]:
                found[now] = (used, largest, steps)
            if not left:
                return
            sources = self._sources(board, now, memo)
            for index, die in enumerate(left):
                if die in left[:index]:
                    continue
                rest = left[:index] + left[index + 1:]
                for source in sources:
                    if source > highest:
                        continue
                    after = self._step(board, (a, b), now, memo, source, die)
                    if after is not None:
                        result, note, hit = after
                        target = max(source - die, OFF) if source != BAR else BAR - die
                        walk(result, note, rest,  # noqa: F821  (deleted once done)
                             (*steps, Step(source, target, hit)), max(largest, die),
                             source if ordered else BAR)

        walk(board, 0, faces, (), 0, BAR)
        del walk  # the closure refers to itself: cut the cycle
        most = max(used for used, _, _ in found.values())
        if most == 0:
            return []
        # RULES.md, Moving: use both dice if any play does; if only one can be used, the
        # larger when it can be.
        largest = max(top for used, top, _ in found.values() if used == most)
        return [GamePlay(board, steps, result.flip())
                for result, (used, top, steps) in found.items()
                if used == most and (most > 1 or top == largest)]


def may_bear_off(mine: bytes, pinned: int = 0) -> bool:
    """True when every checker of the mover's is in the home board (1..6) and none there is
    pinned."""
    return not any(mine[7:]) and not pinned & 0b1111110


def race_target(mine: bytes, source: int, die: int, pinned: int = 0) -> int:
    """Where a checker on ``source`` lands with ``die`` in a game without a bar: a point, or
    0 (off) when bearing off is allowed, or -1.

    RULES.md, Bearing off, as every game here has it: a die bears off a checker from its
    point, or from a lower point when no checker stands higher.

    >>> race_target(bytes([0, 1, 0, 1] + [0] * 23), 3, 5), race_target(bytes(26), 9, 3)
    (0, 6)
    """
    target = source - die
    if target > 0:
        return target
    if not may_bear_off(mine, pinned):
        return -1
    if target < 0 and any(mine[source + 1:7]):
        return -1
    return OFF


def moved(side: bytes, source: int, target: int) -> bytes:
    """``side`` with one checker moved from ``source`` to ``target``."""
    counts = bytearray(side)
    counts[source] -= 1
    counts[target] += 1
    return bytes(counts)


def land_hitting(mine: bytes, theirs: bytes, source: int,
                 target: int) -> tuple[bytes, bytes, bool] | None:
    """Both sides after the mover's checker goes from ``source`` to ``target`` (0: off) where
    a lone checker is hit, to the bar, and two close a point (backgammon's way, travelling
    against each other); and whether it hit. None where the point is closed.

    >>> land_hitting(bytes([0, 0, 1] + [0] * 23), bytes([0] * 24 + [1, 0]), 2, 1)[2]
    True
    """
    other = 25 - target
    if target and theirs[other] > 1:
        return None
    hit = bool(target) and theirs[other] == 1
    if hit:
        theirs = moved(theirs, other, BAR)
    return moved(mine, source, target), theirs, hit


def six_block_without_opponent_ahead(board: Board, travel: Travel) -> bool:
    """True when the mover holds six points in a row on the opponent's way with no opposing
    checker on the board beyond them (Long Nardy's and Fevga's forbidden block).

    The six points are counted along the opponent's path (their numbers), since it is the
    opponent they block; "beyond" is further along that path. Only the block nearest the end
    of their path matters: a checker beyond it is beyond every other.

    >>> b = Board.from_points({p: 1 for p in range(18, 24)} | {24: 9}, {24: 15})
    >>> six_block_without_opponent_ahead(b, Travel.SAME)
    True
    >>> b = Board.from_points({p: 1 for p in range(18, 24)} | {24: 9}, {24: 14, 1: 1})
    >>> six_block_without_opponent_ahead(b, Travel.SAME)
    False
    """
    mine = board.mine
    if mine.count(0, 1, 25) > 18:
        return False  # fewer than six points held
    # The mover's points in the opponent's order, their 1 first.
    row = mine[13:25] + mine[1:13] if travel is Travel.SAME else mine[24:0:-1]
    lowest = row.translate(_HELD).find(b"\x01" * 6)
    return lowest >= 0 and not any(board.theirs[1:lowest + 1])


#: Maps a count to 1 when a point is held, 0 when it is empty.
_HELD = bytes([0] + [1] * 255)


#: The opponent's number for each of the mover's points, both sides travelling the same way.
_SAME_WAY_THEIRS = (0, *(Travel.SAME.their_point(point) for point in range(1, 25)))


def same_way_step(board: Board, source: int, die: int) -> Board | None:
    """``board`` after its mover's checker on ``source`` moves ``die`` pips where both sides
    travel the same way (Fevga, Long Nardy): a point one opposing checker holds is closed,
    and no six points in a row may be held unless an opposing checker is already beyond
    them; None where the step may not be made."""
    mine, theirs = board.mine, board.theirs
    target = race_target(mine, source, die)
    if target < 0 or (target and theirs[_SAME_WAY_THEIRS[target]]):
        return None
    after = Board._make(moved(mine, source, target), theirs)
    if target and six_block_without_opponent_ahead(after, Travel.SAME):
        return None
    return after


def winner_by_bearing_off(board: Board, gammon_points: int = 2,
                          backgammon_points: int | None = None) -> Result | None:
    """The result when a side has borne off every checker: a single game (1 point) when the
    loser has borne off one, else a gammon (Tavli's double game, Nardy's mars), or, where the
    game scores one (``backgammon_points``), a backgammon when the loser also has a checker
    on the bar or in the winner's home board (travelling against each other)."""
    for winner, side, loser in ((Side.ON_ROLL, board.mine, board.theirs),
                                (Side.OPPONENT, board.theirs, board.mine)):
        if side[OFF] == sum(side):
            if loser[OFF]:
                return Result(winner, Ending.SINGLE, 1)
            if backgammon_points is not None and any(loser[19:26]):
                return Result(winner, Ending.BACKGAMMON, backgammon_points)
            return Result(winner, Ending.GAMMON, gammon_points)
    return None


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)
