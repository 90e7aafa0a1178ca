"""The board in text, for any game on a backgammon board: the one layout that
``str(Position)`` and the terminal's boards of the other games draw on.

The player on roll's points 13..24 run along the top, left to right, and 12..1 along the
bottom, right to left, their home board at the bottom right. Each point shows the marks of
the checkers on it from the edge of the board inward, one a row, up to five; a point with
more shows its number of checkers in the fifth row. What the marks are, and what is said
beside the bar and under the board, is the caller's.

>>> print(draw(lambda point: "O" * (point == 24) * 2 + "X" * (point == 1) * 7,
...            ("X off 8", "O off 13"), ["O on roll"]))
 +13-14-15-16-17-18-+---+19-20-21-22-23-24-+
 |                  |   |                O |
 |                  |   |                O |
 |                  |   |                  |
 |                  |   |                  |
 |                  |   |                  |
 |                  |BAR|                  |  X off 8
 |                  |   |                  |  O off 13
 |                  |   |                 7|
 |                  |   |                X |
 |                  |   |                X |
 |                  |   |                X |
 |                  |   |                X |
 +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+
  O on roll
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

#: Checkers drawn one a row on a point; a point with more shows its count in the last row.
ROWS = 5


def draw(stack: Callable[[int], str], beside_bar: tuple[str, str],
         under: Sequence[str]) -> str:
    """The board: ``stack(point)`` is the marks on the player on roll's ``point`` (1..24),
    one character a checker from the edge inward; ``beside_bar`` the two lines written
    right of the bar (the top one first); ``under`` the lines below the board."""

    def cell(point: int, row: int) -> str:
        marks = stack(point)
        if row >= len(marks):
            return "   "
        if row == ROWS - 1 and len(marks) > ROWS:
            return f"{len(marks):3d}"
        return f" {marks[row]} "

    def half(points: Sequence[int], rows: Iterable[int]) -> list[str]:
        lines = []
        for row in rows:
            left = "".join(cell(p, row) for p in points[:6])
            right = "".join(cell(p, row) for p in points[6:])
            lines.append(f" |{left}|   |{right}|")
        return lines

    top = list(range(13, 25))
    bottom = list(range(12, 0, -1))
    return "\n".join([
        " +13-14-15-16-17-18-+---+19-20-21-22-23-24-+",
        *half(top, range(ROWS)),
        f" |                  |BAR|                  |  {beside_bar[0]}",
        f" |                  |   |                  |  {beside_bar[1]}",
        *half(bottom, range(ROWS - 1, -1, -1)),
        " +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+",
        *(f"  {line}" for line in under),
    ])
