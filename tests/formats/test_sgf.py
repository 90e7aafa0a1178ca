"""GNU Backgammon's .sgf match files: files gnubg wrote are read (every move replayed through
our rules), ours are read back, Debian's gnubg loads ours and ends on the same score, and bad
files are refused with a reason.

The files in ``tests/data/sgf`` are Debian gnubg 1.07.001's own: ``gnubg_7pt_seed5.sgf`` and
``gnubg_money.sgf`` are ``import mat`` of ``tests/data/gnubg_7pt_seed5.mat`` and
``gnubg_money.mat`` then ``save match`` (the money file has the Jacoby rule, a beaver, a
resignation after a roll); ``gnubg_selfplay_7pt.sgf`` is gnubg playing itself at 0-ply
(``set seed 11``, ``new match 7``, ``save match``), with its analysis properties.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_mat import random_match

from backgammon.dice import ManualDice
from backgammon.formats.sgf import SgfFormatError, export_sgf, import_sgf, read_sgf
from backgammon.game import Game, Phase, Rolled, Rules
from backgammon.game.match import Match
from backgammon.variants import Variant

DATA = Path(__file__).parents[1] / "data" / "sgf"
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
HAVE_GNUBG = Path(GNUBG).exists()

#: What gnubg's ``show score`` says after ``load match`` of each file: (White, Black), games.
GNUBG_SCORES = {
    "gnubg_7pt_seed5.sgf": ((4, 8), 6),
    "gnubg_money.sgf": ((10, 3), 6),
    "gnubg_selfplay_7pt.sgf": ((10, 0), 2),
}


def played(match: Match) -> list[Game]:
    return [game for game in match.games if game.events]


@pytest.mark.parametrize("name", sorted(GNUBG_SCORES))
def test_gnubgs_files_are_read_to_gnubgs_score(name: str) -> None:
    match = read_sgf(DATA / name)
    score, games = GNUBG_SCORES[name]
    assert match.score == score
    assert len(played(match)) == games
    assert match.players == (("Ann Lee", "Bob") if "money" in name else ("gnubg", "root"))


def test_the_money_files_rules_and_beaver_are_read() -> None:
    match = read_sgf(DATA / "gnubg_money.sgf")
    assert match.length == 0 and match.rules.jacoby and match.rules.beavers
    first = match.games[0]
    assert first.result is not None and first.result.reason == "resign"
    rolled = [entry for entry in first.history() if isinstance(entry, Rolled)]
    assert rolled[-1].seat == 1 and rolled[-1].dice == (5, 1)  # PL[B]DI[51], then resigned
    assert any(game.cube_value == 4 for game in match.games)


def test_gnubgs_files_survive_our_round_trip() -> None:
    for name in GNUBG_SCORES:
        match = read_sgf(DATA / name)
        again = import_sgf(export_sgf(match))
        assert again.score == match.score and again.rules == match.rules
        for ours, theirs in zip(played(again), played(match), strict=True):
            assert [str(p) for _, _, p in ours.plays] == [str(p) for _, _, p in theirs.plays]
            assert ours.result == theirs.result
            assert ours.position == theirs.position


@pytest.fixture(scope="module")
def random_matches() -> list[Match]:
    """Matches of random players: to 5 and 3 points, money with the Jacoby rule, beavers
    and automatic doubles, Nackgammon without the cube, and a fresh opening roll."""
    matches = [random_match(3000 + seed, 5, double_rate=0.1) for seed in range(6)]
    matches.append(random_match(3100, 3, cut=True))
    for seed in range(4):
        rules = Rules(jacoby=seed % 2 == 0, beavers=True, automatic_doubles=seed % 3)
        matches.append(random_match(3200 + seed, 0, rules, games=3, double_rate=0.15))
    matches.append(random_match(3300, 0, Rules(variant=Variant.NACKGAMMON, cube=False)))
    for seed in range(3):
        reroll = Rules(opening_reroll=True, beavers=True)
        matches.append(random_match(3400 + seed, 0, reroll, games=4, double_rate=0.3))
    return matches


def test_random_matches_survive_the_round_trip(random_matches: list[Match]) -> None:
    for match in random_matches:
        again = import_sgf(export_sgf(match))
        assert again.score == match.score and again.length == match.length
        assert again.rules.variant == match.rules.variant
        assert again.rules.cube == match.rules.cube
        for ours, theirs in zip(played(again), played(match), strict=True):
            assert ours.position == theirs.position
            assert ours.cube_value == theirs.cube_value
            assert ours.result == theirs.result


def test_the_written_text_is_gnubgs() -> None:
    match = Match(5, dice=ManualDice(["6 1", "3 3"]), players=("A]b", "C\\d"))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    game.roll(1)
    text = export_sgf(match)
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]AP[backgammon]MI[length:5][game:0][ws:0]")
    assert "PW[A\\]b]PB[C\\\\d]RU[Crawford]" in text
    assert text.endswith(";W[61mghg]\n;B[double]\n;W[take]\n;PL[B]DI[33])\n")
    assert import_sgf(text).players == ("A]b", "C\\d")


def gnubg_load(path: Path) -> str:
    commands = f"load match {path}\nshow score\nquit\ny\n"
    done = subprocess.run(
        [GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=120
    )
    return done.stdout + done.stderr


@pytest.mark.skipif(not HAVE_GNUBG, reason="Debian's gnubg is not installed")
def test_gnubg_loads_ours_to_the_same_score(
    tmp_path: Path, random_matches: list[Match]
) -> None:
    matches = random_matches + [read_sgf(DATA / name) for name in sorted(GNUBG_SCORES)]
    for number, match in enumerate(matches):
        path = tmp_path / f"m{number}.sgf"
        path.write_text(export_sgf(match), encoding="utf-8")
        said = gnubg_load(path)
        found = re.search(r"The score \(after (\d+) games?\) is: .* (\d+), .* (\d+) \(", said)
        assert found, said[-2000:]
        games, white, black = (int(group) for group in found.groups())
        assert (white, black) == match.score, (number, said[-1500:])
        assert games == sum(game.result is not None for game in match.games)


GOOD_ROOT = "(;FF[4]GM[6]MI[length:3][game:0][ws:0][bs:0]"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "holds no game"),
        ("hello", "expected '('"),
        ("(;GM[1];B[aa])", "not a backgammon game"),
        (GOOD_ROOT + ";W[31hefe]", "expected ')'"),
        (GOOD_ROOT + ";W[31hefe)", "missing ']'"),
        (GOOD_ROOT + "PW)", "has no value"),
        (GOOD_ROOT + ";W[31hdfd])", "White cannot play 8/4 6/4 with 3-1"),
        (GOOD_ROOT + ";W[71hefe])", "not two dice"),
        (GOOD_ROOT + ";W[31he!e])", "outside a..z"),
        (GOOD_ROOT + ";W[33hefe])", "White cannot play 8/5 6/5 with 3-3"),
        (GOOD_ROOT + ";W[31hefe];W[42])", "seat 0"),
        (GOOD_ROOT + ";AE[a:y]AB[a];W[31hefe])", "sets up AB, AE"),
        (GOOD_ROOT + ";PL[B])", "sets up the player on roll"),
        ("(;FF[4]GM[6]MI[length:x])", "the match length is a whole number"),
        ("(;FF[4]GM[6]MI[length:3][game:0][ws:1][bs:0])", "starts at 1-0"),
        ("(;FF[4]GM[6]MI[length:99])", "from 1 to 64"),
        ("(;FF[4]GM[6]RU[Hypergammon2])", "Hypergammon with one or two"),
        (GOOD_ROOT + "RE[B+5];W[31hefe])", "Black cannot win 5 points"),
        (GOOD_ROOT + ";W[31hefe])(;GM[6]MI[length:3][game:1][ws:0][bs:0])", "no result"),
        (GOOD_ROOT + "RE[W+1R];W[31hefe])(;GM[6]MI[length:3][game:1][ws:0][bs:0])",
         "at 0-0, but the games before it make a 3-point match at 1-0"),
        ("(;GM[6]MI[length:1]RE[W+1R];W[31hefe])(;GM[6]MI[length:1][ws:1])", "match is over"),
        (GOOD_ROOT + "CV[3];W[31hefe])", "CV is a power of two"),
    ],
)
def test_bad_files_are_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(SgfFormatError, match=re.escape(reason)):
        import_sgf(text)


def test_a_bear_off_that_the_result_contradicts_is_refused() -> None:
    match = read_sgf(DATA / "gnubg_7pt_seed5.sgf")
    trees = export_sgf(match).split(")\n")
    borne_off = next(
        index for index, game in enumerate(match.games) if game.result.reason == "bear off"
    )
    winner = match.games[borne_off].result.winner
    wrong = trees[borne_off].replace(f"RE[{'WB'[winner]}+", f"RE[{'WB'[1 - winner]}+")
    trees[borne_off] = wrong
    with pytest.raises(SgfFormatError, match=f"Game {borne_off + 1}, node 1: The result says"):
        import_sgf(")\n".join(trees))


def test_a_set_up_game_cannot_be_written() -> None:
    from backgammon.formats.ids import setup_from_id

    match = setup_from_id("4HPwATDgc/ABMA:cAngACAAAAAE").match()
    with pytest.raises(SgfFormatError, match="set-up position"):
        export_sgf(match)
    assert match.game.phase is Phase.ROLL
