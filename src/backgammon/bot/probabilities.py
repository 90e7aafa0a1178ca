"""The five probabilities of a position for the player on roll, and the equity they give.

The convention is GNU Backgammon's: the gammon and backgammon figures are cumulative, so a
backgammon is also counted as a gammon and a gammon as a win.

>>> p = Probabilities(0.6, 0.2, 0.05, 0.1, 0.01)
>>> round(p.equity, 6)
0.34
>>> p.flip()
Probabilities(win=0.4, win_gammon=0.1, win_backgammon=0.01, lose_gammon=0.2, lose_backgammon=0.05)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: Weights of the five outputs in the cubeless money equity (plus a constant of -1).
EQUITY_WEIGHTS = (2.0, 1.0, 1.0, -1.0, -1.0)


@dataclass(frozen=True)
class Probabilities:
    """Chances of the player on roll, before rolling: win, and win or lose a gammon or more
    and a backgammon (cumulative)."""

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @classmethod
    def from_values(cls, values: Iterable[float]) -> Probabilities:
        """From the five figures in order (a network's outputs, say)."""
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (
            float(value) for value in values
        )
        return cls(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon)

    @property
    def lose(self) -> float:
        """The chance that the player on roll loses."""
        return 1.0 - self.win

    @property
    def equity(self) -> float:
        """Cubeless money equity: points won per game, a gammon counting 2 and a backgammon 3."""
        return (
            2.0 * self.win
            - 1.0
            + (self.win_gammon - self.lose_gammon)
            + (self.win_backgammon - self.lose_backgammon)
        )

    def flip(self) -> Probabilities:
        """The same chances seen by the other player."""
        return Probabilities(
            1.0 - self.win,
            self.lose_gammon,
            self.lose_backgammon,
            self.win_gammon,
            self.win_backgammon,
        )

    def as_tuple(self) -> tuple[float, float, float, float, float]:
        """The five figures in order."""
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )
