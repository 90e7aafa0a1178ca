"""Refits on folders of rollout labels (``--labels``): the labels read from their Position IDs,
the held-out split by a hash of the ID (the same however the labels are chunked), the truth
set's positions kept out, and a short fit with early stopping that writes a loadable file."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from support import random_turns

from backgammon.bot.contact_inputs import CONTACT_INPUTS_V2
from backgammon.bot.encoding import RACE_INPUTS
from backgammon.bot.network import Network, load_networks, save_networks
from backgammon.training import truth
from backgammon.training.refit import RefitError, Settings, held_out, label_data, refit


def labels(count: int, seed: int) -> list[dict[str, Any]]:
    """Labels as the factory writes them (the fields a refit reads), of distinct positions of
    random games, with random targets, one a little below zero as luck adjustment leaves."""
    rng = np.random.default_rng(seed)
    ids = list(dict.fromkeys(position.id() for position, _ in random_turns(seed, 6)))[:count]
    rows = [{"id": id, "class": "contact",
             "probabilities": [round(float(v), 6) for v in rng.random(5)]} for id in ids]
    rows[0]["probabilities"][4] = -1e-05
    return rows


def write_chunks(folder: Path, rows: list[dict[str, Any]], size: int) -> Path:
    folder.mkdir()
    for number, first in enumerate(range(0, len(rows), size), 1):
        with gzip.open(folder / f"labels-{number:04d}.jsonl.gz", "wt") as stream:
            stream.writelines(json.dumps(row) + "\n" for row in rows[first : first + size])
    return folder


def test_labels_split_by_id_whatever_the_chunks_and_the_truth_set_stays_out(
        tmp_path: Path) -> None:
    rows = labels(200, seed=3)
    one = write_chunks(tmp_path / "one", rows, size=200)
    three = write_chunks(tmp_path / "three", rows[::-1], size=70)
    (train, held), (train_3, held_3) = label_data([one], 10), label_data([three], 10)
    assert 0 < len(held[0]) < len(train[0])
    # The same positions on each side, whatever the chunks and their order.
    for ours, theirs in ((train, train_3), (held, held_3)):
        key = np.lexsort(np.hstack([ours[0], ours[1]]).T)
        key_3 = np.lexsort(np.hstack([theirs[0], theirs[1]]).T)
        np.testing.assert_array_equal(ours[0][key], theirs[0][key_3])
    assert train[2].min() >= 0.0  # the negative mean is clipped
    assert label_data([one], 0)[1][0].shape[0] == 0
    # A position of the truth set never trains nor validates.
    contact = next(row["id"] for row in rows if not held_out(row["id"], 10))
    truth.choose(tmp_path / "truth", [("test", [truth.Candidate(contact, "contact", "t")], 1)],
                 None, seed=1, header={})
    excluded = frozenset(c.id for c in truth.read_positions(tmp_path / "truth")[1])
    less, same = label_data([one], 10, exclude=excluded)
    assert (len(less[0]), len(same[0])) == (len(train[0]) - 1, len(held[0]))


def test_a_short_fit_on_labels_alone_writes_a_loadable_file(tmp_path: Path) -> None:
    folder = write_chunks(tmp_path / "labels", labels(200, seed=4), size=100)
    start = tmp_path / "start.npz"
    race = Network.create(RACE_INPUTS, 4, seed=2)
    save_networks(start, {"contact": Network.create(CONTACT_INPUTS_V2, 6, seed=1), "race": race})
    out = tmp_path / "refit.npz"
    log = refit(Settings(data=None, labels=(folder,), exclude=None, out=out, hidden=8,
                         epochs=4, patience=2, label_weight=2, start=start))
    assert log["label_positions"] > 0 and log["label_validation_positions"] > 0
    assert log["training_positions"] == 0 and "labels_cross_entropy" in log["start_validation"]
    losses = [entry["labels_cross_entropy"] for entry in log["history"]]
    best = min([log["start_validation"]["labels_cross_entropy"], *losses])
    assert log["best_epoch"] == (losses.index(best) + 1 if best in losses else 0)
    networks, meta = load_networks(out, ("contact", "race"))
    assert networks["contact"].hidden == 8 and meta["best_epoch"] == log["best_epoch"]
    np.testing.assert_array_equal(networks["race"].w1, race.w1)  # the start's race network
    with pytest.raises(RefitError, match="no labels"):
        refit(Settings(data=None, labels=(tmp_path / "none",), exclude=None, out=out,
                       start=start))
