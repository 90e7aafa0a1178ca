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
from backgammon.bot.kernel.games import roll, seed_state
from backgammon.errors import BackgammonError
from backgammon.games import Board, rules_for


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
        mean, error = gr.rollout_board(game, board, arrays, trials, seed)
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
        mean, error = gr.rollout_board(game, board, arrays, 1440, seed=8)
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
    assert gr.rollout_board(game, board, arrays, 72) == (points, 0.0)


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
