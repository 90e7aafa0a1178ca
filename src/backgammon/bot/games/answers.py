"""How the computer answers a resignation in the other games (:mod:`backgammon.games`): no
evaluation judges these games' positions yet, so it takes no less than the board can still
give it.

>>> from backgammon.dice import ManualDice
>>> from backgammon.game import BoardGame, Rules
>>> game = BoardGame(Rules.for_game("plakoto"), ManualDice(["6 5"]))
>>> game.roll(0); game.resign(0, 1)
>>> accepts_resignation(game)
False
>>> game.reject(1); game.resign(0, 2)
>>> accepts_resignation(game)
True
"""

from __future__ import annotations

from ...game import BoardGame
from ...games import Ending
from ...position import BAR, OFF, WinKind


def accepts_resignation(game: BoardGame) -> bool:
    """Whether the computer accepts the resignation waiting for its answer: when it gives up
    as much as the game could still score (:func:`most_at_stake`)."""
    offer = game.resignation
    assert offer is not None  # asked only while a resignation waits
    return offer.level >= most_at_stake(game, offer.player)


def most_at_stake(game: BoardGame, loser: int) -> WinKind:
    """The most ``loser`` can still lose by the game's rules on the board now: a gammon
    while they have borne off no checker (in Plakoto, a pinned mother scores as much), a
    backgammon where the game has one and they also have a checker on the bar, waiting to
    enter, or in the winner's home board.

    >>> from backgammon.game import Rules
    >>> acey, fevga = (BoardGame(Rules.for_game(name)) for name in ("acey-deucey", "fevga"))
    >>> most_at_stake(acey, 0), most_at_stake(fevga, 1)
    (<WinKind.BACKGAMMON: 3>, <WinKind.GAMMON: 2>)
    """
    side = game.position_for(loser).mine
    scores = game.game.points
    if side[OFF]:
        return WinKind.SINGLE
    if Ending.BACKGAMMON in scores and any(side[19:BAR + 1]):
        return WinKind.BACKGAMMON
    return WinKind.GAMMON if Ending.GAMMON in scores else WinKind.SINGLE
