"""The other games at the terminal's table (Portes, Tavla, Plakoto, Fevga, Long Nardy,
Acey-deucey, and a Tavli match of three of them in turn): the games the table plays, and what
the computer does in them.

A game is :class:`~backgammon.game.BoardGame`, the rules' state machine, as
:class:`~backgammon.game.Game` is backgammon's, and a match or money session of them
:class:`~backgammon.game.BoardMatch`; the table reads a game's record through the same typed
walk as backgammon's (:meth:`BoardGame.history <backgammon.game.BoardGame.history>`), and
names the games as the core does (:data:`backgammon.games.TITLES`). The computer is each game's
network at the table's level (:func:`backgammon.bot.games.games_player`).

>>> from backgammon.bot.games import games_player
>>> from backgammon.dice import ManualDice
>>> game = new_game("plakoto", ManualDice(["6 5", "4 2"]))
>>> game.roll(0); game.roll(0)
>>> act = computer_act(games_player("plakoto"), game, 0, random.Random(0))
>>> act.action, act.play in {str(play) for play in game.turn.plays}
(<Action.PLAY: 'play'>, True)
>>> computer_act(games_player("plakoto"), game, 1, random.Random(0)) is None  # not its turn
True
"""

from __future__ import annotations

import random

from ..bot.games import Player, accepts_resignation
from ..dice import DiceSource
from ..game import Act, Action, BoardGame, BoardMatch, Phase, Rules
from ..games import GAMES, TITLES
from ..variants import Variant

#: The games the table plays besides backgammon's layouts, by the names ``--game`` takes.
OTHER_GAMES: tuple[str, ...] = tuple(
    name for name in GAMES if name not in {variant.value for variant in Variant}
)


def new_game(name: str, dice: DiceSource | None = None,
             colours: tuple[str, str] = ("white", "black")) -> BoardGame:
    """A new game of ``name`` by its own rules (its cube, its opening), waiting for the
    opening roll."""
    return BoardGame(Rules.for_game(name), dice, colours=colours)


def match_title(match: BoardMatch) -> str:
    """What ``match`` plays, for a greeting: ``Plakoto``, or the Tavli match's games in turn.

    >>> from backgammon.games import TAVLI
    >>> match_title(BoardMatch(5, rotation=TAVLI))
    'Tavli (Portes, Plakoto and Fevga in turn)'
    """
    if not match.rotation:
        return title(str(match.rules.game))
    *first, last = (title(name) for name in match.rotation)
    return f"Tavli ({', '.join(first)} and {last} in turn)"


def title(name: str) -> str:
    """A game's name as a sentence begins with it (the core's :data:`~backgammon.games.TITLES`).

    >>> title("long-nardy"), title("acey-deucey"), title("plakoto")
    ('Long Nardy', 'Acey-deucey', 'Plakoto')
    """
    return TITLES[name]


def computer_act(player: Player, game: BoardGame, seat: int,
                 rng: random.Random) -> Act | None:
    """What the computer does for ``seat`` when the game waits for it: it rolls, plays,
    names a double after a 1-2, and answers a resignation (:func:`accepts`); None when the
    game does not wait for ``seat``. It never resigns, and these games have no cube."""
    if game.player_to_act not in (seat, None) or game.phase is Phase.OVER:
        return None
    if game.phase in (Phase.OPENING, Phase.ROLL):
        return Act(Action.ROLL)
    if game.phase is Phase.NAME:
        return Act(Action.NAME, die=player.name_double(game.game, game.position, rng))
    if game.phase is Phase.RESIGN:
        return Act(Action.ACCEPT if accepts_resignation(game) else Action.REJECT)
    if game.phase in (Phase.MOVE, Phase.CONFIRM) and game.turn is not None:
        plays = game.turn.plays
        if not plays:
            return None  # the game passes a roll with no move itself
        return Act(Action.PLAY, play=str(player.choose(game.game, plays, rng)))
    return None
