"""The truth set: positions whose value is known well enough to judge networks and labels by.

A truth set is a list of positions (the player on roll, before rolling), each from a stated
source (a match people played, or a game between engines) and of a stated class, and each
rolled out *to the end* with luck adjustment until its cubeless equity's standard error is at
most ``target_se`` (or ``max_trials`` are spent). It is the yardstick of everything the bot's
training does: a network's 0-ply error on it by class, and a labelling method's bias and
noise (the label less the truth, the truth's own variance subtracted).

Two steps, each resumable and kept in one folder (``data/truth`` by default):

* :func:`choose` builds ``positions.jsonl.gz``: candidates from ``.mat`` files of matches
  people played (one turn drawn from each game) and from the engine-game decision sets of
  ``bench/data``, classed by :func:`position_class` and drawn per class to the stated
  shares, then shuffled so that any prefix of the list is itself a balanced set.
* :func:`label` rolls the listed positions out in order, ``chunk`` positions a file
  (``labels-NNN.jsonl.gz``, written whole, so a killed run loses at most the chunk in
  progress) and goes on from the first position no chunk holds. Each label records the five
  outputs and their standard errors, the equity and its standard error, the trials, the
  settings, the seed, the seconds it took and the networks that played (a digest of their
  file). Bear-offs the table answers exactly take the table's value (no trials).

The dice of position ``i`` come from the seed and ``i`` alone (or, for a group of positions
rolled out with common dice, from the seed and the group's name), in blocks of 324 trials
with stratified first two rolls (trials 0..1295 cover each pair of first rolls once), so a
label does not depend on how the run was cut or spread over processes.

>>> from backgammon import Position
>>> position_class(Position.initial())
'contact'
>>> position_class(Position.from_id("AAAAAP8PAAAAAA"))     # no contact left, not all home
'race'
"""

from __future__ import annotations

import gzip
import hashlib
import json
import math
import os
import random
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..bot.bearoff import BearoffEvaluator, is_bearoff, shipped_table
from ..bot.encoding import either_crashed
from ..bot.evaluator import NetworkEvaluator
from ..bot.kernel import Kernel
from ..bot.kernel.api import board_of
from ..bot.pools import worker_pool
from ..bot.probabilities import EQUITY_WEIGHTS
from ..bot.shipped import shipped_evaluator
from ..errors import BackgammonError
from ..position import Position

#: The classes of the truth set, as GNU Backgammon's benchmarks split positions, with the
#: back game apart (crashed and back-game positions are where the networks err most).
CLASSES = ("contact", "crashed", "backgame", "race", "bearoff")
#: The shares of each class in a truth set, by default.
SHARES = {"contact": 0.45, "crashed": 0.15, "backgame": 0.10, "race": 0.20, "bearoff": 0.10}
#: Trials are added in blocks of this many (a multiple of 36: each first roll as often).
BLOCK = 324
_EQUITY = np.array(EQUITY_WEIGHTS)
_SEED_STEP = 0x9E3779B97F4A7C15


class TruthError(BackgammonError):
    """A truth set that cannot be built or read as asked."""


def position_class(position: Position) -> str:
    """The truth set's class of ``position``: ``bearoff`` (both sides home: the table's),
    ``race`` (no contact), ``backgame`` (a side holds two points of the other's home board
    and trails the race by 50 pips or more), ``crashed`` (GNU Backgammon's class) or
    ``contact``."""
    board = board_of(position).astype(np.uint8)
    mine, theirs = board[None, 0], board[None, 1]
    if is_bearoff(mine, theirs)[0]:
        return "bearoff"
    if position.is_race():
        return "race"
    pips = [_pips(side) for side in board]
    for side in range(2):
        anchors = int((board[side, 19:25] >= 2).sum())
        if anchors >= 2 and pips[side] - pips[1 - side] >= 50:
            return "backgame"
    if either_crashed(mine, theirs)[0]:
        return "crashed"
    return "contact"


def _pips(side: np.ndarray) -> int:
    return int((side * np.arange(26)).sum())


# Candidates ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A position offered to the truth set: its Position ID, class and where it came from;
    ``group``: positions of one group are rolled out with the same dice (the positions after
    the plays of one roll, :func:`after_plays`: common dice make the differences between
    their values, which rank the plays, far less noisy than the values themselves)."""

    id: str
    cls: str
    source: str
    group: str | None = None


def candidates_from_mat(paths: Iterable[Path], seed: int, skip_players: Sequence[str] = (),
                        every_turn: bool = False) -> Iterator[Candidate]:
    """One turn drawn at random from each game of each readable ``.mat`` file (a file the
    rules refuse is passed over), or ``every_turn``, skipping matches with a player named in
    ``skip_players`` (computer opponents in a corpus of people's matches)."""
    from ..formats.mat import import_mat
    from ..game.history import TurnPlayed

    rng = random.Random(seed)
    skip = {name.lower() for name in skip_players}
    for path in sorted(paths):
        try:
            match = import_mat(path.read_text(encoding="utf-8", errors="replace"))
        except BackgammonError:
            continue
        if skip & {name.lower() for name in match.players}:
            continue
        for number, game in enumerate(match.games, 1):
            turns = [entry for entry in game.history() if isinstance(entry, TurnPlayed)]
            if not turns:
                continue
            for turn in turns if every_turn else [rng.choice(turns)]:
                position = turn.position
                yield Candidate(position.id(), position_class(position),
                                f"{path.name}#game{number}turn{turn.index}")


def candidates_from_decisions(path: Path) -> Iterator[Candidate]:
    """The positions of a decision set of ``bench/bot/decisions.py`` (JSON lines, gzipped: a
    header, then one decision a line with its Position ID)."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        next(lines)
        for line in lines:
            position = Position.from_id(json.loads(line)["id"])
            yield Candidate(position.id(), position_class(position), path.name)


def draw(candidates: Iterable[Candidate], count: int, shares: dict[str, float] | None,
         seed: int) -> list[Candidate]:
    """``count`` distinct candidates with the classes in ``shares``' proportions (a class
    short of candidates leaves its places to the others, in order of share); None: as they
    come, drawn at random."""
    rng = random.Random(seed)
    if shares is None:
        pool = list({candidate.id: candidate for candidate in candidates}.values())
        rng.shuffle(pool)
        return pool[:count]
    by_class: dict[str, list[Candidate]] = {cls: [] for cls in shares}
    seen: set[str] = set()
    for candidate in candidates:
        if candidate.id not in seen and candidate.cls in by_class:
            seen.add(candidate.id)
            by_class[candidate.cls].append(candidate)
    wanted = {cls: round(count * share) for cls, share in shares.items()}
    chosen: list[Candidate] = []
    for cls, pool in by_class.items():
        rng.shuffle(pool)
        chosen += pool[: wanted[cls]]
        del pool[: wanted[cls]]
    spare = [c for cls in sorted(shares, key=lambda c: -shares[c]) for c in by_class[cls]]
    chosen += spare[: max(count - len(chosen), 0)]
    return chosen


def disagreements(candidates: Sequence[Candidate], count: int) -> list[Candidate]:
    """The ``count`` candidates (bear-offs left out) whose 0-ply and 2-ply cubeless equities
    differ most: where the network is most likely wrong, so where a label teaches most."""
    from ..bot import Bot, Level

    bot = Bot(level=Level.WORLD_CLASS)
    gaps = []
    for candidate in candidates:
        if candidate.cls == "bearoff":
            continue
        position = Position.from_id(candidate.id)
        gap = abs(bot.evaluate(position, plies=2).equity - bot.evaluate(position, plies=0).equity)
        gaps.append((gap, candidate))
        bot.search.clear()  # the candidates are many; the cache would only grow
    gaps.sort(key=lambda pair: -pair[0])
    return [Candidate(c.id, c.cls, f"{c.source} (0/2-ply gap {gap:.3f})")
            for gap, c in gaps[:count]]


def after_plays(candidates: Iterable[Candidate], plays: int, seed: int) -> Iterator[Candidate]:
    """For each candidate, one roll drawn at random and the positions after its ``plays``
    best plays by the network's 0-ply ranking (the opponent then on roll; fewer where the
    roll has fewer distinct results, none where it has no move): the positions whose values
    rank a roll's plays, which is what the bot's choices rest on. A label factory's
    candidates, not the truth set's.

    >>> start = Candidate(Position.initial().id(), "contact", "start")
    >>> after = list(after_plays([start], 3, seed=1))
    >>> len(after), after[0].source.startswith("start, roll ")
    (3, True)
    """
    from ..bot import Bot, Level

    bot = Bot(level=Level.EXPERT)
    rng = random.Random(seed)
    for candidate in candidates:
        position = Position.from_id(candidate.id)
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        results = list({play.result.id(): play.result
                        for play in position.legal_plays(dice) if play.steps}.values())
        if not results:
            continue
        values = bot.play_equities(results, 0)
        for rank, index in enumerate(np.argsort(-values, kind="stable")[:plays], 1):
            after = results[int(index)]
            yield Candidate(after.id(), position_class(after),
                            f"{candidate.source}, roll {dice[0]}{dice[1]}, play {rank}",
                            f"{candidate.id} {dice[0]}{dice[1]}")
        bot.forget()  # the candidates are many; the cache would only grow


def choose(out: Path, groups: Sequence[tuple[str, list[Candidate], int]],
           shares: dict[str, float] | None, seed: int, header: dict[str, Any]
           ) -> list[Candidate]:
    """Write ``out/positions.jsonl.gz``: from each group (a name, its candidates, how many
    to draw), that many by :func:`draw`, all shuffled together; ``header`` (the command,
    the sources and their licences) is the file's first line. Refuses to overwrite a list
    that labels already follow."""
    if list(out.glob("labels-*.jsonl.gz")):
        raise TruthError(f"{out} already has labels of its positions; choose in a new folder.")
    chosen: list[Candidate] = []
    for index, (_, candidates, count) in enumerate(groups):
        chosen += draw(candidates, count, shares, seed + index)
    random.Random(seed).shuffle(chosen)
    out.mkdir(parents=True, exist_ok=True)
    groups_header = {name: len(candidates) for name, candidates, _ in groups}
    _write_lines(out / "positions.jsonl.gz",
                 [{**header, "candidates": groups_header, "shares": shares, "seed": seed}]
                 + [{k: v for k, v in asdict(c).items() if v is not None} for c in chosen])
    return chosen


def read_positions(out: Path) -> tuple[dict[str, Any], list[Candidate]]:
    """The header and the positions of ``out/positions.jsonl.gz``."""
    path = out / "positions.jsonl.gz"
    if not path.is_file():
        raise TruthError(f"{out} has no positions.jsonl.gz: choose the positions first.")
    header, *rows = _read_lines(path)
    return header, [Candidate(**row) for row in rows]


# Labels --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """How each position is rolled out: trials in blocks until the equity's standard error is
    at most ``target_se`` (or ``max_trials`` are spent), both sides playing at ``plies``,
    ``truncate`` turns then the 0-ply value (0: to the end; the truth set's). Other settings
    make the same machinery a label factory for training positions (each label records
    them)."""

    target_se: float = 0.01
    max_trials: int = 2592
    plies: int = 0
    seed: int = 20261207
    truncate: int = 0


def read_labels(out: Path) -> list[dict[str, Any]]:
    """Every label of ``out``'s chunks, in the positions' order."""
    labels: list[dict[str, Any]] = []
    for path in sorted(out.glob("labels-*.jsonl.gz")):
        labels += _read_lines(path)
    return labels


def label(out: Path, settings: Settings, chunk: int = 10, workers: int = 1,
          limit: int | None = None, on_chunk: Any = None, minutes: float | None = None,
          ray: str | None = None) -> int:
    """Roll out the positions of ``out`` that no chunk holds yet, ``chunk`` a file, with
    ``workers`` processes (each takes whole positions; on the Ray cluster at ``ray`` where
    given, :mod:`backgammon.bot.pools`); stop after ``limit`` new labels
    (None: all) or once ``minutes`` have passed (the labels done then are written, those
    under way dropped). ``on_chunk(path)`` is called after each chunk is written (to commit
    it). Returns how many labels were added."""
    if settings.max_trials % 36:
        raise TruthError(
            f"Trials come in blocks of 36 (each first roll as often); got {settings.max_trials}."
        )
    _, positions = read_positions(out)
    done = read_labels(out)
    for index, row in enumerate(done):
        if row["id"] != positions[index].id:
            raise TruthError(f"Label {index} of {out} is not of its position: start again.")
    todo = list(enumerate(positions))[len(done):]
    if limit is not None:
        todo = todo[:limit]
    digest = _networks_digest()
    number = len(list(out.glob("labels-*.jsonl.gz")))
    tasks = [(index, candidate, settings, digest) for index, candidate in todo]
    made = 0
    pending: list[dict[str, Any]] = []
    deadline = None if minutes is None else time.monotonic() + 60 * minutes
    serial = workers <= 1 and ray is None
    with _Serial() if serial else worker_pool(workers, ray=ray) as pool:
        for row in pool.imap(_label_one, tasks):
            pending.append(row)
            made += 1
            late = deadline is not None and time.monotonic() > deadline
            if len(pending) == chunk or made == len(tasks) or late:
                number += 1
                path = out / f"labels-{number:04d}.jsonl.gz"
                _write_lines(path, pending)
                pending = []
                if on_chunk is not None:
                    on_chunk(path)
            if late:
                break
    return made


class _Serial:
    """A pool of one: the work in this process."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, function: Any, items: Iterable[Any]) -> Iterator[Any]:
        return map(function, items)


def _label_one(task: tuple[int, Candidate, Settings, str]) -> dict[str, Any]:
    index, candidate, settings, digest = task
    position = Position.from_id(candidate.id)
    start = time.perf_counter()
    row: dict[str, Any] = {"id": candidate.id, "class": candidate.cls}
    if candidate.cls == "bearoff":
        board = board_of(position).astype(np.uint8)
        outputs = shipped_table().outputs(board[None, 0], board[None, 1])[0]
        row.update(method="bearoff table", trials=0,
                   probabilities=[round(float(v), 6) for v in outputs], se=[0.0] * 5,
                   equity=round(float(outputs @ _EQUITY - 1.0), 6), equity_se=0.0)
    else:
        seed = _seed(settings.seed, index, candidate.group)
        kernel = Kernel.shipped()
        values = np.zeros((0, 5))
        while True:
            results, lucks = kernel.rollout_trials(
                position, len(values), min(BLOCK, settings.max_trials), seed,
                truncate=settings.truncate, luck=True, stratify=True,
                plies=settings.plies, filters=_filters(settings.plies),
            )
            values = np.concatenate([values, results - lucks])
            equities = values @ _EQUITY - 1.0
            equity_se = float(equities.std(ddof=1) / math.sqrt(len(values)))
            if equity_se <= settings.target_se or len(values) >= settings.max_trials:
                break
        mean = values.mean(axis=0)
        se = values.std(axis=0, ddof=1) / math.sqrt(len(values))
        row.update(method="rollout", trials=len(values), plies=settings.plies,
                   truncate=settings.truncate,
                   luck=True, seed=seed, probabilities=[round(float(v), 6) for v in mean],
                   se=[round(float(v), 6) for v in se],
                   equity=round(float(mean @ _EQUITY - 1.0), 6),
                   equity_se=round(equity_se, 6))
    row.update(networks=digest, seconds=round(time.perf_counter() - start, 2))
    return row


def _seed(seed: int, index: int, group: str | None) -> int:
    """The dice's seed of position ``index`` of a list: from ``seed`` and its index, or, in a
    ``group`` (:attr:`Candidate.group`), from the group's name, the same for all its positions.

    >>> _seed(1, 0, "a 31") == _seed(1, 7, "a 31") != _seed(1, 7, "a 42")
    True
    """
    if group is None:
        return (seed + index * _SEED_STEP) % 2**63
    digest = hashlib.sha256(group.encode()).digest()
    return (seed + int.from_bytes(digest[:8], "big")) % 2**63


def _filters(plies: int) -> tuple[Any, ...]:
    from ..bot.search import DEFAULT_FILTERS

    return tuple(DEFAULT_FILTERS) if plies else ()


def _networks_digest() -> str:
    """A short digest of the networks file that plays the rollouts."""
    from importlib import resources

    from ..bot.shipped import WEIGHTS, WEIGHTS_VARIABLE

    named = os.environ.get(WEIGHTS_VARIABLE)
    data = (Path(named).read_bytes() if named
            else (resources.files("backgammon.bot") / "weights" / WEIGHTS).read_bytes())
    return "sha256:" + hashlib.sha256(data).hexdigest()[:16]


# Files ---------------------------------------------------------------------------------------


def _write_lines(path: Path, rows: Sequence[dict[str, Any]]) -> None:
    """JSON lines, gzipped, written to a temporary file and renamed (whole or not at all)."""
    partial = path.with_suffix(".partial")
    with gzip.open(partial, "wt", encoding="utf-8") as stream:
        for row in rows:
            stream.write(json.dumps(row, separators=(",", ":")) + "\n")
    partial.replace(path)


def _read_lines(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def equity_errors(labels: Sequence[dict[str, Any]], weights: Path | None) -> np.ndarray:
    """Each label's error: the 0-ply cubeless equity of the networks in ``weights`` (None: the
    shipped ones; bear-offs by the table) less the label's equity."""
    evaluator = (shipped_evaluator() if weights is None
                 else BearoffEvaluator(NetworkEvaluator.load(weights)))
    values = evaluator.evaluate_batch([Position.from_id(row["id"]) for row in labels])
    equities = np.asarray(values, dtype=np.float64) @ _EQUITY - 1.0  # as the labels' equity
    diff: np.ndarray = equities - np.array([row["equity"] for row in labels])
    return diff


def errors(labels: Sequence[dict[str, Any]], weights: Path | None
           ) -> dict[str, tuple[int, float, float]]:
    """Each class's (count, RMS error less the truth's variance, mean absolute error) of the
    0-ply equity of the networks in ``weights`` (None: the shipped ones), bear-offs by the
    table; ``all`` for every label."""
    diff = equity_errors(labels, weights)
    noise = np.array([row["equity_se"] ** 2 for row in labels])
    result = {}
    for cls, rows in _classes(labels).items():
        rms = math.sqrt(max(float((diff[rows] ** 2).mean() - noise[rows].mean()), 0.0))
        result[cls] = (len(rows), rms, float(np.abs(diff[rows]).mean()))
    return result


def paired(labels: Sequence[dict[str, Any]], weights: Path | None, base: Path | None
           ) -> dict[str, tuple[float, float, float, float]]:
    """Each class's paired difference of the networks in ``weights`` from those in ``base``
    over the same labels: (mean absolute error's difference, its standard error, mean squared
    error's difference, its standard error). The truth's own noise is the same on both sides,
    so the squared errors' difference needs no correction for it."""
    new, old = equity_errors(labels, weights), equity_errors(labels, base)
    result = {}
    for cls, rows in _classes(labels).items():
        absolute = np.abs(new[rows]) - np.abs(old[rows])
        squared = new[rows] ** 2 - old[rows] ** 2
        result[cls] = (*_mean_se(absolute), *_mean_se(squared))
    return result


def _classes(labels: Sequence[dict[str, Any]]) -> dict[str, np.ndarray]:
    """The indices of each class's labels, in :data:`CLASSES`' order, then ``all``."""
    groups: dict[str, list[int]] = defaultdict(list)
    for index, row in enumerate(labels):
        groups[row["class"]].append(index)
    every = {"all": np.arange(len(labels))} if len(labels) else {}
    return {**{cls: np.array(groups[cls]) for cls in CLASSES if groups.get(cls)}, **every}


def _mean_se(values: np.ndarray) -> tuple[float, float]:
    se = float(values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else 0.0
    return float(values.mean()), se
