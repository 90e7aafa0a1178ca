"""The identifiers of a game in progress: GNU Backgammon's ID and eXtreme Gammon's XGID.

Seat 0 is gnubg's player 0 and XG's bottom player; seat 1 is gnubg's player 1 and XG's top
player. The score is the match's score at the start of the game being played.

>>> from backgammon.dice import ManualDice
>>> from backgammon.match import Match
>>> match = Match(length=7, dice=ManualDice(["3 1"]))
>>> match.game.roll(0)
>>> gnubg_id_of(match)
'4HPwATDgc/ABMA:MIHlAAAAAAAE'
>>> xgid_of(match)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10'
"""

from __future__ import annotations

from ..game import Game, Phase
from ..match import Match
from .matchid import GameState, MatchIdState, gnubg_id
from .xgid import CubeAction, XgidState, encode_xgid

_DEFAULT_MAX_CUBE = 1 << 10


def _context(source: Match | Game) -> tuple[Game, int, tuple[int, int]]:
    if isinstance(source, Match):
        return source.game, source.length, source.scores_before(len(source.games) - 1)
    return source, 0, (0, 0)


def match_id_state(source: Match | Game) -> MatchIdState:
    """The Match ID fields of the game being played (a lone game is money play)."""
    game, length, score = _context(source)
    state = GameState.PLAYING
    if game.result is not None:
        state = {"resign": GameState.RESIGNED, "drop": GameState.DROPPED}.get(
            game.result.reason, GameState.OVER
        )
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
        max_cube=game.rules.max_cube or _DEFAULT_MAX_CUBE,
    )
    return encode_xgid(state)
