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
from backgammon.game import Phase
from backgammon.game.match import Match


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


def test_the_seeds_the_rolls_come_from_are_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = finished_record()
    status, out = run(capsys, tmp_path, record)
    dice = record["dice"][0]
    assert status == 0
    assert f"  server seed {dice['server_seed']}\n  commitment  {dice['commitment']}\n" in out
    assert "  seeds       '' (seat 0), '' (seat 1)" in out


def seeded_record() -> dict[str, Any]:
    """A 1-point match of fair dice in which seat 1 gave its own seed before the first roll."""
    match = Match(1, dice=FairMatchDice())
    game = match.game
    game.add_seed(1, "my-own-seed")
    while game.phase is Phase.OPENING:  # an opening roll of equal dice is thrown again
        game.roll(game.player_to_act or 0)
    game.resign(game.on_roll)
    game.accept(1 - game.on_roll)
    return match.to_dict()


def test_a_player_seed_replaced_in_the_dice_is_caught(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = seeded_record()
    assert run(capsys, tmp_path, record)[0] == 0
    # Seeds swapped for others that give the recorded rolls (the server's own dice, say):
    # every roll would match the dice's seeds, but seat 1 never gave this one.
    record["dice"][0]["seeds"] = ["", "another-seed"]
    status, out = run(capsys, tmp_path, record)
    assert status == 1
    assert "Game 1: the dice use another seed for seat 1 than the one the player gave" in out
    assert "1 game replaced a player's seed" in out


@pytest.mark.parametrize(
    "text",
    [
        '{"schema": 1, "games": [[{"action": "roll", "player": 0, "dice": [' + "9" * 5000
        + ', 1]}]], "dice": [{"seeds": ["", ""]}]}',
        "[" * 5000 + "]" * 5000,
        '{"schema": 1, "games": [[{"action": "roll", "player": 0, "dice": [' + "9" * 300
        + ', 1]}]], "dice": [{"scheme": "sha256-v1", "commitment": "' + "0" * 64
        + '", "seeds": ["", ""], "server_seed": "' + "0" * 64 + '"}]}',
    ],
)
def test_hostile_files_are_refused_with_a_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, text: str
) -> None:
    status, out = run(capsys, tmp_path, text)
    assert status == 2 and out.startswith("backgammon verify-dice: error: ")
    assert "Traceback" not in out and len(out) < 400
