"""The richer contact encoding (version 2): each feature on hand-built positions with values
counted by hand, the compiled kernel's encoding bit for bit, the choice of encoding by a
network's width, and the refit that trains on it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_kernel import bot_positions, random_positions

from backgammon import Position
from backgammon.bot.contact_inputs import (
    CONTACT_INPUTS_V2,
    EXTRA_FEATURES,
    EncodingError,
    contact_encoder,
    encode_contact_v2,
)
from backgammon.bot.encoding import CONTACT_INPUTS, RACE_INPUTS, boards, encode_contact
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.kernel import Kernel, boards_of
from backgammon.bot.kernel import evaluate as kernel_evaluate
from backgammon.bot.network import Network, load_networks, save_networks
from backgammon.training.generations import save_generation
from backgammon.training.refit import RefitError, Settings, refit

_EXTRA = len(EXTRA_FEATURES)


def extras(position: Position) -> tuple[dict[str, float], dict[str, float]]:
    """The extra features of the player on roll and of the opponent, by short name."""
    row = encode_contact_v2(*boards([position]))[0].astype(np.float64)
    names = ("off1", "off2", "off3", "break", "highest", "forward", "p2", "piploss",
             "contain", "contain2", "acontain", "acontain2", "mobility", "moment", "enter2")
    mine = row[CONTACT_INPUTS : CONTACT_INPUTS + _EXTRA]
    theirs = row[CONTACT_INPUTS + _EXTRA :]
    return dict(zip(names, mine, strict=True)), dict(zip(names, theirs, strict=True))


def test_the_encoding_begins_with_version_1() -> None:
    positions = random_positions(300, seed=3)
    mine, theirs = boards(positions)
    rows = encode_contact_v2(mine, theirs)
    assert rows.shape == (300, CONTACT_INPUTS_V2) and rows.dtype == np.float32
    np.testing.assert_array_equal(rows[:, :CONTACT_INPUTS], encode_contact(mine, theirs))


def test_checkers_off_contact_anchors_mobility_and_moment() -> None:
    # Five checkers a side: one of mine off, two of theirs. Their rearmost checker is on their
    # 20-point, my 5-point.
    position = Position.from_points({22: 2, 10: 1, 3: 1}, {20: 1, 6: 2}, checkers=5)
    mine, theirs = extras(position)
    assert mine["off1"] == pytest.approx(0.2) and mine["off2"] == mine["off3"] == 0
    assert theirs["off1"] == pytest.approx(0.4)
    # Past my 5-point: 17 pips for each checker on 22, 5 for the one on 10.
    assert mine["break"] == pytest.approx(39 / 152)
    assert mine["highest"] == pytest.approx(22 / 24)
    # My 22-point anchor is their 3-point.
    assert mine["forward"] == pytest.approx(3 / 6)
    # Their only home point made (their 6) blocks my checkers on 22 three pips ahead: 1-2, 2-1
    # and 3-3 do not get past it (33 escapes); nothing stops the one on 10 (36).
    assert mine["mobility"] == pytest.approx((2 * 33 * 16 + 36 * 4) / 3600)
    # Mean point 57/4 = 14.25; the two checkers above it are 7.75 away.
    assert mine["moment"] == pytest.approx(7.75**2 / 400)
    assert mine["enter2"] == pytest.approx(1 / 36)
    # My one point (22) stands behind every checker of theirs: no containment.
    assert mine["contain"] == mine["acontain"] == 0
    # Their checker on 20 hits my blot on 10 (their 15) with any 5, 4-1 and 3-2: 15 rolls,
    # 15 pips lost each; nothing reaches two blots.
    assert mine["p2"] == 0
    assert mine["piploss"] == pytest.approx(15 * 15 / 432)


def test_double_shots_and_pips_lost() -> None:
    # Their checker on their 24 has my blots on my 4 (3 pips away) and my 6 (5 away) in range.
    position = Position.from_points({13: 3, 6: 1, 4: 1}, {24: 1, 1: 4}, checkers=5)
    mine, _ = extras(position)
    # 5-3 and 3-2 reach both blots.
    assert mine["p2"] == pytest.approx(4 / 36)
    # The blot on 4 (21 pips lost) is hit by any 3, 2-1 and 1-1: 14 rolls; the one on 6 (19
    # pips) by the other 5s (9) and 4-1 (2).
    assert mine["piploss"] == pytest.approx((14 * 21 + 11 * 19) / 432)
    row = encode_contact_v2(*boards([position]))[0]
    assert row[202 + 6] == pytest.approx(25 / 36)  # version 1's shots: 14 + 11 rolls


def test_containment_of_a_checker_on_the_bar() -> None:
    # My closed board against their checker on the bar.
    position = Position.from_points({p: 2 for p in range(1, 7)}, {"bar": 1, 1: 11}, checkers=12)
    mine, theirs = extras(position)
    # From my 1-point (their 24) only a 6 gets past my 2..6 points: 11 escapes, the fewest.
    assert mine["contain"] == pytest.approx(25 / 36)
    assert mine["contain2"] == pytest.approx((25 / 36) ** 2)
    # From the bar nothing enters: full containment of their rearmost checker.
    assert mine["acontain"] == mine["acontain2"] == 1
    assert theirs["enter2"] == 1 and theirs["mobility"] == 0
    assert mine["forward"] == 2  # no anchor of mine on their side


def test_the_kernel_encodes_version_2_bit_for_bit() -> None:
    positions = random_positions(3000, seed=21) + bot_positions(1000, seed=21)
    mine, theirs = boards(positions)
    kernel = kernel_evaluate.encode_batch(boards_of(positions), False, CONTACT_INPUTS_V2)
    np.testing.assert_array_equal(kernel, encode_contact_v2(mine, theirs))


def test_the_kernel_evaluates_a_version_2_network_as_numpy_does() -> None:
    contact = Network.create(CONTACT_INPUTS_V2, 16, seed=4)
    race = Network.create(RACE_INPUTS, 8, seed=5)
    positions = random_positions(2000, seed=22)
    numpy_values = NetworkEvaluator(contact, race).reference_boards(*boards(positions))
    kernel_values = Kernel(contact, race).evaluate(boards_of(positions))
    np.testing.assert_allclose(kernel_values, numpy_values, atol=1e-5, rtol=0)


def test_a_network_reads_the_encoding_of_its_width() -> None:
    assert contact_encoder(CONTACT_INPUTS) is encode_contact
    assert contact_encoder(CONTACT_INPUTS_V2) is encode_contact_v2
    with pytest.raises(EncodingError, match="takes 100"):
        NetworkEvaluator(Network.create(100, 4, seed=1), Network.create(RACE_INPUTS, 4, seed=1))


def test_refit_trains_from_a_start_and_logs_validation(tmp_path: Path) -> None:
    rng = np.random.default_rng(1)
    positions = bot_positions(400, seed=23)
    board = boards_of(positions)
    for generation in (1, 2):
        half = board[(generation - 1) * 200 : generation * 200]
        targets = rng.random((len(half), 5)).astype(np.float32)
        save_generation(tmp_path / f"gen-{generation:03d}.npz", half, targets,
                        {"generation": generation})
    start = tmp_path / "nets-000.npz"
    save_networks(start, {"contact": Network.create(CONTACT_INPUTS, 6, seed=1),
                          "race": Network.create(RACE_INPUTS, 4, seed=2)})
    out = tmp_path / "refit.npz"
    log = refit(Settings(data=tmp_path, out=out, encoding=2, hidden=8, epochs=2, holdout=2,
                         start=start))
    assert len(log["history"]) == 2 and log["validation_positions"] > 0
    networks, meta = load_networks(out, ("contact", "race"))
    assert networks["contact"].inputs == CONTACT_INPUTS_V2 and networks["contact"].hidden == 8
    assert json.dumps(meta["history"]) == json.dumps(log["history"])
    assert "cross_entropy" in log["history"][-1]
    # --holdout 0: every generation trains, nothing is validated.
    everything = refit(Settings(data=tmp_path, out=out, encoding=1, hidden=6, epochs=1,
                                holdout=0, start=start))
    assert everything["validation_positions"] == 0
    assert everything["training_positions"] > log["training_positions"]
    assert "cross_entropy" not in everything["history"][0]
    # --more-data: another folder's generations train (and validate) too.
    more = tmp_path / "more"
    more.mkdir()
    save_generation(more / "gen-001.npz", board[:200], rng.random((200, 5)).astype(np.float32),
                    {"generation": 1})
    both = refit(Settings(data=tmp_path, more_data=(more,), out=out, encoding=1, hidden=6,
                          epochs=1, holdout=0, start=start))
    assert both["training_positions"] > everything["training_positions"]
    assert both["settings"]["more_data"] == [str(more)]
    with pytest.raises(RefitError, match="no generations"):
        refit(Settings(data=tmp_path, more_data=(tmp_path / "none",), out=out, holdout=0))
