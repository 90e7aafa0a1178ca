"""What the terminal's table plays: the match or money session, of backgammon or of the other
games, the rules, who sits in each seat (people, or the computer in one), and where the first
game starts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..bot import LEVELS, Level
from ..dice import DiceSource
from ..errors import BackgammonError
from ..formats.ids import IdSetting
from ..game import Rules
from ..game.match import BoardMatch, Match
from .games import title

#: Who sits in a seat: a person, who types, or the computer, which the session lets act
#: whenever the game waits for its seat.
PlayerKind = Literal["human", "computer"]
PLAYER_KINDS: tuple[PlayerKind, ...] = ("human", "computer")

DEFAULT_NAMES = ("White", "Black")
#: The name of the computer's seat when no names are given.
COMPUTER_NAME = "Computer"


@dataclass(frozen=True)
class SessionOptions:
    """What the session plays: a match or a money session, from the start or a set-up; of
    backgammon, or of the other game the rules name (``Rules.for_game``), or of several in
    turn: ``rotation`` names them, as :class:`~backgammon.game.BoardMatch` takes it (a Tavli
    match: :data:`backgammon.games.TAVLI`, the rules those of its first game).

    ``length`` is the match length (0: money play); ``crawford`` whether a match keeps the
    Crawford rule; ``start`` sets the first game up in the middle of play, as an ID describes
    it (:func:`~backgammon.formats.ids.setup_from_id`: the position, who is on roll, the dice,
    the cube, and with a full ID the match length and score, which win over ``length``).
    ``players`` says who sits in each seat (the computer in one at most); ``level`` is the
    computer's strength and ``seed`` seeds its choices, so that seeded dice replay the same
    game.
    """

    length: int = 0
    rules: Rules = field(default_factory=Rules)
    names: tuple[str, str] = DEFAULT_NAMES
    crawford: bool = True
    start: IdSetting | None = None
    players: tuple[PlayerKind, PlayerKind] = ("human", "human")
    level: Level = Level.INTERMEDIATE
    seed: int | None = None
    rotation: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        names = tuple(name.strip() for name in self.names)
        if len(names) != 2 or not all(names) or names[0].lower() == names[1].lower():
            raise BackgammonError("The two players need two different names.")
        object.__setattr__(self, "names", names)
        for player in self.players:
            if player not in PLAYER_KINDS:
                raise BackgammonError(
                    f"A seat is played by one of {', '.join(PLAYER_KINDS)}; got {player!r}."
                )
        if "human" not in self.players:
            raise BackgammonError(
                "A person plays at least one seat: the computer plays one seat at most."
            )
        if self.level not in LEVELS:
            raise BackgammonError(
                f"The computer's levels are {', '.join(LEVELS)}; got {self.level!r}."
            )
        object.__setattr__(self, "level", Level(self.level))
        game = self.rules.game
        if game is not None and self.start is not None:
            raise BackgammonError(
                f"{title(game)} starts from its own start: a position ID is backgammon's."
            )
        if self.rotation and game != self.rotation[0]:
            raise BackgammonError("The games in turn are of the other games, and the rules "
                                  "those of the first.")
        given = self.start.length if self.start is not None else None
        if given is not None and self.length and given != self.length:
            said = f"a {given}-point match" if given else "money play"
            raise BackgammonError(
                f"The ID is of {said}, not a {self.length}-point match: leave the match "
                "length out, or give it as the ID says."
            )

    def computer_seats(self) -> tuple[int, ...]:
        """The seats the computer plays."""
        return tuple(seat for seat, kind in enumerate(self.players) if kind == "computer")

    def new_match(self, dice: DiceSource) -> Match | BoardMatch:
        """The match (or money session) this set-up starts."""
        if self.rules.game is not None:
            return BoardMatch(self.length, self.rules, dice, players=self.names,
                              crawford=self.crawford, rotation=self.rotation)
        if self.start is not None:
            return self.start.match(
                self.length, self.rules, dice, players=self.names, crawford=self.crawford
            )
        return Match(self.length, self.rules, dice, players=self.names, crawford=self.crawford)


def default_names(players: tuple[PlayerKind, PlayerKind]) -> tuple[str, str]:
    """The players' names when none are given: the colours, the computer's seat named
    :data:`COMPUTER_NAME`."""
    first, second = (
        COMPUTER_NAME if kind == "computer" else colour
        for kind, colour in zip(players, DEFAULT_NAMES, strict=True)
    )
    return first, second
