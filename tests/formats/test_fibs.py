"""FIBS board lines: the lines Debian's gnubg 1.07 writes to its external players read with the
meaning gnubg gives them, written back the same, and every state written and read back."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from backgammon import Position
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.formats.fibs import (
    BoardState,
    FibsBoardError,
    FibsSide,
    ScoreOrder,
    parse_board,
    read_board,
    write_board,
)

DATA = Path(__file__).parent.parent / "data" / "fibs"
GNUBG = ScoreOrder.GNUBG_EXTERNAL


def gnubg_lines() -> list[str]:
    """Every board line gnubg sent in the recorded matches (tests/data/fibs)."""
    lines = []
    for path in sorted(DATA.glob("gnubg-*.txt")):
        lines += [line for line in path.read_text().splitlines() if line.startswith("board:")]
    return lines


def test_the_recorded_matches_hold_every_kind_of_line() -> None:
    lines = gnubg_lines()
    states = [read_board(line, GNUBG) for line in lines]
    assert len(lines) > 100
    assert {state.on_roll for state in states} == {FibsSide.PLAYER, FibsSide.OPPONENT}
    assert any(state.double_pending for state in states)
    assert any(state.dice is None for state in states)
    assert any(state.cube.match and state.cube.match.crawford for state in states)
    assert any(state.cube.match and state.cube.match.post_crawford for state in states)
    assert any(state.cube.owner is not CubeOwner.CENTRE for state in states)


@pytest.mark.parametrize("line", gnubg_lines())
def test_a_line_gnubg_wrote_reads_and_writes_back_the_same(line: str) -> None:
    board = parse_board(line)
    assert str(board) == line
    assert str(board.state(GNUBG).board(GNUBG)) == line


# Lines gnubg 1.07 sent in set-ups made with its commands, and what they mean. The position
# 4HPwATDgc/ABUA is the start with one checker of the side on roll on the bar instead of the
# 24-point.
KNOWN = {
    # Player 1 external, on roll at the start of a money game, 6-1 rolled (set dice 6 1).
    "board:gnubg:root:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:1:1:1:6:1:6:"
    "1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1":
        (FibsSide.PLAYER, FibsSide.PLAYER, "4HPwATDgc/ABUA", (6, 1), CubeContext()),
    # Player 0 external, on roll at 3-1 (its 3) in a 5-point match.
    "board:gnubg:root:5:3:1:-1:-1:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:6:1:"
    "6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1":
        (FibsSide.OPPONENT, FibsSide.OPPONENT, "4HPwATDgc/ABUA", (6, 1),
         CubeContext(match=MatchScore(5, (3, 1)))),
    # Player 0 (gnubg, 3) doubles player 1 (external, 1) in a 5-point match.
    "board:root:gnubg:5:1:3:-1:-1:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:0:0:"
    "0:0:1:1:1:1:1:-1:0:25:0:0:0:0:0:0:0:1":
        (FibsSide.OPPONENT, FibsSide.PLAYER, "4HPwATDgc/ABUA", None,
         CubeContext(match=MatchScore(5, (3, 1)))),
    # Player 0 redoubles to 4 in a money game.
    "board:root:gnubg:0:0:0:-1:-1:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:-1:0:0:"
    "0:0:2:0:1:1:1:-1:0:25:0:0:0:0:0:0:0:1":
        (FibsSide.OPPONENT, FibsSide.PLAYER, "4HPwATDgc/ABUA", None,
         CubeContext(2, CubeOwner.ON_ROLL)),
    # Player 1 external (2) in the Crawford game against 4, rolled for by gnubg.
    "board:gnubg:root:5:4:2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:6:5:"
    "6:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:0":
        (FibsSide.PLAYER, FibsSide.PLAYER, "4HPwATDgc/ABMA", (5, 6),
         CubeContext(match=MatchScore(5, (2, 4), crawford=True))),
    # The same score after the Crawford game (set crawford off): the cube is back.
    "board:gnubg:root:5:4:2:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:0:0:0:"
    "0:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:1:1":
        (FibsSide.PLAYER, FibsSide.PLAYER, "4HPwATDgc/ABMA", None,
         CubeContext(match=MatchScore(5, (2, 4)))),
}


@pytest.mark.parametrize("line", KNOWN)
def test_a_line_gnubg_wrote_means_what_gnubg_meant(line: str) -> None:
    on_roll, to_act, position_id, dice, cube = KNOWN[line]
    state = read_board(line, GNUBG)
    assert (state.on_roll, state.to_act) == (on_roll, to_act)
    assert state.position == Position.from_id(position_id)
    assert state.dice == dice
    assert state.cube == cube
    assert state.double_pending == (on_roll is not to_act)
    assert write_board(state, GNUBG) == line


def test_fibs_order_puts_the_player_s_name_and_score_first() -> None:
    board = parse_board(list(KNOWN)[1])
    state = board.state(ScoreOrder.FIBS)
    assert state.names == (board.player, board.opponent)
    assert state.board(ScoreOrder.FIBS) == board


POSITIONS = [
    Position.initial(),
    Position.from_id("4HPwATDgc/ABUA"),
    Position.from_points({"bar": 2, 1: 3, 20: 1}, {"bar": 1, 3: 4, 23: 1}, checkers=15),
    Position.from_points({1: 1}, {6: 2}, checkers=3),
]
CUBES = [
    CubeContext(),
    CubeContext(4, CubeOwner.ON_ROLL),
    CubeContext(8, CubeOwner.OPPONENT),
    CubeContext(match=MatchScore(7, (6, 2), crawford=True)),
    CubeContext(2, CubeOwner.OPPONENT, MatchScore(7, (2, 6))),
    CubeContext(match=MatchScore(9, (8, 8))),
]


@pytest.mark.parametrize("order", list(ScoreOrder))
def test_every_state_written_reads_back(order: ScoreOrder) -> None:
    for position, on_roll, dice, cube, pending, colour, direction in itertools.product(
        POSITIONS, FibsSide, [None, (6, 5), (2, 2)], CUBES, [False, True], [1, -1], [1, -1]
    ):
        state = BoardState(position, on_roll, dice, cube, pending, ("Ann", "Bo"), colour,
                           direction)
        assert read_board(write_board(state, order), order) == state


def test_fibs_colour_and_direction_place_the_checkers() -> None:
    # X (colour -1) moving from 1 to 24: the player's 24-point is board index 1, its bar 0.
    state = BoardState(Position.from_id("4HPwATDgc/ABUA"), FibsSide.PLAYER, (3, 1),
                       CubeContext(), colour=-1, direction=1)
    board = state.board()
    assert board.board[1] == -1 and board.board[0] == -1  # a checker on the 24, one on the bar
    assert board.board[24] == 2  # the opponent's 24-point, O's checkers positive
    assert (board.home, board.bar, board.turn) == (25, 0, -1)


def test_an_unlimited_match_is_money_play() -> None:
    line = next(line for line in KNOWN if line.startswith("board:gnubg:root:0:"))
    board = parse_board(line.replace("board:gnubg:root:0:", "board:gnubg:root:9999:"))
    assert board.state(GNUBG).cube.match is None


START = ("board:gnubg:root:5:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:"
         "6:1:6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")


@pytest.mark.parametrize(
    ("index", "values", "says"),
    [
        (52, [], "53 fields"),  # the last field missing
        (0, ["bored"], "starts with 'board:'"),
        (7, ["x"], "whole numbers"),
        (32, ["0"], "turn 0"),
        (41, ["2"], "colour and the direction"),
        (3, ["70"], "1 to 64 points"),
        (4, ["5"], "no game to play"),  # a score of 5 in a 5-point match
        (7, ["-3"], "no game to play"),  # 16 checkers against 15
        (33, ["7"], "no game to play"),
        (45, ["-1"], "borne off"),
    ],
)
def test_a_malformed_line_is_refused_with_a_reason(
    index: int, values: list[str], says: str
) -> None:
    fields = START.split(":")
    read_board(":".join(fields), GNUBG)
    fields[index:index + 1] = values
    with pytest.raises(FibsBoardError, match=says):
        read_board(":".join(fields), GNUBG)


def test_gnubg_s_newline_and_nul_are_ignored() -> None:
    line = next(iter(KNOWN))
    assert parse_board(line + "\n\0") == parse_board("\0" + line)
