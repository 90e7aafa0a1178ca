"""GNU Backgammon's ``.sgf`` match files: the Smart Game Format (``GM[6]``, backgammon) as
GNU Backgammon writes it with ``save match`` and reads it with ``load match``.

A file is a collection of game trees, one a game, in order::

    (;FF[4]GM[6]CA[UTF-8]AP[GNU Backgammon:1.07.001]MI[length:7][game:0][ws:0][bs:0]
      PW[Alice]PB[Bob]RU[Crawford]RE[B+2R]
    ;B[53qvsv]                 a roll and its checker steps
    ;W[double]                 cube actions: double, take, drop
    ;B[take]
    ...)

The root node of each game holds the match: ``MI`` the match length (0: money), the game's
number from 0 and the score before it (``ws`` White's, ``bs`` Black's), ``PW``/``PB`` the
names, ``RU`` the rules (``Crawford``, ``CrawfordGame``, ``Jacoby``, ``NoCube``,
``Nackgammon``, ``Hypergammon3``), ``CV`` the cube after the game's automatic doubles, and
``RE`` the result: the winner (``W``/``B``), the points, and ``R`` when the loser resigned.
White is gnubg's player 0, our seat 0; Black player 1, seat 1. A move node ``W[...]`` or
``B[...]`` is the two dice and then each checker step as two letters, from and to: ``a``..``x``
are White's points 1..24 (so ``x``..``a`` are Black's), ``y`` the bar and ``z`` off. A beaver
is, in gnubg's record, a second ``double`` by the player doubled; a resignation has no node of
its own, only the ``R`` of the result. Analysis properties (``A``, ``DA``, ``LU``, ...) are
skipped.

Reading replays every roll, play and cube action through a :class:`~backgammon.game.match.Match`,
so the rules check them all; what the file does not say is inferred as GNU Backgammon does:
beavers from a beaver in the games, the opening roll from the first move (its ties, where the
root's ``CV`` shows automatic doubles). Writing leaves out what the format cannot hold:
rejected resignations, the steps and undos of a turn, the opening roll's dice when its winner
rolls afresh, the highest cube value, and the options of beavers (a beaver in a game shows
them) and of a fresh opening roll (a first roll of doubles shows it).

>>> from backgammon.dice import ManualDice
>>> from backgammon.game.match import Match
>>> match = Match(3, dice=ManualDice(["3 5", "6 4"]), players=("Alice", "Bob"))
>>> match.game.roll(0)                  # Bob (seat 1) wins the opening roll, 5 against 3
>>> match.game.play(1, "8/3 6/3")
>>> match.game.roll(0)
>>> match.game.play(0, "24/18 13/9")
>>> text = export_sgf(match)
>>> print(text[text.index("PW"):])
PW[Alice]PB[Bob]RU[Crawford]
;B[53qvsv]
;W[64xrmi])
<BLANKLINE>
>>> again = import_sgf(text)
>>> again.players, again.length, again.game.position == match.game.position
(('Alice', 'Bob'), 3, True)
"""

from .common import SgfFormatError
from .parse import parse_sgf
from .read import import_sgf, read_sgf
from .write import export_sgf

# The error a reader of files meets names the package it is imported from, in tracebacks too.
SgfFormatError.__module__ = __name__

__all__ = ["SgfFormatError", "export_sgf", "import_sgf", "parse_sgf", "read_sgf"]
