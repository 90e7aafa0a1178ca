"""The compiled kernel agrees with the readable reference: the core's legal plays, the numpy
encodings and networks, and the bot's choices at 0 to 2 plies.

The first test to run compiles the kernel (or loads it from numba's cache in __pycache__).
A larger move generation check runs in bench/bot/kernel.py (``--check``).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from backgammon import ALL_ROLLS, Position, Variant
from backgammon.bot import Bot
from backgammon.bot.bearoff import BearoffEvaluator, is_bearoff
from backgammon.bot.encoding import boards, encode_contact, encode_race, is_race
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.kernel import (
    Kernel,
    KernelError,
    board_of,
    boards_of,
    legal_results,
    position_of,
)
from backgammon.bot.kernel import evaluate as kernel_evaluate
from backgammon.bot.kernel.movegen import generate, workspace
from backgammon.bot.network import flip_outputs
from backgammon.bot.search import DEFAULT_FILTERS, ROLL_WEIGHTS, Search
from backgammon.bot.shipped import load_shipped_networks, shipped_evaluator
from backgammon.moves import Step

_VARIANTS = (Variant.STANDARD, Variant.NACKGAMMON, Variant.STANDARD, Variant.HYPERGAMMON)


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions of seeded random games (a random legal play each turn), of every variant."""
    rng = random.Random(seed)
    found: list[Position] = []
    games = 0
    position = Position.initial()
    while len(found) < count:
        found.append(position)
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(plays).result if plays else position.flip()
        if position.is_game_over():
            games += 1
            position = Position.initial(_VARIANTS[games % len(_VARIANTS)])
    return found


def bot_positions(count: int, seed: int) -> list[Position]:
    """Positions of seeded games of the shipped bot at 0-ply against itself."""
    rng = random.Random(seed)
    kernel = Kernel.shipped()
    found: list[Position] = []
    board = board_of(Position.initial())
    while len(found) < count:
        position = position_of(board)
        found.append(position)
        dice = np.array([[rng.randint(1, 6), rng.randint(1, 6)]])
        board = kernel.best_results(board[None], dice)[0]
        if position_of(board).is_game_over():
            board = board_of(Position.initial())
    return found


def test_move_generation_gives_the_cores_results() -> None:
    """The results for all 21 rolls of 20,000 positions of random games (420,000 calls;
    bench/bot/kernel.py --check runs more): the kernel's distinct results are the results of the
    core's plays, one play for each."""
    ws = workspace()
    positions = random_positions(20_000, seed=11)
    assert sum(p.bar[0] > 0 for p in positions) > 2000
    assert sum(p.is_race() for p in positions) > 1000
    for position in positions:
        board = board_of(position)
        for high, low in ALL_ROLLS:
            plays = position.legal_plays((high, low))
            count = generate(ws, board, high, low)
            found = {row.tobytes() for row in ws[0][:count]}
            expected = {play.result.mine_bytes + play.result.theirs_bytes for play in plays}
            assert len(found) == count == len(plays), (position.id(), (high, low))
            assert found == expected, (position.id(), (high, low))


def _replayed(position: Position, steps: tuple[Step, ...]) -> bytes:
    """The board after ``steps`` moved one by one on the counts, as the kernel's boards are
    laid out (the opponent on roll). A step lands on an opposing blot (the opponent's point
    25 - target) exactly when it is marked as a hit, and sends it to the bar."""
    mine, theirs = bytearray(position.mine_bytes), bytearray(position.theirs_bytes)
    for step in steps:
        assert mine[step.from_point] > 0
        mine[step.from_point] -= 1
        mine[step.to_point] += 1
        there = theirs[25 - step.to_point] if step.to_point else 0
        assert there == (1 if step.hit else 0)
        if step.hit:
            theirs[25 - step.to_point] = 0
            theirs[25] += 1
    return bytes(theirs + mine)


def test_the_cores_plays_lead_to_the_kernels_results() -> None:
    """The kernel gives results, not moves; the moves people see are the core's. Replayed a
    step at a time, each play of 2,000 positions times 21 rolls reaches one of the kernel's
    results (a different one for each play), every step is one die's move (a checker borne
    off may use a larger die), a hit is marked exactly where an opposing blot stood, and all
    the plays of a roll use as many dice."""
    ws = workspace()
    for position in random_positions(2000, seed=17):
        board = board_of(position)
        for high, low in ALL_ROLLS:
            plays = position.legal_plays((high, low))
            count = generate(ws, board, high, low)
            kernel = {row.tobytes() for row in ws[0][:count]}
            reached = set()
            for play in plays:
                dice = [high] * 4 if high == low else [high, low]
                for step in play.steps:
                    distance = step.from_point - step.to_point
                    # Bearing off with a larger die: the least one that will do.
                    larger = [d for d in dice if d > distance and step.to_point == 0]
                    die = distance if distance in dice else min(larger, default=0)
                    assert die, (position.id(), (high, low), str(play))
                    dice.remove(die)
                reached.add(_replayed(position, play.steps))
            assert reached == kernel and len(reached) == len(plays), (position.id(), high, low)
            assert len({len(play.steps) for play in plays}) <= 1


def test_legal_results_takes_positions() -> None:
    position = Position.from_id("4HPwATDgc/ABMA")
    results = legal_results(position, (1, 3))
    assert {position_of(r) for r in results} == {p.result for p in position.legal_plays((3, 1))}
    stuck = Position.from_points({"bar": 1}, {p: 2 for p in range(1, 7)}, checkers=12)
    assert len(legal_results(stuck, (6, 6))) == 0


def test_encodings_are_the_numpy_encodings_bit_for_bit() -> None:
    positions = random_positions(3000, seed=12) + bot_positions(1000, seed=12)
    mine, theirs = boards(positions)
    kernel_boards = boards_of(positions)
    contact = kernel_evaluate.encode_batch(kernel_boards, False)
    np.testing.assert_array_equal(contact, encode_contact(mine, theirs))
    race = kernel_evaluate.encode_batch(kernel_boards, True)
    np.testing.assert_array_equal(race, encode_race(mine, theirs))


def test_evaluations_are_the_shipped_evaluators() -> None:
    positions = random_positions(3000, seed=13) + bot_positions(2000, seed=13)
    # Finished games, bear-offs and races are all among them.
    mine, theirs = boards(positions)
    assert is_bearoff(mine, theirs).sum() > 50 and is_race(mine, theirs).sum() > 200
    kernel_values = Kernel.shipped().evaluate(boards_of(positions))
    np.testing.assert_allclose(kernel_values, shipped_evaluator().reference_boards(mine, theirs),
                               atol=1e-5, rtol=0)
    # One path: the evaluators themselves answer from the kernel.
    np.testing.assert_array_equal(shipped_evaluator().evaluate_batch(positions), kernel_values)
    networks = load_shipped_networks()
    bare = Kernel(networks.contact, networks.race)
    np.testing.assert_allclose(
        bare.evaluate(boards_of(positions)),
        NetworkEvaluator(networks.contact, networks.race).reference_boards(mine, theirs),
        atol=1e-5, rtol=0,
    )
    assert isinstance(shipped_evaluator(), BearoffEvaluator)


def test_best_play_is_the_bots_at_0_ply() -> None:
    """On 2,000 decisions, the kernel's choice is the bot's, or one of equal equity (a tie
    that the two break in different orders)."""
    bot = Bot(plies=0)
    kernel = Kernel.shipped()
    rng = random.Random(14)
    positions = bot_positions(2000, seed=14)
    dice = np.array([[rng.randint(1, 6), rng.randint(1, 6)] for _ in positions])
    chosen = kernel.best_results(boards_of(positions), dice)
    same = 0
    for position, roll, result in zip(positions, dice, chosen, strict=True):
        play = bot.best_play(position, (int(roll[0]), int(roll[1])))
        expected = play.result if play is not None else position.flip()
        if position_of(result) == expected:
            same += 1
            continue
        values = kernel.evaluate(np.stack([result, board_of(expected)]))
        equity = values @ np.array([2.0, 1.0, 1.0, -1.0, -1.0])
        assert equity[0] == pytest.approx(equity[1], abs=1e-5), position.id()
    assert same >= 1990


@pytest.mark.parametrize(("plies", "count"), [(1, 100), (2, 20)])
def test_deep_play_is_the_bots(plies: int, count: int) -> None:
    """The kernel's play at 1 and 2 plies (which rollouts play) is the bot's of that depth,
    with the same move filters, on decisions of the bot's games."""
    bot = Bot(plies=plies)
    rng = random.Random(18)
    positions = bot_positions(count * 5, seed=18)[::5]
    dice = np.array([[rng.randint(1, 6), rng.randint(1, 6)] for _ in positions])
    chosen = Kernel.shipped().best_results(boards_of(positions), dice, plies, DEFAULT_FILTERS)
    for position, roll, result in zip(positions, dice, chosen, strict=True):
        play = bot.best_play(position, (int(roll[0]), int(roll[1])))
        expected = play.result if play is not None else position.flip()
        assert position_of(result) == expected, (position.id(), roll)


def test_deep_play_needs_filters_and_a_depth_it_has() -> None:
    board, dice = boards_of([Position.initial()]), np.array([[3, 1]])
    with pytest.raises(KernelError, match="filters"):
        Kernel.shipped().best_results(board, dice, 1)
    with pytest.raises(KernelError, match="0 to 2 plies"):
        Kernel.shipped().best_results(board, dice, 3, DEFAULT_FILTERS)


def test_selfplay_is_seeded_and_splits_without_change() -> None:
    kernel = Kernel.shipped()
    whole = kernel.selfplay(12, seed=5)
    halves = [kernel.selfplay(6, seed=5, first=first) for first in (0, 6)]
    np.testing.assert_array_equal(whole.points, np.concatenate([h.points for h in halves]))
    np.testing.assert_array_equal(whole.turns, np.concatenate([h.turns for h in halves]))
    assert set(np.abs(whole.points)) <= {1, 2, 3} and whole.turns.min() > 10
    assert not np.array_equal(whole.points, kernel.selfplay(12, seed=6).points)


def test_seeds_out_of_range_are_refused() -> None:
    with pytest.raises(KernelError, match="seed"):
        Kernel.shipped().selfplay(1, seed=-1)


def _deep_sample() -> list[Position]:
    """Positions of the bot's games with the end of a game among them: bear-offs in which
    some replies finish the game, and finished games."""
    late = [p for p in bot_positions(3000, seed=15) if p.is_race()]
    over = Position.from_points({}, {1: 2}, checkers=2).flip()
    return bot_positions(60, seed=15)[::4] + late[-12:] + [over]


@pytest.mark.parametrize("plies", [0, 1, 2])
def test_deep_values_are_the_python_searchs(plies: int) -> None:
    """The kernel's n-ply values are those of the Python search (replies chosen and valued
    by the numpy evaluator), to float32 rounding."""
    positions = _deep_sample()
    if plies == 2:
        positions = positions[::3]
    assert any(p.is_game_over() for p in positions)
    expected = Search(shipped_evaluator()).values(positions, plies)
    found = Kernel.shipped().values(boards_of(positions), plies)
    np.testing.assert_allclose(found, expected, atol=1e-5, rtol=0)


def test_three_ply_averages_the_two_ply_values_of_the_replies() -> None:
    """3-ply (too slow for the Python search) is the average over the rolls of the 2-ply
    values of the 0-ply replies, each turned round."""
    kernel = Kernel.shipped()
    position = next(p for p in bot_positions(400, seed=16) if p.is_race())
    board = board_of(position)
    replies = kernel.best_results(
        np.repeat(board[None], len(ALL_ROLLS), axis=0), np.array(ALL_ROLLS, dtype=np.int64)
    )
    expected = ROLL_WEIGHTS @ flip_outputs(kernel.values(replies, 2))
    np.testing.assert_allclose(kernel.values(board[None], 3)[0], expected, atol=1e-6, rtol=0)


def test_deep_values_refuse_depths_past_the_deepest() -> None:
    with pytest.raises(KernelError, match="0 to 3 plies"):
        Kernel.shipped().values(boards_of([Position.initial()]), 4)
