"""A reason: a code and its figures, the words left to :mod:`.render`.

>>> Reason("hits", checkers=1)
Reason('hits', checkers=1)
>>> Reason("take", wins=0.31, needed=0.25)["needed"]
0.25
>>> Reason("flies")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon...UnknownReasonError: There is no reason 'flies'; the reasons are hits, ...
>>> Reason("hits", point=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon...UnknownReasonError: The reason 'hits' has the figures checkers; got point.
"""

from __future__ import annotations

from enum import StrEnum

from ...errors import BackgammonError

#: What a reason's figures may be: a count or a point (int), a chance (float, 0 to 1; points
#: of a game in the money resignation reasons and the other games' equities), a play's
#: notation (str).
Figure = int | float | str


class Code(StrEnum):
    """Every reason there is, each with a template in every language."""

    # What a play does, against the position before it.
    HITS = "hits"
    MAKES_POINT = "makes_point"
    MAKES_ANCHOR = "makes_anchor"
    BUILDS_PRIME = "builds_prime"
    ESCAPES_BACK_CHECKER = "escapes_back_checker"
    BEARS_OFF = "bears_off"
    BREAKS_POINT = "breaks_point"
    BREAKS_ANCHOR = "breaks_anchor"
    SAFE = "safe"
    LEAVES_SHOTS = "leaves_shots"
    # What sets a play apart from another (``other``: the other's figure; ``than``: its
    # notation).
    FEWER_SHOTS = "fewer_shots"
    MORE_SHOTS = "more_shots"
    MORE_GAMMONS = "more_gammons"
    FEWER_GAMMONS = "fewer_gammons"
    LOSES_FEWER_GAMMONS = "loses_fewer_gammons"
    LOSES_MORE_GAMMONS = "loses_more_gammons"
    WINS_MORE = "wins_more"
    WINS_LESS = "wins_less"
    # The other games (:mod:`.board_plays`): pins, lone checkers in direct reach, Plakoto's
    # mother, and the points expected (``points``: a play's equity, in points).
    PINS = "pins"
    LEAVES_BLOTS = "leaves_blots"
    MOTHER_EXPOSED = "mother_exposed"
    FEWER_BLOTS = "fewer_blots"
    MORE_BLOTS = "more_blots"
    EXPECTS_MORE = "expects_more"
    EXPECTS_LESS = "expects_less"
    # The cube, for the player who may double.
    DOUBLE = "double"
    NOT_STRONG_ENOUGH = "not_strong_enough"
    NO_DOUBLE = "no_double"
    TOO_GOOD_TO_DOUBLE = "too_good_to_double"
    THEY_TAKE = "they_take"
    THEY_DROP = "they_drop"
    THEY_BEAVER = "they_beaver"
    # The cube, for the player doubled (or beavered).
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    TAKE_BEAVER = "take_beaver"
    DROP_BEAVER = "drop_beaver"
    # The game as a whole.
    GAMMON_CHANCES = "gammon_chances"
    GAMMON_RISK = "gammon_risk"
    RACE_LEAD = "race_lead"
    RACE_TRAIL = "race_trail"
    RACE_EVEN = "race_even"
    # Resignations: the offer's value against playing on, in points or match chances.
    ACCEPT_POINTS = "accept_points"
    REJECT_POINTS = "reject_points"
    ACCEPT_MATCH = "accept_match"
    REJECT_MATCH = "reject_match"
    WIN_CHANCES = "win_chances"


#: The figures of each reason, by name.
FIGURES: dict[Code, tuple[str, ...]] = {
    Code.HITS: ("checkers",),
    Code.MAKES_POINT: ("point",),
    Code.MAKES_ANCHOR: ("point",),
    Code.BUILDS_PRIME: ("length",),
    Code.ESCAPES_BACK_CHECKER: ("checkers",),
    Code.BEARS_OFF: ("checkers",),
    Code.BREAKS_POINT: ("point",),
    Code.BREAKS_ANCHOR: ("point",),
    Code.SAFE: (),
    Code.LEAVES_SHOTS: ("shots",),
    Code.FEWER_SHOTS: ("shots", "other", "than"),
    Code.MORE_SHOTS: ("shots", "other", "than"),
    Code.MORE_GAMMONS: ("gammons", "other", "than"),
    Code.FEWER_GAMMONS: ("gammons", "other", "than"),
    Code.LOSES_FEWER_GAMMONS: ("gammons", "other", "than"),
    Code.LOSES_MORE_GAMMONS: ("gammons", "other", "than"),
    Code.WINS_MORE: ("wins", "other", "than"),
    Code.WINS_LESS: ("wins", "other", "than"),
    Code.PINS: ("checkers",),
    Code.LEAVES_BLOTS: ("blots",),
    Code.MOTHER_EXPOSED: (),
    Code.FEWER_BLOTS: ("blots", "other", "than"),
    Code.MORE_BLOTS: ("blots", "other", "than"),
    Code.EXPECTS_MORE: ("points", "other", "than"),
    Code.EXPECTS_LESS: ("points", "other", "than"),
    Code.DOUBLE: ("wins", "needed"),
    Code.NOT_STRONG_ENOUGH: ("wins", "needed"),
    Code.NO_DOUBLE: ("wins",),
    Code.TOO_GOOD_TO_DOUBLE: ("margin",),
    Code.THEY_TAKE: ("wins", "needed"),
    Code.THEY_DROP: ("wins", "needed"),
    Code.THEY_BEAVER: ("wins",),
    Code.TAKE: ("wins", "needed"),
    Code.DROP: ("wins", "needed"),
    Code.BEAVER: ("wins", "needed"),
    Code.TAKE_BEAVER: ("wins",),
    Code.DROP_BEAVER: ("wins",),
    Code.GAMMON_CHANCES: ("gammons",),
    Code.GAMMON_RISK: ("gammons",),
    Code.RACE_LEAD: ("pips",),
    Code.RACE_TRAIL: ("pips",),
    Code.RACE_EVEN: (),
    Code.ACCEPT_POINTS: ("gets", "worth"),
    Code.REJECT_POINTS: ("gets", "worth"),
    Code.ACCEPT_MATCH: ("gets", "worth"),
    Code.REJECT_MATCH: ("gets", "worth"),
    Code.WIN_CHANCES: ("wins", "gammons", "backgammons"),
}


class UnknownReasonError(BackgammonError):
    """A reason code that is not one of :class:`Code`, or figures that are not its own."""


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
        if set(figures) != set(FIGURES[Code(code)]):
            wanted = ", ".join(FIGURES[Code(code)]) or "none"
            raise UnknownReasonError(
                f"The reason {code!r} has the figures {wanted}; got {', '.join(figures)}."
            )
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
