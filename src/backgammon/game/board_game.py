"""The games other than backgammon (:mod:`backgammon.games`: Portes, Tavla, Plakoto, Fevga,
Long Nardy, Acey-deucey) as state machines: :class:`BoardGame`, the shared machine
(:class:`~.machine.Machine`) on a :class:`~backgammon.games.Board`, its turns made step by
step by :class:`~backgammon.games.turn.GameTurn` and scored by the game's own rules.

What differs from backgammon's :class:`~.backgammon.Game`: the rules object of the game
says the start, the plays and the score; most have no cube; a resignation offers no more
than the game can score; Acey-deucey's 1-2 makes the same player name a double
(:attr:`Phase.NAME`, :meth:`~.actions.NamedActions.name`), play it, and roll again.
A Plakoto draw (both mothers pinned) ends the game with no points (reason ``"draw"``).

>>> from backgammon.dice import ManualDice
>>> game = BoardGame(Rules.for_game("plakoto"), ManualDice(["6 5", "4 2"]))
>>> game.roll(0)                   # seat 0 throws 6, seat 1 throws 5; seat 0 throws afresh
>>> game.phase, game.on_roll
(<Phase.ROLL: 'roll or double'>, 0)
>>> game.roll(0); game.play(0, "24/20 20/18")
>>> game.position_for(0).mine[18], game.phase, game.on_roll
(1, <Phase.ROLL: 'roll or double'>, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ..cube import MatchScore
from ..dice import Dice, DiceSource
from ..errors import BackgammonError
from ..games import Board, Ending, GamePlay, Result, Stage
from ..games.base import SearchedRules
from ..games.turn import GameTurn
from ..position import Side, WinKind
from . import history as _history
from .machine import Machine
from .record import Act, GameResult
from .rules import Action, IllegalActionError, Phase, Rules

#: The level of a resignation or a win each ending counts as.
_KINDS = {Ending.SINGLE: WinKind.SINGLE, Ending.GAMMON: WinKind.GAMMON,
          Ending.BACKGAMMON: WinKind.BACKGAMMON, Ending.MOTHER: WinKind.GAMMON,
          Ending.DRAW: WinKind.SINGLE}
_ENDINGS = {WinKind.SINGLE: Ending.SINGLE, WinKind.GAMMON: Ending.GAMMON,
            WinKind.BACKGAMMON: Ending.BACKGAMMON}
_REASONS = {Ending.MOTHER: "mother", Ending.DRAW: "draw"}


class BoardGame(Machine[Board]):
    """One game of Portes, Tavla, Plakoto, Fevga, Long Nardy or Acey-deucey, from the
    opening roll to its result (its rules from :meth:`Rules.for_game`)."""

    turn: GameTurn | None
    plays: list[tuple[int, Dice, GamePlay | None]]  # type: ignore[assignment]  # the game's

    def __init__(
        self,
        rules: Rules,
        dice: DiceSource | None = None,
        *,
        crawford: bool = False,
        in_match: bool = False,
        start: Board | None = None,
        colours: tuple[str, str] = ("white", "black"),
        on_over: Callable[[BoardGame], None] | None = None,
        score: MatchScore | None = None,
    ) -> None:
        """A new game waiting for its opening roll, from the game's start or ``start`` (seen
        from seat 0); the other options as :class:`~.backgammon.Game` has them."""
        if not isinstance(rules, Rules) or rules.game is None:
            raise BackgammonError("A board game is one of the other games: make its rules "
                                  "with Rules.for_game(name).")
        game = rules.game_rules
        assert isinstance(game, SearchedRules)
        self.game: SearchedRules = game
        start = game.initial() if start is None else game.check(start)
        if game.outcome(start) is not None:
            raise BackgammonError("The starting board has no game left.")
        super().__init__(rules, dice, start, crawford=crawford, in_match=in_match,
                         colours=colours, on_over=on_over, score=score)
        #: Which dice the player on roll plays: thrown, or a double they named.
        self.stage = Stage.THROW

    def act(self, seat: int, act: Act) -> None:
        if act.action in (Action.RESIGN, Action.CLAIM) and act.level is not None \
                and _ENDINGS[act.level] not in self.game.points:
            raise IllegalActionError(
                f"This game scores no {_ENDINGS[act.level].value}: offer a single game or a "
                "gammon."
            )
        super().act(seat, act)

    def points_for(self, kind: WinKind) -> int:
        """The points a game won now as ``kind`` scores by the game's rules, times the cube."""
        return self.cube_value * self.game.points[_ENDINGS[kind]]

    def _start_moving(self, dice: Dice) -> None:
        self.stage = Stage.NAMED_DOUBLE if self.phase is Phase.NAME else Stage.THROW
        super()._start_moving(dice)

    def _turn_for(self, dice: Dice) -> GameTurn:
        return GameTurn(self.game, self.position, dice)

    def _parse(self, text: str, dice: Dice) -> GamePlay:
        assert self.turn is not None
        return self.turn.parse(text)

    def _no_play(self) -> GamePlay:
        return _empty(self.position)

    def _ended(self) -> GameResult | None:
        result: Result | None = self.game.outcome(self.position)
        if result is None:
            return None
        # The board is the opponent's now: the player who just moved is not on roll.
        mover = 1 - self.on_roll
        winner = mover if result.winner in (Side.OPPONENT, None) else self.on_roll
        return GameResult(winner, _KINDS[result.ending], result.points * self.cube_value,
                          _REASONS.get(result.ending, "bear off"))

    def _after_play(self, play: Any, dice: Dice) -> Phase | None:
        stage = self.game.next_stage(play, dice, self.stage)
        if stage is Stage.NAMED_DOUBLE:
            return Phase.NAME
        self.stage = Stage.THROW
        return None if stage is None else Phase.ROLL

    def history(self, start: int = 0) -> Iterator[_history.BoardEntry]:
        """The game's record as typed entries, in the order they were made (see
        :mod:`backgammon.game.history`), as backgammon's: Acey-deucey's named double and
        Plakoto's pins and endings have their own; from ``start``, those of events
        ``start`` on.

        >>> from backgammon.dice import ManualDice
        >>> game = BoardGame(Rules.for_game("acey-deucey"), ManualDice(["2 1", "2 1", "3 3"]))
        >>> game.roll(0); game.roll(0); game.play(0, "bar/24 bar/23")
        >>> game.name(0, 6); game.play(0, "bar/19(2) 24/18 23/17"); game.roll(0)
        >>> [type(entry).__name__ for entry in game.history()]
        ['OpeningRoll', 'Rolled', 'TurnPlayed', 'DoubleNamed', 'TurnPlayed', 'Rolled']
        """
        return _history.walk(self, [*self._moments, self._moment()], self.plays, _empty,
                             start)

    def _start_to_dict(self) -> dict[str, Any]:
        return {"start": {"board": self.start.to_dict()}}

    @classmethod
    def _start_from_dict(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {"start": Board.from_dict(data["start"]["board"])}


def _empty(board: Board) -> GamePlay:
    """The empty play of a turn with no legal move from ``board``."""
    return GamePlay(board, (), board.flip())
