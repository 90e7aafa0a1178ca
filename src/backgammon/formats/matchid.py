"""GNU Backgammon's Match ID, and the GNU Backgammon ID ``PositionID:MatchID``.

A Match ID is 12 characters of standard base64 (``A-Z a-z 0-9 + /``, no padding) holding a
9-byte key. Bit ``k`` of the key is bit ``k % 8`` of byte ``k // 8`` (the same little-endian
packing as the Position ID). The fields, with bit numbers counted from 0 (the gnubg manual,
"A technical description of the Match ID", counts them from 1; gnubg's ``matchid.c``,
functions ``MatchID`` and ``MatchFromKey``, counts from 0 as here):

======  =====  ===================================================================
bits    width  field
======  =====  ===================================================================
0-3     4      log2 of the cube value (0 for a 1-cube, 3 for an 8-cube)
4-5     2      cube owner: 0 player 0, 1 player 1, 3 centred
6       1      ``fMove``, the player on roll, or who rolled the dice on the board
7       1      Crawford game
8-10    3      game state: 0 no game, 1 playing, 2 over, 3 resigned, 4 cube dropped
11      1      ``fTurn``, the player who must act now (see below)
12      1      a double is offered (or, with ``fTurn == fMove``, a beaver)
13-14   2      resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
15-17   3      first die, the higher (0 when the dice are not rolled)
18-20   3      second die, the lower
21-35   15     match length (0 for a money game)
36-50   15     player 0's score
51-65   15     player 1's score
66      1      1 when the Jacoby rule is OFF (``!fJacoby`` in ``matchid.c``)
67-71   5      unused, always 0
======  =====  ===================================================================

Bit 66 is in gnubg's code though not in its manual, which still speaks of 66 bits. It is written
inverted, so an ID from a gnubg old enough not to know it reads as "Jacoby on".

The bits could hold a 32768-cube and a 32767-point match, but gnubg refuses a cube above 4096
and a match longer than 64 points, and so does this module. It also refuses what gnubg never
writes though it reads it: cube owner 2, a game state above 4, bits 67 to 71 set.

Players are numbered as gnubg numbers them, 0 and 1; ``score`` is (player 0, player 1).

Who is who while a decision is pending. ``player_on_roll`` (``fMove``) is the player whose
turn it is in the game; ``turn`` (``fTurn``) is the player who must act now. They differ while
the other player answers an offer: when player 0 doubles, ``turn`` becomes 1 with
``double_offered`` set and the cube still showing its old value; when player 0 offers to resign,
``turn`` becomes 1 with ``resignation`` set. After a beaver the beavering player owns the
doubled cube, ``double_offered`` stays set and ``turn`` is back to the doubler, who must accept
the beaver. (All seen in gnubg 1.07's own IDs; ``tests/formats/test_matchid.py`` records them.)

The Position ID of a GNU Backgammon ID is always seen from ``player_on_roll`` (``fMove``), even
while ``turn`` is the other player: gnubg shows the same Position ID before and after a double or
a resignation offer. So :func:`gnubg_id` takes the :class:`~backgammon.Position` seen from the
player on roll, as the package's positions always are.

>>> state = decode_match_id("cAkAAAAAAAAA")
>>> state.player_on_roll, state.match_length, state.cube_owner, state.jacoby
(1, 0, None, True)
>>> encode_match_id(state)
'cAkAAAAAAAAA'
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from enum import IntEnum

from ..cube import HIGHEST_CUBE, MAX_MATCH_LENGTH, is_cube_value, is_whole
from ..errors import InvalidIdError, InvalidPositionError
from ..ids import decode_key
from ..position import Position

__all__ = [
    "MAX_CUBE",
    "MAX_MATCH_LENGTH",
    "GameState",
    "MatchIdState",
    "decode_match_id",
    "encode_match_id",
    "gnubg_id",
    "parse_gnubg_id",
]

#: The largest cube GNU Backgammon accepts (``MAX_CUBE`` in gnubg); the 4 bits could hold 2**15.
MAX_CUBE = HIGHEST_CUBE
#: The longest match GNU Backgammon accepts (``MAXSCORE``); the 15 bits could hold 32767.
#: The largest score the 15-bit score fields hold (money sessions can run long).
_MAX_SCORE = (1 << 15) - 1

_CENTRED = 3  # gnubg writes fCubeOwner == -1 (centred) as its two low bits, 0b11
_USED_BITS = 67


class GameState(IntEnum):
    """Where the game stands, gnubg's ``gamestate``."""

    NO_GAME = 0
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4


@dataclass(frozen=True)
class MatchIdState:
    """Everything a Match ID holds. Constructing one checks it; every field has gnubg's meaning.

    ``cube_owner`` is 0, 1 or None (centred). ``dice`` is None until the player on roll has
    rolled; the higher die is written first. ``resignation`` is 0 (none), 1 (single),
    2 (gammon) or 3 (backgammon). ``match_length`` 0 is a money game. Values no Match ID can
    hold raise :class:`~backgammon.errors.InvalidIdError`.

    >>> MatchIdState(cube_value=3)
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: The cube is 3; it must be a power of two from 1 to 4096.
    """

    cube_value: int = 1
    cube_owner: int | None = None
    player_on_roll: int = 0
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: int = 0
    double_offered: bool = False
    resignation: int = 0
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        problem = _problem(self)
        if problem is not None:
            raise InvalidIdError(problem)
        # Store the enum even when given its number, so equal states compare and print alike.
        object.__setattr__(self, "game_state", GameState(self.game_state))


def encode_match_id(state: MatchIdState) -> str:
    """The 12-character Match ID of ``state``, bit for bit as gnubg's ``MatchID`` writes it.

    >>> encode_match_id(MatchIdState(player_on_roll=0, dice=(3, 1), match_length=7))
    'MIHlAAAAAAAE'
    """
    dice = (0, 0) if state.dice is None else (max(state.dice), min(state.dice))
    owner = _CENTRED if state.cube_owner is None else state.cube_owner
    fields = (
        (0, state.cube_value.bit_length() - 1),
        (4, owner),
        (6, state.player_on_roll),
        (7, int(state.crawford)),
        (8, int(state.game_state)),
        (11, state.turn),
        (12, int(state.double_offered)),
        (13, state.resignation),
        (15, dice[0]),
        (18, dice[1]),
        (21, state.match_length),
        (36, state.score[0]),
        (51, state.score[1]),
        (66, int(not state.jacoby)),
    )
    key = 0
    for shift, value in fields:
        key |= value << shift
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def decode_match_id(text: str) -> MatchIdState:
    """The state a Match ID holds; InvalidIdError, saying why, if it is malformed or impossible.

    >>> decode_match_id("cBHgAAAAAAAE").double_offered
    True
    >>> decode_match_id("cAngAAAAAAA")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: 'cAngAAAAAAA' is not a Match ID: it must be 12 characters...
    """
    key = decode_key(text, 12, "Match ID")
    stripped = text.strip()

    def bits(shift: int, width: int) -> int:
        return (key >> shift) & ((1 << width) - 1)

    impossible = f"Match ID {stripped!r} is impossible"
    if key >> _USED_BITS:
        raise InvalidIdError(f"{impossible}: it sets bits 67 to 71, which gnubg never uses.")
    owner = bits(4, 2)
    if owner == 2:
        raise InvalidIdError(
            f"{impossible}: its cube owner field is 2; gnubg writes 0, 1 or 3 (centred)."
        )
    game_state = bits(8, 3)
    if game_state > max(GameState):
        raise InvalidIdError(
            f"{impossible}: its game state is {game_state}; gnubg's run from 0 to 4."
        )
    high, low = bits(15, 3), bits(18, 3)
    if high > 6 or low > 6:
        raise InvalidIdError(f"{impossible}: a die shows {max(high, low)}; dice show 1 to 6.")
    if (high == 0) != (low == 0):
        raise InvalidIdError(f"{impossible}: one die shows {high or low} and the other none.")
    try:
        return MatchIdState(
            cube_value=1 << bits(0, 4),
            cube_owner=None if owner == _CENTRED else owner,
            player_on_roll=bits(6, 1),
            crawford=bool(bits(7, 1)),
            game_state=GameState(game_state),
            turn=bits(11, 1),
            double_offered=bool(bits(12, 1)),
            resignation=bits(13, 2),
            dice=(high, low) if high else None,
            match_length=bits(21, 15),
            score=(bits(36, 15), bits(51, 15)),
            jacoby=not bits(66, 1),
        )
    except InvalidIdError as exc:
        raise InvalidIdError(f"{impossible}. {exc}") from exc


def gnubg_id(position: Position, state: MatchIdState) -> str:
    """The full GNU Backgammon ID, ``PositionID:MatchID``.

    ``position`` is seen from ``state.player_on_roll``, as gnubg's Position ID always is, also
    while the other player (``state.turn``) answers a double or a resignation.

    >>> gnubg_id(Position.initial(), MatchIdState(player_on_roll=1, turn=1, jacoby=True))
    '4HPwATDgc/ABMA:cAkAAAAAAAAA'
    """
    return f"{position.id()}:{encode_match_id(state)}"


def parse_gnubg_id(text: str, *, checkers: int = 15) -> tuple[Position, MatchIdState]:
    """The position (seen from the player on roll) and state of a ``PositionID:MatchID``.

    ``checkers`` is how many checkers a side has (3 for Hypergammon): the ID does not say.

    >>> position, state = parse_gnubg_id("4HPwATDgc/ABMA:MIHlAAAAAAAE")
    >>> position == Position.initial(), state.dice, state.match_length
    (True, (3, 1), 7)
    """
    parts = text.strip().split(":") if isinstance(text, str) else []
    if len(parts) != 2:
        raise InvalidIdError(
            f"{text!r} is not a GNU Backgammon ID: it must be a Position ID and a Match ID "
            "joined by a colon, such as '4HPwATDgc/ABMA:cAkAAAAAAAAA'."
        )
    position_text, match_text = parts
    try:
        position = Position.from_id(position_text, checkers=checkers)
    except InvalidPositionError as exc:
        raise InvalidIdError(
            f"GNU Backgammon ID {text.strip()!r} holds an impossible position: {exc}"
        ) from exc
    return position, decode_match_id(match_text)


#: The game states, as a set made once: iterating an enum is slow, and every state the
#: server answers writes its Match ID.
_GAME_STATES = frozenset(GameState)


def _problem(state: MatchIdState) -> str | None:
    """Why no Match ID can hold ``state``, as a sentence; None when one can."""
    cube = state.cube_value
    if not is_cube_value(cube, MAX_CUBE):
        return f"The cube is {cube!r}; it must be a power of two from 1 to {MAX_CUBE}."
    if state.cube_owner is not None and state.cube_owner not in (0, 1):
        return f"The cube owner is {state.cube_owner!r}; it must be 0, 1 or None (centred)."
    for name in ("player_on_roll", "turn"):
        value = getattr(state, name)
        if not is_whole(value) or value not in (0, 1):
            return f"{name} is {value!r}; it must be player 0 or 1."
    for name in ("crawford", "double_offered", "jacoby"):
        if not isinstance(getattr(state, name), bool):
            return f"{name} is {getattr(state, name)!r}; it must be True or False."
    if not is_whole(state.game_state) or state.game_state not in _GAME_STATES:
        return f"The game state is {state.game_state!r}; it must be a GameState (0 to 4)."
    if not is_whole(state.resignation) or not 0 <= state.resignation <= 3:
        return (
            f"The resignation is {state.resignation!r}; it must be 0 (none), 1 (single), "
            "2 (gammon) or 3 (backgammon)."
        )
    dice = state.dice
    if dice is not None and not (
        isinstance(dice, tuple) and len(dice) == 2 and all(is_whole(d) and 0 < d < 7 for d in dice)
    ):
        return f"The dice are {dice!r}; they must be None or two numbers from 1 to 6."
    if dice is not None and state.double_offered:
        return "A double is offered with the dice already rolled; a player doubles before rolling."
    length = state.match_length
    if not is_whole(length) or not 0 <= length <= MAX_MATCH_LENGTH:
        return (
            f"The match length is {length!r}; it must be 0 (money) to {MAX_MATCH_LENGTH}, "
            "the longest match gnubg plays."
        )
    if length == 0 and state.crawford:
        return "A money game (match length 0) has no Crawford game."
    score = state.score
    if not (isinstance(score, tuple) and len(score) == 2 and all(is_whole(s) for s in score)):
        return f"The score is {score!r}; it must be two whole numbers."
    for player, points in enumerate(score):
        if not 0 <= points <= (length or _MAX_SCORE):
            limit = f"the match length {length}" if length else str(_MAX_SCORE)
            return f"Player {player}'s score {points} is out of range: 0 to {limit}."
    return None

