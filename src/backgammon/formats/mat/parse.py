"""Reading ``.mat`` text into its parts: the header comments, the match length, and each
game's score line and entries, with the line each came from. Nothing here knows the rules;
:mod:`.read` replays the entries through the game."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...dice import Dice
from .common import CLAIMED, MatFormatError

_LENGTH = re.compile(r"\s*(\d+)\s*[Pp]oint\s*[Mm]atch\b")
_GAME = re.compile(r"\s*Game\s+(\d+)\b", re.IGNORECASE)
_SCORE = re.compile(r"\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)\s*")
_HEADER = re.compile(r'[;#]\s*\[\s*([^"\]]+?)\s+"([^"]*)"\s*\]')
_NUMBER = re.compile(r"\s*\d+\)")
_ENTRY = re.compile(
    r"(?<!\S)(?:[1-6][1-6]:|(?:re)?doubles?\b|beavers?\b|raccoons?\b|takes?\b|accepts?\b"
    r"|drops?\b|passes\b|refuses?\b|rejects?\b|wins?\b|loss(?:es)?\b|loses?\b|resigns?\b)",
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
    "loss": "loss",  # Backgammon Galaxy's "Losses 3 points", in the loser's column
    "lose": "loss",
    "resign": "resign",
}
_NO_MOVE = re.compile(r"(?:cannot move|can't move|no move|\?+)?", re.IGNORECASE)
_VALUE = re.compile(r"=>\s*(\d+)")
_POINTS = re.compile(r"(?:wins?|loss(?:es)?|loses?)\s+(\d+)\s+points?\b", re.IGNORECASE)
# A lone entry starting this far into its line is in the right-hand column (GNU Backgammon's
# starts at 33, eXtreme Gammon's near 37; left entries start by 7).
_RIGHT_COLUMN = 20


@dataclass(frozen=True)
class Cell:
    """One entry read from a move line."""

    line: int
    kind: str  # roll, double, beaver, take, drop, win, loss or resign
    seat: int | None  # the column, when the line has both; else None
    right: bool  # where a lone entry stands: in the right-hand column
    text: str  # the entry as written
    dice: Dice | None = None
    play: str = ""
    value: int | None = None
    held: bool = False  # "???": rolled, and no play follows
    claimed: bool = False  # "Wins 1 point (claimed)": the loser had left the game


@dataclass
class GameText:
    """One game as written: the line of its ``Game N``, its score line (the score at its
    start and the names), and its entries."""

    line: int
    score_line: int
    score: tuple[int, int]
    names: tuple[str, str]
    cells: list[Cell] = field(default_factory=list)


@dataclass
class MatText:
    """A file as written: its header comments (lower-case name: line and value), the match
    length and the games."""

    headers: dict[str, tuple[int, str]]
    length: int
    games: list[GameText]


def parse(text: str) -> MatText:
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
    games: list[GameText] = []
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
    return MatText(headers, length, games)


def _score_of(game_line: int, rows: Iterator[tuple[int, str]]) -> GameText:
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
        return GameText(
            game_line,
            number,
            (int(found[2]), int(found[4])),
            (found[1], found[3]),
        )
    raise MatFormatError(game_line, "The file ends before this game's score line.")


def _cells(number: int, raw: str) -> list[Cell]:
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


def _cell(number: int, entry: str, seat: int | None, right: bool) -> Cell:
    if entry[0].isdigit():
        play = entry[3:].strip()
        held = play.startswith("?")
        if _NO_MOVE.fullmatch(play):
            play = ""  # a dance, or eXtreme Gammon's marks for a roll before resigning
        dice = (int(entry[0]), int(entry[1]))
        return Cell(number, "roll", seat, right, entry, dice, play, held=held)
    lowered = entry.lower()
    kind = next(kind for prefix, kind in _KINDS.items() if lowered.startswith(prefix))
    value: int | None = None
    claimed = False
    if kind in ("double", "beaver"):
        found = _VALUE.search(entry)
        value = int(found[1]) if found else None
    elif kind in ("win", "loss"):
        points = _POINTS.match(entry)
        if points is None:
            raise MatFormatError(number, f"{entry!r} should say how much: 'Wins 2 points'.")
        value = int(points[1])
        claimed = kind == "win" and entry[points.end() :].strip() == CLAIMED
    return Cell(number, kind, seat, right, entry, value=value, claimed=claimed)

