"""The computer of each of the other games: its TD network, shipped with the package, at the
backgammon bot's named levels.

The networks are ``backgammon/bot/weights/games-<name>.npz`` (float32, compressed: how
they were trained and measured is in docs/lab/game-baselines.md), loaded once with
:mod:`importlib.resources`. What the game machine calls, for a board and dice::

    player = games_player("plakoto", Level.ADVANCED)
    play = player.choose(rules, rules.legal_plays(board, dice), rng)   # one GamePlay
    die = player.name_double(rules, board, rng)   # Acey-deucey, after a 1-2 (board: the
                                                  # namer on roll, play.result.flip())

>>> from backgammon.games import rules_for
>>> import random
>>> rules = rules_for("portes")
>>> plays = rules.legal_plays(rules.initial(), (3, 1))
>>> str(games_player("portes").choose(rules, plays, random.Random(0)))
'8/5 6/5'
"""

from __future__ import annotations

import functools
from importlib import resources

from ...errors import BackgammonError
from ...games import GAMES
from ..bot import LEVELS, Level
from .players import Player
from .td import Network, TDPlayer

#: The deepest search of these games' levels: one ply ahead, for every level above
#: ``advanced`` (a deeper search is not written yet).
MOST_PLIES = 1
#: The games with a shipped network, and its file in ``backgammon/bot/weights``.
SHIPPED = {name: f"games-{name}.npz" for name in GAMES[3:]}


@functools.cache
def shipped_network(name: str) -> Network:
    """The shipped network of a game (loaded once); BackgammonError for a game without one."""
    if name not in SHIPPED:
        raise BackgammonError(f"No network is shipped for {name!r}: the games with one are "
                              f"{', '.join(SHIPPED)}.")
    resource = resources.files("backgammon.bot") / "weights" / SHIPPED[name]
    with resource.open("rb") as file:
        return Network.load(file)


def games_player(name: str, level: Level | str = Level.ADVANCED) -> Player:
    """The computer player of a game at a level: the shipped network, with the level's
    noise on its choices (:data:`~backgammon.bot.LEVELS`, in points); the levels above
    ``advanced`` (which search deeper in backgammon) look one ply ahead (:func:`.td.rank`:
    measured in docs/lab/game-baselines.md)."""
    plies, noise = LEVELS[Level(level)]
    return TDPlayer(shipped_network(name), name=f"td-{Level(level).value}", noise=noise,
                    plies=min(plies, MOST_PLIES))
