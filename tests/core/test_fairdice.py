"""Provably fair dice: the derivation (against the test vector of docs/guide/online.md and an
independent reading of the HMAC), its lack of bias, the commitment and its reveal, the players'
seeds, records with fair dice, and the verifier against tampered records."""

from __future__ import annotations

import copy
import hashlib
import hmac
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from backgammon import BackgammonError, fairdice
from backgammon.dice import ManualDice, SecureDice
from backgammon.fairdice import (
    FairDice,
    FairDiceError,
    FairMatchDice,
    commitment_of,
    derive_roll,
    dice_of_bytes,
)
from backgammon.game import Game
from backgammon.game.match import Match
from backgammon.game.verify import (
    NoFairDiceError,
    NotARecordError,
    UnrevealedSeedError,
    verify_dice,
)

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "online.md"
SEED = bytes(range(32))


Row = tuple[int, str, str, tuple[int, int]]


def guide_vector() -> tuple[str, str, tuple[str, str], list[Row]]:
    """The test vector of docs/guide/online.md: server seed, commitment, seeds, and (roll,
    message, HMAC prefix, dice) rows."""
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## Provably fair dice", 1)[1].split("\n## ", 1)[0]
    server = re.search(r"server seed `([0-9a-f]{64})`", section)
    commitment = re.search(r"commitment `([0-9a-f]{64})`", section)
    seeds = re.search(r"seeds `([^`]*)` \(seat 0\) and `([^`]*)` \(seat 1\)", section)
    assert server and commitment and seeds, "the guide's test vector is incomplete"
    rows = [
        (int(roll), message, prefix, (int(first), int(second)))
        for roll, message, prefix, first, second in re.findall(
            r"^\| (\d+) \| `([^`]+)` \| `([0-9a-f]+)\.\.\.`[^|]* \| (\d)-(\d) \|$", section, re.M
        )
    ]
    assert len(rows) >= 5
    return server[1], commitment[1], (seeds[1], seeds[2]), rows


def test_the_guides_test_vector() -> None:
    server, commitment, seeds, rows = guide_vector()
    key = bytes.fromhex(server)
    assert commitment_of(key) == commitment == hashlib.sha256(key).hexdigest()
    for roll, message, prefix, dice in rows:
        assert message == f"{seeds[0]}:{seeds[1]}:{roll}:0"
        digest = hmac.new(key, message.encode("ascii"), hashlib.sha256).hexdigest()
        assert digest.startswith(prefix)
        assert derive_roll(key, seeds, roll) == dice


def test_the_guides_vector_covers_a_skipped_byte() -> None:
    server, _, _, rows = guide_vector()
    key = bytes.fromhex(server)
    skipped = [roll for roll, message, *_ in rows
               if hmac.new(key, message.encode(), hashlib.sha256).digest()[0] >= 252]
    assert skipped, "the vector should show the rejection of a byte"


def test_each_of_the_36_rolls_has_exactly_seven_bytes() -> None:
    counts = Counter(dice_of_bytes(bytes([byte])) for byte in range(256))
    assert counts.pop(None) == 4  # 252..255 are skipped
    assert len(counts) == 36 and set(counts.values()) == {7}
    assert set(counts) == {(a, b) for a in range(1, 7) for b in range(1, 7)}


def test_a_skipped_byte_moves_on_to_the_next_one() -> None:
    # Roll 70 of the guide's vector starts with 252: the roll is the second byte's.
    digest = hmac.new(SEED, b"alice:bob:70:0", hashlib.sha256).digest()
    assert digest[0] >= 252 > digest[1]
    k = digest[1] % 36
    assert derive_roll(SEED, ("alice", "bob"), 70) == (k // 6 + 1, k % 6 + 1)


def test_a_block_of_skipped_bytes_moves_on_to_the_next_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = fairdice._block
    asked = []

    def rejected_first(seed: bytes, seeds: tuple[str, str], number: int, block: int) -> bytes:
        asked.append(block)
        return bytes([255] * 32) if block == 0 else real(seed, seeds, number, block)

    monkeypatch.setattr(fairdice, "_block", rejected_first)
    next_block = hmac.new(SEED, b"a:b:3:1", hashlib.sha256).digest()
    assert derive_roll(SEED, ("a", "b"), 3) == dice_of_bytes(next_block)
    assert asked == [0, 1]


def test_every_part_of_the_message_changes_the_dice() -> None:
    base = [derive_roll(SEED, ("a", "b"), n) for n in range(1, 41)]
    assert [derive_roll(SEED, ("a", "c"), n) for n in range(1, 41)] != base
    assert [derive_roll(SEED, ("b", "a"), n) for n in range(1, 41)] != base
    assert [derive_roll(bytes(32), ("a", "b"), n) for n in range(1, 41)] != base
    assert [derive_roll(SEED, ("a", "b"), n) for n in range(2, 42)] != base


def test_rolls_are_numbered_from_one() -> None:
    with pytest.raises(FairDiceError, match="numbered from 1"):
        derive_roll(SEED, ("", ""), 0)


@pytest.mark.parametrize("seed", ["a:b", "x" * 65, "space here", "é", 7])
def test_a_bad_player_seed_is_refused(seed: Any) -> None:
    with pytest.raises(FairDiceError, match="up to 64 letters"):
        FairDice(SEED).add_seed(0, seed)


def test_a_seed_is_taken_only_before_the_first_roll() -> None:
    game = Game(dice=FairDice(SEED))
    game.dice_source.add_seed(0, "alice")  # type: ignore[attr-defined]
    game.dice_source.add_seed(1, "bob")  # type: ignore[attr-defined]
    game.roll(0)
    assert game.events[0].dice == (4, 5)  # the guide's roll 1: seat 1 starts
    with pytest.raises(FairDiceError, match="before its first roll"):
        game.dice_source.add_seed(1, "other")  # type: ignore[attr-defined]


def finish(game: Game) -> None:
    """Roll the opening roll (again after ties) and resign the game."""
    while not game.dice:
        game.roll(0)
    game.resign(game.on_roll)
    game.accept(1 - game.on_roll)


def test_the_commitment_before_the_first_roll_and_the_seed_after_the_end() -> None:
    match = Match(3, dice=FairMatchDice())
    before = match.to_dict()["dice"][0]
    assert set(before) == {"scheme", "commitment", "seeds"}
    finish(match.game)
    record = match.to_dict()
    first, second = record["dice"]
    assert first["commitment"] == before["commitment"]
    assert hashlib.sha256(bytes.fromhex(first["server_seed"])).hexdigest() == first["commitment"]
    assert "server_seed" not in second and second["commitment"] != first["commitment"]
    # The server's own copy keeps every seed, so it can go on rolling.
    assert "server_seed" in match.to_dict(secrets=True)["dice"][1]


def test_a_game_record_keeps_its_fair_dice_too() -> None:
    game = Game(dice=FairDice(SEED))
    assert "server_seed" not in game.to_dict()["dice"]
    finish(game)
    assert game.to_dict()["dice"]["server_seed"] == SEED.hex()
    assert Game.from_dict(game.to_dict()).to_dict()["dice"] == game.to_dict()["dice"]


def test_players_seeds_carry_over_to_the_next_game() -> None:
    match = Match(5, dice=FairMatchDice())
    match.game.dice_source.add_seed(0, "mine")  # type: ignore[attr-defined]
    finish(match.game)
    assert match.to_dict()["dice"][1]["seeds"] == ["mine", ""]


def test_a_match_rebuilt_from_its_secret_record_rolls_on_as_it_would_have() -> None:
    def step(match: Match) -> None:
        game = match.game
        if game.dice:
            game.play(game.on_roll, str(game.position.legal_plays(game.dice)[0]))
        else:
            game.roll(game.player_to_act or 0)

    match = Match(7, dice=FairMatchDice())
    finish(match.game)
    step(match)  # game 2's opening roll (or a tie)
    rebuilt = Match.from_dict(copy.deepcopy(match.to_dict(secrets=True)))
    for _ in range(10):
        step(match)
        step(rebuilt)
    assert len(match.games) == len(rebuilt.games) == 2
    assert rebuilt.to_dict(secrets=True)["dice"] == match.to_dict(secrets=True)["dice"]
    rolls = [e["dice"] for e in match.to_dict()["games"][1] if e["action"] == "roll"]
    assert [e["dice"] for e in rebuilt.to_dict()["games"][1] if e["action"] == "roll"] == rolls
    assert len(rolls) >= 5
    assert verify_dice(match.to_dict(secrets=True)).ok


def test_a_roll_drawn_and_lost_does_not_shift_the_numbers() -> None:
    dice = FairDice(SEED)
    game = Game(dice=dice)
    dice.roll()  # drawn by a copy whose action was never kept
    game.roll(0)
    assert game.events[0].dice == derive_roll(SEED, ("", ""), 1)


def test_a_public_record_cannot_roll_the_hidden_dice() -> None:
    match = Match(3, dice=FairMatchDice())
    rebuilt = Match.from_dict(match.to_dict())
    with pytest.raises(FairDiceError, match="does not reveal the server seed"):
        rebuilt.game.roll(0)


def test_old_records_without_fair_dice_still_load() -> None:
    match = Match(3, dice=ManualDice(["6 1"]))
    match.game.roll(0)
    record = match.to_dict()
    assert "dice" not in record
    rebuilt = Match.from_dict(record)
    assert isinstance(rebuilt.dice_source, SecureDice)
    assert rebuilt.game.dice == (6, 1)


def played_match() -> Match:
    """A 3-point match of fair dice, two games resigned after a few rolls."""
    match = Match(3, dice=FairMatchDice())
    match.game.add_seed(1, "bob")  # recorded as a seed event, as a player gives it
    while not match.is_over:
        game = match.game
        for _ in range(6):
            game.roll(game.player_to_act or 0)
            while game.dice:
                game.play(game.on_roll, str(game.position.legal_plays(game.dice)[0]))
                if game.phase.value == "over":
                    break
            if game.result is not None:
                break
        if game.result is None:
            game.resign(game.on_roll, 2)
            game.accept(1 - game.on_roll)
    return match


def test_the_verifier_accepts_an_untouched_record() -> None:
    record = played_match().to_dict()
    report = verify_dice(record)
    assert report.ok and all(game.ok for game in report.games)
    assert report.text().endswith(f"in {len(record['games'])} games.")


def roll_events(record: dict[str, Any], game: int) -> list[dict[str, Any]]:
    return [event for event in record["games"][game] if event["action"] == "roll"]


def test_the_verifier_names_the_roll_that_was_changed() -> None:
    record = played_match().to_dict()
    event = roll_events(record, 1)[2]
    derived = tuple(event["dice"])
    event["dice"] = [7 - derived[0], derived[1]]
    report = verify_dice(record)
    assert not report.ok
    (wrong,) = report.games[1].mismatches
    assert (wrong.game, wrong.roll, wrong.recorded, wrong.derived) == (
        2, 3, (7 - derived[0], derived[1]), derived
    )
    assert "Game 2: roll 3 differs: recorded" in report.text()
    assert report.games[0].ok


def test_the_verifier_catches_a_seed_that_breaks_its_commitment() -> None:
    record = played_match().to_dict()
    record["dice"][0]["server_seed"] = "00" * 32
    report = verify_dice(record)
    assert not report.ok and not report.games[0].commitment_kept
    assert "does not hash to the commitment" in report.text()


def test_the_verifier_catches_changed_players_seeds() -> None:
    record = played_match().to_dict()
    record["dice"][0]["seeds"] = ["", "eve"]
    assert not verify_dice(record).ok


@pytest.mark.parametrize(
    ("record", "error", "phrase"),
    [
        ([1, 2], NotARecordError, "not a saved match or game"),
        ({"id": "x", "version": 3, "record": []}, NotARecordError, "a match's state"),
        ({"schema": 1, "length": 3}, NotARecordError, "neither games nor events"),
        ({"schema": 1, "games": [[]]}, NoFairDiceError, "not rolled by the provably fair"),
        ({"schema": 1, "games": [[{"action": "roll"}]], "dice": [{}]}, FairDiceError, "game 1"),
    ],
)
def test_what_cannot_be_verified_is_said(record: object, error: type, phrase: str) -> None:
    with pytest.raises(error, match=phrase):
        verify_dice(record)


def test_a_record_with_no_seed_revealed_yet_is_refused() -> None:
    match = Match(3, dice=FairMatchDice())
    match.game.roll(0)
    with pytest.raises(UnrevealedSeedError, match="No game of this record is over"):
        verify_dice(match.to_dict())


def test_a_match_in_play_verifies_its_finished_games() -> None:
    match = Match(5, dice=FairMatchDice())
    finish(match.game)
    match.game.roll(0)
    report = verify_dice(match.to_dict())
    assert report.ok and len(report.checked) == 1
    assert "Game 2: not over" in report.text()


def test_a_rebuilt_game_still_refuses_a_late_seed() -> None:
    match = Match(3, dice=FairMatchDice())
    match.game.roll(0)
    rebuilt = Match.from_dict(match.to_dict(secrets=True))
    with pytest.raises(FairDiceError, match="before its first roll"):
        rebuilt.game.dice_source.add_seed(0, "late")  # type: ignore[attr-defined]
    game = Game.from_dict(match.game.to_dict(secrets=True))
    with pytest.raises(FairDiceError, match="before its first roll"):
        game.dice_source.add_seed(0, "late")  # type: ignore[attr-defined]


def test_a_match_refuses_one_games_fair_dice() -> None:
    with pytest.raises(BackgammonError, match="FairMatchDice"):
        Match(3, dice=FairDice())
