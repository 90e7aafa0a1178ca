"""The identifiers of a game in progress: GNU Backgammon's ID and eXtreme Gammon's XGID,
written for a game (:func:`gnubg_id_of`, :func:`xgid_of`) and read back as a game to set up
(:func:`setup_from_id`).

Seat 0 is gnubg's player 0 and XG's bottom player; seat 1 is gnubg's player 1 and XG's top
player. The score is the match's score at the start of the game being played.

>>> from backgammon.dice import ManualDice
>>> from backgammon.game.match import Match
>>> match = Match(length=7, dice=ManualDice(["3 1"]))
>>> match.game.roll(0)
>>> gnubg_id_of(match)
'4HPwATDgc/ABMA:MIHlAAAAAAAE'
>>> xgid_of(match)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10'
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cube import HIGHEST_CUBE
from ..dice import DiceSource
from ..errors import BackgammonError, InvalidIdError
from ..game import Game, Phase, Rules, SetUp
from ..game.match import Match
from ..position import Position
from .matchid import GameState, MatchIdState, gnubg_id, parse_gnubg_id
from .xgid import CubeAction, XgidState, decode_xgid, encode_xgid

_DEFAULT_MAX_CUBE = 1 << 10


def _context(source: Match | Game) -> tuple[Game, int, tuple[int, int]]:
    """The game being played, the match length (0: money) and the score at its start."""
    game = source.game if isinstance(source, Match) else source
    if game.score is None:
        return game, 0, (0, 0)
    return game, game.score.length, game.score.score


def match_id_state(source: Match | Game) -> MatchIdState:
    """The Match ID fields of the game being played (a lone game is money play)."""
    game, length, score = _context(source)
    state = GameState.PLAYING
    if game.result is not None:
        # A claim ends the game as the absent side's resignation would.
        ended = {"resign": GameState.RESIGNED, "claim": GameState.RESIGNED}
        state = {**ended, "drop": GameState.DROPPED}.get(game.result.reason, GameState.OVER)
    to_act = game.player_to_act
    return MatchIdState(
        cube_value=game.cube_value,
        cube_owner=game.cube_owner,
        player_on_roll=game.on_roll,
        crawford=game.crawford,
        game_state=state,
        turn=game.on_roll if to_act is None else to_act,
        double_offered=game.phase is Phase.CUBE,
        resignation=int(game.resignation.level) if game.resignation else 0,
        dice=game.dice if game.phase in (Phase.MOVE, Phase.CONFIRM) else None,
        match_length=length,
        score=score,
        jacoby=game.rules.jacoby and not length,
    )


def gnubg_id_of(source: Match | Game) -> str:
    """The full GNU Backgammon ID, ``PositionID:MatchID``, of the game being played."""
    game, _, _ = _context(source)
    return gnubg_id(game.position, match_id_state(source))


def xgid_of(source: Match | Game) -> str:
    """The XGID of the game being played."""
    game, length, score = _context(source)
    owner = game.cube_owner
    action = CubeAction.NONE
    if game.phase is Phase.CUBE and game.offer is not None:
        action = CubeAction.BEAVERED if game.offer.beavered else CubeAction.DOUBLED
    state = XgidState(
        position=game.position,
        turn=1 if game.on_roll == 0 else -1,
        cube_value=game.cube_value,
        cube_position=0 if owner is None else (1 if owner == 0 else -1),
        dice=game.dice if game.phase in (Phase.MOVE, Phase.CONFIRM) else None,
        cube_action=action,
        score=score,
        crawford=game.crawford,
        jacoby=game.rules.jacoby and not length,
        beaver=game.rules.beavers and not length,
        match_length=length,
        # XG's default highest cube, or, once the cube has passed it, the program's own cap.
        max_cube=game.rules.max_cube
        or (_DEFAULT_MAX_CUBE if game.cube_value <= _DEFAULT_MAX_CUBE else HIGHEST_CUBE),
    )
    return encode_xgid(state)


@dataclass(frozen=True)
class IdSetting:
    """What an ID says of a game to set up: the game (:class:`~backgammon.game.SetUp`), and,
    where the ID holds them, the match length (None for a bare Position ID), the score at
    the game's start and whether it is the Crawford game."""

    setup: SetUp
    length: int | None = None
    score: tuple[int, int] = (0, 0)
    crawford_game: bool = False

    def match(
        self,
        length: int = 0,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        colours: tuple[str, str] = ("white", "black"),
        crawford: bool = True,
    ) -> Match:
        """A match to ``length`` points (0: a money session) whose first game is this set-up,
        at the ID's score; the ID's own match length, where it holds one, wins over ``length``.

        >>> match = setup_from_id("4HPwATDgc/ABMA:cAngACAAAAAE").match(players=("Ann", "Bo"))
        >>> match.length, match.score, match.game.on_roll, match.game.dice
        (7, (2, 0), 1, None)
        """
        return Match(
            length if self.length is None else self.length,
            rules,
            dice,
            players=players,
            colours=colours,
            crawford=crawford,
            setup=self.setup,
            score=self.score,
            crawford_game=self.crawford_game,
        )


def setup_from_id(text: str, *, checkers: int = 15) -> IdSetting:
    """The game an ID describes: a GNU Backgammon Position ID (seat 0 to roll, the cube in
    the middle), a full GNU Backgammon ID (``PositionID:MatchID``) or an XGID. A double or
    a resignation waiting for its answer is refused: a set-up starts before the roll or with
    the dice rolled. ``checkers`` is how many checkers a side has (3 for Hypergammon).

    >>> setting = setup_from_id("XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:7:10")
    >>> setting.setup.on_roll, setting.setup.dice, setting.setup.cube_value
    (1, (5, 2), 2)
    >>> setting.setup.cube_owner, setting.length, setting.score
    (0, 7, (2, 1))
    >>> setup_from_id("4HPwATDgc/ABMA").setup == SetUp(Position.initial())
    True
    >>> setup_from_id("4HPwATDgc/ABMA:MBkAAAAAAAAE")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: The ID has a double waiting for its answer; ...
    """
    if not isinstance(text, str):
        raise InvalidIdError(f"{text!r} is not an ID: an ID is text.")
    stripped = text.strip()
    if stripped.upper().startswith("XGID=") or stripped.count(":") >= 9:
        return _from_xgid(decode_xgid(stripped, checkers=checkers))
    if ":" in stripped:
        position, state = parse_gnubg_id(stripped, checkers=checkers)
        return _from_match_id(position, state)
    return IdSetting(SetUp(Position.from_id(stripped, checkers=checkers)))


def _from_xgid(state: XgidState) -> IdSetting:
    if state.cube_action is not CubeAction.NONE:
        raise InvalidIdError(_PENDING.format("a double"))
    owner = {0: None, 1: 0, -1: 1}[state.cube_position]
    setup = _setup(state.position, 0 if state.turn == 1 else 1, state.dice,
                   state.cube_value, owner)
    return IdSetting(setup, state.match_length, state.score, state.crawford)


def _from_match_id(position: Position, state: MatchIdState) -> IdSetting:
    if state.game_state is not GameState.PLAYING:
        raise InvalidIdError("The ID is of a game that is over; there is nothing to set up.")
    if state.double_offered:
        raise InvalidIdError(_PENDING.format("a double"))
    if state.resignation:
        raise InvalidIdError(_PENDING.format("a resignation"))
    setup = _setup(position, state.player_on_roll, state.dice, state.cube_value,
                   state.cube_owner)
    return IdSetting(setup, state.match_length, state.score, state.crawford)


def _setup(
    position: Position, on_roll: int, dice: tuple[int, int] | None, cube: int, owner: int | None
) -> SetUp:
    try:
        return SetUp(position, on_roll=on_roll, dice=dice, cube_value=cube, cube_owner=owner)
    except InvalidIdError:
        raise
    except BackgammonError as exc:  # the set-up's refusal: the ID's, to the reader
        raise InvalidIdError(f"The ID describes no game to play: {exc}") from exc


_PENDING = (
    "The ID has {} waiting for its answer; a set-up starts before the roll or with the dice "
    "rolled."
)
