"""The interactive table: games and matches at one terminal, two people or a person and the
computer.

The game (:class:`~backgammon.game.match.Match`, :class:`~backgammon.game.Game`, or of the
other games :class:`~backgammon.game.BoardMatch`, :class:`BoardGame`: the rules' state
machines) keeps the state and decides what is allowed; the session reads a line, turns it
into one action of the seat the game waits for, and says what happened. Every refused action
leaves the game as it was and prints the game's one-line reason. Whenever the game waits for
a seat the computer plays, the session lets the bot act (:func:`backgammon.bot.act`, as the
web app does; in the other games :func:`.games.computer_act`) and says what it did in the
same sentences as for a person; with physical dice the person types the computer's dice too.
What is played is a :class:`~.setup.SessionOptions`; ``hint`` asks :mod:`.hints`, ``save``,
``load`` and ``export`` go through :mod:`.files`, and every sentence about the game is
:mod:`.display`'s.

The loop reads lines from one text stream and writes to another, so a test can drive it with a
script:

>>> import io
>>> from backgammon.dice import ManualDice
>>> script = io.StringIO("31\\n8/5 6/5\\nscore\\nquit\\n")
>>> out = io.StringIO()
>>> run(script, out, ManualDice())
0
>>> said = out.getvalue()
>>> "White rolls 3, Black rolls 1: White plays first with 3-1." in said
True
>>> "White plays 8/5 6/5." in said, "Score: White 0, Black 0 (money play)." in said
(True, True)
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import TextIO

from ..bot import Bot, decide
from ..bot.games import games_player, most_at_stake
from ..dice import Dice, DiceSource, ManualDice, SecureDice, parse_dice
from ..errors import BackgammonError
from ..formats.ids import gnubg_id_of, xgid_of
from ..game import Action, BoardGame, Game, Phase
from ..game.actions import NamedActions
from ..game.match import BoardMatch, Match
from ..games import Board, GamePlay
from ..moves import Play
from ..position import Position
from . import files
from .display import (
    HELP,
    RESIGN_LEVELS,
    SEAT_LETTERS,
    WIN_NAMES,
    answers_text,
    board_text,
    cube_text,
    event_lines,
    format_plays,
    game_board_text,
    over_text,
    result_text,
    rules_text,
    score_line,
    seat_label,
    waiting_text,
    what_now,
)
from .games import computer_act, match_title, title
from .hints import Hinter, board_hint_lines, board_refusal
from .setup import COMPUTER_NAME, SessionOptions

#: A game at the table: backgammon's, or one of the other games.
Played = Game | BoardGame
#: A match or money session at the table, of backgammon or of the other games.
Series = Match | BoardMatch

# A bound on the actions the computer makes in a row, against a loop that never gives the
# turn back (a whole game of the computer's alone is a few hundred).
_MOST_COMPUTER_ACTIONS = 10_000


class Session:
    """The table: a match (or one game) and the commands that act on it.

    Every command either acts, and says what happened, or leaves the game as it was and writes
    one line saying why not.
    """

    def __init__(
        self,
        out: TextIO,
        dice_source: DiceSource | None = None,
        options: SessionOptions | None = None,
    ) -> None:
        self.out = out
        self.dice_source = SecureDice() if dice_source is None else dice_source
        # Physical dice: the numbers typed at the prompt go into this source.
        self._manual = self.dice_source if isinstance(self.dice_source, ManualDice) else None
        self.options = SessionOptions() if options is None else options
        # A match; a lone game only where one is loaded (load FILE).
        self.record: Series | Played = self.options.new_match(self.dice_source)
        # The seats the computer plays; its backgammon player for each (made when first
        # asked), and the generator its players of the other games choose with.
        self._computer = frozenset(self.options.computer_seats())
        self._bots: dict[int, Bot] = {}
        self._rng = random.Random(self.options.seed)
        self._hinter = Hinter()
        # The seat and position last drawn, so that the board is drawn again only when it changed.
        self._shown: tuple[int, Position | Board] | None = None
        self._commands: dict[str, Callable[[str], None]] = {
            "help": self._help,
            "?": self._help,
            "board": self._board,
            "id": self._id,
            "score": self._score,
            "save": self._save,
            "load": self._load,
            "export": self._export,
            "roll": self._roll,
            "double": self._simple("double", NamedActions.double),
            "take": self._simple("take", NamedActions.take),
            "drop": self._simple("drop", NamedActions.drop),
            "beaver": self._simple("beaver", NamedActions.beaver),
            "accept": self._simple("accept", NamedActions.accept),
            "reject": self._simple("reject", NamedActions.reject),
            "resign": self._resign,
            "name": self._name,
            "undo": self._undo,
            "hint": self._hint,
        }

    # What is being played

    @property
    def match(self) -> Series | None:
        """The match or money session, or None for a lone game (loaded from a file)."""
        return self.record if isinstance(self.record, (Match, BoardMatch)) else None

    @property
    def game(self) -> Played:
        """The game being played (the last one, once the match is over)."""
        return self.record.game if isinstance(self.record, (Match, BoardMatch)) else self.record

    @property
    def names(self) -> tuple[str, str]:
        """The players' names, seat 0's first."""
        record = self.record
        return record.players if isinstance(record, (Match, BoardMatch)) else self.options.names

    # The loop's side

    def start(self) -> None:
        """Greet the players and show the table."""
        match = self.match
        assert match is not None  # a session starts with a match
        what = f"a {match.length}-point match" if match.length else "money play"
        if isinstance(match, BoardMatch):
            what = f"{match_title(match)}: {what}"
        else:
            if match.setup is not None:
                what += f" from {gnubg_id_of(match)}"
            what = f"Backgammon ({match.rules.variant}): {what}"
        first, second = (self._player_text(seat) for seat in (0, 1))
        self._say(f"{what}, {first} against {second}. Type help for the commands.")
        options = rules_text(match.rules, match.length, match.crawford_rule)
        if options:
            self._say(f"Rules: {options}.")
        self._let_the_computer_act()
        self._show_state()

    def _player_text(self, seat: int) -> str:
        """A seat's name, with the computer's level (or kind of player) where it plays it."""
        name = self.names[seat]
        if seat not in self._computer:
            return name
        level = self.options.level.value
        return f"{name} ({level})" if name == COMPUTER_NAME else f"{name} (the computer, {level})"

    def prompt(self) -> str:
        """The prompt before each line of input: who the game waits for, and for what."""
        game = self.game
        if self._over():
            return "over> "
        if game.phase is Phase.OPENING:
            return "opening roll> "
        seat = game.player_to_act
        assert seat is not None  # every phase but the opening and the end waits for one seat
        name = self.names[seat]
        if seat in self._computer:
            # The only moment the computer waits at the prompt: for its physical dice.
            return f"{name}'s dice> "
        if game.phase is Phase.ROLL:
            return f"{name} to roll{' or double' if game.may_double() else ''}> "
        if game.phase in (Phase.MOVE, Phase.CONFIRM):
            assert game.dice is not None  # the dice are in while a play is awaited
            return f"{name} to move {game.dice[0]}-{game.dice[1]}> "
        if game.phase is Phase.CUBE:
            return f"{name} to {answers_text(game)}> "
        return f"{name} to {game.phase}> "

    def handle(self, line: str) -> bool:
        """Carry out one line of input; False when the players asked to leave."""
        text = line.strip()
        word, _, rest = text.partition(" ")
        word = word.lower()
        if word in ("quit", "exit"):
            return False
        try:
            command = self._commands.get(word)
            if not text:
                if self.game.phase in (Phase.OPENING, Phase.ROLL):
                    self._act(NamedActions.roll)
            elif command is not None:
                command(rest.strip())
            elif self.game.phase is Phase.NAME and text.isdigit():
                self._name(text)
            elif self._moving() or not text[0].isdigit() or "/" in text:
                self._play(text)
            else:
                self._typed_dice(text)
        except BackgammonError as exc:
            self._say(str(exc))
        return True

    # Actions

    def _act(self, action: Callable[[Played, int], None]) -> None:
        """Make ``action`` for the seat the game waits for, then say what it led to."""
        over = self._over()
        if over:
            self._say(f"{over} {what_now(self.game)}")
            return
        seat = self.game.player_to_act
        if seat in self._computer:
            self._say(
                "It is the computer's turn: type the numbers its dice show (like 31, 3 1 or 3-1)."
            )
            return
        # The opening roll waits for no seat in particular: seat 0 makes it.
        self._perform(lambda game: action(game, game.on_roll if seat is None else seat))
        self._let_the_computer_act()
        self._show_state()

    def _perform(self, action: Callable[[Played], object]) -> None:
        """Make ``action`` in the game being played, then say what it led to."""
        game = self.game
        start = len(game.events)
        action(game)
        for line in event_lines(game, start, self.names):
            self._say(line)
        if game.result is not None:
            self._announce_result(game)

    def _let_the_computer_act(self) -> None:
        """Let the computer act for as long as the game waits for its seat, saying what it
        does; with physical dice it stops where it is to roll, for the person to type them."""
        for _ in range(_MOST_COMPUTER_ACTIONS):
            seat = self.game.player_to_act
            if seat is None or seat not in self._computer or self._over():
                return
            if not self._computer_acts(seat):
                return
        raise BackgammonError(f"The computer made {_MOST_COMPUTER_ACTIONS} actions in a row.")

    def _computer_acts(self, seat: int) -> bool:
        """Let the computer make one action for ``seat``; False when it waits for its dice."""
        game = self.game
        if isinstance(game, BoardGame):
            move = computer_act(games_player(game.game.name, self.options.level), game, seat,
                                    self._rng)
        else:
            bot = self._bots.get(seat)
            if bot is None:
                bot = self._bots[seat] = Bot(level=self.options.level, seed=self.options.seed)
            move = decide(bot, game, seat)
        if move is None:
            return False
        if move.action is Action.ROLL and self._manual is not None and not self._manual.pending:
            # It chose to roll (no resignation, no double) and no dice are typed yet: it
            # rolls once they are (_typed_dice).
            return False
        self._perform(lambda game: game.act(seat, move))
        if move.action is Action.REJECT and isinstance(game, BoardGame):
            least = WIN_NAMES[most_at_stake(game, 1 - seat)]
            self._say(f"(The computer accepts no less than the game can still give it: {least}.)")
        return True

    def _simple(
        self, name: str, action: Callable[[Played, int], None]
    ) -> Callable[[str], None]:
        """A command that is one action with nothing after it."""

        def command(argument: str) -> None:
            if argument:
                self._say(f"{name} takes nothing after it.")
            else:
                self._act(action)

        return command

    def _roll(self, argument: str) -> None:
        if not argument:
            self._act(NamedActions.roll)
        elif self._manual is not None:
            self._say("roll takes nothing after it; to enter dice, type them, like 31.")
        else:
            self._say("roll takes nothing after it.")

    def _typed_dice(self, text: str) -> None:
        dice = parse_dice(text)
        manual = self._manual
        if manual is None:
            self._say(
                "The dice are rolled here: type roll (or just Enter). "
                "To type the numbers of physical dice, start with --manual-dice."
            )
            return

        def roll(game: Played, seat: int) -> None:
            # Entered only when the roll will be taken, so a refused roll leaves none waiting.
            if Action.ROLL in game.legal_actions(seat):
                manual.enter(dice)
            game.roll(seat)

        seat = self.game.player_to_act
        if seat in self._computer:
            # The computer waits for its dice only once it has chosen to roll: it rolls them.
            self._perform(lambda game: roll(game, game.on_roll))
            self._let_the_computer_act()
            self._show_state()
        else:
            self._act(roll)

    def _play(self, text: str) -> None:
        moving = self._moving()
        if "/" not in text and not any(char.isdigit() for char in text):
            # Every play names a point; a word alone is a mistyped command.
            word = text.split()[0]
            if moving:
                self._say(
                    f"Unknown command {word!r}: type a play (like 8/5 6/5), its number, or help."
                )
            else:
                self._say(f"Unknown command {word!r}: type help for the commands.")
            return
        if moving and text.isdigit():
            plays = self._legal_plays()
            number = int(text)
            if not 1 <= number <= len(plays):
                self._say(
                    f"There is no play {number}: choose 1 to {len(plays)}, or type the play."
                )
                return
            # A play of the other games is made by its notation, which names it alone.
            play = plays[number - 1]
            chosen: Play | str = play if isinstance(play, Play) else str(play)
        else:
            chosen = text
        self._act(lambda game, seat: game.play(seat, chosen))

    def _resign(self, argument: str) -> None:
        level = RESIGN_LEVELS.get(argument.lower())
        if level is None:
            self._say("Resign what? Type resign, resign gammon or resign backgammon.")
            return
        self._act(lambda game, seat: game.resign(seat, level))

    def _name(self, argument: str) -> None:
        """Name the double to play after Acey-deucey's 1-2."""
        if self.game.phase is not Phase.NAME and not self._over():
            self._say("A double is named only in Acey-deucey, after playing a 1-2.")
            return
        if not argument.isdigit() or not 1 <= int(argument) <= 6:
            self._say("Name the double by its number, 1 to 6: name 4 plays 4-4.")
            return
        die = int(argument)
        self._act(lambda game, seat: game.name(seat, die))

    def _undo(self, _: str) -> None:
        self._say(
            "A play cannot be taken back: it is typed whole, and once made it stays in the "
            "game's record. Until a play is typed, no checker has moved."
        )

    # Hints

    def _hint(self, argument: str) -> None:
        if argument:
            self._say("hint takes nothing after it.")
            return
        game = self.game
        refusal = self._over()
        if not refusal and game.player_to_act in self._computer:
            refusal = "the game waits for the computer's dice; hints are for a person's turn."
        if not refusal:
            refusal = board_refusal(game, self.names) if isinstance(game, BoardGame) \
                else self._hinter.refusal(game, self.names)
        if refusal:
            self._say(f"No hint now: {refusal}")
            return
        lines = board_hint_lines(game, self.names, self._hinter.lang) \
            if isinstance(game, BoardGame) else self._hinter.lines(game, self.names)
        for line in lines:
            self._say(line)

    # Other commands

    def _help(self, _: str) -> None:
        self._say(HELP)

    def _board(self, _: str) -> None:
        self._draw_board()
        if self._moving() and not self._over():
            self._show_plays()

    def _id(self, _: str) -> None:
        record = self.record
        if isinstance(record, (BoardMatch, BoardGame)):
            self._say(f"{title(self._game_name())} has no position ID: GNU Backgammon's IDs "
                      "and XGIDs describe backgammon. save FILE keeps the game as JSON.")
            return
        self._say(f"GNU Backgammon ID: {gnubg_id_of(record)}")
        self._say(xgid_of(record))

    def _score(self, _: str) -> None:
        game = self.game
        match = self.match
        if match is None:
            self._say(f"One game, loaded on its own: {cube_text(game, self.names)}.")
        else:
            self._say(score_line(match, self.names))
            self._say(f"Game {len(match.games)}: {cube_text(game, self.names)}.")
        over = self._over()
        if over:
            self._say(over)

    def _save(self, argument: str) -> None:
        if not argument:
            self._say("Usage: save FILE, the file to write the match or game to.")
            return
        files.save(self.record, argument)
        self._say(f"Saved the {'match' if self.match else 'game'} to {argument}.")

    def _load(self, argument: str) -> None:
        if not argument:
            self._say("Usage: load FILE, a match or game saved with save FILE.")
            return
        self.record = files.load(argument, self.dice_source)
        self._shown = None
        self._say(f"Loaded {argument}.")
        if self.match is not None:
            self._say(score_line(self.match, self.names))
        self._let_the_computer_act()
        self._show_state()

    def _export(self, argument: str) -> None:
        if not argument:
            self._say("Usage: export FILE.mat, the file to write the match to.")
            return
        record = self.record
        if isinstance(record, (BoardMatch, BoardGame)):
            self._say(f"A .mat file holds backgammon only; GNU Backgammon's formats have no "
                      f"{title(self._game_name())}. save FILE keeps the match as JSON.")
            return
        files.export(record, argument)
        self._say(f"Exported the {'match' if self.match else 'game'} to {argument}.")

    # State and output

    def _moving(self) -> bool:
        return self.game.phase in (Phase.MOVE, Phase.CONFIRM)

    def _legal_plays(self) -> list[Play] | list[GamePlay]:
        game = self.game
        if isinstance(game, BoardGame):
            assert game.turn is not None  # asked for only while a play is awaited
            return list(game.turn.plays)
        assert game.dice is not None  # asked for only while a play is awaited
        return game.position.legal_plays(game.dice)

    def _game_name(self) -> str:
        """The name of the other game being played (``plakoto``); "" for backgammon."""
        game = self.game
        return game.game.name if isinstance(game, BoardGame) else ""

    def _over(self) -> str:
        return over_text(self.match, self.game, self.names)

    def _announce_result(self, game: Played) -> None:
        assert game.result is not None  # called once the game has ended
        match = self.match
        games: list[Played] = [] if match is None else [*match.games]
        number = games.index(game) + 1 if games else 1
        self._say(f"Game {number}: {result_text(game, game.result, self.names)}")
        if match is None:
            return
        self._say(score_line(match, self.names))
        if match.winner is not None:
            return  # what follows says who won the match
        next_game = match.game
        if isinstance(match, BoardMatch) and match.rotation:
            kind = f": {title(self._game_name())}"  # a Tavli match's game in turn
        else:
            kind = ""
        crawford = (" It is the Crawford game: no doubling."
                    if next_game.crawford and next_game.rules.cube else "")
        self._say(f"Game {len(match.games)} begins{kind}.{crawford}")
        self._shown = None  # a new game's board is drawn, even where it looks like the last

    def _show_state(self) -> None:
        """Say what the game waits for, drawing the board when it changed."""
        game = self.game
        over = self._over()
        if over:
            self._say(f"{over} {what_now(self.game)}")
            return
        self._show_board()
        if game.phase in (Phase.MOVE, Phase.CONFIRM):
            self._show_plays()
            return
        computer = game.on_roll in self._computer
        self._say(waiting_text(game, self.names, computer=computer, manual=bool(self._manual)))

    def _show_board(self) -> None:
        game = self.game
        if self._shown != (game.on_roll, game.position):
            self._draw_board()

    def _draw_board(self) -> None:
        game = self.game
        letter = SEAT_LETTERS[game.on_roll]
        if isinstance(game, BoardGame):
            self._say(game_board_text(game.position, game.game, letter, game.dice))
        else:
            self._say(board_text(game.position, letter))
        labels = [
            seat_label(self.names[seat], game.colours[seat], seat) for seat in (0, 1)
        ]
        legend = f"  {labels[0]}; {labels[1]}; {cube_text(game, self.names)}"
        match = self.match
        if match is not None and match.length:
            legend += f"; match to {match.length}, score {match.score[0]}-{match.score[1]}"
        self._say(legend)
        self._shown = (game.on_roll, game.position)

    def _show_plays(self) -> None:
        game = self.game
        dice: Dice | None = game.dice
        assert dice is not None  # called only once the dice are in
        plays = self._legal_plays()
        count = len(plays)
        self._say(
            f"{self.names[game.on_roll]} to play {dice[0]}-{dice[1]}: "
            f"{count} legal play{'' if count == 1 else 's'}."
        )
        self._say(format_plays(plays, width=79))
        self._say("Type a play (like 8/5 6/5) or its number.")

    def _say(self, text: str) -> None:
        self.out.write(text + "\n")


def run(
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    dice_source: DiceSource | None = None,
    *,
    options: SessionOptions | None = None,
) -> int:
    """Play at the table until quit, exit or the end of the input; the exit status.

    ``stdin`` and ``stdout`` default to the process's own (looked up when called, so a test's
    replacement is seen); ``dice_source`` defaults to secure dice (:class:`SecureDice`); a
    :class:`ManualDice` source takes the dice typed at the prompt.
    """
    source = sys.stdin if stdin is None else stdin
    out = sys.stdout if stdout is None else stdout
    session = Session(out, dice_source, options)
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

