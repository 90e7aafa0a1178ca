"""docs/guide/games.md, "Fevga" and "Long Nardy": one test per rule.

Both sides travel the same way: each numbers the points from its own start (24) to its home
(1..6), and the mover's point ``p`` is the opponent's ``p - 12`` (``p + 12`` below 13), so the
opponent's start, their 24, is the mover's 12. Checkers not placed are borne off.
"""

from __future__ import annotations

from backgammon import Side
from backgammon.dice import Dice
from backgammon.games import Board, Ending, Fevga, GameRules, LongNardy, Result
from backgammon.games.base import six_block_without_opponent_ahead


def plays(rules: GameRules, board: Board, dice: Dice) -> set[str]:
    """The legal plays in notation, the board checked first."""
    rules.check(board)
    return {str(play) for play in rules.legal_plays(board, dice)}


def results(rules: GameRules, board: Board, dice: Dice) -> list[Board]:
    """The boards the legal plays leave, seen from the mover."""
    return [play.result.flip() for play in rules.legal_plays(rules.check(board), dice)]


def holds(board: Board, points: range) -> bool:
    return all(board.mine[p] for p in points)


# Fevga


def test_fevga_both_start_with_fifteen_on_their_24_at_opposite_corners() -> None:
    board = Fevga().initial()
    assert board.mine[24] == board.theirs[24] == 15
    assert Fevga().travel.their_point(24) == 12  # each start is the other's 12-point


def test_fevga_the_first_checker_must_pass_the_opponents_start_before_another_leaves() -> None:
    assert plays(Fevga(), Fevga().initial(), (6, 5)) == {"24/18 18/13"}
    # 13/11 passes the opponent's start (our 12); only then may a second checker leave.
    board = Board.from_points({13: 1, 24: 14}, {24: 15})
    assert plays(Fevga(), board, (2, 1)) == {"13/11 11/10", "13/11 24/23"}


def test_fevga_once_the_first_checker_has_passed_others_may_leave_the_start() -> None:
    # 5-5 on the first throw: one checker runs 24/9 past the opponent's start, then another.
    assert plays(Fevga(), Fevga().initial(), (5, 5)) == {"24/19 19/14 14/9 24/19",
                                                         "24/19 19/14 14/9 9/4"}


def test_fevga_a_lone_checker_holds_its_point_no_hitting() -> None:
    board = Board.from_points({20: 1, 9: 1, 24: 13}, {6: 1, 24: 14})  # their 6 is our 18
    for play in Fevga().legal_plays(board, (2, 1)):
        assert all(step.to_point != 18 and not step.hit for step in play.steps)


def test_fevga_may_not_hold_all_six_points_of_the_starting_quarter() -> None:
    # Our 20..24 held and a checker past the opponent's start; an opposing checker beyond
    # (their 3), so only the starting-quarter rule forbids 24/19.
    board = Board.from_points({5: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 10}, {3: 1, 24: 14})
    for after in results(Fevga(), board, (5, 1)):
        assert not holds(after, range(19, 25))
    blocked = Board.from_points({5: 1, 19: 1, 20: 1, 21: 1, 22: 1, 23: 1, 24: 9},
                                {3: 1, 24: 14})
    assert not six_block_without_opponent_ahead(blocked, Fevga().travel)


def test_fevga_no_six_points_in_a_row_without_an_opposing_checker_beyond() -> None:
    # 8/6 would hold our 11..6 (their 23..18); no opposing checker is beyond it.
    board = Board.from_points({11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 24: 9}, {24: 15})
    assert not any(holds(after, range(6, 12)) for after in results(Fevga(), board, (2, 1)))


def test_fevga_six_points_in_a_row_with_an_opposing_checker_beyond_are_allowed() -> None:
    board = Board.from_points({11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 24: 9}, {17: 1, 24: 14})
    assert any(holds(after, range(6, 12)) for after in results(Fevga(), board, (2, 1)))


def test_fevga_bears_off_as_in_backgammon() -> None:
    assert plays(Fevga(), Board.from_points({3: 2, 1: 1}, {24: 15}), (6, 5)) == \
        {"3/off 3/off"}
    # Not while a checker is outside the home board.
    assert not any("off" in play for play in plays(
        Fevga(), Board.from_points({13: 1, 3: 14}, {24: 15}), (2, 1)))


def test_fevga_must_use_both_dice_or_the_larger() -> None:
    # 20/14 or 20/15, each blocked after by the checker on our 9 (their 21); the start may
    # not move before a checker has passed.
    board = Board.from_points({20: 1, 24: 14}, {21: 1, 24: 14})
    assert plays(Fevga(), board, (6, 5)) == {"20/14"}


def test_fevga_scores_one_point_or_two_when_the_loser_has_borne_off_none() -> None:
    assert Fevga().outcome(Board.from_points({}, {24: 15})) == \
        Result(Side.ON_ROLL, Ending.GAMMON, 2)
    assert Fevga().outcome(Board.from_points({}, {2: 14})) == \
        Result(Side.ON_ROLL, Ending.SINGLE, 1)
    assert not Fevga().cube and Fevga().opening_reroll


# Long Nardy


def test_long_nardy_both_start_with_fifteen_on_the_head() -> None:
    board = LongNardy().initial()
    assert board.mine[24] == board.theirs[24] == 15


def test_long_nardy_one_checker_from_the_head_a_turn() -> None:
    assert plays(LongNardy(), LongNardy().initial(), (2, 1)) == {"24/22 22/21"}
    board = Board.from_points({24: 14, 17: 1}, {24: 14, 18: 1})
    for play in LongNardy().legal_plays(board, (6, 6)):
        assert sum(step.from_point == 24 for step in play.steps) <= 1


def test_long_nardy_first_throw_six_six_takes_two_from_the_head() -> None:
    # One checker alone could not go on from 18: the opponent's head is our 12.
    assert plays(LongNardy(), LongNardy().initial(), (6, 6)) == {"24/18 24/18"}


def test_long_nardy_first_throw_four_four_and_three_three_take_two_from_the_head() -> None:
    for die in (4, 3):
        found = LongNardy().legal_plays(LongNardy().initial(), (die, die))
        assert found
        for play in found:
            assert len(play.steps) == 4
            assert sum(step.from_point == 24 for step in play.steps) == 2


def test_long_nardy_other_first_doubles_take_one_from_the_head() -> None:
    assert plays(LongNardy(), LongNardy().initial(), (5, 5)) == {"24/19 19/14 14/9 9/4"}


def test_long_nardy_the_second_players_first_throw_is_a_first_throw_too() -> None:
    board = Board.from_points({24: 15}, {24: 14, 18: 1})
    assert plays(LongNardy(), board, (6, 6)) == {"24/18 24/18"}


def test_long_nardy_a_lone_checker_holds_its_point_no_hitting() -> None:
    board = Board.from_points({20: 1, 24: 14}, {6: 1, 24: 14})  # their 6 is our 18
    found = LongNardy().legal_plays(board, (2, 1))
    assert found
    for play in found:
        assert all(step.to_point != 18 and not step.hit for step in play.steps)


def test_long_nardy_no_six_block_unless_an_opposing_checker_is_ahead_of_it() -> None:
    board = Board.from_points({11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 24: 9}, {24: 15})
    assert not any(holds(after, range(6, 12))
                   for after in results(LongNardy(), board, (2, 1)))
    ahead = Board.from_points({11: 1, 10: 1, 9: 1, 8: 2, 7: 1, 24: 9}, {17: 1, 24: 14})
    assert any(holds(after, range(6, 12)) for after in results(LongNardy(), ahead, (2, 1)))


def test_long_nardy_must_use_both_dice_or_the_larger() -> None:
    board = Board.from_points({20: 1, 24: 14}, {21: 1, 6: 1, 7: 1, 24: 12})  # our 9, 18, 19
    assert plays(LongNardy(), board, (6, 5)) == {"20/14"}


def test_long_nardy_bears_off_only_with_all_fifteen_home() -> None:
    assert not any("off" in play for play in plays(
        LongNardy(), Board.from_points({13: 1, 3: 14}, {24: 15}), (2, 1)))
    assert plays(LongNardy(), Board.from_points({4: 1, 3: 1}, {24: 15}), (6, 5)) == \
        {"4/off 3/off"}


def test_long_nardy_mars_scores_two_and_oin_one() -> None:
    assert LongNardy().outcome(Board.from_points({}, {24: 15})) == \
        Result(Side.ON_ROLL, Ending.GAMMON, 2)
    assert LongNardy().outcome(Board.from_points({}, {3: 1})) == \
        Result(Side.ON_ROLL, Ending.SINGLE, 1)
    assert not LongNardy().cube
