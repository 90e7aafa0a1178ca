"""The cube's points of a position: the winning chances at which its cube decision changes.

A :class:`~backgammon.bot.cube.CubeDecision` says what to do; people also ask how far from
the edge of the decision a position stands ("you win 31%, you need 25% to take"). The edges
are found on the bot's own cube lines (:func:`~backgammon.bot.cube.money_decision` and
:func:`~backgammon.bot.cube.match_decision`, Janowski's model, the match equity table in a
match): the doubler's winning chance is moved with its shares of gammons and backgammons in
the wins and in the losses held, and each point is where the decision those functions give
turns. Nothing of the model is written again here, so the points move with it.

* ``take``: the doubler's chance at which a take and a drop are worth the same to the taker
  (the taker needs ``1 - take`` to take); above it the double is dropped (the cash point);
* ``double``: the least chance at which doubling is right (the doubling window opens);
* ``too_good``: the least chance, above the cash point, at which playing on is worth more
  than the opponent's drop (too good to double).

A point the lines never reach (no window at a score, say) is None.

>>> from backgammon.bot.cube import money_decision
>>> from backgammon.bot.probabilities import Probabilities
>>> cubeless = Probabilities(0.70, 0.0, 0.0, 0.0, 0.0)   # no gammons
>>> points = cube_points(money_decision(cubeless, 0.68), CubeContext())
>>> round(1 - points.take, 3)     # the taker's need, with the cube's recube vig
0.214
>>> points.too_good is None       # without gammons no position is too good to double
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..cube import CubeContext
from .cube import CubeAction, CubeDecision, CubeResponse, match_decision, money_decision
from .probabilities import Probabilities

# Halvings of [0, 1]: the points to within 1e-6, far finer than any chance is shown.
_STEPS = 20


@dataclass(frozen=True)
class CubePoints:
    """The doubler's winning chances at which the cube decision changes (None: never)."""

    take: float | None
    double: float | None
    too_good: float | None


def cube_points(decision: CubeDecision, cube: CubeContext) -> CubePoints:
    """The points of the position ``decision`` was made for (its probabilities and cube
    efficiency), with the cube ``cube`` as the doubler sees it."""
    p, efficiency = decision.probabilities, decision.efficiency

    def decide(chance: float) -> CubeDecision:
        at = _at_chance(p, chance)
        if cube.money:
            return money_decision(at, efficiency, cube)
        return match_decision(at, efficiency, cube)

    def dropped(chance: float) -> bool:
        return decide(chance).response is CubeResponse.DROP

    take = _edge(dropped, 0.0, 1.0)
    top = 1.0 if take is None else take
    double = _edge(lambda chance: decide(chance).action is CubeAction.DOUBLE, 0.0, top)
    too_good = None
    if take is not None:
        too_good = _edge(lambda chance: decide(chance).action is CubeAction.TOO_GOOD, take, 1.0)
    return CubePoints(take, double, too_good)


def _at_chance(p: Probabilities, chance: float) -> Probabilities:
    """``p`` with the winning chance ``chance``, its gammons and backgammons the same shares
    of the wins and of the losses."""

    def share(part: float, whole: float) -> float:
        return part / whole if whole > 1e-9 else 0.0

    lose = 1.0 - chance
    return Probabilities(
        chance,
        chance * share(p.win_gammon, p.win),
        chance * share(p.win_backgammon, p.win),
        lose * share(p.lose_gammon, p.lose),
        lose * share(p.lose_backgammon, p.lose),
    )


def _edge(holds: Callable[[float], bool], low: float, high: float) -> float | None:
    """The least chance in [low, high] from which ``holds`` is true up to ``high``, by
    halving; None when it does not hold at ``high`` or holds already at ``low``."""
    if not holds(high) or holds(low):
        return None
    for _ in range(_STEPS):
        middle = (low + high) / 2
        if holds(middle):
            high = middle
        else:
            low = middle
    return (low + high) / 2
