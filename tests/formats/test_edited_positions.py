"""The position editor's core (backgammon.formats.editor): every position it is given is checked
by the rules, refused with a sentence where it cannot be, and written as the IDs that read back
as the same position; and it accepts what GNU Backgammon's editor accepts, checked with Debian's
gnubg where it is installed."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from backgammon.errors import BackgammonError
from backgammon.formats.editor import Edited
from backgammon.variants import Variant

GNUBG = shutil.which("/usr/games/gnubg")


def board(points: dict[int | str, int]) -> list[int]:
    """25 counts (points 1 to 24, then the bar) of a mapping of points to counts."""
    counts = [0] * 25
    for point, count in points.items():
        counts[24 if point == "bar" else int(point) - 1] = count
    return counts


START = board({6: 5, 8: 3, 13: 5, 24: 2})
CLOSED_ON_BAR = board({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, "bar": 1})

#: Positions GNU Backgammon's editor takes, each with its settings.
ACCEPTED = [
    pytest.param(Edited((START, START)), id="the start"),
    pytest.param(Edited((board({6: 2}), board({20: 1, 1: 1}))), id="few checkers, most off"),
    pytest.param(
        Edited((board({"bar": 2, 6: 3}), board({"bar": 1, 24: 2})), on_roll=1, dice=(6, 5)),
        id="both on the bar",
    ),
    pytest.param(Edited((CLOSED_ON_BAR, board({13: 3}))), id="one side shut out"),
    pytest.param(
        Edited((START, START), dice=(2, 2), cube_value=4, cube_owner=1, length=9, score=(3, 7)),
        id="cube owned in a match",
    ),
    pytest.param(Edited((START, START), length=5, score=(4, 2), crawford=True), id="Crawford"),
    pytest.param(Edited((START, START), length=5, score=(4, 2)), id="post-Crawford"),
    pytest.param(Edited((START, START), cube_value=64), id="a centred 64 in money play"),
    pytest.param(
        Edited((board({22: 1, 23: 1, 24: 1}), board({6: 1, 5: 1})), Variant.HYPERGAMMON,
               dice=(4, 1)),
        id="hypergammon",
    ),
    pytest.param(
        Edited((board({6: 4, 8: 3, 13: 4, 23: 2, 24: 2}),) * 2, Variant.NACKGAMMON), id="nackgammon"
    ),
]

#: Positions that cannot be, and a piece of the sentence that says why.
REFUSED = [
    pytest.param(lambda: Edited((board({6: 16}), START)), "16 checkers on the board", id="16"),
    pytest.param(
        lambda: Edited((board({24: 4}), START), Variant.HYPERGAMMON), "a side has 3", id="4 of 3"
    ),
    pytest.param(lambda: Edited((board({6: 2}), board({19: 1}))), "point 6", id="shared point"),
    pytest.param(lambda: Edited((board({}), START)), "a side is all off", id="all off"),
    pytest.param(lambda: Edited((board({}), board({}))), "borne off all", id="both all off"),
    pytest.param(
        lambda: Edited((CLOSED_ON_BAR, CLOSED_ON_BAR)), "closed board", id="both shut out"
    ),
    pytest.param(
        lambda: Edited((START, START), length=5, score=(5, 0)), "nothing to play", id="score"
    ),
    pytest.param(lambda: Edited((START, START), length=65), "1 to 64", id="length"),
    pytest.param(lambda: Edited((START, START), score=(1, 0)), "Money play", id="money score"),
    pytest.param(
        lambda: Edited((START, START), length=5, score=(3, 2), crawford=True), "one point short",
        id="Crawford not 1 away",
    ),
    pytest.param(
        lambda: Edited((START, START), length=5, score=(4, 2), crawford=True, cube_value=2),
        "Crawford", id="cube in the Crawford game",
    ),
    pytest.param(lambda: Edited((START, START), crawford=True, cube_owner=0), "Crawford",
                 id="owned cube in the Crawford game"),
    pytest.param(lambda: Edited((START, START), dice=(7, 1)), "1 to 6", id="die 7"),
    pytest.param(lambda: Edited((START, START), cube_value=3), "power of two", id="cube 3"),
    pytest.param(lambda: Edited((START, START), cube_owner=2), "seat", id="owner 2"),
    pytest.param(lambda: Edited((START, START), on_roll=2), "seat", id="on roll 2"),
    pytest.param(lambda: Edited((board({6: -1}), START)), "whole numbers", id="negative"),
    pytest.param(lambda: Edited((START[:24], START)), "25 counts", id="short"),
    pytest.param(lambda: Edited((START,)), "two seats", id="one seat"),  # type: ignore[arg-type]
    pytest.param(lambda: Edited((START, START), "shesh-besh"), "Unknown variant",  # type: ignore[arg-type]
                 id="variant"),
    pytest.param(lambda: Edited.from_id("4HPwATDgc/ABMA:MBkAAAAAAAAE"), "double", id="offered"),
    pytest.param(lambda: Edited.from_id("not an ID"), "not a Position ID", id="garbage"),
    pytest.param(
        lambda: Edited.from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10",
                               Variant.HYPERGAMMON),
        "a side has 3", id="a standard XGID read as hypergammon",
    ),
]


@pytest.mark.parametrize("edited", ACCEPTED)
def test_a_position_reads_back_from_both_its_ids(edited: Edited) -> None:
    gnubg, xgid = edited.ids()
    assert Edited.from_id(gnubg, edited.variant) == edited
    assert Edited.from_id(xgid, edited.variant) == edited
    assert edited.match().game.position == edited.position


@pytest.mark.parametrize(("make", "why"), REFUSED)
def test_what_cannot_be_is_refused_with_a_sentence(make, why: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BackgammonError, match=why) as refused:
        make()
    assert str(refused.value).endswith((".", ")"))


def test_the_checkers_not_on_the_board_are_borne_off() -> None:
    edited = Edited((board({6: 2}), board({20: 1, 1: 1})), on_roll=1)
    assert edited.position.off == (13, 13)
    assert edited.position.mine[1] == 1 and edited.position.mine[20] == 1


def gnubg_accepts(full_id: str) -> bool:
    """Whether Debian's gnubg, told ``set gnubgid``, takes the position as it is."""
    assert GNUBG is not None
    done = subprocess.run(
        [GNUBG, "-t", "-q"], input=f"new match 5\nset gnubgid {full_id}\n",
        capture_output=True, text=True, timeout=60,
    )
    shown = [line.split("Position ID:")[1].strip() for line in done.stdout.splitlines()
             if "Position ID:" in line]
    return "Illegal position" not in done.stdout and shown[-1] == full_id.split(":")[0]


@pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed")
@pytest.mark.parametrize("edited", [p for p in ACCEPTED if p.id != "hypergammon"])
def test_gnubg_accepts_the_positions_we_accept(edited: Edited) -> None:
    assert gnubg_accepts(edited.ids()[0])


@pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed")
@pytest.mark.parametrize(
    "position_id",
    [
        pytest.param("27YBANC2bQAABA", id="both on the bar against closed boards"),
        pytest.param("AACABAAAAAAAAA", id="both sides on one point"),
    ],
)
def test_gnubg_refuses_the_positions_we_refuse(position_id: str) -> None:
    full_id = f"{position_id}:cAkAAAAAAAAA"
    assert not gnubg_accepts(full_id)
    with pytest.raises(BackgammonError):
        Edited.from_id(full_id)


@pytest.mark.skipif(GNUBG is None, reason="Debian's gnubg is not installed")
def test_a_finished_game_gnubg_takes_is_refused_here() -> None:
    """gnubg's ``set gnubgid`` takes a position where a side has borne off every checker (a
    game over); the editor refuses it on purpose: there is no game to study or play on."""
    full_id = "AQAAAAAAAAAAAA:cAkAAAAAAAAA"
    assert gnubg_accepts(full_id)
    with pytest.raises(BackgammonError, match="all off"):
        Edited.from_id(full_id)
