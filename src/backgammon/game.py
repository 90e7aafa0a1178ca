"""One game of backgammon: a state machine over an append-only record of events.

Every action (roll, double, take, drop, beaver, step, undo, confirm, play, resign, accept,
reject) is checked against the phase of the game and the player who makes it, then written to
the record as an :class:`Event` and applied. The record is the single source of truth: replaying
it rebuilds the game exactly. Seats are numbered 0 and 1; the position is always seen from the
player on roll.

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

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from .cube import CubeContext, CubeOwner, MatchScore, jacoby_applies
from .dice import Dice, DiceSource, SecureDice, check_dice
from .errors import BackgammonError, IllegalPlayError, InvalidDiceError
from .moves import Play, Turn
from .position import Position, WinKind
from .variants import Variant

SCHEMA_VERSION = 1


class IllegalActionError(BackgammonError):
    """An action out of turn, or not allowed in this phase of the game or by these rules."""


class Phase(StrEnum):
    """What the game waits for."""

    OPENING = "opening roll"
    ROLL = "roll or double"
    CUBE = "take or drop"
    MOVE = "move"
    CONFIRM = "confirm"
    RESIGN = "answer resignation"
    OVER = "game over"


_WAITS_FOR = {
    Phase.OPENING: "for the opening roll",
    Phase.ROLL: "for a roll or a double",
    Phase.CUBE: "for a take or a drop",
    Phase.MOVE: "for a move",
    Phase.CONFIRM: "for the move to be confirmed",
    Phase.RESIGN: "for an answer to the resignation",
    Phase.OVER: "for nothing: the game is over",
}


class Action(StrEnum):
    """What a player can do; each is one kind of event in the record."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    STEP = "step"
    UNDO = "undo"
    CONFIRM = "confirm"
    PLAY = "play"
    PASS = "pass"  # written by the game itself when the roll has no legal move
    RESIGN = "resign"
    ACCEPT = "accept"
    REJECT = "reject"


@dataclass(frozen=True)
class Rules:
    """The options of a game, each off unless chosen (RULES.md, Doubling, Matches).

    ``automatic_doubles`` is the cap of automatic doubles a game (0: none); ``max_cube`` the
    highest cube value (None: no limit). ``opening_reroll``: the winner of the opening roll
    rolls afresh. ``auto_forced`` plays a forced play for the player; ``auto_race_roll`` rolls
    for a player in a pure race who has no cube action.
    """

    variant: Variant = Variant.STANDARD
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    max_cube: int | None = None
    opening_reroll: bool = False
    auto_forced: bool = False
    auto_race_roll: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", Variant(self.variant))
        switches = ("cube", "jacoby", "beavers", "opening_reroll", "auto_forced", "auto_race_roll")
        for name in switches:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise BackgammonError(f"The option {name} is true or false; got {value!r}.")
        if (
            isinstance(self.automatic_doubles, bool)
            or not isinstance(self.automatic_doubles, int)
            or self.automatic_doubles < 0
        ):
            raise BackgammonError("The cap of automatic doubles is a whole number, 0 or more.")
        if self.max_cube is not None and (
            isinstance(self.max_cube, bool)
            or not isinstance(self.max_cube, int)
            or self.max_cube < 1
            or self.max_cube & (self.max_cube - 1)
        ):
            raise BackgammonError("The highest cube value is a power of two, such as 64.")

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON values."""
        return {**asdict(self), "variant": self.variant.value}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`; unknown names are refused."""
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise BackgammonError(f"Unknown game options: {', '.join(sorted(unknown))}.")
        return cls(**data)


@dataclass(frozen=True)
class Event:
    """One entry of the record: who did what, with what, when.

    ``dice`` for a roll (for the opening roll: seat 0's die, then seat 1's); ``steps`` for a
    step (one) or a play (all, possibly none); ``level`` for a resignation; ``auto`` when the
    game made the move for the player (a forced play, a pass, a roll in a race).
    """

    action: Action
    player: int
    dice: Dice | None = None
    steps: tuple[tuple[int, int], ...] | None = None
    level: WinKind | None = None
    auto: bool = False
    time: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON values, leaving out what is empty."""
        data: dict[str, Any] = {"action": self.action.value, "player": self.player}
        if self.dice is not None:
            data["dice"] = list(self.dice)
        if self.steps is not None:
            data["steps"] = [list(step) for step in self.steps]
        if self.level is not None:
            data["level"] = int(self.level)
        if self.auto:
            data["auto"] = True
        data["time"] = self.time
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """An event from :meth:`to_dict`, with a clear error for what is malformed."""
        try:
            return cls(
                action=Action(data["action"]),
                player=_seat(data["player"]),
                dice=check_dice(data["dice"]) if data.get("dice") is not None else None,
                steps=(
                    tuple((int(a), int(b)) for a, b in data["steps"])
                    if data.get("steps") is not None
                    else None
                ),
                level=WinKind(data["level"]) if data.get("level") is not None else None,
                auto=bool(data.get("auto", False)),
                time=str(data["time"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BackgammonError(f"A recorded event is malformed ({exc}): {data!r}.") from exc


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winner's seat, the kind of win, the points and why."""

    winner: int
    kind: WinKind
    points: int
    reason: str  # "bear off", "drop" or "resign"


@dataclass(frozen=True)
class SetUp:
    """A game set up in the middle of play, as a GNU Backgammon ID or an XGID describes one:
    the position seen from the player on roll (``on_roll``), the dice that player has rolled
    (None: the game waits for a roll or a double) and the cube. Constructing one checks it.

    >>> SetUp(Position.initial(), on_roll=1, dice=(6, 5)).to_dict()["dice"]
    [6, 5]
    >>> SetUp(Position.initial(), cube_value=3)
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: The cube shows a power of two from 1 to 4096; got 3.
    """

    position: Position
    on_roll: int = 0
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise BackgammonError(f"A set-up needs a Position; got {self.position!r}.")
        if self.position.is_game_over():
            raise BackgammonError("The set-up position has no game left: a side is all off.")
        _seat(self.on_roll)
        if self.dice is not None:
            object.__setattr__(self, "dice", check_dice(self.dice))
        value = self.cube_value
        if not (isinstance(value, int) and 1 <= value <= 4096 and value & (value - 1) == 0):
            raise BackgammonError(f"The cube shows a power of two from 1 to 4096; got {value!r}.")
        if self.cube_owner is not None:
            _seat(self.cube_owner)

    def to_dict(self) -> dict[str, Any]:
        """The set-up as plain JSON values."""
        return {
            "id": self.position.id(),
            "checkers": self.position.checkers,
            "on_roll": self.on_roll,
            "dice": None if self.dice is None else list(self.dice),
            "cube_value": self.cube_value,
            "cube_owner": self.cube_owner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SetUp:
        """A set-up from :meth:`to_dict`."""
        dice = data["dice"]
        return cls(
            Position.from_id(data["id"], checkers=data["checkers"]),
            on_roll=data["on_roll"],
            dice=None if dice is None else check_dice(dice),
            cube_value=data["cube_value"],
            cube_owner=data["cube_owner"],
        )


def _seat(player: object) -> int:
    if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
        raise IllegalActionError(f"A player is seat 0 or seat 1; got {player!r}.")
    return player


class Game:
    """One game, from the opening roll to its result."""

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
        self.rules = rules or Rules()
        if in_match and (self.rules.jacoby or self.rules.beavers or self.rules.automatic_doubles):
            raise BackgammonError(
                "Jacoby, beavers and automatic doubles do not apply in matches."
            )
        self.dice_source: DiceSource = dice or SecureDice()
        self.crawford = crawford
        self.in_match = in_match or score is not None
        if score is not None and score.crawford != crawford:
            raise BackgammonError("The match score and the game disagree on the Crawford game.")
        self.score = score
        if setup is not None:
            if start is not None:
                raise BackgammonError("A game has a starting position or a set-up, not both.")
            start = setup.position if setup.on_roll == 0 else setup.position.flip()
        self.start = start or Position.initial(self.rules.variant)
        self.setup = setup
        if self.start.checkers != self.rules.variant.checkers:
            raise BackgammonError(
                f"The position has {self.start.checkers} checkers a side; "
                f"{self.rules.variant.value.capitalize()} is played with "
                f"{self.rules.variant.checkers} checkers a side."
            )
        if self.start.is_game_over():
            raise BackgammonError("The starting position has no game left: a side is all off.")
        if len(colours) != 2 or colours[0] == colours[1]:
            raise BackgammonError("The two seats need two different colours.")
        self.colours = colours
        self.on_over = on_over
        self.events: list[Event] = []
        # The state, all of it derived from the events.
        self.phase = Phase.OPENING
        self.on_roll = 0
        self.position = self.start
        self.dice: Dice | None = None
        self.cube_value = 1
        self.cube_owner: int | None = None
        self.cube_turned = False
        self.automatic_doubles = 0
        self.offer: _Offer | None = None
        self.resignation: _Resignation | None = None
        self.turn: Turn | None = None
        self.result: GameResult | None = None
        self.plays: list[tuple[int, Dice, Play | None]] = []
        if setup is not None:
            self._set_up(setup)

    def _set_up(self, setup: SetUp) -> None:
        if setup.cube_value > 1 or setup.cube_owner is not None:
            if not self.rules.cube:
                raise BackgammonError("The set-up has a turned cube, but this game has no cube.")
            if self.crawford:
                raise BackgammonError("The set-up has a turned cube in the Crawford game.")
            if not self._cube_may_reach(setup.cube_value):
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

    # Replay

    @classmethod
    def replay(
        cls, rules: Rules, events: Sequence[Event], **options: Any
    ) -> Game:
        """The game rebuilt from its record (no dice are drawn: the record holds them)."""
        game = cls(rules, **options)
        for event in events:
            game._apply(event)
        return game

    # Who may act

    @property
    def player_to_act(self) -> int | None:
        """The seat the game waits for (None at the opening roll, which either may make)."""
        if self.phase in (Phase.ROLL, Phase.MOVE, Phase.CONFIRM):
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
        player = self.on_roll if player is None else _seat(player)
        return (
            self.phase is Phase.ROLL
            and player == self.on_roll
            and self.rules.cube
            and not self.crawford
            and self.cube_owner in (None, player)
            and self._cube_may_reach(self.cube_value * 2)
        )

    def cube_context(self, seat: int) -> CubeContext:
        """The cube as ``seat`` sees it now: value, owner, match score and the options in
        force, for every question that depends on the stake (the bot's, the hints').

        >>> game = Game(Rules(jacoby=True, beavers=True))
        >>> context = game.cube_context(1)
        >>> context.owner, context.jacoby, context.beavers, context.match
        (<CubeOwner.CENTRE: 'centre'>, True, True, None)
        """
        _seat(seat)
        if self.in_match and self.score is None:
            raise BackgammonError("This game of a match was made without its match score.")
        owner = (
            CubeOwner.CENTRE
            if self.cube_owner is None
            else CubeOwner.ON_ROLL
            if self.cube_owner == seat
            else CubeOwner.OPPONENT
        )
        score = self.score if self.score is None or seat == 0 else self.score.flip()
        return CubeContext(
            self.cube_value,
            owner,
            score,
            jacoby=jacoby_applies(self.rules.jacoby, self.in_match, self.cube_turned),
            beavers=self.rules.beavers and not self.in_match,
            # Without a cube it stays where it is: the highest value it may reach is its own.
            max_cube=self.rules.max_cube if self.rules.cube else self.cube_value,
        )

    def _cube_may_reach(self, value: int) -> bool:
        return self.rules.max_cube is None or value <= self.rules.max_cube

    def legal_actions(self, player: int) -> list[Action]:
        """The actions ``player`` may take now, for interfaces to offer."""
        _seat(player)
        actions: list[Action] = []
        for action in Action:
            if action is Action.PASS:
                continue
            try:
                self._check(Event(action, player, (1, 1), ((0, 0),), WinKind.SINGLE))
            except BackgammonError:
                continue
            actions.append(action)
        return actions

    # Actions

    def roll(self, player: int) -> None:
        """Roll the dice: the opening roll (one die a seat), or the player's roll."""
        # Checked before the dice are drawn, so a refused roll spends no entered dice.
        self._check(Event(Action.ROLL, player, dice=(1, 2)))
        self._act(Event(Action.ROLL, player, dice=self.dice_source.roll()))

    def double(self, player: int) -> None:
        """Offer to double the stake, at the start of one's turn before rolling."""
        self._act(Event(Action.DOUBLE, player))

    def take(self, player: int) -> None:
        """Accept the double: play on for twice the stake, owning the cube."""
        self._act(Event(Action.TAKE, player))

    def drop(self, player: int) -> None:
        """Refuse the double, conceding the game at the stake before it."""
        self._act(Event(Action.DROP, player))

    def beaver(self, player: int) -> None:
        """Redouble at once on being doubled, keeping the cube (where beavers are allowed)."""
        self._act(Event(Action.BEAVER, player))

    def step(self, player: int, from_point: int, to_point: int) -> None:
        """Move one checker one die's worth; the turn waits for a confirm once complete."""
        self._act(Event(Action.STEP, player, steps=((from_point, to_point),)))

    def undo(self, player: int) -> None:
        """Take back the last step of this turn."""
        self._act(Event(Action.UNDO, player))

    def confirm(self, player: int) -> None:
        """End the turn once the steps make a whole play (the seed's "picking up the dice")."""
        self._act(Event(Action.CONFIRM, player))

    def play(self, player: int, play: Play | str) -> None:
        """Play a whole turn at once, as a Play or in notation, ending the turn."""
        self._check(Event(Action.PLAY, player, steps=()))
        assert self.dice is not None
        if isinstance(play, str):
            play = self.position.parse_play(play, self.dice)
        self._act(Event(Action.PLAY, player, steps=_path(play)))

    def resign(self, player: int, level: WinKind | int = WinKind.SINGLE) -> None:
        """Offer to resign, conceding a single game, a gammon or a backgammon."""
        self._act(Event(Action.RESIGN, player, level=_level(level)))

    def accept(self, player: int) -> None:
        """Accept the opponent's resignation, ending the game at its level."""
        self._act(Event(Action.ACCEPT, player))

    def reject(self, player: int) -> None:
        """Reject the opponent's resignation; the game goes on."""
        self._act(Event(Action.REJECT, player))

    # The machine

    def _act(self, event: Event) -> None:
        self._apply(event)
        self._automate()

    def _automate(self) -> None:
        """The moves the rules or the options make for the player (recorded as ``auto``)."""
        while True:
            if self.phase is Phase.MOVE and self.turn is not None:
                assert self.dice is not None
                plays = self.position.legal_plays(self.dice)
                if not plays:
                    # RULES.md, Moving: "With no legal move the turn is lost."
                    self._apply(Event(Action.PASS, self.on_roll, steps=(), auto=True))
                    continue
                if self.rules.auto_forced and len(plays) == 1 and not self.turn.made:
                    steps = _path(plays[0])
                    self._apply(Event(Action.PLAY, self.on_roll, steps=steps, auto=True))
                    continue
            if (
                self.phase is Phase.ROLL
                and self.rules.auto_race_roll
                and self.position.is_race()
                and not self.may_double()
            ):
                try:
                    roll = self.dice_source.roll()
                except InvalidDiceError:
                    return  # physical dice not entered yet: the player rolls by hand
                self._apply(Event(Action.ROLL, self.on_roll, dice=roll, auto=True))
                continue
            return

    def _check(self, event: Event) -> None:
        """Raise IllegalActionError unless ``event`` is allowed now; change nothing."""
        action, player = event.action, _seat(event.player)
        _check_details(event)
        phase = self.phase
        if phase is Phase.OVER:
            raise IllegalActionError("The game is over.")
        if action is Action.RESIGN:
            if phase not in (Phase.ROLL, Phase.MOVE, Phase.CONFIRM):
                raise IllegalActionError(
                    f"A resignation cannot be offered while the game waits {_WAITS_FOR[phase]}."
                )
            return
        if action in (Action.ACCEPT, Action.REJECT):
            if phase is not Phase.RESIGN:
                raise IllegalActionError("There is no resignation to answer.")
        elif action in (Action.TAKE, Action.DROP, Action.BEAVER):
            if phase is not Phase.CUBE:
                raise IllegalActionError("There is no double to answer.")
            assert self.offer is not None
            if action is Action.BEAVER and (
                not self.rules.beavers
                or self.in_match
                or self.offer.beavered
                or not self._cube_may_reach(self.offer.value * 2)
            ):
                why = (
                    "the beaver has been made"
                    if self.offer.beavered
                    else f"the cube may not pass {self.rules.max_cube}"
                    if self.rules.beavers and not self.in_match
                    else "beavers are off"
                )
                raise IllegalActionError(f"A beaver is not allowed here: {why}.")
        elif action is Action.ROLL:
            if phase not in (Phase.OPENING, Phase.ROLL):
                raise IllegalActionError(
                    f"The dice cannot be rolled now: the game waits {_WAITS_FOR[phase]}."
                )
        elif action is Action.DOUBLE:
            if phase is not Phase.ROLL:
                raise IllegalActionError(
                    "A double is offered at the start of a turn, before rolling; "
                    f"the game waits {_WAITS_FOR[phase]}."
                )
        elif action in (Action.STEP, Action.PLAY, Action.PASS):
            if phase is not Phase.MOVE and not (action is Action.PLAY and phase is Phase.CONFIRM):
                raise IllegalActionError(
                    f"No checker can be moved now: the game waits {_WAITS_FOR[phase]}."
                )
        elif action is Action.UNDO:
            if phase not in (Phase.MOVE, Phase.CONFIRM) or not (self.turn and self.turn.made):
                raise IllegalActionError("There is no step of this turn to take back.")
        elif action is Action.CONFIRM and phase is not Phase.CONFIRM:
            raise IllegalActionError("The turn cannot end yet: the dice must still be played.")
        expected = self.player_to_act
        if expected is not None and player != expected:
            raise IllegalActionError(
                f"It is seat {expected}'s turn to {phase}, not seat {player}'s."
            )
        if action is Action.DOUBLE and not self.may_double(player):
            raise IllegalActionError(self._why_no_double(player))

    def _why_no_double(self, player: int) -> str:
        if not self.rules.cube:
            return "The cube is not used in this game."
        if self.crawford:
            return "No doubling in the Crawford game."
        if self.cube_owner not in (None, player):
            return "Only the cube's owner may redouble, and the opponent owns it."
        return f"The cube may not pass {self.rules.max_cube}."

    def _apply(self, event: Event) -> None:
        """Check an event, apply it and append it to the record."""
        self._check(event)
        action, player = event.action, event.player
        if action is Action.ROLL:
            self._apply_roll(event)
        elif action is Action.DOUBLE:
            self.offer = _Offer(player, 1 - player, self.cube_value * 2)
            self.phase = Phase.CUBE
        elif action is Action.TAKE:
            assert self.offer is not None
            self.cube_value = self.offer.value
            # A beaver's maker keeps the cube; otherwise the taker owns it.
            self.cube_owner = self.offer.player if self.offer.beavered else player
            self.cube_turned = True
            self.offer = None
            self.phase = Phase.ROLL
        elif action is Action.DROP:
            assert self.offer is not None
            self._finish(1 - player, WinKind.SINGLE, self.offer.value // 2, "drop")
        elif action is Action.BEAVER:
            assert self.offer is not None
            self.offer = _Offer(player, self.offer.player, self.offer.value * 2, beavered=True)
        elif action is Action.STEP:
            assert self.turn is not None and event.steps
            (from_point, to_point), = event.steps
            self.turn = self.turn.step(from_point, to_point)
            self.phase = Phase.CONFIRM if self.turn.is_complete else Phase.MOVE
        elif action is Action.UNDO:
            assert self.turn is not None
            self.turn = self.turn.undo()
            self.phase = Phase.CONFIRM if self.turn.is_complete and self.turn.made else Phase.MOVE
        elif action is Action.CONFIRM:
            assert self.turn is not None
            self._end_turn(self.turn.play())
        elif action in (Action.PLAY, Action.PASS):
            self._end_turn(self._play_of(event))
        elif action is Action.RESIGN:
            assert event.level is not None
            self.resignation = _Resignation(player, event.level, self.phase)
            self.phase = Phase.RESIGN
        elif action is Action.ACCEPT:
            assert self.resignation is not None
            level = self.resignation.level
            self._finish(1 - self.resignation.player, level, self._points(level), "resign")
        elif action is Action.REJECT:
            assert self.resignation is not None
            self.phase = self.resignation.resume
            self.resignation = None
        self.events.append(event)
        if self.phase is Phase.OVER and self.on_over is not None:
            self.on_over(self)

    def _apply_roll(self, event: Event) -> None:
        if event.dice is None:
            raise IllegalActionError("A roll must record its dice.")
        first, second = event.dice
        if self.phase is Phase.OPENING:
            # RULES.md, Starting: "Each player rolls one die. The higher roll moves first,
            # playing the two numbers just rolled. Equal numbers: both roll again."
            if first == second:
                if (
                    self.rules.cube
                    and not self.in_match
                    and self.automatic_doubles < self.rules.automatic_doubles
                    and self._cube_may_reach(self.cube_value * 2)
                ):
                    # RULES.md, Doubling: "equal numbers on the opening roll double the
                    # stake; the cube shows 2 and stays in the middle."
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
        self.turn = self.position.turn(dice)
        self.phase = Phase.MOVE

    def _play_of(self, event: Event) -> Play:
        """The play an event's steps make, or IllegalActionError if they make none."""
        assert self.dice is not None
        steps = event.steps or ()
        plays = self.position.legal_plays(self.dice)
        if not steps:
            if plays:
                raise IllegalPlayError("A legal move exists, so the turn may not be passed.")
            return Play(self.position, (), self.position.flip())
        turn = self.position.turn(self.dice)
        for from_point, to_point in steps:
            turn = turn.step(from_point, to_point)
        return turn.play()

    def _end_turn(self, play: Play) -> None:
        assert self.dice is not None
        self.plays.append((self.on_roll, self.dice, play if play.steps else None))
        self.position = play.result
        self.on_roll = 1 - self.on_roll
        self.dice = None
        self.turn = None
        outcome = self.position.outcome()
        if outcome is not None:
            # The player who just moved is now the opponent of the player on roll.
            winner = 1 - self.on_roll
            self._finish(winner, outcome.kind, self._points(outcome.kind), "bear off")
            return
        self.phase = Phase.ROLL

    def _points(self, kind: WinKind) -> int:
        if jacoby_applies(self.rules.jacoby, self.in_match, self.cube_turned):
            return self.cube_value
        return self.cube_value * int(kind)

    def _finish(self, winner: int, kind: WinKind, points: int, reason: str) -> None:
        self.result = GameResult(winner, kind, points, reason)
        self.phase = Phase.OVER
        self.offer = None
        self.resignation = None
        self.turn = None
        self.dice = None

    # Views

    def seat_of(self, colour: str) -> int:
        """The seat that plays ``colour``."""
        if colour not in self.colours:
            raise BackgammonError(f"No seat plays {colour!r}; the colours are {self.colours}.")
        return self.colours.index(colour)

    def position_for(self, seat: int) -> Position:
        """The position as ``seat`` sees it (their checkers as "mine")."""
        return self.position if _seat(seat) == self.on_roll else self.position.flip()

    def to_dict(self) -> dict[str, Any]:
        """The game as plain JSON values: its settings and its record."""
        return {
            "schema": SCHEMA_VERSION,
            "rules": self.rules.to_dict(),
            "crawford": self.crawford,
            "in_match": self.in_match,
            "start": {"id": self.start.id(), "checkers": self.start.checkers},
            **({"setup": self.setup.to_dict()} if self.setup else {}),
            "colours": list(self.colours),
            "events": [event.to_dict() for event in self.events],
        }

    def to_json(self) -> str:
        """The game as JSON text; :meth:`from_json` rebuilds it exactly."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any], dice: DiceSource | None = None) -> Game:
        """Rebuild a game by replaying its record; a clear error for what is malformed."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
            raise BackgammonError(
                f"This is not a saved game of schema version {SCHEMA_VERSION}."
            )
        try:
            setup = SetUp.from_dict(data["setup"]) if data.get("setup") else None
            start = None
            if setup is None:
                start = Position.from_id(data["start"]["id"], checkers=data["start"]["checkers"])
            game = cls(
                Rules.from_dict(data["rules"]),
                dice,
                crawford=bool(data["crawford"]),
                in_match=bool(data["in_match"]),
                start=start,
                setup=setup,
                colours=(str(data["colours"][0]), str(data["colours"][1])),
            )
            events = data["events"]
        except (KeyError, TypeError, IndexError) as exc:
            raise BackgammonError(f"A saved game is missing or garbles {exc}.") from exc
        game.apply_record(events, "the saved game")
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
    def from_json(cls, text: str, dice: DiceSource | None = None) -> Game:
        """Rebuild a game from :meth:`to_json`."""
        return cls.from_dict(load_json(text, "game"), dice)

    def copy(self) -> Game:
        """An independent copy, rebuilt from the record."""
        return Game.replay(
            self.rules,
            self.events,
            dice=self.dice_source,
            crawford=self.crawford,
            in_match=self.in_match,
            start=None if self.setup else self.start,
            setup=self.setup,
            colours=self.colours,
            score=self.score,
        )

    def __repr__(self) -> str:
        return f"<Game {self.phase} seat {self.on_roll} on roll, cube {self.cube_value}>"


@dataclass(frozen=True)
class _Offer:
    """A double waiting for its answer: who offered, who decides, the stake if taken."""

    player: int
    decider: int
    value: int
    beavered: bool = False


@dataclass(frozen=True)
class _Resignation:
    player: int
    level: WinKind
    resume: Phase


def load_json(text: str, what: str) -> Any:
    """Parse saved JSON, with a sentence naming ``what`` was saved when it is not JSON."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise BackgammonError(f"A saved {what} is not valid JSON: {exc}.") from exc


def _level(level: object) -> WinKind:
    if isinstance(level, WinKind):
        return level
    if isinstance(level, int) and not isinstance(level, bool) and level in (1, 2, 3):
        return WinKind(level)
    raise IllegalActionError(
        "A resignation offers a single game (1), a gammon (2) or a backgammon (3); "
        f"got {level!r}."
    )


def _check_details(event: Event) -> None:
    """Refuse an event that lacks what its action needs (a record may have been edited)."""
    action = event.action
    if action is Action.ROLL and event.dice is None:
        raise IllegalActionError("A roll must record its dice.")
    if action is Action.STEP and (event.steps is None or len(event.steps) != 1):
        raise IllegalActionError("A step moves exactly one checker from one point to another.")
    if action in (Action.PLAY, Action.PASS) and event.steps is None:
        raise IllegalActionError("A play must record its steps (none for a pass).")
    if action is Action.RESIGN:
        _level(event.level)


def _path(play: Play) -> tuple[tuple[int, int], ...]:
    return tuple((step.from_point, step.to_point) for step in play.steps)


__all__ = [
    "Action",
    "Event",
    "Game",
    "GameResult",
    "IllegalActionError",
    "Phase",
    "Rules",
]
