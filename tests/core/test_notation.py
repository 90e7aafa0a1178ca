"""Play notation: writing exactly as GNU Backgammon does, and parsing what people type.

gnubg_nn gives each legal play as its steps, ((from, to), ...) with 25 the bar and 0 off, but
not as text; :func:`gnubg_format` is a port of gnubg's ``FormatMove`` (drawboard.c), applied to
gnubg's own steps, so the text each engine would write can be compared play by play.

Board diagrams: the columns are the player on roll's point numbers (O, moving from 24 toward
1); the X row shows the opponent's checkers on those same points; "." is an empty point.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import gnubg_nn
import pytest
from support import random_turns

from backgammon import IllegalPlayError, Position

Dice = tuple[int, int]



def gnubg_format(position: Position, steps: Sequence[tuple[int, int]]) -> str:
    """gnubg's FormatMove: the notation of ``steps`` (25 = bar, 0 = off) from ``position``.

    Steps are sorted by source then destination, highest first; a step starting where a path
    ends joins it (the point kept, with '*', only if a blot stood there); equal paths are
    counted as "(n)"; a point is marked '*' the first time it is reached with a blot on it.
    """

    def blot(point: int) -> bool:
        # gnubg tests anBoard[0][24 - point]: the opponent's own point 25 - point.
        return point != 0 and position.theirs[25 - point] > 0

    rows = sorted(steps, reverse=True)
    paths: list[list[int]] = []
    used = [False] * len(rows)
    for i, (source, target) in enumerate(rows):
        if used[i]:
            continue
        path = [source, target]
        for j in range(i + 1, len(rows)):
            if not used[j] and rows[j][0] == path[-1]:
                if blot(path[-1]):
                    path.append(rows[j][1])
                else:
                    path[-1] = rows[j][1]
                used[j] = True
        paths.append(path)
    counted: list[tuple[list[int], int]] = []
    for path in paths:
        for k, (seen, count) in enumerate(counted):
            if seen == path:
                counted[k] = (seen, count + 1)
                break
        else:
            counted.append((path, 1))

    def name(point: int) -> str:
        return "bar" if point == 25 else "off" if point == 0 else str(point)

    marked: set[int] = set()
    parts = []
    for path, count in counted:
        text = name(path[0])
        for point in path[1:-1]:
            text += f"/{name(point)}*"
            marked.add(point)
        text += f"/{name(path[-1])}"
        if blot(path[-1]) and path[-1] not in marked:
            text += "*"
            marked.add(path[-1])
        parts.append(text + (f"({count})" if count > 1 else ""))
    return " ".join(parts)


def gnubg_texts(position: Position, dice: Dice) -> dict[str, str]:
    """gnubg's plays for the roll: the key of each resulting board -> its notation."""
    board = [list(position.theirs[1:26]), list(position.mine[1:26])]
    return {key: gnubg_format(position, steps) for key, steps in gnubg_nn.moves(board, *dice, 1)}


def texts(position: Position, dice: Dice) -> set[str]:
    """Our plays' notation, after asserting that each is what gnubg writes for the same play."""
    reference = gnubg_texts(position, dice)
    plays = position.legal_plays(dice)
    ours = {}
    for play in plays:
        key = gnubg_nn.key_of_board([list(play.result.mine[1:26]), list(play.result.theirs[1:26])])
        ours[key] = str(play)
    assert len(ours) == len(plays)
    assert ours == reference
    return set(ours.values())


# Writing


def test_doubles_repeat_counts() -> None:
    """6-6 at the start: the two back checkers and two from the mid-point, '(2)' each."""
    assert "24/18(2) 13/7(2)" in texts(Position.initial(), (6, 6))


def test_a_hit_on_the_way_keeps_the_intermediate_point() -> None:
    """A checker hitting on its way shows the point it hit: '13/7*/5'."""
    # point  13  12  11  10   9   8   7   6   5
    # O       2   .   .   .   .   .   .   2   .
    # X       .   .   .   .   .   .   1   .   .
    position = Position.from_points({13: 2, 6: 2}, {18: 1, 24: 14})
    assert texts(position, (6, 2)) == {"13/11 13/7*", "13/7* 6/4", "13/7*/5", "13/5"}


def test_entering_with_a_hit() -> None:
    """Entering on a blot: 'bar/22*'; the second checker cannot enter (X holds 20)."""
    # point bar  24  23  22  21  20  19
    # O       2   .   .   .   .   .   .
    # X       .   .   .   1   .   2   .
    position = Position.from_points({"bar": 2, 6: 2}, {3: 1, 5: 2})
    assert texts(position, (5, 3)) == {"bar/22*"}


def test_bearing_off_is_written_off() -> None:
    """The last checker borne off: '6/off' (by the 6, or 6/1 and then off with the 5)."""
    position = Position.from_points({6: 1}, {1: 1})
    assert texts(position, (6, 5)) == {"6/off"}


def test_two_checkers_on_the_same_path_are_counted() -> None:
    """3-3 with X holding 2: both checkers from 8 to 5 and no further: '8/5(2)'."""
    # point   8   7   6   5   4   3   2
    # O       2   .   .   .   .   .   .
    # X       .   .   .   .   .   .   2
    position = Position.from_points({8: 2}, {23: 2})
    assert texts(position, (3, 3)) == {"8/5(2)"}


def test_a_hit_is_marked_once_on_repeated_paths() -> None:
    """4-4 onto a blot twice and 6/2 twice: '8/4*(2) 6/2(2)', the '*' once."""
    # point  24 ..  13 ..   8   7   6   5   4   3   2
    # O       . ..   1 ..   2   .   2   .   .   .   .
    # X       2 ..   . ..   .   .   .   .   1   .   .
    position = Position.from_points({13: 1, 8: 2, 6: 2}, {21: 1, 1: 2})
    assert "8/4*(2) 6/2(2)" in texts(position, (4, 4))


def test_moves_are_ordered_from_the_highest_point() -> None:
    """6-1 at the start: '24/23 24/18' (same source: the higher destination first) and
    '13/7 8/7', not '8/7 13/7'."""
    plays = texts(Position.initial(), (6, 1))
    assert {"24/23 24/18", "13/7 8/7", "24/18 6/5"} <= plays
    assert "24/18 24/23" not in plays


def test_a_chained_bear_off_is_one_path() -> None:
    """6-1 with a lone checker on 7: 7/1 and 1/off (or 7/6 and 6/off) are '7/off'."""
    position = Position.from_points({7: 1}, {1: 1})
    assert texts(position, (6, 1)) == {"7/off"}


def test_a_checker_hitting_twice() -> None:
    """Two hits by one checker: '13/9*/5*' (4-4 with blots on 9 and 5; X holds 1, so the
    checker from 13 stops on 5 and the other two 4s go 24/16)."""
    # point  24 ..  13  12  11  10   9   8   7   6   5   4   3   2   1
    # O       1 ..   1   .   .   .   .   .   .   .   .   .   .   .   .
    # X       . ..   .   .   .   .   1   .   .   .   1   .   .   .   2
    position = Position.from_points({13: 1, 24: 1}, {16: 1, 20: 1, 24: 2})
    assert texts(position, (4, 4)) == {"24/16 13/9*/5*", "24/12 13/9*", "24/8"}


def test_a_checker_hitting_four_times() -> None:
    """3-3 with blots on 10, 7, 4 and 1: one checker hits all four, '13/10*/7*/4*/1*'."""
    # point  13  12  11  10   9   8   7   6   5   4   3   2   1
    # O       1   .   .   .   .   .   .   .   .   .   .   .   .
    # X       .   .   .   1   .   .   1   .   .   1   .   .   1
    position = Position.from_points({13: 1}, {15: 1, 18: 1, 21: 1, 24: 1})
    assert texts(position, (3, 3)) == {"13/10*/7*/4*/1*"}


def test_notation_matches_gnubg_for_random_positions() -> None:
    """For every legal play of many random positions, our text is gnubg's FormatMove of the
    steps gnubg gives for the same play."""
    plays = 0
    for position, dice in random_turns(seed=99, games=20):
        plays += len(texts(position, dice))
    assert plays > 10_000


# Parsing: what is accepted


# point  13  12  11  10   9   8   7   6   5
# O       2   .   .   .   .   .   .   2   .
# X       .   .   .   .   .   .   1   .   .
HIT_POSITION = Position.from_points({13: 2, 6: 2}, {18: 1, 24: 14})


@pytest.mark.parametrize("text", ["13/7*/5", "13/7/5", "13/7* 7/5", "13/7 7/5"])
def test_parse_accepts_hit_marks_or_none(text: str) -> None:
    """The '*' is optional: naming the hit point is enough."""
    assert str(HIT_POSITION.parse_play(text, (6, 2))) == "13/7*/5"


def test_parse_accepts_bar_or_25() -> None:
    """'bar' and '25' both name the bar."""
    position = Position.from_points({"bar": 1, 8: 1}, {1: 1})
    bar = position.parse_play("bar/22 8/2", (6, 3))
    assert position.parse_play("25/22 8/2", (6, 3)) == bar
    assert str(bar) == "bar/22 8/2"


def test_parse_accepts_off_or_0() -> None:
    """'off' and '0' both name the tray."""
    position = Position.from_points({6: 1, 5: 1}, {1: 2})
    off = position.parse_play("6/off 5/1", (6, 4))
    assert position.parse_play("6/0 5/1", (6, 4)) == off
    assert str(off) == "6/off 5/1"


@pytest.mark.parametrize("text", ["13/5", "13/8/5", "13/10/5", "13/8 8/5", "13/10 10/5"])
def test_parse_accepts_a_whole_path_or_its_ends(text: str) -> None:
    """'13/5' for 13/8/5 (or 13/10/5): a checker's whole path, or only where it starts and ends."""
    assert str(Position.initial().parse_play(text, (5, 3))) == "13/5"


@pytest.mark.parametrize(
    "text", ["24/18(2) 13/7(2)", "24/18 24/18 13/7 13/7", "24/18(2) 13/7 13/7", "13/7(2) 24/18(2)"]
)
def test_parse_accepts_repeats_and_any_order(text: str) -> None:
    """'(2)' repeats a move; the moves may come in any order."""
    assert str(Position.initial().parse_play(text, (6, 6))) == "24/18(2) 13/7(2)"


@pytest.mark.parametrize("text", ["13/11 24/18", "24-18 13-11", "13-11 24/18", " 24/18  13/11 "])
def test_parse_accepts_any_order_and_dash_separators(text: str) -> None:
    """The moves in any order, '-' as well as '/' between points, spaces around."""
    assert str(Position.initial().parse_play(text, (6, 2))) == "24/18 13/11"


@pytest.mark.parametrize("text", ["BAR/22 8/2", "Bar/22 8/2", "bAr/16"])
def test_parse_is_case_insensitive(text: str) -> None:
    """'BAR', 'Bar' and 'bar' are the same."""
    position = Position.from_points({"bar": 1, 8: 1}, {1: 1})
    assert str(position.parse_play(text, (6, 3))) == text.lower()


def test_parse_is_case_insensitive_for_off() -> None:
    """'OFF' is 'off'."""
    position = Position.from_points({6: 1, 5: 1}, {1: 2})
    assert str(position.parse_play("6/OFF 5/1", (6, 4))) == "6/off 5/1"


def test_parse_prefers_the_quiet_play_when_no_hit_is_named() -> None:
    """'13/5' with a blot on 8 only is not ambiguous: gnubg writes the play by 10 '13/5' and the
    hitting one '13/8*/5', so the text without a hit is the quiet play."""
    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   .   .   1   .   .   .
    position = Position.from_points({13: 1}, {17: 1})
    assert str(position.parse_play("13/5", (5, 3))) == "13/5"
    assert str(position.parse_play("13/8/5", (5, 3))) == "13/8*/5"


def test_parse_round_trips_every_legal_play() -> None:
    """parse_play(str(play)) is the play itself, for the legal plays of random positions.

    Every play where there are at most 12; else 12 drawn at random (each parse is linear in
    the number of legal plays, and big doubles have hundreds).
    """
    rng = random.Random(5)
    count = 0
    for position, dice in random_turns(seed=123, games=3):
        plays = position.legal_plays(dice)
        for play in rng.sample(plays, min(len(plays), 12)):
            assert position.parse_play(str(play), dice) == play
            count += 1
    assert count > 1500


# Parsing: what is refused


def refusal(position: Position, text: str, dice: Dice) -> IllegalPlayError:
    """The error parse_play raises for ``text``; it must list the legal plays."""
    with pytest.raises(IllegalPlayError) as caught:
        position.parse_play(text, dice)
    assert set(caught.value.legal) == {str(play) for play in position.legal_plays(dice)}
    return caught.value


def test_parse_refuses_an_illegal_play() -> None:
    """6-5 at the start cannot play the 6 twice."""
    error = refusal(Position.initial(), "24/18 13/7", (6, 5))
    assert "not a legal play" in str(error)
    assert "24/13" in str(error)  # the message lists the legal plays


def test_parse_refuses_an_ambiguous_play() -> None:
    """'13/5' with 5-3 and blots on both 10 and 8 hits one or the other: it must say which."""
    # point  13  12  11  10   9   8   7   6   5
    # O       1   .   .   .   .   .   .   .   .
    # X       .   .   .   1   .   1   .   .   .
    position = Position.from_points({13: 1}, {15: 1, 17: 1})
    assert texts(position, (5, 3)) == {"13/10*/5", "13/8*/5"}
    error = refusal(position, "13/5", (5, 3))
    assert "ambiguous" in str(error)
    assert str(position.parse_play("13/10/5", (5, 3))) == "13/10*/5"


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("13/x", "not a point"),
        ("13/26 13/11", "not a point"),
        ("5/13", "backwards"),
        ("13/13", "backwards"),
        ("13/7(9)", "at most 4"),
        ("13", "not a move"),
        ("13/7(2", "not a move"),
    ],
)
def test_parse_refuses_malformed_text(text: str, word: str) -> None:
    """Text that is not a play at all says what is wrong with it."""
    assert word in str(refusal(Position.initial(), text, (6, 6)))


def test_parse_refuses_a_move_from_an_empty_point() -> None:
    """O has no checker on 12 (X's 13-point is there)."""
    assert "than stand there" in str(refusal(Position.initial(), "12/6 13/11", (6, 2)))


def test_parse_refuses_more_checkers_than_a_point_holds() -> None:
    """Three checkers on 8, so 8/2(4) moves one too many."""
    assert "than stand there" in str(refusal(Position.initial(), "8/2(4)", (6, 6)))


def test_parse_refuses_a_hit_mark_without_a_blot() -> None:
    """'24/18*' at the start: no opposing checker stands on 18."""
    assert "marks a hit" in str(refusal(Position.initial(), "24/18* 13/11", (6, 2)))


def test_parse_refuses_a_path_through_points_no_die_reaches() -> None:
    """'13/9/5' with 5-3 names a step of 4 (13/9): not the path 13/8/5 or 13/10/5, nor only
    the ends; it is not a play of this roll."""
    refusal(Position.initial(), "13/9/5", (5, 3))


def test_parse_with_no_legal_move() -> None:
    """A dance: an empty text (or 'pass') is the only play; any move is refused."""
    # point bar  24  23  22  21  20  19
    # O       1   .   .   .   .   .   .
    # X       .   2   2   2   2   2   2
    position = Position.from_points({"bar": 1, 6: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert texts(position, (5, 2)) == set()
    for text in ("", "pass"):
        play = position.parse_play(text, (5, 2))
        assert play.steps == ()
        assert play.result == position.flip()
    assert "No checker can move" in str(refusal(position, "bar/20", (5, 2)))


def test_parse_refuses_an_empty_text_when_a_play_exists() -> None:
    """Passing is not a play while a checker can move."""
    assert "must be given" in str(refusal(Position.initial(), "", (6, 2)))
