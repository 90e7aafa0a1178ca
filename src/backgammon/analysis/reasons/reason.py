"""A reason: a code and its figures, the words left to :mod:`.render`.

>>> Reason("hits", checkers=1)
Reason('hits', checkers=1)
>>> Reason("take", wins=0.31, needed=0.25)["needed"]
0.25
>>> Reason("flies")
Traceback (most recent call last):
...
backgammon.analysis.reasons.reason.UnknownReasonError: There is no reason 'flies'; the reasons are hits, makes_point, ...
"""

from __future__ import annotations

from enum import StrEnum

from ...errors import BackgammonError

#: What a reason's figures may be: a count or a point (int), a chance (float, 0 to 1; or
#: points of equity, where :data:`~.render` says so by name), a play's notation (str).
Figure = int | float | str


class Code(StrEnum):
    """Every reason there is, each with a template in every language."""

    # What a play does, against the position before it.
    HITS = "hits"  # checkers
    MAKES_POINT = "makes_point"  # point
    MAKES_ANCHOR = "makes_anchor"  # point
    BUILDS_PRIME = "builds_prime"  # length
    ESCAPES_BACK_CHECKER = "escapes_back_checker"  # checkers
    BEARS_OFF = "bears_off"  # checkers
    BREAKS_POINT = "breaks_point"  # point
    BREAKS_ANCHOR = "breaks_anchor"  # point
    SAFE = "safe"
    LEAVES_SHOTS = "leaves_shots"  # shots
    # What sets a play apart from another (``than``, the other's notation).
    FEWER_SHOTS = "fewer_shots"  # shots, other, than
    MORE_SHOTS = "more_shots"  # shots, other, than
    MORE_GAMMONS = "more_gammons"  # gammons, other, than
    FEWER_GAMMONS = "fewer_gammons"  # gammons, other, than
    LOSES_FEWER_GAMMONS = "loses_fewer_gammons"  # gammons, other, than
    LOSES_MORE_GAMMONS = "loses_more_gammons"  # gammons, other, than
    WINS_MORE = "wins_more"  # wins, other, than
    WINS_LESS = "wins_less"  # wins, other, than
    # The cube, for the player who may double.
    DOUBLE = "double"  # wins, needed
    NOT_STRONG_ENOUGH = "not_strong_enough"  # wins, needed
    NO_DOUBLE = "no_double"  # wins
    TOO_GOOD_TO_DOUBLE = "too_good_to_double"  # margin
    THEY_TAKE = "they_take"  # wins, needed
    THEY_DROP = "they_drop"  # wins, needed
    THEY_BEAVER = "they_beaver"  # wins
    # The cube, for the player doubled (or beavered).
    TAKE = "take"  # wins, needed
    DROP = "drop"  # wins, needed
    BEAVER = "beaver"  # wins, needed
    TAKE_BEAVER = "take_beaver"  # wins
    DROP_BEAVER = "drop_beaver"  # wins
    # The game as a whole.
    GAMMON_CHANCES = "gammon_chances"  # gammons
    GAMMON_RISK = "gammon_risk"  # gammons
    RACE_LEAD = "race_lead"  # pips
    RACE_TRAIL = "race_trail"  # pips
    RACE_EVEN = "race_even"
    # Resignations: the offer's value against playing on, in points or match chances.
    ACCEPT_POINTS = "accept_points"  # gets, worth
    REJECT_POINTS = "reject_points"  # gets, worth
    ACCEPT_MATCH = "accept_match"  # gets, worth
    REJECT_MATCH = "reject_match"  # gets, worth
    WIN_CHANCES = "win_chances"  # wins, gammons, backgammons


class UnknownReasonError(BackgammonError):
    """A reason code that is not one of :class:`Code`."""


class Reason:
    """One reason: a :class:`Code` and its figures by name. Immutable and hashable; two
    reasons are equal when their codes and figures are."""

    __slots__ = ("_figures", "code")

    code: Code
    _figures: tuple[tuple[str, Figure], ...]

    def __init__(self, code: Code | str, **figures: Figure) -> None:
        if code not in Code.__members__.values():
            names = ", ".join(list(Code)[:2])
            raise UnknownReasonError(f"There is no reason {code!r}; the reasons are {names}, ...")
        object.__setattr__(self, "code", Code(code))
        object.__setattr__(self, "_figures", tuple(sorted(figures.items())))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("A Reason cannot be changed.")

    @property
    def figures(self) -> dict[str, Figure]:
        """The figures by name."""
        return dict(self._figures)

    def __getitem__(self, name: str) -> Figure:
        return self.figures[name]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Reason):
            return NotImplemented
        return (self.code, self._figures) == (other.code, other._figures)

    def __hash__(self) -> int:
        return hash((self.code, self._figures))

    def __repr__(self) -> str:
        figures = "".join(f", {name}={value!r}" for name, value in self._figures)
        return f"Reason({self.code.value!r}{figures})"
