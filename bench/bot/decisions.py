"""A fixed set of checker-play decisions judged by GNU Backgammon, and any network's error on it.

``build`` plays seeded cubeless games between varied players (gnubg-nn's 0-ply network, our
shipped bot with some noise, pubeval), each game's two players drawn at random and each
exploring (a random legal play) at a rate drawn per game, so that the positions range over
contact, crashed and backgame positions, races and bear-offs. It samples unforced decisions
(two or more legal plays) from those games, at most one per position and roll, judges every
legal play of each by gnubg-nn at ``--plies`` (cubeless money equity), and keeps the
non-trivial ones: where some play loses more than ``--trivial`` against the best; with
``--classes``, only decisions of those gnubg classes are judged and kept (a set of crashed
positions, which the games reach one decision in twenty, say). The set is
JSON lines, gzipped: a header (the command, the judge's depth, how many decisions were
sampled and how many were trivial), then one decision a line: the gnubg Position ID, the
dice, gnubg's class of the position, the best play's equity, and each legal play's equity
loss against it, keyed by the Position ID of the play's result (the opponent on roll).
With ``--from-positions`` the decisions are not sampled from games but from a file of positions
(the truth set's format: a header line, then one ``{"id": ...}`` a line), each with a roll drawn
at random, in a seeded order: the positions people reached in real matches
(``data/labels/people-end36/positions.jsonl.gz``) give the set of decisions people faced.
``--exclude`` (a file of such lines, or a folder's label chunks) leaves out every decision
whose position or any of whose plays' results it names: the positions a network is trained on.

``measure`` asks a bot (the shipped networks, or each ``--weights`` file, at ``--plies``) for
its play in each decision and reports gnubg's equity loss of that play: the mean in
millipoints a decision (equity x 1000) with its standard error, by position class, the share
of decisions marked bad (a loss over 0.08) and very bad (over 0.16, a blunder), and the
mean over every unforced decision sampled, the trivial ones counted at 0 (GNU Backgammon's
own convention for an error rate). With two or more networks it also prints each one's
difference from the first over the same decisions, with the standard error of the paired
differences. ``--gnubg`` and ``--pubeval`` measure those players as well, as references.

Run:
    python bench/bot/decisions.py build --decisions 2000 --out bench/data/decisions.jsonl.gz
    python bench/bot/decisions.py build --decisions 1000 \
        --out bench/data/decisions-people.jsonl.gz \
        --from-positions data/labels/people-end36/positions.jsonl.gz \
        --exclude data/labels/people-end36 --exclude data/labels/people-plays/positions.jsonl.gz
    python bench/bot/decisions.py measure --plies 0 [--weights A.npz --weights B.npz]
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: small matrices, shared cores

from gnubg_judge import GnubgJudge

from backgammon.analysis.decisions import SKILL_THRESHOLDS, Mark
from backgammon.bot import Bot
from backgammon.bot.bearoff import BearoffEvaluator
from backgammon.bot.evaluator import Evaluator, NetworkEvaluator
from backgammon.bot.pubeval import PubEval
from backgammon.bot.shipped import shipped_evaluator
from backgammon.errors import BackgammonError
from backgammon.moves import Play
from backgammon.position import Position
from backgammon.training.duel import Chooser, opening_roll

DEFAULT_SET = str(Path(__file__).resolve().parents[1] / "data" / "decisions.jsonl.gz")
#: The classes in the order they are printed (gnubg's, bench/bot/gnubg_judge.py's CLASSES).
CLASS_ORDER = ("contact", "crashed", "race", "bear-off")
#: Equity losses are stored rounded to this many decimals (0.01 millipoints).
DECIMALS = 5
#: GNU Backgammon's marks of a bad and a very bad play (the analysis' thresholds).
BAD = dict(SKILL_THRESHOLDS)[Mark.BAD]
VERY_BAD = dict(SKILL_THRESHOLDS)[Mark.VERY_BAD]


class DecisionSetError(BackgammonError):
    """A decision of the set does not match the legal plays our rules give."""


@dataclass(frozen=True)
class Decision:
    """One checker-play decision as gnubg judged it."""

    position_id: str
    dice: tuple[int, int]
    position_class: str
    best: float  # gnubg's equity of the best play
    losses: dict[str, float]  # by the result's Position ID: the equity lost against the best

    def plays(self) -> list[Play]:
        """The legal plays by our rules, checked to be the set's."""
        plays = Position.from_id(self.position_id).legal_plays(self.dice)
        if {play.result.id() for play in plays} != set(self.losses):
            raise DecisionSetError(
                f"The plays of {self.dice} from {self.position_id} by our rules are not the "
                f"{len(self.losses)} plays the set judged."
            )
        return plays


@dataclass(frozen=True)
class DecisionSet:
    """A file of decisions and its header."""

    header: dict[str, object]
    decisions: list[Decision]

    @property
    def kept_share(self) -> float:
        """The share of the unforced decisions sampled that were kept (not trivial)."""
        sampled, trivial = self.header["sampled"], self.header["trivial"]
        assert isinstance(sampled, int) and isinstance(trivial, int)
        return (sampled - trivial) / sampled


def load(path: str = DEFAULT_SET) -> DecisionSet:
    """The decision set of a file ``build`` wrote."""
    with gzip.open(path, "rt") as lines:
        header = json.loads(next(lines))
        decisions = [
            Decision(
                data["id"], (data["dice"][0], data["dice"][1]), data["class"], data["best"],
                data["losses"],
            )
            for data in map(json.loads, lines)
        ]
    return DecisionSet(header, decisions)


# Building


def _players(rng: random.Random) -> tuple[Chooser, Chooser]:
    """Two players for one game, drawn among gnubg-nn 0-ply, our bot (noisy or not), pubeval."""

    def draw() -> Chooser:
        kind = rng.choices(("gnubg", "bot", "pubeval"), weights=(4, 4, 2))[0]
        if kind == "gnubg":
            return GnubgJudge(0)
        if kind == "bot":
            return Bot(noise=rng.choice((0.0, 0.0, 0.03, 0.08)), seed=rng.randrange(2**32))
        return PubEval()

    return draw(), draw()


def candidates(seed: int, sample: float) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Unforced decisions (position, dice) sampled at rate ``sample`` from seeded games."""
    rng = random.Random(seed)
    while True:
        players = _players(rng)
        explore = rng.choice((0.0, 0.02, 0.05, 0.1))
        position, turn = Position.initial(), rng.randint(0, 1)
        dice = opening_roll(rng)
        while position.outcome() is None:
            plays = position.legal_plays(dice)
            if len(plays) > 1:
                if rng.random() < sample:
                    yield position, dice
                if rng.random() < explore:
                    play = rng.choice(plays)
                else:
                    play = players[turn].choose(position, plays)
                position = play.result
            else:
                position = plays[0].result if plays else position.flip()
            turn = 1 - turn
            dice = (rng.randint(1, 6), rng.randint(1, 6))


def listed(path: str) -> Iterator[str]:
    """The IDs of a positions file or a label chunk (JSON lines, gzipped or not, each with an
    ``id``; a header line without one is passed over)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as lines:
        for line in lines:
            data = json.loads(line)
            if "id" in data:
                yield data["id"]


def excluded(paths: Sequence[str]) -> set[str]:
    """The IDs of ``paths``, each a file (:func:`listed`) or a folder of label chunks (the
    positions it labelled so far, not those its positions file lists)."""
    ids: set[str] = set()
    for path in map(Path, paths):
        files = sorted(path.glob("labels-*.jsonl*")) if path.is_dir() else [path]
        for file in files:
            ids.update(listed(str(file)))
    return ids


def from_positions(path: str, seed: int) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Unforced decisions from the positions of ``path`` in a seeded order, each with a roll
    drawn at random (a position whose roll is forced is passed over)."""
    rng = random.Random(seed)
    ids = list(listed(path))
    rng.shuffle(ids)
    for position_id in ids:
        position = Position.from_id(position_id)
        if position.outcome() is not None:
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if len(position.legal_plays(dice)) > 1:
            yield position, dice


def judge(item: tuple[str, tuple[int, int], int]) -> dict[str, object]:
    """One decision judged by gnubg-nn at the given depth: every legal play's equity loss."""
    position_id, dice, plies = item
    gnubg = GnubgJudge(plies)
    position = Position.from_id(position_id)
    equities = {play.result.id(): gnubg.play_equity(play) for play in position.legal_plays(dice)}
    best = max(equities.values())
    return {
        "id": position_id,
        "dice": list(dice),
        "class": gnubg.position_class(position),
        "best": round(best, DECIMALS),
        "losses": {key: round(best - value, DECIMALS) for key, value in equities.items()},
    }


def build(args: argparse.Namespace) -> None:
    seen: set[tuple[str, tuple[int, int]]] = set()
    items: list[tuple[str, tuple[int, int], int]] = []
    classify = GnubgJudge(0).position_class
    left_out = excluded(args.exclude)
    source = (
        from_positions(args.from_positions, args.seed) if args.from_positions
        else candidates(args.seed, args.sample)
    )
    for position, dice in source:
        key = (position.id(), (max(dice), min(dice)))
        if left_out and (key[0] in left_out or any(
            play.result.id() in left_out for play in position.legal_plays(dice)
        )):
            continue
        if key not in seen and (not args.classes or classify(position) in args.classes):
            seen.add(key)
            items.append((key[0], key[1], args.plies))
        if len(items) >= args.candidates:
            break
    kept: list[dict[str, object]] = []
    trivial = 0
    start = time.perf_counter()
    pool = ProcessPoolExecutor(args.workers)
    try:
        for done, judged in enumerate(pool.map(judge, items, chunksize=8), 1):
            losses = judged["losses"]
            assert isinstance(losses, dict)
            if max(losses.values()) > args.trivial:
                kept.append(judged)
            else:
                trivial += 1
            if done % 100 == 0:
                print(f"{done} judged, {len(kept)} kept ({time.perf_counter() - start:.0f} s)",
                      flush=True)
            if len(kept) >= args.decisions:
                break
    finally:
        pool.shutdown(cancel_futures=True)  # the candidates not needed are never judged
    header = {
        "command": "python bench/bot/decisions.py " + " ".join(sys.argv[1:]),
        "judge": f"gnubg-nn {args.plies}-ply, cubeless money equity",
        "plies": args.plies,
        "sampled": len(kept) + trivial,
        "trivial": trivial,
        "trivial_margin": args.trivial,
        "classes": args.classes or list(CLASS_ORDER),
        "positions": args.from_positions or "games",
    }
    with gzip.open(args.out, "wt") as out:
        out.write(json.dumps(header) + "\n")
        for judged in kept:
            out.write(json.dumps(judged, separators=(",", ":")) + "\n")
    print(f"{len(kept)} decisions ({trivial} trivial left out) in {args.out}")


# Measuring


def losses_of(choose: Callable[[Position, Sequence[Play]], Play],
              decisions: Sequence[Decision]) -> list[float]:
    """The equity each decision's chosen play loses by gnubg's judgement."""
    losses: list[float] = []
    for decision in decisions:
        plays = decision.plays()  # two or more (the set keeps unforced decisions only)
        losses.append(decision.losses[choose(plays[0].position, plays).result.id()])
    return losses


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error.

    >>> mean_and_error([1.0, 3.0])
    (2.0, 1.0)
    """
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)
    return mean, math.sqrt(variance / len(values))


def report(name: str, losses: Sequence[float], decision_set: DecisionSet) -> list[str]:
    """The lines that describe ``losses`` (one a decision of ``decision_set``)."""
    mean, error = mean_and_error([1000 * loss for loss in losses])
    bad = sum(loss > BAD for loss in losses)
    very_bad = sum(loss > VERY_BAD for loss in losses)
    share = decision_set.kept_share
    lines = [
        f"{name}: {mean:.2f} ± {error:.2f} millipoints a decision over {len(losses)} "
        f"decisions; {mean * share:.2f} ± {error * share:.2f} a decision counting the "
        f"trivial ones at 0 ({100 * (1 - share):.1f}% of the unforced); bad (> {BAD}) "
        f"{100 * bad / len(losses):.1f}%, very bad (> {VERY_BAD}) "
        f"{100 * very_bad / len(losses):.1f}%"
    ]
    for kind in CLASS_ORDER:
        sample = [1000 * loss for loss, d in zip(losses, decision_set.decisions, strict=True)
                  if d.position_class == kind]
        if sample:
            kind_mean, kind_error = mean_and_error(sample)
            lines.append(f"  {kind:8} {kind_mean:6.2f} ± {kind_error:.2f} over {len(sample)}")
    return lines


def measure(args: argparse.Namespace) -> None:
    decision_set = load(args.file)
    if args.limit:
        decision_set = DecisionSet(decision_set.header, decision_set.decisions[: args.limit])
    print(f"{len(decision_set.decisions)} decisions from {args.file} "
          f"(judged by {decision_set.header['judge']})", flush=True)
    players: list[tuple[str, Callable[[Position, Sequence[Play]], Play]]] = [
        (f"{weights or 'shipped networks'} at {args.plies}-ply",
         Bot(plies=args.plies, evaluator=_evaluator(weights)).choose)
        for weights in args.weights or [None]
    ]
    if args.gnubg:
        players.append((f"gnubg-nn at {args.plies}-ply", GnubgJudge(args.plies).choose))
    if args.pubeval:
        players.append(("pubeval", PubEval().choose))
    first: list[float] | None = None
    for name, choose in players:
        start = time.perf_counter()
        losses = losses_of(choose, decision_set.decisions)
        for line in report(name, losses, decision_set):
            print(line)
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
        if first is None:
            first = losses
        else:
            diffs = [1000 * (a - b) for a, b in zip(losses, first, strict=True)]
            diff, diff_error = mean_and_error(diffs)
            print(f"  minus {players[0][0]}: {diff:+.2f} ± {diff_error:.2f} millipoints"
                  f" a decision (paired)")
            for kind in CLASS_ORDER:
                sample = [d for d, decision in zip(diffs, decision_set.decisions, strict=True)
                          if decision.position_class == kind]
                if sample:
                    print("    {:8} {:+6.2f} ± {:.2f}".format(kind, *mean_and_error(sample)))


def _evaluator(weights: str | None) -> Evaluator:
    """The networks of a ``backgammon train`` checkpoint with the bearoff table (None: the
    shipped ones, or those ``BACKGAMMON_WEIGHTS`` names)."""
    if weights is None:
        return shipped_evaluator()
    return BearoffEvaluator(NetworkEvaluator.load(weights))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    b = commands.add_parser("build", help="sample decisions and judge them with gnubg-nn")
    b.add_argument("--decisions", type=int, default=2000, help="non-trivial decisions to keep")
    b.add_argument("--candidates", type=int, default=4000, help="most decisions to judge")
    b.add_argument("--sample", type=float, default=0.12, help="share of unforced turns taken")
    b.add_argument("--plies", type=int, default=2, help="gnubg-nn's depth")
    b.add_argument("--trivial", type=float, default=0.001,
                   help="left out where no play loses more than this")
    b.add_argument("--classes", nargs="+", choices=CLASS_ORDER, default=[],
                   help="judge and keep only decisions of these gnubg classes (default: all)")
    b.add_argument("--workers", type=int, default=1)
    b.add_argument("--seed", type=int, default=1)
    b.add_argument("--out", default=DEFAULT_SET)
    b.add_argument("--from-positions", metavar="FILE",
                   help="decisions from this file's positions, a roll drawn for each, not games")
    b.add_argument("--exclude", action="append", default=[], metavar="PATH",
                   help="leave out decisions whose position or plays' results this file or "
                   "folder names (repeatable)")
    m = commands.add_parser("measure", help="a network's error on the set")
    m.add_argument("file", nargs="?", default=DEFAULT_SET)
    m.add_argument("--plies", type=int, default=0, help="the bot's depth")
    m.add_argument("--weights", action="append",
                   help="a checkpoint of networks (repeatable; default: the shipped ones)")
    m.add_argument("--limit", type=int, default=0, help="only the first N decisions")
    m.add_argument("--gnubg", action="store_true",
                   help="gnubg-nn itself at --plies too (a reference, biased toward its judge)")
    m.add_argument("--pubeval", action="store_true", help="pubeval too (a weak reference)")
    args = parser.parse_args()
    build(args) if args.command == "build" else measure(args)


if __name__ == "__main__":
    main()
