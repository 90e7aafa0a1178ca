"""eXtreme Gammon's XGID (backgammon.formats.xgid).

The field meanings are those of XG's format description and of GNU Backgammon's importer
(``SetXGID`` in gnubg's ``set.c``, ``PositionFromXG`` in ``positionid.c``). The references in
GNUBG_READS were produced by real GNU Backgammon 1.07.001 (Debian's gnubg) in text mode::

    printf 'set player 0 human\\nset player 1 human\\nset xgid XGID=...\\nshow board\\n' \\
        | gnubg -t -q

reading the Position ID and the Match ID that gnubg printed once it had set the XGID. (When the
top player is on roll gnubg then swaps the players, asking first; the Match ID recorded is the
one it printed before the swap, which leaves the Position ID as it was.)
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon import Position
from backgammon.errors import InvalidIdError
from backgammon.formats.matchid import MatchIdState, encode_match_id
from backgammon.formats.xgid import (
    MAX_CUBE_EXPONENT,
    CubeAction,
    XgidState,
    decode_xgid,
    encode_xgid,
)

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10"
# Seen from the bottom player: a checker on the bar, 4 on the 6 and 13 points, 2 on the 8, one
# each on the 3 and 24. The top player: 2 on the bar, 2 on their 2 point, 3 on their 5 and 20
# points, one on their 11.
BOTTOM = {"bar": 1, 3: 1, 6: 4, 8: 2, 13: 4, 24: 1}
TOP = {"bar": 2, 2: 2, 5: 3, 11: 1, 20: 3}
MIDGAME = "b--A-cD-B----Da-----c--bAA"  # BOTTOM and TOP as XG writes them
MIDGAME_FLIPPED = "aaB--C-----Ad----b-dC-a--B"  # the same with the players exchanged


def test_the_start_position() -> None:
    state = decode_xgid(START_XGID)
    assert state == XgidState(Position.initial(), dice=(5, 2), jacoby=True, beaver=True)
    assert encode_xgid(state) == START_XGID


def test_the_position_string_is_in_the_bottom_players_terms() -> None:
    # Bottom player's own point p is character p; the top player's own point q is 25 - q;
    # character 0 is the top player's bar, 25 the bottom player's.
    state = decode_xgid(f"XGID={MIDGAME}:1:-1:1:64:3:1:0:7:10")
    assert state.position == Position.from_points(BOTTOM, TOP)
    assert state.position.bar == (1, 2)
    assert state.position.off == (15 - 13, 15 - 11)


def test_the_top_player_on_roll_sees_the_board_flipped() -> None:
    bottom_on_roll = decode_xgid(f"{MIDGAME}:0:0:1:00:0:0:0:0:10")
    top_on_roll = decode_xgid(f"{MIDGAME}:0:0:-1:00:0:0:0:0:10")
    assert top_on_roll.position == bottom_on_roll.position.flip()
    assert top_on_roll.position == Position.from_points(TOP, BOTTOM)


def _gnubg_view(state: XgidState) -> MatchIdState:
    """The Match ID state gnubg's SetXGID builds from an XGID without a pending offer: gnubg's
    player 1 is XG's bottom player, player 0 the top one."""
    owner = {1: 1, 0: None, -1: 0}[state.cube_position]
    on_roll = 1 if state.turn == 1 else 0
    return MatchIdState(
        cube_value=state.cube_value,
        cube_owner=owner,
        player_on_roll=on_roll,
        turn=on_roll,
        crawford=state.crawford,
        dice=state.dice,
        match_length=state.match_length,
        score=(state.score[1], state.score[0]),
        jacoby=state.jacoby,
    )


# (XGID, the Position ID and Match ID gnubg 1.07 set from it).
GNUBG_READS = [
    (START_XGID, "4HPwATDgc/ABMA", "cIkKAAAAAAAA"),
    (f"XGID={MIDGAME}:1:-1:1:64:3:1:0:7:10", "xoEADkY8gwdAAQ", "QQnzABAAGAAE"),
    (f"XGID={MIDGAME_FLIPPED}:1:-1:-1:46:3:1:0:7:10", "xoEADkY8gwdAAQ", "AQHzABAAGAAE"),
    (f"XGID={MIDGAME_FLIPPED}:0:0:-1:00:4:6:1:7:10", "xoEADkY8gwdAAQ", "sAHgAGAAIAAE"),
    (f"XGID={MIDGAME_FLIPPED}:0:0:1:22:6:4:1:7:10", "xDN4AJRxIICDAQ", "8AnpAEAAMAAE"),
]


@pytest.mark.parametrize(("xgid", "position_id", "match_id"), GNUBG_READS)
def test_gnubg_reads_the_same_position_and_state(
    xgid: str, position_id: str, match_id: str
) -> None:
    state = decode_xgid(xgid)
    assert state.position.id() == position_id
    assert encode_match_id(_gnubg_view(state)) == match_id
    assert encode_xgid(state) == xgid


@pytest.mark.parametrize(
    ("xgid", "position_id"),
    [
        # gnubg 1.07 answers "SetMatchID cannot handle positions where a double has been
        # offered. Stepping back to the offering of the cube." and keeps this Position ID: the
        # position is seen from the doubler, the turn field.
        (f"XGID={MIDGAME_FLIPPED}:2:1:-1:D:2:5:0:9:10", "xoEADkY8gwdAAQ"),
        (f"XGID={MIDGAME}:0:0:1:D:0:0:1:0:10", "xoEADkY8gwdAAQ"),
    ],
)
def test_a_double_offered_is_seen_from_the_doubler(xgid: str, position_id: str) -> None:
    state = decode_xgid(xgid)
    assert state.cube_action is CubeAction.DOUBLED
    assert state.dice is None
    assert state.position.id() == position_id
    assert encode_xgid(state) == xgid


def test_beaver_and_raccoon_in_the_dice_field() -> None:
    beavered = decode_xgid(f"{MIDGAME}:1:-1:1:B:0:0:2:0:10")
    assert beavered.cube_action is CubeAction.BEAVERED
    assert beavered.beaver and not beavered.jacoby
    raccooned = decode_xgid(f"{MIDGAME}:2:1:1:R:0:0:3:0:10")
    assert raccooned.cube_action is CubeAction.RACCOONED
    assert (raccooned.cube_value, raccooned.cube_position) == (4, 1)


def test_the_prefix_and_spaces_are_optional() -> None:
    bare = START_XGID.removeprefix("XGID=")
    assert decode_xgid(bare) == decode_xgid(START_XGID) == decode_xgid(f"  {START_XGID}\n")


def test_dice_keep_the_order_written() -> None:
    assert decode_xgid(START_XGID.replace(":52:", ":25:")).dice == (2, 5)


def test_the_rules_field() -> None:
    money = START_XGID.removesuffix(":3:0:10")
    flags = [(s.jacoby, s.beaver) for s in (decode_xgid(f"{money}:{r}:0:10") for r in range(4))]
    assert flags == [(False, False), (True, False), (False, True), (True, True)]
    match = START_XGID.removesuffix(":0:0:3:0:10")
    assert decode_xgid(f"{match}:6:3:1:7:10").crawford
    assert not decode_xgid(f"{match}:6:3:0:7:10").crawford


def test_cube_and_max_cube_are_exponents() -> None:
    state = decode_xgid(f"{MIDGAME}:3:1:1:00:0:0:0:0:6")
    assert (state.cube_value, state.max_cube) == (8, 64)


# Round trips


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any position: each side up to 15 checkers on its points and bar, the rest borne off
    (the bottom player keeps one: both sides cannot have finished)."""
    bottom = draw(st.lists(st.integers(1, 25), min_size=1, max_size=15))
    # The top player may not use a point the bottom player holds (their 25 - p); the bar is free.
    free = [q for q in range(1, 26) if q == 25 or (25 - q) not in bottom]
    top = draw(st.lists(st.sampled_from(free), max_size=15))

    def side(points: list[int]) -> dict[int, int]:
        return {p: points.count(p) for p in set(points)}

    return Position.from_points(side(bottom), side(top))


@st.composite
def states(draw: st.DrawFn) -> XgidState:
    length = draw(st.integers(0, 25))
    # Beavers and raccoons belong to money games with the beaver rule.
    action = draw(st.sampled_from(list(CubeAction)[: 2 if length else 4]))
    beaver = not length and (
        action in (CubeAction.BEAVERED, CubeAction.RACCOONED) or draw(st.booleans())
    )
    dice = None
    if action is CubeAction.NONE and draw(st.booleans()):
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    top_score = length - 1 if length else 99
    max_exponent = draw(st.integers(0, MAX_CUBE_EXPONENT))
    return XgidState(
        position=draw(positions()),
        turn=draw(st.sampled_from([1, -1])),
        cube_value=1 << draw(st.integers(0, max_exponent)),
        cube_position=draw(st.sampled_from([1, 0, -1])),
        dice=dice,
        cube_action=action,
        score=(draw(st.integers(0, top_score)), draw(st.integers(0, top_score))),
        crawford=bool(length) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beaver=beaver,
        match_length=length,
        max_cube=1 << max_exponent,
    )


@given(states())
def test_encode_then_decode_is_the_same_state(state: XgidState) -> None:
    text = encode_xgid(state)
    assert text.startswith("XGID=")
    assert decode_xgid(text) == state
    assert encode_xgid(decode_xgid(text)) == text


@given(states())
def test_the_other_player_on_roll_flips_only_the_view(state: XgidState) -> None:
    # The same XGID with the turn reversed is the same board with the other player on roll.
    fields = encode_xgid(state).split(":")
    fields[3] = str(-state.turn)
    assert decode_xgid(":".join(fields)).position == state.position.flip()


# Malformed input

GOOD = START_XGID.removeprefix("XGID=").split(":")


def _with(changes: dict[int, str]) -> str:
    """The start XGID with some fields (numbered from 0, the position) replaced."""
    return ":".join(changes.get(index, field) for index, field in enumerate(GOOD))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (":".join(GOOD[:9]), "has 9 fields; an XGID has 10"),
        (":".join([*GOOD, "0"]), "has 11 fields"),
        ("", "has 1 fields"),
        ("XGID=", "has 1 fields"),
        (_with({0: "-b----E-C---eE---c-e----B"}), "must be 26 characters"),
        (_with({0: "-b----E-C---eE---c-e----B-q"}), "must be 26 characters"),
        (_with({0: "-b----E-C---eE---c-e----Bq"}), "must be 26 characters"),
        (_with({0: "-b----E-C---eE---c-e----B1"}), "must be 26 characters"),
        (_with({0: "Ab----E-C---eE---c-e----B-"}), "character 0 is the top player's bar"),
        (_with({0: "-b----E-C---eE---c-e----Ba"}), "character 25 the bottom player's"),
        (_with({0: "-c----E-C---eE---c-e----B-"}), "top player has 16 checkers"),
        (_with({0: "-b----E-C---eE---c-e----P-"}), "bottom player has 29 checkers"),
        (_with({1: "16"}), "cube value field is 16"),
        (_with({1: "-1"}), "cube value field is -1"),
        (_with({9: "16"}), "max cube field is 16"),
        (_with({1: "4", 9: "3"}), "The cube 16 is above the max cube 8"),
        (_with({2: "2"}), "The cube position is 2"),
        (_with({3: "0"}), "The turn is 0"),
        (_with({3: "2"}), "The turn is 2"),
        (_with({4: "71"}), "the dice field '71'"),
        (_with({4: "5"}), "the dice field '5'"),
        (_with({4: "000"}), "the dice field '000'"),
        (_with({4: "d"}), "the dice field 'd'"),
        (_with({4: "05"}), "the dice field '05'"),
        (_with({5: "x"}), "the bottom score 'x' is not a whole number"),
        (_with({6: "1.5"}), "the top score '1.5' is not a whole number"),
        (_with({8: ""}), "the match length '' is not a whole number"),
        (_with({7: "4"}), "the rules field is 4; it must be 0 to 3"),
        (_with({7: "-1"}), "the rules field is -1"),
        (_with({8: "7"}), "the rules field is 3; it must be 0, or 1 for the Crawford game"),
        (_with({8: "-7"}), "The match length is -7"),
        (_with({6: "7", 7: "0", 8: "7"}), "top player's score is 7"),
        (_with({5: "-1"}), "bottom player's score is -1"),
        (_with({4: "B", 7: "1"}), "beaver (B) is pending without the beaver"),
        (_with({4: "R", 7: "0", 8: "7"}), "raccoon (R) is pending"),
    ],
)
def test_malformed_xgids_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidIdError, match="XGID") as caught:
        decode_xgid(text)
    assert reason in str(caught.value)


def test_an_xgid_must_be_text() -> None:
    with pytest.raises(InvalidIdError, match="is not an XGID"):
        decode_xgid(None)  # type: ignore[arg-type]


def test_an_xgid_of_fewer_checkers_names_them() -> None:
    three = Position.from_points({"bar": 1, 6: 2}, {1: 3}, checkers=3)
    text = encode_xgid(XgidState(three))
    assert decode_xgid(text, checkers=3).position == three
    with pytest.raises(InvalidIdError, match="bottom player has 3 checkers"):
        decode_xgid(text, checkers=2)


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"position": "4HPwATDgc/ABMA"}, "it must be a Position"),
        ({"turn": 0}, "The turn is 0"),
        ({"turn": True}, "The turn is True"),
        ({"cube_position": 2}, "The cube position is 2"),
        ({"cube_value": 3}, "The cube is 3"),
        ({"max_cube": 1 << 16}, "The max cube is 65536"),
        ({"cube_value": 4, "max_cube": 2}, "above the max cube"),
        ({"dice": (0, 1)}, "The dice are (0, 1)"),
        ({"cube_action": "X"}, "The cube action is 'X'"),
        ({"dice": (3, 1), "cube_action": CubeAction.DOUBLED}, "a player doubles before"),
        ({"crawford": 1, "match_length": 5}, "crawford is 1"),
        ({"match_length": 5, "jacoby": True}, "for money games"),
        ({"match_length": 5, "beaver": True}, "for money games"),
        ({"crawford": True}, "no Crawford game"),
        ({"cube_action": CubeAction.BEAVERED}, "without the beaver rule"),
        ({"match_length": 5, "score": (5, 0)}, "below the match length 5"),
        ({"score": (0, -2)}, "top player's score is -2"),
        ({"score": (0,)}, "The score is (0,)"),
    ],
)
def test_impossible_states_say_why(fields: dict[str, object], reason: str) -> None:
    arguments: dict[str, object] = {"position": Position.initial(), **fields}
    with pytest.raises(InvalidIdError) as caught:
        XgidState(**arguments)  # type: ignore[arg-type]
    assert reason in str(caught.value)


def test_cube_action_may_be_given_as_its_letter() -> None:
    state = XgidState(Position.initial(), cube_action="D")  # type: ignore[arg-type]
    assert state.cube_action is CubeAction.DOUBLED
    assert state == XgidState(Position.initial(), cube_action=CubeAction.DOUBLED)


def test_a_number_too_long_to_read_says_why() -> None:
    with pytest.raises(InvalidIdError, match="at most 9 digits"):
        decode_xgid(_with({5: "9" * 5000}))
