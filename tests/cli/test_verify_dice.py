"""``backgammon verify-dice``: a good record, a tampered one (the roll is named), and files
that cannot be checked (exit status 2 and a sentence)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from backgammon.cli import main
from backgammon.fairdice import FairMatchDice
from backgammon.match import Match


def finished_record() -> dict[str, Any]:
    """A 1-point match of fair dice, a few turns long, then resigned."""
    match = Match(1, dice=FairMatchDice())
    game = match.game
    for _ in range(5):
        game.roll(game.player_to_act or 0)
        if game.dice:
            game.play(game.on_roll, str(game.position.legal_plays(game.dice)[0]))
    game.resign(game.on_roll)
    game.accept(1 - game.on_roll)
    return match.to_dict()


def run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: object, *options: str
) -> tuple[int, str]:
    path = tmp_path / "record.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    try:
        status = main(["verify-dice", str(path), *options])
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out + captured.err


def test_an_untouched_record_checks_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = run(capsys, tmp_path, finished_record())
    assert status == 0
    assert out.startswith("Game 1: ") and "Every roll matches the seeds" in out


def test_a_tampered_roll_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = finished_record()
    rolls = [event for event in record["games"][0] if event["action"] == "roll"]
    first, second = rolls[1]["dice"]
    rolls[1]["dice"] = [second, first] if first != second else [first % 6 + 1, second]
    status, out = run(capsys, tmp_path, record)
    assert status == 1
    assert f"Game 1: roll 2 differs: recorded {rolls[1]['dice'][0]}-{rolls[1]['dice'][1]}, " \
        f"derived {first}-{second}." in out
    assert "The dice do not match the seeds: 1 roll differs." in out


def test_the_json_report(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, out = run(capsys, tmp_path, finished_record(), "--json")
    report = json.loads(out)
    assert status == 0 and report["ok"] and report["games"][0]["mismatches"] == []


def test_the_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(finished_record())))
    assert main(["verify-dice", "-"]) == 0
    assert "Every roll matches" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("content", "phrase"),
    [
        ("not json", "not valid JSON"),
        ({"id": "abc", "version": 4, "record": []}, "a match's state, not its record"),
        ({"schema": 1, "games": [[]], "length": 1}, "not rolled by the provably fair scheme"),
        ({"schema": 1, "games": [[]], "dice": [{"scheme": "dice-v9", "seeds": ["", ""]}]},
         "scheme 'dice-v9'"),
    ],
)
def test_what_cannot_be_checked_is_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: object, phrase: str
) -> None:
    status, out = run(capsys, tmp_path, content)
    assert status == 2
    assert out.startswith("backgammon verify-dice: error: ") and phrase in out


def test_a_game_not_over_is_not_revealed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    match = Match(3, dice=FairMatchDice())
    match.game.roll(0)
    status, out = run(capsys, tmp_path, match.to_dict())
    assert status == 2 and "no server seed is revealed yet" in out


def test_a_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["verify-dice", str(tmp_path / "none.json")])
    assert exc.value.code == 2
    assert "Cannot read" in capsys.readouterr().err
