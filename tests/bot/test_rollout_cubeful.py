"""Cubeful rollouts: the cube played in the trials (bot.rollout with ``cubeful``), money and
match, the Jacoby and Crawford rules, a dead cube, variance reduction that keeps the value,
and the same trials whatever the workers."""

from __future__ import annotations

import math

import pytest

from backgammon import Position
from backgammon.bot import Bot, RolloutRun
from backgammon.bot.met import Scale, equity_after
from backgammon.bot.rollout import rollout
from backgammon.cube import CubeContext, CubeOwner, MatchScore

#: The player on roll wins about 97% and never a gammon: double, and the opponent drops.
PASS = Position.from_points({1: 2, 5: 1}, {6: 2, 5: 2})
#: The player on roll wins a gammon whatever happens: too good to double.
GAMMON = Position.from_points({1: 3, 2: 2}, {12: 15})
CONTACT = Position.from_id("xM8NAyCMtwcBBg")


def test_a_double_and_drop_is_worth_the_cube_exactly() -> None:
    result = rollout(PASS, trials=36, seed=1, workers=1, cubeful=True)
    assert result.cubeful and result.cubeful_equity == 1.0 and result.cubeful_se == 0.0
    assert (result.doubled, result.dropped) == (1.0, 1.0)
    owned = rollout(PASS, CubeContext(value=4, owner=CubeOwner.ON_ROLL), trials=36, seed=1,
                    workers=1, cubeful=True)
    assert owned.cubeful_equity == 1.0  # per unit of the cube: 4 points
    # The cube the opponent owns cannot be turned: the game is played out, and won.
    facing = rollout(PASS, CubeContext(value=2, owner=CubeOwner.OPPONENT), trials=36, seed=1,
                     workers=1, cubeful=True)
    assert facing.doubled == 0.0 and 0.8 < facing.cubeful_equity <= 1.0


def test_a_gammon_too_good_to_double_is_played_out() -> None:
    # Without variance reduction every trial is the gammon it is (the luck the networks see
    # in a won gammon is not quite zero).
    result = rollout(GAMMON, trials=36, seed=1, workers=1, luck=False, cubeful=True)
    assert result.doubled == 0.0 and result.dropped == 0.0
    assert (result.cubeful_equity, result.cubeful_se) == (2.0, 0.0)


def test_under_the_jacoby_rule_a_gammon_counts_single_until_the_cube_turns() -> None:
    result = rollout(GAMMON, CubeContext(jacoby=True), trials=36, seed=1, workers=1,
                     luck=False, cubeful=True)
    assert (result.cubeful_equity, result.cubeful_se, result.doubled) == (1.0, 0.0, 0.0)
    # The cubeless figures know nothing of the rule.
    assert result.equity == 2.0


def test_in_a_match_a_drop_is_the_match_equity_of_the_score_it_leads_to() -> None:
    score = MatchScore(5, (0, 1))
    cube = CubeContext(match=score)
    result = rollout(PASS, cube, trials=36, seed=1, workers=1, cubeful=True)
    assert result.dropped == 1.0 and result.cubeful_se == 0.0
    assert result.match_winning_chance == equity_after(score, won=1)
    assert result.cubeful_equity == pytest.approx(Scale.of(cube).emg(equity_after(score, won=1)))


def test_in_a_match_a_gammon_played_out_is_the_match_equity_it_leads_to() -> None:
    # Too good to double at 5-away 5-away: the gammon takes the player to 3-away.
    score = MatchScore(5)
    result = rollout(GAMMON, CubeContext(match=score), trials=36, seed=1, workers=1,
                     luck=False, cubeful=True)
    assert result.doubled == 0.0
    assert result.match_winning_chance == pytest.approx(equity_after(score, won=2), abs=1e-12)
    assert result.cubeful_se == pytest.approx(0.0, abs=1e-12)
    # 1 away after the Crawford game the cube is dead for the leader; the trailer doubles at
    # once, as it should, the leader takes, and the game won wins the match.
    result = rollout(GAMMON, CubeContext(match=MatchScore(5, (4, 3))), trials=36, seed=1,
                     workers=1, luck=False, cubeful=True)
    assert (result.match_winning_chance, result.doubled, result.dropped) == (1.0, 1.0, 0.0)


def test_no_double_in_the_crawford_game() -> None:
    for score in (MatchScore(5, (4, 2), crawford=True), MatchScore(5, (2, 4), crawford=True)):
        result = rollout(PASS, CubeContext(match=score), trials=36, seed=1, workers=1,
                         cubeful=True)
        assert result.doubled == 0.0


def test_a_dead_cube_is_not_turned() -> None:
    # After the Crawford game the leader, 1 away, wins the match with a single game: the
    # cube is dead for them. The trailer may double. (Truncated after the first turn: the
    # only cube action is the first player's.)
    leader = rollout(PASS, CubeContext(match=MatchScore(5, (4, 2))), trials=36, truncate=1,
                     seed=1, workers=1, cubeful=True)
    assert leader.doubled == 0.0
    for score in (MatchScore(5, (2, 4)), MatchScore(5, (3, 2))):
        live = rollout(PASS, CubeContext(match=score), trials=36, truncate=1, seed=1,
                       workers=1, cubeful=True)
        assert live.doubled == 1.0


def test_the_cubeless_figures_are_the_cubeless_rollouts() -> None:
    cubeless = rollout(CONTACT, trials=72, truncate=3, seed=5, workers=1)
    cubeful = rollout(CONTACT, trials=72, truncate=3, seed=5, workers=1, cubeful=True)
    assert not cubeless.cubeful and cubeless.doubled is None
    assert cubeful.probabilities == cubeless.probabilities
    assert (cubeful.equity, cubeful.equity_se) == (cubeless.equity, cubeless.equity_se)


def test_a_cubeful_rollout_is_the_same_whatever_the_workers_and_the_pieces() -> None:
    cube = CubeContext(match=MatchScore(7, (2, 3)))
    one = rollout(CONTACT, cube, trials=72, truncate=4, seed=9, workers=1, cubeful=True)
    two = rollout(CONTACT, cube, trials=72, truncate=4, seed=9, workers=2, cubeful=True)
    assert one == two
    run = RolloutRun(CONTACT, cube, trials=72, truncate=4, seed=9, cubeful=True)
    while not run.finished:
        run.step(30)
    assert run.result() == one


def test_cubeful_variance_reduction_keeps_the_value_and_narrows_it() -> None:
    plain = rollout(CONTACT, trials=648, truncate=4, seed=3, workers=1, luck=False,
                    cubeful=True)
    reduced = rollout(CONTACT, trials=648, truncate=4, seed=3, workers=1, cubeful=True)
    assert reduced.cubeful_se < plain.cubeful_se / 2
    combined = math.hypot(plain.cubeful_se, reduced.cubeful_se)
    assert abs(plain.cubeful_equity - reduced.cubeful_equity) < 3 * combined
    # Some trials turn the cube within four turns, some not.
    assert plain.doubled is not None and 0.0 < plain.doubled < 1.0


def test_the_bot_rolls_out_cubefully() -> None:
    result = Bot().rollout(PASS, trials=36, seed=1, workers=1, cubeful=True)
    assert result.cubeful and result.cubeful_equity == 1.0
    assert result.as_dict()["cubeful"] is True
