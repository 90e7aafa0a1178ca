"""What the terminal shows: the board, the numbered plays, and sentences about a game.

Nothing here reads input or changes a game; :mod:`.interactive` decides when to show what.
Seat 0's checkers are drawn as O and seat 1's as X, whichever of them is on roll, so a player
finds their checkers under the same letter all game long.

>>> from backgammon.dice import ManualDice
>>> game = Game(dice=ManualDice(["3 1"]))
>>> game.roll(0)
>>> print("\\n".join(event_lines(game, 0, ("Alice", "Bob"))))
Opening roll: Alice rolls 3, Bob rolls 1: Alice plays first with 3-1.
>>> game.play(0, "8/5 6/5")
>>> event_lines(game, 1, ("Alice", "Bob"))
['Alice plays 8/5 6/5.']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import assert_never

from ..cube import jacoby_applies
from ..dice import Dice
from ..drawing import draw
from ..game import (
    Action,
    Beavered,
    BoardEntry,
    BoardGame,
    Doubled,
    DoubleNamed,
    Dropped,
    Game,
    GameEnded,
    GameEntry,
    GameResult,
    OpeningRoll,
    Phase,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Rules,
    Taken,
    TurnPlayed,
)
from ..game.match import BoardMatch, Match
from ..games import Board, GamePlay, GameRules, LoneChecker, Travel
from ..moves import Play
from ..position import BAR, OFF, Outcome, Position, Side, WinKind
from .setup import COMPUTER_NAME

Letter = str

#: The letter each seat's checkers are drawn with.
SEAT_LETTERS: tuple[Letter, Letter] = ("O", "X")

#: The table's commands, as ``help`` lists them.
HELP = """\
Commands (each is made for the player the game waits for, named in the prompt):
  roll, Enter     roll the dice; a game starts with the opening roll (each player rolls
                  one die and the higher plays both numbers)
  31, 3 1, 3-1    the numbers of physical dice (with --manual-dice); at the opening roll,
                  the first number is the first player's die
  double          offer to double, before rolling
  hint            the computer's advice: the best plays of the roll, or the cube decision
                  before rolling and when doubled (backgammon only)
  take, drop      answer a double; beaver: redouble at once (where beavers are on)
  8/5 6/5         make a play in gnubg notation (bar/22*, 6/off, 8/5(2), 13/7*/5)
  3               make the play numbered 3 in the list
  name 4, 4       Acey-deucey, after playing a 1-2: the double to play (then roll again)
  resign [single|gammon|backgammon]   offer to resign; accept, reject: answer it
  undo            (a play, once made, cannot be taken back)
  board           show the board (and the legal plays once the dice are in)
  id              print the GNU Backgammon ID and the XGID (backgammon only)
  score           the score and the cube
  save FILE       save the match or game (JSON); load FILE: go on with a saved one
  export FILE     write the match as a .mat file, for GNU Backgammon and others
                  (backgammon only)
  help            this list
  quit, exit      leave (so does the end of the input)"""

WIN_NAMES = {
    WinKind.SINGLE: "a single game",
    WinKind.GAMMON: "a gammon",
    WinKind.BACKGAMMON: "a backgammon",
}


def points_text(points: int) -> str:
    """``1 point``, ``2 points``."""
    return f"{points} point{'' if points == 1 else 's'}"


def format_plays(plays: Sequence[Play | GamePlay], width: int = 0) -> str:
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


def board_text(position: Position, on_roll: Letter) -> str:
    """The board from the player on roll's side, their checkers marked with their letter.

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


def game_board_text(board: Board, rules: GameRules, on_roll: Letter,
                    dice: Dice | None = None) -> str:
    """A board of the other games (:mod:`backgammon.games`) from the player on roll's side,
    in backgammon's layout (:func:`backgammon.drawing.draw`): each side's checkers where they
    stand, both sides travelling the same way round in Fevga and Long Nardy; a pinned
    checker (Plakoto) drawn in small letters under the pinner's; the bar only where checkers
    are hit; Acey-deucey's checkers waiting to enter; the pip counts, who is on roll and the
    dice.

    >>> from backgammon.games import rules_for
    >>> board = Board.from_points({24: 14, 13: 1}, {24: 15})
    >>> print(game_board_text(board, rules_for("fevga"), "O", (6, 5)))
     +13-14-15-16-17-18-+---+19-20-21-22-23-24-+
     | O                |   |                O |
    ...
     | X                |   |                  |
     +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+
      O on roll, dice 6-5, pips 349; X pips 360
      Both travel the same way round: X starts on O's 12-point.
    """
    other = "X" if on_roll == "O" else "O"
    their_point = rules.travel.their_point
    mine_pinned, theirs_pinned = board.pinned()

    def stack(point: int) -> str:
        mine, theirs = board.mine[point], board.theirs[their_point(point)]
        if mine and theirs:  # a lone checker pinned under the pinner's
            if point in mine_pinned:
                return on_roll.lower() + other * theirs
            return other.lower() + on_roll * mine
        return on_roll * mine or other * theirs

    def beside(letter: str, side: bytes, waiting: int) -> str:
        parts = []
        if rules.lone_checker is LoneChecker.HIT:
            parts.append(f"bar {side[BAR] - waiting}")
        if rules.enters:
            parts.append(f"to enter {waiting}")
        return f"{letter} " + "  ".join([*parts, f"off {side[OFF]}"])

    pips_mine, pips_theirs = board.pips()
    rolled = f", dice {dice[0]}-{dice[1]}" if dice is not None else ""
    under = [f"{on_roll} on roll{rolled}, pips {pips_mine}; {other} pips {pips_theirs}"]
    if rules.travel is Travel.SAME:
        under.append(f"Both travel the same way round: {other} starts on {on_roll}'s "
                     f"{their_point(24)}-point.")
    if mine_pinned or theirs_pinned:
        under.append(f"{on_roll.lower()}, {other.lower()}: a pinned checker, under the "
                     "pinner's.")
    return draw(stack, (beside(other, board.theirs, board.theirs_waiting),
                        beside(on_roll, board.mine, board.mine_waiting)), under)


def outcome_text(outcome: Outcome, on_roll: Letter) -> str:
    """A sentence saying who won and how, for an outcome of a position with ``on_roll`` on roll."""
    other = "X" if on_roll == "O" else "O"
    winner = on_roll if outcome.winner == Side.ON_ROLL else other
    return f"{winner} wins {WIN_NAMES[outcome.kind]} ({points_text(int(outcome.kind))})."


def seat_label(name: str, colour: str, seat: int) -> str:
    """``O White`` when the name is the colour's, else ``O Alice (white)``."""
    letter = SEAT_LETTERS[seat]
    return f"{letter} {name}" if name.lower() == colour.lower() else f"{letter} {name} ({colour})"


def cube_text(game: Game | BoardGame, names: tuple[str, str]) -> str:
    """Where the cube stands: ``cube 1 in the middle``, ``cube 2, Bob's``, or why there is none."""
    if not game.rules.cube:
        return "no cube"
    if game.crawford:
        return "Crawford game, no doubling"
    if game.cube_owner is None:
        return f"cube {game.cube_value} in the middle"
    return f"cube {game.cube_value}, {names[game.cube_owner]}'s"


def rules_text(rules: Rules, length: int, crawford: bool) -> str:
    """The options in force, in words; empty when they are the usual ones."""
    options = []
    if not rules.cube:
        options.append("no cube")
    if rules.jacoby:
        options.append("Jacoby rule")
    if rules.beavers:
        options.append("beavers")
    if rules.automatic_doubles:
        options.append(f"automatic doubles (at most {rules.automatic_doubles} a game)")
    if rules.max_cube is not None:
        options.append(f"cube up to {rules.max_cube}")
    if rules.opening_reroll:
        options.append("the opening roll's winner rolls afresh")
    if rules.auto_forced:
        options.append("forced plays made automatically")
    if rules.auto_race_roll:
        options.append("automatic rolls in a race")
    if length > 1 and not crawford:
        options.append("no Crawford rule")
    return ", ".join(options)


def result_text(game: Game | BoardGame, result: GameResult, names: tuple[str, str]) -> str:
    """How the game ended and what it is worth."""
    if result.reason == "draw":
        return "Both mothers are pinned: the game is a draw, and no one scores."
    winner, loser = names[result.winner], names[1 - result.winner]
    points = points_text(result.points)
    kind = WIN_NAMES[result.kind]
    if result.reason == "mother":
        return f"{loser}'s mother is pinned on its starting point: {winner} wins {points}."
    if result.reason == "drop":
        return f"{loser} dropped the double: {winner} wins {points}."
    if result.reason == "resign":
        text = f"{loser} resigned {kind}: {winner} wins {points}."
    elif result.reason == "claim":
        text = f"{loser} left; {winner} claimed {kind}: {winner} wins {points}."
    else:
        text = f"{winner} wins {kind}: {points}."
    if result.kind is not WinKind.SINGLE and jacoby_applies(
        game.rules.jacoby, game.in_match, game.cube_turned
    ):
        text += " (The Jacoby rule counts it single: the cube was never turned.)"
    return text


def answers_text(game: Game | BoardGame) -> str:
    """What the player who is doubled may answer: ``take or drop``, or with a beaver."""
    assert game.offer is not None  # asked for only while a double waits for its answer
    if Action.BEAVER in game.legal_actions(game.offer.decider):
        return "take, drop or beaver"
    return "take or drop"


def waiting_text(
    game: Game | BoardGame, names: tuple[str, str], *, computer: bool, manual: bool
) -> str:
    """What the game waits for, said before the prompt: the opening roll, a roll or a double
    (``computer``: the computer is on roll, and waits only for its physical dice, having
    chosen not to double), an answer to a double or to a resignation. ``manual``: the dice
    are physical, typed at the prompt. (A play is awaited with the list of legal plays.)"""
    phase = game.phase
    if phase is Phase.OPENING:
        if manual:
            return (
                f"Opening roll: enter the two dice, {names[0]}'s die first (like 52); "
                "the higher plays first."
            )
        return (
            "Opening roll: type roll (or just Enter); each player rolls one die and the higher "
            "plays first."
        )
    if phase is Phase.CUBE:
        offer = game.offer
        assert offer is not None  # a double waits for its answer
        return (
            f"{names[offer.decider]}: {answers_text(game)}? Taking plays on for {offer.value}; "
            f"dropping gives up {points_text(offer.value // 2)}."
        )
    if phase is Phase.RESIGN:
        assert game.resignation is not None  # a resignation waits for its answer
        resigning = game.resignation.player
        return (
            f"{names[1 - resigning]}: accept or reject {names[resigning]}'s resignation "
            f"of {WIN_NAMES[game.resignation.level]}?"
        )
    name = names[game.on_roll]
    if phase is Phase.NAME:  # the computer names its double at once: a person's turn
        return (f"{name} played 1-2: name the double to play now (name 1 to name 6), then "
                "roll again.")
    assert phase is Phase.ROLL
    if computer:
        who = "The computer" if name == COMPUTER_NAME else f"{name} (the computer)"
        double = " and does not double" if game.may_double() else ""
        return f"{who} is on roll{double}: type the numbers its dice show (like 31, 3 1 or 3-1)."
    if manual:
        double = " or type double" if game.may_double() else ""
        return f"{name} on roll: enter the dice (like 31, 3 1 or 3-1){double}."
    double = " or double" if game.may_double() else ""
    return f"{name} on roll: type roll (or just Enter){double}."


def event_lines(game: Game | BoardGame, start: int, names: tuple[str, str]) -> list[str]:
    """Sentences for what happened in ``game`` from event ``start`` on (the result is said
    apart, with the score)."""
    return [
        line
        for entry in game.history()
        if entry.index >= start
        for line in _entry_lines(entry, names)
    ]


def _entry_lines(entry: GameEntry | BoardEntry, names: tuple[str, str]) -> list[str]:
    name = names[entry.seat]
    match entry:
        case OpeningRoll():
            return _opening_lines(entry, names)
        case Rolled(opening=True):
            return []  # the opening roll's sentence says it
        case Rolled():
            race = " (rolled for them: the race needs no decision)" if entry.auto else ""
            return [f"{name} rolls {entry.dice[0]}-{entry.dice[1]}{race}."]
        case TurnPlayed(play=play) if not play.steps:
            return [f"{name} dances with {entry.dice[0]}-{entry.dice[1]}: no checker can move."]
        case TurnPlayed():
            forced = " (the only legal play)" if entry.auto else ""
            return [f"{name} plays {entry.play}{forced}."]
        case Doubled():
            return [f"{name} doubles to {entry.value}."]
        case Beavered():
            return [f"{name} beavers: the cube goes to {entry.value} and {name} keeps it."]
        case Taken():
            return [f"{name} takes: the cube is at {entry.value}, {names[entry.owner]}'s."]
        case Dropped():
            return [f"{name} drops."]
        case ResignationOffered():
            return [f"{name} offers to resign {WIN_NAMES[entry.level]}."]
        case ResignationAccepted():
            return [f"{name} accepts the resignation."]
        case ResignationRejected():
            return [f"{name} rejects the resignation: the game goes on."]
        case DoubleNamed():
            return [f"{name} names {entry.die}-{entry.die}."]
        case GameEnded():
            return []  # the result is said apart, with the score
        case _:
            assert_never(entry)


def _opening_lines(entry: OpeningRoll, names: tuple[str, str]) -> list[str]:
    first, second = entry.dice
    if entry.winner is None:
        lines = [f"Opening roll: both roll {first}; roll again."]
        if entry.automatic_double:
            lines.append(f"Automatic double: the cube is at {entry.cube_value}, in the middle.")
        return lines
    rolls = f"Opening roll: {names[0]} rolls {first}, {names[1]} rolls {second}"
    if entry.reroll:
        return [f"{rolls}: {names[entry.winner]} plays first and rolls both dice afresh."]
    high, low = max(entry.dice), min(entry.dice)
    return [f"{rolls}: {names[entry.winner]} plays first with {high}-{low}."]


def over_text(match: Match | BoardMatch | None, game: Game | BoardGame,
              names: tuple[str, str]) -> str:
    """A sentence saying that the match (or, without one, the game) is over; '' while it
    goes on."""
    if match is not None:
        if match.winner is None:
            return ""
        score = f"{max(match.score)}-{min(match.score)}"
        return f"The match is over: {names[match.winner]} wins it {score}."
    if game.result is None:
        return ""
    return f"The game is over. {result_text(game, game.result, names)}"


def score_line(match: Match | BoardMatch, names: tuple[str, str]) -> str:
    """The match's score, or the money session's, as a sentence."""
    score = match.score
    kind = f"match to {match.length}" if match.length else "money play"
    return f"Score: {names[0]} {score[0]}, {names[1]} {score[1]} ({kind})."


def what_now(game: Game | BoardGame) -> str:
    """What is left to do once it is over: save (and export a match of backgammon)."""
    if isinstance(game, BoardGame):
        return "Type save FILE or quit."
    return "Type save FILE, export FILE.mat or quit."


#: What ``resign`` may be followed by: nothing (a single game), a level's name or number.
RESIGN_LEVELS = {"": WinKind.SINGLE} | {
    word: kind for kind in WinKind for word in (kind.name.lower(), str(int(kind)))
}
