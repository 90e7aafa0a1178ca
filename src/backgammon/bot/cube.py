"""Cube decisions from cubeless probabilities: Janowski's model of a live cube.

A cubeless evaluation says nothing of the cube: a player owning it can double the opponent out
later, and one facing it may be doubled out. Janowski's model ("Take-Points in Money Games",
1993) puts the equity with a live cube between two lines: the dead cube (the cubeless equity)
and a fully live cube, on which the player cashes at the cash point and is cashed at the take
point. The cubeful equity is ``dead × (1 − x) + live × x``, with ``x`` the cube's efficiency:
how much of its value a real game lets the cube keep (:func:`cube_efficiency`).

Money play (:func:`money_decision`) uses GNU Backgammon's form of the model, with the average
values of a win and of a loss, W and L, giving the live take point (L − 1/2)/(W + L + 1/2) and
cash point (L + 1)/(W + L + 1/2). Match play (:func:`match_decision`) works in chances of
winning the match, from the match equity table: the same lines, with each knot's value the
match equity of the score it leads to, and the take points found from the top of the cube down
(a take point at one cube value depends on the cash point at the next).

Both take the cube as one :class:`~backgammon.cube.CubeContext`, for the player on roll.
Equities are per unit of the cube's value before the double in money play (a drop is +1), and
chances of winning the match in match play.

>>> from backgammon.bot.probabilities import Probabilities
>>> strong = Probabilities(0.70, 0.05, 0.0, 0.02, 0.0)
>>> decision = money_decision(strong, efficiency=0.68)   # money play, the cube centred at 1
>>> decision.action, decision.response
(<CubeAction.DOUBLE: 'double'>, <CubeResponse.TAKE: 'take'>)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from enum import StrEnum

from ..cube import CubeContext, CubeOwner, MatchScore
from ..errors import BackgammonError
from ..position import Position
from .met import equity_after
from .probabilities import Probabilities

#: Janowski's cube efficiency in contact positions (GNU Backgammon's default).
CONTACT_EFFICIENCY = 0.68
#: The efficiency in bear-offs (GNU Backgammon's, for its one-sided bearoff positions).
BEAROFF_EFFICIENCY = 0.6


class CubeAction(StrEnum):
    """What the player on roll should do with the cube."""

    NO_DOUBLE = "no double"
    DOUBLE = "double"
    TOO_GOOD = "too good"


class CubeResponse(StrEnum):
    """How the opponent should answer a double."""

    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"


@dataclass(frozen=True)
class CubeDecision:
    """The right cube action and answer, and the equities they come from (per unit of the
    cube in money play, match winning chances in match play; nan where the player on roll
    may not double)."""

    action: CubeAction
    response: CubeResponse
    no_double: float
    double_take: float
    double_drop: float
    probabilities: Probabilities
    efficiency: float

    @property
    def best(self) -> float:
        """The equity of the right action (the player on roll's)."""
        if self.action is CubeAction.DOUBLE:
            return min(self.double_take, self.double_drop)
        return self.no_double


def cube_efficiency(position: Position) -> float:
    """Janowski's x for a position: 0.68 in contact, 0.6 in a bear-off; in other races GNU
    Backgammon's 0.55 + 0.00125 × the pips of the player on roll, within [0.6, 0.7]."""
    if not position.is_race():
        return CONTACT_EFFICIENCY
    mine, theirs = position.mine, position.theirs
    if not any(mine[7:26]) and not any(theirs[7:26]):
        return BEAROFF_EFFICIENCY
    return min(max(0.55 + 0.00125 * position.pips()[0], 0.6), 0.7)


def _decide(
    no_double: float,
    double_take: float,
    double_drop: float,
    may_double: bool,
    beaver: bool,
    probabilities: Probabilities,
    efficiency: float,
) -> CubeDecision:
    """The action and answer from the three equities (``beaver``: the taker would gain by
    beavering, where that is allowed)."""
    if double_take > double_drop:
        response = CubeResponse.DROP
    else:
        response = CubeResponse.BEAVER if beaver else CubeResponse.TAKE
    if not may_double:
        action = CubeAction.NO_DOUBLE
        double_take = double_drop = math.nan
    elif min(double_take, double_drop) > no_double:
        action = CubeAction.DOUBLE
    elif response is CubeResponse.DROP and no_double > double_drop:
        action = CubeAction.TOO_GOOD  # playing on for the gammon is worth more than cashing
    else:
        action = CubeAction.NO_DOUBLE
    return CubeDecision(
        action, response, no_double, double_take, double_drop, probabilities, efficiency
    )


# Money play


def _win_loss_values(p: Probabilities) -> tuple[float, float]:
    """W and L: the average points of a win and of a loss (gammons and backgammons in)."""
    win = 1.0 + (p.win_gammon + p.win_backgammon) / p.win if p.win > 1e-7 else 1.0
    lose = 1.0 + (p.lose_gammon + p.lose_backgammon) / p.lose if p.lose > 1e-7 else 1.0
    return win, lose


def money_live_equity(p: Probabilities, owner: CubeOwner, jacoby: bool = False) -> float:
    """The equity with a fully live cube, per unit of the cube, by GNU Backgammon's lines
    (``jacoby``: gammons count only once the cube is turned, so for a centred cube the
    equity stops at ±1 beyond the take and cash points)."""
    win, lose = _win_loss_values(p)
    take = (lose - 0.5) / (win + lose + 0.5)
    cash = (lose + 1.0) / (win + lose + 0.5)
    chance = p.win
    if owner is CubeOwner.CENTRE:
        if chance < take:
            return -1.0 if jacoby else -lose + (lose - 1.0) * chance / take
        if chance < cash:
            return -1.0 + 2.0 * (chance - take) / (cash - take)
        return 1.0 if jacoby else 1.0 + (win - 1.0) * (chance - cash) / (1.0 - cash)
    if owner is CubeOwner.ON_ROLL:
        if chance < cash:
            return -lose + (1.0 + lose) * chance / cash
        return 1.0 + (win - 1.0) * (chance - cash) / (1.0 - cash)
    if chance < take:
        return -lose + (lose - 1.0) * chance / take
    return -1.0 + (win + 1.0) * (chance - take) / (1.0 - take)


def money_equity(
    p: Probabilities, efficiency: float, owner: CubeOwner, jacoby: bool = False
) -> float:
    """Janowski's cubeful money equity per unit of the cube."""
    dead = 2.0 * p.win - 1.0 if jacoby and owner is CubeOwner.CENTRE else p.equity
    live = money_live_equity(p, owner, jacoby and owner is CubeOwner.CENTRE)
    return dead * (1.0 - efficiency) + live * efficiency


def money_decision(
    p: Probabilities, efficiency: float, cube: CubeContext | None = None
) -> CubeDecision:
    """The money cube decision of the player on roll with probabilities ``p``, with the cube
    and the options of ``cube`` (by default centred at 1)."""
    cube = cube or CubeContext()
    if not cube.money:
        raise BackgammonError("This cube has a match score: its decision is a match decision.")
    no_double = money_equity(p, efficiency, cube.owner, cube.jacoby)
    # Once doubled, the cube has turned (gammons count) and the taker owns it at twice.
    double_take = 2.0 * money_equity(p, efficiency, CubeOwner.OPPONENT)
    return _decide(
        no_double,
        double_take,
        1.0,
        cube.may_double,
        cube.may_beaver and double_take < 0.0,
        p,
        efficiency,
    )


# Match play


class _MatchCube:
    """Janowski's lines in match winning chances, for both players of one position.

    Side 0 is the player on roll, side 1 the opponent; each side's chances are its own.
    """

    def __init__(self, p: Probabilities, score: MatchScore) -> None:
        self.scores = (score, score.flip())
        # Each side's shares of single games, gammons and backgammons in its wins and losses.
        self._shares = (_shares(p), _shares(p.flip()))
        self._take_points: dict[tuple[int, int], float] = {}

    def win_value(self, side: int, cube: int) -> float:
        """The side's match equity after a win of the game at ``cube``, on average."""
        score, shares = self.scores[side], self._shares[side][0]
        return sum(s * equity_after(score, won=k * cube) for k, s in enumerate(shares, 1))

    def loss_value(self, side: int, cube: int) -> float:
        """The side's match equity after a loss of the game at ``cube``, on average."""
        score, shares = self.scores[side], self._shares[side][1]
        return sum(s * equity_after(score, lost=k * cube) for k, s in enumerate(shares, 1))

    def dead(self, side: int, chance: float, cube: int) -> float:
        """The side's match equity with a dead cube at ``cube`` and a winning ``chance``."""
        return chance * self.win_value(side, cube) + (1 - chance) * self.loss_value(side, cube)

    def may_redouble(self, side: int, cube: int) -> bool:
        """Whether doubling from ``cube`` can gain the side anything: not in the Crawford
        game, nor once a single game at ``cube`` wins it the match."""
        score = self.scores[side]
        return score.cube_allowed and score.away > cube

    def _owned_line(self, side: int, cube: int) -> list[tuple[float, float]]:
        """The knots of the side's live line owning the cube at ``cube``: it cashes from its
        cash point up, where the other side would drop a redouble."""
        knots = [(0.0, self.loss_value(side, cube))]
        if self.may_redouble(side, cube):
            cash = 1.0 - self.take_point(1 - side, 2 * cube)
            knots.append((cash, equity_after(self.scores[side], won=cube)))
        knots.append((1.0, self.win_value(side, cube)))
        return knots

    def owned(self, side: int, chance: float, cube: int) -> float:
        """The side's live match equity owning the cube at ``cube``."""
        return _interpolate(self._owned_line(side, cube), chance)

    def facing(self, side: int, chance: float, cube: int) -> float:
        """The side's live match equity when the other side owns the cube at ``cube``."""
        knots = [(0.0, self.loss_value(side, cube))]
        if self.may_redouble(1 - side, cube):
            knots.append(
                (self.take_point(side, 2 * cube), equity_after(self.scores[side], lost=cube))
            )
        knots.append((1.0, self.win_value(side, cube)))
        return _interpolate(knots, chance)

    def centred(self, side: int, chance: float, cube: int) -> float:
        """The side's live match equity with the cube in the centre at ``cube``."""
        score = self.scores[side]
        knots = [(0.0, self.loss_value(side, cube))]
        if self.may_redouble(1 - side, cube):
            knots.append((self.take_point(side, 2 * cube), equity_after(score, lost=cube)))
        if self.may_redouble(side, cube):
            knots.append((1.0 - self.take_point(1 - side, 2 * cube), equity_after(score, won=cube)))
        knots.append((1.0, self.win_value(side, cube)))
        return _interpolate(knots, chance)

    def take_point(self, side: int, cube: int) -> float:
        """The least winning chance with which the side takes a double to ``cube`` (and then
        owns the cube), on the live lines."""
        key = (side, cube)
        if key not in self._take_points:
            drop = equity_after(self.scores[side], lost=cube // 2)
            self._take_points[key] = _invert(self._owned_line(side, cube), drop)
        return self._take_points[key]


def dead_match_equity(p: Probabilities, score: MatchScore, cube: int) -> float:
    """The match equity of the player on roll, at ``score`` with the cube dead at ``cube``:
    each of the game's results, with its chance, weighted by the match equity it leads to.

    >>> round(dead_match_equity(Probabilities(0.5, 0, 0, 0, 0), MatchScore(5, (4, 4)), 1), 3)
    0.5
    """
    return _MatchCube(p, score).dead(0, p.win, cube)


def _shares(p: Probabilities) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The shares of single games, gammons and backgammons in the wins and in the losses."""
    wins = (p.win - p.win_gammon, p.win_gammon - p.win_backgammon, p.win_backgammon)
    losses = (p.lose - p.lose_gammon, p.lose_gammon - p.lose_backgammon, p.lose_backgammon)
    return _normalised(wins), _normalised(losses)


def _normalised(shares: tuple[float, float, float]) -> tuple[float, ...]:
    total = sum(shares)
    if total <= 1e-7:
        return (1.0, 0.0, 0.0)
    return tuple(max(s, 0.0) / total for s in shares)


def _interpolate(knots: list[tuple[float, float]], x: float) -> float:
    """The piecewise-linear function through ``knots`` (rising in x) at ``x``."""
    points = [knots[0]]
    for knot in knots[1:]:
        if knot[0] > points[-1][0]:
            points.append(knot)  # a knot out of order (an odd score) is left out
    for (x0, y0), (x1, y1) in itertools.pairwise(points):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def _invert(knots: list[tuple[float, float]], y: float) -> float:
    """The least x in [0, 1] at which the line through ``knots`` reaches ``y``."""
    if y <= knots[0][1]:
        return 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(knots):
        if y0 <= y <= y1 and y1 > y0 and x1 > x0:
            return x0 + (x1 - x0) * (y - y0) / (y1 - y0)
    return 1.0


def match_decision(p: Probabilities, efficiency: float, cube: CubeContext) -> CubeDecision:
    """The match cube decision of the player on roll, in chances of winning the match, with
    the cube and the score of ``cube``."""
    score = cube.match
    if score is None:
        raise BackgammonError("This cube has no match score: its decision is a money decision.")
    model = _MatchCube(p, score)
    dead = model.dead(0, p.win, cube.value)
    live = {
        CubeOwner.CENTRE: model.centred,
        CubeOwner.ON_ROLL: model.owned,
        CubeOwner.OPPONENT: model.facing,
    }[cube.owner](0, p.win, cube.value)
    no_double = dead * (1 - efficiency) + live * efficiency
    doubled = 2 * cube.value
    double_take = model.dead(0, p.win, doubled) * (1 - efficiency) + model.facing(
        0, p.win, doubled
    ) * efficiency
    double_drop = equity_after(score, won=cube.value)
    return _decide(no_double, double_take, double_drop, cube.may_double, False, p, efficiency)
