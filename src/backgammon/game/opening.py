"""The opening roll's dice: a roll drawn from a game's dice, and the opening where each
player throws their own die (``Rules.own_opening_dice``; RULES.md, Starting: "Each player
rolls one die"): the first throw records its die alone, the second completes the roll.

>>> from backgammon.dice import ManualDice
>>> throw(1, None, ManualDice(["6 1"]), 0).die         # seat 1's die of the roll to come
1
>>> throw(0, (1, 1), ManualDice(["6 1"]), 0).dice      # seat 0 completes it
(6, 1)
"""

from __future__ import annotations

from ..dice import Dice, DiceSource, ForeseenDice
from ..fairdice import FairDice
from .record import Event
from .rules import Action, IllegalActionError, Rules


def draw(source: DiceSource, rolls_drawn: int) -> Dice:
    """The next roll of ``source``, for a game that has drawn ``rolls_drawn`` rolls."""
    if isinstance(source, FairDice):
        # A fair roll's number is its place in the record, whatever was drawn and lost.
        source.resume(rolls_drawn)
    return source.roll()


def throw(seat: int, thrown: tuple[int, int] | None, source: DiceSource, rolls_drawn: int
          ) -> Event:
    """``seat``'s throw at an opening roll where each player throws their own die, the
    seat and die ``thrown`` first if any: the first throws its die alone, from the roll the
    dice will draw next where they can tell it (:class:`~backgammon.dice.ForeseenDice`:
    seeded, entered and fair dice, whose opening roll is then the same whoever throws
    first); the second draws that roll, keeping the die thrown first."""
    if thrown is not None:
        first, die = thrown
        dice = draw(source, rolls_drawn)
        return Event(Action.ROLL, seat, dice=(die, dice[1]) if first == 0 else (dice[0], die))
    if isinstance(source, FairDice):
        source.resume(rolls_drawn)
    dice = source.peek() if isinstance(source, ForeseenDice) else source.roll()
    return Event(Action.THROW, seat, die=dice[seat])


def check_own_dice(rules: Rules, thrown: tuple[int, int] | None, event: Event) -> None:
    """IllegalActionError unless an opening roll where each player throws their own die
    completes the throw of the other seat, keeping its die (a record may be edited)."""
    if not rules.own_opening_dice:
        return
    if thrown is None:
        raise IllegalActionError(
            "Each player throws their own die at this game's opening roll: it begins with "
            "one die thrown."
        )
    seat, die = thrown
    assert event.dice is not None and event.player != seat  # the check's refusal
    if event.dice[seat] != die:
        raise IllegalActionError(
            f"The opening roll keeps the die seat {seat} threw, a {die}."
        )
