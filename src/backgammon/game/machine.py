"""The game's state machine: every action is checked against the phase of the game and the
player who makes it, then written to the record as an :class:`~.record.Event` and applied.

The record is the single source of truth: replaying it rebuilds the game exactly. Seats are
numbered 0 and 1; the position is always seen from the player on roll.

:class:`Machine` holds what every game on a backgammon board shares (the opening roll, the
phases, the cube, resignations, claims, the fair dice's seeds, the record); what the board
is and how it is played are a subclass's: :class:`Game` plays backgammon on a
:class:`~backgammon.Position`, :class:`~.boards.BoardGame` the other games on a
:class:`~backgammon.games.Board`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Generic, Self

from ..cube import CubeContext, MatchScore, jacoby_applies
from ..dice import Dice, DiceSource, SecureDice, SeededDice
from ..errors import BackgammonError, IllegalPlayError, InvalidDiceError
from ..fairdice import FairDice
from ..position import WinKind
from . import history as _history
from . import opening
from .actions import NamedActions
from .boards import P, PlayOn, TurnOn
from .record import Act, Event, GameResult, game_from_dict, game_to_dict, load_json, path_of
from .refusals import refusal
from .rules import (
    ALLOWED,
    Action,
    IllegalActionError,
    Offer,
    Phase,
    Resignation,
    Rules,
    check_seat,
    cube_context_for,
)

#: The actions :meth:`Game.legal_actions` probes in each phase, in :class:`Action`'s order:
#: those the phase allows (the check refuses the others first), less a pass and an opening
#: die thrown alone (the game's own records of a player's roll), a seed for the dice and a
#: seat taken (not moves).
_PROBED: dict[Phase, tuple[Action, ...]] = {
    phase: tuple(
        action for action in Action
        if action in ALLOWED[phase]
        and action not in (Action.PASS, Action.THROW, Action.SEED, Action.JOIN)
    )
    for phase in Phase
}


def _check_match(rules: Rules, in_match: bool, crawford: bool, score: MatchScore | None) -> None:
    """BackgammonError unless the rules and the match score suit a game of a match (or of
    money play, with ``in_match`` False and no score)."""
    if in_match and (rules.jacoby or rules.beavers or rules.automatic_doubles):
        raise BackgammonError(
            "Jacoby, beavers and automatic doubles do not apply in matches."
        )
    if score is not None and score.crawford != crawford:
        raise BackgammonError("The match score and the game disagree on the Crawford game.")


class Machine(NamedActions, Generic[P]):
    """One game on a board of type ``P``, from the opening roll to its result: what every
    game shares. A subclass says what the board is and how a turn is played on it (the
    methods marked "a subclass's").

    Its actions are made with :meth:`act`, or by name (:class:`~.actions.NamedActions`)."""

    position: P
    start: P
    turn: TurnOn[P] | None
    plays: list[tuple[int, Dice, PlayOn[P] | None]]

    def __init__(
        self,
        rules: Rules | None,
        dice: DiceSource | None,
        start: P,
        *,
        crawford: bool = False,
        in_match: bool = False,
        colours: tuple[str, str] = ("white", "black"),
        on_over: Callable[[Any], None] | None = None,
        score: MatchScore | None = None,
    ) -> None:
        """A new game waiting for its opening roll, from ``start`` (seen from seat 0); the
        options as :class:`Game` describes them."""
        self.rules = rules or Rules()
        _check_match(self.rules, in_match, crawford, score)
        self.dice_source: DiceSource = dice or SecureDice()
        self.crawford = crawford
        self.in_match = in_match or score is not None
        self.score = score
        self.start = start
        if len(colours) != 2 or colours[0] == colours[1]:
            raise BackgammonError("The two seats need two different colours.")
        self.colours = colours
        self.on_over = on_over
        self.events: list[Event] = []
        self._rolls = 0  # the ROLL events among them (rolls_drawn)
        # The state, all of it derived from the events.
        self.phase = Phase.OPENING
        self.on_roll = 0
        self.position = self.start
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.cube_turned = False
        self.automatic_doubles = 0
        #: The seat that has thrown its opening die, and the die, while the game waits for
        #: the other's (:attr:`Rules.own_opening_dice`).
        self.thrown: tuple[int, int] | None = None
        self.offer: Offer | None = None
        self.resignation: Resignation | None = None
        self.turn = None
        self.result: GameResult | None = None
        self.plays = []
        # The state before each event, for the history (the rules are applied once, here).
        self._moments: list[_history.Moment[P]] = []

    # What a subclass says: the board and how a turn is played on it

    def _turn_for(self, dice: Dice) -> TurnOn[P]:
        """A subclass's: the turn ``dice`` give the player on roll."""
        raise NotImplementedError

    def _parse(self, text: str, dice: Dice) -> PlayOn[P]:
        """A subclass's: the play written ``text`` with ``dice``, or IllegalPlayError."""
        raise NotImplementedError

    def _no_play(self) -> PlayOn[P]:
        """A subclass's: the empty play of a turn with no legal move."""
        raise NotImplementedError

    def _ended(self) -> GameResult | None:
        """A subclass's: the result once the board says the game is over (the player on
        roll has just been handed the move), else None."""
        raise NotImplementedError

    def _is_race(self) -> bool:
        """Whether the sides have parted (for :attr:`Rules.auto_race_roll`)."""
        return False

    def _after_play(self, play: PlayOn[P], dice: Dice) -> Phase | None:
        """The phase the same player goes on in after ``play`` of ``dice`` (None: the turn
        passes): a game with more to a turn says."""
        return None

    def points_for(self, kind: WinKind) -> int:
        """The points a game won now as ``kind`` scores: the cube's value, times the kind
        unless the Jacoby rule holds (RULES.md, Doubling)."""
        if jacoby_applies(self.rules.jacoby, self.in_match, self.cube_turned):
            return self.cube_value
        return self.cube_value * int(kind)

    @classmethod
    def replay(cls, rules: Rules, events: Sequence[Event], **options: Any) -> Self:
        """The game rebuilt from its record (no dice are drawn: the record holds them)."""
        game = cls(rules, **options)
        for event in events:
            game._apply(event)
        return game

    # Who may act

    @property
    def player_to_act(self) -> int | None:
        """The seat the game waits for (None at the opening roll, which either may make,
        until one has thrown their own die)."""
        if self.phase is Phase.OPENING and self.thrown is not None:
            return 1 - self.thrown[0]
        if self.phase in (Phase.ROLL, Phase.MOVE, Phase.CONFIRM, Phase.NAME):
            return self.on_roll
        if self.phase is Phase.CUBE:
            assert self.offer is not None
            return self.offer.decider
        if self.phase is Phase.RESIGN:
            assert self.resignation is not None
            return 1 - self.resignation.player
        return None

    def may_double(self, player: int | None = None) -> bool:
        """True when ``player`` (by default the player on roll) may double now."""
        player = self.on_roll if player is None else check_seat(player)
        return (
            self.phase is Phase.ROLL
            and player == self.on_roll
            and self.rules.cube
            and not self.crawford
            and self.cube_owner in (None, player)
            and self.rules.may_reach(self.cube_value * 2)
        )

    def cube_context(self, seat: int) -> CubeContext:
        """The cube as ``seat`` sees it now: value, owner, match score and the options in
        force, for every question that depends on the stake (the bot's, the hints').

        >>> from backgammon.game import Game
        >>> game = Game(Rules(jacoby=True, beavers=True))
        >>> context = game.cube_context(1)
        >>> context.owner, context.jacoby, context.beavers, context.match
        (<CubeOwner.CENTRE: 'centre'>, True, True, None)
        """
        return cube_context_for(
            self.rules,
            check_seat(seat),
            value=self.cube_value,
            owner=self.cube_owner,
            turned=self.cube_turned,
            in_match=self.in_match,
            score=self.score,
        )

    def legal_actions(self, player: int) -> list[Action]:
        """The actions ``player`` may take now, for interfaces to offer."""
        check_seat(player)
        # Probes of the rules' refusals, never recorded and never raised (a raise for each
        # action refused cost more than the rest of a state shown to a page).
        return [
            action for action in _PROBED[self.phase]
            if refusal(self, action, player, WinKind.SINGLE) is None
        ]

    # Actions

    def act(self, seat: int, act: Act) -> None:
        """Make ``act`` for ``seat``: IllegalActionError (or IllegalPlayError for a step or
        play the rules forbid), and no change, when it is not allowed now.

        >>> from backgammon.dice import ManualDice
        >>> from backgammon.game import Game
        >>> game = Game(dice=ManualDice(["6 1"]))
        >>> game.act(0, Act(Action.ROLL))
        >>> game.act(0, Act(Action.STEP, step=(13, 7)))
        >>> game.turn.made
        ((13, 7),)
        """
        action = act.action
        if action is Action.ROLL:
            # Checked before the dice are drawn, so a refused roll spends no entered dice.
            self._check(Event(Action.ROLL, seat, dice=(1, 2)))
            if self.phase is Phase.OPENING and self.rules.own_opening_dice:
                self._act(opening.throw(seat, self.thrown, self.dice_source, self.rolls_drawn))
            else:
                self._act(Event(Action.ROLL, seat, dice=self._draw()))
        elif action is Action.PLAY:
            self._check(Event(Action.PLAY, seat, steps=()))
            assert self.dice is not None and act.play is not None
            play = act.play
            steps = path_of(self._parse(play, self.dice) if isinstance(play, str) else play)
            self._act(Event(Action.PLAY, seat, steps=steps))
        elif action is Action.STEP:
            assert act.step is not None
            self._act(Event(Action.STEP, seat, steps=(act.step,)))
        elif action is Action.SEED and not isinstance(self.dice_source, FairDice):
            # Replayed with other dice (for an analysis), a recorded seed changes nothing; a
            # new one would mean nothing.
            raise IllegalActionError(
                "This game's dice are not provably fair dice, so they take no player's seed."
            )
        else:
            self._act(Event(action, seat, level=act.level, seed=act.seed, die=act.die))

    # The machine

    def _act(self, event: Event) -> None:
        self._apply(event)
        self._automate()

    def _automate(self) -> None:
        """The moves the rules or the options make for the player (recorded as ``auto``)."""
        while True:
            if self.phase is Phase.MOVE and self.turn is not None and not self.turn.made:
                plays = self.turn.plays  # found with the turn's steps, at its roll
                if not plays:
                    # RULES.md, Moving: "With no legal move the turn is lost."
                    self._apply(Event(Action.PASS, self.on_roll, steps=(), auto=True))
                    continue
                if self.rules.auto_forced and len(plays) == 1:
                    steps = path_of(plays[0])
                    self._apply(Event(Action.PLAY, self.on_roll, steps=steps, auto=True))
                    continue
            if (
                self.phase is Phase.ROLL
                and self.rules.auto_race_roll
                and self._is_race()
                and not self.may_double()
            ):
                try:
                    roll = self._draw()
                except InvalidDiceError:
                    return  # physical dice not entered yet: the player rolls by hand
                self._apply(Event(Action.ROLL, self.on_roll, dice=roll, auto=True))
                continue
            return

    def _draw(self) -> Dice:
        return opening.draw(self.dice_source, self.rolls_drawn)

    def _check(self, event: Event) -> None:
        """Raise IllegalActionError unless ``event`` is allowed now (:func:`.refusals.refusal`);
        change nothing. The event is checked whole first (its seat, its details)."""
        check_seat(event.player)
        event.check_details()
        why = refusal(self, event.action, event.player, event.level)
        if why is not None:
            raise IllegalActionError(why)

    def _moment(self) -> _history.Moment[P]:
        return _history.Moment(
            self.phase,
            self.on_roll,
            self.position,
            self.dice,
            self.cube_value,
            self.cube_owner,
            self.cube_turned,
            self.offer,
        )

    def _apply(self, event: Event) -> None:
        """Check an event, apply it and append it to the record."""
        self._check(event)
        before = self._moment()
        action, player = event.action, event.player
        if action is Action.ROLL:
            self._apply_roll(event)
        elif action in (Action.DOUBLE, Action.TAKE, Action.DROP, Action.BEAVER):
            self._apply_cube(event)
        elif action in (Action.STEP, Action.UNDO, Action.CONFIRM, Action.PLAY, Action.PASS):
            self._apply_move(event)
        elif action in (Action.RESIGN, Action.ACCEPT, Action.REJECT):
            self._apply_resignation(event)
        elif action is Action.THROW:
            assert event.die is not None
            self.thrown = (player, event.die)
        elif action is Action.NAME:
            assert event.die is not None
            self._start_moving((event.die, event.die))
        elif action is Action.CLAIM:
            assert event.level is not None
            self._finish(player, event.level, self.points_for(event.level), "claim")
        elif action is Action.SEED and isinstance(self.dice_source, FairDice):
            assert event.seed is not None
            # The record, not the dice, counts the rolls drawn: a copy replaying it may share
            # dice that have rolled since (the draw sets the count again before each roll).
            self.dice_source.resume(self.rolls_drawn)
            self.dice_source.add_seed(player, event.seed)
        self.events.append(event)
        self._rolls += action is Action.ROLL
        self._moments.append(before)
        if self.phase is Phase.OVER and self.on_over is not None:
            self.on_over(self)

    def _apply_cube(self, event: Event) -> None:
        """Apply a double, or its answer: a take, a drop or a beaver."""
        action, player = event.action, event.player
        if action is Action.DOUBLE:
            self.offer = Offer(player, 1 - player, self.cube_value * 2)
            self.phase = Phase.CUBE
            return
        assert self.offer is not None
        if action is Action.TAKE:
            self.cube_value = self.offer.value
            # A beaver's maker keeps the cube; otherwise the taker owns it.
            self.cube_owner = self.offer.player if self.offer.beavered else player
            self.cube_turned = True
            self.offer = None
            self.phase = Phase.ROLL
        elif action is Action.DROP:
            self._finish(1 - player, WinKind.SINGLE, self.offer.value // 2, "drop")
        elif action is Action.BEAVER:
            self.offer = Offer(player, self.offer.player, self.offer.value * 2, beavered=True)

    def _apply_move(self, event: Event) -> None:
        """Apply a step of the turn, its undo, its confirmation, or a whole play (or pass)."""
        action = event.action
        if action in (Action.PLAY, Action.PASS):
            self._end_turn(self._play_of(event))
            return
        assert self.turn is not None
        if action is Action.STEP:
            assert event.steps
            (from_point, to_point), = event.steps
            self.turn = self.turn.step(from_point, to_point)
            self.phase = Phase.CONFIRM if self.turn.is_complete else Phase.MOVE
        elif action is Action.UNDO:
            self.turn = self.turn.undo()
            self.phase = Phase.CONFIRM if self.turn.is_complete and self.turn.made else Phase.MOVE
        elif action is Action.CONFIRM:
            self._end_turn(self.turn.play())

    def _apply_resignation(self, event: Event) -> None:
        """Apply an offer to resign, or its answer."""
        if event.action is Action.RESIGN:
            assert event.level is not None
            self.resignation = Resignation(event.player, event.level, self.phase)
            self.phase = Phase.RESIGN
            return
        assert self.resignation is not None
        if event.action is Action.ACCEPT:
            level = self.resignation.level
            self._finish(1 - self.resignation.player, level, self.points_for(level), "resign")
        elif event.action is Action.REJECT:
            self.phase = self.resignation.resume
            self.resignation = None

    def _apply_roll(self, event: Event) -> None:
        if event.dice is None:
            raise IllegalActionError("A roll must record its dice.")
        first, second = event.dice
        if self.phase is Phase.OPENING:
            opening.check_own_dice(self.rules, self.thrown, event)
            self.thrown = None
            # RULES.md, Starting: "Each player rolls one die. The higher roll moves first,
            # playing the two numbers just rolled. Equal numbers: both roll again."
            if first == second:
                if self.rules.doubles_on_tie(
                    in_match=self.in_match, made=self.automatic_doubles, cube_value=self.cube_value
                ):
                    self.automatic_doubles += 1
                    self.cube_value *= 2
                return
            self.on_roll = 0 if first > second else 1
            if self.on_roll == 1:
                self.position = self.position.flip()
            if self.rules.opening_reroll:
                # RULES.md, Starting (option): the first player rolls both dice afresh.
                self.phase = Phase.ROLL
                return
            self._start_moving((first, second) if first > second else (second, first))
            return
        self._start_moving((first, second))

    def _start_moving(self, dice: Dice) -> None:
        self.dice = dice
        self.turn = self._turn_for(dice)
        self.phase = Phase.MOVE

    def _play_of(self, event: Event) -> PlayOn[P]:
        """The play an event's steps make, or IllegalActionError if they make none."""
        assert self.turn is not None
        steps = event.steps or ()
        if not steps:
            if self.turn.plays:
                raise IllegalPlayError("A legal move exists, so the turn may not be passed.")
            return self._no_play()
        # The turn rolled, whatever steps were made since: its plays and step orders are
        # found once, at the roll.
        turn = self.turn.restarted()
        for from_point, to_point in steps:
            turn = turn.step(from_point, to_point)
        return turn.play()

    def _end_turn(self, play: PlayOn[P]) -> None:
        dice = self.dice
        assert dice is not None
        self.plays.append((self.on_roll, dice, play if play.steps else None))
        self.position = play.result
        self.on_roll = 1 - self.on_roll
        self.dice = None
        self.turn = None
        result = self._ended()
        if result is not None:
            self._finish(result.winner, result.kind, result.points, result.reason)
            return
        after = self._after_play(play, dice)
        if after is None:
            self.phase = Phase.ROLL
            return
        # The same player goes on (Acey-deucey's 1-2): the move comes back to them.
        self.on_roll = 1 - self.on_roll
        self.position = self.position.flip()
        self.phase = after

    def _finish(self, winner: int, kind: WinKind, points: int, reason: str) -> None:
        self.result = GameResult(winner, kind, points, reason)
        self.phase = Phase.OVER
        self.offer = None
        self.resignation = None
        self.turn = None
        self.dice = None

    # Views

    def awaited_before(self, start: int = 0) -> list[tuple[int, ...]]:
        """For each event of the record (from ``start`` on), the seats the game waited for
        just before it: both at the opening roll (either may roll it, or throw their own
        die first), none once over, otherwise the one seat :attr:`player_to_act` named then
        (the clocks charge each wait to these: :mod:`backgammon.game.clock`).

        >>> from backgammon.dice import ManualDice
        >>> from backgammon.game import Game
        >>> game = Game(dice=ManualDice(["6 1"]))
        >>> game.roll(1)                # either seat rolls the opening: seat 0 wins it
        >>> game.resign(0); game.accept(1)
        >>> game.awaited_before()
        [(0, 1), (0,), (1,)]
        >>> game.awaited_before(2)
        [(1,)]
        >>> own = Game(Rules(own_opening_dice=True), ManualDice(["6 1"]))
        >>> own.roll(1); own.roll(0)        # seat 1 throws its die, then seat 0 its own
        >>> own.awaited_before()
        [(0, 1), (0,)]
        """
        return _history.awaited(self.events, self._moments, start)

    @property
    def rolls_drawn(self) -> int:
        """How many rolls the game has drawn from its dice source: one for each roll in the
        record (the opening roll's two dice are one roll)."""
        return self._rolls

    def seat_of(self, colour: str) -> int:
        """The seat that plays ``colour``."""
        if colour not in self.colours:
            raise BackgammonError(f"No seat plays {colour!r}; the colours are {self.colours}.")
        return self.colours.index(colour)

    def position_for(self, seat: int) -> P:
        """The position as ``seat`` sees it (their checkers as "mine")."""
        return self.position if check_seat(seat) == self.on_roll else self.position.flip()

    def to_dict(self, *, secrets: bool = False) -> dict[str, Any]:
        """The game as plain JSON values (:func:`~.record.game_to_dict`)."""
        return game_to_dict(self, secrets=secrets)

    def to_json(self, *, secrets: bool = False) -> str:
        """The game as JSON text; :meth:`from_json` rebuilds it exactly."""
        return json.dumps(self.to_dict(secrets=secrets), separators=(",", ":"))

    @classmethod
    def from_dict(
        cls, data: dict[str, Any], dice: DiceSource | None = None, *, resume: bool = False
    ) -> Self:
        """Rebuild a game by replaying its record; a clear error for what is malformed.
        ``resume``: seeded ``dice`` go on from where the record's rolls left them
        (:meth:`~backgammon.dice.SeededDice.resume`); otherwise they start afresh."""
        game = game_from_dict(cls, data, dice)
        dice = game.dice_source  # fair dice always stand where the record left them
        if isinstance(dice, FairDice) or (resume and isinstance(dice, SeededDice)):
            dice.resume(game.rolls_drawn)
        return game

    def apply_record(self, events: Sequence[dict[str, Any]], where: str) -> None:
        """Apply recorded events (as :meth:`Event.to_dict` writes them), naming ``where``
        and the event in any error."""
        if not isinstance(events, list):
            raise BackgammonError(f"The record of {where} is not a list of events.")
        for number, event in enumerate(events, start=1):
            try:
                self._apply(Event.from_dict(event))
            except BackgammonError as exc:
                raise BackgammonError(f"Event {number} of {where}: {exc}") from exc

    @classmethod
    def from_json(
        cls, text: str, dice: DiceSource | None = None, *, resume: bool = False
    ) -> Self:
        """Rebuild a game from :meth:`to_json` (``resume`` as for :meth:`from_dict`)."""
        return cls.from_dict(load_json(text, "game"), dice, resume=resume)

    def copy(self) -> Self:
        """An independent copy, rebuilt from the record."""
        return type(self).replay(self.rules, self.events, **self._options())

    def _options(self) -> dict[str, Any]:
        """What the game was made with besides its rules, as its constructor takes them."""
        return {"dice": self.dice_source, "crawford": self.crawford, "in_match": self.in_match,
                "colours": self.colours, "score": self.score}

    def _start_to_dict(self) -> dict[str, Any]:
        """A subclass's: the starting board as the record keeps it."""
        raise NotImplementedError

    @classmethod
    def _start_from_dict(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A subclass's: the constructor's arguments for the start a record keeps."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return (f"<{type(self).__name__} {self.phase} seat {self.on_roll} on roll, "
                f"cube {self.cube_value}>")
