"""The games' one interface (``backgammon.games``): backgammon behind it is today's rules
unchanged, the step search that the other games share finds backgammon's plays exactly, and
the boards of every game keep "seen from the player on roll".
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from backgammon import (
    BackgammonError,
    InvalidDiceError,
    InvalidPositionError,
    Position,
    Side,
    Variant,
)
from backgammon.dice import Dice
from backgammon.games import (
    GAMES,
    TAVLI,
    Backgammon,
    Board,
    Ending,
    GameRules,
    LoneChecker,
    Travel,
    rules_for,
)
from backgammon.games.base import SearchedRules


def random_positions(seed: int, games: int, variant: str = "standard") -> Iterator[
        tuple[Position, Dice]]:
    """Positions and rolls of random backgammon games (bar, hits and bearing off included)."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial(variant)
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, dice
            plays = position.legal_plays(dice)
            position = rng.choice(plays).result if plays else position.flip()


@pytest.mark.parametrize("variant", ["standard", "nackgammon", "hypergammon"])
def test_backgammon_behind_the_interface_plays_the_cores_moves_unchanged(variant: str) -> None:
    """Backgammon's rules object delegates to ``moves.legal_plays``: the same plays, the same
    steps, for every layout."""
    rules = rules_for(variant)
    assert isinstance(rules, Backgammon) and rules.checkers == Variant(variant).checkers
    assert rules.initial().to_position() == Position.initial(variant)
    for position, dice in random_positions(1, 5, variant):
        board = Board.from_position(position)
        ours = {(play.result.to_position(), play.steps)
                for play in rules.legal_plays(board, dice)}
        core = {(play.result, play.steps) for play in position.legal_plays(dice)}
        assert ours == core


def test_the_step_search_finds_exactly_backgammons_legal_plays() -> None:
    """The search that Tavla, Plakoto, Fevga and Long Nardy share, given backgammon's steps,
    finds the core's plays on thousands of positions: both dice or the larger, doubles,
    entering from the bar, bearing off."""
    rules = Backgammon()  # its single steps, through the search rather than moves.py
    count = 0
    for position, dice in random_positions(7, 12):
        board = Board.from_position(position)
        ours = {play.result.to_position()
                for play in SearchedRules.legal_plays(rules, board, dice)}
        assert ours == {play.result for play in position.legal_plays(dice)}, (position, dice)
        count += 1
    assert count > 1000


def test_backgammon_scores_single_gammon_and_backgammon_as_the_core_does() -> None:
    rules = Backgammon()
    board = Board.from_position(Position.from_points({}, {1: 1, 20: 14}))
    assert rules.outcome(board) == rules.outcome(board) is not None
    result = rules.outcome(board)
    assert result is not None
    assert (result.winner, result.ending, result.points) == (Side.ON_ROLL, Ending.BACKGAMMON, 3)
    assert rules.cube and not rules.opening_reroll
    assert rules.outcome(rules.initial()) is None


def test_every_game_has_a_rules_object_and_unknown_names_are_refused() -> None:
    assert GAMES == ("standard", "nackgammon", "hypergammon", "portes", "tavla", "plakoto",
                     "fevga", "long-nardy", "acey-deucey")
    for name in GAMES:
        rules = rules_for(name)
        assert isinstance(rules, GameRules) and rules.name == name
        assert rules.check(rules.initial()) == rules.initial()
        assert rules.outcome(rules.initial()) is None
    assert rules_for(" Plakoto ").name == "plakoto"
    assert TAVLI == ("portes", "plakoto", "fevga")
    with pytest.raises(BackgammonError, match="No game is called"):
        rules_for("chess")


def test_the_variant_enum_still_offers_only_the_backgammon_layouts() -> None:
    """The games are not wired into the game, the server or the page yet: ``Variant``, which
    they offer, keeps its three layouts."""
    assert [v.value for v in Variant] == ["standard", "nackgammon", "hypergammon"]


def test_the_games_describe_themselves_for_the_page_and_the_help() -> None:
    described = {name: (rules_for(name).travel, rules_for(name).lone_checker,
                        rules_for(name).cube) for name in GAMES}
    assert described["standard"] == (Travel.OPPOSITE, LoneChecker.HIT, True)
    assert described["portes"] == (Travel.OPPOSITE, LoneChecker.HIT, False)
    assert described["tavla"] == (Travel.OPPOSITE, LoneChecker.HIT, False)
    assert described["plakoto"] == (Travel.OPPOSITE, LoneChecker.PIN, False)
    assert described["fevga"] == (Travel.SAME, LoneChecker.HOLDS, False)
    assert described["long-nardy"] == (Travel.SAME, LoneChecker.HOLDS, False)
    assert described["acey-deucey"] == (Travel.OPPOSITE, LoneChecker.HIT, False)


def test_same_way_boards_number_each_side_from_its_own_start() -> None:
    """Fevga and Long Nardy: both sides travel 24 to 1 on their own numbers; the mover's
    24-point (their start) is the opponent's 12, so the heads lie at opposite corners and
    each home board (1..6) is the other side's 13..18."""
    assert [Travel.SAME.their_point(p) for p in (24, 13, 12, 1, 6)] == [12, 1, 24, 13, 18]
    for point in range(1, 25):
        assert Travel.SAME.their_point(Travel.SAME.their_point(point)) == point
        assert Travel.OPPOSITE.their_point(point) == 25 - point
    board = rules_for("long-nardy").initial()
    assert board.flip() == board and board.pips() == (360, 360)


def test_a_board_refuses_shared_points_that_the_game_does_not_allow() -> None:
    # Point 12 is the opponent's 24 in a same-way game: their head.
    shared = Board.from_points({12: 1, 24: 14}, {24: 15})
    with pytest.raises(InvalidPositionError, match="Both sides have checkers on point 12"):
        rules_for("fevga").check(shared)
    assert rules_for("standard").check(shared) == shared  # 12 is the opponent's 13 there
    with pytest.raises(InvalidPositionError, match="only a lone checker"):
        Board.from_points({5: 2}, {20: 1}, mine_pinned=[5])
    with pytest.raises(InvalidPositionError, match="pins no checkers"):
        rules_for("portes").check(Board.from_points({5: 1}, {20: 1}, mine_pinned=[5]))
    with pytest.raises(InvalidPositionError, match="never sends there"):
        rules_for("long-nardy").check(Board.from_points({25: 1, 24: 14}, {24: 15}))
    with pytest.raises(InvalidPositionError, match="a side has 15 here"):
        rules_for("plakoto").check(Board.from_points({24: 3}, {24: 3}, checkers=3))


def test_bad_boards_and_dice_are_refused_with_a_sentence() -> None:
    for mine in ([6, 5], {6: "5"}, {0: 1}, {26: 1}, {6: -1}, {6: 16}):
        with pytest.raises(InvalidPositionError):
            Board.from_points(mine, {})  # type: ignore[arg-type]
    with pytest.raises(InvalidPositionError, match="waiting to enter"):
        Board.from_points({}, {}, mine_waiting=-1)
    with pytest.raises(InvalidPositionError):
        Board([0] * 26, [1] + [0] * 25)
    with pytest.raises(InvalidPositionError, match="Pinned checkers stand on points"):
        Board.from_points({6: 1}, {}, mine_pinned=[0])
    for name in ("standard", "plakoto"):
        rules = rules_for(name)
        with pytest.raises(InvalidDiceError):
            rules.legal_plays(rules.initial(), (7, 1))


def test_a_board_round_trips_through_its_repr_and_flips_its_pins() -> None:
    board = Board.from_points({1: 1, 24: 14}, {24: 14, 4: 1}, mine_pinned=[1])
    assert eval(repr(board)) == board  # our own repr, pasted back
    waiting = Board.from_points({20: 1, 25: 1}, {}, mine_waiting=13, theirs_waiting=15)
    assert eval(repr(waiting)) == waiting
    assert board.flip().pinned() == (frozenset(), frozenset({1}))
    with pytest.raises(InvalidPositionError, match="not a backgammon position"):
        board.to_position()
