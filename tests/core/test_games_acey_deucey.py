"""docs/guide/games.md, "Acey-deucey": one test per rule.

Checkers waiting to enter count on the bar (25) with ``mine_waiting``/``theirs_waiting``
saying how many of them have never entered; the sides travel against each other, so the
mover's point ``p`` is the opponent's ``25 - p``.
"""

from __future__ import annotations

import random

from backgammon import Position, Side
from backgammon.dice import Dice
from backgammon.games import AceyDeucey, Board, Ending, GameRules, Result, Stage

GAME = AceyDeucey()


def plays(rules: GameRules, board: Board, dice: Dice) -> set[str]:
    """The legal plays in notation, the board checked first."""
    rules.check(board)
    return {str(play) for play in rules.legal_plays(board, dice)}


def test_acey_deucey_all_fifteen_checkers_start_off_the_board() -> None:
    board = GAME.initial()
    assert board.bar == (15, 15) and (board.mine_waiting, board.theirs_waiting) == (15, 15)
    assert GAME.outcome(board) is None


def test_acey_deucey_checkers_enter_into_the_opponents_home_board() -> None:
    assert plays(GAME, GAME.initial(), (6, 3)) == {"bar/19 bar/22", "bar/19 19/16"}


def test_acey_deucey_entered_checkers_may_move_before_all_have_entered() -> None:
    board = Board.from_points({20: 1}, {}, mine_waiting=14, theirs_waiting=15)
    assert plays(GAME, board, (2, 1)) == {"20/18 18/17", "20/18 bar/24", "bar/23 20/19",
                                          "bar/23 23/22", "bar/23 bar/24"}


def test_acey_deucey_option_no_entered_checker_moves_until_all_fifteen_are_in() -> None:
    board = Board.from_points({20: 1}, {}, mine_waiting=14, theirs_waiting=15)
    assert plays(AceyDeucey(enter_all_first=True), board, (2, 1)) == {"bar/23 bar/24"}


def test_acey_deucey_a_hit_checker_enters_before_any_other_moves() -> None:
    # One checker on the bar was hit (14 there, 13 of them never entered).
    board = Board.from_points({20: 1, 25: 1}, {}, mine_waiting=13, theirs_waiting=15)
    found = GAME.legal_plays(board, (2, 1))
    assert {str(play) for play in found} == {"bar/23 20/19", "bar/23 23/22", "bar/23 bar/24",
                                             "bar/24 20/18"}
    assert all(play.steps[0].from_point == 25 for play in found)


def test_acey_deucey_a_hit_checker_goes_to_the_bar_and_enters_again() -> None:
    # The opponent's blot on our 23 (their 2): entering with the 2 hits it.
    board = Board.from_points({20: 1}, {2: 1}, mine_waiting=14, theirs_waiting=14)
    play = next(p for p in GAME.legal_plays(board, (2, 1)) if str(p) == "bar/23* 20/19")
    opponent = play.result  # the opponent on roll: 14 never entered and 1 hit on the bar
    assert opponent.bar == (15, 13) and opponent.mine_waiting == 14


def test_acey_deucey_a_one_two_names_a_double_then_throws_again() -> None:
    play = GAME.legal_plays(GAME.initial(), (1, 2))[0]
    assert GAME.next_stage(play, (1, 2), Stage.THROW) is Stage.NAMED_DOUBLE
    named = GAME.legal_plays(play.result.flip(), (6, 6))[0]
    assert len(named.steps) == 4
    assert GAME.next_stage(named, (6, 6), Stage.NAMED_DOUBLE) is Stage.THROW
    # A double thrown, not named, passes the turn as usual.
    assert GAME.next_stage(named, (6, 6), Stage.THROW) is None


def test_acey_deucey_a_one_two_not_played_in_full_ends_the_turn() -> None:
    # The opponent holds our 23 and 21: the 2 plays (24/22), the 1 then cannot.
    board = Board.from_points({24: 1}, {2: 2, 4: 2})
    assert plays(GAME, board, (2, 1)) == {"24/22"}
    play = GAME.legal_plays(board, (2, 1))[0]
    assert GAME.next_stage(play, (2, 1), Stage.THROW) is None


def test_acey_deucey_a_named_double_not_played_in_full_ends_the_turn() -> None:
    # The opponent holds our 12: of a named 6-6 only 24/18 plays.
    board = Board.from_points({24: 1}, {13: 2})
    assert plays(GAME, board, (6, 6)) == {"24/18"}
    play = GAME.legal_plays(board, (6, 6))[0]
    assert GAME.next_stage(play, (6, 6), Stage.NAMED_DOUBLE) is None


def test_acey_deucey_no_bearing_off_while_a_checker_waits_to_enter() -> None:
    board = Board.from_points({3: 14}, {}, mine_waiting=1, theirs_waiting=15)
    assert not any("off" in play for play in plays(GAME, board, (6, 5)))


def test_acey_deucey_bears_off_from_a_lower_point_as_in_backgammon() -> None:
    board = Board.from_points({3: 2}, {}, theirs_waiting=15)
    assert plays(GAME, board, (6, 5)) == {"3/off 3/off"}


def test_acey_deucey_option_bearing_off_only_from_the_point_of_the_die() -> None:
    board = Board.from_points({3: 2}, {}, theirs_waiting=15)
    assert plays(AceyDeucey(exact_bearing_off=True), board, (6, 5)) == set()
    assert plays(AceyDeucey(exact_bearing_off=True), board, (3, 3)) == {"3/off 3/off"}


def test_acey_deucey_must_use_both_dice_or_the_larger() -> None:
    board = Board.from_points({20: 1, 24: 14}, {16: 2, 7: 2, 6: 2, 24: 9})
    assert plays(GAME, board, (6, 5)) == {"20/14"}


def test_acey_deucey_scores_single_gammon_and_backgammon_without_a_cube() -> None:
    assert GAME.outcome(Board.from_points({}, {20: 14})) == \
        Result(Side.ON_ROLL, Ending.SINGLE, 1)
    assert GAME.outcome(Board.from_points({}, {5: 15})) == \
        Result(Side.ON_ROLL, Ending.GAMMON, 2)
    # A checker that never entered is still "on the bar": a backgammon.
    assert GAME.outcome(Board.from_points({}, {5: 14}, theirs_waiting=1)) == \
        Result(Side.ON_ROLL, Ending.BACKGAMMON, 3)
    assert not GAME.cube and GAME.opening_reroll


def test_acey_deucey_plays_backgammons_moves_once_every_checker_has_entered() -> None:
    """With no checker waiting, the moves are backgammon's: the search (with its highest
    source first for doubles) finds the core's plays exactly."""
    rng = random.Random(5)
    checked = 0
    for _ in range(6):
        position = Position.initial()
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            found = position.legal_plays(dice)
            ours = GAME.legal_plays(Board.from_position(position), dice)
            assert {p.result.to_position() for p in ours} == {p.result for p in found}
            checked += 1
            position = rng.choice(found).result if found else position.flip()
    assert checked > 300
