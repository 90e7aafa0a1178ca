"""Why an action is refused now: the rules' conditions on an action, checked against the
state of a game (:meth:`.machine.Game.act` raises with the sentence, and
:meth:`.machine.Game.legal_actions` offers the actions with none).

>>> from backgammon.dice import ManualDice
>>> from backgammon.game import Game
>>> game = Game(dice=ManualDice(["6 1"]))
>>> refusal(game, Action.DOUBLE, 0, None)
'A double is offered at the start of a turn, before rolling; the game waits for the opening roll.'
>>> game.roll(0)
>>> refusal(game, Action.UNDO, 0, None)
'There is no step of this turn to take back.'
>>> refusal(game, Action.STEP, 1, None), refusal(game, Action.STEP, 0, None)
("It is seat 0's turn to move, not seat 1's.", None)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ..position import WinKind
from .rules import (
    ALLOWED,
    BEFORE_FIRST_ROLL,
    REFUSED_IN_PHASE,
    WAITS_FOR,
    Action,
    Phase,
    check_level,
    why_no_beaver,
    why_no_claim,
    why_no_double,
)

if TYPE_CHECKING:
    from .machine import Machine


def refusal(
    game: Machine[Any], action: Action, player: int, level: WinKind | None
) -> str | None:
    """Why ``player`` may not make ``action`` in ``game`` now (None: they may), in order: the
    phase allows the action (:data:`~.rules.ALLOWED`); the action's own condition holds (a
    step to undo, a beaver the rules allow); the player is the one the game waits for
    (either may offer to resign); a double is the player's to make. A claim's ``level`` is
    checked here (IllegalActionError when it is no level)."""
    phase = game.phase
    if phase is Phase.OVER:
        return "The game is over."
    if action is Action.CONFIRM and phase is Phase.MOVE:
        return "The turn cannot end yet: the dice must still be played."
    if action not in ALLOWED[phase]:
        return REFUSED_IN_PHASE[action].format(waits=WAITS_FOR[phase])
    if game.thrown is not None and action in (Action.ROLL, Action.THROW):
        seat = game.thrown[0]
        if player == seat:
            return f"Seat {seat} has thrown their die; the game waits for the other to throw."
        if action is Action.THROW:
            return "The first die is thrown; the other's completes the opening roll."
    condition = _CONDITIONS.get(action)
    why = condition(game) if condition is not None else None
    if why is not None:
        return why
    if action in BEFORE_FIRST_ROLL and (game.rolls_drawn or game.thrown is not None):
        return BEFORE_FIRST_ROLL[action]
    if action is Action.RESIGN or action in BEFORE_FIRST_ROLL:
        return None  # either player, whoever the game waits for
    expected = game.player_to_act
    if action is Action.CLAIM:
        absent = () if expected is None else game.position_for(expected).mine
        return why_no_claim(player, expected, absent, check_level(level))
    if expected is not None and player != expected:
        return f"It is seat {expected}'s turn to {phase}, not seat {player}'s."
    if action is Action.DOUBLE and not game.may_double(player):
        return why_no_double(game.rules, game.crawford, game.cube_owner, player)
    return None


def _why_no_undo(game: Machine[Any]) -> str | None:
    return None if game.turn and game.turn.made else REFUSED_IN_PHASE[Action.UNDO]


def _why_no_throw(game: Machine[Any]) -> str | None:
    if game.rules.own_opening_dice:
        return None
    return "In this game one roll throws both opening dice: the players do not throw apart."


def _why_no_opening_claim(game: Machine[Any]) -> str | None:
    # The opening roll waits for a player only once the other has thrown their own die.
    if game.phase is Phase.OPENING and game.thrown is None:
        return REFUSED_IN_PHASE[Action.CLAIM].format(waits=WAITS_FOR[Phase.OPENING])
    return None


def _why_no_beaver(game: Machine[Any]) -> str | None:
    assert game.offer is not None
    return why_no_beaver(game.rules, game.in_match, game.offer)


#: What an action needs beyond its phase, checked before whose turn it is.
_CONDITIONS: Mapping[Action, Callable[[Machine[Any]], str | None]] = {
    Action.UNDO: _why_no_undo,
    Action.BEAVER: _why_no_beaver,
    Action.THROW: _why_no_throw,
    Action.CLAIM: _why_no_opening_claim,
}

