"""docs/guide/games.md, "Portes", "Tavla" and "Plakoto": one test per rule.

Boards are written on each side's own numbers (``Board.from_points(mine, theirs)``); in these
games the sides travel against each other, so the mover's point ``p`` is the opponent's
``25 - p``. Checkers not placed are borne off.
"""

from __future__ import annotations

from backgammon import Position, Side
from backgammon.dice import Dice
from backgammon.games import Board, Ending, GameRules, Plakoto, Portes, Result, Tavla


def plays(rules: GameRules, board: Board, dice: Dice) -> set[str]:
    """The legal plays in notation; the board is checked first, and the dice's order must
    not matter."""
    rules.check(board)
    found = {str(play) for play in rules.legal_plays(board, dice)}
    assert {p.result for p in rules.legal_plays(board, dice)} == \
        {p.result for p in rules.legal_plays(board, dice[::-1])}
    return found


# Portes


def test_portes_plays_backgammons_moves_from_backgammons_layout() -> None:
    portes = Portes()
    assert portes.initial().to_position() == Position.initial()
    position = Position.from_points({8: 1, 6: 2}, {21: 1, 18: 2})
    board = Board.from_position(position)
    assert {p.result.to_position() for p in portes.legal_plays(board, (2, 1))} == \
        {p.result for p in position.legal_plays((2, 1))}


def test_portes_has_no_cube_and_the_opening_winner_throws_both_dice_afresh() -> None:
    assert not Portes().cube and Portes().opening_reroll


def test_portes_a_backgammon_counts_as_a_gammon_two_points() -> None:
    # The loser has a checker on the winner's 1-point: backgammon's triple game.
    board = Board.from_points({}, {24: 1, 20: 14})
    assert Portes().outcome(board) == Result(Side.ON_ROLL, Ending.GAMMON, 2)


def test_portes_a_single_game_scores_one_point() -> None:
    board = Board.from_points({}, {20: 14})
    assert Portes().outcome(board) == Result(Side.ON_ROLL, Ending.SINGLE, 1)


# Tavla


def test_tavla_a_checker_that_hits_in_the_home_board_stays_there() -> None:
    """No hit-and-run in the home board: the checker that hit on the mover's 4-point may not
    move on with the other die (Portes allows 6/4* 4/3)."""
    # The opponent's blot on the mover's 4 (their 21), their point on the mover's 7.
    board = Board.from_points({8: 1, 6: 2}, {21: 1, 18: 2})
    assert plays(Tavla(), board, (2, 1)) == {"6/4* 6/5", "6/5 5/3", "8/6 6/5"}
    assert "6/4* 4/3" in plays(Portes(), board, (2, 1))


def test_tavla_a_checker_may_hit_and_run_outside_the_home_board() -> None:
    board = Board.from_points({13: 1, 6: 14}, {14: 1, 24: 14})
    assert "13/11* 11/10" in plays(Tavla(), board, (2, 1))


def test_tavla_the_hitting_checker_stays_but_another_on_its_point_may_move() -> None:
    """1-1: the checker that hit on 5 stays; a second checker that joins it may go on."""
    board = Board.from_points({6: 2, 13: 13}, {20: 1, 24: 14})
    assert "6/5* 6/5 5/4 4/3" in plays(Tavla(), board, (1, 1))
    for rules, stays in ((Tavla(), True), (Portes(), False)):
        hits = [p.result.flip() for p in rules.legal_plays(board, (1, 1))
                if any(step.hit for step in p.steps)]
        assert all(after.mine[5] >= 1 for after in hits) is stays


def test_tavla_a_mars_scores_two_and_there_is_no_backgammon_or_cube() -> None:
    assert Tavla().outcome(Board.from_points({}, {24: 1, 20: 14})) == \
        Result(Side.ON_ROLL, Ending.GAMMON, 2)
    assert not Tavla().cube and Tavla().opening_reroll


def test_tavla_must_use_both_dice_or_the_larger() -> None:
    # 20/14 or 20/15 alone: each blocked after (the opponent's point on 9), 24 blocked.
    board = Board.from_points({20: 1, 24: 14}, {16: 2, 7: 2, 6: 2, 24: 9})
    assert plays(Tavla(), board, (6, 5)) == {"20/14"}


# Plakoto


def test_plakoto_starts_with_all_fifteen_on_the_opponents_one_point() -> None:
    board = Plakoto().initial()
    assert board.mine[24] == board.theirs[24] == 15
    assert plays(Plakoto(), board, (6, 5)) == {"24/18 18/13", "24/18 24/19"}


def test_plakoto_a_lone_checker_is_pinned_not_hit() -> None:
    board = Board.from_points({13: 1, 24: 14}, {15: 1, 24: 14})  # their 15 is our 10
    play = next(p for p in Plakoto().legal_plays(board, (3, 1)) if "13/10*" in str(p))
    opponent = play.result  # the opponent on roll
    assert opponent.mine[15] == 1 and opponent.pinned()[0] == {15}
    assert opponent.bar == (0, 0)


def test_plakoto_a_checker_may_pin_and_move_on_which_frees_the_pinned_one() -> None:
    board = Board.from_points({13: 1, 24: 14}, {15: 1, 24: 14})
    play = next(p for p in Plakoto().legal_plays(board, (3, 2)) if str(p) == "13/10* 10/8")
    assert play.result.pinned() == (frozenset(), frozenset())


def test_plakoto_a_pinned_checker_cannot_move() -> None:
    board = Board.from_points({10: 1, 24: 14}, {15: 1, 24: 14}, mine_pinned=[10])
    for play in Plakoto().legal_plays(board, (2, 1)):
        assert all(step.from_point != 10 for step in play.steps)
        assert play.result.theirs[10] == 1


def test_plakoto_the_pinner_may_stack_more_checkers_on_the_pinned_checker() -> None:
    board = Board.from_points({10: 1, 12: 1, 24: 13}, {15: 1, 24: 14}, theirs_pinned=[15])
    assert any("12/10" in play for play in plays(Plakoto(), board, (2, 1)))


def test_plakoto_the_pinned_side_may_not_land_on_its_pinned_checker() -> None:
    board = Board.from_points({11: 1, 10: 1, 24: 13}, {15: 1, 24: 14}, mine_pinned=[10])
    for play in Plakoto().legal_plays(board, (1, 2)):
        assert all(step.to_point != 10 for step in play.steps)


def test_plakoto_two_checkers_close_a_point() -> None:
    board = Board.from_points({12: 1, 24: 14}, {15: 2, 24: 13})
    assert not any("/10" in play for play in plays(Plakoto(), board, (2, 1)))


def test_plakoto_the_last_pinner_leaving_frees_the_pinned_checker() -> None:
    board = Board.from_points({10: 1, 24: 14}, {15: 1, 24: 14}, theirs_pinned=[15])
    freed = [p for p in Plakoto().legal_plays(board, (2, 1)) if str(p).startswith("10/")]
    assert freed and all(p.result.pinned()[0] == frozenset() for p in freed)


def test_plakoto_no_bearing_off_while_a_checker_is_pinned_in_the_home_board() -> None:
    pinned = Board.from_points({3: 1, 2: 14}, {22: 1, 24: 14}, mine_pinned=[3])
    assert plays(Plakoto(), pinned, (6, 5)) == set()
    free = Board.from_points({3: 1, 2: 14}, {24: 15})
    assert plays(Plakoto(), free, (6, 5)) == {"3/off 2/off"}


def test_plakoto_a_pinned_mother_loses_two_points_at_once() -> None:
    """The mover pins the opponent's last checker on its starting point (their 24, our 1);
    the mover has no checker left on its own start, so the game is over."""
    board = Board.from_points({2: 1, 6: 14}, {24: 1, 12: 14})
    play = next(p for p in Plakoto().legal_plays(board, (1, 1)) if "2/1*" in str(p))
    assert Plakoto().outcome(play.result) == Result(Side.OPPONENT, Ending.MOTHER, 2)


def test_plakoto_a_pinned_mother_waits_while_the_pinner_keeps_checkers_on_its_start() -> None:
    board = Board.from_points({2: 1, 24: 2, 6: 12}, {24: 1, 12: 14})
    play = next(p for p in Plakoto().legal_plays(board, (1, 1))
                if "2/1*" in str(p) and p.result.theirs[24])
    assert Plakoto().outcome(play.result) is None
    # Once the pinner's last checker leaves its start, the pinned mother loses.
    later = Board.from_points({24: 1, 12: 14}, {1: 1, 6: 14}, mine_pinned=[24])
    assert Plakoto().outcome(later) == Result(Side.OPPONENT, Ending.MOTHER, 2)


def test_plakoto_both_mothers_pinned_is_a_draw() -> None:
    board = Board.from_points({24: 1, 1: 1, 6: 13}, {24: 1, 1: 1, 6: 13},
                              mine_pinned=[24], theirs_pinned=[24])
    assert Plakoto().outcome(board) == Result(None, Ending.DRAW, 0)


def test_plakoto_scores_one_point_or_two_when_the_loser_has_borne_off_none() -> None:
    assert Plakoto().outcome(Board.from_points({}, {20: 15})) == \
        Result(Side.ON_ROLL, Ending.GAMMON, 2)
    assert Plakoto().outcome(Board.from_points({}, {20: 14})) == \
        Result(Side.ON_ROLL, Ending.SINGLE, 1)
    assert not Plakoto().cube


def test_plakoto_must_use_both_dice_or_the_larger() -> None:
    board = Board.from_points({20: 1, 24: 14}, {16: 2, 7: 2, 6: 2, 24: 9})
    assert plays(Plakoto(), board, (6, 5)) == {"20/14"}
