"""RULES.md, "Hitting and entering" (all seeds): one test per rule clause, checked against gnubg.

Every test sets up a position by hand, states the exact set of legal plays in gnubg notation,
and goes through :func:`legal`, which also asserts that gnubg_nn (the test-only reference
engine) finds the same plays for that position and roll.

Board diagrams: the columns are the player on roll's point numbers (O, moving from 24 toward
1; O enters from the bar on 25 minus the die); the X row shows the opponent's checkers on those
same points; "." is an empty point. Checkers not drawn are borne off.
"""

from __future__ import annotations

import pytest
from support import legal

from backgammon import IllegalPlayError, Position


def test_a_hit_checker_goes_to_the_bar() -> None:
    """RULES.md, Hitting and entering (all seeds): "A hit checker goes to the bar."

    4-1 from 13 may go by X's blot on 9 and hit it: X then has a checker on the bar, and the
    blot's point is empty.
    """
    # point bar  24  13  12  11  10   9   8
    # O       .   .   1   .   .   .   .   .
    # X       .   1   .   .   .   .   1   .
    position = Position.from_points({13: 1}, {16: 1, 1: 1})
    assert legal(position, (4, 1)) == {"13/9*/8", "13/8"}
    hit = position.parse_play("13/9*/8", (4, 1))
    # The result has X on roll: its own point 16 is O's 9.
    assert hit.result.bar == (1, 0)
    assert hit.result.mine[16] == 0
    quiet = position.parse_play("13/8", (4, 1))
    assert quiet.result.bar == (0, 0)


def test_every_bar_checker_enters_on_an_open_point_matching_a_die() -> None:
    """RULES.md, Hitting and entering: "A player with any checker on the bar must enter all of
    them into the opponent's home board, on an open point matching a die, ..."

    Two on the bar with 6-3: both must enter, one on 19 (the 6) and one on 22 (the 3, hitting
    X's blot there); the checker on 8 does not move.
    """
    # point bar  24  23  22  21  20  19   8
    # O       2   .   .   .   .   .   .   1
    # X       .   .   .   1   .   .   .   .
    position = Position.from_points({"bar": 2, 8: 1}, {3: 1})
    assert legal(position, (6, 3)) == {"bar/22* bar/19"}


def test_bar_checkers_enter_before_any_other_checker_moves() -> None:
    """RULES.md, Hitting and entering: "... before moving any other checker."

    One on the bar with 6-3: every play enters first; 8/2 8/5 (leaving the bar checker) is not
    legal, and the only first steps offered are the two entries.
    """
    # point bar  24  23  22  21  20  19  16   8   5   2
    # O       1   .   .   .   .   .   .   .   1   .   .
    # X       .   1   .   .   .   .   .   .   .   .   .
    position = Position.from_points({"bar": 1, 8: 1}, {1: 1})
    plays = legal(position, (6, 3))
    assert plays == {"bar/16", "bar/19 8/5", "bar/22 8/2"}
    assert position.turn((6, 3)).legal_steps() == [(25, 22), (25, 19)]
    with pytest.raises(IllegalPlayError):
        position.parse_play("8/5 8/2", (6, 3))


def test_if_neither_number_enters_the_turn_is_lost() -> None:
    """RULES.md, Hitting and entering: "If neither number enters, the turn is lost."

    6-3 with X holding 19 and 22: the bar checker cannot enter, and the checkers on 8 (which
    could move 6 or 3) may not move either.
    """
    # point bar  24  23  22  21  20  19   8
    # O       1   .   .   .   .   .   .   2
    # X       .   .   .   2   .   .   2   .
    position = Position.from_points({"bar": 1, 8: 2}, {6: 2, 3: 2})
    assert legal(position, (6, 3)) == set()
    turn = position.turn((6, 3))
    assert turn.is_complete
    assert turn.legal_steps() == []
    assert turn.play().result == position.flip()


def test_partial_entry_enters_as_many_as_possible_and_ends_the_turn() -> None:
    """RULES.md, Hitting and entering: "If some but not all bar checkers can enter, enter as
    many as possible and the rest of the turn is lost."

    Two on the bar with 6-3 and X holding 22: one checker enters with the 6; the 3 is lost; it
    may not be played by the entered checker (19/16) nor by those on 8.
    """
    # point bar  24  23  22  21  20  19   8
    # O       2   .   .   .   .   .   .   2
    # X       .   .   .   2   .   .   .   .
    position = Position.from_points({"bar": 2, 8: 2}, {3: 2})
    assert legal(position, (6, 3)) == {"bar/19"}


def test_after_the_last_entry_the_remaining_numbers_are_played_by_any_checker() -> None:
    """RULES.md, Hitting and entering: "Once the last bar checker has entered, any remaining
    numbers must be played, by any checker, the entered one included (002, 004)."

    Two on the bar with 4-4: both enter on 21, and the other two 4s go to the entered checkers
    (one twice, or each once), or one to an entered checker and one to the checker on 13, or
    both to the checker on 13.
    """
    # point bar  24  21  17  13   9   5
    # O       2   .   .   .   1   .   .
    # X       .   1   .   .   .   .   .
    position = Position.from_points({"bar": 2, 13: 1}, {1: 1})
    assert legal(position, (4, 4)) == {
        "bar/13 bar/21",
        "bar/17(2)",
        "bar/17 bar/21 13/9",
        "bar/21(2) 13/5",
    }
    assert all(len(play.steps) == 4 for play in position.legal_plays((4, 4)))


def test_a_checker_may_hit_and_go_on_hitting_a_second_blot() -> None:
    """RULES.md, Hitting and entering: "A checker may hit and continue with the other die to any
    open point, including hitting a second blot (003)."

    4-2 from 13 with X blots on 9 and 7: 13/9*/7* hits both; going by 11 hits only the 7.
    """
    # point  13  12  11  10   9   8   7
    # O       1   .   .   .   .   .   .
    # X       .   .   .   .   1   .   1
    position = Position.from_points({13: 1}, {16: 1, 18: 1})
    assert legal(position, (4, 2)) == {"13/9*/7*", "13/7*"}
    double_hit = position.parse_play("13/9*/7*", (4, 2))
    assert double_hit.result.bar == (2, 0)


def test_hitting_is_allowed_everywhere_including_the_last_six_points() -> None:
    """RULES.md, Hitting and entering: "Seed 003 also has a garbled sentence that seems to forbid
    hitting "in the last six houses"; no other seed and no standard rule book says so, so
    hitting is allowed everywhere."

    5-4 with X blots on O's 20 (X's home board) and on O's 4 and 3 (O's home board, the last
    six points of O's way): every one of them may be hit.
    """
    # point  24  23  22  21  20  19   8   7   6   5   4   3
    # O       1   .   .   .   .   .   1   .   .   .   .   .
    # X       .   .   .   .   1   .   .   .   .   .   1   1
    position = Position.from_points({24: 1, 8: 1}, {21: 1, 22: 1, 5: 1})
    assert legal(position, (5, 4)) == {"24/20*/15", "24/15", "24/19 8/4*", "24/20* 8/3*"}
