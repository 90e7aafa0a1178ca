"""RULES.md, "Bearing off" (all seeds): one test per rule clause, checked against gnubg.

Every test sets up a position by hand, states the exact set of legal plays in gnubg notation,
and goes through :func:`legal`, which also asserts that gnubg_nn (the test-only reference
engine) finds the same plays for that position and roll.

Board diagrams: the columns are the player on roll's point numbers (O, moving from 24 toward
1, bearing off from its home board 1-6); the X row shows the opponent's checkers on those same
points; "off" counts each side's borne-off checkers; "." is zero.
"""

from __future__ import annotations

import pytest
from support import legal

from backgammon import IllegalPlayError, Position


def test_bear_off_only_when_all_fifteen_checkers_are_home() -> None:
    """RULES.md, Bearing off (all seeds): "Only when all fifteen of the mover's checkers are in
    their home board (none on the bar, none outside)."

    2-1 with a checker still on 9: the checker on 2 may not bear off, neither with the 2 while
    the 9 is out (2/off 9/8) nor after 9/7, which leaves the checker outside.
    """
    # point  24   9   8   7   6   5   4   3   2   1 off
    # O       .   1   .   .   .   .   .   .   1   .  13
    # X       2   .   .   .   .   .   .   .   .   .  13
    position = Position.from_points({9: 1, 2: 1}, {1: 2})
    plays = legal(position, (2, 1))
    assert plays == {"9/6", "9/7 2/1"}
    steps = [step for play in position.legal_plays((2, 1)) for step in play.steps]
    assert all(step.to_point != 0 for step in steps)


def test_a_checker_hit_during_bear_off_must_come_home_first() -> None:
    """RULES.md, Bearing off: "A checker hit during bear-off must re-enter and come home before
    bearing off resumes."

    O was bearing off and has a checker on the bar: with 6-5 it must enter and come round
    (bar/14); bearing off from 3 or 2 with the other die is not legal.
    """
    # point bar  24  20  19  14   6   5   4   3   2   1 off
    # O       1   .   .   .   .   .   .   .   1   1   .  12
    # X       .   2   .   .   .   .   .   .   .   .   .  13
    position = Position.from_points({"bar": 1, 3: 1, 2: 1}, {1: 2})
    assert legal(position, (6, 5)) == {"bar/14"}
    with pytest.raises(IllegalPlayError):
        position.parse_play("bar/19 3/off", (6, 5))


def test_a_die_removes_a_checker_from_the_point_of_its_number() -> None:
    """RULES.md, Bearing off: "A die removes a checker from the point of that number."

    5-3 with checkers on 5 and 3: the 5 bears off the checker on 5 and the 3 the one on 3
    (or the 3 moves 5/2 first, and then the 5 takes the 3, now the highest).
    """
    # point   6   5   4   3   2   1 off
    # O       .   1   .   1   .   .  13
    # X       .   .   .   .   .   .  13
    position = Position.from_points({5: 1, 3: 1}, {1: 2})
    assert legal(position, (5, 3)) == {"5/off 3/off", "5/2 3/off"}
    both_off = position.parse_play("5/off 3/off", (5, 3))
    assert both_off.result.off == (13, 15)


def test_with_its_point_empty_a_die_must_move_a_checker_from_a_higher_point() -> None:
    """RULES.md, Bearing off: "If that point is empty, the player must make a legal move with a
    checker on a higher point."

    4-3 with checkers on 6 and 1: the 4- and 3-points are empty and checkers stand higher, so
    both dice move checkers from 6; neither may bear off the checker on 1.
    """
    # point   6   5   4   3   2   1 off
    # O       2   .   .   .   .   1  12
    # X       .   .   .   .   .   .  13
    position = Position.from_points({6: 2, 1: 1}, {1: 2})
    assert legal(position, (4, 3)) == {"6/3 6/2"}


def test_with_no_checker_higher_the_die_removes_one_from_the_highest_point() -> None:
    """RULES.md, Bearing off: "If no checker stands on a higher point, the player must remove a
    checker from the highest occupied point."

    6-1 with checkers on 3 and 1: the 6 must bear off the checker on 3 (the highest), not the
    one on 1, so 3/2 1/off (the 6 taking the 1) is not legal.
    """
    # point   6   5   4   3   2   1 off
    # O       .   .   .   1   .   1  13
    # X       .   .   .   .   .   .  13
    position = Position.from_points({3: 1, 1: 1}, {1: 2})
    plays = legal(position, (6, 1))
    # "3/off" is 3/2 with the 1 and then 2/off with the 6, leaving the checker on 1.
    assert plays == {"3/off 1/off", "3/off"}
    assert "3/2 1/off" not in plays


def test_a_player_is_never_obliged_to_bear_off() -> None:
    """RULES.md, Bearing off: "A player is never obliged to bear off when another legal move
    exists."

    5-1 with checkers on 6 and 5: the 5 could bear off from 5, but 6/1 5/4, which bears off
    nothing, is legal too.
    """
    # point   6   5   4   3   2   1 off
    # O       1   1   .   .   .   .  13
    # X       .   .   .   .   .   .  13
    position = Position.from_points({6: 1, 5: 1}, {1: 2})
    # "6/off" is 6/5 and 5/off (or 5/off and 6/5): one checker left on 5.
    assert legal(position, (5, 1)) == {"6/off", "6/1 5/4"}


def test_both_numbers_are_still_used_when_bearing_off() -> None:
    """RULES.md, Bearing off: "Both numbers must still be used where possible (bear off one and
    move another, or bear off two)."

    6-4 with checkers on 6 and 5: bearing off one and moving the other uses both dice; 6/off
    alone is not legal. With checkers on 6 and 4 both may bear off.
    """
    # point   6   5   4   3   2   1 off
    # O       1   1   .   .   .   .  13
    # X       .   .   .   .   .   .  13
    off_and_move = Position.from_points({6: 1, 5: 1}, {1: 2})
    assert legal(off_and_move, (6, 4)) == {"6/off 5/1", "6/2 5/off"}
    with pytest.raises(IllegalPlayError):
        off_and_move.parse_play("6/off", (6, 4))

    # point   6   5   4   3   2   1 off
    # O       1   .   1   .   .   .  13
    # X       .   .   .   .   .   .  13
    off_two = Position.from_points({6: 1, 4: 1}, {1: 2})
    assert legal(off_two, (6, 4)) == {"6/off 4/off", "6/2 4/off"}
