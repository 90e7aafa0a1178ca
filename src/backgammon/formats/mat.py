"""The ``.mat`` text match format of Jellyfish, GNU Backgammon and the online servers.

A ``.mat`` file is a record of a match (or of a money session, a "0 point match") that people
can read. It is the format GNU Backgammon writes with ``export match mat`` and reads with
``import mat``; eXtreme Gammon and the servers write dialects of it. This module writes the
dialect GNU Backgammon 1.07 writes, and reads that and the others, rebuilding the match
through the game engine so that every move and cube action is checked by the rules.

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
winner's column, after a resignation as after any other end. The opening roll is not written
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

Reading infers what a file's headers leave out: beavers from a beaver in the games, a fresh
opening roll from a game whose first roll is doubles, the Jacoby rule (in a money session
with no ``[Jacoby]`` header) from a gammon counted single. GNU Backgammon's own money files
give a gammon its plain worth on the ``Wins`` line even under the Jacoby rule, while its score
lines keep to the rule; the score lines are taken as the truth.

>>> from backgammon.dice import ManualDice
>>> from backgammon.match import Match
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

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..dice import Dice, ManualDice
from ..errors import BackgammonError
from ..game import Action, Event, Game, Phase, Rules
from ..match import Match
from ..moves import Play
from ..position import Position, WinKind
from ..variants import Variant

__all__ = ["MatFormatError", "export_mat", "import_mat", "read_mat"]


class MatFormatError(BackgammonError):
    """A ``.mat`` file that cannot be read, or whose match the rules do not allow.

    ``line`` is the number of the line at fault (1 for the first), or None when the fault
    is not on one line (or when writing).
    """

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"Line {line}: {message}" if line is not None else message)
        self.line = line


# Writing

# GNU Backgammon's columns: "%3d) %-27s " and then the right-hand entry, so that column
# starts at character 33; the score line is " %-31s%s".
_LEFT_WIDTH = 27
_SCORE_WIDTH = 31

_VARIATION_NAMES = {
    Variant.STANDARD: "Backgammon",
    Variant.NACKGAMMON: "NackGammon",
    Variant.HYPERGAMMON: "HyperGammon (3)",
}


@dataclass
class _Entry:
    """One entry of a move line: whose column, its text, and whether it gets a number."""

    seat: int
    text: str
    numbered: bool = True


def export_mat(match: Match | Game) -> str:
    """The match (or one game, as a one-game money session) as ``.mat`` text.

    Every game is written, the last one as far as it has gone; the rules go into header
    comments. Raises :class:`MatFormatError` for what the format cannot hold: a game set up
    from another position than the variant's start, or one with an automatic double.

    >>> from backgammon.dice import ManualDice
    >>> game = Game(dice=ManualDice(["6 1"]))
    >>> game.roll(0)
    >>> game.play(0, "13/7 8/7")
    >>> game.resign(1)
    >>> game.accept(0)
    >>> print(export_mat(game))  # doctest: +NORMALIZE_WHITESPACE
    ; [Player 1 "Player 0"]
    ; [Player 2 "Player 1"]
    ; [Variation "Backgammon"]
    ; [Jacoby "Off"]
    ; [Beaver "Off"]
    <BLANKLINE>
     0 point match
    <BLANKLINE>
     Game 1
     Player 0 : 0                   Player 1 : 0
      1) 61: 13/7 8/7
          Wins 1 point
    <BLANKLINE>
    """
    if isinstance(match, Game):
        games, length, rules = [match], 0, match.rules
        players: tuple[str, str] = ("Player 0", "Player 1")
        crawford = False
    else:
        games, length, rules = match.games, match.length, match.rules
        players, crawford = match.players, match.crawford_rule
    names = (_score_name(players[0], 0), _score_name(players[1], 1))
    out = _header(players, length, rules, crawford)
    out += ["", f" {length} point match", ""]
    score = [0, 0]
    for number, game in enumerate(games, start=1):
        if not game.events and number > 1:
            continue  # the empty game a session opens after each finished one
        if game.setup is not None or game.start != Position.initial(game.rules.variant):
            raise MatFormatError(
                None,
                f"Game {number} starts from a set-up position; a .mat file records only "
                "games from the variant's starting position.",
            )
        left = f"{names[0]} : {score[0]}"
        out += [f" Game {number}", f" {left:<{_SCORE_WIDTH - 1}} {names[1]} : {score[1]}"]
        out += _lines(_entries(game, number))
        out.append("")
        if game.result is not None:
            score[game.result.winner] += game.result.points
    return "\n".join(out) + "\n"


def _header(
    players: tuple[str, str], length: int, rules: Rules, crawford: bool
) -> list[str]:
    lines = [
        f'; [Player 1 "{_header_value(players[0])}"]',
        f'; [Player 2 "{_header_value(players[1])}"]',
        f'; [Variation "{_VARIATION_NAMES[rules.variant]}"]',
    ]
    if length:
        lines.append(f'; [Crawford "{_on(crawford)}"]')
    else:
        lines.append(f'; [Jacoby "{_on(rules.jacoby)}"]')
        lines.append(f'; [Beaver "{_on(rules.beavers)}"]')
    if not rules.cube:
        # GNU Backgammon reads a cube limit of 1 as "no cube".
        lines.append('; [CubeLimit "1"]')
    elif rules.max_cube is not None:
        lines.append(f'; [CubeLimit "{rules.max_cube}"]')
    if rules.opening_reroll:
        lines.append('; [OpeningReroll "On"]')
    return lines


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def _header_value(name: str) -> str:
    return " ".join(name.replace('"', "'").split())


def _score_name(name: str, seat: int) -> str:
    # A score line is "name : score"; a colon in a name would end it early, and GNU
    # Backgammon turns every blank into a space.
    cleaned = " ".join(name.replace(":", ".").split())
    return cleaned or f"Player {seat}"


def _entries(game: Game, number: int) -> list[_Entry]:
    """The entries of one game, in order, from its record."""
    entries: list[_Entry] = []
    plays = iter(game.plays)
    opening = True
    ties = 0
    roll: _Entry | None = None  # the roll whose play is still to be written
    dice: Dice = (1, 1)
    cube = 1
    offered = 1
    # The actions a .mat file keeps: no resignation that was rejected (or is still pending).
    events = [
        event
        for index, event in enumerate(game.events)
        if event.action is not Action.REJECT
        and not (
            event.action is Action.RESIGN
            and (index + 1 == len(game.events) or game.events[index + 1].action is Action.REJECT)
        )
    ]
    for index, event in enumerate(events):
        action = event.action
        if action is Action.ROLL:
            assert event.dice is not None
            dice = event.dice
            high, low = max(dice), min(dice)
            if opening:
                first, second = dice
                if first == second:
                    ties += 1
                    if (
                        game.rules.cube
                        and not game.in_match
                        and ties <= game.rules.automatic_doubles
                    ):
                        raise MatFormatError(
                            None,
                            f"Game {number} has an automatic double, which a .mat file "
                            "cannot record.",
                        )
                    continue
                opening = False
                if game.rules.opening_reroll:
                    continue  # the winner now rolls both dice afresh
                roll = _Entry(0 if first > second else 1, f"{high}{low}:")
            else:
                roll = _Entry(event.player, f"{high}{low}:")
            entries.append(roll)
        elif action in (Action.PLAY, Action.PASS, Action.CONFIRM):
            _seat, _dice, play = next(plays)
            if play is not None and roll is not None:
                roll.text += " " + _play_text(play)
            roll = None
        elif action is Action.DOUBLE:
            offered = cube * 2
            entries.append(_Entry(event.player, f" Doubles => {offered}"))
        elif action is Action.BEAVER:
            offered *= 2
            # GNU Backgammon takes the doubler's roll after "Beavers" as the take, and loses
            # its way on a "Takes" or "Drops" written there (its ParseMatMove keeps the beaver
            # pending, for the rest of the file); so a beaver that no roll takes is written as
            # the second double it is in gnubg's own record, which reads right.
            taken_by_roll = _actions(events, index, 3) == _BEAVER_TAKEN
            word = "Beavers" if taken_by_roll else "Doubles"
            entries.append(_Entry(event.player, f" {word} => {offered}"))
        elif action is Action.TAKE:
            cube = offered
            if _actions(events, index - 1, 3) != _BEAVER_TAKEN:
                entries.append(_Entry(event.player, " Takes"))
        elif action is Action.DROP:
            entries.append(_Entry(event.player, " Drops"))
        # Steps, undos and resignations leave no entry of their own: a turn is written as
        # its play, and an accepted resignation as the winner's "Wins" line below.
    if roll is not None and len(game.position.legal_plays(dice)) == 1:
        # Rolled, then resigned or stopped: eXtreme Gammon's "???" says no play follows,
        # where a reader would otherwise make the one legal play (as gnubg does).
        roll.text += " ???"
    result = game.result
    if result is not None:
        plural = "" if result.points == 1 else "s"
        entries.append(_Entry(result.winner, f" Wins {result.points} point{plural}", False))
    return entries


_BEAVER_TAKEN = [Action.BEAVER, Action.TAKE, Action.ROLL]


def _actions(events: list[Event], start: int, count: int) -> list[Action]:
    return [event.action for event in events[max(start, 0) : start + count]]


def _play_text(play: Play) -> str:
    # GNU Backgammon writes every checker step on its own, the bar as 25 and off as 0.
    return " ".join(
        f"{step.from_point}/{step.to_point}{'*' if step.hit else ''}" for step in play.steps
    )


def _lines(entries: list[_Entry]) -> list[str]:
    """Lay the entries out in two columns: a seat-0 entry starts a line, seat 1 ends it."""
    lines: list[str] = []
    left: _Entry | None = None
    right: _Entry | None = None
    number = 0

    def flush() -> None:
        nonlocal left, right, number
        if left is None and right is None:
            return
        if (left and left.numbered) or (right and right.numbered):
            number += 1
            prefix = f"{number:3d}) "
        else:
            prefix = " " * 5
        text = left.text if left else ""
        if right is not None:
            text = f"{text:<{_LEFT_WIDTH}} {right.text}"
        lines.append((prefix + text).rstrip())
        left = right = None

    for entry in entries:
        if entry.seat == 0:
            flush()
            left = entry
        else:
            right = entry
            flush()
    flush()
    return lines


# Reading

_LENGTH = re.compile(r"\s*(\d+)\s*[Pp]oint\s*[Mm]atch\b")
_GAME = re.compile(r"\s*Game\s+(\d+)\b", re.IGNORECASE)
_SCORE = re.compile(r"\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*")
_HEADER = re.compile(r'[;#]\s*\[\s*([^"\]]+?)\s+"([^"]*)"\s*\]')
_NUMBER = re.compile(r"\s*\d+\)")
_ENTRY = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|(?:re)?doubles?\b|beavers?\b|raccoons?\b|takes?\b|accepts?\b"
    r"|drops?\b|passes\b|refuses?\b|rejects?\b|wins?\b|resigns?\b)",
    re.IGNORECASE,
)
_KINDS = {
    "double": "double",
    "redoubl": "double",
    "beaver": "beaver",
    "raccoon": "beaver",
    "take": "take",
    "accept": "take",
    "drop": "drop",
    "passes": "drop",
    "refuse": "drop",
    "reject": "drop",
    "win": "win",
    "resign": "resign",
}
_NO_MOVE = re.compile(r"(?:cannot move|can't move|no move|\?+)?", re.IGNORECASE)
_VALUE = re.compile(r"=>\s*(\d+)")
_POINTS = re.compile(r"wins?\s+(\d+)\s+points?\b", re.IGNORECASE)
# A lone entry starting this far into its line is in the right-hand column (GNU Backgammon's
# starts at 33, eXtreme Gammon's near 37; left entries start by 7).
_RIGHT_COLUMN = 20
_VARIATIONS = {
    "backgammon": Variant.STANDARD,
    "standard": Variant.STANDARD,
    "nackgammon": Variant.NACKGAMMON,
    "hypergammon": Variant.HYPERGAMMON,
    "hypergammon (3)": Variant.HYPERGAMMON,
}
_ON = {
    **dict.fromkeys(("on", "yes", "true", "1"), True),
    **dict.fromkeys(("off", "no", "false", "0"), False),
}


@dataclass(frozen=True)
class _Cell:
    """One entry read from a move line."""

    line: int
    kind: str  # roll, double, beaver, take, drop, win or resign
    seat: int | None  # the column, when the line has both; else None
    right: bool  # where a lone entry stands: in the right-hand column
    text: str  # the entry as written
    dice: Dice | None = None
    play: str = ""
    value: int | None = None
    held: bool = False  # "???": rolled, and no play follows


@dataclass
class _GameText:
    line: int
    score_line: int
    score: tuple[int, int]
    names: tuple[str, str]
    cells: list[_Cell] = field(default_factory=list)


@dataclass
class _MatText:
    headers: dict[str, tuple[int, str]]
    length: int
    games: list[_GameText]


class _JacobyRetry(Exception):
    """The points written fit the other setting of the Jacoby rule, which no header names:
    read the file again with it."""

    def __init__(self, jacoby: bool) -> None:
        super().__init__(jacoby)
        self.jacoby = jacoby


def import_mat(text: str) -> Match:
    """The match a ``.mat`` text records, rebuilt move by move through the rules.

    Reads what GNU Backgammon, Jellyfish and eXtreme Gammon write: header comments in any
    order or none, Windows line ends, blank lines, names with spaces, ``bar``/``25`` and
    ``off``/``0``, hits marked or not, a checker's moves chained (``13/8/5``) or one die at a
    time, a turn's two entries on one line or on lines of their own, and games without their
    closing ``Wins`` line. Anything it cannot read, or that the rules refuse, raises
    :class:`MatFormatError` naming the line.

    >>> match = import_mat('''
    ...  1 point match
    ...
    ...  Game 1
    ...  Ann Lee : 0                    Bob : 0
    ...   1) 31: 8/5 6/5                 42: 8/4 6/4
    ...                                   Wins 1 point
    ... ''')
    >>> match.players, match.score, match.game.result.reason
    (('Ann Lee', 'Bob'), (0, 1), 'resign')
    >>> import_mat(" 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/4 6/5\\n")
    Traceback (most recent call last):
    ...
    backgammon.formats.mat.MatFormatError: Line 4: seat 0 cannot play '8/4 6/5' with 3-1: ...
    """
    if not isinstance(text, str):
        raise MatFormatError(None, f"A .mat file is read as text; got {type(text).__name__}.")
    parsed = _parse(text)
    try:
        return _Replay(parsed, jacoby=None).match
    except _JacobyRetry as retry:
        return _Replay(parsed, jacoby=retry.jacoby).match


def read_mat(path: str | os.PathLike[str]) -> Match:
    """The match recorded in the ``.mat`` file at ``path`` (see :func:`import_mat`).

    The file is read as UTF-8 (a byte order mark is skipped), or as Windows-1252 where it is
    not UTF-8, as older programs wrote it.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "m.mat"
    ...     _ = path.write_bytes(b" 0 point match\\r\\n\\r\\n Game 1\\r\\n A : 0  B : 0\\r\\n")
    ...     read_mat(path).length
    0
    """
    with open(path, "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return import_mat(text)


def _parse(text: str) -> _MatText:
    """The file's headers, match length and games, each game's entries with their lines."""
    lines = text.lstrip("\ufeff").splitlines()
    headers: dict[str, tuple[int, str]] = {}
    length: int | None = None
    number = 0
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped.startswith((";", "#")):
            found = _HEADER.match(stripped)
            if found:
                headers[" ".join(found[1].lower().split())] = (number, found[2].strip())
            continue
        matched = _LENGTH.match(stripped)
        if matched:
            length = int(matched[1])
            break
        if _GAME.fullmatch(stripped):
            raise MatFormatError(
                number, "A game starts before the match length line, such as ' 7 point match'."
            )
        # Anything else before the match length line is ignored, as GNU Backgammon does.
    if length is None:
        raise MatFormatError(
            max(number, 1),
            "This is not a .mat file: it has no match length line, such as ' 7 point match'.",
        )
    games: list[_GameText] = []
    rows = iter(enumerate(lines[number:], start=number + 1))
    for number, raw in rows:
        stripped = raw.strip()
        if not stripped:
            continue
        if _GAME.fullmatch(stripped):
            games.append(_score_of(number, rows))
        elif stripped.startswith((";", "#")):
            if stripped[1:].strip().lower().startswith("set pos"):
                raise MatFormatError(
                    number, "A set-up position inside a game cannot be replayed by the rules."
                )
        elif not games:
            continue  # GNU Backgammon skips what comes before the first game
        else:
            games[-1].cells.extend(_cells(number, raw))
    return _MatText(headers, length, games)


def _score_of(game_line: int, rows: Iterator[tuple[int, str]]) -> _GameText:
    for number, raw in rows:
        if not raw.strip():
            continue
        found = _SCORE.fullmatch(raw)
        if found is None:
            raise MatFormatError(
                number,
                f"The score line of the game at line {game_line} should read like "
                f"'Alice : 0    Bob : 2'; found {raw.strip()!r}.",
            )
        return _GameText(
            game_line,
            number,
            (int(found[2]), int(found[4])),
            (found[1], found[3]),
        )
    raise MatFormatError(game_line, "The file ends before this game's score line.")


def _cells(number: int, raw: str) -> list[_Cell]:
    """The one or two entries of a move line."""
    line = raw.expandtabs(8).rstrip()
    prefix = _NUMBER.match(line)
    start = prefix.end() if prefix else 0
    body = line[start:]
    if not body.strip():
        return []  # a move number alone
    starts = [found.start() for found in _ENTRY.finditer(body)]
    if not starts or body[: starts[0]].strip():
        raise MatFormatError(
            number,
            f"Cannot read {line.strip()!r}: a move line holds entries such as "
            "'52: 13/8 24/22', 'Doubles => 2', 'Takes', 'Drops' or 'Wins 1 point'.",
        )
    if len(starts) > 2:
        raise MatFormatError(
            number, f"{line.strip()!r} has more than two entries: one for each player."
        )
    texts = [body[a:b].strip() for a, b in zip(starts, [*starts[1:], len(body)], strict=True)]
    cells = []
    for index, entry in enumerate(texts):
        seat = index if len(texts) == 2 else None
        cells.append(_cell(number, entry, seat, start + starts[index] >= _RIGHT_COLUMN))
    return cells


def _cell(number: int, entry: str, seat: int | None, right: bool) -> _Cell:
    if entry[0].isdigit():
        play = entry[3:].strip()
        held = play.startswith("?")
        if _NO_MOVE.fullmatch(play):
            play = ""  # a dance, or eXtreme Gammon's marks for a roll before resigning
        dice = (int(entry[0]), int(entry[1]))
        return _Cell(number, "roll", seat, right, entry, dice, play, held=held)
    lowered = entry.lower()
    kind = next(kind for prefix, kind in _KINDS.items() if lowered.startswith(prefix))
    value: int | None = None
    if kind in ("double", "beaver"):
        found = _VALUE.search(entry)
        value = int(found[1]) if found else None
    elif kind == "win":
        points = _POINTS.match(entry)
        if points is None:
            raise MatFormatError(number, f"{entry!r} should say how much: 'Wins 2 points'.")
        value = int(points[1])
    return _Cell(number, kind, seat, right, entry, value=value)


def _rules(parsed: _MatText, jacoby: bool | None) -> tuple[Rules, bool]:
    """The rules and the Crawford setting that the headers name or the games show."""
    headers = parsed.headers
    money = parsed.length == 0

    def flag(name: str, default: bool) -> bool:
        if name not in headers:
            return default
        line, value = headers[name]
        if value.lower() not in _ON:
            raise MatFormatError(line, f"[{name}] should be \"On\" or \"Off\"; got {value!r}.")
        return _ON[value.lower()]

    variant = Variant.STANDARD
    if "variation" in headers:
        line, value = headers["variation"]
        name = " ".join(value.lower().split())
        if name not in _VARIATIONS:
            raise MatFormatError(
                line, f"The variation {value!r} is not one this program plays."
            )
        variant = _VARIATIONS[name]
    cube, max_cube = True, None
    if "cubelimit" in headers:
        line, value = headers["cubelimit"]
        if not value.isdigit() or int(value) < 1:
            raise MatFormatError(line, f"The cube limit should be a number; got {value!r}.")
        cube = int(value) > 1
        max_cube = int(value) if cube else None
    firsts = [game.cells[0] for game in parsed.games if game.cells]
    # Only a fresh roll by the opening roll's winner can be doubles, or follow a double or a
    # resignation: the winner of a plain opening roll plays its two numbers at once.
    reroll = flag("openingreroll", False) or any(
        cell.kind in ("double", "win") or (cell.dice is not None and cell.dice[0] == cell.dice[1])
        for cell in firsts
    )
    # eXtreme Gammon writes [Beaver], others [Beavers]; without either, a beaver in the
    # games shows them on: "Beavers", or a double answered by a double (gnubg's record).
    named = [name for name in ("beaver", "beavers") if name in headers]
    if named:
        beavers = money and flag(named[0], False)
    else:
        beavers = money and any(_shows_beaver(game.cells) for game in parsed.games)
    # Without a header, first as GNU Backgammon plays money by default: with the rule.
    use_jacoby = money and (flag("jacoby", True) if jacoby is None else jacoby)
    try:
        rules = Rules(
            variant=variant,
            cube=cube,
            jacoby=use_jacoby,
            beavers=beavers,
            max_cube=max_cube,
            opening_reroll=reroll,
        )
    except BackgammonError as exc:
        at = headers["cubelimit"][0] if "cubelimit" in headers else None
        raise MatFormatError(at, str(exc)) from exc
    return rules, flag("crawford", True)


def _shows_beaver(cells: list[_Cell]) -> bool:
    return any(cell.kind == "beaver" for cell in cells) or any(
        first.kind == second.kind == "double" for first, second in itertools.pairwise(cells)
    )


class _Replay:
    """Plays a parsed file's games through a :class:`Match`, entry by entry."""

    def __init__(self, parsed: _MatText, jacoby: bool | None) -> None:
        self.parsed = parsed
        # The Jacoby rule may be inferred (and the file read again) only when no header says.
        self.jacoby_unknown = jacoby is None and parsed.length == 0 and (
            "jacoby" not in parsed.headers
        )
        rules, crawford = _rules(parsed, jacoby)
        self.dice = ManualDice()
        first = parsed.games[0] if parsed.games else None
        players = self._players(first)
        if first is not None and first.score != (0, 0):
            raise MatFormatError(
                first.score_line,
                f"The first game starts at {first.score[0]}-{first.score[1]}; matches here "
                "start at 0-0, so a file must hold the match from its first game.",
            )
        self.match = Match(parsed.length, rules, self.dice, players=players, crawford=crawford)
        for index, game_text in enumerate(parsed.games):
            if index >= len(self.match.games):
                if self.match.is_over and (max(game_text.score) >= parsed.length):
                    break  # GNU Backgammon too skips the games after the match is over
                raise MatFormatError(
                    game_text.line,
                    f"The match is over at {self._score()}, but the file goes on with "
                    "another game.",
                )
            self._check_score(game_text)
            self._play_game(self.match.games[index], game_text)
            if index + 1 < len(parsed.games):
                self._close(self.match.games[index], game_text, parsed.games[index + 1])

    def _players(self, first: _GameText | None) -> tuple[str, str]:
        names = []
        for seat in (0, 1):
            name = first.names[seat] if first is not None else ""
            if not name:
                name = self.parsed.headers.get(f"player {seat + 1}", (0, ""))[1]
            names.append(name or f"Player {seat}")
        return (names[0], names[1])

    def _score(self) -> str:
        return f"{self.match.score[0]}-{self.match.score[1]}"

    def _check_score(self, game_text: _GameText) -> None:
        if game_text.score != self.match.score:
            raise MatFormatError(
                game_text.score_line,
                f"This game starts at {game_text.score[0]}-{game_text.score[1]}, but the "
                f"games before it make the score {self._score()}.",
            )

    def _close(self, game: Game, game_text: _GameText, following: _GameText) -> None:
        """End a game the file leaves unfinished, from the score the next game starts at."""
        gained = [following.score[seat] - game_text.score[seat] for seat in (0, 1)]
        if game.result is None:
            if sorted(gained) != [0, max(gained)] or max(gained) == 0:
                raise MatFormatError(
                    following.score_line,
                    "The game before this one is not finished, and this score does not say "
                    "who won it.",
                )
            winner = 0 if gained[0] else 1
            self._award(game, winner, gained[winner], following.score_line)
        elif following.score != self.match.score:
            self._jacoby_hint(game, gained[game.result.winner])
            self._check_score(following)

    def _play_game(self, game: Game, game_text: _GameText) -> None:
        cells = game_text.cells
        for index, cell in enumerate(cells):
            following = cells[index + 1] if index + 1 < len(cells) else None
            try:
                self._apply(game, cell, following)
            except MatFormatError:
                raise
            except BackgammonError as exc:
                seat = self._seat(game, cell)
                raise MatFormatError(
                    cell.line, f"seat {seat} cannot {self._describe(cell)}: {exc}"
                ) from exc

    @staticmethod
    def _describe(cell: _Cell) -> str:
        if cell.kind == "roll":
            assert cell.dice is not None
            roll = f"{cell.dice[0]}-{cell.dice[1]}"
            return f"play {cell.play!r} with {roll}" if cell.play else f"roll {roll}"
        return {
            "double": "double",
            "beaver": "beaver",
            "take": "take",
            "drop": "drop",
            "win": "win here",
        }.get(cell.kind, cell.kind)

    @staticmethod
    def _seat(game: Game, cell: _Cell) -> int:
        """Whose entry: its column on a full line; for a lone entry, whoever must act."""
        if cell.seat is not None:
            return cell.seat
        phase = game.phase
        if cell.kind in ("roll", "double") and phase in (Phase.ROLL, Phase.CUBE):
            return game.on_roll
        if cell.kind in ("beaver", "take", "drop") and game.offer is not None:
            return game.offer.decider
        if cell.kind == "win" and game.result is not None:
            return game.result.winner
        return 1 if cell.right else 0

    def _apply(self, game: Game, cell: _Cell, following: _Cell | None) -> None:
        seat = self._seat(game, cell)
        if cell.kind == "resign":
            return  # the "Wins" line that follows tells the result
        if cell.kind == "win":
            assert cell.value is not None
            self._win(game, seat, cell.value, cell.line)
            return
        if game.phase is Phase.OVER:
            raise MatFormatError(cell.line, f"{cell.text!r} comes after the game is over.")
        if cell.kind == "roll":
            self._roll(game, seat, cell, following)
        elif cell.kind == "double" and game.offer is not None and seat == game.offer.decider:
            game.beaver(seat)  # how GNU Backgammon records a beaver: a second double
            self._check_value(game, cell)
        elif cell.kind == "double":
            self._open(game, seat, cell)
            game.double(seat)
            self._check_value(game, cell)
        elif cell.kind == "beaver":
            game.beaver(seat)
            self._check_value(game, cell)
        elif cell.kind == "take":
            game.take(seat)
        elif cell.kind == "drop":
            game.drop(seat)

    def _open(self, game: Game, seat: int, cell: _Cell) -> None:
        """Where the rules give the opening roll's winner a fresh roll, make ``seat`` it."""
        if game.phase is Phase.OPENING and game.rules.opening_reroll:
            # The file does not keep the opening dice: any two that make ``seat`` the winner.
            self.dice.enter((2, 1) if seat == 0 else (1, 2))
            game.roll(seat)

    def _check_value(self, game: Game, cell: _Cell) -> None:
        assert game.offer is not None
        if cell.value is not None and cell.value != game.offer.value:
            raise MatFormatError(
                cell.line,
                f"{cell.text!r} puts the cube at {cell.value}, but by the entries before it "
                f"the cube goes to {game.offer.value}.",
            )

    def _roll(self, game: Game, seat: int, cell: _Cell, following: _Cell | None) -> None:
        assert cell.dice is not None
        high, low = max(cell.dice), min(cell.dice)
        self._open(game, seat, cell)
        if game.phase is Phase.OPENING:
            if high == low:
                raise MatFormatError(cell.line, "The opening roll cannot be doubles.")
            # The opening roll is one die each, dice given as (seat 0's, seat 1's): the
            # player whose entry comes first had the higher one.
            self.dice.enter((high, low) if seat == 0 else (low, high))
            game.roll(seat)
        else:
            if game.phase is Phase.CUBE and seat == game.on_roll and game.offer is not None:
                # A roll straight after a double (or a beaver) means it was taken.
                game.take(game.offer.decider)
            self.dice.enter(cell.dice)
            game.roll(seat)
        if game.phase is not Phase.MOVE:
            if cell.play:
                raise MatFormatError(
                    cell.line,
                    f"{high}-{low} has no legal move here, but the file plays {cell.play!r}.",
                )
            return
        if cell.play:
            game.play(seat, cell.play)
            return
        assert game.dice is not None
        plays = game.position.legal_plays(game.dice)
        if len(plays) == 1 and not cell.held:
            game.play(seat, plays[0])  # a forced play, which some programs leave out
            return
        if cell.held or following is None or following.kind == "win":
            return  # rolled, then resigned, or the file stops here
        raise MatFormatError(
            cell.line,
            f"No play is written for {high}-{low}, but there are {len(plays)} legal plays.",
        )

    def _win(self, game: Game, seat: int, points: int, line: int) -> None:
        if game.result is None:
            self._award(game, seat, points, line)
        elif game.result.winner != seat:
            raise MatFormatError(
                line, f"Seat {game.result.winner} won this game, not seat {seat}."
            )
        elif game.result.points != points and not (
            # GNU Backgammon writes what the board is worth, the Jacoby rule left out, while
            # its score lines keep to the rule: the next game's score line checks it.
            game.result.reason == "bear off"
            and points == game.cube_value * int(game.result.kind)
        ):
            self._mismatch(game, points, line)

    def _award(self, game: Game, winner: int, points: int, line: int) -> None:
        """End the game with ``points`` to ``winner``: a drop, or the loser resigning."""
        try:
            if game.phase is Phase.CUBE and game.offer and game.offer.player == winner:
                game.drop(game.offer.decider)
            else:
                if game.phase is Phase.OPENING:
                    if not game.rules.opening_reroll:
                        raise MatFormatError(line, "A game cannot end before its first move.")
                    self.dice.enter((2, 1) if winner == 1 else (1, 2))
                    game.roll(1 - winner)
                level = _resign_level(game, points)
                if level is None and self.jacoby_unknown and game.rules.jacoby:
                    # More than the cube for a resignation: the Jacoby rule is off.
                    raise _JacobyRetry(False)
                if level is None:
                    raise MatFormatError(
                        line,
                        f"Seat {winner} cannot win {points} points with the cube at "
                        f"{game.cube_value}.",
                    )
                game.resign(1 - winner, level)
                game.accept(winner)
        except MatFormatError:
            raise
        except BackgammonError as exc:
            raise MatFormatError(line, f"Seat {winner} cannot win here: {exc}") from exc
        assert game.result is not None
        if game.result.points != points:
            self._mismatch(game, points, line)

    def _jacoby_hint(self, game: Game, points: int) -> None:
        """Read the file again under the other setting of the Jacoby rule, where no header
        names it and that setting explains the file's ``points`` for a gammon or backgammon
        won with the cube not turned."""
        result = game.result
        if not (
            self.jacoby_unknown
            and result is not None
            and result.reason == "bear off"
            and result.kind is not WinKind.SINGLE
            and not game.cube_turned
        ):
            return
        if game.rules.jacoby and points == game.cube_value * int(result.kind):
            raise _JacobyRetry(False)
        if not game.rules.jacoby and points == game.cube_value:
            raise _JacobyRetry(True)

    def _mismatch(self, game: Game, points: int, line: int) -> None:
        assert game.result is not None
        result = game.result
        self._jacoby_hint(game, points)
        raise MatFormatError(
            line,
            f"The file gives {points} points for this game, but by the rules it is worth "
            f"{result.points} (a {result.kind.name.lower()} with the cube at "
            f"{game.cube_value}"
            + (", Jacoby rule on" if game.rules.jacoby else "")
            + ").",
        )


def _resign_level(game: Game, points: int) -> WinKind | None:
    """The resignation that gives ``points``: the lowest level worth that much."""
    # RULES.md, Doubling: under the Jacoby rule, with the cube not turned, every win counts
    # as a single game.
    jacoby = game.rules.jacoby and not game.in_match and not game.cube_turned
    for kind in WinKind:
        if game.cube_value * (1 if jacoby else int(kind)) == points:
            return kind
    return None
