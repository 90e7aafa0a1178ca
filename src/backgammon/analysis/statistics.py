"""Each player's statistics over a game or a match, as GNU Backgammon's ``show statistics
match`` reports them, with eXtreme Gammon's PR besides.

Every figure is a sum over the player's judged decisions (:mod:`.decisions`), in EMG (equity
normalised to money) and in ``cost`` (chances of winning the match; points in money play):

* checker play: moves (every turn, forced ones and rolls with no move included), unforced
  moves (two legal plays or more), moves by mark, the error total (the equity lost on unforced
  moves) and the error rate, the total over the unforced moves;
* cube: every cube decision (each turn on which the player could double, each double, take
  and drop), the close ones (every actual double, take and drop, and each turn not doubled
  where doubling was less than a very bad mistake), the doubles, takes and passes, each of
  gnubg's six kinds of cube error with its count and sum, the error total and the error rate,
  the total over the close decisions;
* luck: rolls by luck mark, the luck total and the luck rate, the total over all moves;
* overall: the error total (checker play and cube), the error rate (over the unforced moves
  and close cube decisions), the Snowie error rate (the error total over all the moves of
  both players), the PR (eXtreme Gammon's performance rating: 500 times the equity lost per
  decision, the unforced moves and close cube decisions; so half the error rate in mEMG),
  gnubg's rating name of the error rate, and in a match gnubg's estimate of the player's FIBS
  rating from the error rates (Kees van den Doel's formula, 2050 less the checker rate times
  8798 + 25526/N and the cube rate times 863 - 519/N, N the match length), the actual result
  (points won, or the chance of winning the match the games moved) and the luck-adjusted
  result (the actual result less the player's luck plus the opponent's).

Rates are per decision in EMG; the reports print them in thousandths (mEMG), as gnubg does.
Errors and luck are positive magnitudes here, where gnubg prints errors with a minus sign.

>>> stats = PlayerStatistics(unforced_moves=20, close_cube=5, checker_error=0.2, cube_error=0.05)
>>> round(stats.error_rate * 1000, 1), round(stats.pr, 2), stats.rating_name
(10.0, 5.0, 'Advanced')
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .decisions import CubeError, Decision, Kind, LuckMark, Mark

#: gnubg's rating names and the error rate (EMG per decision) a player must stay under to
#: earn each, best last.
RATINGS = (
    ("Awful!", float("inf")),
    ("Beginner", 0.035),
    ("Casual player", 0.026),
    ("Intermediate", 0.018),
    ("Advanced", 0.012),
    ("Expert", 0.008),
    ("World class", 0.005),
    ("Supernatural", 0.002),
)
#: gnubg's words for a luck rate (EMG per move), from the worst: the rate times ten against
#: the luck marks' thresholds.
LUCK_RATINGS = ("Go to bed", "Bad dice, man!", "None", "Good dice, man!", "Go to Las Vegas")
#: The rating a player with no error at all would have, by gnubg's estimate.
RATING_OFFSET = 2050.0
#: eXtreme Gammon's performance rating: the equity lost per decision, times this.
PR_FACTOR = 500.0


@dataclass
class CubeErrors:
    """One kind of cube error: how many, and their total in EMG and in ``cost``."""

    count: int = 0
    emg: float = 0.0
    cost: float = 0.0


@dataclass
class PlayerStatistics:
    """One player's figures (see the module's text for each)."""

    total_moves: int = 0
    unforced_moves: int = 0
    marks: dict[Mark | None, int] = field(default_factory=lambda: dict.fromkeys(
        [None, Mark.DOUBTFUL, Mark.BAD, Mark.VERY_BAD], 0))
    checker_error: float = 0.0
    checker_cost: float = 0.0
    total_cube: int = 0
    close_cube: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    cube_errors: dict[CubeError, CubeErrors] = field(
        default_factory=lambda: {kind: CubeErrors() for kind in CubeError})
    cube_error: float = 0.0
    cube_cost: float = 0.0
    luck_marks: dict[LuckMark | None, int] = field(default_factory=lambda: dict.fromkeys(
        [LuckMark.VERY_LUCKY, LuckMark.LUCKY, None, LuckMark.UNLUCKY, LuckMark.VERY_UNLUCKY],
        0))
    luck: float = 0.0
    luck_cost: float = 0.0
    moves_of_both: int = 0
    match_length: int = 0
    actual_result: float = 0.0
    luck_adjusted_result: float = 0.0

    def add(self, decision: Decision) -> None:
        """Count one of the player's decisions."""
        if decision.kind is Kind.CHECKER:
            self.total_moves += 1
            self.marks[decision.mark] += 1
            if decision.unforced:
                self.unforced_moves += 1
                self.checker_error += decision.equity_loss
                self.checker_cost += decision.cost
            if decision.luck is not None:
                self.luck_marks[decision.luck.mark] += 1
                self.luck += decision.luck.emg
                self.luck_cost += decision.luck.cost
            return
        if decision.kind not in (Kind.CUBE, Kind.TAKE):
            return
        self.total_cube += 1
        self.close_cube += decision.close
        if decision.played == "double":
            self.doubles += 1
        elif decision.played == "take":
            self.takes += 1
        elif decision.played == "drop":
            self.passes += 1
        if decision.cube_error is not None:
            errors = self.cube_errors[decision.cube_error]
            errors.count += 1
            errors.emg += decision.equity_loss
            errors.cost += decision.cost
            self.cube_error += decision.equity_loss
            self.cube_cost += decision.cost

    # Rates: per decision, in EMG (and the same in cost)

    @property
    def checker_rate(self) -> float:
        """The checker error per unforced move (0 without any)."""
        return _per(self.checker_error, self.unforced_moves)

    @property
    def checker_cost_rate(self) -> float:
        """The checker error per unforced move, in cost."""
        return _per(self.checker_cost, self.unforced_moves)

    @property
    def cube_rate(self) -> float:
        """The cube error per close cube decision."""
        return _per(self.cube_error, self.close_cube)

    @property
    def cube_cost_rate(self) -> float:
        """The cube error per close cube decision, in cost."""
        return _per(self.cube_cost, self.close_cube)

    @property
    def decisions(self) -> int:
        """The decisions the overall rate counts: unforced moves and close cube decisions."""
        return self.unforced_moves + self.close_cube

    @property
    def error_total(self) -> float:
        """Checker play and cube errors together."""
        return self.checker_error + self.cube_error

    @property
    def error_cost(self) -> float:
        """Checker play and cube errors together, in cost."""
        return self.checker_cost + self.cube_cost

    @property
    def error_rate(self) -> float:
        """The overall error per decision."""
        return _per(self.error_total, self.decisions)

    @property
    def error_cost_rate(self) -> float:
        """The overall error per decision, in cost."""
        return _per(self.error_cost, self.decisions)

    @property
    def snowie_error_rate(self) -> float:
        """The error total over the moves of both players (Snowie's error rate)."""
        return _per(self.error_total, self.moves_of_both)

    @property
    def pr(self) -> float:
        """eXtreme Gammon's performance rating: 500 times the error per decision."""
        return PR_FACTOR * self.error_rate

    @property
    def luck_rate(self) -> float:
        """The luck per move."""
        return _per(self.luck, self.total_moves)

    @property
    def luck_cost_rate(self) -> float:
        """The luck per move, in cost."""
        return _per(self.luck_cost, self.total_moves)

    # Ratings

    @property
    def rating_name(self) -> str | None:
        """gnubg's name for the overall error rate (None without any decision)."""
        return rating_name(self.error_rate) if self.decisions else None

    @property
    def checker_rating_name(self) -> str | None:
        """gnubg's name for the checker error rate (None without an unforced move)."""
        return rating_name(self.checker_rate) if self.unforced_moves else None

    @property
    def cube_rating_name(self) -> str | None:
        """gnubg's name for the cube error rate (None without a close cube decision)."""
        return rating_name(self.cube_rate) if self.close_cube else None

    @property
    def luck_rating_name(self) -> str | None:
        """gnubg's words for the luck rate (None without a move)."""
        if not self.total_moves:
            return None
        scaled = 10 * self.luck_rate
        index = 4 if scaled > 0.6 else 3 if scaled > 0.3 else (
            0 if scaled < -0.6 else 1 if scaled < -0.3 else 2)
        return LUCK_RATINGS[index]

    @property
    def checker_rating_loss(self) -> float | None:
        """The FIBS rating points the checker errors cost, by gnubg's estimate (a match)."""
        if not self.match_length or not self.unforced_moves:
            return None
        return self.checker_rate * (8798.0 + 25526.0 / self.match_length)

    @property
    def cube_rating_loss(self) -> float | None:
        """The FIBS rating points the cube errors cost, by gnubg's estimate (a match)."""
        if not self.match_length or not self.decisions:
            return None
        return self.cube_rate * (863.0 - 519.0 / self.match_length)

    @property
    def rating(self) -> float | None:
        """gnubg's estimate of the player's FIBS rating from the error rates (a match with a
        decision in it; None otherwise)."""
        if not self.match_length or not self.decisions:
            return None
        checker = self.checker_rating_loss or 0.0
        return RATING_OFFSET - checker - (self.cube_rating_loss or 0.0)

    @property
    def luck_rating_difference(self) -> float | None:
        """gnubg's "luck based FIBS rating difference": the rating difference a player who
        won the match with the chance ``0.5 + the luck-adjusted result`` would have, by the
        FIBS formula (a match; None where the chance is not between 0 and 1)."""
        chance = 0.5 + self.luck_adjusted_result
        if not self.match_length or not 0.0 < chance < 1.0:
            return None
        difference = -2000.0 / math.sqrt(self.match_length) * math.log10(1.0 / chance - 1.0)
        return max(difference, -2100.0)


def rating_name(rate: float) -> str:
    """gnubg's name for an error rate (EMG per decision).

    >>> rating_name(0.0197), rating_name(0.0091), rating_name(0.0)
    ('Casual player', 'Advanced', 'Supernatural')
    """
    for name, threshold in reversed(RATINGS):
        if rate < threshold:
            return name
    return RATINGS[0][0]


def gather(
    decisions: Iterable[Decision],
    results: Sequence[tuple[float, float]],
    match_length: int = 0,
) -> tuple[PlayerStatistics, PlayerStatistics]:
    """Both seats' statistics over ``decisions`` and games that ended with ``results`` (what
    each seat won in each game) in a match to ``match_length`` (0: money play)."""
    seats = (PlayerStatistics(match_length=match_length),
             PlayerStatistics(match_length=match_length))
    for decision in decisions:
        seats[decision.seat].add(decision)
    both = seats[0].total_moves + seats[1].total_moves
    for seat, stats in enumerate(seats):
        stats.moves_of_both = both
        stats.actual_result = sum(result[seat] for result in results)
        stats.luck_adjusted_result = (
            stats.actual_result - stats.luck_cost + seats[1 - seat].luck_cost
        )
    return seats


def _per(total: float, count: int) -> float:
    return total / count if count else 0.0
