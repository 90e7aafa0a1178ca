"""RULES.md, "Moving" (all seeds): one test per rule clause, each checked against GNU Backgammon.

Every test sets up a position by hand, states the exact set of legal plays in gnubg notation,
and goes through :func:`legal`, which also asserts that gnubg_nn (the test-only reference
engine) finds the same plays for that position and roll.

Board diagrams: the columns are the player on roll's point numbers (O, moving from 24 toward
1); the X row shows the opponent's checkers on those same points; "." is an empty point.
Checkers not drawn are borne off.
"""

from __future__ import annotations

import pytest
from support import legal

from backgammon import IllegalPlayError, Position


def test_checkers_move_forward_only_by_the_number_on_a_die() -> None:
    """RULES.md, Moving (all seeds): "Checkers move forward only, toward the mover's
    lower-numbered points, by the number on a die."

    Two checkers, 4-2: each die moves a checker exactly 4 or 2 points down; nothing moves up
    toward 24, and nothing is borne off (the checkers are not home).
    """
    # point  24  10   9   8   7   6   5   4   3
    # O       .   1   1   .   .   .   .   .   .
    # X       2   .   .   .   .   .   .   .   .
    position = Position.from_points({10: 1, 9: 1}, {1: 2})
    assert legal(position, (4, 2)) == {"10/4", "9/3", "10/6 9/7", "10/8 9/5"}


def test_a_checker_may_land_on_an_empty_point() -> None:
    """RULES.md, Moving: "A checker may land on an open point: empty, ..."

    A lone checker on 13 with 3-1 and nothing in its way lands on empty points only.
    """
    # point  24  13  12  11  10   9
    # O       .   1   .   .   .   .
    # X       1   .   .   .   .   .
    position = Position.from_points({13: 1}, {1: 1})
    assert legal(position, (3, 1)) == {"13/9"}


def test_a_checker_may_land_on_its_own_point_with_any_number_of_checkers() -> None:
    """RULES.md, Moving: "A checker may land on an open point: ... held by the mover's own
    checkers (any number), ..."

    With 4-4 the only move is 14/10, onto five checkers of the mover's own (X holds the 6, so
    nothing moves on from 10); the point then holds six.
    """
    # point  14  13  12  11  10   9   8   7   6
    # O       1   .   .   .   5   .   .   .   .
    # X       .   .   .   .   .   .   .   .   2
    position = Position.from_points({14: 1, 10: 5}, {19: 2})
    assert legal(position, (4, 4)) == {"14/10"}
    (play,) = position.legal_plays((4, 4))
    assert play.result.theirs[10] == 6


def test_a_checker_may_land_on_a_blot_which_is_hit() -> None:
    """RULES.md, Moving: "A checker may land on an open point: ... or held by exactly one
    opposing checker (a blot, which is then hit)."

    4-2 from 13 passes 9 (X's blot) or 11: landing on the blot is open and hits it, so the two
    ways are two different plays.
    """
    # point  13  12  11  10   9   8   7
    # O       1   .   .   .   .   .   .
    # X       .   .   .   .   1   .   .
    position = Position.from_points({13: 1}, {16: 1})
    assert legal(position, (4, 2)) == {"13/9*/7", "13/7"}
    hitting = position.parse_play("13/9*/7", (4, 2))
    assert hitting.result.bar == (1, 0)


def test_two_or_more_opposing_checkers_make_a_point_closed() -> None:
    """RULES.md, Moving: "Two or more opposing checkers make a point closed (blocked)."

    X's two checkers on 9 close it: 4-2 from 13 can only go by 11.
    """
    # point  13  12  11  10   9   8   7
    # O       1   .   .   .   .   .   .
    # X       .   .   .   .   2   .   .
    position = Position.from_points({13: 1}, {16: 2})
    assert legal(position, (4, 2)) == {"13/7"}
    (play,) = position.legal_plays((4, 2))
    assert play.steps[0][:2] == (13, 11)


def test_each_die_is_a_separate_move_through_an_open_point() -> None:
    """RULES.md, Moving: "Each die is a separate move. One checker may use both dice only if
    the intermediate landing point is open; 5-3 is never "one move of 8" (001)."

    With X on both 10 and 8, 13/5 with 5-3 is not a move of 8: the checker cannot move at all.
    Open the 10 and it goes 13/10/5, one die at a time.
    """
    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   2   .   2   .   .   .
    both_closed = Position.from_points({13: 1}, {17: 2, 15: 2})
    assert legal(both_closed, (5, 3)) == set()
    with pytest.raises(IllegalPlayError):
        both_closed.parse_play("13/5", (5, 3))

    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   .   .   2   .   .   .
    ten_open = Position.from_points({13: 1}, {17: 2})
    assert legal(ten_open, (5, 3)) == {"13/5"}
    (play,) = ten_open.legal_plays((5, 3))
    assert [step[:2] for step in play.steps] == [(13, 10), (10, 5)]


def test_either_order_may_be_used_if_both_points_are_open() -> None:
    """RULES.md, Moving: "Either order may be used if both are open."

    5-3 from 13 with 8 and 10 both open: the checker may go by either. With an X blot on 8 the
    two orders are two plays (one hits); with 8 empty they are one play reached both ways.
    """
    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   .   .   1   .   .   .
    blot_on_8 = Position.from_points({13: 1}, {17: 1})
    assert legal(blot_on_8, (5, 3)) == {"13/8*/5", "13/5"}

    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   .   .   .     (X's checker is on O's 24)
    open_board = Position.from_points({13: 1}, {1: 1})
    assert legal(open_board, (5, 3)) == {"13/5"}
    turn = open_board.turn((5, 3))
    assert turn.legal_steps() == [(13, 10), (13, 8)]
    by_ten = turn.step(13, 10).step(10, 5).play()
    by_eight = turn.step(13, 8).step(8, 5).play()
    assert by_ten == by_eight


def test_doubles_are_played_four_times_by_any_combination_of_checkers() -> None:
    """RULES.md, Moving: "Doubles are played four times, by any combination of checkers."

    2-2 with two checkers: four 2s split 4-0, 3-1, 2-2, 1-3 or 0-4 between them.
    """
    # point  24  10   9   8   7   6   5   4   3   2   1
    # O       .   1   1   .   .   .   .   .   .   .   .
    # X       2   .   .   .   .   .   .   .   .   .   .
    position = Position.from_points({10: 1, 9: 1}, {1: 2})
    assert legal(position, (2, 2)) == {"10/2", "10/4 9/7", "10/6 9/5", "10/8 9/3", "9/1"}
    assert all(len(play.steps) == 4 for play in position.legal_plays((2, 2)))


def test_both_numbers_must_be_used_if_any_sequence_does() -> None:
    """RULES.md, Moving: "Compulsory play: a player must use both numbers if any legal sequence
    does, even against their interest (002, 003)."

    6-1: 10/4 plays the 6 but then no 1 can be played (13/12 and 4/3 are closed). Since
    13/7 10/9 and 13/6 use both dice, 10/4 alone is not legal.
    """
    # point  13  12  11  10   9   8   7   6   5   4   3
    # O       1   .   .   1   .   .   .   .   .   .   .
    # X       .   2   .   .   .   .   .   .   .   .   2
    position = Position.from_points({13: 1, 10: 1}, {13: 2, 22: 2})
    plays = legal(position, (6, 1))
    assert plays == {"13/7 10/9", "13/6"}
    assert "10/4" not in plays


def test_if_only_one_number_can_be_used_it_must_be_used() -> None:
    """RULES.md, Moving: "If only one number can be used, it must be used; ..."

    6-1 from 13 with X on 7 and 6: the 6 cannot be played at all (13/7 and 12/6 are closed),
    so the 1 must be, although it is the smaller die.
    """
    # point  13  12  11  10   9   8   7   6
    # O       1   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   2   2
    position = Position.from_points({13: 1}, {18: 2, 19: 2})
    assert legal(position, (6, 1)) == {"13/12"}


def test_if_either_number_but_not_both_can_be_used_the_larger_must_be() -> None:
    """RULES.md, Moving: "... if either can be used but not both, the larger must be used."

    6-1 from 13 with X on 6: 13/7 and 13/12 are each legal alone, but neither can go on to 6.
    The larger die must be played, so 13/12 is not legal.
    """
    # point  13  12  11  10   9   8   7   6
    # O       1   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   .   2
    position = Position.from_points({13: 1}, {19: 2})
    assert legal(position, (6, 1)) == {"13/7"}


def test_doubles_play_as_many_as_can_be_played() -> None:
    """RULES.md, Moving: "With doubles, play as many as can be played."

    3-3 with X on 5 and 4: 13 can go to 7 and 11 to 8, three 3s in all; the fourth cannot be
    played. Any play of fewer than three is not legal.
    """
    # point  13  12  11  10   9   8   7   6   5   4
    # O       1   .   1   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   .   .   2   2
    position = Position.from_points({13: 1, 11: 1}, {20: 2, 21: 2})
    assert legal(position, (3, 3)) == {"13/7 11/8"}
    (play,) = position.legal_plays((3, 3))
    assert len(play.steps) == 3


def test_with_no_legal_move_the_turn_is_lost() -> None:
    """RULES.md, Moving: "With no legal move the turn is lost (001 calls this
    "fanned"/"dancing")."

    6-6 from 13 with X on 7: no 6 can be played. The turn passes with no checker moved.
    """
    # point  13  12  11  10   9   8   7   6   5   4   3   2   1
    # O       1   .   .   .   .   .   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   2   .   .   .   .   .   .
    position = Position.from_points({13: 1}, {18: 2})
    assert legal(position, (6, 6)) == set()
    turn = position.turn((6, 6))
    assert turn.is_complete
    assert turn.play().steps == ()
    assert turn.play().result == position.flip()


def test_a_player_may_never_pass_by_choice() -> None:
    """RULES.md, Moving: "A player may never pass by choice."

    A lone checker on 13 with 3-1 has a move, so passing is refused, every legal play moves a
    checker, and a turn with no step made is not finished.
    """
    # point  24  13  12  11  10   9
    # O       .   1   .   .   .   .
    # X       1   .   .   .   .   .
    position = Position.from_points({13: 1}, {1: 1})
    assert legal(position, (3, 1)) == {"13/9"}
    assert all(play.steps for play in position.legal_plays((3, 1)))
    with pytest.raises(IllegalPlayError, match="must be given"):
        position.parse_play("pass", (3, 1))
    turn = position.turn((3, 1))
    assert not turn.is_complete
    with pytest.raises(IllegalPlayError):
        turn.play()
