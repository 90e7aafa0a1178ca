"""Position basics: the starting positions, views, value semantics, outcomes, validation and
gnubg Position IDs (checked against gnubg_nn, the test-only reference)."""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator

import gnubg_nn
import pytest

from backgammon import (
    BackgammonError,
    InvalidIdError,
    InvalidPositionError,
    Outcome,
    Position,
    Side,
    WinKind,
)

START_ID = "4HPwATDgc/ABMA"


def random_positions(seed: int, games: int, variant: str = "standard") -> Iterator[Position]:
    """Positions of random games: a random legal play each turn, the turn passing on a dance."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial(variant)
        while not position.is_game_over():
            yield position
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(plays).result if plays else position.flip()
        yield position


def gnubg_board(position: Position) -> list[list[int]]:
    """The position as gnubg_nn takes it: [opponent, player on roll], 25 counts each."""
    return [list(position.theirs[1:26]), list(position.mine[1:26])]


def side(points: dict[int, int], checkers: int = 15) -> tuple[int, ...]:
    """26 counts (off, points 1..24, bar) with the checkers not on the board borne off."""
    counts = [0] * 26
    for point, count in points.items():
        counts[point] = count
    counts[0] = checkers - sum(counts)
    return tuple(counts)


# Starting positions


def test_standard_start() -> None:
    """RULES.md, Board and equipment: "Start: 2 on your 24-point, 5 on your 13, 3 on your 8, 5
    on your 6, mirrored for the opponent." """
    p = Position.initial()
    expected = side({24: 2, 13: 5, 8: 3, 6: 5})
    assert p.mine == p.theirs == expected
    assert p.checkers == 15
    assert p.pips() == (167, 167)
    assert p.id() == START_ID
    assert Position.initial("standard") == p


def test_nackgammon_start() -> None:
    """Nackgammon (RULES.md, Variants, seed 001): 2 on the 24, 2 on the 23, 4 on the 13, 3 on
    the 8 and 4 on the 6, for each player."""
    p = Position.initial("nackgammon")
    assert p.mine == p.theirs == side({24: 2, 23: 2, 13: 4, 8: 3, 6: 4})
    assert p.pips() == (194, 194)
    assert p.id() == gnubg_nn.position_id(gnubg_board(p)) == "4Dl4ADbgOXgANg"


def test_hypergammon_start() -> None:
    """Hypergammon: three checkers each, on the 24, 23 and 22."""
    p = Position.initial("hypergammon")
    assert p.checkers == 3
    assert p.mine == p.theirs == side({24: 1, 23: 1, 22: 1}, checkers=3)
    assert p.off == (0, 0)
    assert p.pips() == (69, 69)


def test_variant_names_are_case_insensitive_and_unknown_ones_refused() -> None:
    """Variants are chosen by name; a wrong name says which names exist."""
    assert Position.initial("Nackgammon") == Position.initial("nackgammon")
    with pytest.raises(BackgammonError, match="hypergammon"):
        Position.initial("acey-deucey")


# Views


def test_pips_count_the_bar_as_25() -> None:
    """Pips: each checker counts its point number, a checker on the bar 25, borne off 0."""
    p = Position.from_points({"bar": 1, 6: 2, 1: 1}, {23: 3})
    assert p.pips() == (25 + 12 + 1, 69)
    assert p.bar == (1, 0)
    assert p.off == (11, 12)


def test_flip_swaps_the_sides() -> None:
    """flip() puts the other player on roll: the two sides trade places."""
    p = Position.from_points({"bar": 1, 6: 2}, {20: 3, 1: 1})
    q = p.flip()
    assert (q.mine, q.theirs) == (p.theirs, p.mine)
    assert q.pips() == p.pips()[::-1]
    assert q.bar == p.bar[::-1]
    assert q.off == p.off[::-1]
    assert q != p


def test_flip_twice_is_the_identity() -> None:
    """Flipping twice gives back the same position, for positions of random games."""
    for p in random_positions(seed=11, games=5):
        assert p.flip().flip() == p


def test_equal_positions_are_equal_and_hash_alike() -> None:
    """Positions are values: equal whatever the constructor, hashable, usable as set members."""
    a = Position.initial()
    b = Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 2})
    c = Position.from_id(START_ID)
    d = Position(a.mine, a.theirs)
    assert a == b == c == d
    assert len({hash(x) for x in (a, b, c, d)}) == 1
    assert len({a, b, c, d, a.flip(), Position.initial("nackgammon")}) == 2
    assert a != Position.from_points({6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 1})
    assert a != START_ID


def test_repr_round_trips_through_eval() -> None:
    """repr(p) is Python that rebuilds p, with checkers=N when not 15."""
    hyper = Position.initial("hypergammon")
    assert repr(Position.initial()) == f"Position.from_id({START_ID!r})"
    assert repr(hyper) == f"Position.from_id({hyper.id()!r}, checkers=3)"
    positions = [*random_positions(seed=5, games=1), *random_positions(7, 2, "hypergammon")]
    for p in positions:
        assert eval(repr(p), {"Position": Position}) == p


def test_str_draws_the_board_with_id_and_pips() -> None:
    """str(p) draws the board and names the Position ID and both pip counts."""
    p = Position.from_points({"bar": 1, 6: 2}, {20: 3})
    text = str(p)
    assert p.id() in text
    assert "pips 37" in text and "pips 60" in text
    assert START_ID in str(Position.initial())


def test_is_race() -> None:
    """A race: no contact left, every checker of each side past all of the other's."""
    assert not Position.initial().is_race()
    assert Position.from_points({12: 1, 1: 2}, {12: 1}).is_race()  # X on O's 13, O on 12
    assert not Position.from_points({13: 1}, {13: 1}).is_race()  # X on O's 12, O on 13
    assert not Position.from_points({"bar": 1, 1: 1}, {1: 2}).is_race()
    assert Position.from_points({5: 15}, {3: 15}).is_race()


# Winning and scoring (RULES.md, seeds 000, 001, 003)


def test_the_first_to_bear_off_all_fifteen_wins() -> None:
    """RULES.md, Winning and scoring: "The first player to bear off all fifteen checkers wins."

    Bearing off the last checker ends the game; the result, with the other player on roll,
    names the mover as the winner (the opponent of whoever is now on roll).
    """
    p = Position.from_points({2: 1}, {1: 3})
    assert p.outcome() is None and not p.is_game_over()
    (play,) = p.legal_plays((6, 5))
    assert str(play) == "2/off"
    assert play.result.is_game_over()
    assert play.result.outcome() == Outcome(Side.OPPONENT, WinKind.SINGLE)
    assert play.result.flip().outcome() == Outcome(Side.ON_ROLL, WinKind.SINGLE)


def test_single_game_when_the_loser_has_borne_off_a_checker() -> None:
    """RULES.md: "Single game: the loser has borne off at least one checker: loses the cube
    value." (One off is enough, even with checkers on the bar and in the winner's home.)"""
    assert Position.from_points({}, {3: 14}).outcome() == Outcome(Side.ON_ROLL, WinKind.SINGLE)
    on_bar = Position.from_points({}, {"bar": 1, 24: 13})
    assert on_bar.outcome() == Outcome(Side.ON_ROLL, WinKind.SINGLE)
    assert WinKind.SINGLE == 1


def test_gammon_when_the_loser_has_borne_off_none() -> None:
    """RULES.md: "Gammon: the loser has borne off none: twice the cube value."

    The loser's rearmost checker on its own 18 (the winner's 7) is outside the winner's home.
    """
    p = Position.from_points({}, {18: 1, 6: 14})
    assert p.outcome() == Outcome(Side.ON_ROLL, WinKind.GAMMON)
    assert p.flip().outcome() == Outcome(Side.OPPONENT, WinKind.GAMMON)
    assert WinKind.GAMMON == 2


def test_backgammon_when_the_loser_has_a_checker_on_the_bar() -> None:
    """RULES.md: "Backgammon: the loser has borne off none and still has a checker on the bar
    or in the winner's home board: three times the cube value." (The bar.)"""
    p = Position.from_points({}, {"bar": 1, 6: 14})
    assert p.outcome() == Outcome(Side.ON_ROLL, WinKind.BACKGAMMON)
    assert WinKind.BACKGAMMON == 3


def test_backgammon_when_the_loser_has_a_checker_in_the_winners_home_board() -> None:
    """RULES.md: "Backgammon: the loser has borne off none and still has a checker on the bar
    or in the winner's home board: three times the cube value." (The winner's home board: the
    loser's own points 19 to 24.)"""
    for point in range(19, 25):
        p = Position.from_points({}, {point: 1, 6: 14})
        assert p.outcome() == Outcome(Side.ON_ROLL, WinKind.BACKGAMMON)
    # The same seen from the loser on roll: O's own 1-point is outside X's home, O's 24 inside.
    lost_on_1 = Position.from_points({1: 15}, {})
    assert lost_on_1.outcome() == Outcome(Side.OPPONENT, WinKind.GAMMON)
    lost_on_24 = Position.from_points({24: 1, 1: 14}, {})
    assert lost_on_24.outcome() == Outcome(Side.OPPONENT, WinKind.BACKGAMMON)


# Validation


@pytest.mark.parametrize("count", [-1, 16, 1.5, True])
def test_a_count_out_of_range_is_refused(count: object) -> None:
    """A count is a whole number from 0 to 15."""
    mine = [0, *[0] * 24, 0]
    mine[6] = count
    mine[0] = 15
    with pytest.raises(InvalidPositionError, match="point 6"):
        Position(mine, side({6: 15}))


def test_more_than_fifteen_checkers_are_refused() -> None:
    """A side has at most 15 checkers."""
    with pytest.raises(InvalidPositionError, match="15"):
        Position.from_points({6: 10, 8: 6}, {6: 15})
    with pytest.raises(InvalidPositionError, match="15"):
        Position(side({6: 15}, checkers=16), side({6: 15}))


def test_both_sides_on_one_point_is_refused() -> None:
    """A point holds one side's checkers only: O's 6 is X's 19."""
    with pytest.raises(InvalidPositionError, match="Both sides"):
        Position.from_points({6: 2}, {19: 1})


@pytest.mark.parametrize("key", [0, 26, -3, "x", "off", True, 6.0])
def test_a_bad_point_key_is_refused(key: object) -> None:
    """Keys are 1 to 24, 'bar' or 25."""
    with pytest.raises(InvalidPositionError, match="not a point"):
        Position.from_points({key: 1}, {})  # type: ignore[dict-item]


def test_bar_is_accepted_as_name_or_25() -> None:
    """'bar' (any case) and 25 both mean the bar."""
    a = Position.from_points({"bar": 1}, {1: 1})
    assert a == Position.from_points({25: 1}, {1: 1}) == Position.from_points({"BAR": 1}, {1: 1})
    assert a.bar == (1, 0)


@pytest.mark.parametrize("checkers", [0, 16, "3", None])
def test_a_bad_checkers_count_is_refused(checkers: object) -> None:
    """checkers is the number each side has, from 1 to 15."""
    with pytest.raises(InvalidPositionError, match="from 1 to 15"):
        Position.from_points({}, {}, checkers=checkers)  # type: ignore[arg-type]


def test_more_checkers_on_the_board_than_the_side_has_is_refused() -> None:
    """from_points with checkers=3 cannot place four."""
    with pytest.raises(InvalidPositionError, match="more than the 3"):
        Position.from_points({24: 4}, {24: 1}, checkers=3)


def test_unequal_totals_are_refused() -> None:
    """Both sides have the same number of checkers."""
    with pytest.raises(InvalidPositionError, match="same number"):
        Position(side({6: 15}), side({6: 14}, checkers=14))


def test_a_side_of_the_wrong_length_is_refused() -> None:
    """A side is 26 counts: off, points 1 to 24, bar."""
    with pytest.raises(InvalidPositionError, match="26 counts"):
        Position(side({6: 15})[:25], side({6: 15}))


# Position IDs


def test_the_start_id() -> None:
    """The start is gnubg's '4HPwATDgc/ABMA', both ways."""
    assert Position.initial().id() == START_ID
    assert Position.from_id(START_ID) == Position.initial()
    assert gnubg_nn.position_id(gnubg_board(Position.initial())) == START_ID


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        ({"bar": 2, 6: 3, 5: 2}, {"bar": 1, 21: 2, 1: 4}),  # both on the bar, both borne off
        ({"bar": 15}, {"bar": 15}),  # every checker on the bar
        ({2: 1}, {24: 15}),  # 14 borne off
        ({}, {1: 1}),  # the player on roll has borne off all 15
        ({24: 15}, {24: 15}),  # fifteen on one point
    ],
)
def test_ids_round_trip(mine: dict[int | str, int], theirs: dict[int | str, int]) -> None:
    """from_id(p.id()) == p, and the ID is the one gnubg writes."""
    p = Position.from_points(mine, theirs)
    assert Position.from_id(p.id()) == p
    assert p.id() == gnubg_nn.position_id(gnubg_board(p))
    assert len(p.id()) == 14


def test_hypergammon_ids_round_trip_with_three_checkers() -> None:
    """A 3-checker position's ID rebuilds it with checkers=3 (the ID has no borne-off count)."""
    for p in random_positions(seed=3, games=3, variant="hypergammon"):
        assert Position.from_id(p.id(), checkers=3) == p
        assert p.id() == gnubg_nn.position_id(gnubg_board(p))
    start = Position.initial("hypergammon")
    assert Position.from_id(start.id(), checkers=3).off == (0, 0)
    assert Position.from_id(start.id()).off == (12, 12)


def test_ids_agree_with_gnubg_for_random_positions() -> None:
    """p.id() is gnubg_nn.position_id of the same board, and from_id inverts it."""
    count = 0
    for p in random_positions(seed=2024, games=6):
        assert p.id() == gnubg_nn.position_id(gnubg_board(p))
        assert Position.from_id(p.id()) == p
        assert gnubg_nn.board_from_position_id(p.id()) == gnubg_board(p)
        count += 1
    assert count > 300


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("4HPwATDgc/ABM", "14 characters"),  # too short
        ("4HPwATDgc/ABMAA", "14 characters"),  # too long
        ("", "14 characters"),
        ("4HPwATDgc/AB!A", "14 characters"),  # a character outside base64
        ("4HPwATDgc ABMA", "14 characters"),
        ("4HPwATDgc/ABM=", "14 characters"),  # padding is not part of an ID
        ("//////////////", "at most 15"),  # 80 one-bits: far too many checkers
        ("//8AAAAAAAAAAA", "at most 15"),  # 16 checkers for the opponent
    ],
)
def test_malformed_ids_are_refused(text: str, word: str) -> None:
    """A malformed Position ID raises InvalidIdError, saying what is wrong."""
    with pytest.raises(InvalidIdError, match=word):
        Position.from_id(text)


def test_sixteen_checkers_for_the_player_on_roll_are_refused() -> None:
    """The second half of the key (the player on roll) is checked as well as the first."""
    # 25 zero-bits end the opponent's (empty) counts; then 16 one-bits on the roller's 1-point.
    key = ((1 << 16) - 1) << 25
    text = base64.b64encode(key.to_bytes(10, "little")).decode()[:14]
    with pytest.raises(InvalidIdError, match="player on roll"):
        Position.from_id(text)


@pytest.mark.parametrize("value", [None, 12345678901234, b"4HPwATDgc/ABMA"])
def test_an_id_that_is_not_text_is_refused(value: object) -> None:
    """Only a str can be a Position ID."""
    with pytest.raises(InvalidIdError):
        Position.from_id(value)  # type: ignore[arg-type]
