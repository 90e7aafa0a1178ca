"""FIBS board strings: the ``board:...`` line of the FIBS client protocol (CLIP, "boardstyle
3"), with GNU Backgammon's extensions, read into and written from a typed state.

The line is 53 fields separated by colons: ``board``, the player's and the opponent's names,
the match length (9999 on FIBS for an unlimited match, 0 in gnubg's money sessions), both
scores, 26 numbers for the board, whose turn it is, both players' dice, the cube, whether each
player may double, whether a double was just offered, the player's colour and direction, the
home and bar indices, checkers borne off and on the bar for each, and four last fields. The
"player" is the side of ``colour``: on the board, numbers of that sign are the player's
checkers, the others the opponent's; ``direction`` -1 means the player moves from 24 down to 1.
:class:`FibsBoard` holds the fields exactly as written, so a line reads and writes back the
same; :class:`BoardState` is what they mean, seen from the side on roll.

GNU Backgammon (1.07, as Debian ships it) writes these lines to its external players
(``set player N external HOST:PORT``) with its own conventions, which this module reads and
writes (checked against the lines Debian's gnubg sends, in ``tests/data/fibs``):

* the player (colour 1, direction -1, home 0, bar 25) is always gnubg's player 1, and the
  turn is the colour of the side on roll; while a double waits for its answer the side on
  roll is the doubler, the cube shows its value before the double, and the doubled field is 1;
* the names and scores are listed the other way round (the opponent's first) except while a
  double waits for its answer: :attr:`ScoreOrder.GNUBG_EXTERNAL` reads and writes them so;
* the on-bar fields are always 0 (the bars are read from board indices ``bar`` and ``home``);
* the last two fields say where a match stands about the Crawford rule: 0 and 0 in the
  Crawford game, 1 and 1 after it, 0 and 1 otherwise (and in money play).

>>> line = ("board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:"
...         "6:3:6:3:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")
>>> board = parse_board(line)
>>> str(board) == line
True
>>> state = board.state(ScoreOrder.GNUBG_EXTERNAL)
>>> state.on_roll, state.dice, state.position == Position.initial()
(<FibsSide.PLAYER: 'player'>, (6, 3), True)
>>> state.cube.match
MatchScore(length=3, score=(0, 0), crawford=False)
>>> state.board(ScoreOrder.GNUBG_EXTERNAL) == board
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

from ..cube import MAX_MATCH_LENGTH, CubeContext, CubeOwner, MatchScore
from ..dice import Dice, check_dice
from ..errors import BackgammonError
from ..position import Position

#: The match length FIBS writes for an unlimited match (money play).
UNLIMITED = 9999
#: How many fields a board line has, ``board`` included.
FIELDS = 53


class FibsBoardError(BackgammonError):
    """A board line that is not one FIBS or GNU Backgammon writes, or says nothing playable."""


class FibsSide(StrEnum):
    """One of the two sides of a board line: the player (the side of ``colour``) or the
    opponent."""

    PLAYER = "player"
    OPPONENT = "opponent"

    @property
    def other(self) -> FibsSide:
        """The other side."""
        return FibsSide.OPPONENT if self is FibsSide.PLAYER else FibsSide.PLAYER


class ScoreOrder(StrEnum):
    """Whose name and score come first: FIBS's order (the player's), or the order GNU
    Backgammon 1.07 writes for its external players (the opponent's, except while a double
    waits for its answer)."""

    FIBS = "fibs"
    GNUBG_EXTERNAL = "gnubg external"


@dataclass(frozen=True)
class FibsBoard:
    """The fields of a ``board:`` line, in order, as written (see the module's docstring)."""

    player: str
    opponent: str
    match_length: int
    player_score: int
    opponent_score: int
    board: tuple[int, ...]
    turn: int
    player_dice: tuple[int, int]
    opponent_dice: tuple[int, int]
    cube: int
    player_may_double: int
    opponent_may_double: int
    was_doubled: int
    colour: int
    direction: int
    home: int
    bar: int
    player_off: int
    opponent_off: int
    player_on_bar: int
    opponent_on_bar: int
    can_move: int
    forced_move: int
    did_crawford: int
    redoubles: int

    def __str__(self) -> str:
        values: list[object] = [self.player, self.opponent, self.match_length,
                                self.player_score, self.opponent_score, *self.board]
        for field in fields(self)[6:]:
            value = getattr(self, field.name)
            values.extend(value if isinstance(value, tuple) else [value])
        return "board:" + ":".join(str(value) for value in values)

    def state(self, order: ScoreOrder = ScoreOrder.FIBS) -> BoardState:
        """What the line means, seen from the side on roll; a FibsBoardError if it says
        nothing playable (a game over, a board with no side on roll, impossible counts).
        ``order`` says whose name and score come first."""
        if self.colour not in (1, -1) or self.direction not in (1, -1):
            raise FibsBoardError(
                f"The colour and the direction are 1 or -1; got {self.colour} and "
                f"{self.direction}."
            )
        if self.turn not in (1, -1):
            raise FibsBoardError("The board has no side on roll (turn 0: the game is over).")
        pending = self.was_doubled != 0
        names, scores = (self.player, self.opponent), (self.player_score, self.opponent_score)
        if order is ScoreOrder.GNUBG_EXTERNAL and not pending:
            names, scores = names[::-1], (scores[1], scores[0])
        mine, theirs = _sides(self)
        on_roll = FibsSide.PLAYER if self.turn == self.colour else FibsSide.OPPONENT
        dice = self.player_dice if on_roll is FibsSide.PLAYER else self.opponent_dice
        if dice == (0, 0):  # gnubg reads the other side's dice where the roller's are blank
            dice = self.opponent_dice if on_roll is FibsSide.PLAYER else self.player_dice
        owner = _owner(self.player_may_double, self.opponent_may_double)
        if on_roll is FibsSide.OPPONENT:
            mine, theirs, scores = theirs, mine, (scores[1], scores[0])
            owner = {CubeOwner.ON_ROLL: CubeOwner.OPPONENT,
                     CubeOwner.OPPONENT: CubeOwner.ON_ROLL}.get(owner, owner)
        try:
            position = Position(mine, theirs)
            match = _match(self, scores)
            cube = CubeContext(self.cube, owner, match)
            rolled = None if dice == (0, 0) else check_dice(dice)
        except FibsBoardError:
            raise
        except BackgammonError as exc:
            raise FibsBoardError(f"The board describes no game to play: {exc}") from exc
        if position.is_game_over():
            raise FibsBoardError("The board has no game left: a side has borne off all.")
        return BoardState(position, on_roll, rolled, cube, pending, names,
                          self.colour, self.direction)


@dataclass(frozen=True)
class BoardState:
    """What a board line says, seen from the side on roll: the ``position`` (its view), which
    side is on roll, its ``dice`` (None before the roll), the ``cube`` as it sees it (the
    value before a double that waits for its answer; the match score, the side on roll's
    first, and the Crawford game), whether a double waits for the other side's answer, the
    ``names`` (the player's, the opponent's) and the player's ``colour`` and ``direction``."""

    position: Position
    on_roll: FibsSide
    dice: Dice | None
    cube: CubeContext
    double_pending: bool = False
    names: tuple[str, str] = ("player", "opponent")
    colour: int = 1
    direction: int = -1

    @property
    def to_act(self) -> FibsSide:
        """The side whose decision the board waits for: the side on roll, or the other side
        while a double waits for its answer."""
        return self.on_roll.other if self.double_pending else self.on_roll

    def board(self, order: ScoreOrder = ScoreOrder.FIBS) -> FibsBoard:
        """The line's fields for this state, written as GNU Backgammon writes them (both
        sides' dice the same, the on-bar fields 0)."""
        mine, theirs = self.position.mine, self.position.theirs
        match, owner = self.cube.match, self.cube.owner
        scores = (0, 0) if match is None else match.score
        if self.on_roll is FibsSide.OPPONENT:
            mine, theirs, scores = theirs, mine, (scores[1], scores[0])
            owner = {CubeOwner.ON_ROLL: CubeOwner.OPPONENT,
                     CubeOwner.OPPONENT: CubeOwner.ON_ROLL}.get(owner, owner)
        names = self.names
        if order is ScoreOrder.GNUBG_EXTERNAL and not self.double_pending:
            names, scores = names[::-1], (scores[1], scores[0])
        board = [0] * 26
        for point in range(1, 26):
            if mine[point]:
                board[_index(point, self.direction)] = self.colour * mine[point]
            if theirs[point]:
                board[_index(point, -self.direction)] = -self.colour * theirs[point]
        turn = self.colour if self.on_roll is FibsSide.PLAYER else -self.colour
        dice = (0, 0) if self.dice is None else self.dice
        post = 1 if match is not None and match.post_crawford else 0
        no_crawford = 0 if match is not None and match.crawford else 1
        return FibsBoard(
            names[0], names[1], 0 if match is None else match.length, scores[0], scores[1],
            tuple(board), turn, dice, dice, self.cube.value,
            int(owner is not CubeOwner.OPPONENT), int(owner is not CubeOwner.ON_ROLL),
            int(self.double_pending), self.colour, self.direction,
            _index(0, self.direction), _index(25, self.direction), mine[0], theirs[0], 0, 0,
            0, 0, post, no_crawford,
        )


def parse_board(text: str) -> FibsBoard:
    """The fields of a ``board:`` line (trailing spaces, a newline and the NUL gnubg sends
    after it are ignored), or a FibsBoardError that says what is wrong.

    >>> parse_board("board:a:b:1")
    Traceback (most recent call last):
    ...
    backgammon.formats.fibs.FibsBoardError: A board line has 53 fields separated by colons; got 4.
    """
    line = text.strip().strip("\0").strip()
    parts = line.split(":")
    if len(parts) != FIELDS:
        raise FibsBoardError(
            f"A board line has {FIELDS} fields separated by colons; got {len(parts)}."
        )
    if parts[0] != "board":
        raise FibsBoardError(f"A board line starts with 'board:'; got {parts[0][:20]!r}.")
    try:
        numbers = [int(part) for part in parts[3:]]
    except ValueError:
        raise FibsBoardError(
            "After the two names, a board line holds whole numbers only."
        ) from None
    length, score, opponent_score = numbers[:3]
    board, rest = tuple(numbers[3:29]), numbers[29:]
    return FibsBoard(
        parts[1], parts[2], length, score, opponent_score, board, rest[0],
        (rest[1], rest[2]), (rest[3], rest[4]), *rest[5:],
    )


def read_board(text: str, order: ScoreOrder = ScoreOrder.FIBS) -> BoardState:
    """The state a ``board:`` line describes (:func:`parse_board`, then
    :meth:`FibsBoard.state`)."""
    return parse_board(text).state(order)


def write_board(state: BoardState, order: ScoreOrder = ScoreOrder.FIBS) -> str:
    """The ``board:`` line of ``state``.

    >>> state = BoardState(Position.initial(), FibsSide.OPPONENT, (3, 1), CubeContext(2))
    >>> read_board(write_board(state)) == state
    True
    """
    return str(state.board(order))


def _index(point: int, direction: int) -> int:
    """The board index of a side's own ``point`` (0 off, 25 its bar), for its direction."""
    return point if direction < 0 else 25 - point


def _sides(board: FibsBoard) -> tuple[list[int], list[int]]:
    """The player's and the opponent's 26 counts (off, points 1..24, bar), each on its own
    numbering; a checker's side is the sign of its number."""
    mine, theirs = [0] * 26, [0] * 26
    for point in range(1, 26):
        for counts, sign, direction in ((mine, 1, board.direction),
                                        (theirs, -1, -board.direction)):
            value = board.board[_index(point, direction)] * board.colour * sign
            if point == 25:
                value = abs(value)  # FIBS leaves the sign of a bar's count to the reader
            if value > 0:
                counts[point] = value
    for counts, off in ((mine, board.player_off), (theirs, board.opponent_off)):
        if off < 0:
            raise FibsBoardError(f"A side has {off} checkers borne off.")
        counts[0] = off
    return mine, theirs


def _owner(player_may: int, opponent_may: int) -> CubeOwner:
    """The cube's owner, from the player's view, by the may-double fields (gnubg's reading:
    both or neither may double: the cube is in the centre)."""
    if bool(player_may) == bool(opponent_may):
        return CubeOwner.CENTRE
    return CubeOwner.ON_ROLL if player_may else CubeOwner.OPPONENT


def _match(board: FibsBoard, scores: tuple[int, int]) -> MatchScore | None:
    """The match score, the side on roll's first (None in money play), with the Crawford
    game read from the last two fields as gnubg writes and reads them."""
    length = board.match_length
    if length in (0, UNLIMITED):
        return None
    if not 1 <= length <= MAX_MATCH_LENGTH:
        raise FibsBoardError(
            f"A match is to 1 to {MAX_MATCH_LENGTH} points (or {UNLIMITED}, unlimited); "
            f"got {length}."
        )
    one_away = length - 1 in scores
    crawford = one_away and not (board.did_crawford or board.redoubles)
    return MatchScore(length, scores, crawford)


__all__ = [
    "FIELDS",
    "UNLIMITED",
    "BoardState",
    "FibsBoard",
    "FibsBoardError",
    "FibsSide",
    "ScoreOrder",
    "parse_board",
    "read_board",
    "write_board",
]
