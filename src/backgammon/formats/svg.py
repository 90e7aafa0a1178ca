"""A backgammon board as a self-contained SVG image: the help pages' boards and the analysis
reports'.

Besides backgammon's :class:`~backgammon.Position`, it draws the board of any game played on
a backgammon board (:class:`backgammon.games.Board`): both sides travelling the same way
(Fevga, Long Nardy: give ``travel=Travel.SAME``), a lone checker pinned under the
opponent's (Plakoto: drawn at the foot of the point, the pinner's stack on top of it), and
checkers still waiting to enter (Acey-deucey: counted on the bar, described as waiting).

The board is drawn from the side of the player on roll: their checkers are the light ones,
their home board is at the bottom (on the right unless ``home="left"``) and the points carry
their numbering. The image is accessible by itself: ``role="img"``, a ``<title>`` and an
``aria-label`` that say the whole position in words (in the language of the
:class:`BoardLabels` given), and the dark checkers carry a ring, so colour is never the only
sign of whose a checker is. Only the standard library is used.

>>> from backgammon.position import Position
>>> svg = board_svg(Position.initial(), dice=(3, 1))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and 'role="img"' in svg
True
>>> import textwrap
>>> print(textwrap.fill(describe(Position.initial(), dice=(3, 1)), 90))
Backgammon board. White to play, dice 3 and 1. White: 5 on point 6, 3 on point 8, 5 on
point 13, 2 on point 24. Black: 2 on point 1, 5 on point 12, 3 on point 17, 5 on point 19.

``travel`` says where the opponent's checkers stand on the player on roll's numbering: their
24-point is the player on roll's 12 when both travel the same way.

>>> from backgammon.games import Board, Travel
>>> plakoto = Board.from_points({24: 14, 5: 1}, {24: 14, 20: 1}, theirs_pinned=[20])
>>> describe(plakoto).split(". ")[2:]
['White: 1 on point 5, 14 on point 24', 'Black: 14 on point 1, 1 pinned on point 5.']
>>> fevga = Board.from_points({24: 15}, {24: 15})
>>> describe(fevga, travel=Travel.SAME).split(". ")[2:]
['White: 15 on point 24', 'Black: 15 on point 12.']
>>> describe(Board.from_points({}, {}, mine_waiting=15, theirs_waiting=15)).split(". ")[2]
'White: 15 waiting to enter'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from html import escape

from ..cube import CubeOwner
from ..games.board import Board, Travel
from ..position import BAR, OFF, Position

#: The geometry, in user units: a checker's diameter, the frame, the bar and the tray.
CHECKER = 36
FRAME = 12
BAR_WIDTH = 40
TRAY = 46
NUMBERS = 18  # the strip above and below the board for the point numbers
STACK = 5  # checkers drawn on one point; a taller stack shows its count on its top checker
POINT_HEIGHT = STACK * CHECKER
GAP = 56  # between the two rows of points: the dice lie here
HALF = 6 * CHECKER
WIDTH = 2 * FRAME + 2 * HALF + BAR_WIDTH + TRAY
HEIGHT = 2 * NUMBERS + 2 * FRAME + 2 * POINT_HEIGHT + GAP

LIGHT, DARK = "#f7f3e8", "#2b2b2b"


@dataclass(frozen=True)
class BoardLabels:
    """The words a board is described in, one language's: ``{placeholders}`` are filled in.

    ``digits`` are the ten digits the language writes numbers with (Persian ``۰۱۲…``); the
    point numbers drawn on the board use them too.
    """

    title: str = "Backgammon board"
    player: str = "White"
    opponent: str = "Black"
    to_play: str = "{player} to play"
    dice: str = "dice {first} and {second}"
    point: str = "{count} on point {point}"
    bar: str = "{count} on the bar"
    off: str = "{count} borne off"
    nothing: str = "no checker on the board"
    pinned: str = "{count} pinned on point {point}"
    waiting: str = "{count} waiting to enter"
    cube_centre: str = "the cube at {value} in the middle"
    cube_owned: str = "the cube at {value}, {owner}'s"
    comma: str = ", "
    colon: str = ": "
    stop: str = "."
    digits: str = "0123456789"

    def number(self, value: int) -> str:
        """``value`` in the language's digits.

        >>> BoardLabels(digits="۰۱۲۳۴۵۶۷۸۹").number(24)
        '۲۴'
        """
        return str(value).translate(str.maketrans("0123456789", self.digits))


ENGLISH = BoardLabels()


def describe(
    position: Position | Board,
    *,
    labels: BoardLabels = ENGLISH,
    dice: tuple[int, int] | None = None,
    cube: int | None = None,
    cube_owner: CubeOwner = CubeOwner.CENTRE,
    travel: Travel = Travel.OPPOSITE,
) -> str:
    """The position in words, every checker on the player on roll's numbering: what a screen
    reader says of :func:`board_svg`'s image.

    A game's :class:`~backgammon.games.Board` says its pinned checkers and those waiting to
    enter too; ``travel`` places the opponent's checkers (module docstring).

    >>> p = Position.from_points({"bar": 1, 3: 2}, {20: 3}, checkers=3)
    >>> for sentence in describe(p, cube=2, cube_owner=CubeOwner.OPPONENT).split(". "):
    ...     print(sentence)
    Backgammon board
    White to play, the cube at 2, Black's
    White: 1 on the bar, 2 on point 3
    Black: 3 on point 5.
    """
    n = labels.number
    head = [labels.to_play.format(player=labels.player)]
    if dice is not None:
        head.append(labels.dice.format(first=n(dice[0]), second=n(dice[1])))
    if cube is not None:
        if cube_owner is CubeOwner.CENTRE:
            head.append(labels.cube_centre.format(value=n(cube)))
        else:
            owner = labels.player if cube_owner is CubeOwner.ON_ROLL else labels.opponent
            head.append(labels.cube_owned.format(value=n(cube), owner=owner))
    sentences = [labels.title, labels.comma.join(head)]
    for name, side in zip((labels.player, labels.opponent), _sides(position, travel),
                          strict=True):
        parts = []
        if side.hit:
            parts.append(labels.bar.format(count=n(side.hit)))
        if side.waiting:
            parts.append(labels.waiting.format(count=n(side.waiting)))
        for point in range(1, 25):
            count = side.at(point)
            if count:
                said = labels.pinned if point in side.pinned else labels.point
                parts.append(said.format(count=n(count), point=n(point)))
        if side.off:
            parts.append(labels.off.format(count=n(side.off)))
        on_board = labels.comma.join(parts) if parts else labels.nothing
        sentences.append(f"{name}{labels.colon}{on_board}")
    return " ".join(sentence + labels.stop for sentence in sentences)


@dataclass(frozen=True)
class _Side:
    """One side's checkers as the drawing needs them: on the player on roll's numbering."""

    counts: bytes | tuple[int, ...]
    #: The player on roll's point number of each of this side's points (index 1..24).
    numbering: tuple[int, ...]
    #: The points (player on roll's numbering) where this side's checker lies pinned.
    pinned: frozenset[int]
    #: Checkers on the bar that have never entered (Acey-deucey).
    waiting: int

    def at(self, point: int) -> int:
        """This side's checkers on the player on roll's ``point``."""
        return self.counts[self.numbering[point]]

    @property
    def off(self) -> int:
        return self.counts[OFF]

    @property
    def bar(self) -> int:
        return self.counts[BAR]

    @property
    def hit(self) -> int:
        """Checkers on the bar that were hit (the bar's, less those waiting to enter)."""
        return self.counts[BAR] - self.waiting


def _sides(position: Position | Board, travel: Travel) -> tuple[_Side, _Side]:
    """The player on roll's side and the opponent's, both on the player on roll's numbering.

    ``travel.their_point`` maps each numbering onto the other (it is its own inverse).
    """
    own = tuple(range(25))
    theirs = (0, *(travel.their_point(point) for point in range(1, 25)))
    if isinstance(position, Board):
        mine_pinned, theirs_pinned = position.pinned()
        return (
            _Side(position.mine, own, mine_pinned, position.mine_waiting),
            _Side(position.theirs, theirs,
                  frozenset(travel.their_point(point) for point in theirs_pinned),
                  position.theirs_waiting),
        )
    return (_Side(tuple(position.mine), own, frozenset(), 0),
            _Side(tuple(position.theirs), theirs, frozenset(), 0))


def board_svg(
    position: Position | Board,
    *,
    labels: BoardLabels = ENGLISH,
    dice: tuple[int, int] | None = None,
    cube: int | None = None,
    cube_owner: CubeOwner = CubeOwner.CENTRE,
    home: str = "right",
    travel: Travel = Travel.OPPOSITE,
) -> str:
    """The board of ``position`` as an SVG document (a string, no XML declaration), to put
    inline in HTML or save as a ``.svg`` file.

    ``dice`` are drawn in the player on roll's half; ``cube`` (its value; none drawn when
    ``None``) on the bar when centred, else by its owner's tray. Each stack of checkers is a
    ``<g class="stack">`` with ``data-side`` (``on-roll`` or ``opponent``), ``data-place``
    (``1``..``24`` on the player on roll's numbering, ``bar`` or ``off``) and ``data-count``;
    a pinned checker is a stack of its own with ``data-pinned="true"``, drawn at the foot of
    its point under the pinner's stack. ``travel`` places the opponent's checkers (see
    :func:`describe`).

    >>> import xml.etree.ElementTree as ET
    >>> root = ET.fromstring(board_svg(Position.initial(), cube=1))
    >>> stacks = root.findall(".//{http://www.w3.org/2000/svg}g[@class='stack']")
    >>> sorted((s.get("data-side"), int(s.get("data-place")), int(s.get("data-count")))
    ...        for s in stacks)[:4]
    [('on-roll', 6, 5), ('on-roll', 8, 3), ('on-roll', 13, 5), ('on-roll', 24, 2)]
    >>> board_svg(Position.initial(), home="middle")
    Traceback (most recent call last):
    ...
    ValueError: home must be 'right' or 'left', not 'middle'.
    >>> plakoto = Board.from_points({24: 14, 5: 1}, {24: 14, 20: 1}, theirs_pinned=[20])
    >>> svg = ET.fromstring(board_svg(plakoto))
    >>> [(s.get("data-side"), s.get("data-count")) for s in
    ...  svg.findall(".//{http://www.w3.org/2000/svg}g[@data-place='5']")]
    [('opponent', '1'), ('on-roll', '1')]
    """
    if home not in ("right", "left"):
        raise ValueError(f"home must be 'right' or 'left', not {home!r}.")
    words = describe(position, labels=labels, dice=dice, cube=cube, cube_owner=cube_owner,
                     travel=travel)
    layout = _Layout(home == "left")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'role="img" aria-label="{escape(words)}" class="backgammon-board">',
        f"<title>{escape(words)}</title>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="8" fill="#5b3a1e"/>',
    ]
    parts += layout.fields()
    parts += layout.points(labels)
    parts += _checkers(_sides(position, travel), layout, labels)
    if dice is not None:
        parts += _dice(dice, layout)
    if cube is not None:
        parts += _cube(cube, cube_owner, layout)
    parts.append("</svg>")
    return "\n".join(parts)


def _checkers(sides: tuple[_Side, _Side], layout: _Layout, labels: BoardLabels) -> list[str]:
    """Every checker: on the points, on the bar and in the trays."""
    parts: list[str] = []
    pinned = sides[0].pinned | sides[1].pinned
    # The pinned checkers first, each at the foot of its point, so that the pinner's stack is
    # drawn on top of it from the next slot up.
    for name, side in zip(("on-roll", "opponent"), sides, strict=True):
        for point in sorted(side.pinned):
            parts += _stack(name, str(point), 1, layout.point_slots(point)[:1], labels,
                            pinned=True)
    for name, side in zip(("on-roll", "opponent"), sides, strict=True):
        for point in range(1, 25):
            count = side.at(point)
            if count and point not in side.pinned:
                slots = layout.point_slots(point)[1 if point in pinned else 0:]
                parts += _stack(name, str(point), count, slots, labels)
        if side.bar:
            parts += _stack(name, "bar", side.bar, layout.bar_slots(name), labels)
        if side.off:
            parts += _tray(name, side.off, layout, labels)
    return parts


class _Layout:
    """Where things go: the x of each point's column and of the bar and the tray, by side."""

    def __init__(self, home_left: bool) -> None:
        self.home_left = home_left
        self.top = NUMBERS + FRAME
        self.bottom = HEIGHT - NUMBERS - FRAME
        self.middle = HEIGHT / 2

    def x(self, left: float, width: float = 0) -> float:
        """A left edge measured with the home board on the right, mirrored for the left."""
        return WIDTH - left - width if self.home_left else left

    @property
    def bar_left(self) -> float:
        return self.x(FRAME + HALF, BAR_WIDTH)

    @property
    def tray_left(self) -> float:
        return self.x(FRAME + 2 * HALF + BAR_WIDTH, TRAY)

    def column(self, point: int) -> float:
        """The left edge of a point's column: 1..12 along the bottom from the home board's
        outer edge, 13..24 along the top the other way."""
        index = 12 - point if point <= 12 else point - 13  # 0 = leftmost, home on the right
        left = FRAME + index * CHECKER + (BAR_WIDTH if index >= 6 else 0)
        return self.x(left, CHECKER)

    def point_slots(self, point: int) -> list[tuple[float, float]]:
        """The centres of the checkers of a point, from its base toward the middle."""
        cx = self.column(point) + CHECKER / 2
        if point <= 12:
            return [(cx, self.bottom - CHECKER * (i + 0.5)) for i in range(STACK)]
        return [(cx, self.top + CHECKER * (i + 0.5)) for i in range(STACK)]

    def bar_slots(self, side: str) -> list[tuple[float, float]]:
        """The bar's checkers: the player on roll's above the middle (toward the board they
        enter), the opponent's below it."""
        cx = self.bar_left + BAR_WIDTH / 2
        step = -CHECKER if side == "on-roll" else CHECKER
        first = self.middle + step * 1.5
        return [(cx, first + step * i) for i in range(3)]

    def fields(self) -> list[str]:
        felt = "#2f6b45"
        inner = (FRAME, HALF), (FRAME + HALF + BAR_WIDTH, HALF)
        parts = [
            f'<rect x="{self.x(left, width)}" y="{self.top}" width="{width}" '
            f'height="{self.bottom - self.top}" fill="{felt}"/>'
            for left, width in inner
        ]
        parts.append(
            f'<rect x="{self.tray_left + 4}" y="{self.top}" width="{TRAY - 8}" '
            f'height="{self.bottom - self.top}" fill="#3d2714"/>'
        )
        return parts

    def points(self, labels: BoardLabels) -> list[str]:
        """The 24 triangles, alternating in colour, and their numbers outside the board."""
        parts = []
        for point in range(1, 25):
            left = self.column(point)
            tip = self.bottom - POINT_HEIGHT if point <= 12 else self.top + POINT_HEIGHT
            base = self.bottom if point <= 12 else self.top
            fill = "#c9a36b" if point % 2 else "#8e3b2e"
            parts.append(
                f'<polygon points="{left},{base} {left + CHECKER},{base} '
                f'{left + CHECKER / 2},{tip}" fill="{fill}"/>'
            )
            y = HEIGHT - NUMBERS / 2 if point <= 12 else NUMBERS / 2
            parts.append(
                f'<text x="{left + CHECKER / 2}" y="{y}" font-size="12" fill="#f3e6c8" '
                f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">'
                f"{labels.number(point)}</text>"
            )
        return parts


def _checker(side: str, cx: float, cy: float) -> Iterator[str]:
    r = CHECKER / 2 - 1
    if side == "on-roll":
        yield (f'<circle class="checker" cx="{cx}" cy="{cy}" r="{r}" fill="{LIGHT}" '
               f'stroke="{DARK}" stroke-width="1.5"/>')
    else:
        # The ring: whose checker it is shows in its shape, not its colour alone.
        yield (f'<circle class="checker" cx="{cx}" cy="{cy}" r="{r}" fill="{DARK}" '
               f'stroke="{LIGHT}" stroke-width="1.5"/>')
        yield (f'<circle cx="{cx}" cy="{cy}" r="{r * 0.55}" fill="none" stroke="{LIGHT}" '
               f'stroke-width="1.5"/>')


def _stack(
    side: str, place: str, count: int, slots: list[tuple[float, float]], labels: BoardLabels,
    *, pinned: bool = False,
) -> list[str]:
    """A point's (or the bar's) checkers: as many as there are slots, the count written on the
    last drawn when there are more."""
    mark = ' data-pinned="true"' if pinned else ""
    parts = [f'<g class="stack" data-side="{side}" data-place="{place}" '
             f'data-count="{count}"{mark}>']
    shown = min(count, len(slots))
    for cx, cy in slots[:shown]:
        parts += _checker(side, cx, cy)
    if count > shown:
        cx, cy = slots[shown - 1]
        ink = DARK if side == "on-roll" else LIGHT
        parts.append(
            f'<text x="{cx}" y="{cy}" font-size="15" font-weight="bold" fill="{ink}" '
            f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">'
            f"{labels.number(count)}</text>"
        )
    parts.append("</g>")
    return parts


def _tray(side: str, count: int, layout: _Layout, labels: BoardLabels) -> list[str]:
    """Borne-off checkers as thin slabs in the tray, the player on roll's at the bottom, with
    their number beside them."""
    fill, stroke = (LIGHT, DARK) if side == "on-roll" else (DARK, LIGHT)
    thickness = 9
    left = layout.tray_left + 8
    parts = [f'<g class="stack" data-side="{side}" data-place="off" data-count="{count}">']
    for i in range(count):
        y = (layout.bottom - thickness * (i + 1) if side == "on-roll"
             else layout.top + thickness * i)
        parts.append(
            f'<rect x="{left}" y="{y}" width="{TRAY - 16}" height="{thickness - 1}" rx="2" '
            f'fill="{fill}" stroke="{stroke}"/>'
        )
    y = (layout.bottom - thickness * count - 10 if side == "on-roll"
         else layout.top + thickness * count + 10)
    parts.append(
        f'<text x="{layout.tray_left + TRAY / 2}" y="{y}" font-size="13" fill="#f3e6c8" '
        f'text-anchor="middle" dominant-baseline="central" font-family="sans-serif">'
        f"{labels.number(count)}</text>"
    )
    parts.append("</g>")
    return parts


#: The pips of each face, on a 3 by 3 grid (column, row).
_PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def _dice(dice: tuple[int, int], layout: _Layout) -> list[str]:
    """The two dice in the middle of the player on roll's home half."""
    size = 34
    home_centre = layout.x(FRAME + HALF + BAR_WIDTH, HALF) + HALF / 2
    parts = ['<g class="dice" data-dice="{},{}">'.format(*dice)]
    for i, face in enumerate(dice):
        left = home_centre - size - 6 + i * (size + 12)
        top = layout.middle - size / 2
        parts.append(f'<rect x="{left}" y="{top}" width="{size}" height="{size}" rx="6" '
                     f'fill="{LIGHT}" stroke="{DARK}" stroke-width="1.5"/>')
        for column, row in _PIPS[face]:
            parts.append(f'<circle cx="{left + 8 + column * 9}" cy="{top + 8 + row * 9}" '
                         f'r="3.2" fill="{DARK}"/>')
    parts.append("</g>")
    return parts


def _cube(value: int, owner: CubeOwner, layout: _Layout) -> list[str]:
    """The cube: on the bar when centred (showing 64 at 1, as a real cube does), else in the
    owner's half of the tray."""
    size = 32
    if owner is CubeOwner.CENTRE:
        cx, cy = layout.bar_left + BAR_WIDTH / 2, layout.middle
    else:
        cx = layout.tray_left + TRAY / 2
        cy = layout.middle + (size if owner is CubeOwner.ON_ROLL else -size)
    face = 64 if value == 1 and owner is CubeOwner.CENTRE else value
    return [
        f'<g class="cube" data-value="{value}" data-owner="{owner.value}">',
        f'<rect x="{cx - size / 2}" y="{cy - size / 2}" width="{size}" height="{size}" rx="4" '
        f'fill="#fffdf5" stroke="{DARK}" stroke-width="2"/>',
        f'<text x="{cx}" y="{cy}" font-size="{15 if face < 1000 else 11}" font-weight="bold" '
        f'fill="{DARK}" text-anchor="middle" dominant-baseline="central" '
        f'font-family="sans-serif">{face}</text>',
        "</g>",
    ]
