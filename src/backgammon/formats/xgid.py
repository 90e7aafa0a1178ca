"""eXtreme Gammon's XGID: a position and its match context in one line of text.

An XGID is ten fields joined by colons, usually after the prefix ``XGID=``::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10
         position                   | | | |  | | | | max cube, 2**10
                                    | | | |  | | | match length, 0 for money
                                    | | | |  | | Crawford (match) / Jacoby + beaver (money)
                                    | | | |  | top player's score
                                    | | | |  bottom player's score
                                    | | | dice, or 00 / D / B / R
                                    | | turn: 1 bottom, -1 top
                                    | cube position: 1 bottom owns, 0 centred, -1 top owns
                                    cube value, 2**0

XG draws a board with one player at the bottom and one at the top, and the position string is
always in the bottom player's terms, whoever is on roll:

- character 0 is the top player's bar, characters 1 to 24 are the points numbered from the
  bottom player's side (the bottom player moves 24 -> 1), character 25 is the bottom player's
  bar;
- ``-`` is an empty point, ``A``..\\ ``P`` are 1 to 16 of the bottom player's checkers and
  ``a``..\\ ``p`` 1 to 16 of the top player's; whatever is not on the board is borne off.

So the bottom player's own point ``p`` is character ``p``, and the top player's own point ``q``
is character ``25 - q``. The turn field says who is on roll; :class:`XgidState` keeps the
position as the package does, seen from the player on roll: from the bottom player when
``turn`` is 1, from the top player when it is -1.

The other fields, as XG writes them and GNU Backgammon reads them (``SetXGID`` in gnubg's
``set.c``, ``PositionFromXG`` in ``positionid.c``):

- cube value: the exponent, the cube shows 2 to that power. While a double is offered it is
  the value before the double.
- cube position: 1 the bottom player owns the cube, 0 centred, -1 the top player owns it.
- turn: 1 the bottom player is on roll, -1 the top player. With ``D``, ``B`` or ``R`` it stays
  the player who doubled (gnubg: ``fMove`` is the turn field and ``fTurn = !fMove``).
- dice: two digits for the roll to play (kept in the order written); ``00`` the player on roll
  has not rolled (may double); ``D`` they doubled and the opponent must take or pass; ``B``
  they doubled and the opponent beavered; ``R`` they doubled, the opponent beavered and they
  raccooned.
- the two scores: the bottom player's, then the top player's.
- rules: in a match, 1 for the Crawford game, else 0; in a money game, 1 for the Jacoby rule
  plus 2 for beavers (0 to 3).
- match length: 0 for a money game.
- max cube: the exponent of the largest cube allowed (10 is 1024). gnubg ignores it.

>>> state = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
>>> state.position == Position.initial(), state.dice, state.jacoby, state.beaver
(True, (5, 2), True, True)
>>> encode_xgid(state)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from ..cube import is_cube_value, is_whole
from ..errors import InvalidIdError, InvalidPositionError
from ..position import BAR, OFF, Position

__all__ = ["MAX_CUBE_EXPONENT", "CubeAction", "XgidState", "decode_xgid", "encode_xgid"]

#: The largest cube exponent accepted, for the cube and the max cube (2**15 = 32768).
MAX_CUBE_EXPONENT = 15

_PREFIX = "XGID="
_POSITION_PATTERN = re.compile(r"[-A-Pa-p]{26}")
# Bounded, so that no field is too long for int() to read.
_INTEGER_PATTERN = re.compile(r"-?[0-9]{1,9}")
_NUMBER_FIELDS = (
    "cube value",
    "cube position",
    "turn",
    "bottom score",
    "top score",
    "rules",
    "match length",
    "max cube",
)


class CubeAction(StrEnum):
    """A cube offer pending in the dice field, as XG writes it; NONE when there is none."""

    NONE = ""
    DOUBLED = "D"
    BEAVERED = "B"
    RACCOONED = "R"


@dataclass(frozen=True)
class XgidState:
    """Everything an XGID holds. Constructing one checks it.

    ``position`` is seen from the player on roll (``turn``); ``turn`` and ``cube_position``
    are XG's numbers (1 the bottom player, -1 the top player, 0 a centred cube); ``score`` is
    (bottom, top). ``cube_value`` and ``max_cube`` are cube values (1, 2, 4, ...), not the
    exponents the XGID writes. ``dice`` is None until the player on roll has rolled; a pending
    cube offer is ``cube_action``.

    >>> XgidState(Position.initial(), dice=(3, 1), cube_action="D")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: The dice are rolled and a cube offer (D) is pending; ...
    """

    position: Position
    turn: int = 1
    cube_value: int = 1
    cube_position: int = 0
    dice: tuple[int, int] | None = None
    cube_action: CubeAction = CubeAction.NONE
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    match_length: int = 0
    max_cube: int = 1 << 10

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem is not None:
            raise InvalidIdError(problem)
        # Store the enum even when given its letter, so equal states compare and print alike.
        object.__setattr__(self, "cube_action", CubeAction(self.cube_action))


def encode_xgid(state: XgidState) -> str:
    """The XGID of ``state``, with the ``XGID=`` prefix, as XG writes it.

    >>> encode_xgid(XgidState(Position.initial().flip(), turn=-1, match_length=7))
    'XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:7:10'
    """
    if state.dice is not None:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = str(state.cube_action) or "00"
    # One field holds both meanings: the checks allow Crawford only in a match, Jacoby and
    # beavers only in money play, so at most one of the two readings is non-zero.
    rules = int(state.crawford) + int(state.jacoby) + 2 * int(state.beaver)
    fields = (
        _board(state.position, state.turn == 1),
        state.cube_value.bit_length() - 1,
        state.cube_position,
        state.turn,
        dice,
        state.score[0],
        state.score[1],
        rules,
        state.match_length,
        state.max_cube.bit_length() - 1,
    )
    return _PREFIX + ":".join(str(field) for field in fields)


@lru_cache(4096)
def _board(position: Position, on_roll_below: bool) -> str:
    """The XGID's first field: the checkers of ``position``, the bottom player's in capitals
    (the player on roll's where ``on_roll_below``), made once for each board met lately."""
    bottom, top = (
        (position.mine, position.theirs) if on_roll_below else (position.theirs, position.mine)
    )
    chars = ["-"] * 26
    for point in range(1, 25):
        if bottom[point]:
            chars[point] = chr(ord("A") + bottom[point] - 1)
        elif top[25 - point]:
            chars[point] = chr(ord("a") + top[25 - point] - 1)
    if top[BAR]:
        chars[0] = chr(ord("a") + top[BAR] - 1)
    if bottom[BAR]:
        chars[25] = chr(ord("A") + bottom[BAR] - 1)
    return "".join(chars)


def decode_xgid(text: str, *, checkers: int = 15) -> XgidState:
    """The state an XGID holds, with or without ``XGID=``; InvalidIdError saying why if malformed.

    ``checkers`` is how many checkers a side has: the XGID does not say.

    >>> decode_xgid("-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10").cube_action
    <CubeAction.DOUBLED: 'D'>
    >>> decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: ... has 9 fields; an XGID has 10, joined by colons...
    """
    name, fields = _fields(text)
    board, dice_text = fields[0], fields[4]
    _check_board(name, board)
    cube_exponent, cube_position, turn, bottom_score, top_score, rules, length, max_exponent = (
        _numbers(name, [*fields[1:4], *fields[5:]])
    )
    dice, action = _dice_field(name, dice_text)
    top_rule = 1 if length > 0 else 3
    if not 0 <= rules <= top_rule:
        meaning = "0, or 1 for the Crawford game" if length > 0 else "0 to 3 (1 Jacoby + 2 beaver)"
        raise InvalidIdError(f"{name}: the rules field is {rules}; it must be {meaning}.")
    try:
        bottom, top = _sides(board, checkers)
        position = Position(bottom, top) if turn == 1 else Position(top, bottom)
        return XgidState(
            position=position,
            turn=turn,
            cube_value=1 << cube_exponent,
            cube_position=cube_position,
            dice=dice,
            cube_action=action,
            score=(bottom_score, top_score),
            crawford=length > 0 and rules == 1,
            jacoby=length == 0 and bool(rules & 1),
            beaver=length == 0 and bool(rules & 2),
            match_length=length,
            max_cube=1 << max_exponent,
        )
    except (InvalidIdError, InvalidPositionError) as exc:
        raise InvalidIdError(f"{name} is impossible. {exc}") from exc


def _fields(text: str) -> tuple[str, list[str]]:
    """How errors name the XGID, and its ten fields; InvalidIdError unless there are ten."""
    if not isinstance(text, str):
        raise InvalidIdError(f"{text!r} is not an XGID: an XGID is text.")
    stripped = text.strip()
    fields = stripped.removeprefix(_PREFIX).split(":")
    name = f"XGID {stripped!r}"
    if len(fields) != 10:
        raise InvalidIdError(
            f"{name} has {len(fields)} fields; an XGID has 10, joined by colons, such as "
            "'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10'."
        )
    return name, fields


def _check_board(name: str, board: str) -> None:
    """InvalidIdError unless ``board`` reads as a position field (its counts are checked
    later, with the number of checkers)."""
    if not _POSITION_PATTERN.fullmatch(board):
        raise InvalidIdError(
            f"{name}: the position {board!r} must be 26 characters, each '-', A to P "
            "(the bottom player's checkers) or a to p (the top player's)."
        )
    if board[0].isupper() or board[25].islower():
        raise InvalidIdError(
            f"{name}: character 0 is the top player's bar and character 25 the bottom "
            "player's; neither can hold the other player's checkers."
        )


def _numbers(name: str, fields: list[str]) -> list[int]:
    """The eight numeric fields (all but the position and the dice), in order; InvalidIdError
    for one that is not a whole number, or a cube exponent out of range."""
    values: list[int] = []
    for label, field in zip(_NUMBER_FIELDS, fields, strict=True):
        if not _INTEGER_PATTERN.fullmatch(field):
            raise InvalidIdError(
                f"{name}: the {label} {field!r} is not a whole number (of at most 9 digits)."
            )
        values.append(int(field))
    for label, exponent in (("cube value", values[0]), ("max cube", values[-1])):
        if not 0 <= exponent <= MAX_CUBE_EXPONENT:
            raise InvalidIdError(
                f"{name}: the {label} field is {exponent}; it is an exponent of two, from 0 "
                f"to {MAX_CUBE_EXPONENT}."
            )
    return values


def _dice_field(name: str, dice_text: str) -> tuple[tuple[int, int] | None, CubeAction]:
    """The dice rolled (None: not rolled) and the cube action pending, of the dice field."""
    if re.fullmatch(r"[1-6]{2}", dice_text):
        return (int(dice_text[0]), int(dice_text[1])), CubeAction.NONE
    if dice_text in ("D", "B", "R"):
        return None, CubeAction(dice_text)
    if dice_text != "00":
        raise InvalidIdError(
            f"{name}: the dice field {dice_text!r} must be two dice from 1 to 6, 00 (not "
            "rolled), D (doubled), B (beavered) or R (raccooned)."
        )
    return None, CubeAction.NONE


def _sides(board: str, checkers: int) -> tuple[list[int], list[int]]:
    """The bottom and top players' 26 counts (off, points 1..24, bar) of a position string."""
    bottom, top = [0] * 26, [0] * 26
    for index, char in enumerate(board):
        if char.isupper():
            bottom[BAR if index == 25 else index] = ord(char) - ord("A") + 1
        elif char.islower():
            top[BAR if index == 0 else 25 - index] = ord(char) - ord("a") + 1
    for side, who in ((bottom, "bottom"), (top, "top")):
        on_board = sum(side)
        if on_board > checkers:
            raise InvalidIdError(
                f"The {who} player has {on_board} checkers on the board; a side has {checkers}."
            )
        side[OFF] = checkers - on_board
    return bottom, top


#: The cube actions, as a set made once: iterating an enum is slow, and every state the
#: server answers writes its XGID.
_CUBE_ACTIONS = frozenset(CubeAction)


def _problem(state: XgidState) -> str | None:
    """Why no XGID can hold ``state``, as a sentence; None when one can."""
    if not isinstance(state.position, Position):
        return f"The position is {state.position!r}; it must be a Position."
    if not is_whole(state.turn) or state.turn not in (1, -1):
        return f"The turn is {state.turn!r}; it must be 1 (bottom player) or -1 (top player)."
    if not is_whole(state.cube_position) or state.cube_position not in (1, 0, -1):
        return (
            f"The cube position is {state.cube_position!r}; it must be 1 (bottom player owns "
            "it), 0 (centred) or -1 (top player owns it)."
        )
    for label, cube in (("cube", state.cube_value), ("max cube", state.max_cube)):
        if not is_cube_value(cube, 1 << MAX_CUBE_EXPONENT):
            return (
                f"The {label} is {cube!r}; it must be a power of two from 1 to "
                f"{1 << MAX_CUBE_EXPONENT}."
            )
    if state.cube_value > state.max_cube:
        return f"The cube {state.cube_value} is above the max cube {state.max_cube}."
    dice = state.dice
    if dice is not None and not (
        isinstance(dice, tuple) and len(dice) == 2 and all(is_whole(d) and 0 < d < 7 for d in dice)
    ):
        return f"The dice are {dice!r}; they must be None or two numbers from 1 to 6."
    if state.cube_action not in _CUBE_ACTIONS:
        return f"The cube action is {state.cube_action!r}; it must be a CubeAction."
    if dice is not None and state.cube_action is not CubeAction.NONE:
        return (
            f"The dice are rolled and a cube offer ({state.cube_action}) is pending; "
            "a player doubles before rolling."
        )
    for name in ("crawford", "jacoby", "beaver"):
        if not isinstance(getattr(state, name), bool):
            return f"{name} is {getattr(state, name)!r}; it must be True or False."
    length = state.match_length
    if not is_whole(length) or length < 0:
        return f"The match length is {length!r}; it must be 0 (money) or more."
    if length and (state.jacoby or state.beaver):
        return "The Jacoby and beaver rules are for money games (match length 0) only."
    if not length and state.crawford:
        return "A money game (match length 0) has no Crawford game."
    if state.cube_action in (CubeAction.BEAVERED, CubeAction.RACCOONED) and not state.beaver:
        return (
            f"A {'beaver' if state.cube_action is CubeAction.BEAVERED else 'raccoon'} "
            f"({state.cube_action}) is pending without the beaver rule of a money game."
        )
    score = state.score
    if not (isinstance(score, tuple) and len(score) == 2 and all(is_whole(s) for s in score)):
        return f"The score is {score!r}; it must be two whole numbers."
    for who, points in zip(("bottom", "top"), score, strict=True):
        if points < 0 or (length and points >= length):
            limit = f" and below the match length {length}" if length else ""
            return f"The {who} player's score is {points}; it must be 0 or more{limit}."
    return None

