"""Write tests/data/movegen_golden.json, the "perft" file of legal plays.

Each entry is a position (its gnubg Position ID, its number of checkers a side, a note on what
it covers) with several rolls, and for each roll the exact sorted list of legal plays in gnubg
notation and their count. The lists come from this library's move generator; the test
(tests/core/test_moves_against_gnubg.py) checks them against that generator, against gnubg_nn's
generator and, where Debian's gnubg program is installed, against the notation gnubg writes.
Regenerate only when a change in the rules or the notation is intended, and read the diff:

    .venv/bin/python tools/make_golden.py

The hand-picked positions are built with ``Position.from_points``: each side's keys are that
side's own point numbers, so the opponent's point ``q`` is the mover's point ``25 - q``. To
close the mover's entry point for a die ``d``, the opponent holds its own ``d``-point.
"""

from __future__ import annotations

import argparse
import json
import random
from dataclasses import dataclass, field
from pathlib import Path

from backgammon import ALL_ROLLS, Position, Variant

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "movegen_golden.json"

Roll = tuple[int, int]


@dataclass(frozen=True)
class Case:
    """A hand-picked position and the rolls that exercise its rule.

    ``expect`` holds, for some rolls, the plays worked out by hand from RULES.md (sorted); the
    script stops if the library disagrees, so a note cannot describe a list that shows
    something else.
    """

    note: str
    mine: dict[int | str, int]
    theirs: dict[int | str, int]
    rolls: tuple[Roll, ...]
    expect: dict[Roll, list[str]] = field(default_factory=dict)
    checkers: int = 15


STANDARD = Variant.STANDARD.layout
# Checkers that can never move: on the mover's 1-point, with a checker still outside home, they
# may not bear off. They let one other checker show a rule on its own.
STUCK = 14

CASES: tuple[Case, ...] = (
    Case(
        "standard opening position, all 21 rolls",
        STANDARD,
        STANDARD,
        ALL_ROLLS,
        {(6, 5): ["13/2", "13/7 8/3", "13/8 13/7", "24/13", "24/18 13/8", "24/18 8/3", "8/3 8/2"]},
    ),
    Case(
        "Nackgammon opening position, all 21 rolls",
        Variant.NACKGAMMON.layout,
        Variant.NACKGAMMON.layout,
        ALL_ROLLS,
    ),
    Case(
        "Hypergammon opening position (3 checkers a side), all 21 rolls",
        Variant.HYPERGAMMON.layout,
        Variant.HYPERGAMMON.layout,
        ALL_ROLLS,
        checkers=3,
    ),
    # Bar entry.
    Case(
        "one on the bar; entry points 19, 21, 23 closed: dance (6-4, 4-2, 6-6), enter with one "
        "die then play the other with any checker, entered one included",
        {"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5},
        {6: 5, 4: 3, 2: 2, 8: 2, 13: 3},
        ((6, 4), (4, 2), (6, 6), (6, 5), (5, 3), (5, 1), (3, 3), (1, 1)),
        {(6, 4): [], (4, 2): [], (6, 6): []},
    ),
    Case(
        "two on the bar; 19, 20, 22 closed: both enter (4-2), one enters and the rest of the "
        "turn is lost (6-4, 4-3), dance (6-5, 5-3), doubles enter two then play two more",
        {"bar": 2, 13: 5, 8: 3, 6: 5},
        {6: 4, 5: 2, 3: 3, 13: 4, 8: 2},
        ((4, 2), (6, 4), (4, 3), (6, 5), (5, 3), (2, 2), (4, 4), (1, 1), (6, 6), (4, 1)),
        {
            (6, 4): ["bar/21"],
            (4, 3): ["bar/21"],
            (6, 5): [],
            (5, 3): [],
            (6, 6): [],
            (4, 2): ["bar/23 bar/21"],
        },
    ),
    Case(
        "three on the bar, only 23 and 24 open: 2-2 enters three then plays one more step; "
        "2-1 enters two; 6-2 enters one",
        {"bar": 3, 13: 4, 8: 3, 6: 5},
        {6: 3, 5: 3, 4: 3, 3: 2, 13: 2, 8: 2},
        ((2, 2), (1, 1), (2, 1), (6, 2), (6, 5)),
        {(2, 1): ["bar/24 bar/23"], (6, 2): ["bar/23"], (6, 5): []},
    ),
    Case(
        "four on the bar, only 23 and 24 open: doubles enter all four and end the turn",
        {"bar": 4, 13: 3, 8: 3, 6: 5},
        {6: 3, 5: 3, 4: 3, 3: 2, 13: 2, 8: 2},
        ((2, 2), (1, 1), (2, 1), (6, 6)),
        {(2, 2): ["bar/23(4)"], (1, 1): ["bar/24(4)"], (2, 1): ["bar/24 bar/23"], (6, 6): []},
    ),
    Case(
        "entry that hits: blots on 20 and 22 (bar/22*, bar/20*), then go on, hitting again",
        {"bar": 1, 24: 1, 13: 5, 8: 3, 6: 5},
        {3: 1, 5: 1, 6: 5, 8: 3, 13: 4, 24: 1},
        ((5, 3), (3, 2), (5, 5), (3, 3), (6, 3), (2, 1)),
    ),
    Case(
        "closed board: fully blocked entry, all 21 rolls are no play",
        {"bar": 2, 13: 5, 8: 3, 6: 5},
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 8: 2},
        ALL_ROLLS,
        {roll: [] for roll in ALL_ROLLS},
    ),
    Case(
        "two on the bar, only 20 open: 5-x enters one only, 5-5 enters both and plays on",
        {"bar": 2, 13: 5, 8: 3, 6: 5},
        {1: 2, 2: 2, 3: 2, 4: 2, 6: 3, 8: 2, 13: 2},
        ((5, 3), (6, 5), (5, 5), (4, 3), (5, 1)),
        {(5, 3): ["bar/20"], (6, 5): ["bar/20"], (4, 3): [], (5, 1): ["bar/20"]},
    ),
    Case(
        "no play without a checker on the bar: two behind a full prime (18-23), the rest on "
        "the 1-point may not bear off; all 21 rolls",
        {24: 2, 1: 13},
        {2: 2, 3: 2, 4: 2, 5: 2, 6: 3, 7: 2, 13: 2},
        ALL_ROLLS,
        {roll: [] for roll in ALL_ROLLS},
    ),
    # Using both dice, the larger die, partial doubles.
    Case(
        "larger-die rule: either die can be played but not both (7/2 and 8/2 closed), so the "
        "6 must be",
        {13: 1, 1: STUCK},
        {23: 2, 20: 5, 14: 4, 10: 4},
        ((6, 5), (6, 1), (5, 5), (6, 6), (6, 2)),
        {(6, 5): ["13/7"]},
    ),
    Case(
        "only one die playable: 13/7 and 8/2 closed, so only the 5 (13/8); 6-6 is no play",
        {13: 1, 1: STUCK},
        {18: 2, 23: 2, 20: 5, 14: 3, 10: 3},
        ((6, 5), (6, 6), (6, 4), (5, 3)),
        {(6, 5): ["13/8"], (6, 6): []},
    ),
    Case(
        "both dice must be used even when the larger goes only after the smaller (13/8/2, 13/7 "
        "closed); 3-3 plays only 1 of 4 (10/7 closed); 4-3 no play (9 and 10 closed: never one "
        "move of 7)",
        {13: 1, 1: STUCK},
        {18: 2, 20: 5, 14: 4, 10: 4},
        ((6, 5), (3, 3), (6, 1), (6, 6)),
        {(6, 5): ["13/2"], (3, 3): ["13/10"], (6, 6): []},
    ),
    Case(
        "a checker uses both dice only through an open point: 13-3 and 13-4 closed, so 4-3 is "
        "no play although 6 is open",
        {13: 1, 1: STUCK},
        {15: 2, 16: 2, 20: 5, 14: 3, 10: 3},
        ((4, 3), (6, 1), (4, 4), (5, 2)),
        {(4, 3): [], (4, 4): []},
    ),
    Case(
        "partial doubles: 3-3 plays 2 of 4 (7/4 closed)",
        {13: 1, 1: STUCK},
        {21: 2, 20: 5, 14: 4, 10: 4},
        ((3, 3), (2, 2), (6, 3)),
        {(3, 3): ["13/7"]},
    ),
    Case(
        "partial doubles: 3-3 plays 3 of 4 (7/4 closed)",
        {16: 1, 1: STUCK},
        {21: 2, 20: 5, 14: 4, 10: 4},
        ((3, 3), (2, 2), (1, 1)),
        {(3, 3): ["16/7"]},
    ),
    # Bearing off.
    Case(
        "bear-off, exact numbers and bearing off or moving inside",
        {6: 2, 5: 2, 4: 3, 3: 3, 2: 3, 1: 2},
        {6: 5, 5: 5, 4: 5},
        ((6, 5), (4, 4), (2, 1), (6, 6), (1, 1), (5, 3)),
    ),
    Case(
        "bear-off overshoot: no checker above 3, so a higher die takes one from the highest point",
        {3: 2, 2: 3, 1: 4},
        {6: 5, 5: 5, 4: 5},
        ((6, 5), (6, 4), (5, 1), (4, 4), (3, 2), (6, 6)),
        {(6, 5): ["3/off(2)"]},
    ),
    Case(
        "bear-off: a 5 with the 5-point empty must move the checker on the 6 (not 4/off); once "
        "the 6 is gone, 4/off with the 5",
        {6: 1, 4: 2, 2: 3},
        {6: 5, 5: 5, 4: 5},
        ((5, 3), (5, 5), (5, 1), (6, 5), (5, 4)),
    ),
    Case(
        "bear-off: never obliged to bear off when another move exists",
        {6: 3, 5: 4, 4: 4, 3: 2, 2: 2},
        {6: 5, 5: 5, 4: 5},
        ((6, 1), (2, 1), (3, 3), (6, 5)),
    ),
    Case(
        "bear-off with a blot on the mover's 3-point: hitting during bear-off",
        {6: 3, 5: 3, 4: 3, 2: 3, 1: 3},
        {22: 1, 6: 5, 7: 4, 8: 3, 9: 2},
        ((3, 2), (2, 1), (3, 1), (1, 1), (6, 3)),
    ),
    Case(
        "one checker outside on 7: bring it in with one die, then bear off with the other",
        {7: 1, 6: 4, 5: 4, 4: 4, 3: 2},
        {6: 5, 5: 5, 4: 5},
        ((6, 1), (1, 1), (6, 5), (5, 2)),
    ),
    Case(
        "checker on the bar during bear-off: enter first, no bearing off while outside",
        {"bar": 1, 6: 4, 5: 4, 4: 3, 3: 3},
        {1: 2, 2: 2, 7: 5, 8: 6},
        ((6, 5), (2, 1), (3, 3), (6, 6)),
        {(2, 1): []},
    ),
    Case(
        "last three checkers: 6-6 bears off all three (3 of 4 dice, the game ends)",
        {2: 1, 1: 2},
        {6: 5, 5: 5, 4: 5},
        ((6, 6), (1, 1), (2, 1), (6, 5)),
        {(6, 6): ["2/off 1/off(2)"], (2, 1): ["2/off", "2/off 1/off"], (6, 5): ["2/off 1/off"]},
    ),
    # Hitting and racing.
    Case(
        "hitting two blots with one checker (13/10*/7*, 13/10*/5*) and with two checkers",
        {24: 2, 13: 5, 8: 3, 6: 5},
        {15: 1, 18: 1, 20: 1, 6: 4, 8: 3, 13: 3, 2: 2},
        ((3, 3), (5, 3), (6, 3), (3, 2), (2, 1), (6, 5)),
    ),
    Case(
        "pure race, no contact",
        {12: 3, 9: 2, 8: 4, 6: 3, 3: 3},
        {11: 2, 7: 3, 6: 4, 4: 3, 2: 3},
        ((6, 5), (4, 4), (2, 1), (6, 6), (5, 2), (1, 1)),
    ),
    Case(
        "Hypergammon: one on the bar, the opponent holds its 5-point and has a blot on its 6",
        {"bar": 1, 24: 1, 22: 1},
        {5: 2, 6: 1},
        ((6, 5), (5, 1), (5, 5), (6, 6), (3, 2)),
        {(5, 5): []},
        checkers=3,
    ),
    Case(
        "Hypergammon bear-off with one checker still in the opponent's home board",
        {2: 1, 1: 1},
        {1: 1, 20: 1},
        ((6, 5), (1, 1), (2, 1), (6, 6)),
        checkers=3,
    ),
)

# Random positions from seeded games: (variant, positions, rolls for each, most turns in). The
# turn limits keep most positions in the middle game, where the plays are many.
RANDOM_SETS = (
    (Variant.STANDARD, 24, 6, 60),
    (Variant.NACKGAMMON, 4, 6, 50),
    (Variant.HYPERGAMMON, 4, 6, 12),
)


def random_positions(variant: Variant, count: int, turns: int, seed: int) -> list[Position]:
    """``count`` positions from seeded random games, each from 1 to ``turns`` turns in.

    Each turn plays a random legal play; the plays are put in a fixed order first, so the
    positions depend only on the seed and the rules, not on the generator's order of plays.
    """
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.initial(variant)
        for _ in range(rng.randint(1, turns)):
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            if not plays:
                position = position.flip()
                continue
            plays.sort(key=lambda play: (play.result.mine, play.result.theirs))
            after = rng.choice(plays).result
            if after.is_game_over():
                break
            position = after
        found.append(position)
    return found


def sorted_plays(position: Position, roll: Roll) -> list[str]:
    """The legal plays of ``roll`` in notation, sorted."""
    return sorted(str(play) for play in position.legal_plays(roll))


def entry(position: Position, note: str, rolls: dict[Roll, list[str]]) -> dict[str, object]:
    """The golden record of one position and the plays of its rolls."""
    return {
        "id": position.id(),
        "checkers": position.checkers,
        "note": note,
        "rolls": [
            {"dice": list(roll), "count": len(plays), "plays": plays}
            for roll, plays in rolls.items()
        ],
    }


def hand_picked() -> list[dict[str, object]]:
    """The records of CASES, after checking each hand-worked expectation."""
    records = []
    for case in CASES:
        position = Position.from_points(case.mine, case.theirs, checkers=case.checkers)
        rolls = {roll: sorted_plays(position, roll) for roll in case.rolls}
        for roll, expected in case.expect.items():
            if rolls[roll] != expected:
                raise SystemExit(
                    f"{case.note!r}, roll {roll}: worked out by hand {expected}, "
                    f"the library gives {rolls[roll]}"
                )
        records.append(entry(position, case.note, rolls))
    return records


def random_records(seed: int) -> list[dict[str, object]]:
    """Records of random positions, each with random rolls (at least one double)."""
    rng = random.Random(seed)
    doubles = [roll for roll in ALL_ROLLS if roll[0] == roll[1]]
    others = [roll for roll in ALL_ROLLS if roll[0] != roll[1]]
    records = []
    for index, (variant, count, rolls, turns) in enumerate(RANDOM_SETS):
        for position in random_positions(variant, count, turns, seed + index):
            chosen = [rng.choice(doubles), *rng.sample(others, rolls - 1)]
            chosen.sort(reverse=True)
            details = [
                text
                for text, present in (
                    ("race", position.is_race()),
                    ("mover on the bar", position.bar[0]),
                    ("opponent on the bar", position.bar[1]),
                    ("mover bearing off", position.off[0]),
                )
                if present
            ]
            note = f"random {variant.value} position"
            if details:
                note += f" ({', '.join(details)})"
            records.append(
                entry(position, note, {roll: sorted_plays(position, roll) for roll in chosen})
            )
    return records


def main() -> None:
    """Write the golden file (or the path given)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=20240601, help="seed of the random part")
    parser.add_argument("--output", type=Path, default=GOLDEN, help="where to write")
    args = parser.parse_args()
    positions = hand_picked() + random_records(args.seed)
    document = {
        "description": (
            "Legal plays of hand-picked and random positions: gnubg Position ID (player on "
            "roll's view), checkers a side, what it covers, and for each roll the exact sorted "
            "legal plays in gnubg notation. Written by tools/make_golden.py."
        ),
        "positions": positions,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {args.output}: {len(positions)} positions")


if __name__ == "__main__":
    main()
