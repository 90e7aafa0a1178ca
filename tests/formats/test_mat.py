"""The .mat match files of Jellyfish and GNU Backgammon: writing, reading, and gnubg's verdict.

Random matches (random legal plays, doubles, takes, drops, beavers and resignations, all
through the Game API) are written and read back; files GNU Backgammon itself wrote are read;
and, where Debian's gnubg is installed, gnubg imports what we write without a warning and
ends on the same score.
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from backgammon.dice import ManualDice, SeededDice
from backgammon.errors import BackgammonError
from backgammon.formats.mat import MatFormatError, export_mat, import_mat, read_mat
from backgammon.game import Action, Game, Phase, Rules
from backgammon.game.match import Match
from backgammon.position import Position, WinKind
from backgammon.variants import Variant

DATA = Path(__file__).parents[1] / "data"
GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
HAVE_GNUBG = Path(GNUBG).exists()
NAMES = ("Ann Lee", "Bob")


# Random play through the Game API


def random_action(game: Game, rng: random.Random, double_rate: float = 0.08) -> None:
    """One random action that the rules allow, of whoever must act."""
    phase = game.phase
    if phase is Phase.OPENING:
        game.roll(rng.randrange(2))
    elif phase is Phase.ROLL:
        seat = game.on_roll
        chance = rng.random()
        if game.may_double(seat) and chance < double_rate:
            game.double(seat)
        elif chance > 0.985:
            # Either player may resign; the one not on roll too.
            game.resign(rng.randrange(2), rng.choice(list(WinKind)))
        else:
            game.roll(seat)
    elif phase is Phase.CUBE:
        assert game.offer is not None
        decider = game.offer.decider
        chance = rng.random()
        if game.rules.beavers and not game.in_match and not game.offer.beavered and chance < 0.3:
            game.beaver(decider)
        elif chance < 0.7:
            game.take(decider)
        else:
            game.drop(decider)
    elif phase is Phase.MOVE:
        assert game.dice is not None and game.turn is not None
        seat = game.on_roll
        chance = rng.random()
        if chance < 0.01:
            game.resign(seat, rng.choice(list(WinKind)))
        elif chance < 0.3 or game.turn.made:
            # Step by step, sometimes taking a step back.
            if game.turn.made and rng.random() < 0.1:
                game.undo(seat)
            else:
                game.step(seat, *rng.choice(game.turn.legal_steps()))
        else:
            game.play(seat, rng.choice(game.position.legal_plays(game.dice)))
    elif phase is Phase.CONFIRM:
        seat = game.on_roll
        if rng.random() < 0.1:
            game.undo(seat)
        else:
            game.confirm(seat)
    elif phase is Phase.RESIGN:
        assert game.resignation is not None
        answer = game.accept if rng.random() < 0.6 else game.reject
        answer(1 - game.resignation.player)


def random_match(
    seed: int,
    length: int,
    rules: Rules | None = None,
    *,
    games: int = 3,
    cut: bool = False,
    double_rate: float = 0.08,
) -> Match:
    """A match played by random players: to its end, or (money) for ``games`` games; with
    ``cut`` it stops at a random moment."""
    rng = random.Random(seed)
    match = Match(length, rules, SeededDice(seed), players=NAMES)
    actions = rng.randrange(20, 200) if cut else -1
    while not match.is_over and actions:
        if not length and sum(game.result is not None for game in match.games) >= games:
            break
        random_action(match.game, rng, double_rate)
        actions -= 1
    return match


def visible(game: Game) -> list[tuple[str, int | None]]:
    """The actions of a game that a .mat file keeps (see the module's notes): no steps or
    undos (a confirmed turn is its play), no tied opening rolls, no rejected or pending
    resignation; the opening roll is anyone's."""
    out: list[tuple[str, int | None]] = []
    opening = True
    pending: tuple[str, int | None] | None = None
    for event in game.events:
        action = event.action
        if action is Action.ROLL and opening:
            assert event.dice is not None
            if event.dice[0] == event.dice[1]:
                continue
            opening = False
            out.append(("opening", None))
        elif action in (Action.STEP, Action.UNDO):
            continue
        elif action is Action.RESIGN:
            pending = ("resign", event.player)
        elif action is Action.REJECT:
            pending = None
        elif action is Action.ACCEPT:
            assert pending is not None
            out += [pending, ("accept", event.player)]
        else:
            name = "play" if action is Action.CONFIRM else action.value
            out.append((name, event.player))
    return out


def summary(match: Match) -> list[Any]:
    """What a round trip through a .mat file must keep, game by game."""
    games = [game for index, game in enumerate(match.games) if game.events or index == 0]
    return [
        match.length,
        match.players,
        match.score,
        match.is_over,
        match.crawford_rule,
        [
            (
                visible(game),
                [
                    (seat, tuple(sorted(dice)), play.result if play else None)
                    for seat, dice, play in game.plays
                ],
                (game.result.winner, game.result.points, game.result.reason)
                if game.result
                else None,
                game.cube_value,
                game.cube_owner,
                game.crawford,
                game.position_for(0),
                tuple(sorted(game.dice)) if game.dice else None,
            )
            for game in games
        ],
    ]


def assert_round_trip(match: Match) -> Match:
    text = export_mat(match)
    again = import_mat(text)
    assert summary(again) == summary(match), text
    for name in ("variant", "cube", "max_cube", "opening_reroll"):
        assert getattr(again.rules, name) == getattr(match.rules, name)
    if not match.length:
        assert (again.rules.jacoby, again.rules.beavers) == (
            match.rules.jacoby,
            match.rules.beavers,
        )
    # Writing what was read gives the same text again.
    assert export_mat(again) == text
    return again


# Round trips


@pytest.mark.parametrize("seed", range(24))
def test_round_trip_of_random_matches(seed: int) -> None:
    length = (1, 3, 5, 7)[seed % 4]
    assert_round_trip(random_match(seed, length, cut=seed % 3 == 0))


@pytest.mark.parametrize("seed", range(16))
def test_round_trip_of_random_money_sessions(seed: int) -> None:
    rules = Rules(jacoby=seed % 2 == 0, beavers=seed % 4 < 2)
    match = random_match(100 + seed, 0, rules, games=3, cut=seed % 3 == 1, double_rate=0.15)
    assert_round_trip(match)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(variant=Variant.NACKGAMMON),
        Rules(variant=Variant.HYPERGAMMON),
        Rules(opening_reroll=True),
        Rules(max_cube=4),
        Rules(cube=False),
        Rules(opening_reroll=True, beavers=True, jacoby=True),
    ],
    ids=["nackgammon", "hypergammon", "reroll", "max-cube", "no-cube", "reroll-money"],
)
def test_round_trip_of_other_rules(rules: Rules) -> None:
    for seed in range(4):
        length = 0 if rules.beavers or seed % 2 else 5
        assert_round_trip(random_match(200 + seed, length, rules, games=2, double_rate=0.15))


def test_round_trip_without_the_crawford_rule() -> None:
    rng = random.Random(5)
    match = Match(3, dice=SeededDice(5), players=NAMES, crawford=False)
    while not match.is_over:
        random_action(match.game, rng, 0.2)
    again = assert_round_trip(match)
    assert not again.crawford_rule


def test_a_single_game_is_a_one_game_money_session() -> None:
    rng = random.Random(3)
    game = Game(Rules(jacoby=True), SeededDice(3))
    while game.phase is not Phase.OVER:
        random_action(game, rng)
    text = export_mat(game)
    assert " 0 point match" in text and " Game 2" not in text
    match = import_mat(text)
    assert match.length == 0 and match.rules.jacoby
    def plays(game: Game) -> list[tuple[int, list[int], Position | None]]:
        return [(seat, sorted(dice), play and play.result) for seat, dice, play in game.plays]

    assert plays(match.games[0]) == plays(game) and match.games[0].result == game.result


def test_the_written_text_is_gnubgs_dialect() -> None:
    """Columns, notation and lines as GNU Backgammon 1.07 writes them."""
    match = Match(3, dice=ManualDice(["2 5", "6 6", "6 2"]), players=NAMES)
    game = match.game
    game.roll(0)                         # seat 1 wins the opening roll, 5 against 2
    game.play(1, "13/11 13/8")
    game.roll(0)
    game.play(0, "24/18(2) 13/7(2)")
    game.double(1)
    game.take(0)
    game.roll(1)
    game.play(1, "11/5 13/11")
    game.resign(0, WinKind.GAMMON)
    game.accept(1)
    assert export_mat(match).splitlines() == [
        '; [Player 1 "Ann Lee"]',
        '; [Player 2 "Bob"]',
        '; [Variation "Backgammon"]',
        '; [Crawford "On"]',
        "",
        " 3 point match",
        "",
        " Game 1",
        " Ann Lee : 0                    Bob : 0",
        "  1)                             52: 13/8 13/11",
        "  2) 66: 24/18 24/18 13/7 13/7    Doubles => 2",
        "  3)  Takes                      62: 13/11 11/5",
        "                                  Wins 4 points",
        "",
    ]


def test_beavers_are_written_as_gnubg_reads_them() -> None:
    match = Match(0, Rules(beavers=True), ManualDice(["6 5", "6 6"]), players=NAMES)
    game = match.game
    game.roll(0)
    game.play(0, "24/18 18/13")
    game.double(1)
    game.beaver(0)
    game.take(1)
    game.roll(1)
    game.play(1, "24/18(2) 13/7(2)")
    # The roll that follows is the take (GNU Backgammon's reading); see export_mat.
    assert export_mat(match).splitlines()[-3:-1] == [
        "  1) 65: 24/18 18/13              Doubles => 2",
        "  2)  Beavers => 4               66: 24/18 24/18 13/7 13/7",
    ]
    again = assert_round_trip(match)
    assert (again.game.cube_value, again.game.cube_owner) == (4, 0)


def test_other_spellings_of_the_same_moves_are_read() -> None:
    """'bar' and 'off' for 25 and 0, no hit marks, CRLF, eXtreme Gammon's 'Cannot Move'."""
    seen = set()
    for seed in range(12):
        match = random_match(300 + seed, 5 if seed % 2 else 0, games=2)
        text = export_mat(match)
        other = re.sub(r"(?<=\s)25/", "bar/", text)
        other = re.sub(r"/0\b", "/off", other).replace("*", "")
        other = re.sub(r"(?<=\s)([1-6]{2}):(?= {2,}\S| *$)", r"\1: Cannot Move", other, flags=re.M)
        other = other.replace("\n", "\r\n")
        seen |= {word for word in ("bar/", "/off", "Cannot Move") if word in other}
        assert summary(import_mat(other)) == summary(match)
    assert seen == {"bar/", "/off", "Cannot Move"}


# Files GNU Backgammon wrote


def test_gnubg_matches_are_read() -> None:
    """Made by Debian's gnubg 1.07.001 playing itself at 0-ply, fed these commands
    (``gnubg -t -q < commands``; seeds 1, 4 and 5 with ``new match 7``, and seed 42 with
    ``new match 5`` and no name line, which gnubg ignored anyway)::

        set player 0 gnubg
        set player 1 gnubg
        set player 0 chequerplay evaluation plies 0
        set player 1 chequerplay evaluation plies 0
        set player 0 cubedecision evaluation plies 0
        set player 1 cubedecision evaluation plies 0
        set player 1 name Bob
        set seed 1
        new match 7
        export match mat gnubg_7pt_seed1.mat
        quit
        y

    The expected scores are those gnubg's own ``import mat`` and ``show score`` give.
    """
    expected = {
        "gnubg_7pt_seed1.mat": ((7, 2), 7),
        "gnubg_7pt_seed4.mat": ((8, 5), 5),
        "gnubg_7pt_seed5.mat": ((4, 8), 6),
        "gnubg_5pt_seed42.mat": ((0, 6), 2),
    }
    reasons = set()
    for name, (score, games) in expected.items():
        match = read_mat(DATA / name)
        assert (match.score, len(match.games), match.is_over) == (score, games, True), name
        assert match.players == ("gnubg", "root")
        reasons |= {game.result.reason for game in match.games if game.result}
        # What we write of it, gnubg's dialect too, reads back the same.
        assert summary(import_mat(export_mat(match))) == summary(match)
    assert reasons == {"bear off", "drop", "resign"}


def test_gnubg_money_session_with_beavers_and_resignations_is_read() -> None:
    """gnubg_money.mat: the money session ``random_match(3003, 0, Rules(jacoby=True,
    beavers=True), games=6, double_rate=0.03)``, written by us, imported into gnubg and
    exported again by it::

        printf 'set jacoby on\\nimport mat ours.mat\\nshow score\\n
        export match mat gnubg_money.mat\\nquit\\ny\\n' | gnubg -t -q

    gnubg's score: Ann Lee 10, Bob 3. Its "Wins" lines give a gammon's worth without the
    Jacoby rule, its score lines with it; no header names the rule."""
    match = read_mat(DATA / "gnubg_money.mat")
    assert match.length == 0 and match.score == (10, 3)
    # No header says: gnubg's default (the Jacoby rule), which its score lines bear out, and
    # beavers, since there are some.
    assert match.rules.jacoby and match.rules.beavers
    assert sum(game.result is not None for game in match.games) == 6
    reasons = {game.result.reason for game in match.games if game.result}
    assert reasons == {"bear off", "drop", "resign"}
    beavered = [game for game in match.games if any(e.action is Action.BEAVER for e in game.events)]
    assert len(beavered) == 2


# Jellyfish and other writers


JELLYFISH = "\r\n".join(
    [
        " 3 point match",
        "",
        "",
        " Game 1",
        " Jelly Fish : 0                 Anne Marie : 0",
        "  1)                            25: 13/6",
        "  2) 52: 13/8 13/11             53: 8/3 6/3",
        "  3) 64: 8/2 8/4                51: 24/23 23/18",
        "  4) 51: bar/24 13/8            Doubles => 2",
        "  5)  Drops                     Wins 1 point",
        "",
        " Game 2",
        " Jelly Fish : 0                 Anne Marie : 1",
        "  1) 43: 6/2 24/21              52: 8/3 8/6",
        "  2) 62: 21/15 13/11            54: 6/1 13/9",
        "  3) 54: bar/21 15/10           64: 9/3 6/2",
        "  4) 22: 13/11(3) 8/6           62: 13/7 24/22",
        "",
        "  5) 54: 13/8 11/7              61: 8/1",
        "  6) 61: 8/2 10/9               52: 7/2 13/11",
        "  7) 31: 8/5 21/20              Doubles => 2",
        "  8)  Takes                     31: 11/8 13/12",
        "  9) 54: 6/1 9/5                64: bar/21 8/2",
        " 10) 64: 20/10                  46: 22/16 6/2",
        " 11) 54: 7/2 10/6               32: 16/13 3/1",
        " 12) 11: 11/9 5/4(2)            42: ",
        " 13) 32: 6/3 6/4                64:",
        " 14)  Doubles => 4              Takes",
        " 15) 63: 9/3 11/8               54: bar/20 6/2",
        " 16) 54: 6/1 11/7               53: 6/1 12/9",
        " 17) 54: 8/3 6/2                52: 6/1 9/7",
        " 18) 63: 8/2 4/1                31: 13/10 13/12",
        " 19) 65: 7/2 6/off              62: 20/14 10/8",
        " 20) 63: 4/off 3/off            55: 14/9 12/7 7/2(2)",
        " 21) 51: 4/off 2/1              Doubles => 8",
        " 22)  Drops                     Wins 4 points and the match",
        "",
    ]
)


def test_a_jellyfish_style_file_is_read() -> None:
    """Hand-written in Jellyfish's style: CRLF, blank lines, names with spaces, 'bar' and
    'off', no hit marks, '(3)', a checker's two dice as one move, dice low first, dances, and
    "and the match"."""
    match = import_mat(JELLYFISH)
    assert match.players == ("Jelly Fish", "Anne Marie")
    assert match.score == (0, 5) and match.is_over
    first, second = match.games
    assert first.plays[0][:2] == (1, (5, 2))  # Anne Marie won the opening roll
    assert first.result is not None and (first.result.reason, first.result.points) == ("drop", 1)
    assert second.plays[21][2] is None and second.plays[23][2] is None  # 42 and 64 dance
    assert second.result is not None and (second.result.winner, second.result.points) == (1, 4)
    assert second.cube_value == 4 and not second.crawford


XG = "\n".join(
    [
        "\ufeff; [Site \"eXtreme Gammon\"]",
        "; [Match ID \"238991235\"]",
        "; [Player 1 \"Jake Jacobs\"]",
        "; [Player 2 \"Hosaka Noriyuki\"]",
        "; [EventDate \"2009.10.03\"]",
        "; [Variation \"Backgammon\"]",
        "; [Unrated \"Off\"]",
        "; [Crawford \"On\"]",
        "; [CubeLimit \"1024\"]",
        "",
        "3 point match",
        "",
        "Game 1",
        "Jake Jacobs : 0                      Hosaka Noriyuki : 0",
        " 1)                                  52: 13/11 11/6",
        " 2) 52: 13/8 13/11                   53: 8/3 6/3",
        " 3) 64: 8/2 8/4",
        "                                     51: 24/23* 23/18",
        " 4) 51: 25/24 13/8                   Doubles => 2",
        " 5)  Takes                           43: ???",
        " 6)  Wins 2 points",
    ]
)


def test_an_extreme_gammon_style_file_is_read() -> None:
    """eXtreme Gammon's layout: a byte order mark, its headers, no leading blanks, wider
    columns, a turn's answer on a line of its own, '???' for a roll before resigning, and the
    winner's line numbered."""
    match = import_mat(XG)
    assert match.players == ("Jake Jacobs", "Hosaka Noriyuki")
    assert match.rules.max_cube == 1024
    game = match.games[0]
    assert len(game.plays) == 6 and game.cube_value == 2
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)
    assert game.result.reason == "resign" and match.score == (2, 0)


def test_a_roll_straight_after_a_double_means_it_was_taken() -> None:
    text = (
        " 0 point match\n Game 1\n A : 0   B : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)                             42: 8/4 6/4\n"  # A took
        "  3)  Doubles => 4                Beavers => 8\n"
        "  4) 61: 13/7 8/7                 Doubles => 16\n"  # A took the beaver
        "  5)  Drops                       Wins 8 points\n"
    )
    match = import_mat(text)
    assert match.rules.beavers  # beavers in the games, and no header against them
    game = match.games[0]
    actions = [event.action.value for event in game.events]
    assert actions[2:] == [
        "double", "take", "roll", "play", "double", "beaver", "take", "roll", "play",
        "double", "drop",
    ]
    assert game.result is not None and (game.result.winner, game.result.points) == (1, 8)


def test_a_double_by_the_doubled_player_is_a_beaver() -> None:
    """GNU Backgammon records a beaver as a second double, and may write it so."""
    text = (
        " 0 point match\n Game 1\n A : 0   B : 0\n"
        "  1) 31: 8/5 6/5                 Doubles => 2\n"
        "  2)  Doubles => 4                Drops\n"
        "                                  Wins 2 points\n"
    )
    game = import_mat(text).games[0]
    assert [event.action.value for event in game.events][3:] == ["beaver", "drop"]
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 2)


@pytest.mark.parametrize("jacoby", [True, False])
def test_the_jacoby_rule_is_read_from_the_score_where_no_header_names_it(jacoby: bool) -> None:
    """A gammon won with the cube in the middle counts one point under the Jacoby rule."""
    match = random_match(0, 0, Rules(jacoby=jacoby), games=40, double_rate=0)
    games = match.games
    gammon = next(
        index
        for index, game in enumerate(games)
        if game.result and game.result.kind is WinKind.GAMMON and game.result.reason == "bear off"
    )
    text = export_mat(match).replace('; [Jacoby "On"]\n', "").replace('; [Jacoby "Off"]\n', "")
    # The file up to the score line after the gammon, whose "Wins" line gives its plain
    # worth, as GNU Backgammon writes it.
    start = text.index(f" Game {gammon + 1}\n")
    end = text.index(f" Game {gammon + 2}\n")
    end = text.index("\n", text.index("\n", end) + 1) + 1
    points = games[gammon].cube_value * 2
    section = re.sub(r"Wins \d+ points?", f"Wins {points} points", text[start:end])
    again = import_mat(text[:start] + section)
    assert again.rules.jacoby is jacoby
    assert again.score == match.scores_before(gammon + 1)


def test_a_missing_wins_line_is_read_from_the_next_score() -> None:
    text = (
        " 3 point match\n Game 1\n A : 0   B : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        " Game 2\n A : 0   B : 2\n"
        "  1) 31: 8/5 6/5\n"
    )
    match = import_mat(text)
    first = match.games[0]
    assert first.result is not None and first.result.kind is WinKind.GAMMON
    assert match.score == (0, 2) and match.games[1].crawford
    assert match.games[1].phase is Phase.ROLL


def test_forced_plays_left_out_are_played() -> None:
    """Some programs write only the dice of a forced play; GNU Backgammon plays it."""
    done = 0
    for seed in range(40):
        if done >= 3:
            break
        match = random_match(400 + seed, 3)
        text = export_mat(match)
        for game in match.games:
            for _seat, dice, play in game.plays:
                if play is None or done >= 3 or len(play.position.legal_plays(dice)) != 1:
                    continue
                entry = f"{max(dice)}{min(dice)}: " + " ".join(
                    f"{s.from_point}/{s.to_point}{'*' if s.hit else ''}" for s in play.steps
                )
                if text.count(entry) == 1:
                    shortened = text.replace(entry, f"{max(dice)}{min(dice)}:")
                    assert summary(import_mat(shortened)) == summary(match)
                    done += 1
    assert done >= 3


# Malformed files


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("just text\n", 1, "no match length line"),
        (" 3 point match\n Game 1\n nothing here\n", 3, "score line"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5  hello there\n", 4,
         "is not a move"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) banana\n", 4, "Cannot read"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4   11:\n", 4,
         "more than two"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 24/18\n", 4, "cannot play '24/18'"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   Takes\n", 4,
         "no double to answer"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   Doubles => 4\n", 4,
         "cube goes to 2"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   42: 8/4 6/4\n"
         "  2) 53: 8/3 6/3   Doubles => 2\n  3) 64: 24/18 13/9   Takes\n", 6,
         "waits for a take or a drop"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
         " Game 2\n A : 0   B : 0\n", 6, "not finished"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
         "      Wins 1 point\n Game 2\n A : 0   B : 1\n", 7, "make the score 1-0"),
        (" 3 point match\n Game 1\n A : 1   B : 0\n", 3, "starts at 1-0"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 33: 8/5 6/3\n", 4,
         "not a legal play with 3-3"),  # a fresh opening roll; the play is illegal
        ("; [Variation \"HyperGammon (2)\"]\n 3 point match\n", 1, "not one this program"),
        ("; [CubeLimit \"3\"]\n 0 point match\n", 1, "power of two"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n; Set Pos=-b----E-C---eE---c-e----B-:0:0:1:00\n",
         4, "set-up position"),
        (" 3 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n      Wins points\n", 5,
         "say how much"),
    ],
)
def test_malformed_files_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(MatFormatError) as caught:
        import_mat(text)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"Line {line}: ")
    assert words in str(caught.value)
    assert isinstance(caught.value, BackgammonError)


def test_what_the_format_cannot_hold_is_refused_on_writing() -> None:
    game = Game(Rules(automatic_doubles=1), ManualDice(["3 3", "6 1"]))
    game.roll(0)
    game.roll(0)
    with pytest.raises(MatFormatError, match="automatic double"):
        export_mat(game)
    start = Position.from_points({6: 2}, {6: 2})
    with pytest.raises(MatFormatError, match="set-up position"):
        export_mat(Game(start=start))


# GNU Backgammon's verdict


def gnubg_import(path: Path, jacoby: bool) -> str:
    """What gnubg says when it imports ``path`` (the command of the shared
    gnubg-import-check script, with the Jacoby setting the file's money games use)."""
    commands = f"set jacoby {'on' if jacoby else 'off'}\nimport mat {path}\nshow score\nquit\ny\n"
    done = subprocess.run(
        [GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=120
    )
    return done.stdout + done.stderr


def gnubg_matches() -> list[Match]:
    matches = []
    for seed in range(16):
        length = 3 if seed % 2 else 5
        rate = (0.02, 0.05, 0.12)[seed % 3]
        matches.append(random_match(1000 + seed, length, double_rate=rate, cut=seed % 5 == 2))
    for seed in range(8):
        rules = Rules(jacoby=seed % 2 == 0, beavers=seed % 4 < 2)
        match = random_match(2000 + seed, 0, rules, games=3, double_rate=0.15, cut=seed == 5)
        matches.append(match)
    return matches


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon (Debian package gnubg) is missing")
def test_gnubg_imports_what_we_write(tmp_path: Path) -> None:
    matches = gnubg_matches()
    games = [game for match in matches for game in match.games]
    actions = {event.action for game in games for event in game.events}
    assert {Action.BEAVER, Action.DROP, Action.ACCEPT, Action.REJECT, Action.PASS} <= actions
    assert {game.result.reason for game in games if game.result} == {"bear off", "drop", "resign"}
    assert any(game.crawford for game in games)
    assert any(game.result is None and game.events for game in games)  # one still going
    paths = []
    for number, match in enumerate(matches):
        path = tmp_path / f"match{number}.mat"
        path.write_text(export_mat(match))
        paths.append(path)
    with ThreadPoolExecutor(8) as pool:
        outputs = list(
            pool.map(gnubg_import, paths, [match.rules.jacoby for match in matches])
        )
    for path, match, output in zip(paths, matches, outputs, strict=True):
        warnings = [
            line
            for line in output.splitlines()
            # The shared gnubg-import-check script's words, and gnubg's complaints about
            # cube actions ("Take record found but doesn't follow a double").
            if re.search(
                r"warning|invalid|error|unknown|unrecognised|doesn't follow", line, re.IGNORECASE
            )
        ]
        assert not warnings, (path.read_text(), warnings)
        scores = re.findall(r"The score \(after \d+ games?\) is: Ann Lee (\d+), Bob (\d+)", output)
        assert scores, output
        assert tuple(map(int, scores[-1])) == match.score, path.read_text()
