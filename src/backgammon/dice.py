"""Dice as the rules see them, and the sources they come from.

A roll is two numbers from 1 to 6. Every roll of a game comes from one dice source: a secure
one by default, a seeded one for tests, reproductions and training, or a manual one for
players who roll physical dice and type what they show.

>>> check_dice((6, 6))
(6, 6)
>>> check_dice([3, 7])
Traceback (most recent call last):
...
backgammon.errors.InvalidDiceError: Dice must be two numbers from 1 to 6; got [3, 7].
>>> parse_dice("3-1"), parse_dice("31"), parse_dice(" 6 6 ")
((3, 1), (3, 1), (6, 6))
>>> SeededDice(7).roll() == SeededDice(7).roll()
True
"""

from __future__ import annotations

import random
import re
import secrets
from collections import deque
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from .errors import InvalidDiceError

Dice = tuple[int, int]

#: The 21 distinct rolls, doubles included, as (higher, lower).
ALL_ROLLS: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
#: The chance of each roll of :data:`ALL_ROLLS`: 1/36 for a double, 2/36 for the others.
ROLL_CHANCES: tuple[float, ...] = tuple((1 if a == b else 2) / 36 for a, b in ALL_ROLLS)

_ROLLS = frozenset((a, b) for a in range(1, 7) for b in range(1, 7))


def check_die(die: object) -> int:
    """Return ``die``, one die's number, or raise :class:`InvalidDiceError` saying why.

    >>> check_die(5)
    5
    >>> check_die(7)
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidDiceError: A die shows a number from 1 to 6; got 7.
    """
    if type(die) is not int or not 1 <= die <= 6:
        raise InvalidDiceError(f"A die shows a number from 1 to 6; got {die!r}.")
    return die


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


def parse_dice(text: str) -> Dice:
    """Dice as people type them: ``31``, ``3 1``, ``3-1``, ``3,1``."""
    pattern = r"\s*([1-6])\s*[-,/ ]?\s*([1-6])\s*"
    digits = re.fullmatch(pattern, text) if isinstance(text, str) else None
    if digits is None:
        raise InvalidDiceError(
            f"{text!r} is not a roll: type two numbers from 1 to 6, such as 31 or 3-1."
        )
    return (int(digits[1]), int(digits[2]))


class DiceSource(Protocol):
    """Where rolls come from."""

    def roll(self) -> Dice:
        """The next roll."""
        ...


@runtime_checkable
class ForeseenDice(Protocol):
    """Dice whose next roll is known before it is drawn (seeded, entered and fair dice)."""

    def peek(self) -> Dice:
        """The next roll, left to be drawn."""
        ...


class SecureDice:
    """Dice from the operating system's secure random numbers: the default."""

    def roll(self) -> Dice:
        return (secrets.randbelow(6) + 1, secrets.randbelow(6) + 1)


class SeededDice:
    """Reproducible dice from a seed, for tests, reproductions and training.

    ``drawn`` counts the rolls drawn since the seed; :meth:`resume` sets the dice to where
    they stand after a number of rolls, so a match rebuilt from its record goes on with the
    rolls it would have had (``Match.from_dict(..., resume=True)`` does it).

    >>> dice = SeededDice(7)
    >>> first, second = dice.roll(), dice.roll()
    >>> dice.resume(1)
    >>> dice.roll() == second, dice.drawn
    (True, 2)
    """

    def __init__(self, seed: int | str | None = None) -> None:
        self._random = random.Random(seed)
        self._start = self._random.getstate()
        self.drawn = 0

    def roll(self) -> Dice:
        self.drawn += 1
        return (self._random.randint(1, 6), self._random.randint(1, 6))

    def peek(self) -> Dice:
        """The next roll, left to be drawn.

        >>> dice = SeededDice(7)
        >>> dice.peek() == dice.roll(), dice.drawn
        (True, 1)
        """
        state = self._random.getstate()
        roll = (self._random.randint(1, 6), self._random.randint(1, 6))
        self._random.setstate(state)
        return roll

    def resume(self, rolls_drawn: int) -> None:
        """Set the dice to where they stand after ``rolls_drawn`` rolls from the seed,
        whatever they have drawn so far."""
        self._random.setstate(self._start)
        self.drawn = 0
        for _ in range(rolls_drawn):
            self.roll()


class ManualDice:
    """Physical dice: the numbers a player enters, used in order.

    >>> dice = ManualDice()
    >>> dice.enter("5 2")
    >>> dice.roll()
    (5, 2)
    >>> dice.roll()  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidDiceError: No dice have been entered: type the two numbers ...
    """

    def __init__(self, rolls: Iterable[Dice | str] = ()) -> None:
        self._pending: deque[Dice] = deque()
        for entry in rolls:
            self.enter(entry)

    def enter(self, dice: Dice | str) -> None:
        """Queue a roll, as two numbers or as text; anything else is refused with a message."""
        self._pending.append(parse_dice(dice) if isinstance(dice, str) else check_dice(dice))

    @property
    def pending(self) -> int:
        """How many entered rolls wait to be used.

        >>> ManualDice(["5 2", "6 6"]).pending
        2
        """
        return len(self._pending)

    def roll(self) -> Dice:
        roll = self.peek()
        self._pending.popleft()
        return roll

    def peek(self) -> Dice:
        """The next roll entered, left to be drawn."""
        if not self._pending:
            raise InvalidDiceError(
                "No dice have been entered: type the two numbers the dice show."
            )
        return self._pending[0]
