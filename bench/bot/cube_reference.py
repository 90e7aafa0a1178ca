"""A reference set of cube decisions judged by GNU Backgammon, and the bot's errors on it.

``build`` plays seeded games between two copies of the shipped bot at 0-ply, takes positions
before a roll where the player on roll may double, gives each a cube and a score (money with
the cube centred or owned by the player on roll; matches to 3..11 points at varied scores),
keeps those the bot thinks are in doubling range, and asks Debian's GNU Backgammon (``gnubg
-t``: ``set gnubgid``, then ``hint`` at ``--plies``) for its cubeful equities of no double,
double/take and double/pass. It keeps the non-trivial ones: where the doubling decision or
the take decision is within ``--margin`` (money equity, EMG in matches) of the other choice.
The set is written as JSON lines, gzipped, with the command that made it in its first line.

``measure`` asks the bot for its decision on each reference position and reports, by gnubg's
equities, the doubler's error (the right action's equity minus that of the bot's action) and
the taker's error (the same for the answer to a double), in millipoints a decision, for
money and match positions apart and together, with their standard errors.

Run:
    python bench/bot/cube_reference.py build --positions 400 \
        --out bench/data/cube_reference.jsonl.gz
    python bench/bot/cube_reference.py measure bench/data/cube_reference.jsonl.gz
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from backgammon.bot import Bot
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.dice import SeededDice
from backgammon.formats.matchid import MatchIdState, gnubg_id
from backgammon.position import Position

GNUBG = "/usr/games/gnubg"


@dataclass
class Reference:
    """One cube decision as GNU Backgammon judges it, for the player on roll."""

    gnubg_id: str
    position: str
    cube_value: int
    cube_owner: str  # "centre" or "on roll"
    match_length: int  # 0: money
    score: tuple[int, int]  # the player on roll's first
    no_double: float
    double_take: float
    double_pass: float
    proper: str  # gnubg's "Proper cube action" text
    cubeless: list[float]  # gnubg's win, win g, win bg, lose g, lose bg (its printed order)

    def context(self) -> CubeContext:
        match = MatchScore(self.match_length, self.score) if self.match_length else None
        return CubeContext(self.cube_value, CubeOwner(self.cube_owner), match)


def candidates(count: int, seed: int, bot: Bot) -> Iterator[tuple[Position, CubeContext]]:
    """Positions before a roll, from seeded bot-bot games, with a cube and a score each,
    where the bot's 0-ply winning chance is in doubling range."""
    rng = random.Random(seed)
    dice = SeededDice(seed)
    found = 0
    while found < count:
        position = Position.initial()
        for _ply in range(200):
            roll = dice.roll()
            play = bot.best_play(position, roll)
            position = play.result if play is not None else position.flip()
            if position.is_game_over():
                break
            if rng.random() > 0.25:
                continue
            win = bot.evaluate(position, plies=0).win
            if not 0.55 <= win <= 0.92:
                continue
            yield position, _context(rng)
            found += 1
            if found >= count:
                return


def _context(rng: random.Random) -> CubeContext:
    if rng.random() < 0.5:
        if rng.random() < 0.6:
            return CubeContext()
        return CubeContext(rng.choice((2, 4)), CubeOwner.ON_ROLL)
    length = rng.choice((3, 5, 7, 9, 11))
    while True:
        score = (rng.randrange(length - 1), rng.randrange(length - 1))
        # Post-Crawford scores are left out: the trailer's double is automatic there.
        cube = 1 if rng.random() < 0.7 else 2
        if cube == 2 and length - score[0] <= 2:
            continue  # a 2-cube owned by a player 2 away or less is dead
        return CubeContext(
            cube, CubeOwner.CENTRE if cube == 1 else CubeOwner.ON_ROLL, MatchScore(length, score)
        )


def full_id(position: Position, context: CubeContext) -> str:
    """The gnubg ID of ``position`` (player 0 on roll, no dice) with ``context``'s cube."""
    match = context.match
    state = MatchIdState(
        cube_value=context.value,
        cube_owner=None if context.owner is CubeOwner.CENTRE else 0,
        player_on_roll=0,
        turn=0,
        match_length=match.length if match else 0,
        score=match.score if match else (0, 0),
        jacoby=False,
    )
    return gnubg_id(position, state)


_EQUITY = re.compile(r"^\s*\d\.\s+(No double|Double, pass|Double, take)\s+([+-]\d+\.\d+)")
_PROPER = re.compile(r"^Proper cube action:\s*(.+)$")
_CUBELESS = re.compile(r"^\s+(\d\.\d+) (\d\.\d+) (\d\.\d+) - (\d\.\d+) (\d\.\d+) (\d\.\d+)")


def judge(ids: list[str], plies: int) -> list[dict[str, Any] | None]:
    """gnubg's cube analysis of each ID (None where it printed none)."""
    commands = [
        "set automatic roll off",
        "set automatic game off",
        "set jacoby off",
        "set beavers off",
        "set output mwc off",
        "set player 0 human",
        "set player 1 human",
        f"set evaluation cubedecision evaluation plies {plies}",
        f"set evaluation chequerplay evaluation plies {plies}",
        "new session",
    ]
    for text in ids:
        commands += [f"set gnubgid {text}", "hint"]
    out = subprocess.run(
        [GNUBG, "-t", "-q"], input="\n".join(commands) + "\n", capture_output=True,
        text=True, timeout=3600,
    ).stdout
    blocks = out.split("Setting GNUbg ID")[1:]
    results: list[dict[str, Any] | None] = []
    for block in blocks:
        equities: dict[str, float] = {}
        proper = None
        cubeless = None
        for line in block.splitlines():
            if m := _EQUITY.match(line):
                equities[m.group(1)] = float(m.group(2))
            elif m := _PROPER.match(line):
                proper = m.group(1).strip()
            elif cubeless is None and (m := _CUBELESS.match(line)):
                values = [float(v) for v in m.groups()]
                cubeless = [values[0], values[1], values[2], values[4], values[5]]
        if len(equities) == 3 and proper and cubeless:
            results.append(
                {
                    "no_double": equities["No double"],
                    "double_take": equities["Double, take"],
                    "double_pass": equities["Double, pass"],
                    "proper": proper,
                    "cubeless": cubeless,
                }
            )
        else:
            results.append(None)
    return results


def non_trivial(judged: dict[str, Any], margin: float) -> bool:
    """Whether the doubling or the take decision is within ``margin`` of the other choice."""
    nd, dt, dp = judged["no_double"], judged["double_take"], judged["double_pass"]
    return abs(nd - min(dt, dp)) <= margin or abs(dt - dp) <= margin


def build(args: argparse.Namespace) -> None:
    bot = Bot()
    kept: list[Reference] = []
    seen: set[str] = set()
    seed = args.seed
    with gzip.open(args.out, "wt") as out:
        out.write(json.dumps({"command": " ".join(sys.argv), "plies": args.plies}) + "\n")
        while len(kept) < args.positions:
            batch = [
                (position, context, full_id(position, context))
                for position, context in candidates(args.batch, seed, bot)
            ]
            batch = [item for item in batch if item[2] not in seen]
            seed += 1
            judged = judge([text for _, _, text in batch], args.plies)
            for (position, context, text), verdict in zip(batch, judged, strict=True):
                seen.add(text)
                if verdict is None or not non_trivial(verdict, args.margin):
                    continue
                match = context.match
                reference = Reference(
                    gnubg_id=text,
                    position=position.id(),
                    cube_value=context.value,
                    cube_owner=context.owner.value,
                    match_length=match.length if match else 0,
                    score=match.score if match else (0, 0),
                    **verdict,
                )
                kept.append(reference)
                out.write(json.dumps(asdict(reference)) + "\n")
                if len(kept) >= args.positions:
                    break
            out.flush()
            money = sum(1 for r in kept if not r.match_length)
            print(f"{len(kept)} kept ({money} money), seed {seed}", flush=True)


def load(path: str) -> list[Reference]:
    """The reference positions of a file written by ``build``."""
    with gzip.open(path, "rt") as lines:
        next(lines)  # the command
        return [
            Reference(**{**data, "score": tuple(data["score"])})
            for data in map(json.loads, lines)
        ]


def errors(reference: Reference, bot: Bot) -> tuple[float, float]:
    """The bot's doubler and taker errors on ``reference``, by gnubg's equities."""
    position = Position.from_id(reference.position)
    decision = bot.cube_decision(position, cube=reference.context())
    nd, dt, dp = reference.no_double, reference.double_take, reference.double_pass
    doubled = min(dt, dp)
    best = max(nd, doubled)
    ours = doubled if decision.action == "double" else nd
    if decision.action == "too good":
        ours = nd  # playing on for the gammon is not doubling
    doubler = best - ours
    # The taker's equity is minus the doubler's: taking gives -dt, passing -dp.
    taker_best = max(-dt, -dp)
    taker = taker_best - (-dt if decision.response in ("take", "beaver") else -dp)
    return doubler, taker


def measure(args: argparse.Namespace) -> None:
    references = load(args.file)
    bot = Bot(plies=args.plies)
    rows: dict[str, list[tuple[float, float]]] = {"money": [], "match": []}
    for reference in references:
        kind = "match" if reference.match_length else "money"
        rows[kind].append(errors(reference, bot))
    rows["all"] = rows["money"] + rows["match"]
    print(f"{len(references)} positions from {args.file}, bot at {args.plies}-ply")
    for kind, values in rows.items():
        if not values:
            continue
        for name, column in (("doubler", 0), ("taker", 1)):
            sample = [1000 * v[column] for v in values]
            mean = sum(sample) / len(sample)
            sd = math.sqrt(sum((x - mean) ** 2 for x in sample) / max(len(sample) - 1, 1))
            wrong = sum(1 for x in sample if x > 1e-9)
            print(
                f"{kind:5} {name:7} error {mean:6.2f} ± {sd / math.sqrt(len(sample)):.2f} "
                f"millipoints a decision ({wrong} of {len(sample)} wrong)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="judge new positions with gnubg")
    b.add_argument("--positions", type=int, default=400)
    b.add_argument("--batch", type=int, default=200, help="candidates a gnubg run")
    b.add_argument("--plies", type=int, default=2, help="gnubg's depth")
    b.add_argument("--margin", type=float, default=0.25)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--out", default="bench/data/cube_reference.jsonl.gz")
    m = commands.add_parser("measure", help="the bot's errors on a reference set")
    m.add_argument("file", nargs="?", default="bench/data/cube_reference.jsonl.gz")
    m.add_argument("--plies", type=int, default=0, help="the bot's depth")
    args = parser.parse_args()
    build(args) if args.command == "build" else measure(args)


if __name__ == "__main__":
    main()
