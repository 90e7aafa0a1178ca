"""The truth set: positions drawn by class from people's matches and engine games, rolled out
chunk by chunk, resumed where a run stopped, and networks judged against it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from backgammon import Position
from backgammon.cli import main
from backgammon.training import truth

DATA = Path(__file__).resolve().parents[1] / "data"
RACE = "AAAAAP8PAAAAAA"  # no contact left, not all home


def _race() -> str:
    """Another race: each side's checkers on its own 8 and 6 points and in its home."""
    mine, theirs = [0] * 26, [0] * 26
    mine[8], mine[6], mine[3] = 5, 5, 5
    theirs[9], theirs[5], theirs[2] = 5, 5, 5
    return Position(mine, theirs).id()


def _bearoff() -> str:
    mine = [0] * 26
    theirs = [0] * 26
    mine[1], mine[2], mine[0] = 2, 3, 10
    theirs[3], theirs[0] = 4, 11
    return Position(mine, theirs).id()


def test_positions_are_classed() -> None:
    assert truth.position_class(Position.initial()) == "contact"
    assert truth.position_class(Position.from_id(RACE)) == "race"
    assert truth.position_class(Position.from_id(_bearoff())) == "bearoff"
    # Two points held in the other's home board, 150 pips behind: a back game.
    mine = [0] * 26
    mine[24], mine[23], mine[13], mine[8], mine[6] = 2, 2, 5, 3, 3
    theirs = [0] * 26
    theirs[0], theirs[6], theirs[5], theirs[4] = 5, 4, 3, 3
    assert truth.position_class(Position(mine, theirs)) == "backgame"


def test_people_positions_come_one_a_game_from_mat_files() -> None:
    files = [DATA / "gnubg_7pt_seed1.mat", DATA / "gnubg_5pt_seed42.mat"]
    found = list(truth.candidates_from_mat(files, seed=1))
    again = list(truth.candidates_from_mat(files, seed=1))
    assert found == again and len(found) >= 4
    assert all("#game" in c.source and c.cls in truth.CLASSES for c in found)
    assert not list(truth.candidates_from_mat(files, seed=1, skip_players=["gnubg"]))


def test_the_draw_keeps_the_shares_and_gives_spare_places_away() -> None:
    pool = ([truth.Candidate(f"c{i}", "contact", "x") for i in range(50)]
            + [truth.Candidate(f"r{i}", "race", "x") for i in range(3)])
    chosen = truth.draw(pool, 10, {"contact": 0.5, "race": 0.5}, seed=1)
    assert len(chosen) == 10 and len({c.id for c in chosen}) == 10
    assert sum(c.cls == "race" for c in chosen) == 3  # all it had; contact fills the rest


def test_labels_are_written_chunk_by_chunk_and_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    candidates = [truth.Candidate(RACE, "race", "test"),
                  truth.Candidate(_bearoff(), "bearoff", "test"),
                  truth.Candidate(_race(), "race", "test")]
    truth.choose(tmp_path, [("test", candidates, 3)], {"race": 0.7, "bearoff": 0.3}, 1,
                 {"command": "test"})
    quick = truth.Settings(target_se=1.0, max_trials=324)
    assert truth.label(tmp_path, quick, chunk=2, limit=1) == 1
    assert truth.label(tmp_path, quick, chunk=2, minutes=0) == 1  # out of time at once
    assert truth.label(tmp_path, quick, chunk=2) == 1  # goes on from the chunks written
    assert truth.label(tmp_path, quick, chunk=2) == 0
    labels = truth.read_labels(tmp_path)
    header, positions = truth.read_positions(tmp_path)
    assert [row["id"] for row in labels] == [c.id for c in positions]
    assert header["command"] == "test" and header["seed"] == 1
    assert sorted(p.name for p in tmp_path.glob("labels-*")) == [
        "labels-0001.jsonl.gz", "labels-0002.jsonl.gz", "labels-0003.jsonl.gz"]
    for row in labels:
        assert row["networks"].startswith("sha256:") and len(row["probabilities"]) == 5
        if row["class"] == "bearoff":
            assert row["method"] == "bearoff table" and row["equity_se"] == 0
        else:
            assert row["trials"] == 324 and 0 <= row["equity_se"] < 0.1
    with pytest.raises(truth.TruthError, match="already has labels"):
        truth.choose(tmp_path, [("test", candidates, 3)], {"race": 1.0}, 1, {})
    assert main(["truth", "report", "--out", str(tmp_path)]) == 0
    report = capsys.readouterr().out
    assert "0-ply cubeless equity error against 3 truth labels" in report
    assert "bearoff" in report and "all" in report
    # Two files: the second paired with the first over the same labels (here itself: nil).
    shipped = str(Path(truth.__file__).parents[1] / "bot" / "weights" / "td.npz")
    assert main(["truth", "report", "--out", str(tmp_path), "--weights", shipped,
                 "--weights", shipped]) == 0
    paired = capsys.readouterr().out.split("paired over the same labels")[1]
    assert "  all       +0.0000 ± 0.0000  +0.00000 ± 0.00000" in paired


def test_a_label_of_another_position_stops_the_run(tmp_path: Path) -> None:
    candidates = [truth.Candidate(RACE, "race", "test")]
    truth.choose(tmp_path, [("test", candidates, 1)], {"race": 1.0}, 1, {})
    with gzip.open(tmp_path / "labels-0001.jsonl.gz", "wt") as stream:
        stream.write(json.dumps({"id": "4HPwATDgc/ABMA", "class": "contact"}) + "\n")
    with pytest.raises(truth.TruthError, match="not of its position"):
        truth.label(tmp_path, truth.Settings(), limit=1)


def test_the_machinery_labels_for_training_too(tmp_path: Path) -> None:
    """Other settings make a label factory: positions where 0-ply and 2-ply disagree most,
    rolled out truncated."""
    pool = [truth.Candidate(p, truth.position_class(Position.from_id(p)), "test")
            for p in (Position.initial().id(), "jOeFBwCMGRxQNg", _race(), _bearoff())]
    gaps = truth.disagreements(pool, 2)
    assert len(gaps) == 2 and all("0/2-ply gap" in c.source for c in gaps)
    assert all(c.cls != "bearoff" for c in gaps)
    truth.choose(tmp_path, [("gaps", gaps, 2)], truth.SHARES, 1, {"command": "test"})
    settings = truth.Settings(target_se=1.0, max_trials=324, truncate=2)
    assert truth.label(tmp_path, settings) == 2
    assert all(row["truncate"] == 2 and row["trials"] == 324
               for row in truth.read_labels(tmp_path))


def test_a_factory_may_label_the_positions_after_each_candidates_best_plays(
    tmp_path: Path,
) -> None:
    """``choose --from-positions DIR --after-plays K``: each listed position is replaced by
    the positions after the K best plays of a roll drawn for it, the opponent on roll, none
    of them a position of the excluded folders."""
    source, truth_set, out = tmp_path / "source", tmp_path / "truth", tmp_path / "plays"
    start = truth.Candidate(Position.initial().id(), "contact", "start")
    truth.choose(source, [("people", [start], 1)], None, 1, {"command": "test"})
    after = list(truth.after_plays([start], 3, seed=5))
    truth.choose(truth_set, [("people", after[:1], 1)], None, 1, {"command": "test"})
    assert main(["truth", "choose", "--out", str(out), "--from-positions", str(source),
                 "--after-plays", "3", "--seed", "5", "--natural", "--exclude", str(truth_set),
                 "--engines", "0"]) == 0
    chosen = truth.read_positions(out)[1]
    assert {c.id for c in chosen} == {c.id for c in after[1:]}
    for candidate in chosen:
        position = Position.from_id(candidate.id)
        assert position.pips()[1] < 167  # the player on roll now is the opponent of who moved
        assert candidate.source.startswith("start, roll ")
    # The plays of one roll are one group, rolled out with the same dice.
    assert len({c.group for c in chosen}) == 1 and chosen[0].group is not None
    settings = truth.Settings(target_se=1.0, max_trials=36, truncate=1)
    assert truth.label(out, settings) == 2
    assert len({row["seed"] for row in truth.read_labels(out)}) == 1
