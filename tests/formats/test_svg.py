"""The SVG board (backgammon.formats.svg): it parses, it draws every checker where the position
has it, numbers the points from the player on roll's side, and says the position in words."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from backgammon.cube import CubeOwner
from backgammon.formats.svg import BoardLabels, board_svg, describe
from backgammon.games import Board, rules_for
from backgammon.position import BAR, OFF, Position

SVG = "{http://www.w3.org/2000/svg}"


def stacks(svg: str) -> dict[tuple[str, str], int]:
    root = ET.fromstring(svg)
    found = {}
    for stack in root.iter(f"{SVG}g"):
        if stack.get("class") == "stack":
            key = (stack.get("data-side", ""), stack.get("data-place", ""))
            assert key not in found, key
            found[key] = int(stack.get("data-count", "0"))
    return found


def expected(position: Position) -> dict[tuple[str, str], int]:
    """Every place with checkers, on the player on roll's numbering."""
    places: dict[tuple[str, str], int] = {}
    for side, counts, mirrored in (("on-roll", position.mine, False),
                                   ("opponent", position.theirs, True)):
        for point in range(1, 25):
            count = counts[25 - point] if mirrored else counts[point]
            if count:
                places[(side, str(point))] = count
        if counts[BAR]:
            places[(side, "bar")] = counts[BAR]
        if counts[OFF]:
            places[(side, "off")] = counts[OFF]
    return places


POSITIONS = [
    Position.initial(),
    Position.initial("nackgammon"),
    Position.from_id("AACgAgAAKgAAAA", checkers=3),  # Hypergammon
    Position.from_points({"bar": 2, 6: 7, 5: 2, 4: 2, 1: 2}, {"bar": 1, 1: 2, 2: 2, 3: 2}),
    Position.from_points({1: 2}, {6: 5, 5: 3, 8: 4, 12: 3}),  # 13 borne off
    Position.from_points({2: 1, 1: 1}, {"bar": 1, 6: 5, 5: 3, 8: 3, 12: 3}),
]


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.id())
@pytest.mark.parametrize("home", ["right", "left"])
def test_every_checker_is_drawn_where_the_position_has_it(position: Position, home: str) -> None:
    svg = board_svg(position, dice=(6, 5), cube=2, cube_owner=CubeOwner.ON_ROLL, home=home)
    assert stacks(svg) == expected(position)
    root = ET.fromstring(svg)
    # Circles drawn: at most five a point, three on the bar; the rest is written as a count.
    drawn = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "checker"]
    on_board = sum(min(n, 3 if place == "bar" else 5)
                   for (_, place), n in expected(position).items() if place != "off")
    assert len(drawn) == on_board


def test_a_stack_past_five_shows_its_count() -> None:
    position = Position.from_points({6: 9, 5: 6}, {1: 15})
    root = ET.fromstring(board_svg(position))
    six = next(g for g in root.iter(f"{SVG}g") if g.get("data-place") == "6")
    assert [t.text for t in six.iter(f"{SVG}text")] == ["9"]
    assert len([c for c in six.iter(f"{SVG}circle") if c.get("class") == "checker"]) == 5


def point_numbers(svg: str) -> list[tuple[float, float, str]]:
    root = ET.fromstring(svg)
    return [(float(t.get("x", 0)), float(t.get("y", 0)), t.text or "")
            for t in root.findall(f"{SVG}text")]


@pytest.mark.parametrize("home", ["right", "left"])
def test_the_points_are_numbered_from_the_player_on_roll(home: str) -> None:
    numbers = point_numbers(board_svg(Position.initial(), home=home))
    assert sorted(int(text) for _, _, text in numbers) == list(range(1, 25))
    bottom = [text for x, y, text in sorted(numbers) if y > 100]
    top = [text for x, y, text in sorted(numbers) if y < 100]
    # Left to right along the bottom: 12..1 with the home board on the right, 1..12 on the left.
    if home == "right":
        assert bottom == [str(n) for n in range(12, 0, -1)]
        assert top == [str(n) for n in range(13, 25)]
    else:
        assert bottom == [str(n) for n in range(1, 13)]
        assert top == [str(n) for n in range(24, 12, -1)]
    # The player on roll's checkers on 6 sit above the number 6, at the bottom.
    root = ET.fromstring(board_svg(Position.initial(), home=home))
    six = next(g for g in root.iter(f"{SVG}g") if g.get("data-place") == "6")
    x6 = next(x for x, _, text in numbers if text == "6")
    assert {float(c.get("cx", 0)) for c in six.iter(f"{SVG}circle")} == {x6}


def test_the_board_is_accessible_by_itself() -> None:
    position = Position.from_points({"bar": 1, 3: 2}, {20: 3}, checkers=3)
    svg = board_svg(position, dice=(4, 2), cube=2, cube_owner=CubeOwner.OPPONENT)
    root = ET.fromstring(svg)
    words = describe(position, dice=(4, 2), cube=2, cube_owner=CubeOwner.OPPONENT)
    assert root.get("role") == "img" and root.get("aria-label") == words
    assert root.findtext(f"{SVG}title") == words
    assert words == (
        "Backgammon board. White to play, dice 4 and 2, the cube at 2, Black's. "
        "White: 1 on the bar, 2 on point 3. Black: 3 on point 5."
    )
    # Colour is not the only sign: the opponent's checkers carry a ring (a second circle).
    theirs = next(g for g in root.iter(f"{SVG}g") if g.get("data-side") == "opponent")
    assert len(list(theirs.iter(f"{SVG}circle"))) == 2 * 3


def test_borne_off_checkers_are_in_the_trays() -> None:
    position = Position.from_points({1: 2}, {6: 5, 5: 3, 8: 4, 12: 3})
    root = ET.fromstring(board_svg(position))
    tray = next(g for g in root.iter(f"{SVG}g") if g.get("data-place") == "off")
    assert tray.get("data-side") == "on-roll" and tray.get("data-count") == "13"
    assert len(list(tray.iter(f"{SVG}rect"))) == 13
    assert "13 borne off" in describe(position)


def test_dice_and_cube() -> None:
    root = ET.fromstring(board_svg(Position.initial(), dice=(6, 1), cube=1))
    dice = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "dice")
    assert dice.get("data-dice") == "6,1"
    assert len([c for c in dice.iter(f"{SVG}circle")]) == 6 + 1
    cube = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "cube")
    assert cube.get("data-owner") == "centre" and cube.findtext(f"{SVG}text") == "64"
    assert ET.fromstring(board_svg(Position.initial())).find(f".//{SVG}g[@class='cube']") is None


def test_labels_in_another_language_and_its_digits() -> None:
    persian = BoardLabels(title="صفحهٔ تخته نرد", player="سفید", opponent="سیاه",
                          to_play="نوبت {player}", point="{count} مهره در خانهٔ {point}",
                          comma="، ", digits="۰۱۲۳۴۵۶۷۸۹")
    svg = board_svg(Position.initial(), labels=persian)
    assert "۵ مهره در خانهٔ ۶، ۳ مهره در خانهٔ ۸" in describe(Position.initial(), labels=persian)
    assert sorted(text for _, _, text in point_numbers(svg))[0] == "۱"


# The other games' boards (backgammon.games.Board)


def test_fevga_and_nardy_start_at_diagonally_opposite_corners() -> None:
    """Both sides travel the same way: the opponent's start, their 24-point, is drawn on the
    player on roll's 12-point, and the words say so."""
    for name in ("fevga", "long-nardy"):
        rules = rules_for(name)
        svg = board_svg(rules.initial(), travel=rules.travel)
        assert stacks(svg) == {("on-roll", "24"): 15, ("opponent", "12"): 15}
        assert "Black: 15 on point 12." in describe(rules.initial(), travel=rules.travel)


def test_a_pinned_checker_lies_under_the_pinners_stack() -> None:
    board = Board.from_points({24: 12, 5: 3}, {24: 14, 20: 1}, theirs_pinned=[20])
    root = ET.fromstring(board_svg(board))
    on_five = [g for g in root.iter(f"{SVG}g") if g.get("data-place") == "5"]
    # The pinned checker first (drawn underneath), at the foot of the point; the pinner's
    # three checkers above it.
    assert [(g.get("data-side"), g.get("data-count"), g.get("data-pinned")) for g in on_five] \
        == [("opponent", "1", "true"), ("on-roll", "3", None)]
    pinned_y = float(next(on_five[0].iter(f"{SVG}circle")).get("cy", "0"))
    pinner_ys = [float(c.get("cy", "0")) for c in on_five[1].iter(f"{SVG}circle")]
    assert all(y < pinned_y for y in pinner_ys)  # the bottom row: the foot is lowest
    assert "1 pinned on point 5" in describe(board)
    mine_pinned = Board.from_points({24: 14, 20: 1}, {24: 14, 5: 1}, mine_pinned=[20])
    assert "White: 1 pinned on point 20" in describe(mine_pinned)


def test_acey_deucey_checkers_wait_on_the_bar_to_enter() -> None:
    rules = rules_for("acey-deucey")
    assert stacks(board_svg(rules.initial())) == {("on-roll", "bar"): 15,
                                                  ("opponent", "bar"): 15}
    words = describe(rules.initial())
    assert "White: 15 waiting to enter." in words and "on the bar" not in words
    hit = Board.from_points({25: 1, 19: 2}, {}, mine_waiting=0, theirs_waiting=15)
    assert "White: 1 on the bar, 2 on point 19, 12 borne off." in describe(hit)
    both = Board.from_points({25: 1}, {24: 1}, mine_waiting=1, theirs_waiting=14)
    assert "White: 1 on the bar, 1 waiting to enter, 13 borne off." in describe(both)


def test_a_backgammon_board_draws_as_its_position() -> None:
    position = Position.initial()
    assert board_svg(Board.from_position(position)) == board_svg(position)
