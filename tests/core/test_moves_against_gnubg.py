"""The move generator against a golden file and against GNU Backgammon's generator.

tests/data/movegen_golden.json (written by tools/make_golden.py) lists, for hand-picked and
random positions, the exact sorted legal plays of several rolls. Each list is checked two ways:
it must be exactly what our generator gives, and the positions its plays reach (worked out here
from the notation alone, without our generator) must be exactly the ones gnubg_nn reaches. So
a wrong rule cannot sit in the golden file unnoticed. Where Debian's gnubg program is installed,
the notation itself is checked too: every list must be exactly the moves gnubg's ``hint`` writes.

Then positions from seeded random games (standard, Nackgammon, Hypergammon) are checked with all
21 rolls: our set of resulting positions must equal gnubg_nn's.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path
from types import ModuleType

import pytest

from backgammon import ALL_ROLLS, BAR, OFF, Play, Position, Variant

gnubg_nn: ModuleType | None
try:
    import gnubg_nn
except ImportError:  # a test-only reference; the tests that need it say so and skip
    gnubg_nn = None

needs_gnubg_nn = pytest.mark.skipif(gnubg_nn is None, reason="gnubg_nn is not installed")
GNUBG_PROGRAM = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")

GOLDEN_PATH = Path(__file__).parents[1] / "data" / "movegen_golden.json"
GOLDEN = json.loads(GOLDEN_PATH.read_text())["positions"]

Board = list[list[int]]


def gnubg_board(position: Position) -> Board:
    """gnubg_nn's board of a position: [opponent's 25 counts, on-roll side's 25 counts]."""
    return [list(position.theirs[1:26]), list(position.mine[1:26])]


def gnubg_results(position: Position, dice: tuple[int, int]) -> set[str]:
    """The keys of the boards gnubg_nn reaches with ``dice`` (the mover still second)."""
    return set(gnubg_nn.moves(gnubg_board(position), dice[0], dice[1]))


def result_key(play: Play) -> str:
    """The gnubg_nn key of a play's result, the mover second as in gnubg_nn.moves."""
    after = play.result
    return gnubg_nn.key_of_board([list(after.mine[1:26]), list(after.theirs[1:26])])


_TOKEN = re.compile(r"(?P<path>[^()]+)(?:\((?P<count>\d)\))?")


def apply_notation(position: Position, text: str) -> str:
    """The gnubg_nn key of the board that notation such as '13/7*/5 6/off(2)' reaches.

    Deliberately independent of the generator and the parser: each token moves its count of
    checkers from its first point to its last, and each point marked ``*`` sends the blot on it
    to the bar (once, however many checkers pass). An unmarked hit would leave both sides on one
    point, which the final check catches.
    """
    mine = list(position.mine)
    theirs = list(position.theirs)
    for token in text.split():
        match = _TOKEN.fullmatch(token)
        assert match, f"{token!r} is not gnubg notation"
        count = int(match["count"] or 1)
        names = match["path"].split("/")
        points = [BAR if n == "bar" else OFF if n == "off" else int(n.rstrip("*")) for n in names]
        assert all(a > b for a, b in pairwise(points)), f"{token!r} does not move forward"
        mine[points[0]] -= count
        mine[points[-1]] += count
        for name, point in zip(names[1:], points[1:], strict=True):
            if name.endswith("*"):
                assert theirs[25 - point] == 1, f"{token!r} marks a hit where no blot stands"
                theirs[25 - point] = 0
                theirs[BAR] += 1
    assert min(mine) >= 0, f"{text!r} moves checkers that are not there"
    for point in range(1, 25):
        assert not (mine[point] and theirs[25 - point]), f"{text!r}: both sides on {point}"
    return gnubg_nn.key_of_board([theirs[1:26], mine[1:26]])


def golden_id(record: dict[str, object]) -> str:
    """A readable test id: the Position ID and the start of the note."""
    return f"{record['id']}-{str(record['note'])[:40]}"


@pytest.mark.parametrize("record", GOLDEN, ids=[golden_id(r) for r in GOLDEN])
def test_golden_matches_our_generator(record: dict) -> None:
    position = Position.from_id(record["id"], checkers=record["checkers"])
    for case in record["rolls"]:
        dice = tuple(case["dice"])
        plays = sorted(str(play) for play in position.legal_plays(dice))
        assert plays == case["plays"], f"{position!r} {dice}"
        assert case["count"] == len(case["plays"])


@needs_gnubg_nn
@pytest.mark.parametrize("record", GOLDEN, ids=[golden_id(r) for r in GOLDEN])
def test_golden_matches_gnubg(record: dict) -> None:
    position = Position.from_id(record["id"], checkers=record["checkers"])
    for case in record["rolls"]:
        dice = tuple(case["dice"])
        reached = [apply_notation(position, text) for text in case["plays"]]
        assert len(set(reached)) == len(reached), f"two plays reach one position: {dice}"
        assert set(reached) == gnubg_results(position, dice), f"{position!r} {dice}"


def test_golden_covers_what_it_says() -> None:
    """The file holds about 60 positions, all three variants, and the openings' 21 rolls."""
    assert len(GOLDEN) >= 55
    assert {record["checkers"] for record in GOLDEN} == {3, 15}
    for variant in Variant:
        opening = next(r for r in GOLDEN if r["id"] == Position.initial(variant).id())
        assert sorted(tuple(case["dice"]) for case in opening["rolls"]) == sorted(ALL_ROLLS)
    notes = " ".join(record["note"] for record in GOLDEN).lower()
    for subject in ("bar", "larger", "partial doubles", "bear-off", "race", "hit", "nackgammon"):
        assert subject in notes
    assert any(case["count"] == 0 for record in GOLDEN for case in record["rolls"])


_HINT_LINE = re.compile(r"^\s*\d+\.\s+Cubeful \d-ply\s+(.*?)\s+Eq\.:", re.MULTILINE)


def gnubg_hints(records: list[dict], variation: str, home: Path) -> list[list[str]]:
    """The moves gnubg's ``hint`` lists for each roll of ``records``, sorted, in file order.

    One gnubg process per call; evaluating at 0-ply makes every hint quick. Each roll's output
    begins with gnubg's "The dice have been set to" line, which splits them apart.
    """
    commands = [
        "set evaluation chequerplay evaluation plies 0",
        "set player 0 human",
        "set player 1 human",
        f"set variation {variation}",
        "new game",
    ]
    for record in records:
        for case in record["rolls"]:
            high, low = case["dice"]
            commands += ["set turn 1", f"set board {record['id']}", f"set dice {high} {low}"]
            commands.append("hint 1000")
    output = subprocess.run(
        [GNUBG_PROGRAM, "-t", "-q", "-r"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "HOME": str(home)},
        check=False,
    ).stdout
    return [
        sorted(_HINT_LINE.findall(block)) for block in output.split("The dice have been set")[1:]
    ]


@pytest.mark.skipif(GNUBG_PROGRAM is None, reason="the gnubg program is not installed")
@pytest.mark.parametrize(("checkers", "variation"), [(15, "standard"), (3, "hypergammon")])
def test_golden_notation_is_gnubgs(checkers: int, variation: str, tmp_path: Path) -> None:
    """Every golden list is exactly what gnubg writes, move for move, character for character."""
    records = [record for record in GOLDEN if record["checkers"] == checkers]
    hints = gnubg_hints(records, variation, tmp_path)
    cases = [(record, case) for record in records for case in record["rolls"]]
    assert len(hints) == len(cases), "gnubg's output did not split into one block a roll"
    for (record, case), hint in zip(cases, hints, strict=True):
        assert case["plays"] == hint, f"{record['id']} {case['dice']}"


def random_game_positions(variant: Variant, count: int, seed: int) -> list[Position]:
    """``count`` positions met in seeded random games: a random legal play each turn.

    The plays are put in a fixed order before the choice, so the positions depend only on the
    seed and the rules. A finished game is followed by a new one.
    """
    rng = random.Random(seed)
    positions: list[Position] = []
    position = Position.initial(variant)
    while len(positions) < count:
        positions.append(position)
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        if not plays:
            position = position.flip()
            continue
        plays.sort(key=lambda play: (play.result.mine, play.result.theirs))
        position = rng.choice(plays).result
        if position.is_game_over():
            position = Position.initial(variant)
    return positions


def describe_difference(position: Position, dice: tuple[int, int], ours: set[str]) -> str:
    """What each generator has that the other lacks, readably."""
    theirs = dict(gnubg_nn.moves(gnubg_board(position), dice[0], dice[1], 1))
    only_gnubg = [steps for key, steps in theirs.items() if key not in ours]
    only_ours = [str(p) for p in position.legal_plays(dice) if result_key(p) not in theirs]
    return f"{position!r} {dice}: only ours {only_ours}, only gnubg's (steps) {only_gnubg}"


@needs_gnubg_nn
@pytest.mark.parametrize(
    ("variant", "count", "seed"),
    [
        (Variant.STANDARD, 1500, 1),
        (Variant.STANDARD, 500, 2),
        (Variant.NACKGAMMON, 600, 3),
        (Variant.HYPERGAMMON, 300, 4),
    ],
)
def test_random_positions_match_gnubg(variant: Variant, count: int, seed: int) -> None:
    failures = []
    for position in random_game_positions(variant, count, seed):
        for dice in ALL_ROLLS:
            plays = position.legal_plays(dice)
            ours = {result_key(play) for play in plays}
            if len(ours) != len(plays):
                failures.append(f"{position!r} {dice}: two plays reach one position")
            expected = gnubg_results(position, dice)
            if ours != expected:
                failures.append(describe_difference(position, dice, ours))
    assert not failures, f"{len(failures)} differences, first ones:\n" + "\n".join(failures[:5])
