"""The interactive board: set up a position, enter or roll dice, make plays, in turn.

The two players are X and O. A :class:`~backgammon.Position` is always seen from the player on
roll, so the colours live here: the session knows which colour is on roll and draws the board
from that player's side, with that player's checkers marked by their own letter.

The loop reads lines from one text stream and writes to another, so a test can drive it with a
script:

>>> import io
>>> script = io.StringIO("31\\n8/5 6/5\\nquit\\n")
>>> out = io.StringIO()
>>> run(script, out)
0
>>> "O plays 8/5 6/5." in out.getvalue()
True
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TextIO

from ..dice import Dice, DiceSource, SecureDice, parse_dice
from ..errors import BackgammonError
from ..moves import Play
from ..position import Outcome, Position, Side, WinKind
from ..variants import Variant

Colour = Literal["O", "X"]

_WIN_NAMES = {
    WinKind.SINGLE: "a single game",
    WinKind.GAMMON: "a gammon",
    WinKind.BACKGAMMON: "a backgammon",
}
_HELP = """\
Commands:
  31, 3 1, 3-1    the dice the player on roll has thrown (also: dice 31, to change them)
  roll            roll the dice at random; a new game starts with the opening roll
                  (each player rolls one die and the higher plays both numbers)
  8/5 6/5         make a play in gnubg notation (bar/22*, 6/off, 8/5(2), 13/7*/5)
  3               make the play numbered 3 in the list
  undo            take back the last play
  board           show the board (and the legal plays once the dice are in)
  new [VARIANT]   start a new game: standard, nackgammon or hypergammon
  set ID [N]      set up the position of a gnubg Position ID (N checkers a side)
  id              print the Position ID (the player on roll's view)
  help            this list
  quit, exit      leave (so does the end of the input)"""


def format_plays(plays: Sequence[Play], width: int = 0) -> str:
    """The plays numbered from 1; in columns that fit ``width`` characters, or one a line.

    Lines have no trailing spaces.

    >>> plays = sorted(Position.initial().legal_plays((6, 5)), key=str)
    >>> print(format_plays(plays))
      1. 13/2
      2. 13/7 8/3
    ...
    >>> print(format_plays(plays, width=40))
      1. 13/2          2. 13/7 8/3
    ...
    """
    entries = [f"{number:3d}. {play}" for number, play in enumerate(plays, 1)]
    if not entries:
        return ""
    cell = max(len(entry) for entry in entries) + 2
    per_line = max(1, width // cell)
    lines = []
    for start in range(0, len(entries), per_line):
        row = entries[start : start + per_line]
        lines.append("".join(entry.ljust(cell) for entry in row).rstrip())
    return "\n".join(lines)


def board_text(position: Position, on_roll: Colour) -> str:
    """The board from the player on roll's side, their checkers marked with their colour.

    The library draws the player on roll as O; when X is on roll the letters are swapped,
    except inside the Position ID, which is base64 and may hold either letter.
    """
    text = str(position)
    if on_roll == "O":
        return text
    position_id = position.id()
    swapped = re.sub(
        r"\b[OX]\b",
        lambda match: "X" if match[0] == "O" else "O",
        text.replace(position_id, "\0"),
    )
    return swapped.replace("\0", position_id)


def outcome_text(outcome: Outcome, on_roll: Colour) -> str:
    """A sentence saying who won and how, for an outcome of a position with ``on_roll`` on roll."""
    winner = on_roll if outcome.winner == Side.ON_ROLL else _other(on_roll)
    points = int(outcome.kind)
    plural = "" if points == 1 else "s"
    return f"{winner} wins {_WIN_NAMES[outcome.kind]} ({points} point{plural})."


def _other(colour: Colour) -> Colour:
    return "X" if colour == "O" else "O"


@dataclass(frozen=True)
class _Taken:
    """One turn, as undo needs it: the position and colour before it, and its dice."""

    position: Position
    on_roll: Colour
    dice: Dice
    play: Play | None  # None: the player danced


class Session:
    """The state of the interactive board, and the commands that change it.

    Every command either changes the state and says what happened, or leaves the state as it
    was and writes one line saying why not.
    """

    def __init__(
        self,
        out: TextIO,
        dice_source: DiceSource | None = None,
        variant: Variant | str = Variant.STANDARD,
        position: Position | None = None,
    ) -> None:
        self._out = out
        self._dice_source = SecureDice() if dice_source is None else dice_source
        self.variant = Variant(variant)
        self.position = Position.initial(self.variant) if position is None else position
        self.on_roll: Colour = "O"
        self.dice: Dice | None = None
        self.plays: list[Play] = []
        self.history: list[_Taken] = []
        # The next roll is the game's opening roll only at the start of a new game.
        self.opening = position is None
        self._commands: dict[str, Callable[[str], None]] = {
            "help": self._help,
            "?": self._help,
            "board": self._board,
            "new": self._new,
            "id": self._id,
            "set": self._set,
            "roll": self._roll_dice,
            "dice": self._dice,
            "undo": self._undo,
        }

    # The loop's side

    def start(self) -> None:
        """Greet the player and show the first position."""
        self._say(f"Backgammon: {self.variant} game. Type help for the commands.")
        self._show_turn()

    def prompt(self) -> str:
        """The prompt before each line of input: who is on roll, and their dice if any."""
        if self.dice is None:
            return f"{self.on_roll}> "
        return f"{self.on_roll} {self.dice[0]}-{self.dice[1]}> "

    def handle(self, line: str) -> bool:
        """Carry out one line of input; False when the player asked to leave."""
        text = line.strip()
        if not text:
            return True
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return False
        try:
            command = self._commands.get(word)
            if command is not None:
                command(rest.strip())
            elif self.dice is None:
                self._dice_or_complaint(text)
            else:
                self._play(text)
        except BackgammonError as exc:
            self._say(str(exc))
        return True

    # Commands

    def _help(self, _: str) -> None:
        self._say(_HELP)

    def _board(self, _: str) -> None:
        self._say(board_text(self.position, self.on_roll))
        if self.dice is not None:
            self._show_plays()

    def _new(self, argument: str) -> None:
        variant = Variant(argument) if argument else self.variant
        self._reset(Position.initial(variant), opening=True)
        self.variant = variant
        self.on_roll = "O"
        self._say(f"New {variant} game.")
        self._show_turn()

    def _id(self, _: str) -> None:
        self._say(f"{self.position.id()} ({self.on_roll} on roll)")

    def _set(self, argument: str) -> None:
        words = argument.split()
        if not 1 <= len(words) <= 2 or (len(words) == 2 and not words[1].isdigit()):
            self._say("Usage: set ID [N], with a gnubg Position ID and N checkers a side.")
            return
        # A Position ID does not say how many checkers are borne off: the variant does.
        checkers = int(words[1]) if len(words) == 2 else self.variant.checkers
        position = Position.from_id(words[0], checkers=checkers)
        self._reset(position, opening=False)
        self._say(f"Position {position.id()} set up, {position.checkers} checkers a side.")
        self._show_turn()

    def _roll_dice(self, argument: str) -> None:
        if argument:
            self._say("roll takes nothing after it; to enter dice, type them, like 31.")
        elif self._refuse_when_over():
            return
        elif self.dice is not None:
            self._say(
                f"{self.on_roll} has already rolled {self.dice[0]}-{self.dice[1]}: "
                "make a play (or type dice 31 to correct the dice)."
            )
        elif self.opening:
            self._opening_roll()
        else:
            dice = self._dice_source.roll()
            self._say(f"{self.on_roll} rolls {dice[0]}-{dice[1]}.")
            self._start_play(dice)

    def _dice(self, argument: str) -> None:
        if not self._refuse_when_over():
            self._start_play(parse_dice(argument))

    def _undo(self, _: str) -> None:
        if not self.history:
            self._say("There is no play to take back.")
            return
        taken = self.history.pop()
        self.position = taken.position
        self.on_roll = taken.on_roll
        self.opening = False
        roll = f"{taken.dice[0]}-{taken.dice[1]}"
        if taken.play is None:
            # A dance follows from the dice alone; taking it back is for dice typed wrong.
            self.dice, self.plays = None, []
            self._say(f"Took back {self.on_roll}'s dance with {roll}: enter the dice again.")
            self._show_turn()
        else:
            self._say(f"Took back {self.on_roll}'s {taken.play}: {self.on_roll} to play {roll}.")
            self._say(board_text(self.position, self.on_roll))
            self.dice, self.plays = taken.dice, self.position.legal_plays(taken.dice)
            self._show_plays()

    # Dice and plays

    def _dice_or_complaint(self, text: str) -> None:
        """Text typed while the dice are awaited: dice, or one line saying what is expected."""
        if text[0].isdigit() and "/" not in text:
            self._dice(text)
        elif "/" not in text:
            self._say(f"Unknown command {text.split()[0]!r}: type help for the commands.")
        elif not self._refuse_when_over():
            self._say(f"Enter {self.on_roll}'s dice first (like 31, 3 1 or 3-1), or type roll.")

    def _opening_roll(self) -> None:
        """RULES.md, Starting the game: each player rolls one die; the higher roll moves first,
        playing the two numbers just rolled; equal numbers: both roll again."""
        while True:
            die_o, die_x = self._dice_source.roll()
            if die_o != die_x:
                break
            self._say(f"Opening roll: both roll {die_o}; rolling again.")
        first: Colour = "O" if die_o > die_x else "X"
        self._say(f"Opening roll: O rolls {die_o}, X rolls {die_x}: {first} plays first.")
        if first != self.on_roll:
            self.position = self.position.flip()
            self.on_roll = first
            self._say(board_text(self.position, self.on_roll))
        self._start_play((max(die_o, die_x), min(die_o, die_x)))

    def _start_play(self, dice: Dice) -> None:
        """Take the dice of the player on roll: list the plays, or dance and pass the turn."""
        self.opening = False
        plays = self.position.legal_plays(dice)
        if not plays:
            self._say(f"{self.on_roll} rolls {dice[0]}-{dice[1]} and dances: no checker can move.")
            self._finish_turn(_Taken(self.position, self.on_roll, dice, None), self.position.flip())
            return
        self.dice, self.plays = dice, plays
        self._show_plays()

    def _play(self, text: str) -> None:
        assert self.dice is not None  # handle() sends text here only once the dice are in
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(self.plays):
                self._say(
                    f"There is no play {number}: choose 1 to {len(self.plays)}, type the play, "
                    f"or type dice {number} to change the dice."
                )
                return
            play = self.plays[number - 1]
        elif "/" not in text and not any(char.isdigit() for char in text):
            # Every play names a point; a word alone is a mistyped command.
            self._say(
                f"Unknown command {text.split()[0]!r}: type a play (like 8/5 6/5), its number, "
                "or help."
            )
            return
        else:
            play = self.position.parse_play(text, self.dice)
        self._say(f"{self.on_roll} plays {play}.")
        self._finish_turn(_Taken(self.position, self.on_roll, self.dice, play), play.result)

    def _finish_turn(self, taken: _Taken, result: Position) -> None:
        """Record the turn and pass the position, seen from the other side, to the other player."""
        self.history.append(taken)
        self.position = result
        self.on_roll = _other(taken.on_roll)
        self.dice, self.plays = None, []
        self._show_turn()

    # State and output

    def _reset(self, position: Position, *, opening: bool) -> None:
        self.position = position
        self.dice, self.plays = None, []
        self.history = []
        self.opening = opening

    def _refuse_when_over(self) -> bool:
        """When the game is over, say so and return True."""
        outcome = self.position.outcome()
        if outcome is None:
            return False
        self._say(
            f"The game is over: {outcome_text(outcome, self.on_roll)} "
            "Type new, set ID, undo or quit."
        )
        return True

    def _show_turn(self) -> None:
        self._say(board_text(self.position, self.on_roll))
        outcome = self.position.outcome()
        if outcome is not None:
            self._say(f"Game over: {outcome_text(outcome, self.on_roll)}")
            self._say("Type new for another game, undo to take back the last play, or quit.")
        else:
            self._say(f"{self.on_roll} on roll: enter the dice (like 31, 3 1 or 3-1) or type roll.")

    def _show_plays(self) -> None:
        assert self.dice is not None  # called only once the dice are in
        count = len(self.plays)
        self._say(
            f"{self.on_roll} to play {self.dice[0]}-{self.dice[1]}: "
            f"{count} legal play{'' if count == 1 else 's'}."
        )
        self._say(format_plays(self.plays, width=79))
        self._say("Type a play (like 8/5 6/5) or its number.")

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")


def run(
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    dice_source: DiceSource | None = None,
    *,
    variant: Variant | str = Variant.STANDARD,
    position: Position | None = None,
) -> int:
    """Play on the interactive board until quit, exit or the end of the input; the exit status.

    ``stdin`` and ``stdout`` default to the process's own (looked up when called, so a test's
    replacement is seen); ``dice_source`` defaults to secure dice (:class:`SecureDice`).
    """
    source = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    session = Session(out, dice_source, variant, position)
    session.start()
    try:
        while True:
            out.write(session.prompt())
            out.flush()
            line = source.readline()
            if not line:
                out.write("\n")
                break
            if not session.handle(line):
                break
    except KeyboardInterrupt:
        out.write("\n")
        return 130
    out.write("Goodbye.\n")
    return 0
