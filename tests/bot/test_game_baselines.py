"""The baseline players of the other games and the match runner that measures players
(``backgammon.bot.games``): the heuristic prefers the obviously better play in a position made
by hand for each game, the runner scores every kind of result the rules give, a tiny match
of each game replays from its seed, and the first TD player's parts do what they say."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from backgammon import Side
from backgammon.bot.games import (
    DiceStream,
    HeuristicPlayer,
    MatchResult,
    RandomPlayer,
    features,
    play_match,
    score_for_starter,
)
from backgammon.bot.games.td import INPUTS, PER_SIDE, Network, TDPlayer, encode, train
from backgammon.games import Board, Ending, GamePlay, rules_for

OTHER_GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")


def heuristic_play(game: str, board: Board, dice: tuple[int, int]) -> GamePlay:
    rules = rules_for(game)
    plays = rules.legal_plays(rules.check(board), dice)
    assert len(plays) > 1, "a position with a choice"
    return HeuristicPlayer().choose(rules, plays, random.Random(0))


@pytest.mark.parametrize("game", ["portes", "tavla"])
def test_heuristic_makes_the_five_point_with_an_opening_three_one(game: str) -> None:
    assert str(heuristic_play(game, rules_for(game).initial(), (3, 1))) == "8/5 6/5"


def test_plakoto_heuristic_pins_a_lone_checker() -> None:
    # The opponent's lone checker on their 20 (my 5): 8/5 pins it.
    board = Board.from_points({24: 10, 13: 4, 8: 1}, {24: 12, 13: 2, 20: 1})
    play = heuristic_play("plakoto", board, (3, 1))
    assert "8/5*" in str(play)
    assert features(rules_for("plakoto"), play.result.flip()).pinned == 1


def test_plakoto_heuristic_pins_the_mother_and_wins() -> None:
    # My start is empty, so pinning their last checker on their 24 (my 1) wins at once.
    board = Board.from_points({13: 12, 6: 3}, {24: 1, 5: 14})
    play = heuristic_play("plakoto", board, (5, 2))
    assert "6/1*" in str(play)
    result = rules_for("plakoto").outcome(play.result)
    assert result is not None and result.ending is Ending.MOTHER


def test_fevga_heuristic_bears_off_two_rather_than_one() -> None:
    board = Board.from_points({3: 2, 1: 1}, {3: 15})  # a race: both past each other
    play = heuristic_play("fevga", board, (3, 1))
    assert play.result.flip().off[0] == 14


def test_long_nardy_heuristic_takes_the_win() -> None:
    board = Board.from_points({2: 1, 1: 1}, {24: 15})
    play = heuristic_play("long-nardy", board, (2, 1))
    result = rules_for("long-nardy").outcome(play.result)
    assert result is not None and result.points == 2  # a mars: the loser bore off none


def test_acey_deucey_heuristic_hits_and_names_the_double_that_wins() -> None:
    board = Board.from_points({13: 5, 8: 3, 6: 3}, {13: 5, 8: 3, 6: 3, 20: 1})
    assert any(step.hit for step in heuristic_play("acey-deucey", board, (2, 1)).steps)
    home = Board.from_points({6: 4}, {6: 15})
    assert HeuristicPlayer().name_double(rules_for("acey-deucey"), home,
                                         random.Random(0)) == 6


def test_features_count_blots_only_where_a_direct_shot_reaches_them() -> None:
    rules = rules_for("portes")
    # My blot on 10 with their checker on my 4 (their 21): six away, a direct shot.
    assert features(rules, Board.from_points({10: 1, 6: 14}, {21: 1, 1: 14})).blots == 1
    # Seven away: no direct shot.
    assert features(rules, Board.from_points({11: 1, 6: 14}, {21: 1, 1: 14})).blots == 0
    # Nothing is exposed where one checker holds a point.
    fevga = rules_for("fevga")
    assert features(fevga, Board.from_points({10: 1, 6: 14}, {24: 15})).blots == 0


@pytest.mark.parametrize(("game", "mine", "theirs", "ending", "points"), [
    ("tavla", {}, {6: 14}, Ending.SINGLE, 1),
    ("portes", {}, {19: 1, 6: 14}, Ending.GAMMON, 2),  # a backgammon counts 2 in Tavli
    ("acey-deucey", {}, {19: 1, 6: 14}, Ending.BACKGAMMON, 3),
    ("fevga", {}, {6: 15}, Ending.GAMMON, 2),
])
def test_the_runner_scores_a_borne_off_win_for_the_side_that_won(
        game: str, mine: dict[int, int], theirs: dict[int, int], ending: Ending,
        points: int) -> None:
    rules = rules_for(game)
    result = rules.outcome(Board.from_points(mine, theirs))
    assert result is not None and result.ending is ending and result.winner is Side.ON_ROLL
    assert score_for_starter(result, starter_on_roll=True) == points
    assert score_for_starter(result, starter_on_roll=False) == -points


def test_the_runner_scores_plakoto_mother_and_draw() -> None:
    rules = rules_for("plakoto")
    # My mother pinned under their checker; they have left their own start: they win 2.
    mother = Board.from_points({24: 1, 6: 14}, {1: 1, 19: 14}, mine_pinned=[24])
    result = rules.outcome(mother)
    assert result is not None and result.ending is Ending.MOTHER
    assert score_for_starter(result, starter_on_roll=True) == -2
    assert score_for_starter(result, starter_on_roll=False) == 2
    draw = Board.from_points({24: 1, 1: 1, 6: 13}, {24: 1, 1: 1, 6: 13}, mine_pinned=[24],
                             theirs_pinned=[24])
    result = rules.outcome(draw)
    assert result is not None and result.ending is Ending.DRAW
    assert score_for_starter(result, starter_on_roll=True) == 0


def test_match_figures_are_over_the_pairs_sharing_their_dice() -> None:
    match = MatchResult("portes", "a", "b", (2, -1, 1, 1), Counter(), 0)
    assert match.points_per_game == 0.75
    assert match.standard_error == pytest.approx(0.25)  # pairs 0.5 and 1.0
    assert match.wins == 0.75
    assert math.isnan(MatchResult("portes", "a", "b", (1, 0), Counter(), 0).standard_error)


def test_a_dice_stream_replays_from_its_seed_and_opens_without_a_double() -> None:
    throws = [DiceStream("x").throw() for _ in range(2)]
    assert throws[0] == throws[1]
    stream = DiceStream("y")
    assert all(a != b for a, b in (stream.opening(doubles=False) for _ in range(50)))


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_a_tiny_match_replays_from_its_seed_and_scores_what_the_game_allows(
        game: str) -> None:
    rules = rules_for(game)
    first = play_match(rules, HeuristicPlayer(), RandomPlayer(), 2, seed=7)
    again = play_match(rules, HeuristicPlayer(), RandomPlayer(), 2, seed=7)
    assert first == again
    assert first.games == 2 and sum(first.endings.values()) == 2
    assert {abs(score) for score in first.scores} <= set(rules.points.values())
    assert first.turns > 2


def test_a_match_needs_an_even_number_of_games() -> None:
    with pytest.raises(ValueError, match="even number"):
        play_match(rules_for("portes"), RandomPlayer(), RandomPlayer(), 3)


def test_td_encoding_counts_each_sides_checkers_on_the_movers_points() -> None:
    rules = rules_for("fevga")
    board = Board.from_points({24: 14, 20: 1}, {24: 15})
    inputs = encode(rules, [board])[0]
    assert inputs.shape == (INPUTS,)
    assert inputs[20 - 1] == 1 and inputs[24 + 20 - 1] == 0  # one checker on my 20
    assert inputs[72 + 24 - 1] == pytest.approx((14 - 3) / 2)
    # The opponent's head, their 24, is my 12: their column for my point 12.
    assert inputs[PER_SIDE + 12 - 1] == 1 and inputs[PER_SIDE + 72 + 12 - 1] == 6


def test_td_training_replays_from_its_seed_and_moves_the_weights() -> None:
    rules = rules_for("long-nardy")
    first, second = Network.fresh(8, seed=3), Network.fresh(8, seed=3)
    before = first.w1.copy()
    assert train(rules, first, 1, seed=5) == train(rules, second, 1, seed=5)
    assert (first.w1 == second.w1).all() and not (first.w1 == before).all()


def test_td_player_takes_a_winning_play_whatever_its_weights() -> None:
    rules = rules_for("long-nardy")
    board = Board.from_points({2: 1, 1: 1}, {24: 15})
    plays = rules.legal_plays(board, (2, 1))
    play = TDPlayer(Network.fresh(8, seed=1)).choose(rules, plays, random.Random(0))
    assert rules.outcome(play.result) is not None
