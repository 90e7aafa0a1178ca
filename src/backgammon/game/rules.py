"""The rules a game is played by: its options, its phases, what each phase allows, and the
state of a double or a resignation waiting for an answer.

>>> Rules(automatic_doubles=1).doubles_on_tie(in_match=False, made=0, cube_value=1)
True
>>> Rules(automatic_doubles=1, max_cube=1).doubles_on_tie(in_match=False, made=0, cube_value=1)
False
>>> Rules(max_cube=3)
Traceback (most recent call last):
...
backgammon.errors.BackgammonError: The highest cube value is a power of two, such as 64.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Any

from ..cube import (
    HIGHEST_CUBE,
    CubeContext,
    CubeOwner,
    MatchScore,
    is_cube_value,
    is_whole,
    jacoby_applies,
)
from ..errors import BackgammonError
from ..games import TITLES, Backgammon, GameRules, Portes, rules_for
from ..position import WinKind
from ..variants import Variant


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
    NAME = "name a double"  # Acey-deucey: after playing a 1-2
    OVER = "game over"


#: What the game waits for in each phase, as the end of a sentence "the game waits ...".
WAITS_FOR = {
    Phase.OPENING: "for the opening roll",
    Phase.ROLL: "for a roll or a double",
    Phase.CUBE: "for a take or a drop",
    Phase.MOVE: "for a move",
    Phase.CONFIRM: "for the move to be confirmed",
    Phase.RESIGN: "for an answer to the resignation",
    Phase.NAME: "for a double to be named",
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
    CLAIM = "claim"  # the game of an absent opponent, as their resignation would give it
    SEED = "seed"  # a player's own seed for the fair dice, before the game's first roll
    THROW = "throw"  # the first die of an opening roll, thrown by its seat (own_opening_dice)
    JOIN = "join"  # a player elsewhere took their seat (an online match), before the first roll
    NAME = "name"  # Acey-deucey: the double a player names and plays after a 1-2


#: What may come before a game's first roll, in any phase (a game set up in the middle starts
#: past its opening): a player's seed for the fair dice, a seat taken by a player elsewhere;
#: each with why it is refused once a roll has been drawn.
BEFORE_FIRST_ROLL: dict[Action, str] = {
    Action.SEED: (
        "The dice of this game have been rolled: a seed may be added only before its first "
        "roll."
    ),
    Action.JOIN: "The game has begun: a seat is taken before its first roll.",
}

#: The actions each phase allows (RULES.md: a double before rolling, a resignation at one's
#: turn or the opponent's, a step or a play while the dice are to be played), and those of
#: :data:`BEFORE_FIRST_ROLL` in every phase but the end.
ALLOWED: dict[Phase, frozenset[Action]] = {
    phase: actions | BEFORE_FIRST_ROLL.keys()
    for phase, actions in {
        Phase.OPENING: frozenset({Action.ROLL, Action.THROW, Action.CLAIM}),
        Phase.ROLL: frozenset({Action.ROLL, Action.DOUBLE, Action.RESIGN, Action.CLAIM}),
        Phase.CUBE: frozenset({Action.TAKE, Action.DROP, Action.BEAVER, Action.CLAIM}),
        Phase.MOVE: frozenset(
            {Action.STEP, Action.UNDO, Action.PLAY, Action.PASS, Action.RESIGN, Action.CLAIM}
        ),
        Phase.CONFIRM: frozenset(
            {Action.UNDO, Action.CONFIRM, Action.PLAY, Action.RESIGN, Action.CLAIM}
        ),
        Phase.RESIGN: frozenset({Action.ACCEPT, Action.REJECT, Action.CLAIM}),
        Phase.NAME: frozenset({Action.NAME, Action.RESIGN, Action.CLAIM}),
    }.items()
}
ALLOWED[Phase.OVER] = frozenset()

#: Why an action is refused in a phase that does not allow it; ``{waits}`` is the phase's
#: :data:`WAITS_FOR`.
REFUSED_IN_PHASE: dict[Action, str] = {
    Action.ROLL: "The dice cannot be rolled now: the game waits {waits}.",
    Action.DOUBLE: (
        "A double is offered at the start of a turn, before rolling; the game waits {waits}."
    ),
    Action.TAKE: "There is no double to answer.",
    Action.DROP: "There is no double to answer.",
    Action.BEAVER: "There is no double to answer.",
    Action.STEP: "No checker can be moved now: the game waits {waits}.",
    Action.UNDO: "There is no step of this turn to take back.",
    Action.CONFIRM: "There is no play to confirm: the game waits {waits}.",
    Action.PLAY: "No checker can be moved now: the game waits {waits}.",
    Action.PASS: "No checker can be moved now: the game waits {waits}.",
    Action.RESIGN: "A resignation cannot be offered while the game waits {waits}.",
    Action.ACCEPT: "There is no resignation to answer.",
    Action.REJECT: "There is no resignation to answer.",
    Action.CLAIM: "A game is claimed while it waits for the other player; it waits {waits}.",
    Action.THROW: "An opening die is thrown at the opening roll; the game waits {waits}.",
    Action.SEED: BEFORE_FIRST_ROLL[Action.SEED],
    Action.JOIN: BEFORE_FIRST_ROLL[Action.JOIN],
    Action.NAME: "A double is named after a 1-2 is played in Acey-deucey; the game waits {waits}.",
}


@dataclass(frozen=True)
class Rules:
    """The options of a game, each off unless chosen (RULES.md, Doubling, Matches).

    ``automatic_doubles`` is the cap of automatic doubles a game (0: none); ``max_cube`` the
    highest cube value (None: no limit). ``opening_reroll``: the winner of the opening roll
    rolls afresh. ``own_opening_dice``: each player throws their own die at the opening roll
    (the first to roll throws theirs alone, and the game waits for the other's), as players
    apart from each other expect; otherwise either player's roll throws both. ``auto_forced``
    plays a forced play for the player; ``auto_race_roll`` rolls for a player in a pure race
    who has no cube action.
    """

    variant: Variant = Variant.STANDARD
    cube: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    max_cube: int | None = None
    opening_reroll: bool = False
    own_opening_dice: bool = False
    auto_forced: bool = False
    auto_race_roll: bool = False
    game: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", Variant(self.variant))
        if self.game is not None:
            self._check_game()
        switches = (
            "cube", "jacoby", "beavers", "opening_reroll", "own_opening_dice", "auto_forced",
            "auto_race_roll",
        )
        for name in switches:
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise BackgammonError(f"The option {name} is true or false; got {value!r}.")
        if not is_whole(self.automatic_doubles) or self.automatic_doubles < 0:
            raise BackgammonError("The cap of automatic doubles is a whole number, 0 or more.")
        if self.max_cube is not None and not is_cube_value(self.max_cube, None):
            raise BackgammonError("The highest cube value is a power of two, such as 64.")

    @classmethod
    def for_game(cls, name: str, **options: Any) -> Rules:
        """The rules of the game ``name`` with its own cube and opening (and ``options``).

        >>> Rules.for_game("Plakoto").cube, Rules.for_game("plakoto").opening_reroll
        (False, True)
        >>> Rules.for_game("standard") == Rules()
        True
        """
        game = rules_for(name)
        if isinstance(game, Backgammon) and not isinstance(game, Portes):
            return cls(variant=game.variant, **options)
        return cls(**{"cube": game.cube, "opening_reroll": game.opening_reroll, **options},
                     game=game.name)

    def _check_game(self) -> None:
        game = rules_for(str(self.game))
        if isinstance(game, Backgammon) and not isinstance(game, Portes):
            raise BackgammonError(f"{game.name.capitalize()} is backgammon: name its layout as "
                                  "the variant.")
        object.__setattr__(self, "game", game.name)
        if self.cube and not game.cube:
            raise BackgammonError(f"{TITLES[game.name]} is played without the cube.")
        if self.variant is not Variant.STANDARD or self.auto_race_roll:
            raise BackgammonError(f"{TITLES[game.name]} has no layouts and no race roll.")

    @property
    def game_rules(self) -> GameRules:
        """The rules object of the game played (:func:`backgammon.games.rules_for`)."""
        return _game_rules(self.game or self.variant.value)

    def may_reach(self, value: int) -> bool:
        """Whether the cube may show ``value`` under ``max_cube`` (without one, under
        :data:`~backgammon.cube.HIGHEST_CUBE`, as GNU Backgammon caps it)."""
        return value <= (HIGHEST_CUBE if self.max_cube is None else self.max_cube)

    def doubles_on_tie(self, *, in_match: bool, made: int, cube_value: int) -> bool:
        """Whether a tie at the opening roll doubles the cube now, ``made`` automatic doubles
        into the game with the cube at ``cube_value``: RULES.md, Doubling, "equal numbers on
        the opening roll double the stake; the cube shows 2 and stays in the middle" (an
        option of money play, up to the cap, and never past ``max_cube``)."""
        return (
            self.cube
            and not in_match
            and made < self.automatic_doubles
            and self.may_reach(cube_value * 2)
        )

    def to_dict(self) -> dict[str, Any]:
        """The rules as plain JSON values.

        >>> Rules(jacoby=True).to_dict()["jacoby"]
        True
        """
        # A copy of the plain values, worked out once for each set of rules: every save and
        # every state writes a match's rules out (dataclasses.asdict is slow).
        return dict(_plain(self))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict`; unknown names are refused."""
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise BackgammonError(f"Unknown game options: {', '.join(sorted(unknown))}.")
        return cls(**data)


def cube_context_for(
    rules: Rules,
    seat: int,
    *,
    value: int,
    owner: int | None,
    turned: bool,
    in_match: bool,
    score: MatchScore | None,
) -> CubeContext:
    """The cube as ``seat`` sees it: ``value``, the seat that ``owner``s it (None: the
    centre), whether it has been ``turned`` this game, and the game's match ``score`` (seat
    0's view; None for money play), under ``rules``."""
    if in_match and score is None:
        raise BackgammonError("This game of a match was made without its match score.")
    side = (
        CubeOwner.CENTRE
        if owner is None
        else CubeOwner.ON_ROLL
        if owner == seat
        else CubeOwner.OPPONENT
    )
    return CubeContext(
        value,
        side,
        score if score is None or seat == 0 else score.flip(),
        jacoby=jacoby_applies(rules.jacoby, in_match, turned),
        beavers=rules.beavers and not in_match,
        # Without a cube it stays where it is: the highest value it may reach is its own.
        max_cube=(rules.max_cube or HIGHEST_CUBE) if rules.cube else value,
    )


@dataclass(frozen=True)
class Offer:
    """A double waiting for its answer: who offered (``player``), who decides, the stake if
    taken (``value``), and whether the decider has beavered (then the first doubler decides,
    and the beaver's maker keeps the cube if it is taken)."""

    player: int
    decider: int
    value: int
    beavered: bool = False


@dataclass(frozen=True)
class Resignation:
    """An offer to resign waiting for its answer: who offers, at what level, and the phase
    the game goes back to if it is rejected."""

    player: int
    level: WinKind
    resume: Phase


def check_seat(player: object) -> int:
    """``player`` if it is a seat (0 or 1), else IllegalActionError saying so."""
    if not is_whole(player) or player not in (0, 1):
        raise IllegalActionError(f"A player is seat 0 or seat 1; got {player!r}.")
    return player


def check_level(level: object) -> WinKind:
    """``level`` as the WinKind a resignation offers, else IllegalActionError saying why."""
    if isinstance(level, WinKind):
        return level
    if is_whole(level) and level in (1, 2, 3):
        return WinKind(level)
    raise IllegalActionError(
        "A resignation offers a single game (1), a gammon (2) or a backgammon (3); "
        f"got {level!r}."
    )


def why_no_beaver(rules: Rules, in_match: bool, offer: Offer) -> str | None:
    """Why the decider may not beaver ``offer`` (None: they may): a beaver is money play's,
    with beavers on, made once, and the cube may not pass ``max_cube``."""
    if rules.beavers and not in_match and not offer.beavered and rules.may_reach(offer.value * 2):
        return None
    why = (
        "the beaver has been made"
        if offer.beavered
        else f"the cube may not pass {rules.max_cube}"
        if rules.beavers and not in_match
        else "beavers are off"
    )
    return f"A beaver is not allowed here: {why}."


def why_no_claim(
    claimer: int, awaited: int | None, absent: Sequence[int], level: WinKind
) -> str | None:
    """Why ``claimer`` may not claim the game at ``level`` (None: they may). RULES.md,
    Leaving a game: a game is claimed while it waits for the other player, the ``awaited``
    seat, whose checkers are ``absent`` (their own numbering: 0 borne off, 25 the bar), and
    for no more than the position can still give: a gammon while the absent side has borne
    off no checker, a backgammon while they also have one on the bar or in the claimer's
    home board.

    >>> from backgammon import Position
    >>> start = Position.initial().mine
    >>> why_no_claim(0, 1, start, WinKind.BACKGAMMON) is None
    True
    >>> race = Position.from_points({6: 15}, {6: 15}).mine
    >>> why_no_claim(0, 1, race, WinKind.BACKGAMMON).split(" while ")[0]
    'A backgammon can be claimed only'
    >>> why_no_claim(1, 1, start, WinKind.SINGLE)
    'A player claims the game while it waits for the other player, not for them.'
    """
    if awaited is None or awaited == claimer:
        return "A player claims the game while it waits for the other player, not for them."
    if level >= WinKind.GAMMON and absent[0]:
        return "A gammon can be claimed only while the absent side has borne off no checker."
    if level is WinKind.BACKGAMMON and not any(absent[19:26]):
        return (
            "A backgammon can be claimed only while the absent side has a checker on the bar "
            "or in the claimer's home board."
        )
    return None


def why_no_double(rules: Rules, crawford: bool, cube_owner: int | None, player: int) -> str:
    """Why ``player``, on roll before rolling, may not double."""
    if not rules.cube:
        return "The cube is not used in this game."
    if crawford:
        return "No doubling in the Crawford game."
    if cube_owner not in (None, player):
        return "Only the cube's owner may redouble, and the opponent owns it."
    return f"The cube may not pass {rules.max_cube}."


@lru_cache(maxsize=16)
def _game_rules(name: str) -> GameRules:
    return rules_for(name)


@lru_cache(maxsize=64)
def _plain(rules: Rules) -> dict[str, Any]:
    """:meth:`Rules.to_dict`'s values, made once for each set of rules in play (all are
    scalars, so a shallow copy of them is a whole one)."""
    plain = {**asdict(rules), "variant": rules.variant.value}
    if rules.game is None:
        del plain["game"]  # backgammon's rules are written as they were before other games
    return plain
