"""Dice as the rules see them: two numbers from 1 to 6.

>>> check_dice((6, 6))
(6, 6)
>>> check_dice([3, 7])
Traceback (most recent call last):
...
backgammon.errors.InvalidDiceError: Dice must be two numbers from 1 to 6; got [3, 7].
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import InvalidDiceError

Dice = tuple[int, int]

#: The 21 distinct rolls, doubles included, as (higher, lower).
ALL_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))


_ROLLS = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))


def check_dice(dice: Iterable[int]) -> Dice:
    """Return ``dice`` as a pair of ints, or raise :class:`InvalidDiceError` saying why."""
    if type(dice) is tuple and dice in _ROLLS and type(dice[0]) is type(dice[1]) is int:
        return dice  # the common case, checked at once
    try:
        values = tuple(dice)
    except TypeError:
        values = ()
    if len(values) != 2 or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values
    ):
        raise InvalidDiceError(f"Dice must be two numbers from 1 to 6; got {dice!r}.")
    return (values[0], values[1])
