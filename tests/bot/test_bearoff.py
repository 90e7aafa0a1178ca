"""The one-sided bearoff table: hand-computed cases, the race chances it gives, and GNU
Backgammon's own table and evaluations as a test-only reference."""

from __future__ import annotations

import numpy as np
import pytest

from backgammon import Position
from backgammon.bot.bearoff import (
    MAX_ROLLS,
    POSITIONS,
    BearoffEvaluator,
    BearoffTable,
    _all_positions,
    build_table,
    is_bearoff,
    rank,
    shipped_table,
)
from backgammon.bot.encoding import Board, boards
from backgammon.bot.evaluator import FakeEvaluator
from backgammon.bot.network import Array
from backgammon.cli import main


@pytest.fixture(scope="module")
def table() -> BearoffTable:
    return build_table()


def home(*counts: int) -> dict[int, int]:
    """Checkers on the home points 1..6 (as many counts as given), for from_points."""
    return {point: int(n) for point, n in enumerate(counts, start=1) if n}


def outputs(table: BearoffTable, mine: dict[int, int], theirs: dict[int, int]) -> np.ndarray:
    return table.outputs(*boards([Position.from_points(mine, theirs)]))[0]


# The numbering and the table's shape


def test_rank_numbers_every_position_once() -> None:
    counts = _all_positions()
    assert len(counts) == POSITIONS == 54_264
    assert (rank(counts) == np.arange(POSITIONS)).all()
    assert counts[0].sum() == 0  # no checker left: the first entry


def test_every_distribution_sums_to_one(table: BearoffTable) -> None:
    assert np.allclose(table.off.sum(axis=1), 1.0, atol=1e-5)
    assert np.allclose(table.first.sum(axis=1), 1.0, atol=1e-5)
    # The longest bear-off fits with room to spare.
    assert table.off[:, MAX_ROLLS - 1].max() == 0.0


# Hand-computed distributions


def test_one_checker_on_the_one_point_needs_one_roll(table: BearoffTable) -> None:
    assert table.rolls((1, 0, 0, 0, 0, 0)).tolist()[:3] == [0.0, 1.0, 0.0]


def test_one_checker_on_the_six_point(table: BearoffTable) -> None:
    # Off in one roll with a 6, with two dice summing to 6 or more, or with a double of 2 or
    # more: all but the 8 rolls (1-2, 1-3, 1-4, 2-3 either way) and 1-1, so 27 of 36.
    rolls = table.rolls((0, 0, 0, 0, 0, 1))
    assert rolls[1] == pytest.approx(27 / 36)
    assert rolls[2] == pytest.approx(9 / 36)


def test_two_checkers_on_the_one_point_need_one_roll(table: BearoffTable) -> None:
    assert table.rolls((2, 0, 0, 0, 0, 0))[1] == pytest.approx(1.0)


def test_doubles_bear_off_four(table: BearoffTable) -> None:
    # Four checkers on the 1-point: a double bears them all off; any other roll two.
    rolls = table.rolls((4, 0, 0, 0, 0, 0))
    assert rolls[1] == pytest.approx(6 / 36)
    assert rolls[2] == pytest.approx(30 / 36)
    # Five: two rolls if either is a double, else three.
    rolls = table.rolls((5, 0, 0, 0, 0, 0))
    assert rolls[2] == pytest.approx(11 / 36)
    assert rolls[3] == pytest.approx(25 / 36)


def test_first_checker_off_from_fifteen_on_the_six_point(table: BearoffTable) -> None:
    # A 6 (11 rolls), 5-1 or 4-2 moving one checker all the way (4), or 3-3 or 2-2 (2).
    assert table.first_rolls((0, 0, 0, 0, 0, 15))[1] == pytest.approx(17 / 36)


def test_one_checker_needs_the_same_rolls_to_start_and_to_finish(table: BearoffTable) -> None:
    for point in range(1, 7):
        counts = tuple(1 if p == point else 0 for p in range(1, 7))
        assert np.allclose(table.rolls(counts), table.first_rolls(counts))


def test_bad_counts_are_refused(table: BearoffTable) -> None:
    with pytest.raises(ValueError):
        table.rolls((16, 0, 0, 0, 0, 0))
    with pytest.raises(ValueError):
        table.rolls((1, 2, 3))


# Race chances


def test_sure_win_with_a_gammon(table: BearoffTable) -> None:
    # One checker on the 1-point against fifteen on the home board, none off.
    values = outputs(table, home(1), home(0, 0, 0, 0, 0, 15))
    assert values.tolist() == pytest.approx([1.0, 1.0, 0.0, 0.0, 0.0])


def test_losing_a_gammon_unless_a_checker_comes_off_at_once(table: BearoffTable) -> None:
    # Fifteen on the 6-point against one on the 1-point: the player on roll cannot finish
    # first, and is gammoned unless the first roll bears a checker off (17 rolls of 36).
    values = outputs(table, home(0, 0, 0, 0, 0, 15), home(1))
    assert values[0] == pytest.approx(0.0)
    assert values[3] == pytest.approx(19 / 36)


def test_one_checker_each(table: BearoffTable) -> None:
    # On roll with a checker on the 6-point against one on the 1-point: win only by bearing
    # off at once (27 of 36).
    assert outputs(table, home(0, 0, 0, 0, 0, 1), home(1))[0] == pytest.approx(27 / 36)


def test_no_gammon_once_a_checker_is_off(table: BearoffTable) -> None:
    values = outputs(table, home(1), home(0, 0, 0, 0, 0, 14))  # the opponent has one off
    assert values[1] == 0.0


def test_is_bearoff_needs_both_sides_home_and_the_game_on() -> None:
    positions = [
        Position.from_points(home(2, 2), home(0, 3)),
        Position.from_points({7: 1}, home(3)),
        Position.initial(),
    ]
    assert is_bearoff(*boards(positions)).tolist() == [True, False, False]


# The evaluator that uses the table


class CountingEvaluator(FakeEvaluator):
    """The fake evaluator, counting the positions it is asked about."""

    def __init__(self) -> None:
        self.seen = 0

    def evaluate_boards(self, mine: Board, theirs: Board) -> Array:
        self.seen += len(mine)
        return super().evaluate_boards(mine, theirs)


def test_bearoff_evaluator_answers_bear_offs_from_the_table(table: BearoffTable) -> None:
    base = CountingEvaluator()
    evaluator = BearoffEvaluator(base, table)
    race = Position.from_points(home(0, 0, 0, 0, 0, 1), home(1))
    values = evaluator.evaluate_batch([race, Position.initial(), race])
    assert base.seen == 1  # only the starting position
    assert values[0, 0] == pytest.approx(27 / 36)
    assert values[2, 0] == pytest.approx(27 / 36)
    assert values[1, 0] == pytest.approx(0.5)
    assert evaluator.evaluate(race).win == pytest.approx(27 / 36)


# Files


def test_save_and_load(table: BearoffTable, tmp_path) -> None:
    path = tmp_path / "bearoff.npz"
    table.save(path)
    loaded = BearoffTable.load(path)
    assert np.abs(loaded.off - table.off).max() <= 1 / 65_535
    assert np.abs(loaded.first - table.first).max() <= 1 / 65_535


def test_shipped_table_is_the_built_one(table: BearoffTable) -> None:
    assert np.abs(shipped_table().off - table.off).max() <= 1 / 65_535


def test_bearoff_command_writes_the_table(tmp_path, capsys) -> None:
    out = tmp_path / "table.npz"
    assert main(["bearoff", "--out", str(out)]) == 0
    assert BearoffTable.load(out).rolls((1, 0, 0, 0, 0, 0))[1] == pytest.approx(1.0)
    assert "54264 positions" in capsys.readouterr().out


# GNU Backgammon as a reference (test-only)


def test_distributions_agree_with_gnubg(table: BearoffTable) -> None:
    gnubg = pytest.importorskip("gnubg_nn")
    counts = _all_positions()
    rng = np.random.default_rng(5)
    for index in rng.choice(np.arange(1, POSITIONS), 400, replace=False):
        reference = np.array(gnubg.bearoff_probabilities(tuple(int(c) for c in counts[index])))
        # gnubg leaves out the entry for 0 rolls, and stores uint16 fractions.
        ours = table.off[index][1 : 1 + len(reference)]
        assert np.abs(ours - reference).max() < 1e-3


def test_race_chances_agree_with_gnubg(table: BearoffTable) -> None:
    gnubg = pytest.importorskip("gnubg_nn")
    counts = _all_positions()
    rng = np.random.default_rng(6)
    for _ in range(200):
        mine = counts[rng.integers(1, POSITIONS)]
        theirs = counts[rng.integers(1, POSITIONS)]
        position = Position.from_points(home(*mine), home(*theirs))
        values = table.outputs(*boards([position]))[0]
        board = [list(position.theirs[1:26]), list(position.mine[1:26])]
        reference = gnubg.probabilities(board, 0)
        assert values[0] == pytest.approx(reference[0], abs=2e-3)
        assert values[1] == pytest.approx(reference[1], abs=2e-3)
        assert values[3] == pytest.approx(reference[3], abs=2e-3)


def test_gammon_chances_agree_with_gnubg(table: BearoffTable) -> None:
    gnubg = pytest.importorskip("gnubg_nn")
    # Both sides with all fifteen on their home boards, none off: gammons are live.
    for mine, theirs in [
        ((0, 0, 2, 3, 4, 6), (1, 1, 1, 1, 1, 10)),
        ((0, 0, 0, 0, 5, 10), (3, 3, 3, 3, 3, 0)),
        ((2, 2, 2, 3, 3, 3), (0, 0, 0, 0, 0, 15)),
    ]:
        position = Position.from_points(home(*mine), home(*theirs))
        values = table.outputs(*boards([position]))[0]
        board = [list(position.theirs[1:26]), list(position.mine[1:26])]
        reference = gnubg.probabilities(board, 0)
        assert values[[0, 1, 3]] == pytest.approx(
            [reference[0], reference[1], reference[3]], abs=5e-3
        )
