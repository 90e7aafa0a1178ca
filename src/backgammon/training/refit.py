"""A contact network trained on the kept generations and on folders of rollout labels, with
held-out splits and early stopping (``python -m backgammon.training.refit``).

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

The folders of ``labels`` (``--labels``: chunks ``labels-NNNN.jsonl.gz`` of
:mod:`backgammon.training.truth`'s label factory, such as ``data/labels/people-end36``) train
too, or alone (``data`` None, ``--no-generations``): each label's position is read from its
Position ID and its target is its five rolled-out outputs. Every ``label_holdout``-th label, by
a stable hash of its position's ID (:func:`held_out`), is kept out for validation, and the
positions of the truth set (``exclude``, ``data/truth``) never train: it is the judge. Each
pass sees every training label ``label_weight`` times (clean labels weighted up against the
generations' noisy ones).

Early stopping: the held-out loss is the labels' cross-entropy where labels are given, else
the generations'. The weights written are those of the pass (or the start) with the lowest
held-out loss, and training stops after ``patience`` passes without a new lowest (0: it runs
every pass). Without a held-out set, the last pass's weights are written.

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
file ``race_from`` (by default the last generation's; without generations, ``start``'s),
ready to play (``BACKGAMMON_WEIGHTS=out``); the log goes to the file's meta data and to
standard output.

>>> even = np.full((1, 5), 0.5, dtype=np.float32)
>>> round(cross_entropy(even, even) / float(np.log(2)), 3)     # five outputs, one bit each
5.0
>>> [held_out(id, 10) for id in ("4HPwATDgc/ABMA", "sGfwATDgc/ABMA")]
[True, False]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..bot.contact_inputs import CONTACT_INPUTS_V2
from ..bot.encoding import CONTACT_INPUTS, is_crashed, is_race
from ..bot.kernel import boards_of, encoder
from ..bot.network import OUTPUTS, Array, Network, load_networks, save_networks
from ..errors import BackgammonError
from ..position import Position
from .generations import load_generation, numbered, widen
from .train import NETWORKS, settings_json
from .truth import read_labels, read_positions

#: Contact inputs of each encoding version.
ENCODINGS = {1: CONTACT_INPUTS, 2: CONTACT_INPUTS_V2}
_EPSILON = 1e-6

#: Positions as (mine, theirs, targets): the two sides' checker counts and the five outputs.
Part = tuple[NDArray[np.uint8], NDArray[np.uint8], Array]
_NO_BOARDS = np.zeros((0, 2, 26), dtype=np.uint8)
_NO_TARGETS = np.zeros((0, OUTPUTS), dtype=np.float32)


class RefitError(BackgammonError):
    """A refit that cannot start as asked."""


@dataclass(frozen=True)
class Settings:
    """Everything a refit depends on (the command line's options)."""

    data: Path | None = Path("data/generations")
    more_data: tuple[Path, ...] = ()
    labels: tuple[Path, ...] = ()
    out: Path = Path("data/refit/contact.npz")
    encoding: int = 2
    hidden: int = 128
    epochs: int = 12
    batch: int = 128
    lr: float = 0.002
    seed: int = 1
    holdout: int = 8
    label_holdout: int = 10
    label_weight: int = 1
    patience: int = 0
    exclude: Path | None = Path("data/truth")
    race_from: Path | None = None
    start: Path | None = None
    crashed: bool = False
    command: str = ""


def cross_entropy(targets: Array, outputs: Array) -> float:
    """The mean over rows of the summed binary cross-entropy of the five outputs."""
    p = np.clip(outputs.astype(np.float64), _EPSILON, 1 - _EPSILON)
    t = targets.astype(np.float64)
    return float(np.mean(np.sum(-(t * np.log(p) + (1 - t) * np.log(1 - p)), axis=1)))


def contact_data(folders: Sequence[Path], holdout: int, crashed: bool = False
                 ) -> tuple[Part, Part]:
    """The contact positions of the generations in ``folders``, for training and for
    validation (every ``holdout``-th generation of each folder; none with ``holdout`` 0);
    with ``crashed``, only the crashed ones."""
    files = []
    for folder in folders:
        found = numbered(folder, "gen") if folder.is_dir() else []
        if not found:
            raise RefitError(f"{folder} holds no generations (gen-NNN.npz).")
        files += [folder / f"gen-{g:03d}.npz" for g in found]
    parts: dict[bool, list[tuple[Any, Any]]] = {True: [], False: []}
    for path in files:
        boards, targets, meta = load_generation(path)
        parts[holdout > 0 and int(meta["generation"]) % holdout == 0].append((boards, targets))
    for held, name in ((False, "training"), (True, "validation")):
        if files and not parts[held] and (holdout > 0 or not held):
            raise RefitError(f"No generation of {', '.join(map(str, folders))} falls on the "
                             f"{name} side of --holdout {holdout}.")

    def side(held: bool) -> Part:
        boards = np.concatenate([b for b, _ in parts[held]] or [_NO_BOARDS])
        return _positions(boards, np.concatenate([t for _, t in parts[held]] or [_NO_TARGETS]),
                          crashed)

    return side(False), side(True)


def label_data(folders: Sequence[Path], holdout: int, crashed: bool = False,
               exclude: frozenset[str] = frozenset()) -> tuple[Part, Part]:
    """The contact positions of the label chunks in ``folders`` (those whose ID is in
    ``exclude`` left out), for training and for validation (those :func:`held_out` by
    ``holdout``); with ``crashed``, only the crashed ones."""
    rows = []
    for folder in folders:
        found = read_labels(folder) if folder.is_dir() else []
        if not found:
            raise RefitError(f"{folder} holds no labels (labels-NNNN.jsonl.gz).")
        rows += [row for row in found if row["id"] not in exclude]
    held = np.array([held_out(row["id"], holdout) for row in rows], dtype=bool)
    boards = boards_of([Position.from_id(row["id"]) for row in rows]) if rows else _NO_BOARDS
    # Luck adjustment can carry a mean a little outside [0, 1]; a target must not be.
    targets = np.clip(np.array([row["probabilities"] for row in rows], dtype=np.float32)
                      .reshape(-1, OUTPUTS), 0.0, 1.0)
    return (_positions(boards[~held], targets[~held], crashed),
            _positions(boards[held], targets[held], crashed))


def held_out(position_id: str, every: int) -> bool:
    """Whether a label is kept for validation: every ``every``-th by a hash of its position's
    ID (never with ``every`` 0), the same on every machine and run, and the same whichever
    folders and chunks it comes in."""
    digest = hashlib.sha256(position_id.encode("ascii")).digest()
    return every > 0 and int.from_bytes(digest[:8], "big") % every == 0


def _positions(boards: NDArray[Any], targets: Array, crashed: bool) -> Part:
    """The rows of ``boards`` ``(n, 2, 26)`` the contact network plays (the race network
    plays the others), or with ``crashed`` the crashed ones."""
    mine, theirs = boards[:, 0].astype(np.uint8), boards[:, 1].astype(np.uint8)
    rows = is_crashed(mine, theirs) if crashed else ~is_race(mine, theirs)
    return mine[rows], theirs[rows], targets[rows]


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
    if settings.data is None and not settings.labels:
        raise RefitError("Nothing to train on: no generations and no --labels.")
    race_from = _race_from(settings)
    inputs = ENCODINGS[settings.encoding]
    encode = encoder(inputs)
    folders = [] if settings.data is None else [settings.data, *settings.more_data]
    (mine, theirs, targets), (v_mine, v_theirs, v_targets) = contact_data(
        folders, settings.holdout, settings.crashed
    )
    (l_mine, l_theirs, l_targets), (h_mine, h_theirs, h_targets) = label_data(
        settings.labels, settings.label_holdout, settings.crashed, _excluded(settings)
    )
    x = np.concatenate([encode(mine, theirs), encode(l_mine, l_theirs)])
    y = np.concatenate([targets, l_targets])
    # Each label row is drawn label_weight times a pass: weighting up by repetition.
    rows = np.concatenate([np.arange(len(mine)),
                           np.tile(np.arange(len(mine), len(x)), settings.label_weight)])
    v_x, h_x = encode(v_mine, v_theirs), encode(h_mine, h_theirs)

    def held(network: Network) -> dict[str, float]:
        labels = validation(network, h_x, h_targets)
        return {**validation(network, v_x, v_targets),
                **{f"labels_{key}": value for key, value in labels.items()}}

    start_validation: dict[str, float] = {}
    if settings.start is None:
        network = Network.create(inputs, settings.hidden, seed=settings.seed)
    else:
        start = load_networks(settings.start, NETWORKS)[0]["contact"]
        network = widen(extend_inputs(start, inputs), settings.hidden, settings.seed)
        start_validation = held(network)
        print(json.dumps({"start": start_validation}), flush=True)
    network, history, best_epoch = fit_passes(network, x, y, rows, held, settings,
                                              start_validation)
    log = {"settings": {**settings_json(settings),
                        "more_data": [str(folder) for folder in settings.more_data],
                        "labels": [str(folder) for folder in settings.labels]},
           "command": settings.command,
           "race_from": str(race_from), "training_positions": len(mine),
           "validation_positions": len(v_x), "label_positions": len(l_mine),
           "label_validation_positions": len(h_x), "start_validation": start_validation,
           "best_epoch": best_epoch, "history": history}
    race = load_networks(race_from, NETWORKS)[0]["race"]
    networks = {"contact": network, "race": race}
    if settings.start is not None and settings.crashed:
        networks["contact"] = load_networks(settings.start, NETWORKS)[0]["contact"]
        networks["crashed"] = network
    settings.out.parent.mkdir(parents=True, exist_ok=True)
    save_networks(settings.out, networks, log)
    return log


def fit_passes(
    network: Network, x: Array, targets: Array, rows: NDArray[np.int64],
    held: Callable[[Network], dict[str, float]], settings: Settings,
    start_validation: dict[str, float],
) -> tuple[Network, list[dict[str, Any]], int]:
    """Passes of minibatch steps over ``rows`` of ``x`` (a row as often as it is listed), the
    learning rate falling linearly from ``lr`` to a tenth of it, ``held`` logged after each;
    returns the network of the lowest held-out loss (:func:`held_out_loss`; the last pass's
    where there is none), the log of each pass, and that network's pass (0: the start)."""
    rng = np.random.default_rng(settings.seed)
    history: list[dict[str, Any]] = []
    best, best_epoch = network.copy(), 0
    best_loss = held_out_loss(start_validation)
    started = time.monotonic()
    for epoch in range(1, settings.epochs + 1):
        lr = settings.lr * (1 - 0.9 * (epoch - 1) / max(settings.epochs - 1, 1))
        order = rng.permutation(rows)
        total = 0.0
        for first in range(0, len(order), settings.batch):
            batch = order[first : first + settings.batch]
            total += network.fit(x[batch], targets[batch], lr) * len(batch)
        entry = {"epoch": epoch, "train_mse": round(total / max(len(order), 1), 7),
                 **held(network), "minutes": round((time.monotonic() - started) / 60, 2)}
        history.append(entry)
        print(json.dumps(entry), flush=True)
        loss = held_out_loss(entry)
        if loss is None or best_loss is None or loss < best_loss:
            best, best_epoch, best_loss = network.copy(), epoch, loss
        elif settings.patience and epoch - best_epoch >= settings.patience:
            break
    return best, history, best_epoch


def held_out_loss(entry: dict[str, Any]) -> float | None:
    """The loss early stopping watches: the held-out labels' cross-entropy where there are
    held-out labels (the cleaner targets), else the held-out generations' (None: neither)."""
    loss = entry.get("labels_cross_entropy", entry.get("cross_entropy"))
    return None if loss is None else float(loss)


def _excluded(settings: Settings) -> frozenset[str]:
    """The IDs of the positions that must not train: the truth set's (only labels can hold
    them; the generations are the bot's own games)."""
    if not settings.labels or settings.exclude is None:
        return frozenset()
    return frozenset(candidate.id for candidate in read_positions(settings.exclude)[1])


def _race_from(settings: Settings) -> Path:
    """The file whose race network is written beside the new contact network."""
    if settings.race_from is not None:
        return settings.race_from
    if settings.data is not None:
        return _last_networks(settings.data)
    if settings.start is not None:
        return settings.start
    raise RefitError("Without generations, the race network comes from --race-from or --start.")


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
    parser.add_argument("--no-generations", action="store_true",
                        help="train on --labels alone, not on the generations of --data")
    parser.add_argument("--more-data", type=Path, action="append", default=[],
                        help="another folder of generations to train on too (repeatable)")
    parser.add_argument("--labels", type=Path, action="append", default=[],
                        help="a folder of label chunks (labels-NNNN.jsonl.gz) to train on too "
                             "(repeatable)")
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
    parser.add_argument("--label-holdout", type=int, default=defaults.label_holdout,
                        help="every N-th label, by a hash of its ID, is held out (0: none)")
    parser.add_argument("--label-weight", type=int, default=defaults.label_weight,
                        help="each pass sees each training label N times")
    parser.add_argument("--patience", type=int, default=defaults.patience,
                        help="stop after N passes without a lower held-out loss (0: never)")
    parser.add_argument("--exclude", type=Path, default=defaults.exclude,
                        help="the folder of positions no label may train on (the truth set)")
    parser.add_argument("--race-from", type=Path, default=None,
                        help="the file whose race network goes with the new contact network")
    parser.add_argument("--start", type=Path, default=None,
                        help="start from this file's contact network (else random weights)")
    parser.add_argument("--crashed", action="store_true",
                        help="train and validate on gnubg's crashed positions only")
    args = parser.parse_args(argv)
    refit(Settings(
        data=None if args.no_generations else args.data, more_data=tuple(args.more_data),
        labels=tuple(args.labels), out=args.out, encoding=args.encoding, hidden=args.hidden,
        epochs=args.epochs, batch=args.batch, lr=args.lr, seed=args.seed,
        holdout=args.holdout, label_holdout=args.label_holdout,
        label_weight=args.label_weight, patience=args.patience, exclude=args.exclude,
        race_from=args.race_from, start=args.start, crashed=args.crashed,
        command=shlex.join(["python", "-m", "backgammon.training.refit", *(argv or sys.argv[1:])]),
    ))
    return 0


if __name__ == "__main__":
    sys.exit(main())
