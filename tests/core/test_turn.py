"""Turn: a roll played one checker step at a time (for click-to-move interfaces).

Board diagrams: the columns are the player on roll's point numbers (O, moving from 24 toward
1); the X row shows the opponent's checkers on those same points; "." is an empty point.
"""

from __future__ import annotations

import pytest
from support import random_turns

from backgammon import ALL_ROLLS, IllegalPlayError, Play, Position, Turn

Dice = tuple[int, int]



def every_completion(turn: Turn) -> list[Play]:
    """The plays reached by taking every offered step, depth first, until none is offered.

    Along the way: a turn is complete exactly when no step is offered, and each play reached
    is the board that its steps made (with the other player on roll).
    """
    steps = turn.legal_steps()
    if not steps:
        assert turn.is_complete
        play = turn.play()
        assert play.result == turn.current().flip()
        return [play]
    assert not turn.is_complete
    return [play for step in steps for play in every_completion(turn.step(*step))]


def assert_paths_reach_the_legal_plays(position: Position, dice: Dice) -> None:
    """Completing every offered path gives exactly the legal plays, each one at least once."""
    reached = every_completion(position.turn(dice))
    legal = position.legal_plays(dice)
    if not legal:
        assert [play.steps for play in reached] == [()]
        return
    assert {play.result for play in reached} == {play.result for play in legal}
    assert set(reached) == set(legal)


# Offered steps keep to the compulsory-play rules (RULES.md, Moving)


def test_no_first_step_that_would_leave_a_die_unplayed() -> None:
    """'a player must use both numbers if any legal sequence does': 10/4 plays the 6 but then
    no 1 can be played (13/12 and 4/3 are closed), so it is never offered."""
    # point  13  12  11  10   9   8   7   6   5   4   3
    # O       1   .   .   1   .   .   .   .   .   .   .
    # X       .   2   .   .   .   .   .   .   .   .   2
    position = Position.from_points({13: 1, 10: 1}, {13: 2, 22: 2})
    turn = position.turn((6, 1))
    assert turn.legal_steps() == [(13, 7), (10, 9)]
    with pytest.raises(IllegalPlayError):
        turn.step(10, 4)
    assert turn.step(10, 9).legal_steps() == [(13, 7)]
    assert turn.step(13, 7).legal_steps() == [(10, 9), (7, 6)]


def test_no_first_step_with_the_smaller_die_when_only_one_die_plays() -> None:
    """'if either can be used but not both, the larger must be used': 13/12 (the 1) is legal
    on its own but is not offered, since 13/7 (the 6) must be played."""
    # point  13  12  11  10   9   8   7   6
    # O       1   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   .   2
    position = Position.from_points({13: 1}, {19: 2})
    turn = position.turn((6, 1))
    assert turn.legal_steps() == [(13, 7)]
    done = turn.step(13, 7)
    assert done.is_complete
    assert done.legal_steps() == []
    assert str(done.play()) == "13/7"


def test_doubles_offer_steps_until_no_more_can_be_played() -> None:
    """'With doubles, play as many as can be played': three 3s here, not four, not fewer."""
    # point  13  12  11  10   9   8   7   6   5   4
    # O       1   .   1   .   .   .   .   .   .   .
    # X       .   .   .   .   .   .   .   .   2   2
    position = Position.from_points({13: 1, 11: 1}, {20: 2, 21: 2})
    turn = position.turn((3, 3))
    assert turn.legal_steps() == [(13, 10), (11, 8)]
    two = turn.step(13, 10).step(10, 7)
    assert not two.is_complete
    assert two.legal_steps() == [(11, 8)]
    three = two.step(11, 8)
    assert three.is_complete
    assert str(three.play()) == "13/7 11/8"


def test_bar_checkers_are_offered_first() -> None:
    """Only entries are offered while a checker is on the bar (RULES.md, Hitting and entering)."""
    position = Position.from_points({"bar": 1, 8: 1}, {1: 1})
    turn = position.turn((6, 3))
    assert turn.legal_steps() == [(25, 22), (25, 19)]
    assert turn.step(25, 19).legal_steps() == [(19, 16), (8, 5)]


# Step, undo, current position, errors


def test_step_then_undo() -> None:
    """undo() takes the last step back; undoing with no step made changes nothing."""
    position = Position.initial()
    turn = position.turn((6, 5))
    stepped = turn.step(24, 18)
    assert stepped.made == ((24, 18),)
    assert stepped.current() == Position.from_points(
        {24: 1, 18: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5}
    )
    back = stepped.undo()
    assert back.made == ()
    assert back.legal_steps() == turn.legal_steps()
    assert back.current() == position
    assert back.undo().made == ()
    other = back.step(13, 8).step(13, 7)
    assert str(other.play()) == "13/8 13/7"
    assert str(other.undo().step(8, 2).play()) == "13/2"


def test_current_shows_a_hit_checker_on_the_bar() -> None:
    """After a hitting step the board so far has the opponent's checker on the bar."""
    # point  13  12  11  10   9   8   7   6   5
    # O       2   .   .   .   .   .   .   2   .
    # X       .   .   .   .   .   .   1   .   .
    position = Position.from_points({13: 2, 6: 2}, {18: 1, 24: 14})
    current = position.turn((6, 2)).step(13, 7).current()
    assert current.bar == (0, 1)
    assert current.mine[7] == 1
    assert current.theirs[18] == 0


def test_an_illegal_step_is_refused() -> None:
    """A step that is not offered raises IllegalPlayError naming the steps that are."""
    turn = Position.initial().turn((6, 5))
    with pytest.raises(IllegalPlayError, match="not allowed") as caught:
        turn.step(24, 17)
    assert "24/18" in str(caught.value)
    with pytest.raises(IllegalPlayError, match="not allowed"):
        turn.step(12, 6)  # no checker of the mover's on 12
    finished = turn.step(24, 18).step(18, 13)
    with pytest.raises(IllegalPlayError, match="not allowed"):
        finished.step(13, 8)


def test_play_before_the_turn_is_finished_is_refused() -> None:
    """play() with a step still due raises IllegalPlayError."""
    turn = Position.initial().turn((6, 5)).step(24, 18)
    assert not turn.is_complete
    with pytest.raises(IllegalPlayError, match="not finished"):
        turn.play()


# Completing every offered path gives exactly the legal plays


@pytest.mark.parametrize("dice", ALL_ROLLS)
def test_every_path_from_the_start(dice: Dice) -> None:
    """All 21 rolls from the starting position."""
    assert_paths_reach_the_legal_plays(Position.initial(), dice)


@pytest.mark.parametrize(
    ("mine", "theirs", "dice"),
    [
        ({"bar": 1, 8: 1}, {1: 1}, (6, 3)),  # entering, then either checker
        ({"bar": 2, 13: 1}, {1: 1}, (4, 4)),  # two entries, then any two 4s
        ({"bar": 2, 8: 2}, {3: 2}, (6, 3)),  # one entry only
        ({"bar": 3, 6: 5, 8: 3}, {1: 1, 4: 1}, (4, 4)),  # three entries on a blot
        ({"bar": 1, 13: 3, 6: 4}, {3: 1, 5: 1, 18: 3}, (5, 3)),  # entries hitting
        ({13: 2, 6: 2}, {18: 1, 24: 14}, (6, 2)),  # hits on the way
        ({13: 1, 10: 1}, {13: 2, 22: 2}, (6, 1)),  # must use both dice
        ({13: 1}, {19: 2}, (6, 1)),  # the larger die
        ({13: 1, 11: 1}, {20: 2, 21: 2}, (3, 3)),  # three of four 3s
        ({6: 2, 5: 3, 4: 1, 3: 4, 1: 5}, {1: 2}, (6, 6)),  # bearing off with doubles
        ({6: 1, 5: 1}, {1: 2}, (6, 4)),  # bear off one, move the other
        ({8: 1, 5: 2, 2: 3}, {1: 2}, (3, 2)),  # coming home, then bearing off
    ],
)
def test_every_path_from_hand_set_positions(
    mine: dict[int | str, int], theirs: dict[int | str, int], dice: Dice
) -> None:
    """Bar entry, hits, the compulsory-play rules and bearing off."""
    assert_paths_reach_the_legal_plays(Position.from_points(mine, theirs), dice)


def test_every_path_from_random_positions() -> None:
    """Positions and rolls of random games, doubles included.

    Those with more than 40 legal plays are left out: a big doubles roll has thousands of
    step orders, and walking them all takes seconds.
    """
    count = 0
    for position, dice in random_turns(seed=77, games=3):
        if len(position.legal_plays(dice)) <= 40:
            assert_paths_reach_the_legal_plays(position, dice)
            count += 1
    assert count > 200


def test_a_dance_is_complete_with_no_step() -> None:
    """No legal play: the turn is complete at once and its play moves nothing."""
    # point bar  24  23  22  21  20  19   8
    # O       1   .   .   .   .   .   .   2
    # X       .   .   .   2   .   .   2   .
    position = Position.from_points({"bar": 1, 8: 2}, {6: 2, 3: 2})
    turn = position.turn((6, 3))
    assert turn.legal_steps() == []
    assert turn.is_complete
    play = turn.play()
    assert play.steps == ()
    assert play.result == position.flip()
    assert turn.current() == position
    with pytest.raises(IllegalPlayError):
        turn.step(8, 2)


def test_bear_off_with_a_die_larger_than_needed() -> None:
    """5-4 with checkers on 5 and 3: 5/off (the 5) leaves the 4 to bear off the 3; 5/1 (the 4)
    leaves the 5 to bear off the 3. The 3 may not go first (the 5 stands higher)."""
    # point   6   5   4   3   2   1 off
    # O       .   1   .   1   .   .  13
    position = Position.from_points({5: 1, 3: 1}, {1: 2})
    turn = position.turn((5, 4))
    assert turn.legal_steps() == [(5, 1), (5, 0)]
    off_first = turn.step(5, 0)
    assert off_first.legal_steps() == [(3, 0)]
    assert str(off_first.step(3, 0).play()) == "5/off 3/off"
    moved_first = turn.step(5, 1)
    assert moved_first.legal_steps() == [(3, 0)]
    assert str(moved_first.step(3, 0).play()) == "5/1 3/off"
    assert_paths_reach_the_legal_plays(position, (5, 4))


def test_bear_off_where_either_die_takes_the_checker() -> None:
    """5-4 with checkers on 3 and 2: either die bears off the 3, the other then the 2."""
    # point   6   5   4   3   2   1 off
    # O       .   .   .   1   1   .  13
    position = Position.from_points({3: 1, 2: 1}, {1: 2})
    turn = position.turn((5, 4))
    assert turn.legal_steps() == [(3, 0)]
    after = turn.step(3, 0)
    assert after.legal_steps() == [(2, 0)]
    assert str(after.step(2, 0).play()) == "3/off 2/off"


# Which die each step used, which are left, and the plays a turn can still become


def faces_of(dice: Dice) -> list[int]:
    high, low = max(dice), min(dice)
    return [high] * 4 if high == low else [high, low]


def greedy_faces(turn: Turn) -> list[tuple[int, bool]]:
    """The board's dice as the page showed them before the core said which die each step
    used: each step marks the die of its length, else the smallest larger one left."""
    faces = faces_of(turn.dice)
    used = [False] * len(faces)
    for from_point, to_point in turn.made:
        distance = from_point - to_point
        fits = [i for i, face in enumerate(faces) if not used[i] and face >= distance]
        exact = [i for i in fits if faces[i] == distance]
        chosen = exact or sorted(fits, key=lambda i: faces[i])
        if chosen:
            used[chosen[0]] = True
    return list(zip(faces, used, strict=True))


def states(turn: Turn, depth: int = 4) -> list[Turn]:
    """The turn and every turn its offered steps lead to, up to ``depth`` steps on."""
    found = [turn]
    if depth:
        for step in turn.legal_steps():
            found += states(turn.step(*step), depth - 1)
    return found


def check_dice_and_completions(turn: Turn) -> None:
    used, left = turn.dice_used(), turn.dice_left()
    assert len(used) == len(turn.made)
    for (from_point, to_point), die in zip(turn.made, used, strict=True):
        distance = from_point - to_point
        assert die == distance or (to_point == 0 and die > distance)
    assert sorted(used + left) == sorted(faces_of(turn.dice))
    assert list(left) == sorted(left, reverse=True)
    assert list(turn.dice_faces()) == greedy_faces(turn)
    ways = turn.completions()
    assert set(ways) == {play.result for play in every_completion(turn)}
    for result, rest in ways.items():
        after = turn
        for step in rest:
            board = after.current()
            assert step.hit == (step.to_point != 0 and board.theirs[25 - step.to_point] == 1)
            after = after.step(step.from_point, step.to_point)
        assert after.is_complete and after.play().result == result


@pytest.mark.parametrize("seed", range(3))
def test_dice_used_and_completions_over_random_turns(seed: int) -> None:
    for number, (position, dice) in enumerate(random_turns(seed, 3)):
        if number % 3 == 0:  # a third of the turns of three games keeps the test quick
            for turn in states(position.turn(dice), depth=2 if dice[0] == dice[1] else 4):
                check_dice_and_completions(turn)


def test_a_checker_borne_off_from_below_uses_the_die_that_leaves_the_next_step_its_own() -> None:
    # Either die bears the checker on 3 off: the smaller is marked, the larger left.
    first = Position.from_points({3: 1, 2: 1}, {12: 2}).turn((6, 4)).step(3, 0)
    assert first.dice_used() == (4,) and first.dice_left() == (6,)
    position = Position.from_points({5: 1, 3: 1}, {12: 2})
    # 5/1 then 3/off: only the 6 can bear the second checker off.
    second = position.turn((6, 4)).step(5, 1).step(3, 0)
    assert second.dice_used() == (4, 6) and second.dice_left() == ()
    assert second.dice_faces() == ((6, True), (4, True))


def test_a_die_that_cannot_be_played_stays_left() -> None:
    # Only 24/18 can be played: 24/19 and 18/13 land on closed points (the opponent's 6 and
    # 12), and the checkers on the 1 point cannot bear off with one still out.
    position = Position.from_points({24: 1, 1: 14}, {6: 2, 12: 2, 20: 11})
    turn = position.turn((6, 5))
    assert turn.legal_steps() == [(24, 18)]
    turn = turn.step(24, 18)
    assert turn.is_complete and turn.dice_left() == (5,)


def test_completions_mark_the_hits_still_to_make() -> None:
    position = Position.from_points({13: 2, 6: 2}, {18: 1, 24: 14})
    turn = position.turn((6, 2)).step(13, 11)
    ways = turn.completions()
    assert {str(rest) for rest in ways.values()} >= {"(Step(from_point=13, to_point=7, hit=True),)"}
    assert ways[position.parse_play("13/11 13/7*", (6, 2)).result] == ((13, 7, True),)
    complete = turn.step(13, 7)
    assert complete.completions() == {complete.play().result: ()}
