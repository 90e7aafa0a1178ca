"""The compiled cube model (bot.kernel.cubemodel) against the Python one (bot.cube)."""

from __future__ import annotations

import numpy as np
import pytest

from backgammon import Position
from backgammon.bot.cube import cube_efficiency, match_decision, money_decision
from backgammon.bot.kernel import boards_of, cubemodel
from backgammon.bot.probabilities import Probabilities
from backgammon.cube import CubeContext, CubeOwner, MatchScore

_OWNERS = {
    CubeOwner.CENTRE: cubemodel.CENTRE,
    CubeOwner.ON_ROLL: cubemodel.ON_ROLL,
    CubeOwner.OPPONENT: cubemodel.OPPONENT,
}


def _probabilities(rng: np.random.Generator) -> np.ndarray:
    win = rng.uniform(0.02, 0.98)
    win_gammon = win * rng.uniform(0, 0.5)
    lose_gammon = (1 - win) * rng.uniform(0, 0.5)
    return np.array([win, win_gammon, win_gammon * rng.uniform(0, 0.2), lose_gammon,
                     lose_gammon * rng.uniform(0, 0.2)])


@pytest.mark.parametrize("owner", list(CubeOwner))
@pytest.mark.parametrize("jacoby", [False, True])
def test_money_equities_are_the_python_models(owner: CubeOwner, jacoby: bool) -> None:
    rng = np.random.default_rng(1)
    for _ in range(200):
        p = _probabilities(rng)
        x = rng.uniform(0.5, 0.75)
        cube = CubeContext(value=4, owner=owner, jacoby=jacoby and owner is CubeOwner.CENTRE)
        expected = money_decision(Probabilities.from_values(p), x, cube)
        nd, dt, dp = cubemodel.equities(p, x, _OWNERS[owner], 4, cube.jacoby, False, 0, 0,
                                        False, *cubemodel.met_arrays())
        assert nd == pytest.approx(4 * expected.no_double, abs=1e-12)
        if cube.may_double:
            assert (dt, dp) == pytest.approx((4 * expected.double_take, 4.0), abs=1e-12)


SCORES = [
    MatchScore(7), MatchScore(5, (2, 3)), MatchScore(3, (1, 0)), MatchScore(9, (8, 2)),
    MatchScore(9, (8, 2), crawford=True), MatchScore(5, (1, 4)), MatchScore(25, (3, 17)),
]


@pytest.mark.parametrize("score", SCORES)
@pytest.mark.parametrize("owner", list(CubeOwner))
@pytest.mark.parametrize("value", [1, 2, 4])
def test_match_equities_are_the_python_models(score: MatchScore, owner: CubeOwner,
                                              value: int) -> None:
    if score.crawford and (owner is not CubeOwner.CENTRE or value > 1):
        pytest.skip("The Crawford game has the cube centred at 1.")
    rng = np.random.default_rng(value)
    cube = CubeContext(value=value, owner=owner, match=score)
    for _ in range(100):
        p = _probabilities(rng)
        x = rng.uniform(0.5, 0.75)
        expected = match_decision(Probabilities.from_values(p), x, cube)
        nd, dt, dp = cubemodel.equities(
            p, x, _OWNERS[owner], value, False, True, score.away, score.opponent_away,
            score.crawford, *cubemodel.met_arrays(),
        )
        assert nd == pytest.approx(expected.no_double, abs=1e-12)
        if cube.may_double:
            assert (dt, dp) == pytest.approx((expected.double_take, expected.double_drop),
                                             abs=1e-12)


@pytest.mark.parametrize("position", [
    Position.from_id("4HPwATDgc/ABMA"), Position.from_id("bXcnAAB1exMEAA"),
    Position.from_points({5: 15}, {3: 15}), Position.from_points({8: 5, 6: 10}, {3: 15}),
    Position.from_points({20: 5, 6: 10}, {3: 15}),
])
def test_efficiency_is_the_python_models(position: Position) -> None:
    assert cubemodel.efficiency(boards_of([position])[0]) == cube_efficiency(position)


def test_decide_doubles_when_both_answers_beat_playing_on() -> None:
    assert cubemodel.decide(0.5, 0.8, 1.0, True) == (True, False, 0.8)
    assert cubemodel.decide(0.5, 1.2, 1.0, True) == (True, True, 1.0)
    assert cubemodel.decide(1.3, 1.6, 1.0, True) == (False, True, 1.3)  # too good
    assert cubemodel.decide(0.5, 0.8, 1.0, False) == (False, False, 0.5)
