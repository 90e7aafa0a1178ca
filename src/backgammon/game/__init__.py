"""One game of backgammon: a state machine over an append-only record of events.

Every action (roll, double, take, drop, beaver, step, undo, confirm, play, resign, accept,
reject) is checked against the phase of the game and the player who makes it, then written to
the record as an :class:`Event` and applied. The record is the single source of truth: replaying
it rebuilds the game exactly, and :meth:`Game.history` (:meth:`BoardGame.history` in the other
games) reads it as typed entries. Seats are
numbered 0 and 1; the position is always seen from the player on roll.

The package: :mod:`.rules` (the options, the phases and what each allows), :mod:`.record`
(events, actions as values, results, and the JSON of a game), :mod:`.setup` (a game set up in
mid-play), :mod:`.machine` (the state machine every game shares; :mod:`.boards`, the boards,
turns and plays it takes), :mod:`.backgammon`
(:class:`Game`, backgammon's), :mod:`.board_game` (:class:`BoardGame`, the other games'),
:mod:`.match` (:class:`Match`, :class:`BoardMatch`: a Tavli match changes game each game),
:mod:`.history` (the typed walk over a record) and :mod:`.clock` (a match's clocks, worked
out from its record's times).

>>> from backgammon.dice import ManualDice
>>> game = Game(dice=ManualDice(["6 1", "3 1"]))
>>> game.roll(0)                       # the opening roll: seat 0's die, then seat 1's
>>> game.phase, game.on_roll, game.dice
(<Phase.MOVE: 'move'>, 0, (6, 1))
>>> game.play(0, "13/7 8/7")
>>> game.phase, game.on_roll
(<Phase.ROLL: 'roll or double'>, 1)
>>> game.roll(0)
Traceback (most recent call last):
...
backgammon.game.IllegalActionError: It is seat 1's turn to roll or double, not seat 0's.
>>> Game.replay(game.rules, game.events).position == game.position
True
"""

from .backgammon import Game
from .board_game import BoardGame
from .history import (
    Beavered,
    BoardEntry,
    Doubled,
    DoubleNamed,
    Dropped,
    EndReason,
    Entry,
    GameEnded,
    GameEntry,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Taken,
    TurnPlayed,
)
from .match import BoardMatch, Match
from .record import SCHEMA_VERSION, Act, Event, GameResult, begun, load_json
from .rules import Action, IllegalActionError, Offer, Phase, Resignation, Rules
from .setup import SetUp

# The error a player meets most names the package it is imported from, in tracebacks too.
IllegalActionError.__module__ = __name__

__all__ = [
    "SCHEMA_VERSION",
    "Act",
    "Action",
    "Beavered",
    "BoardEntry",
    "BoardGame",
    "BoardMatch",
    "DoubleNamed",
    "Doubled",
    "Dropped",
    "EndReason",
    "Entry",
    "Event",
    "Game",
    "GameEnded",
    "GameEntry",
    "GameResult",
    "IllegalActionError",
    "Match",
    "Offer",
    "OpeningRoll",
    "Phase",
    "Resignation",
    "ResignationAccepted",
    "ResignationOffered",
    "ResignationRejected",
    "Rolled",
    "Rules",
    "SetUp",
    "Taken",
    "TurnPlayed",
    "begun",
    "load_json",
]
