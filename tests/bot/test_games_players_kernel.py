"""The kernel's players of the other games (``bot/kernel/players.py``) against the Python
ones: the network's encoding and values are td.py's, its choices and named doubles are
TDPlayer's, the heuristic's counts and choices are HeuristicPlayer's; compiled matches
score as the Python ones; TD training replays from its seed; a noisy player still plays
legal plays."""

from __future__ import annotations

import random

import numpy as np
import pytest
from test_games_kernel import OTHER_GAMES, ROLLS, random_boards

from backgammon.bot.games import WEIGHTS, HeuristicPlayer, RandomPlayer, features
from backgammon.bot.games.compiled import compiled_match
from backgammon.bot.games.td import Network, TDPlayer, encode, train
from backgammon.bot.kernel import boards as kb
from backgammon.bot.kernel import duels as kd
from backgammon.bot.kernel import players as kp
from backgammon.games import Board, rules_for

#: Boards a game for the choices (each with every other roll).
CHOICES = 150


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_encodings_and_values_are_td_pys(game: str) -> None:
    rules = rules_for(game)
    boards = random_boards(game)
    arrays = kb.boards_array(boards)
    code = kb.game_code(game)
    dense = np.array([kp.encode_dense(code, a) for a in arrays])
    assert np.array_equal(dense, encode(rules, boards))
    net = Network.fresh(16, seed=2)
    values = kp.values(code, arrays, net.w1, net.b1, net.w2, np.array([net.b2]))
    assert np.abs(values - net.values(dense)).max() < 1e-12


def _plays_and_arrays(game: str):  # type: ignore[no-untyped-def]
    rules = rules_for(game)
    for board in random_boards(game)[:CHOICES]:
        for roll in ROLLS[::2]:
            plays = rules.legal_plays(board, roll)
            if len(plays) > 1:
                yield rules, board, roll, plays


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_networks_choices_are_td_players(game: str) -> None:
    net = Network.fresh(16, seed=4)
    player = TDPlayer(net)
    code = kb.game_code(game)
    chosen = np.zeros((4, 26), dtype=np.int8)
    seen = 0
    for rules, board, roll, plays in _plays_and_arrays(game):
        expected = player.choose(rules, plays, random.Random(0))
        kp.choose(code, kb.board_array(board), *roll, net.w1, net.b1, net.w2,
                  np.array([net.b2]), chosen)
        assert kb.board_of_array(chosen) == expected.result
        seen += 1
        if game == "acey-deucey" and seen % 10 == 0:
            doubled = kp.named_double(code, kb.board_array(board), net.w1, net.b1, net.w2,
                                      np.array([net.b2]))
            assert doubled == player.name_double(rules, board, random.Random(0))
    assert seen > 100


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_heuristics_counts_and_choices_are_the_python_ones(game: str) -> None:
    weights = np.array([float(WEIGHTS[game].get(n, 0)) for n in kd.FEATURES])
    code = kb.game_code(game)
    heuristic = HeuristicPlayer()
    turned = np.zeros((4, 26), dtype=np.int8)
    ws = kb.workspace()
    for rules, board, roll, plays in _plays_and_arrays(game):
        for play in plays:
            if rules.outcome(play.result) is None:
                kb.flip(kb.board_array(play.result), turned)
                assert kd.heuristic_score(code, turned, weights) == \
                    features(rules, play.result.flip()).score(WEIGHTS[game])
        count = kb.generate(ws, code, kb.board_array(board), *roll)
        best, score = kd._heuristic_best(code, ws, count, weights, turned)
        expected = heuristic.choose(rules, plays, random.Random(0))
        assert score == heuristic.score(rules, expected)
        if game != "portes":  # the kernel's order is the core's: ties go the same way
            assert kb.board_of_array(ws[7][best]) == expected.result


def test_compiled_matches_score_as_the_python_baselines() -> None:
    # docs/lab/game-baselines.md: the heuristic scores +1.49 ± 0.02 a game against random
    # in Fevga (Python, 1,000 games); the kernel's match must agree within the errors.
    rules = rules_for("fevga")
    match = compiled_match(rules, HeuristicPlayer(), RandomPlayer(), 400, seed=3)
    assert abs(match.points_per_game - 1.486) < 4 * (match.standard_error + 0.018)
    again = compiled_match(rules, HeuristicPlayer(), RandomPlayer(), 400, seed=3)
    assert again.scores == match.scores and sum(match.endings.values()) == 400


def test_a_plakoto_match_counts_its_mothers() -> None:
    match = compiled_match(rules_for("plakoto"), HeuristicPlayer(), RandomPlayer(), 100)
    assert match.endings["mother"] > 0 and set(match.endings) <= {
        "single", "gammon", "mother", "draw"}


def test_td_training_replays_and_goes_on_where_it_stopped() -> None:
    rules = rules_for("acey-deucey")
    one, two = Network.fresh(8, seed=3), Network.fresh(8, seed=3)
    train(rules, one, 4, seed=5)
    train(rules, two, 2, seed=5)
    train(rules, two, 2, seed=5, first=2)
    assert np.array_equal(one.w1, two.w1) and one.b2 == two.b2


def test_noise_changes_some_choices_not_the_legality() -> None:
    rules = rules_for("portes")
    board = Board.from_points({13: 5, 8: 3, 6: 5, 24: 2}, {13: 5, 8: 3, 6: 5, 24: 2})
    plays = rules.legal_plays(board, (3, 1))
    net = Network.fresh(16, seed=9)
    noisy = TDPlayer(net, noise=1.0)
    chosen = {noisy.choose(rules, plays, random.Random(seed)).result for seed in range(40)}
    assert len(chosen) > 1 and chosen <= {play.result for play in plays}
