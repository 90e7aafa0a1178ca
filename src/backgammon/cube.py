"""The cube's rules and the context a decision is taken in: the cube's value and owner, the
match score, and the money-play options (RULES.md, Doubling; Matches).

Every question that depends on the stake (which play wins most, whether to double, take or
resign, how many points a game is worth) is asked with one :class:`CubeContext`, seen from one
player (the player on roll, for the bot). The game makes it (``Game.cube_context(seat)``); the
bot, the server's hints, the terminal and the formats read it and never work the rules out again.

>>> context = CubeContext(value=2, owner=CubeOwner.ON_ROLL)
>>> context.may_double, context.flip().owner
(True, <CubeOwner.OPPONENT: 'opponent'>)
>>> CubeContext(jacoby=True).points(WinKind.GAMMON)      # the Jacoby rule: a single game
1
>>> match = CubeContext(match=MatchScore(7, (6, 3), crawford=True))
>>> match.may_double, match.match.away, match.flip().match.score
(False, 1, (3, 6))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from .errors import BackgammonError
from .position import WinKind

#: The highest cube value any program writes (gnubg's Match ID and XGID stop there).
HIGHEST_CUBE = 4096
#: The longest match: GNU Backgammon's limit, which its Match ID and our match equity
#: table cover. Every way into a match (the API, the page, IDs, .mat files) is held to it.
MAX_MATCH_LENGTH = 64


class CubeOwner(StrEnum):
    """Who owns the cube, from the side of the player the context is for."""

    ON_ROLL = "on roll"
    CENTRE = "centre"
    OPPONENT = "opponent"


def is_whole(value: object) -> bool:
    """Whether ``value`` is a whole number (an int that is not a bool).

    >>> is_whole(3), is_whole(True), is_whole(3.0)
    (True, False, False)
    """
    return isinstance(value, int) and not isinstance(value, bool)


def is_cube_value(value: object, highest: int | None = HIGHEST_CUBE) -> bool:
    """Whether ``value`` is a value the cube can show: a power of two from 1 to ``highest``
    (None: no limit).

    >>> [v for v in (0, 1, 2, 3, 64, 8192) if is_cube_value(v)]
    [1, 2, 64]
    """
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return value >= 1 and value & (value - 1) == 0 and (highest is None or value <= highest)


def check_cube_value(value: object, highest: int | None = HIGHEST_CUBE) -> int:
    """``value`` if the cube can show it, else a BackgammonError that says what it may be.

    >>> check_cube_value(3)
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: The cube shows a power of two from 1 to 4096; got 3.
    """
    if not is_cube_value(value, highest):
        upto = f" from 1 to {highest}" if highest is not None else ", such as 64"
        raise BackgammonError(f"The cube shows a power of two{upto}; got {value!r}.")
    return value  # type: ignore[return-value]


def jacoby_applies(jacoby: bool, in_match: bool, cube_turned: bool) -> bool:
    """Whether gammons and backgammons count as a single game: RULES.md, Doubling, "Jacoby
    rule: gammons and backgammons count as a single game unless the cube was turned in that
    game" (an option of money play; it never applies in a match)."""
    return jacoby and not in_match and not cube_turned


@dataclass(frozen=True)
class MatchScore:
    """The score of a match at the start of a game, for one player (the player on roll, for
    the bot): a match to ``length`` points, ``score`` (that player's, the opponent's), and
    whether this game is the Crawford game (no doubling in it).

    >>> MatchScore(5, (4, 2)).post_crawford, MatchScore(5, (2, 2)).away
    (True, 3)
    >>> MatchScore(5, (5, 0))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.BackgammonError: A score in a 5-point match is two numbers ...; got (5, 0).
    """

    length: int
    score: tuple[int, int] = (0, 0)
    crawford: bool = False

    def __post_init__(self) -> None:
        if not is_whole(self.length) or not 1 <= self.length <= MAX_MATCH_LENGTH:
            raise BackgammonError(
                f"A match is to 1 to {MAX_MATCH_LENGTH} points; got {self.length!r}."
            )
        score = tuple(self.score)
        if len(score) != 2 or not all(is_whole(s) and 0 <= s < self.length for s in score):
            raise BackgammonError(
                f"A score in a {self.length}-point match is two numbers from 0 to "
                f"{self.length - 1}; got {self.score}."
            )
        object.__setattr__(self, "score", score)
        if self.crawford and self.length - 1 not in self.score:
            raise BackgammonError("The Crawford game is played when a player is 1 away.")

    @property
    def away(self) -> int:
        """Points the player still needs."""
        return self.length - self.score[0]

    @property
    def opponent_away(self) -> int:
        """Points the opponent still needs."""
        return self.length - self.score[1]

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game: one player is 1 away, and doubling is allowed."""
        return not self.crawford and min(self.away, self.opponent_away) == 1

    @property
    def cube_allowed(self) -> bool:
        """Whether doubling is allowed in this game (not in the Crawford game)."""
        return not self.crawford

    def flip(self) -> MatchScore:
        """The same score seen by the opponent."""
        return MatchScore(self.length, (self.score[1], self.score[0]), self.crawford)


@dataclass(frozen=True)
class CubeContext:
    """The cube as one player sees it: its ``value`` and ``owner``, the ``match`` score (None:
    money play), and the money-play options in force: ``jacoby`` (the rule holds now: gammons
    count single because the cube has not been turned), ``beavers``, and ``max_cube``, the
    highest value the cube may reach (None: no limit). Constructing one checks it."""

    value: int = 1
    owner: CubeOwner = CubeOwner.CENTRE
    match: MatchScore | None = None
    jacoby: bool = False
    beavers: bool = False
    max_cube: int | None = None

    def __post_init__(self) -> None:
        check_cube_value(self.value, None)
        object.__setattr__(self, "owner", CubeOwner(self.owner))
        if self.max_cube is not None:
            check_cube_value(self.max_cube, None)
        if self.match is not None and (self.jacoby or self.beavers):
            raise BackgammonError("Beavers and the Jacoby rule do not apply in matches.")

    @property
    def money(self) -> bool:
        """Whether this is money play (no match score)."""
        return self.match is None

    def may_reach(self, value: int) -> bool:
        """Whether the cube may show ``value`` under ``max_cube``."""
        return self.max_cube is None or value <= self.max_cube

    @property
    def may_double(self) -> bool:
        """Whether the player may double now (before rolling): the cube is theirs or in the
        centre, this is not the Crawford game, and the cube may reach twice its value."""
        return (
            self.owner is not CubeOwner.OPPONENT
            and (self.match is None or self.match.cube_allowed)
            and self.may_reach(self.value * 2)
        )

    @property
    def may_beaver(self) -> bool:
        """Whether the opponent, doubled now, may beaver (money play with beavers on)."""
        return self.beavers and self.may_reach(self.value * 4)

    def points(self, kind: WinKind) -> int:
        """The points a game won as ``kind`` scores at this cube (the Jacoby rule counted)."""
        return self.value if self.jacoby else self.value * int(kind)

    def flip(self) -> CubeContext:
        """The same cube seen by the opponent."""
        owner = {
            CubeOwner.ON_ROLL: CubeOwner.OPPONENT,
            CubeOwner.OPPONENT: CubeOwner.ON_ROLL,
            CubeOwner.CENTRE: CubeOwner.CENTRE,
        }[self.owner]
        return replace(
            self, owner=owner, match=None if self.match is None else self.match.flip()
        )

    def doubled(self) -> CubeContext:
        """The cube after the player doubles and the opponent takes (the opponent's view is
        :meth:`flip` of it): twice the value, owned by the opponent, the Jacoby rule over."""
        return replace(self, value=self.value * 2, owner=CubeOwner.OPPONENT, jacoby=False)


__all__ = [
    "HIGHEST_CUBE",
    "MAX_MATCH_LENGTH",
    "CubeContext",
    "CubeOwner",
    "MatchScore",
    "check_cube_value",
    "is_cube_value",
    "is_whole",
    "jacoby_applies",
]
