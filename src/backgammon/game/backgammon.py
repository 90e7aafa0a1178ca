"""Backgammon's game (:class:`Game`), in any of its layouts: the shared state machine
(:class:`~.machine.Machine`) on a :class:`~backgammon.Position`, played by the core's
:class:`~backgammon.Turn`, and set up in the middle of play if asked (:class:`~.setup.SetUp`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..cube import MatchScore
from ..dice import Dice, DiceSource
from ..errors import BackgammonError
from ..moves import Play
from ..position import Position
from ..turns import Turn
from . import history as _history
from .machine import Machine
from .record import GameResult
from .rules import Phase, Rules
from .setup import SetUp


def _starting_position(rules: Rules, start: Position | None, setup: SetUp | None) -> Position:
    """The position a game starts from, seen from seat 0: ``start``, the set-up's, or the
    variant's initial one; BackgammonError if it cannot start a game of these rules."""
    if setup is not None:
        if start is not None:
            raise BackgammonError("A game has a starting position or a set-up, not both.")
        start = setup.position if setup.on_roll == 0 else setup.position.flip()
    start = start or Position.initial(rules.variant)
    if start.checkers != rules.variant.checkers:
        raise BackgammonError(
            f"The position has {start.checkers} checkers a side; "
            f"{rules.variant.value.capitalize()} is played with "
            f"{rules.variant.checkers} checkers a side."
        )
    if start.is_game_over():
        raise BackgammonError("The starting position has no game left: a side is all off.")
    return start


class Game(Machine[Position]):
    """One game of backgammon (in any of its layouts), from the opening roll to its result.

    Its actions are made with :meth:`act`, or by name (:class:`~.actions.NamedActions`)."""

    turn: Turn | None  # the core's turn, which says more
    plays: list[tuple[int, Dice, Play | None]]  # type: ignore[assignment]  # the core's

    def __init__(
        self,
        rules: Rules | None = None,
        dice: DiceSource | None = None,
        *,
        crawford: bool = False,
        in_match: bool = False,
        start: Position | None = None,
        setup: SetUp | None = None,
        colours: tuple[str, str] = ("white", "black"),
        on_over: Callable[[Game], None] | None = None,
        score: MatchScore | None = None,
    ) -> None:
        """A new game waiting for its opening roll.

        ``crawford`` forbids doubling (the Crawford game of a match). In a match
        (``in_match``), Jacoby, beavers and automatic doubles do not apply. ``start`` sets up
        another starting position, seen from seat 0. ``setup`` starts the game in the middle
        instead, without an opening roll (:class:`SetUp`). ``colours`` names each seat's
        checkers (which way each moves on screen is the viewer's setting). ``on_over`` is
        called once the game ends. ``score`` is the match score at the start of the game,
        seat 0's first, for a game of a match (its Crawford flag is ``crawford``'s).
        """
        rules = rules or Rules()
        super().__init__(rules, dice, _starting_position(rules, start, setup),
                         crawford=crawford, in_match=in_match, colours=colours,
                         on_over=on_over, score=score)
        self.setup = setup
        if setup is not None:
            self._set_up(setup)

    def _set_up(self, setup: SetUp) -> None:
        if setup.cube_value > 1 or setup.cube_owner is not None:
            if not self.rules.cube:
                raise BackgammonError("The set-up has a turned cube, but this game has no cube.")
            if self.crawford:
                raise BackgammonError("The set-up has a turned cube in the Crawford game.")
            if not self.rules.may_reach(setup.cube_value):
                raise BackgammonError(
                    f"The set-up's cube ({setup.cube_value}) is above the highest allowed "
                    f"({self.rules.max_cube})."
                )
        self.on_roll = setup.on_roll
        self.position = setup.position
        self.cube_value = setup.cube_value
        self.cube_owner = setup.cube_owner
        self.cube_turned = setup.cube_owner is not None
        if setup.dice is None:
            self.phase = Phase.ROLL
            return
        if not setup.position.legal_plays(setup.dice):
            # The game passes such a turn itself as it happens; set up the roll before it.
            raise BackgammonError(
                f"With {setup.dice[0]}-{setup.dice[1]} to play there is no legal move; "
                "set up the position before the roll instead."
            )
        self._start_moving(setup.dice)

    def _turn_for(self, dice: Dice) -> Turn:
        return self.position.turn(dice)

    def _parse(self, text: str, dice: Dice) -> Play:
        return self.position.parse_play(text, dice)

    def _no_play(self) -> Play:
        return Play.empty(self.position)

    def _ended(self) -> GameResult | None:
        outcome = self.position.outcome()
        if outcome is None:
            return None
        # The player who just moved is now the opponent of the player on roll.
        return GameResult(1 - self.on_roll, outcome.kind, self.points_for(outcome.kind),
                          "bear off")

    def _is_race(self) -> bool:
        return self.position.is_race()

    def history(self, start: int = 0) -> Iterator[_history.GameEntry]:
        """The game's record as typed entries, in the order they were made (see
        :mod:`backgammon.game.history`); from ``start``, those of events ``start`` on.

        >>> from backgammon.dice import ManualDice
        >>> game = Game(dice=ManualDice(["6 1"]))
        >>> game.roll(0)
        >>> game.play(0, "13/7 8/7")
        >>> [type(entry).__name__ for entry in game.history()]
        ['OpeningRoll', 'Rolled', 'TurnPlayed']
        >>> [type(entry).__name__ for entry in game.history(start=1)]
        ['TurnPlayed']
        """
        return _history.walk(self, [*self._moments, self._moment()], self.plays, Play.empty,
                             start)

    def _options(self) -> dict[str, Any]:
        return {**super()._options(), "start": None if self.setup else self.start,
                "setup": self.setup}

    def _start_to_dict(self) -> dict[str, Any]:
        start = {"start": {"id": self.start.id(), "checkers": self.start.checkers}}
        return {**start, "setup": self.setup.to_dict()} if self.setup else start

    @classmethod
    def _start_from_dict(cls, data: dict[str, Any]) -> dict[str, Any]:
        setup = SetUp.from_dict(data["setup"]) if data.get("setup") else None
        if setup is not None:
            return {"setup": setup}
        return {"start": Position.from_id(data["start"]["id"],
                                          checkers=data["start"]["checkers"])}
