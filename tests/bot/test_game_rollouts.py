"""The kernel's rollouts of the other games (``bot/kernel/game_rollouts.py``) against a slow
one through the rules objects: the same trials, the same dice, the same points; a finished
game scores exactly; bad requests are refused; self-play positions are boards to throw on."""

from __future__ import annotations

import math
import random
import statistics

import numpy as np
import pytest

from backgammon.bot.games.match import _turn, score_for_starter
from backgammon.bot.games.shipped import shipped_network
from backgammon.bot.games.td import Network, TDPlayer
from backgammon.bot.kernel import boards as kb
from backgammon.bot.kernel import game_rollouts as gr
from backgammon.bot.kernel import players as kp
from backgammon.bot.kernel.games import roll, seed_state
from backgammon.errors import BackgammonError
from backgammon.games import Board, rules_for

GAMES = list(kb.GAME_CODES)


class KernelDice:
    """The throws the kernel's trial ``t`` of a position draws after its first."""

    def __init__(self, seed: int, position: int, trial: int) -> None:
        self.state = seed_state(seed, position * (1 << 20) + trial)

    def throw(self) -> tuple[int, int]:
        r = roll(self.state)
        return r // 6 + 1, r % 6 + 1


def python_trial(game: str, network: Network, board: Board, first: tuple[int, int],
                 dice: KernelDice) -> int:
    """One trial through the rules objects (match.py's turns, td.py's player): the points
    for the player on roll on ``board``."""
    rules = rules_for(game)
    player = TDPlayer(network)
    rng = random.Random(0)
    mover, throw = 0, first
    while True:
        board = _turn(rules, player, rng, board, throw, dice)  # type: ignore[arg-type]
        mover = 1 - mover
        result = rules.outcome(board)
        if result is not None:
            return score_for_starter(result, mover == 0)
        throw = dice.throw()


def positions(game: str, count: int) -> list[Board]:
    """Late boards of the shipped network's self-play (short trials, for the slow side)."""
    net = shipped_network(game)
    code = kb.game_code(game)
    start = kb.board_array(rules_for(game).initial())
    boards, origin = gr.self_play_positions(code, start, net.w1, net.b1, net.w2,
                                            np.array([net.b2]), 6, 3, 0.5)
    late = [boards[i] for i in range(len(boards)) if i + 1 < len(boards)
            and origin[i + 1] == origin[i] and (i + 4 >= len(boards) or
                                                 origin[i + 4] != origin[i])]
    assert len(late) >= count
    return [kb.board_of_array(b) for b in late[:count]]


@pytest.mark.parametrize("game", ["fevga", "plakoto", "acey-deucey", "long-nardy"])
def test_the_kernels_trials_are_the_rules_trials(game: str) -> None:
    """Trial for trial, the kernel plays what the rules objects and td.py's player play with
    the same dice, so the means and the stratified errors are the same."""
    net = shipped_network(game)
    arrays = (net.w1, net.b1, net.w2, np.array([net.b2]))
    trials, seed = 72, 11
    for board in positions(game, 2):
        points = [python_trial(game, net, board, (t % 36 // 6 + 1, t % 36 % 6 + 1),
                               KernelDice(seed, 0, t)) for t in range(trials)]
        mean, error = gr.rollout_board(game, board, arrays, trials, seed, luck=False)
        assert mean == pytest.approx(statistics.fmean(points), abs=1e-12)
        strata = [points[r::36] for r in range(36)]
        expected = math.sqrt(sum(statistics.variance(s) / len(s) for s in strata)) / 36
        assert error == pytest.approx(expected, abs=1e-12)


def test_a_rollout_agrees_with_independent_dice_within_its_errors() -> None:
    """Against the rules objects with dice of their own (not stratified), the means lie
    within three standard errors of each other."""
    game = "fevga"
    net = shipped_network(game)
    arrays = (net.w1, net.b1, net.w2, np.array([net.b2]))
    rng = random.Random(5)

    class OwnDice:
        def throw(self) -> tuple[int, int]:
            return rng.randint(1, 6), rng.randint(1, 6)

    for board in positions(game, 2):
        dice = OwnDice()
        points = [python_trial(game, net, board, dice.throw(), dice)  # type: ignore[arg-type]
                  for _ in range(300)]
        slow, slow_error = statistics.fmean(points), statistics.stdev(points) / math.sqrt(300)
        for luck in (False, True):
            mean, error = gr.rollout_board(game, board, arrays, 1440, seed=8, luck=luck)
            assert abs(mean - slow) < 3 * math.hypot(error, slow_error)


def side(off: int = 0, **points: int) -> list[int]:
    """A side's 26 counts: ``off`` borne off, ``p6=15`` fifteen on the 6-point."""
    counts = [off] + [0] * 25
    for name, count in points.items():
        counts[int(name[1:])] = count
    return counts


@pytest.mark.parametrize(("game", "board", "points"), [
    # The last checker on the 1-point bears off on any throw: a gammon (none of theirs off).
    ("fevga", Board(side(14, p1=1), side(p13=15)), 2),
    ("portes", Board(side(14, p1=1), side(1, p13=14)), 1),
    # Theirs bear off their last checker next turn, whatever the mover throws: a gammon lost.
    ("long-nardy", Board(side(p20=15), side(14, p1=1)), -2),
    # Acey-deucey: a backgammon lost (the mover's checkers in the winner's home board).
    ("acey-deucey", Board(side(p24=15), side(14, p1=1)), -3),
])
def test_a_settled_position_scores_exactly(game: str, board: Board, points: int) -> None:
    net = Network.fresh(8, seed=1)
    arrays = (net.w1, net.b1, net.w2, np.array([net.b2]))
    assert gr.rollout_board(game, board, arrays, 72, luck=False) == (points, 0.0)
    if game != "acey-deucey":  # where a 1-2 throws again: a luck of its own, not settled
        # The lucks of the first throw, stratified, sum to nothing; the next throw ends it.
        mean, error = gr.rollout_board(game, board, arrays, 72, luck=True)
        assert mean == pytest.approx(points, abs=1e-12)
        assert error == pytest.approx(0.0, abs=1e-6)


def kernel_arrays(game: str) -> tuple[Network, tuple[np.ndarray, ...]]:
    net = shipped_network(game)
    return net, (net.w1, net.b1, net.w2, np.array([net.b2]))


def luck_of(game: str, board: np.ndarray, d1: int, d2: int) -> float:
    """The kernel's luck of throwing (``d1``, ``d2``) on ``board``, for the mover."""
    _, (w1, b1, w2, b2) = kernel_arrays(game)
    scratch = np.empty_like(board)
    return float(gr._luck(kb.game_code(game), kb.workspace(), board, scratch,
                          np.empty_like(board), d1, d2, w1, b1, w2, b2,
                          np.zeros(kp.INPUTS, dtype=np.int64),
                          np.zeros(kp.INPUTS, dtype=np.float64),
                          np.zeros(b1.shape[0], dtype=np.float64)))


@pytest.mark.parametrize("game", GAMES)
def test_a_throws_luck_averages_nothing_over_the_36(game: str) -> None:
    """Each of the 36 permutations by its chance: the lucks sum to nothing, each double
    counted once and the others twice, in either order (what keeps the estimate unbiased)."""
    for board in positions(game, 3):
        array = kb.board_array(board)
        lucks = [luck_of(game, array, a, b) for a in range(1, 7) for b in range(1, 7)]
        assert sum(lucks) == pytest.approx(0.0, abs=1e-12)
        assert luck_of(game, array, 5, 3) == luck_of(game, array, 3, 5)
        assert max(map(abs, lucks)) > 0.0


def test_acey_deuceys_one_two_is_valued_through_the_named_double() -> None:
    """The 1-2's value is the board after the named double's play, the mover on roll
    again (they throw again): the kernel's own choice, name and value, step by step."""
    game = "acey-deucey"
    _, (w1, b1, w2, b2) = kernel_arrays(game)
    code = kb.game_code(game)
    checked = 0
    for board in positions(game, 6):
        array = kb.board_array(board)
        after = np.empty_like(array)
        if not kp.choose(code, array, 1, 2, w1, b1, w2, b2, after):
            continue
        mine = np.empty_like(after)
        kb.flip(after, mine)
        die = kp.named_double(code, mine, w1, b1, w2, b2)
        if not kp.choose(code, mine, die, die, w1, b1, w2, b2, after):
            continue
        if kb.outcome(code, after)[0]:
            continue
        again = np.empty_like(after)
        kb.flip(after, again)
        expected = float(kp.values(code, again[None], w1, b1, w2, b2)[0])
        value = gr._roll_value(code, kb.workspace(), array, np.empty_like(array),
                               np.empty_like(array), 1, 2, w1, b1, w2, b2,
                               np.zeros(kp.INPUTS, dtype=np.int64),
                               np.zeros(kp.INPUTS, dtype=np.float64),
                               np.zeros(b1.shape[0], dtype=np.float64))
        assert value == pytest.approx(expected, abs=1e-12)
        checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game", ["fevga", "acey-deucey"])
def test_the_luck_adjustment_is_unbiased_and_cuts_the_spread(game: str) -> None:
    """On the same boards and dice, the means with and without the lucks agree within
    their errors, and the lucks take out part of a trial's spread."""
    _, arrays = kernel_arrays(game)
    for board in positions(game, 2):
        plain, plain_error = gr.rollout_board(game, board, arrays, 1440, seed=3, luck=False)
        mean, error = gr.rollout_board(game, board, arrays, 1440, seed=3, luck=True)
        assert abs(mean - plain) < 3 * math.hypot(error, plain_error)
        assert error < 0.7 * plain_error


def test_a_seed_replays_a_rollout_with_luck() -> None:
    _, arrays = kernel_arrays("plakoto")
    board = positions("plakoto", 1)[0]
    first = gr.rollout_board("plakoto", board, arrays, 72, seed=4, luck=True)
    assert gr.rollout_board("plakoto", board, arrays, 72, seed=4, luck=True) == first
    assert gr.rollout_board("plakoto", board, arrays, 72, seed=5, luck=True) != first


def test_bad_requests_are_refused() -> None:
    net = Network.fresh(8, seed=1)
    arrays = (net.w1, net.b1, net.w2, np.array([net.b2]))
    board = rules_for("fevga").initial()
    for trials in (0, 36, 100):
        with pytest.raises(BackgammonError, match="multiple of 36"):
            gr.rollout_board("fevga", board, arrays, trials)
    over = Board(side(p6=15), side(15))
    with pytest.raises(BackgammonError, match="over"):
        gr.rollout_board("fevga", over, arrays, 72)
    with pytest.raises(BackgammonError, match="not 'chess'"):
        gr.rollout_board("chess", board, arrays, 72)


def test_self_play_positions_are_boards_to_throw_on() -> None:
    game = "plakoto"
    rules = rules_for(game)
    net = Network.fresh(8, seed=2)
    code = kb.game_code(game)
    start = kb.board_array(rules.initial())
    arrays = (net.w1, net.b1, net.w2, np.array([net.b2]))
    boards, origin = gr.self_play_positions(code, start, *arrays, 10, 1, 0.1)
    again, _ = gr.self_play_positions(code, start, *arrays, 10, 1, 0.1)
    assert np.array_equal(boards, again)  # the seed replays them
    assert len(boards) > 10 and list(origin) == sorted(origin)
    for array in boards:
        board = kb.board_of_array(array)
        assert rules.outcome(board) is None
        assert sum(board.mine) + sum(board.theirs) == 30
