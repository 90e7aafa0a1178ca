"""Rollouts: reproducible, stratified first rolls, variance reduction that works, exact
bear-offs agreeing with the table, plays at 1 and 2 plies, and the cubeful figure in money
and match play."""

from __future__ import annotations

import argparse
import json

import numpy as np
import pytest

from backgammon import Position
from backgammon.bot import Bot
from backgammon.bot.cube import cube_efficiency, match_decision
from backgammon.bot.evaluator import FakeEvaluator
from backgammon.bot.kernel import Kernel, KernelError, board_of
from backgammon.bot.met import equity_after
from backgammon.bot.rollout import RolloutError, rollout, rollouts
from backgammon.bot.search import DEFAULT_FILTERS
from backgammon.bot.shipped import shipped_evaluator
from backgammon.cli.rollout import ARGUMENTS, rollout_command
from backgammon.cube import CubeContext, CubeOwner, MatchScore

_EQUITY = np.array([2.0, 1.0, 1.0, -1.0, -1.0])
_FLIP = ([0, 3, 4, 1, 2], np.array([-1.0, 1, 1, 1, 1]), np.array([1.0, 0, 0, 0, 0]))

POSITIONS = [
    Position.from_id(text)
    for text in ("4HPwATDgc/ABMA", "xM8NAyCMtwcBBg", "tm0LAAY2b+YAAA", "g/PEUALgAz4CYw")
]


def flip(values: np.ndarray) -> np.ndarray:
    order, sign, shift = _FLIP
    return values[..., order] * sign + shift


def test_a_rollout_is_reproducible_and_independent_of_the_workers() -> None:
    position = POSITIONS[1]
    one = rollout(position, trials=72, truncate=3, seed=4, workers=1)
    assert one == rollout(position, trials=72, truncate=3, seed=4, workers=1)
    assert one == rollout(position, trials=72, truncate=3, seed=4, workers=2)
    assert one != rollout(position, trials=72, truncate=3, seed=5, workers=1)


def test_the_first_two_rolls_are_stratified() -> None:
    """Truncated after two turns, 1,296 trials average the 0-ply value after every pair of
    first and second rolls exactly once."""
    kernel = Kernel.shipped()
    position = POSITIONS[2]
    results, _ = kernel.rollout_trials(position, 0, 1296, seed=9, truncate=2, luck=False)
    dice = np.array([(r % 6 + 1, r // 6 + 1) for r in range(36)])
    first = kernel.best_results(np.repeat(board_of(position)[None], 36, axis=0), dice)
    second = kernel.best_results(np.repeat(first, 36, axis=0), np.tile(dice, (36, 1)))
    # After two turns the player on roll is the starting player again.
    expected = kernel.evaluate(second).astype(np.float64).mean(axis=0)
    np.testing.assert_allclose(results.mean(axis=0), expected, atol=1e-6)
    # The first roll of trial i is the (i mod 36)-th: trials 36 apart start alike.
    one_turn, _ = kernel.rollout_trials(position, 0, 72, seed=9, truncate=1, luck=False)
    np.testing.assert_array_equal(one_turn[:36], one_turn[36:])
    np.testing.assert_allclose(one_turn[:36], flip(kernel.evaluate(first)), atol=1e-6)
    # Any 36 trials in a row have each second roll once too: trials 36 k .. 36 k + 35 have
    # the pairs (a, a + k), so their mean over the first rolls' is the same for every k.
    by_second = second.reshape(36, 36, 2, 26)
    block = np.stack([by_second[a, (a + 5) % 36] for a in range(36)])
    np.testing.assert_allclose(results[180:216], kernel.evaluate(block), atol=1e-6)
    random_dice, _ = kernel.rollout_trials(position, 0, 72, seed=9, truncate=1, luck=False,
                                           stratify=False)
    assert not np.array_equal(random_dice[:36], random_dice[36:])


@pytest.mark.parametrize("plies", [0, 1])
def test_variance_reduction_lowers_the_standard_error(plies: int) -> None:
    """At 1 ply luck is still measured at 0-ply (the plays made are the 1-ply ones): still
    without bias, and still a much smaller error."""
    trials, truncate = (108, 6) if plies == 0 else (72, 3)
    for position in POSITIONS if plies == 0 else POSITIONS[1:3]:
        plain = rollout(position, trials=trials, truncate=truncate, seed=2, workers=1,
                        luck=False, plies=plies)
        reduced = rollout(position, trials=trials, truncate=truncate, seed=2, workers=1,
                          luck=True, plies=plies)
        assert reduced.equity_se < plain.equity_se / 2, position.id()
        combined = np.hypot(plain.equity_se, reduced.equity_se)
        assert abs(reduced.equity - plain.equity) < 3 * combined, position.id()


def test_a_bearoff_rolls_out_to_the_tables_value() -> None:
    position = Position.from_points({1: 2, 2: 2, 4: 1, 5: 2}, {1: 1, 3: 3, 6: 2})
    exact = shipped_evaluator().evaluate(position)
    # The luck of every roll is measured by the table itself, so little is left to chance.
    result = rollout(position, trials=144, seed=3, workers=1)
    win_se = result.probabilities_se[0]
    assert result.probabilities.win == pytest.approx(exact.win, abs=3 * win_se + 0.005)
    assert result.equity == pytest.approx(exact.equity, abs=3 * result.equity_se + 0.01)
    plain = rollout(position, trials=1296, seed=3, workers=1, luck=False)
    low, high = plain.equity_interval
    assert low - 0.01 < exact.equity < high + 0.01
    assert result.equity_se < plain.equity_se / 3


def test_cubeful_equity_follows_the_cube() -> None:
    position = POSITIONS[3]
    centred = rollout(position, trials=72, truncate=2, seed=1, workers=1)
    owned = rollout(position, CubeContext(2, CubeOwner.OPPONENT), trials=72, truncate=2,
                    seed=1, workers=1)
    assert centred.equity == owned.equity
    assert centred.cubeful_equity is not None and owned.cubeful_equity is not None
    # The player on roll loses the use of the cube when the opponent holds it.
    assert owned.cubeful_equity < centred.cubeful_equity
    assert centred.cubeful_se is not None and centred.cubeful_se > 0


def test_rollouts_refuse_what_they_cannot_do() -> None:
    with pytest.raises(RolloutError, match="0 to 2 plies"):
        rollout(POSITIONS[0], plies=3)
    with pytest.raises(RolloutError, match="filters"):
        rollout(POSITIONS[0], plies=1, filters=())
    with pytest.raises(RolloutError, match="over"):
        rollout(Position.from_points({}, {1: 1}, checkers=1))


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    for argument in ARGUMENTS:
        parser.add_argument(*argument.flags, **argument.options)
    args = parser.parse_args(
        ["4HPwATDgc/ABMA:cAkAAAAAAAAA", "--trials", "36", "--truncate", "2", "--seed", "7",
         "--workers", "1", "--no-progress", "--json"]
    )
    assert rollout_command(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["trials"] == 36 and data["seed"] == 7
    assert data["equity_interval"][0] < data["equity"] < data["equity_interval"][1]
    assert set(data["probabilities"]) == {"win", "win_gammon", "win_backgammon",
                                          "lose_gammon", "lose_backgammon"}


def test_the_bot_rolls_out_with_its_networks() -> None:
    position = POSITIONS[1]
    result = Bot().rollout(position, trials=36, truncate=2, seed=8, workers=1)
    assert result == rollout(position, trials=36, truncate=2, seed=8, workers=1)
    with pytest.raises(KernelError, match="networks"):
        Bot(evaluator=FakeEvaluator()).rollout(position, trials=36)


def test_many_positions_roll_out_as_each_alone() -> None:
    results = rollouts(POSITIONS[1:3], trials=36, truncate=2, seed=11, workers=2)
    assert results[0].seed == 11 and results[1].seed != 11
    for position, result in zip(POSITIONS[1:3], results, strict=True):
        assert result == rollout(position, trials=36, truncate=2, seed=result.seed, workers=1)
    with pytest.raises(RolloutError, match="position 1"):
        rollouts([POSITIONS[0], Position.from_points({}, {1: 1}, checkers=1)])


@pytest.mark.parametrize(("plies", "trials"), [(1, 36), (2, 3)])
def test_a_deeper_rollout_is_independent_of_the_workers(plies: int, trials: int) -> None:
    position = POSITIONS[1]
    one = rollout(position, trials=trials, truncate=3, seed=4, workers=1, plies=plies)
    assert one.plies == plies
    assert one == rollout(position, trials=trials, truncate=3, seed=4, workers=2, plies=plies)
    assert one != rollout(position, trials=trials, truncate=3, seed=4, workers=1)


def test_a_1_ply_rollout_plays_the_1_ply_choice() -> None:
    """Truncated after one turn, trial i plays the 1-ply choice of the i-th first roll, and
    its value is that of the position reached, as the kernel's 1-ply choice (the bot's: see
    test_kernel) reaches it; at 1 ply the choices differ from the 0-ply ones somewhere."""
    kernel = Kernel.shipped()
    position = POSITIONS[1]
    results, lucks = kernel.rollout_trials(position, 0, 36, seed=9, truncate=1, luck=False,
                                           plies=1, filters=DEFAULT_FILTERS)
    assert not lucks.any()
    dice = np.array([(r % 6 + 1, r // 6 + 1) for r in range(36)])
    start = np.repeat(board_of(position)[None], 36, axis=0)
    deep = kernel.best_results(start, dice, 1, DEFAULT_FILTERS)
    np.testing.assert_allclose(results, flip(kernel.evaluate(deep)), atol=1e-6)
    assert not np.array_equal(deep, kernel.best_results(start, dice))


def test_a_1_ply_rollout_agrees_with_a_long_0_ply_one_where_the_plays_agree() -> None:
    """In a bear-off the table chooses the plays at 0-ply already, so a 1-ply rollout must
    find the same value as a long 0-ply one, within their errors."""
    position = Position.from_points({1: 2, 2: 2, 4: 1, 5: 2, 6: 2}, {1: 1, 3: 3, 6: 2, 5: 2})
    deep = rollout(position, trials=144, seed=12, workers=1, plies=1)
    long = rollout(position, trials=1296, seed=13, workers=1)
    combined = np.hypot(deep.equity_se, long.equity_se)
    assert combined < 0.02
    assert abs(deep.equity - long.equity) < 3 * combined + 0.002
    win_se = np.hypot(deep.probabilities_se[0], long.probabilities_se[0])
    assert abs(deep.probabilities.win - long.probabilities.win) < 3 * win_se + 0.001


def test_the_bot_rolls_out_at_its_filters_and_the_plies_asked() -> None:
    position = POSITIONS[2]
    result = Bot().rollout(position, trials=36, truncate=2, seed=8, workers=1, plies=1)
    assert result == rollout(position, trials=36, truncate=2, seed=8, workers=1, plies=1)


def test_the_match_cubeful_figure_is_the_match_cube_model_on_the_chances() -> None:
    position = POSITIONS[3]
    score = MatchScore(7, (2, 4))
    cube = CubeContext(match=score)
    result = rollout(position, cube, trials=72, truncate=2, seed=1, workers=1)
    assert result.equity == rollout(position, trials=72, truncate=2, seed=1, workers=1).equity
    decision = match_decision(result.probabilities, cube_efficiency(position), cube)
    assert result.match_winning_chance == pytest.approx(decision.best, abs=1e-9)
    won, lost = equity_after(score, won=1), equity_after(score, lost=1)
    assert result.cubeful_equity == pytest.approx(
        (2 * decision.best - won - lost) / (won - lost), abs=1e-9
    )
    assert result.match_winning_chance_se is not None and result.match_winning_chance_se > 0
    assert result.cubeful_se == pytest.approx(
        2 * result.match_winning_chance_se / (won - lost), rel=1e-9
    )
    low, high = result.match_winning_interval or (0.0, 0.0)
    assert low < result.match_winning_chance < high


def test_at_double_match_point_the_cubeful_figure_is_the_chance_of_winning() -> None:
    """1-away 1-away: gammons and the cube count for nothing, so the chance of winning the
    match is the chance of winning the game, with its error."""
    position = POSITIONS[0]
    cube = CubeContext(match=MatchScore(5, (4, 4)))
    result = rollout(position, cube, trials=72, truncate=2, seed=3, workers=1)
    assert result.match_winning_chance == pytest.approx(result.probabilities.win, abs=1e-9)
    assert result.match_winning_chance_se == pytest.approx(result.probabilities_se[0],
                                                           rel=1e-4)


def test_the_command_rolls_a_match_position_out(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    for argument in ARGUMENTS:
        parser.add_argument(*argument.flags, **argument.options)
    # A 5-point match at 2-1 for the player on roll.
    base = ["g/PEUALgAz4CYw:MAGgACAACAAE", "--trials", "36", "--truncate", "2", "--seed", "7",
            "--workers", "1", "--no-progress"]
    assert rollout_command(parser.parse_args([*base, "--json"])) == 0
    data = json.loads(capsys.readouterr().out)
    assert 0 < data["match_winning_chance"] < 1
    assert data["match_winning_interval"][0] < data["match_winning_chance"]
    assert rollout_command(parser.parse_args([*base, "--plies", "1"])) == 0
    text = capsys.readouterr().out
    assert "36 trials at 1-ply" in text and "to win the match" in text
    assert "2-1 in a 5-point match" in text
