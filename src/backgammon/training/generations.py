"""Training on rollouts of the bot's own positions, in generations (``backgammon train --stage
rollout``): the path of wildbg and GNU Backgammon, afforded on few cores by the compiled kernel.

A generation:

1. draws ``positions`` positions from the current networks' own 0-ply self-play games, with a
   random legal play instead of the best one with probability ``explore`` (:func:`draw`; the
   games run on the kernel, :meth:`Kernel.best_results`); positions the bearoff table answers
   exactly are left out, as they train neither network;
2. labels each by a truncated rollout with the current networks (:func:`label`, through
   :func:`backgammon.bot.rollout.rollouts`: ``trials`` trials, stratified first two rolls,
   ``truncate`` turns then the network's value, luck-adjusted unless ``luck`` is off);
3. trains the contact and race networks, from the previous generation's, on the positions of
   every generation kept so far (:func:`fit`: minibatch steps of the cross-entropy of the five
   outputs, :meth:`Network.fit`); with ``hidden`` above the networks' contact width, the
   contact network is widened first (:func:`widen`: the same function, room to learn more),
   below it a new one is trained from scratch on the kept data;
4. measures the new networks (with the bearoff table, at 0-ply) head to head against the
   previous generation's and against pubeval, same dice in both seatings, and logs it.

A crashed network in the start file (``crashed/``) is kept as it is, not trained: it plays
the crashed positions in the games, the rollouts and the measures, and every ``nets-NNN.npz``
holds it.

Everything lives in ``out`` and is meant to be committed, so that a fresh clone resumes where
the last machine stopped: ``gen-NNN.npz`` (a generation's boards and targets, with the settings
and the command that made it), ``nets-NNN.npz`` (the networks trained on generations 1..NNN;
``nets-000.npz`` is the start), ``progress.jsonl`` (one line a generation). While a generation
is labelled its labels so far are saved every ``save_minutes`` to ``gen-NNN.partial.npz``;
``resume`` goes on from the last file of each kind, so a killed run loses at most the labels
since the last save. Generation ``g`` draws its positions and dice from seeds made of the seed
and ``g``; position ``i``'s rollout seed depends on its index alone, so labels do not depend on
how the run was cut into pieces or processes.

>>> network = Network.create(inputs=3, hidden=2, seed=1)
>>> wide = widen(network, 4, seed=1)
>>> x = np.ones((1, 3), dtype=np.float32)
>>> bool(np.allclose(wide.forward(x), network.forward(x)))   # the same function, more units
True
"""

from __future__ import annotations

import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm  # type: ignore[import-untyped]

from ..bot.bearoff import BearoffEvaluator, is_bearoff, shipped_table
from ..bot.encoding import is_race
from ..bot.evaluator import NetworkEvaluator
from ..bot.kernel import Boards, Kernel, board_of, legal_results_batch, position_of
from ..bot.network import OUTPUTS, Array, Network, save_networks
from ..bot.pubeval import PubEval
from ..bot.rollout import rollouts
from ..errors import BackgammonError
from ..position import Position
from .duel import DuelResult, GreedyPlayer, duel
from .supervised import fit_rows
from .train import EVALUATION_SEED, settings_json


class GenerationsError(BackgammonError):
    """A generations run that cannot start as asked."""


@dataclass(frozen=True)
class Settings:
    """Everything a generations run depends on (the command line's options)."""

    out: Path = Path("data/generations")
    start: Path = Path("src/backgammon/bot/weights/td.npz")
    generations: int = 1
    positions: int = 20_000
    trials: int = 36
    truncate: int = 9
    luck: bool = True
    hidden: int = 0
    explore: float = 0.1
    workers: int = 1
    seed: int = 1
    epochs: int = 4
    batch: int = 128
    lr: float = 0.001
    eval_games: int = 400
    save_minutes: float = 3.0
    resume: bool = False
    progress: bool = True
    command: str = ""


#: Games played at once while drawing positions (one kernel call a ply for all of them).
PARALLEL = 64
#: Positions labelled in one call of :func:`rollouts` per worker (the pool lives for a call).
PIECE = 16
_SEED_STEP = 0x9E3779B97F4A7C15
_MASK = 2**63 - 1


def generation_seed(seed: int, generation: int) -> int:
    """The seed of generation ``generation``'s positions and dice."""
    return (seed * 1_000_003 + generation) & _MASK


def draw(
    kernel: Kernel, count: int, seed: int, explore: float, parallel: int = PARALLEL
) -> Boards:
    """``count`` boards ``(count, 2, 26)`` from 0-ply self-play games of ``kernel``: each
    position reached (game not over, the player on roll before rolling) that the bearoff table
    does not answer, with a random legal play instead of the best one with probability
    ``explore``. The same arguments give the same boards."""
    rng = np.random.default_rng(seed)
    start = board_of(Position.initial())
    checkers = int(start[0].sum())
    games = np.repeat(start[None], parallel, axis=0)
    opening = np.ones(parallel, dtype=bool)
    found: list[Boards] = []
    total = 0
    while total < count:
        dice = rng.integers(1, 7, (parallel, 2))
        # A game's first roll is no double (each player throws one die).
        while (redo := opening & (dice[:, 0] == dice[:, 1])).any():
            dice[redo] = rng.integers(1, 7, (int(redo.sum()), 2))
        after = kernel.best_results(games, dice)
        wild = np.flatnonzero(rng.random(parallel) < explore)
        if wild.size:
            results, offsets = legal_results_batch(games[wild], dice[wild])
            for row, slot in enumerate(wild):
                choices = int(offsets[row + 1] - offsets[row])
                if choices > 1:
                    after[slot] = results[offsets[row] + rng.integers(choices)]
        over = after[:, 1, 0] == checkers
        mine, theirs = after[:, 0].astype(np.uint8), after[:, 1].astype(np.uint8)
        keep = ~over & ~is_bearoff(mine, theirs)
        found.append(after[keep])
        total += int(keep.sum())
        games = after
        games[over] = start
        opening = over
    result: Boards = np.concatenate(found)[:count]
    return result


def label(
    kernel: Kernel, boards: Boards, seed: int, first: int, settings: Settings
) -> Array:
    """The rollout targets ``(n, 5)`` of ``boards``, board ``i`` being position ``first + i``
    of a generation seeded by ``seed`` (its rollout seed depends on that index alone)."""
    positions = [position_of(board) for board in boards]
    results = rollouts(
        positions,
        trials=settings.trials,
        truncate=settings.truncate,
        seed=(seed + first * _SEED_STEP) & _MASK,
        workers=settings.workers,
        luck=settings.luck,
        kernel=kernel,
    )
    values = np.array([result.probabilities.as_tuple() for result in results], dtype=np.float32)
    # Luck-adjusted means can stray a little outside [0, 1]; a target is a probability.
    targets: Array = np.clip(values.reshape(-1, OUTPUTS), 0.0, 1.0)
    return targets


def widen(network: Network, hidden: int, seed: int) -> Network:
    """``network`` with ``hidden`` hidden units: the old units as they are, the new ones with
    small random input weights and no weight to the outputs, so the function is unchanged
    and training can start from what the old units know."""
    extra = hidden - network.hidden
    if extra < 0:
        raise GenerationsError(
            f"A network of {network.hidden} hidden units cannot be narrowed to {hidden}."
        )
    rng = np.random.default_rng(seed)
    w1 = rng.normal(0.0, 0.1, (network.inputs, extra)).astype(np.float32)
    return Network(
        np.concatenate([network.w1, w1], axis=1),
        np.concatenate([network.b1, np.zeros(extra, np.float32)]),
        np.concatenate([network.w2, np.zeros((extra, OUTPUTS), np.float32)]),
        network.b2.copy(),
    )


def fit(
    evaluator: NetworkEvaluator, boards: Boards, targets: Array, settings: Settings,
    rng: np.random.Generator,
) -> dict[str, float]:
    """``epochs`` passes of minibatch steps of both networks towards ``targets``; returns each
    network's mean squared error over the last pass (before each step)."""
    mine, theirs = boards[:, 0].astype(np.uint8), boards[:, 1].astype(np.uint8)
    race = is_race(mine, theirs)
    return fit_rows(
        evaluator, mine, theirs, targets, (~race, race),
        settings.epochs, settings.batch, settings.lr, rng,
    )


def save_generation(path: Path, boards: Boards, targets: Array, meta: dict[str, Any]) -> None:
    """Write a generation's boards, targets and ``meta`` (settings, command) to a compressed
    ``.npz``, beside the destination first and then renamed (never half a file)."""
    partial = path.with_name(path.name + ".writing")
    with partial.open("wb") as file:
        np.savez_compressed(file, boards=boards, targets=targets, meta=np.array(json.dumps(meta)))
    partial.replace(path)


def load_generation(path: Path) -> tuple[Boards, Array, dict[str, Any]]:
    """The boards, targets and meta data of a file of :func:`save_generation`."""
    with np.load(path, allow_pickle=False) as data:
        meta: dict[str, Any] = json.loads(str(data["meta"]))
        return data["boards"], data["targets"], meta


def numbered(out: Path, prefix: str) -> list[int]:
    """The numbers of the files ``prefix-NNN.npz`` in ``out``, in numeric order (a partial
    generation, ``gen-NNN.partial.npz``, is not one).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     for name in ("gen-002.npz", "gen-010.npz", "gen-1000.npz", "gen-011.partial.npz"):
    ...         _ = (Path(folder) / name).write_bytes(b"")
    ...     numbered(Path(folder), "gen")
    [2, 10, 1000]
    """
    pattern = re.compile(rf"{prefix}-(\d{{3,}})\.npz")
    return sorted(int(m.group(1)) for p in out.iterdir() if (m := pattern.fullmatch(p.name)))


def _resized(evaluator: NetworkEvaluator, hidden: int, seed: int) -> NetworkEvaluator:
    """The networks with a contact network of ``hidden`` units (0: as it is): widened
    (:func:`widen`) when that is more, new (trained from scratch on the data) when fewer."""
    contact = evaluator.contact
    if hidden and hidden > contact.hidden:
        contact = widen(contact, hidden, seed)
    elif hidden and hidden < contact.hidden:
        contact = Network.create(contact.inputs, hidden, seed=seed)
    return NetworkEvaluator(contact, evaluator.race, evaluator.crashed)


def _kernel(evaluator: NetworkEvaluator) -> Kernel:
    return Kernel(evaluator.contact, evaluator.race, shipped_table(), evaluator.crashed)


def _measure(new: NetworkEvaluator, old: NetworkEvaluator, games: int) -> dict[str, float]:
    player = GreedyPlayer(BearoffEvaluator(new))
    results: dict[str, DuelResult] = {
        "previous": duel(player, GreedyPlayer(BearoffEvaluator(old)), games, EVALUATION_SEED),
        "pubeval": duel(player, PubEval(), games, EVALUATION_SEED),
    }
    entry: dict[str, float] = {}
    for name, result in results.items():
        entry[f"{name}_ppg"] = round(result.points_per_game, 4)
        entry[f"{name}_se"] = round(result.standard_error, 4)
    return entry


def _labelled(
    kernel: Kernel, generation: int, settings: Settings, bar: Any
) -> tuple[Boards, Array, float]:
    """Generation ``generation``'s boards and targets, from its partial file where a run
    stopped before, saved there every ``save_minutes``; and the seconds spent labelling."""
    out = settings.out
    partial = out / f"gen-{generation:03d}.partial.npz"
    seed = generation_seed(settings.seed, generation)
    if partial.exists():
        boards, stored, meta = load_generation(partial)
        done, seconds = int(meta["labelled"]), float(meta["seconds"])
        targets = np.zeros((len(boards), OUTPUTS), dtype=np.float32)
        targets[:done] = stored[:done]
    else:
        boards = draw(kernel, settings.positions, seed, settings.explore)
        targets = np.zeros((len(boards), OUTPUTS), dtype=np.float32)
        done, seconds = 0, 0.0
    meta = {"settings": settings_json(settings), "command": settings.command,
            "generation": generation, "labelled_by": f"nets-{generation - 1:03d}.npz"}
    started = saved = time.monotonic()
    piece = PIECE * max(settings.workers, 1)
    while done < len(boards):
        stop = min(done + piece, len(boards))
        targets[done:stop] = label(kernel, boards[done:stop], seed, done, settings)
        bar.update(stop - done)
        done = stop
        if done < len(boards) and time.monotonic() - saved >= 60 * settings.save_minutes:
            elapsed = seconds + time.monotonic() - started
            save_generation(partial, boards, targets, {**meta, "labelled": done,
                                                       "seconds": elapsed})
            saved = time.monotonic()
    return boards, targets, seconds + time.monotonic() - started


def train(settings: Settings) -> int:
    """Run (or, with ``resume``, go on with) a generations run; returns the exit status."""
    out = settings.out
    out.mkdir(parents=True, exist_ok=True)
    done = _last_generation(settings)
    # A resumed run may widen its contact network (or start a new one) from here on.
    evaluator = _resized(NetworkEvaluator.load(out / f"nets-{done:03d}.npz"), settings.hidden,
                         settings.seed)
    partial = out / f"gen-{done + 1:03d}.partial.npz"
    labelled = int(load_generation(partial)[2]["labelled"]) if partial.exists() else 0
    bar = tqdm(total=settings.positions * max(settings.generations - done, 0), unit="pos",
               initial=labelled,
               disable=not settings.progress, dynamic_ncols=True,
               mininterval=1.0 if sys.stderr.isatty() else 60.0)
    while done < settings.generations:
        generation = done + 1
        labels_per_second = _label_generation(settings, evaluator, generation, bar)
        previous = NetworkEvaluator(evaluator.contact.copy(), evaluator.race.copy(),
                                    evaluator.crashed)  # not trained: shared
        entry = _fit_generation(settings, evaluator, generation)
        if labels_per_second is not None:
            entry["labels_per_second"] = labels_per_second
        if settings.eval_games:
            entry.update(_measure(evaluator, previous, settings.eval_games))
        bar.write(f"generation {generation}: {json.dumps(entry)}")
        with (out / "progress.jsonl").open("a") as log:
            log.write(json.dumps(entry) + "\n")
        save_networks(out / f"nets-{generation:03d}.npz",
                      evaluator.networks(),
                      {**entry, "settings": settings_json(settings), "command": settings.command})
        done = generation
    bar.close()
    print(f"{done} generations; the networks are in {out / f'nets-{done:03d}.npz'}.")
    return 0


def _last_generation(settings: Settings) -> int:
    """The last generation of networks in ``settings.out``: with no run there yet, the start
    networks resized, saved as generation 0; a run there without ``resume`` is an error."""
    out = settings.out
    trained = numbered(out, "nets")
    if trained and not settings.resume:
        raise GenerationsError(
            f"{out} already holds a run (nets-{trained[-1]:03d}.npz): add --resume to go on "
            "with it, or choose another --out."
        )
    if trained:
        return trained[-1]
    start = _resized(NetworkEvaluator.load(settings.start), settings.hidden, settings.seed)
    save_networks(out / "nets-000.npz", start.networks(),
                  {"generation": 0, "settings": settings_json(settings)})
    return 0


def _label_generation(settings: Settings, evaluator: NetworkEvaluator, generation: int,
                      bar: tqdm) -> float | None:
    """Label ``generation``'s positions with ``evaluator`` and save them, unless a resumed
    run has them already; the labels a second, or None where none were made now."""
    out = settings.out
    data = out / f"gen-{generation:03d}.npz"
    if data.exists():
        bar.update(settings.positions)
        return None
    boards, targets, seconds = _labelled(_kernel(evaluator), generation, settings, bar)
    save_generation(data, boards, targets, {
        "settings": settings_json(settings), "command": settings.command,
        "generation": generation, "labelled_by": f"nets-{generation - 1:03d}.npz",
        "seconds": round(seconds, 1),
    })
    (out / f"gen-{generation:03d}.partial.npz").unlink(missing_ok=True)
    return round(len(boards) / seconds, 2) if seconds else None


def _fit_generation(settings: Settings, evaluator: NetworkEvaluator,
                    generation: int) -> dict[str, Any]:
    """Fit ``evaluator`` on the positions of every generation up to ``generation``; the
    generation's entry of the progress log, so far."""
    kept = [load_generation(settings.out / f"gen-{g:03d}.npz") for g in range(1, generation + 1)]
    boards = np.concatenate([k[0] for k in kept])
    targets = np.concatenate([k[1] for k in kept])
    rng = np.random.default_rng(generation_seed(settings.seed, generation))
    errors = fit(evaluator, boards, targets, settings, rng)
    return {
        "generation": generation,
        "positions": len(boards),
        "mse": {name: round(error, 6) for name, error in errors.items()},
    }
