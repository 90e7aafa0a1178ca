"""The record of a game: the events it is made of (and their JSON), the actions players make
as values, and how a game ended.

>>> Event(Action.ROLL, 0, dice=(6, 1), time="t").to_dict()
{'action': 'roll', 'player': 0, 'dice': [6, 1], 'time': 't'}
>>> Act(Action.STEP, step=(13, 7))
Act(action=<Action.STEP: 'step'>, step=(13, 7), play=None, level=None, seed=None, die=None)
>>> Act(Action.RESIGN).level
<WinKind.SINGLE: 1>
>>> Act(Action.ROLL, level=WinKind.GAMMON)
Traceback (most recent call last):
...
backgammon.game.IllegalActionError: A roll takes no level.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from ..dice import Dice, DiceSource, check_dice, check_die
from ..errors import BackgammonError
from ..fairdice import FairDice, check_player_seed
from ..games.base import HasSteps
from ..moves import Play
from ..position import WinKind
from .rules import (
    BEFORE_FIRST_ROLL,
    Action,
    IllegalActionError,
    Rules,
    check_level,
    check_seat,
)

if TYPE_CHECKING:
    from .machine import Machine

G = TypeVar("G", bound="Machine[Any]")

#: The version of the JSON that games and matches are saved as.
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class Event:
    """One entry of the record: who did what, with what, when.

    ``dice`` for a roll (for the opening roll: seat 0's die, then seat 1's); ``die`` for the
    first die of an opening roll thrown alone (:attr:`~.rules.Rules.own_opening_dice`),
    which the roll that completes it keeps; ``steps`` for a
    step (one) or a play (all, possibly none); ``level`` for a resignation; ``auto`` when the
    game made the move for the player (a forced play, a pass, a roll in a race); ``seed`` for
    a player's own seed for the fair dice (:mod:`backgammon.fairdice`), so that every copy of
    the game that replays its record rolls with it.
    """

    action: Action
    player: int
    dice: Dice | None = None
    steps: tuple[tuple[int, int], ...] | None = None
    level: WinKind | None = None
    auto: bool = False
    time: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="milliseconds"))
    seed: str | None = None
    die: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """The event as plain JSON values, leaving out what is empty."""
        data: dict[str, Any] = {"action": self.action.value, "player": self.player}
        if self.dice is not None:
            data["dice"] = list(self.dice)
        if self.die is not None:
            data["die"] = self.die
        if self.steps is not None:
            data["steps"] = [list(step) for step in self.steps]
        if self.level is not None:
            data["level"] = int(self.level)
        if self.auto:
            data["auto"] = True
        if self.seed is not None:
            data["seed"] = self.seed
        data["time"] = self.time
        return data

    @cached_property
    def text(self) -> str:
        """:meth:`to_dict` as compact JSON text, made once: an event is a recorded fact that
        never changes, and a match's record, written whole at each action, is mostly the
        texts of its past events (:meth:`backgammon.game.match.Match.to_json`).

        >>> Event(Action.ROLL, 0, dice=(6, 1), time="t").text
        '{"action":"roll","player":0,"dice":[6,1],"time":"t"}'
        """
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        """An event from :meth:`to_dict`, with a clear error for what is malformed."""
        try:
            return cls(
                action=Action(data["action"]),
                player=check_seat(data["player"]),
                dice=check_dice(data["dice"]) if data.get("dice") is not None else None,
                steps=(
                    tuple((int(a), int(b)) for a, b in data["steps"])
                    if data.get("steps") is not None
                    else None
                ),
                level=WinKind(data["level"]) if data.get("level") is not None else None,
                auto=bool(data.get("auto", False)),
                time=str(data["time"]),
                seed=check_player_seed(data["seed"]) if data.get("seed") is not None else None,
                die=check_die(data["die"]) if data.get("die") is not None else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise BackgammonError(f"A recorded event is malformed ({exc}): {data!r}.") from exc

    def check_details(self) -> None:
        """Refuse an event that lacks what its action needs (a record may have been edited)."""
        action = self.action
        if action is Action.ROLL and self.dice is None:
            raise IllegalActionError("A roll must record its dice.")
        if action is Action.THROW:
            if self.die is None:
                raise IllegalActionError("A throw of an opening die must record its die.")
            check_die(self.die)
        if action is Action.NAME:
            if self.die is None:
                raise IllegalActionError("A double named must record its number.")
            check_die(self.die)
        if action is Action.STEP and (self.steps is None or len(self.steps) != 1):
            raise IllegalActionError(
                "A step moves exactly one checker from one point to another."
            )
        if action in (Action.PLAY, Action.PASS) and self.steps is None:
            raise IllegalActionError("A play must record its steps (none for a pass).")
        if action in (Action.RESIGN, Action.CLAIM):
            check_level(self.level)
        if action is Action.SEED:
            if self.seed is None:
                raise IllegalActionError("A seed must record the player's seed.")
            check_player_seed(self.seed)


_ARGUMENTS = {
    Action.STEP: "step",
    Action.PLAY: "play",
    Action.RESIGN: "level",
    Action.CLAIM: "level",
    Action.SEED: "seed",
    Action.NAME: "die",
}
_NAMES = {
    Action.STEP: "a step",
    Action.PLAY: "a play",
    Action.RESIGN: "a resignation",
    Action.ROLL: "a roll",
    Action.DOUBLE: "a double",
    Action.TAKE: "a take",
    Action.DROP: "a drop",
    Action.BEAVER: "a beaver",
    Action.UNDO: "an undo",
    Action.CONFIRM: "a confirm",
    Action.ACCEPT: "an accept",
    Action.REJECT: "a reject",
    Action.CLAIM: "a claim",
    Action.SEED: "a seed",
    Action.JOIN: "a seat taken",
    Action.THROW: "a throw",
    Action.NAME: "a double named",
}


@dataclass(frozen=True)
class Act:
    """One action a player makes, as a value: :meth:`Game.act` makes it.

    ``action`` says what is done. A step names the checker's ``step`` (from point, to point:
    25 is the bar, 0 off); a play names the whole ``play`` (a :class:`~backgammon.moves.Play`
    or its notation); a resignation or a claim its ``level`` (a single game unless said); a
    seed the player's ``seed`` for the fair dice; a double named (Acey-deucey's, after a
    1-2) its number, ``die``. The other actions take nothing, and a pass
    is never made by a player: the game passes a roll that has no legal move itself.
    """

    action: Action
    step: tuple[int, int] | None = None
    play: Play | str | None = None
    level: WinKind | None = None
    seed: str | None = None
    die: int | None = None

    def __post_init__(self) -> None:
        try:
            action = Action(self.action)
        except ValueError:
            names = ", ".join(a.value for a in Action if a not in (Action.PASS, Action.THROW))
            raise IllegalActionError(
                f"{self.action!r} is not an action: choose one of {names}."
            ) from None
        object.__setattr__(self, "action", action)
        if action is Action.PASS:
            raise IllegalActionError(
                "A pass is not a player's action: the game passes a roll with no legal move."
            )
        if action is Action.THROW:
            raise IllegalActionError(
                "A throw is not an action of its own: a roll at the opening throws the "
                "player's own die where each player throws theirs."
            )
        if action in (Action.RESIGN, Action.CLAIM):
            level = WinKind.SINGLE if self.level is None else self.level
            object.__setattr__(self, "level", check_level(level))
        needed = _ARGUMENTS.get(action)
        for name in ("step", "play", "level", "seed", "die"):
            given = getattr(self, name) is not None
            if name == needed and not given:
                raise IllegalActionError(f"{_NAMES[action].capitalize()} needs its {name}.")
            if name != needed and given:
                raise IllegalActionError(f"{_NAMES[action].capitalize()} takes no {name}.")


@dataclass(frozen=True)
class GameResult:
    """How a game ended: the winner's seat, the kind of win, the points and why."""

    winner: int
    kind: WinKind
    points: int
    reason: str  # "bear off", "drop", "resign" or "claim"


def begun(game: Machine[Any]) -> bool:
    """Whether ``game``'s record holds more than the players' seeds for its dice and the
    seats taken: a game waits, empty or with those only, for its opening roll (the game a
    match or session opens after each finished one, too)."""
    return any(event.action not in BEFORE_FIRST_ROLL for event in game.events)


def load_json(text: str, what: str) -> Any:
    """Parse saved JSON, with a sentence naming ``what`` was saved when it is not JSON."""
    try:
        return json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise BackgammonError(f"A saved {what} is not valid JSON: {exc}.") from exc
    except (ValueError, RecursionError):  # an integer of thousands of digits, deep nesting
        raise BackgammonError(
            f"A saved {what} is not one this program wrote: it holds a number of thousands "
            "of digits or is nested thousands deep."
        ) from None


def path_of(play: HasSteps) -> tuple[tuple[int, int], ...]:
    """The (from, to) of each step of ``play``, as the record keeps them."""
    return tuple((step.from_point, step.to_point) for step in play.steps)


def game_to_dict(game: Machine[Any], *, secrets: bool = False) -> dict[str, Any]:
    """``game`` as plain JSON values: its settings and its record, and its fair dice if it
    has them (the server seed once the game is over, or always with ``secrets``)."""
    dice = game.dice_source
    return {
        "schema": SCHEMA_VERSION,
        "rules": game.rules.to_dict(),
        "crawford": game.crawford,
        "in_match": game.in_match,
        **game._start_to_dict(),
        "colours": list(game.colours),
        "events": [event.to_dict() for event in game.events],
        **(
            {"dice": dice.to_dict(reveal=secrets or game.result is not None)}
            if isinstance(dice, FairDice)
            else {}
        ),
    }


def game_from_dict(kind: type[G], data: dict[str, Any], dice: DiceSource | None) -> G:
    """A game of class ``kind`` rebuilt from :func:`game_to_dict` by replaying its record; a
    clear error for what is malformed. Without ``dice``, a record's fair dice go on rolling
    (if it holds their server seed)."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
        raise BackgammonError(f"This is not a saved game of schema version {SCHEMA_VERSION}.")
    if dice is None and data.get("dice") is not None:
        dice = FairDice.from_dict(data["dice"])
    try:
        game = kind(
            Rules.from_dict(data["rules"]),
            dice,
            crawford=bool(data["crawford"]),
            in_match=bool(data["in_match"]),
            colours=(str(data["colours"][0]), str(data["colours"][1])),
            **kind._start_from_dict(data),
        )
        events = data["events"]
    except (KeyError, TypeError, IndexError) as exc:
        raise BackgammonError(f"A saved game is missing or garbles {exc}.") from exc
    game.apply_record(events, "the saved game")
    return game
