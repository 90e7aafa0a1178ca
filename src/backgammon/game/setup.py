"""A game set up in the middle of play.

>>> SetUp(Position.initial(), on_roll=1, dice=(6, 5)).to_dict()["dice"]
[6, 5]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cube import check_cube_value
from ..dice import Dice, check_dice
from ..errors import BackgammonError
from ..position import BAR, Position
from .rules import check_seat


@dataclass(frozen=True)
class SetUp:
    """A game set up in the middle of play, as a GNU Backgammon ID or an XGID describes one:
    the position seen from the player on roll (``on_roll``), the dice that player has rolled
    (None: the game waits for a roll or a double) and the cube. Constructing one checks it.

    >>> SetUp(Position.initial(), cube_value=3)
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: The cube shows a power of two from 1 to 4096; got 3.
    """

    position: Position
    on_roll: int = 0
    dice: Dice | None = None
    cube_value: int = 1
    cube_owner: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.position, Position):
            raise BackgammonError(f"A set-up needs a Position; got {self.position!r}.")
        if self.position.is_game_over():
            raise BackgammonError(
                "The set-up position has no game left: a side is all off.", code="all_off"
            )
        if _both_shut_out(self.position):
            raise BackgammonError(
                "Both sides have a checker on the bar against a closed board: neither could "
                "ever move, and no game comes to that.",
                code="shut_out",
            )
        check_seat(self.on_roll)
        if self.dice is not None:
            object.__setattr__(self, "dice", check_dice(self.dice))
        check_cube_value(self.cube_value)
        if self.cube_owner is not None:
            check_seat(self.cube_owner)

    def to_dict(self) -> dict[str, Any]:
        """The set-up as plain JSON values."""
        return {
            "id": self.position.id(),
            "checkers": self.position.checkers,
            "on_roll": self.on_roll,
            "dice": None if self.dice is None else list(self.dice),
            "cube_value": self.cube_value,
            "cube_owner": self.cube_owner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SetUp:
        """A set-up from :meth:`to_dict`."""
        dice = data["dice"]
        return cls(
            Position.from_id(data["id"], checkers=data["checkers"]),
            on_roll=data["on_roll"],
            dice=None if dice is None else check_dice(dice),
            cube_value=data["cube_value"],
            cube_owner=data["cube_owner"],
        )


def _both_shut_out(position: Position) -> bool:
    """Whether both sides are on the bar, each against the other's closed home board: a
    position no game reaches, which GNU Backgammon refuses too (``CheckPosition``).

    >>> closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, "bar": 1}
    >>> _both_shut_out(Position.from_points(closed, closed)), _both_shut_out(Position.initial())
    (True, False)
    """
    mine, theirs = position.mine_bytes, position.theirs_bytes
    return (
        mine[BAR] > 0
        and theirs[BAR] > 0
        and all(count >= 2 for count in mine[1:7])
        and all(count >= 2 for count in theirs[1:7])
    )
