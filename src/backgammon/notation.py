"""Play notation as GNU Backgammon writes it, and parsing of what people type.

Writing follows gnubg's ``FormatMove``: steps sorted from the highest point down, a checker's
steps chained into one path (an intermediate point is kept only where it hit), identical paths
counted as ``(n)``, the bar written ``bar`` and borne-off checkers ``off``, and a hit marked
``*`` the first time a point is hit.

>>> from backgammon import Position
>>> p = Position.from_points({13: 2, 6: 2}, {18: 1, 24: 14})
>>> sorted(str(play) for play in p.legal_plays((6, 2)))[:4]
['13/11 13/7*', '13/5', '13/7* 6/4', '13/7*/5']
>>> str(p.parse_play("13/7/5", (6, 2)))
'13/7*/5'
"""

from __future__ import annotations

import itertools
import re
from typing import TYPE_CHECKING

from .dice import Dice
from .errors import IllegalPlayError
from .position import BAR, OFF, Position

if TYPE_CHECKING:
    from .moves import Play  # here: moves imports this module (Play.__str__ formats with it)

_TOKEN = re.compile(r"(?P<path>[^()]+?)\s*(?:\((?P<count>[0-9]+)\))?")
_SEPARATOR = re.compile(r"[\s,;]+")
_NO_MOVE_WORDS = {"", "pass", "dance", "no move", "none", "-"}


def format_play(play: Play) -> str:
    """The notation of a play, exactly as gnubg writes it: ``13/7*/5 24/23``."""
    if not play.steps:
        return "no move"
    theirs = play.position.theirs_bytes

    def was_hit(point: int) -> bool:
        return point != OFF and theirs[25 - point] > 0

    rows = sorted(
        ([step.from_point, step.to_point] for step in play.steps),
        key=lambda row: (row[0], row[-1]),
        reverse=True,
    )
    # Chain each checker's steps: a step that starts where an earlier path ends joins it.
    paths: list[list[int]] = []
    used = [False] * len(rows)
    for i, row in enumerate(rows):
        if used[i]:
            continue
        path = list(row)
        for j in range(i + 1, len(rows)):
            if not used[j] and rows[j][0] == path[-1]:
                if was_hit(path[-1]):
                    path.append(rows[j][1])
                else:
                    path[-1] = rows[j][1]
                used[j] = True
        paths.append(path)
    # Count identical paths, in the order of their first appearance.
    counts: dict[tuple[int, ...], int] = {}
    for path in paths:
        key = tuple(path)
        counts[key] = counts.get(key, 0) + 1
    marked: set[int] = set()
    parts = []
    for chain, count in counts.items():
        text = _point_name(chain[0])
        for point in chain[1:-1]:
            text += f"/{point}*"
            marked.add(point)
        last = chain[-1]
        text += f"/{_point_name(last)}"
        if was_hit(last) and last not in marked:
            text += "*"
            marked.add(last)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def parse_play(position: Position, text: str, dice: Dice) -> Play:
    """The legal play that ``text`` describes (dice already checked).

    Accepts hit marks or none, ``bar`` or ``25``, ``off`` or ``0``, a checker's whole path or
    only its ends (``13/5`` for ``13/8/5``), repeats as ``(2)``, the moves in any order, and
    ``-`` as well as ``/`` between points. Anything else raises IllegalPlayError saying why.
    """
    from .moves import Play  # here: moves imports this module (Play.__str__ formats with it)

    plays = position.legal_plays(dice)
    try:
        return _parse(position, plays, text, dice)
    except _Unreadable as exc:
        # The legal plays are written out only when they are needed, for the message.
        legal = tuple(sorted((str(play) for play in plays), key=_reading_order))
        message = str(exc)
        if exc.list_legal:
            message += f"; the legal plays are {', '.join(legal) or 'none'}."
        raise IllegalPlayError(message, legal) from None
    except _NoMove:
        return Play.empty(position)


class _Unreadable(Exception):
    """Why a text is not a legal play; parse_play adds the legal plays."""

    def __init__(self, message: str, list_legal: bool = False) -> None:
        super().__init__(message)
        self.list_legal = list_legal


class _NoMove(Exception):
    """The text says the turn passes, and no checker can move."""


def _parse(position: Position, plays: list[Play], text: str, dice: Dice) -> Play:
    roll = f"{dice[0]}-{dice[1]}"
    if not isinstance(text, str):
        raise _Unreadable(f"A play is text such as '24/18 13/11'; got {text!r}.")
    cleaned = re.sub(r"\s*([/-])\s*", r"\1", text.strip().lower())
    if not plays:
        if cleaned in _NO_MOVE_WORDS:
            raise _NoMove
        raise _Unreadable(f"No checker can move with {roll}: the turn passes.")
    if cleaned in _NO_MOVE_WORDS:
        raise _Unreadable(f"A play must be given: with {roll}", list_legal=True)
    # A play is found by where it leaves the checkers (and what it hits), not by its steps:
    # the text may give a path by its ends, or the moves in any order.
    wanted, hits = _moved(position, cleaned, text.strip(), dice)
    candidates = [
        play for play in plays if play.result.theirs_bytes == wanted and hits <= _hit_points(play)
    ]
    if len(candidates) > 1:
        # A path given by its ends hits only where the text says; gnubg writes it so.
        exact = [play for play in candidates if _hit_points(play) == hits]
        if len(exact) == 1:
            return exact[0]
        raise _Unreadable(
            f"{text.strip()!r} is ambiguous with {roll}: it could be "
            f"{', '.join(str(play) for play in candidates)}; mark the hits to choose"
        )
    if not candidates:
        raise _Unreadable(f"{text.strip()!r} is not a legal play with {roll}", list_legal=True)
    return candidates[0]


def _moved(position: Position, cleaned: str, said: str, dice: Dice) -> tuple[bytes, set[int]]:
    """The mover's checkers after the moves of ``cleaned`` (``said`` as the player wrote it,
    for messages), and the points they hit; _Unreadable for a move no roll of ``dice`` makes."""
    mine = list(position.mine_bytes)
    theirs = position.theirs_bytes
    hits: set[int] = set()
    for token in _SEPARATOR.split(cleaned):
        if not token:
            continue
        points, stars, count = _parse_token(token)
        _check_path(token, points, theirs, said, dice)
        for point, star in zip(points[1:], stars[1:], strict=True):
            # Landing on a single opposing checker always hits it, marked or not.
            if point != OFF and theirs[25 - point] == 1:
                hits.add(point)
            elif star:
                raise _Unreadable(
                    f"{token!r} marks a hit on {_point_name(point)}, but no single opposing "
                    "checker stands there"
                )
        mine[points[0]] -= count
        mine[points[-1]] += count
    for index, value in enumerate(mine):
        if value < 0:
            raise _Unreadable(
                f"{said!r} moves more checkers from {_point_name(index)} than stand there"
            )
    return bytes(mine), hits


def _check_path(token: str, points: list[int], theirs: bytes, said: str, dice: Dice) -> None:
    """_Unreadable unless each leg of a checker's path goes forwards, by a distance the dice
    make, and stops only on open points."""
    roll = f"{dice[0]}-{dice[1]}"
    a, b = dice
    # The distances one checker can go without stopping where the text does not say.
    reach = {a, 2 * a, 3 * a, 4 * a} if a == b else {a, b, a + b}
    for start, end in itertools.pairwise(points):
        if start <= end:
            raise _Unreadable(
                f"In {token!r}, {_point_name(start)} to {_point_name(end)} goes backwards: "
                "checkers move from higher points to lower ones (bar is 25, off is 0)"
            )
        if start - end not in reach and not (end == OFF and start - end < max(reach)):
            raise _Unreadable(
                f"{said!r} is not a legal play with {roll}: "
                f"{_point_name(start)}/{_point_name(end)} is {start - end} pips, "
                f"which no number of {roll} makes",
                list_legal=True,
            )
    for point in points[1:-1]:
        if theirs[25 - point] > 1:
            raise _Unreadable(
                f"{said!r} is not a legal play with {roll}: point {point} is "
                "closed, so no checker can stop there",
                list_legal=True,
            )


def _parse_token(token: str) -> tuple[list[int], list[bool], int]:
    match = _TOKEN.fullmatch(token)
    if match is None:
        raise _Unreadable(f"{token!r} is not a move such as '13/7*/5' or '8/5(2)'")
    count = int(match["count"]) if match["count"] else 1
    if not 1 <= count <= 4:
        raise _Unreadable(f"{token!r} repeats a move {count} times; at most 4")
    parts = re.split(r"[/-]", match["path"])
    if len(parts) < 2:
        raise _Unreadable(
            f"{token!r} is not a move: write the points it goes from and to, as in '24/18'"
        )
    points: list[int] = []
    stars: list[bool] = []
    for part in parts:
        name = part.strip()
        star = name.endswith("*")
        name = name.rstrip("*").strip()
        if name == "bar":
            point = BAR
        elif name == "off":
            point = OFF
        elif name.isascii() and name.isdigit() and 0 <= int(name) <= 25:
            point = int(name)
        else:
            raise _Unreadable(
                f"{part.strip()!r} in {token!r} is not a point: use 1 to 24, 'bar' (25) or "
                "'off' (0)"
            )
        points.append(point)
        stars.append(star)
    return points, stars, count


def _reading_order(text: str) -> list[int]:
    """Sorts plays as a list is read: from the highest points down (bar first, off last)."""
    names = re.findall(r"bar|off|[0-9]+", text)
    return [-(BAR if name == "bar" else OFF if name == "off" else int(name)) for name in names]


def _hit_points(play: Play) -> set[int]:
    return {step.to_point for step in play.steps if step.hit}


