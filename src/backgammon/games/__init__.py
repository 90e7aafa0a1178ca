"""The games played on a backgammon board, each a rules object behind one interface
(:class:`GameRules`): backgammon in its three layouts, Tavla, Greek Tavli's Portes, Plakoto
and Fevga, Long Nardy and Acey-deucey.

Standard library only, like the rest of the core. The game state machine, the server and the
page still play backgammon's layouts alone (through :class:`~backgammon.Variant`); this package
is where the other games' rules live until they are wired in.

>>> from backgammon.games import GAMES, rules_for
>>> GAMES[3:]
('portes', 'tavla', 'plakoto', 'fevga', 'long-nardy', 'acey-deucey')
>>> rules_for("Long-Nardy").travel
<Travel.SAME: 'same'>
>>> TITLES["long-nardy"], TITLES["acey-deucey"]
('Long Nardy', 'Acey-deucey')
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..errors import BackgammonError
from ..variants import Variant
from .acey_deucey import AceyDeucey
from .backgammon import Backgammon, Portes, Tavla
from .base import Ending, GamePlay, GameRules, LoneChecker, Result, Stage
from .board import Board, Travel
from .fevga import Fevga
from .nardy import LongNardy
from .plakoto import Plakoto

_OTHERS: dict[str, type[GameRules]] = {
    "portes": Portes, "tavla": Tavla, "plakoto": Plakoto, "fevga": Fevga,
    "long-nardy": LongNardy, "acey-deucey": AceyDeucey,
}
#: Every game's name, as :func:`rules_for` takes it.
GAMES: tuple[str, ...] = (*(v.value for v in Variant), *_OTHERS)
#: The games of a Tavli match in the order they are played, then again from the first, until
#: a player reaches the match's length (5 or 7 points, usually; Wikipedia, "Tavli").
TAVLI: tuple[str, ...] = ("portes", "plakoto", "fevga")
#: The name of a match of :data:`TAVLI`'s games in turn (the lobby's and the ratings').
TAVLI_MATCH = "tavli"
#: The other games' names as people write them (a sentence may begin with one), and the
#: Tavli match's: for the sentences of the game, the terminal and the server.
TITLES: Mapping[str, str] = MappingProxyType({
    "portes": "Portes", "tavla": "Tavla", "plakoto": "Plakoto", "fevga": "Fevga",
    "long-nardy": "Long Nardy", "acey-deucey": "Acey-deucey", TAVLI_MATCH: "Tavli",
})


def rules_for(name: str) -> GameRules:
    """The rules object of a game by name (case and spaces aside); BackgammonError for a name
    no game has.

    >>> rules_for("chess")
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: No game is called 'chess': choose one of standard, \
nackgammon, hypergammon, portes, tavla, plakoto, fevga, long-nardy, acey-deucey.
    """
    key = name.strip().lower() if isinstance(name, str) else ""
    if key in _OTHERS:
        return _OTHERS[key]()
    if key in GAMES:
        return Backgammon(key)
    raise BackgammonError(f"No game is called {name!r}: choose one of {', '.join(GAMES)}.")


__all__ = [
    "GAMES",
    "TAVLI",
    "TAVLI_MATCH",
    "TITLES",
    "AceyDeucey",
    "Backgammon",
    "Board",
    "Ending",
    "Fevga",
    "GamePlay",
    "GameRules",
    "LoneChecker",
    "LongNardy",
    "Plakoto",
    "Portes",
    "Result",
    "Stage",
    "Tavla",
    "Travel",
    "rules_for",
]
