"""GNU Backgammon's Match ID and the full GNU Backgammon ID (backgammon.formats.matchid).

The reference IDs below were written by real GNU Backgammon 1.07.001 (Debian's gnubg) in text
mode, ``gnubg -t -q``, fed these commands on stdin and read off ``show board``::

    set player 0 human
    set player 1 human
    set rng manual
    <commands named at each group>

gnubg names player 0 "gnubg" and player 1 "root" (the user); with manual dice, "3 1" at the
opening roll means player 0 rolled the 3 and starts.
"""

from __future__ import annotations

import base64
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from backgammon import Position
from backgammon.errors import InvalidIdError
from backgammon.formats.matchid import (
    MAX_CUBE,
    MAX_MATCH_LENGTH,
    GameState,
    MatchIdState,
    decode_match_id,
    encode_match_id,
    gnubg_id,
    parse_gnubg_id,
)
from backgammon.ids import encode_position_id

START = "4HPwATDgc/ABMA"
# The start after the player on roll's opponent opened 3-1 with 8/5 6/5 (gnubg's own ID).
AFTER_31 = "sGfwATDgc/ABMA"

# (GNU Backgammon ID as gnubg wrote it, the state it holds).
REFERENCES = [
    # `new match 7`, opening roll `3 1`: player 0 to play 3-1.
    (
        f"{START}:MIHlAAAAAAAE",
        MatchIdState(player_on_roll=0, turn=0, dice=(3, 1), match_length=7),
    ),
    # ... `move 8/5 6/5`: player 1 on roll, not yet rolled.
    (f"{AFTER_31}:cAngAAAAAAAE", MatchIdState(player_on_roll=1, turn=1, match_length=7)),
    # ... `double` by player 1: player 0 must answer; the cube still shows 1; the Position ID
    # is unchanged, still seen from player 1, the player on roll (fMove).
    (
        f"{AFTER_31}:cBHgAAAAAAAE",
        MatchIdState(player_on_roll=1, turn=0, double_offered=True, match_length=7),
    ),
    # ... `take`: player 0 owns the 2-cube; player 1 to roll.
    (
        f"{AFTER_31}:QQngAAAAAAAE",
        MatchIdState(cube_value=2, cube_owner=0, player_on_roll=1, turn=1, match_length=7),
    ),
    # ... `roll`, `6 5`: player 1 to play 6-5.
    (
        f"{AFTER_31}:QQn3AAAAAAAE",
        MatchIdState(
            cube_value=2, cube_owner=0, player_on_roll=1, turn=1, dice=(6, 5), match_length=7
        ),
    ),
    # ... `move 24/13`: player 0 on roll.
    (
        "4HPwAyCwZ/ABMA:AQHgAAAAAAAE",
        MatchIdState(cube_value=2, cube_owner=0, player_on_roll=0, turn=0, match_length=7),
    ),
    # ... `resign single` by player 0: player 1 must answer, the position still seen from 0.
    (
        "4HPwAyCwZ/ABMA:ASngAAAAAAAE",
        MatchIdState(
            cube_value=2, cube_owner=0, player_on_roll=0, turn=1, resignation=1, match_length=7
        ),
    ),
    # ... `reject`, then `resign gammon` by player 0.
    (
        "4HPwAyCwZ/ABMA:AUngAAAAAAAE",
        MatchIdState(
            cube_value=2, cube_owner=0, player_on_roll=0, turn=1, resignation=2, match_length=7
        ),
    ),
    # `set beavers 3`, `new session` (money, Jacoby on by default), `3 1`.
    (f"{START}:MIEFAAAAAAAA", MatchIdState(player_on_roll=0, dice=(3, 1), jacoby=True)),
    # ... `move 8/5 6/5`.
    (f"{AFTER_31}:cAkAAAAAAAAA", MatchIdState(player_on_roll=1, turn=1, jacoby=True)),
    # ... `double` by player 1.
    (
        f"{AFTER_31}:cBEAAAAAAAAA",
        MatchIdState(player_on_roll=1, turn=0, double_offered=True, jacoby=True),
    ),
    # ... `beaver` by player 0: they own the 2-cube, the offer stands and player 1, who
    # doubled, must now answer the beaver.
    (
        f"{AFTER_31}:QRkAAAAAAAAA",
        MatchIdState(
            cube_value=2, cube_owner=0, player_on_roll=1, turn=1, double_offered=True, jacoby=True
        ),
    ),
    # ... `take` by player 1: player 0 owns the 4-cube.
    (
        f"{AFTER_31}:QgkAAAAAAAAA",
        MatchIdState(cube_value=4, cube_owner=0, player_on_roll=1, turn=1, jacoby=True),
    ),
    # `set automatic game off`, `new match 3`, `3 1`, `move 8/5 6/5`, `double`, `drop`:
    # player 1 has 1 point and the game ended by the dropped cube.
    (
        f"{AFTER_31}:cARgAAAACAAE",
        MatchIdState(
            player_on_roll=1,
            turn=0,
            game_state=GameState.DROPPED,
            match_length=3,
            score=(0, 1),
        ),
    ),
    # ... `new game`, `4 2`, `move 8/4 6/4`, `resign gammon` by player 1.
    (
        "mGfwATDgc/ABMA:cEFgAAAACAAE",
        MatchIdState(player_on_roll=1, turn=0, resignation=2, match_length=3, score=(0, 1)),
    ),
    # ... `accept`: 2-1 to player 0; the next game is the Crawford game.
    (
        "mGfwATDgc/ABMA:8ENgACAACAAE",
        MatchIdState(
            player_on_roll=1,
            turn=0,
            crawford=True,
            game_state=GameState.RESIGNED,
            resignation=2,
            match_length=3,
            score=(2, 1),
        ),
    ),
    # ... `new game`, `5 2`: the Crawford game, player 0 to play 5-2.
    (
        f"{START}:sIFqACAACAAE",
        MatchIdState(player_on_roll=0, crawford=True, dice=(5, 2), match_length=3, score=(2, 1)),
    ),
    # `new match 3`, `3 1`, `set board 4P8PAAABAAAAAA` (one checker left, on the ace point),
    # `move 1/off`: player 0 wins a gammon; the game is over.
    (
        "AAAAwP8fAAAAAA:8ApgACAAAAAE",
        MatchIdState(
            player_on_roll=1,
            turn=1,
            crawford=True,
            game_state=GameState.OVER,
            match_length=3,
            score=(2, 0),
        ),
    ),
]


@pytest.mark.parametrize(("full_id", "state"), REFERENCES)
def test_gnubg_reference_ids_decode(full_id: str, state: MatchIdState) -> None:
    assert decode_match_id(full_id.split(":")[1]) == state


@pytest.mark.parametrize(("full_id", "state"), REFERENCES)
def test_gnubg_reference_ids_encode(full_id: str, state: MatchIdState) -> None:
    position_id, match_id = full_id.split(":")
    assert encode_match_id(state) == match_id
    assert gnubg_id(Position.from_id(position_id), state) == full_id


@pytest.mark.parametrize(("full_id", "state"), REFERENCES)
def test_parse_gnubg_id_gives_the_position_and_the_state(full_id: str, state: MatchIdState) -> None:
    position, parsed = parse_gnubg_id(full_id)
    assert parsed == state
    assert position.id() == full_id.split(":")[0]


def test_reference_positions_are_the_plays_gnubg_made() -> None:
    # The Position IDs above are each seen from the player on roll (fMove).
    start = Position.initial()
    assert start.parse_play("8/5 6/5", (3, 1)).result.id() == AFTER_31
    assert Position.from_id(AFTER_31).parse_play("24/13", (6, 5)).result.id() == "4HPwAyCwZ/ABMA"
    assert start.parse_play("8/4 6/4", (4, 2)).result.id() == "mGfwATDgc/ABMA"
    ace = Position.from_id("4P8PAAABAAAAAA")
    assert ace.parse_play("1/off", (3, 1)).result.id() == "AAAAwP8fAAAAAA"


def test_start_of_a_money_game_full_id() -> None:
    # gnubg 1.07: `set gnubgid 4HPwATDgc/ABMA:cAkAAAAAAAAA` then `show board` writes the same
    # ID back: the start, player 1 to roll, cube centred at 1, money, Jacoby on.
    state = MatchIdState(player_on_roll=1, turn=1, jacoby=True)
    assert gnubg_id(Position.initial(), state) == "4HPwATDgc/ABMA:cAkAAAAAAAAA"


def test_match_play_writes_the_jacoby_bit_as_off() -> None:
    # The jacoby flag is bit 66, written inverted: gnubg writes 1 there in match play.
    key = int.from_bytes(base64.b64decode("cAngAAAAAAAE"), "little")
    assert key >> 66 == 1
    assert not decode_match_id("cAngAAAAAAAE").jacoby


def test_an_id_older_than_the_jacoby_bit_reads_as_jacoby_on() -> None:
    # Quoted on bug-gnubg, 2009-07 ("Using GNUBg ID"), from a gnubg of that time: a 9-point
    # match at 0-0, player 1 to play 5-1; its bits 66 to 71 are all 0.
    position, state = parse_gnubg_id("g9vBASSYZ8wBBg:cIkmAQAAAAAA")
    assert state == MatchIdState(player_on_roll=1, turn=1, dice=(5, 1), match_length=9, jacoby=True)
    assert position.checkers == 15


def test_the_bit_layout_field_by_field() -> None:
    # Each field alone lands on exactly its own bits (gnubg's matchid.c, MatchID).
    zero = MatchIdState(cube_owner=0, game_state=GameState.NO_GAME, jacoby=True)

    def key(**changes: object) -> int:
        state = replace(zero, **changes)  # type: ignore[arg-type]
        return int.from_bytes(base64.b64decode(encode_match_id(state)), "little")

    assert key() == 0
    assert key(cube_value=4096) == 12
    assert key(cube_owner=1) == 1 << 4
    assert key(cube_owner=None) == 0b11 << 4
    assert key(player_on_roll=1) == 1 << 6
    assert key(crawford=True, match_length=5) == 1 << 7 | 5 << 21
    assert key(game_state=GameState.DROPPED) == 4 << 8
    assert key(turn=1) == 1 << 11
    assert key(double_offered=True) == 1 << 12
    assert key(resignation=3) == 3 << 13
    # The higher die is written first, whatever the order given.
    assert key(dice=(2, 6)) == 6 << 15 | 2 << 18
    assert key(match_length=64, score=(64, 63)) == 64 << 21 | 64 << 36 | 63 << 51
    assert key(score=(32767, 32767)) == 32767 << 36 | 32767 << 51
    assert key(jacoby=False) == 1 << 66


# Round trips


@st.composite
def states(draw: st.DrawFn) -> MatchIdState:
    length = draw(st.integers(0, MAX_MATCH_LENGTH))
    top_score = length if length else 32767
    double_offered = draw(st.booleans())
    rolled = not double_offered and draw(st.booleans())
    dice = None
    if rolled:
        low = draw(st.integers(1, 6))
        dice = (draw(st.integers(low, 6)), low)
    return MatchIdState(
        cube_value=1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.sampled_from([0, 1, None])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(GameState)),
        turn=draw(st.integers(0, 1)),
        double_offered=double_offered,
        resignation=draw(st.integers(0, 3)),
        dice=dice,
        match_length=length,
        score=(draw(st.integers(0, top_score)), draw(st.integers(0, top_score))),
        jacoby=draw(st.booleans()),
    )


@given(states())
def test_encode_then_decode_is_the_same_state(state: MatchIdState) -> None:
    text = encode_match_id(state)
    assert len(text) == 12
    assert decode_match_id(text) == state


@given(st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", min_size=12,
               max_size=12))
def test_every_id_either_decodes_and_encodes_back_or_says_why(text: str) -> None:
    try:
        state = decode_match_id(text)
    except InvalidIdError as exc:
        assert "Match ID" in str(exc)
        return
    if state.dice is not None and state.dice[0] < state.dice[1]:
        return  # gnubg writes the higher die first, so a hand-made low-first ID changes
    assert encode_match_id(state) == text


@given(states())
def test_gnubg_id_round_trips(state: MatchIdState) -> None:
    position = Position.from_points({"bar": 2, 3: 4, 13: 1}, {1: 2, 20: 5})
    assert parse_gnubg_id(gnubg_id(position, state)) == (position, state)


# Malformed input


def _id(**fields: int) -> str:
    """A Match ID with these raw fields set (the rest 0): the shifts of matchid.c."""
    shifts = {"cube": 0, "owner": 4, "move": 6, "crawford": 7, "state": 8, "turn": 11,
              "die1": 15, "die2": 18, "length": 21, "score0": 36, "score1": 51, "unused": 67}
    key = sum(value << shifts[name] for name, value in fields.items())
    return base64.b64encode(key.to_bytes(9, "little")).decode()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("cAngAAAAAAA", "must be 12 characters"),
        ("cAngAAAAAAAEA", "must be 12 characters"),
        ("", "must be 12 characters"),
        ("cAngAAAAAA=E", "must be 12 characters"),
        ("cAngAAAA-AAE", "must be 12 characters"),
        ("cAng AAAAAAE", "must be 12 characters"),
        # gnubg 1.07: "You must specify a legal cube value" for an 8192-cube (log 13).
        ("fQngAAAAAAAE", "cube is 8192"),
        (_id(cube=15, owner=3, state=1, length=7), "cube is 32768"),
        # gnubg 1.07: "Illegal match ID 'cInnAAAAAAAE'" (a die of 7).
        ("cInnAAAAAAAE", "a die shows 7"),
        (_id(owner=3, state=1, die1=5), "one die shows 5 and the other none"),
        # gnubg 1.07: "Illegal match ID 'cAngAIAAAAAE'" (8 points in a 7-point match).
        ("cAngAIAAAAAE", "score 8 is out of range: 0 to the match length 7"),
        # gnubg 1.07: "Illegal match ID 'cAkgCAAAAAAE'" (a 65-point match).
        ("cAkgCAAAAAAE", "match length is 65"),
        # gnubg accepts these three but never writes them: game state 5, cube owner 2 (it
        # reads it as centred) and a bit above 66 (it ignores it).
        ("cA3gAAAAAAAE", "game state is 5"),
        ("YAngAAAAAAAE", "cube owner field is 2"),
        ("cAngAAAAAAAM", "bits 67 to 71"),
        (_id(owner=3, state=1, crawford=1), "money game (match length 0) has no Crawford"),
        (_id(owner=3, state=1, length=3, score1=4), "Player 1's score 4 is out of range"),
    ],
)
def test_malformed_match_ids_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidIdError, match="Match ID") as caught:
        decode_match_id(text)
    assert reason in str(caught.value)


def test_a_match_id_may_have_spaces_around_it() -> None:
    assert decode_match_id("  cAngAAAAAAAE\n") == decode_match_id("cAngAAAAAAAE")


def test_a_match_id_must_be_text() -> None:
    with pytest.raises(InvalidIdError, match="is not a Match ID"):
        decode_match_id(12)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("fields", "reason"),
    [
        ({"cube_value": 3}, "The cube is 3"),
        ({"cube_value": 0}, "The cube is 0"),
        ({"cube_value": MAX_CUBE * 2}, "The cube is 8192"),
        ({"cube_value": True}, "The cube is True"),
        ({"cube_owner": 2}, "The cube owner is 2"),
        ({"player_on_roll": 2}, "player_on_roll is 2"),
        ({"turn": -1}, "turn is -1"),
        ({"crawford": 1, "match_length": 5}, "crawford is 1"),
        ({"game_state": 5}, "The game state is 5"),
        ({"resignation": 4}, "The resignation is 4"),
        ({"dice": (0, 3)}, "The dice are (0, 3)"),
        ({"dice": (7, 3)}, "The dice are (7, 3)"),
        ({"dice": [3, 1]}, "The dice are [3, 1]"),
        ({"dice": (3, 1), "double_offered": True}, "a player doubles before rolling"),
        ({"match_length": 65}, "The match length is 65"),
        ({"match_length": -1}, "The match length is -1"),
        ({"crawford": True}, "no Crawford game"),
        ({"match_length": 5, "score": (5, 6)}, "Player 1's score 6 is out of range"),
        ({"score": (-1, 0)}, "Player 0's score -1"),
        ({"score": (32768, 0)}, "0 to 32767"),
        ({"score": (1, 2, 3)}, "The score is (1, 2, 3)"),
    ],
)
def test_impossible_states_say_why(fields: dict[str, object], reason: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        MatchIdState(**fields)  # type: ignore[arg-type]
    assert reason in str(caught.value)


def test_game_state_may_be_given_as_its_number() -> None:
    assert MatchIdState(game_state=2) == MatchIdState(game_state=GameState.OVER)  # type: ignore[arg-type]
    assert MatchIdState(game_state=2).game_state is GameState.OVER  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("4HPwATDgc/ABMA", "joined by a colon"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAAA:x", "joined by a colon"),
        ("4HPwATDgc/ABM:cAkAAAAAAAAA", "is not a Position ID"),
        ("4HPwATDgc/ABMA:cAkAAAAAAAA", "is not a Match ID"),
        # Both sides on the same point: the on-roll side's 1 point is the opponent's 24.
        (
            encode_position_id((1,) + (0,) * 24, (0,) * 23 + (1, 0)) + ":cAkAAAAAAAAA",
            "holds an impossible position",
        ),
    ],
)
def test_malformed_gnubg_ids_say_why(text: str, reason: str) -> None:
    with pytest.raises(InvalidIdError) as caught:
        parse_gnubg_id(text)
    assert reason in str(caught.value)


def test_a_gnubg_id_of_hypergammon_names_its_checkers() -> None:
    position = Position.initial("hypergammon")
    text = gnubg_id(position, MatchIdState())
    assert parse_gnubg_id(text, checkers=3) == (position, MatchIdState())
    with pytest.raises(InvalidIdError, match="impossible position"):
        parse_gnubg_id(text, checkers=2)
