"""The ``.mat`` text match format of Jellyfish, GNU Backgammon and the online servers.

A ``.mat`` file is a record of a match (or of a money session, a "0 point match") that people
can read. It is the format GNU Backgammon writes with ``export match mat`` and reads with
``import mat``; eXtreme Gammon and the servers write dialects of it. This module writes the
dialect GNU Backgammon 1.07 writes, and reads that and the others, rebuilding the match
through the game's state machine (:class:`~backgammon.game.match.Match`) so that every move and
cube action is checked by the rules.

The layout, as GNU Backgammon writes it (``export.c``, ``ExportGameJF``)::

    ; [Player 1 "Alice"]                      header comments, one option each
    ; [Variation "Backgammon"]

     5 point match                            0 for a money session

     Game 1
     Alice : 0                      Bob : 0   the score at the start of the game
      1)                             53: 8/3 6/3
      2) 62: 24/18 18/16             55: 13/8 13/8 6/1* 6/1
      3) 11:                          Doubles => 2
      4)  Takes                      31: 8/7 7/4*
     ...
                                      Wins 4 points

Each numbered line holds a turn of the player in the left column (seat 0, "Player 1") and
then one of the player in the right column (seat 1): a roll and its play (``52: 13/8 24/22``,
each checker step on its own, on the mover's own point numbers, ``25`` the bar and ``0`` off,
``*`` a hit; the dice alone for a dance) or a cube action (`` Doubles => 2``, `` Takes``,
`` Drops``, `` Beavers => 4``). The game's winner is written as `` Wins N point(s)`` in the
winner's column, after a resignation as after any other end; a game claimed from a player who
had left (scored as their resignation would be) as `` Wins N point(s) (claimed)``, which GNU
Backgammon reads as a resignation and this reader as the claim. The opening roll is not written
as such: the player who won it makes the first entry of the game, with both dice.

Two spellings follow what GNU Backgammon reads rather than what it writes. Its reader takes
the doubler's roll after `` Beavers`` as the take, and loses its way on a `` Takes`` or
`` Drops`` written there (it keeps the beaver pending for the rest of the file), so a beaver
is written `` Beavers => 4`` with no `` Takes`` where a roll follows, and otherwise as the
second `` Doubles => 4`` that it is in gnubg's own record (read here as a beaver too). And a
roll with exactly one legal play that was never played (the player resigned first) is written
``43: ???``, as eXtreme Gammon does, since a reader plays a one-play roll written bare.

What the format does not hold, and so what a round trip loses: rejected resignations, the
individual steps and undos of a turn (only the play is kept), the rolls that tied at the
opening and the opening dice when the winner rolls afresh (``opening_reroll``), the level of a
resignation where the points do not tell it (the Jacoby rule), and a pending resignation.
Automatic doubles have no place in it either: a game that had one cannot be written.
Options without a standard header are written as extra header comments, which GNU Backgammon
keeps as the match's comment: ``; [OpeningReroll "On"]``.

Reading takes the online sites' dialects too (Backgammon Galaxy's ``Losses N points`` in the
loser's column; points written capped at what ended the match, as Galaxy and Backgammon Studio
write them); points the rules do not give are read past with a :class:`MatWarning`, and only
what cannot be replayed is refused (see :func:`import_mat`).

Reading infers what a file's headers leave out: beavers from a beaver in the games, a fresh
opening roll from a game whose first roll is doubles, the Jacoby rule (in a money session
with no ``[Jacoby]`` header) from a gammon counted single. GNU Backgammon's own money files
give a gammon its plain worth on the ``Wins`` line even under the Jacoby rule, while its score
lines keep to the rule; the score lines are taken as the truth.

>>> from backgammon.dice import ManualDice
>>> from backgammon.game.match import Match
>>> match = Match(3, dice=ManualDice(["3 5", "6 4"]), players=("Alice", "Bob"))
>>> match.game.roll(0)                  # seat 1 wins the opening roll with 5 against 3
>>> match.game.play(1, "8/3 6/3")
>>> match.game.roll(0)
>>> match.game.play(0, "24/18 13/9")
>>> text = export_mat(match)
>>> print(text[text.index(" 3 point"):])  # doctest: +NORMALIZE_WHITESPACE
 3 point match
<BLANKLINE>
 Game 1
 Alice : 0                      Bob : 0
  1)                             53: 8/3 6/3
  2) 64: 24/18 13/9
<BLANKLINE>
>>> again = import_mat(text)
>>> again.players, again.game.position == match.game.position
(('Alice', 'Bob'), True)
"""


from .common import MatFormatError
from .read import MatWarning, import_mat, read_mat
from .write import export_mat

# The error a reader of files meets names the package it is imported from, in tracebacks too.
MatFormatError.__module__ = __name__
MatWarning.__module__ = __name__

__all__ = ["MatFormatError", "MatWarning", "export_mat", "import_mat", "read_mat"]
