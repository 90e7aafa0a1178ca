"""A contact network trained from scratch on the kept generations, with a validation split:
the controlled comparison of contact encodings (``python -m backgammon.training.refit``).

The positions and rollout targets of ``data/generations/gen-*.npz``
(:mod:`backgammon.training.generations`), and of the folders of ``more_data`` (``--more-data``,
generations labelled by other networks), are split by generation: every ``holdout``-th generation
is kept for validation, so that no game gives positions to both sides of the split. A new
contact network of ``hidden`` units, on contact encoding ``encoding`` (1:
:func:`~backgammon.bot.encoding.encode_contact`, 2:
:func:`~backgammon.bot.contact_inputs.encode_contact_v2`), takes ``epochs`` passes of
minibatch steps of the cross-entropy (:meth:`Network.fit`), the learning rate falling
linearly from ``lr`` to a tenth of it. After each pass the validation loss is logged: the
mean over positions of the summed cross-entropy of the five outputs against the rollout
targets, and the mean squared error of the outputs. Two runs that differ only in the
encoding see the same positions in the same order: their validation losses compare the
encodings with little noise.

With ``crashed`` (and ``start``), only the positions GNU Backgammon calls crashed
(:func:`~backgammon.bot.encoding.is_crashed`) train and validate: a separate crashed network,
started from the contact network it takes the crashed positions from, and written to
``out`` as ``crashed`` beside that contact network, unchanged.

With ``start``, the contact network of that file is the starting point instead of random
weights: with zero weights on the inputs it lacks (:func:`extend_inputs`: encoding 2 begins
with encoding 1's inputs, so the function is unchanged) and widened to ``hidden`` units
(:func:`~backgammon.training.generations.widen`). Its validation loss before any training is
logged as ``start_validation``, the figure a trained network must beat.

The networks written to ``out`` are the new contact network with the race network of the
file ``race_from`` (by default the last generation's), ready to play
(``BACKGAMMON_WEIGHTS=out``); the log goes to the file's meta data and to standard output.

>>> even = np.full((1, 5), 0.5, dtype=np.float32)
>>> round(cross_entropy(even, even) / float(np.log(2)), 3)     # five outputs, one bit each
5.0
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..bot.contact_inputs import CONTACT_INPUTS_V2
from ..bot.encoding import CONTACT_INPUTS, is_crashed, is_race
from ..bot.kernel import encoder
from ..bot.network import OUTPUTS, Array, Network, load_networks, save_networks
from ..errors import BackgammonError
from .generations import load_generation, numbered, widen
from .train import NETWORKS, settings_json

#: Contact inputs of each encoding version.
ENCODINGS = {1: CONTACT_INPUTS, 2: CONTACT_INPUTS_V2}
_EPSILON = 1e-6


class RefitError(BackgammonError):
    """A refit that cannot start as asked."""


@dataclass(frozen=True)
class Settings:
    """Everything a refit depends on (the command line's options)."""

    data: Path = Path("data/generations")
    more_data: tuple[Path, ...] = ()
    out: Path = Path("data/refit/contact.npz")
    encoding: int = 2
    hidden: int = 128
    epochs: int = 12
    batch: int = 128
    lr: float = 0.002
    seed: int = 1
    holdout: int = 8
    race_from: Path | None = None
    start: Path | None = None
    crashed: bool = False
    command: str = ""


def cross_entropy(targets: Array, outputs: Array) -> float:
    """The mean over rows of the summed binary cross-entropy of the five outputs."""
    p = np.clip(outputs.astype(np.float64), _EPSILON, 1 - _EPSILON)
    t = targets.astype(np.float64)
    return float(np.mean(np.sum(-(t * np.log(p) + (1 - t) * np.log(1 - p)), axis=1)))


def contact_data(data: Path, holdout: int, crashed: bool = False,
                 more_data: tuple[Path, ...] = ()) -> tuple[
    tuple[NDArray[np.uint8], NDArray[np.uint8], Array],
    tuple[NDArray[np.uint8], NDArray[np.uint8], Array],
]:
    """The contact positions of the generations in ``data`` and ``more_data`` as (mine,
    theirs, targets), for training and for validation (every ``holdout``-th generation of each
    folder; none with ``holdout`` 0); with ``crashed``, only the crashed ones."""
    files = []
    for folder in (data, *more_data):
        found = numbered(folder, "gen") if folder.is_dir() else []
        if not found:
            raise RefitError(f"{folder} holds no generations (gen-NNN.npz).")
        files += [folder / f"gen-{g:03d}.npz" for g in found]
    parts: dict[bool, list[tuple[Any, Any]]] = {True: [], False: []}
    for path in files:
        boards, targets, meta = load_generation(path)
        parts[holdout > 0 and int(meta["generation"]) % holdout == 0].append((boards, targets))
    split = []
    for held in (False, True):
        if held and holdout == 0:
            empty = np.zeros((0, 26), dtype=np.uint8)
            split.append((empty, empty, np.zeros((0, OUTPUTS), dtype=np.float32)))
            continue
        if not parts[held]:
            side = "validation" if held else "training"
            raise RefitError(f"No generation of {data} falls on the {side} side of --holdout "
                             f"{holdout}.")
        boards = np.concatenate([b for b, _ in parts[held]])
        targets = np.concatenate([t for _, t in parts[held]])
        mine, theirs = boards[:, 0].astype(np.uint8), boards[:, 1].astype(np.uint8)
        contact = is_crashed(mine, theirs) if crashed else ~is_race(mine, theirs)
        split.append((mine[contact], theirs[contact], targets[contact]))
    return split[0], split[1]


def validation(network: Network, inputs: Array, targets: Array) -> dict[str, float]:
    """Cross-entropy and mean squared error of ``network`` on a validation set (nothing for
    an empty one)."""
    if not len(inputs):
        return {}
    outputs = np.concatenate([network.forward(inputs[i : i + 8192])
                              for i in range(0, len(inputs), 8192)])
    return {"cross_entropy": round(cross_entropy(targets, outputs), 6),
            "mse": round(float(np.mean((outputs - targets) ** 2)), 7)}


def refit(settings: Settings) -> dict[str, Any]:
    """Train the contact (or crashed) network, write the networks to ``out``; returns the
    log."""
    if settings.encoding not in ENCODINGS:
        raise RefitError(f"Contact encodings are {sorted(ENCODINGS)}; got {settings.encoding}.")
    if settings.crashed and settings.start is None:
        raise RefitError("A crashed network starts from the contact network of --start.")
    inputs = ENCODINGS[settings.encoding]
    encode = encoder(inputs)
    (mine, theirs, targets), (v_mine, v_theirs, v_targets) = contact_data(
        settings.data, settings.holdout, settings.crashed, settings.more_data
    )
    x, v_x = encode(mine, theirs), encode(v_mine, v_theirs)
    start_validation: dict[str, float] = {}
    if settings.start is None:
        network = Network.create(inputs, settings.hidden, seed=settings.seed)
    else:
        start = load_networks(settings.start, NETWORKS)[0]["contact"]
        network = widen(extend_inputs(start, inputs), settings.hidden, settings.seed)
        start_validation = validation(network, v_x, v_targets)
        print(json.dumps({"start": start_validation}), flush=True)
    rng = np.random.default_rng(settings.seed)
    history: list[dict[str, Any]] = []
    started = time.monotonic()
    for epoch in range(settings.epochs):
        lr = settings.lr * (1 - 0.9 * epoch / max(settings.epochs - 1, 1))
        order = rng.permutation(len(x))
        total = 0.0
        for first in range(0, len(order), settings.batch):
            rows = order[first : first + settings.batch]
            total += network.fit(x[rows], targets[rows], lr) * len(rows)
        entry = {"epoch": epoch + 1, "train_mse": round(total / len(order), 7),
                 **validation(network, v_x, v_targets),
                 "minutes": round((time.monotonic() - started) / 60, 2)}
        history.append(entry)
        print(json.dumps(entry), flush=True)
    race_from = settings.race_from or _last_networks(settings.data)
    race = load_networks(race_from, NETWORKS)[0]["race"]
    log = {"settings": {**settings_json(settings),
                        "more_data": [str(folder) for folder in settings.more_data]},
           "command": settings.command,
           "race_from": str(race_from), "training_positions": len(x),
           "validation_positions": len(v_x), "start_validation": start_validation,
           "history": history}
    networks = {"contact": network, "race": race}
    if settings.start is not None and settings.crashed:
        networks["contact"] = load_networks(settings.start, NETWORKS)[0]["contact"]
        networks["crashed"] = network
    settings.out.parent.mkdir(parents=True, exist_ok=True)
    save_networks(settings.out, networks, log)
    return log


def extend_inputs(network: Network, inputs: int) -> Network:
    """``network`` taking ``inputs`` inputs: the new ones, after its own, with zero weights
    (so its outputs are unchanged where the first inputs are the same).

    >>> net = Network.create(inputs=3, hidden=2, seed=1)
    >>> x = np.ones((1, 5), dtype=np.float32)
    >>> bool(np.allclose(extend_inputs(net, 5).forward(x), net.forward(x[:, :3])))
    True
    """
    extra = inputs - network.inputs
    if extra < 0:
        raise RefitError(f"A network of {network.inputs} inputs cannot take fewer ({inputs}).")
    w1 = np.concatenate([network.w1, np.zeros((extra, network.hidden), np.float32)])
    return Network(w1, network.b1.copy(), network.w2.copy(), network.b2.copy())


def _last_networks(data: Path) -> Path:
    nets = numbered(data, "nets")
    if not nets:
        raise RefitError(f"{data} holds no networks (nets-NNN.npz) to take the race network from.")
    return data / f"nets-{nets[-1]:03d}.npz"


def main(argv: list[str] | None = None) -> int:
    """The command line: ``python -m backgammon.training.refit --encoding 2 --out FILE ...``."""
    defaults = Settings()
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=defaults.data)
    parser.add_argument("--more-data", type=Path, action="append", default=[],
                        help="another folder of generations to train on too (repeatable)")
    parser.add_argument("--out", type=Path, default=defaults.out)
    parser.add_argument("--encoding", type=int, default=defaults.encoding,
                        help="contact encoding: 1 (222 inputs) or 2 (the richer one)")
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--epochs", type=int, default=defaults.epochs)
    parser.add_argument("--batch", type=int, default=defaults.batch)
    parser.add_argument("--lr", type=float, default=defaults.lr)
    parser.add_argument("--seed", type=int, default=defaults.seed)
    parser.add_argument("--holdout", type=int, default=defaults.holdout,
                        help="every N-th generation is the validation set (0: none)")
    parser.add_argument("--race-from", type=Path, default=None,
                        help="the file whose race network goes with the new contact network")
    parser.add_argument("--start", type=Path, default=None,
                        help="start from this file's contact network (else random weights)")
    parser.add_argument("--crashed", action="store_true",
                        help="train and validate on gnubg's crashed positions only")
    args = parser.parse_args(argv)
    refit(Settings(
        data=args.data, more_data=tuple(args.more_data), out=args.out,
        encoding=args.encoding, hidden=args.hidden,
        epochs=args.epochs, batch=args.batch, lr=args.lr, seed=args.seed,
        holdout=args.holdout, race_from=args.race_from, start=args.start, crashed=args.crashed,
        command=shlex.join(["python", "-m", "backgammon.training.refit", *(argv or sys.argv[1:])]),
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
