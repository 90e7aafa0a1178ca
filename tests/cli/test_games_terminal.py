"""The other games at the terminal (``backgammon play --game NAME``): their boards in text,
each game played to its end against the computer and at one screen, a Tavli match,
Acey-deucey's named double, and every bad input answered with a sentence."""

from __future__ import annotations

import io
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import feed, said

from backgammon.analysis.board_games import analyse_board_games
from backgammon.bot import Level
from backgammon.bot.games import accepts_resignation, games_player, judge_doubles
from backgammon.cli import main
from backgammon.cli.display import game_board_text
from backgammon.cli.games import OTHER_GAMES, new_game, title
from backgammon.cli.interactive import Session
from backgammon.cli.setup import SessionOptions
from backgammon.dice import DiceSource, ManualDice, SeededDice
from backgammon.errors import BackgammonError
from backgammon.formats.ids import setup_from_id
from backgammon.game import BoardGame, BoardMatch, Phase, Rules
from backgammon.games import TAVLI, Board, rules_for

AGAINST_THE_COMPUTER: dict[str, Any] = {
    "players": ("human", "computer"), "names": ("White", "Computer"),
}


def session(game: str, dice: DiceSource | None = None, **setup: Any) -> Session:
    """A started table playing ``game``, money play unless ``setup`` gives a length
    (manual dice unless ``dice``)."""
    options = SessionOptions(rules=Rules.for_game(game), **setup)
    table = Session(io.StringIO(), ManualDice() if dice is None else dice, options)
    table.start()
    return table


def person(table: Session) -> str:
    """A person's line for any moment of these games: roll, the first legal play, the
    double 6 after a 1-2, accept a resignation."""
    replies = {Phase.MOVE: "1", Phase.NAME: "name 6", Phase.RESIGN: "accept"}
    return replies.get(table.game.phase, "")


def play_out(table: Session, until: Callable[[], bool]) -> None:
    """Let a person answer every moment (:func:`person`) until ``until()``."""
    for _ in range(5000):
        if until():
            return
        table.handle(person(table))
    raise AssertionError("The game did not end.")


def first_game_over(table: Session) -> Callable[[], bool]:
    match = table.match
    assert match is not None
    return lambda: match.games[0].result is not None


def board_game(table: Session) -> BoardGame:
    game = table.game
    assert isinstance(game, BoardGame)
    return game


# The boards


def test_fevga_draws_both_sides_travelling_the_same_way_round() -> None:
    # The player on roll (O) has moved one checker 24/13; the opponent's head, their 24-point,
    # is O's 12-point (bottom left), and their checker moved to their 13 is on O's 1-point.
    board = Board.from_points({24: 14, 13: 1}, {24: 14, 13: 1})
    text = game_board_text(board, rules_for("fevga"), "O", (6, 5))
    assert text == "\n".join([
        " +13-14-15-16-17-18-+---+19-20-21-22-23-24-+",
        " | O                |   |                O |",
        " |                  |   |                O |",
        " |                  |   |                O |",
        " |                  |   |                O |",
        " |                  |   |                14|",
        " |                  |BAR|                  |  X off 0",
        " |                  |   |                  |  O off 0",
        " | 14               |   |                  |",
        " | X                |   |                  |",
        " | X                |   |                  |",
        " | X                |   |                  |",
        " | X                |   |                X |",
        " +12-11-10--9--8--7-+---+-6--5--4--3--2--1-+",
        "  O on roll, dice 6-5, pips 349; X pips 349",
        "  Both travel the same way round: X starts on O's 12-point.",
    ])


def test_long_nardy_from_the_other_side_swaps_the_letters_not_the_way_round() -> None:
    game = rules_for("long-nardy")
    board = Board.from_points({24: 14, 18: 1}, {24: 15})
    text = game_board_text(board, game, "X").splitlines()
    # X's checkers on its 24- and 18-points (top right, top left's last), O's head on X's 12.
    assert text[1] == " |                X |   |                X |"
    assert text[12] == " | O                |   |                  |"
    assert text[-2] == "  X on roll, pips 354; O pips 360"
    assert text[-1] == "  Both travel the same way round: O starts on X's 12-point."


def test_plakoto_draws_a_pinned_checker_small_under_the_pinner() -> None:
    # O (on roll) pins X's checker on X's 20-point (O's 5) with one checker; X pins O's
    # checker on O's 18 (X's 7) with two.
    board = Board.from_points({24: 13, 18: 1, 5: 1}, {24: 12, 20: 1, 7: 2},
                              mine_pinned=[18], theirs_pinned=[20])
    text = game_board_text(board, rules_for("plakoto"), "O").splitlines()
    column = {18: 18, 5: 29}  # where the mark of each point's checker stands
    assert text[1][column[18]] == "o" and text[2][column[18]] == "X" \
        and text[3][column[18]] == "X"
    assert text[12][column[5]] == "x" and text[11][column[5]] == "O"
    assert text[-1] == "  o, x: a pinned checker, under the pinner's."
    assert "bar" not in "\n".join(text)  # Plakoto sends no checker to the bar


def test_acey_deucey_shows_the_checkers_waiting_to_enter_apart_from_the_hit_ones() -> None:
    board = Board.from_points({23: 2, 25: 1}, {20: 1}, mine_waiting=12, theirs_waiting=14)
    text = game_board_text(board, rules_for("acey-deucey"), "O").splitlines()
    assert text[6].endswith("|  X bar 0  to enter 14  off 0")
    assert text[7].endswith("|  O bar 1  to enter 12  off 0")
    assert text[-1] == f"  O on roll, pips {2 * 23 + 13 * 25}; X pips {20 + 14 * 25}"


# Each game played to its end


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_each_game_is_played_to_its_end_against_the_computer(name: str) -> None:
    table = session(name, SeededDice(11), **AGAINST_THE_COMPUTER, seed=11, length=1)
    match = table.match
    assert match is not None
    play_out(table, lambda: match.is_over)
    result = match.games[0].result
    assert result is not None and len(match.games) == 1
    output = said(table)
    assert output.startswith(
        f"{title(name)}: a 1-point match, White against Computer (intermediate)."
    )
    assert "White plays " in output and "Computer plays " in output
    assert re.search(r"^Game 1: .*(wins|draw).*\.$", output, re.MULTILINE)
    assert feed(table, "roll").startswith(
        f"The match is over: {match.players[result.winner]} wins it "
    )
    assert table.prompt() == "over> "


def test_the_computer_plays_the_games_network_at_its_level() -> None:
    # White's 5 against the computer's 6: the computer throws 3-1 afresh and plays it.
    table = session("portes", ManualDice(["5 6", "3 1"]), **AGAINST_THE_COMPUTER,
                    level=Level.ADVANCED)
    output = feed(table, "roll")
    portes = rules_for("portes")
    plays = portes.legal_plays(portes.initial(), (3, 1))
    choice = games_player("portes", Level.ADVANCED).choose(portes, plays, random.Random(0))
    assert f"Computer rolls 3-1.\nComputer plays {choice}.\n" in output
    assert table.prompt() == "White to roll> "


def test_a_game_at_one_screen_is_played_to_its_end_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two people at one keyboard: whoever is on roll rolls, plays the first legal play and
    # names 6-6 after a 1-2; the seed repeats the dice.
    outputs = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\nname 6\n" * 400))
        assert main(["play", "--game", "acey-deucey", "--seed", "5"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    output = outputs[0]
    assert output.startswith("Acey-deucey: money play, White against Black.")
    assert "White plays " in output and "Black plays " in output
    assert re.search(r"^Game 1: (White|Black) wins a (single game|gammon|backgammon): "
                     r"[123] points?\.$", output, re.MULTILINE)
    assert "\nScore: White " in output and "\nGame 2 begins.\n" in output  # game after game
    assert output.endswith("Goodbye.\n")


def test_long_nardy_against_the_computer_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\n" * 1500))
    assert main(["play", "--game", "long-nardy", "--computer", "--colour", "black",
                 "--seed", "2", "--match-length", "1"]) == 0
    output = capsys.readouterr().out
    assert output.startswith(
        "Long Nardy: a 1-point match, Computer (intermediate) against Black."
    )
    assert "Both travel the same way round" in output
    won = re.search(r"^Game 1: (Computer|Black) wins a (single game|gammon): ([12]) points?\.$",
                    output, re.MULTILINE)
    assert won is not None
    assert f"The match is over: {won[1]} wins it {won[3]}-0." in output


def test_a_tavli_match_plays_portes_plakoto_and_fevga_in_turn() -> None:
    table = session("portes", SeededDice(8), **AGAINST_THE_COMPUTER, seed=8, length=5,
                    rotation=TAVLI)
    match = table.match
    assert isinstance(match, BoardMatch)
    play_out(table, lambda: match.is_over)
    output = said(table)
    assert output.startswith("Tavli (Portes, Plakoto and Fevga in turn): a 5-point match, "
                             "White against Computer (intermediate).")
    names = [game.game.name for game in match.games]
    assert len(names) >= 3 and names == [TAVLI[i % 3] for i in range(len(names))]
    assert "\nGame 2 begins: Plakoto.\n" in output and "\nGame 3 begins: Fevga.\n" in output
    assert "Crawford" not in output  # no cube, no Crawford game
    assert match.winner is not None and max(match.score) >= 5
    assert f"The match is over: {match.players[match.winner]} wins it " in output


# Acey-deucey's 1-2


def test_after_a_1_2_the_player_names_a_double_plays_it_and_rolls_again() -> None:
    table = session("acey-deucey")
    feed(table, "65")  # White's 6 against Black's 5: White throws both dice afresh
    output = feed(table, "21\n1")
    assert "White rolls 2-1." in output and "White plays bar/23 bar/24." in output
    assert output.rstrip().endswith(
        "White played 1-2: name the double to play now (name 1 to name 6), then roll again."
    )
    assert table.prompt() == "White to name a double> "
    assert feed(table, "name 9") == "Name the double by its number, 1 to 6: name 4 plays 4-4.\n"
    assert feed(table, "name") == "Name the double by its number, 1 to 6: name 4 plays 4-4.\n"
    output = feed(table, "4")
    assert "White names 4-4." in output and "White to play 4-4:" in output
    output = feed(table, "1")
    assert re.search(r"^White plays .*\.$", output, re.MULTILINE)
    assert table.prompt() == "White to roll> "  # the same player throws again
    assert feed(table, "name 3") == (
        "A double is named only in Acey-deucey, after playing a 1-2.\n"
    )


def test_the_computer_names_its_double_after_a_1_2() -> None:
    table = session("acey-deucey", **AGAINST_THE_COMPUTER)
    feed(table, "56")  # the computer's 6 wins the opening; it waits for its dice
    assert table.prompt() == "Computer's dice> "
    output = feed(table, "12")
    assert "Computer rolls 1-2." in output
    named = re.search(r"^Computer names (\d)-\1\.$", output, re.MULTILINE)
    assert named is not None
    assert table.prompt() == "Computer's dice> "  # played its double, it throws again
    assert board_game(table).on_roll == 1


# Hints


def test_a_hint_ranks_the_plays_with_equities_and_reasons() -> None:
    table = session("portes")
    feed(table, "65\n31")  # White won the opening, threw 3-1: White to move
    game = board_game(table)
    events, prompt = len(game.events), table.prompt()
    lines = feed(table, "hint").splitlines()
    assert lines[0] == "Hint for White's 3-1 (the computer at 1-ply), the best play first:"
    numbers = {str(play): n for n, play in enumerate(game.turn.plays, 1)}
    best = re.match(r"^ +(\d+)\. 8/5 6/5 +\+\d\.\d{3}$", lines[1])
    assert best is not None and int(best[1]) == numbers["8/5 6/5"]
    assert lines[2].startswith("       Why: makes your 5-point; fewer blots in direct reach")
    assert re.match(r"^ +\d+\. \S.* [+-]\d\.\d{3}  \(\d\.\d{3} behind\)$", lines[3])
    assert lines[-2:] == ["Numbers as in the list of legal plays. Equity: points a game, "
                          "without the cube.", "Type a play (like 8/5 6/5) or its number."]
    assert len(game.events) == events and table.prompt() == prompt  # nothing changed


def test_a_hint_ranks_the_doubles_to_name_after_a_1_2() -> None:
    table = session("acey-deucey")
    feed(table, "65\n21\n1")  # White plays a 1-2 and names a double
    lines = feed(table, "hint").splitlines()
    assert lines[0] == ("Hint for White's double to name (the computer at 1-ply), the best "
                        "first:")
    dice = [int(line.split("-")[0]) for line in lines[1:7]]
    assert sorted(dice) == [1, 2, 3, 4, 5, 6] and "behind" not in lines[1]
    assert lines[-1] == f"Type name {dice[0]} to name the best."
    named = games_player("acey-deucey", Level.WORLD_CLASS).name_double(
        rules_for("acey-deucey"), board_game(table).position, random.Random(0))
    assert dice[0] == named


@pytest.mark.parametrize(("lines", "answer"), [
    ("", "No hint now: the opening roll needs no decision; type roll."),
    ("65\n31\n1", "No hint now: Black has nothing to decide before the roll; ask again "
     "once the dice are in."),
])
def test_no_hint_where_there_is_nothing_to_decide(lines: str, answer: str) -> None:
    table = session("plakoto")
    feed(table, lines)
    assert feed(table, "hint") == answer + "\n"


def test_a_hint_says_whether_to_accept_a_resignation() -> None:
    table = session("plakoto")
    feed(table, "65\n31\nresign")
    lines = feed(table, "hint").splitlines()
    assert lines == ["Resignation hint for Black:",
                     "  The offer gives a single game; the board can still give a gammon.",
                     "Best now: reject and play on."]


# Analysis


def test_a_saved_match_is_analysed_by_the_games_engine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 1-point Plakoto match, a person (the first legal play each turn) against the
    computer, saved and analysed: every decision of the person's judged, the computer's
    own choices (at its level, 0-ply) all the best at 0-ply."""
    table = session("plakoto", SeededDice(11), **AGAINST_THE_COMPUTER, seed=11, length=1,
                    level=Level.ADVANCED)
    match = table.match
    assert match is not None
    play_out(table, lambda: match.is_over)
    path, out = tmp_path / "plakoto.json", tmp_path / "analysis.json"
    feed(table, f"save {path}")
    assert main(["analyse", str(path), "--plies", "0", "--json", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[:2] == ["Analysis at 0-ply: losses in points a game, without the cube.",
                         "Error rates: thousandths of a point a decision."]
    data = json.loads(out.read_text())
    assert [player["name"] for player in data["players"]] == ["White", "Computer"]
    computer = data["players"][1]
    assert computer["decisions"] > 10 and computer["loss"] == 0
    person = data["players"][0]
    assert person["decisions"] > 10 and person["loss"] > 0
    assert person["error_rate"] == pytest.approx(1000 * person["loss"] / person["decisions"])
    marked = [d for d in data["decisions"] if d["mark"]]
    assert all(d["seat"] == 0 and d["played"] != d["best"] for d in marked)
    assert lines[-2].startswith(f"White: {person['decisions']} decisions, ")
    assert lines[-1].startswith(f"Computer: {computer['decisions']} decisions, 0.000 points")
    assert len(lines) == 4 + len(marked)


def test_what_the_other_games_analysis_refuses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = new_game("tavla", ManualDice(["6 5"]))
    game.roll(0)
    path = tmp_path / "tavla.json"
    path.write_text(game.to_json())
    with pytest.raises(SystemExit) as exited:
        main(["analyse", str(path), "--html", str(tmp_path / "out.html")])
    assert exited.value.code == 2
    assert capsys.readouterr().err.endswith(
        "The HTML report and rollouts are backgammon's: the other games' analysis is written "
        "as text and --json.\n")
    assert not (tmp_path / "out.html").exists()
    assert main(["analyse", str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "White: 0 decisions, 0.000 points lost, error rate 0.0; 0 doubtful, 0 bad, 0 very bad.",
        "Black: 0 decisions, 0.000 points lost, error rate 0.0; 0 doubtful, 0 bad, 0 very bad.",
    ]


def test_analysis_of_a_1_2_judges_the_double_named() -> None:
    game = new_game("acey-deucey", ManualDice(["6 5", "2 1"]))
    game.roll(0)
    game.roll(0)
    assert game.turn is not None
    game.play(0, str(game.turn.plays[0]))
    assert game.phase is Phase.NAME
    board = game.position  # the namer's
    game.name(0, 1)
    assert game.turn is not None
    game.play(0, str(game.turn.plays[0]))
    analysis = analyse_board_games([game], plies=1)
    named = [d for d in analysis.decisions if d.kind == "name"]
    best = judge_doubles(game.game, board, plies=1)[0]
    assert [(d.seat, d.played, d.best) for d in named] == [(0, "1-1", f"{best.die}-{best.die}")]
    assert named[0].loss == pytest.approx(best.equity - named[0].played_equity)


# Resignations, save and load


def test_the_computer_accepts_a_resignation_of_all_the_game_can_still_give() -> None:
    table = session("plakoto", **AGAINST_THE_COMPUTER)
    feed(table, "65\n42")
    output = feed(table, "resign")
    assert "Computer rejects the resignation: the game goes on.\n(The computer accepts no less " \
        "than the game can still give it: a gammon.)" in output
    output = feed(table, "resign gammon")
    assert "Computer accepts the resignation." in output
    assert "Game 1: White resigned a gammon: Computer wins 2 points." in output


def test_accepting_depends_on_what_the_loser_can_still_lose() -> None:
    game = new_game("acey-deucey", ManualDice(["6 5"]))
    game.roll(0)
    game.resign(0, 2)
    assert not accepts_resignation(game)  # every checker still waits: a backgammon is possible
    game.reject(1)
    game.resign(0, 3)
    assert accepts_resignation(game)


def test_a_game_is_saved_and_loaded_as_json(tmp_path: Path) -> None:
    table = session("fevga", SeededDice(3), **AGAINST_THE_COMPUTER, seed=3, length=3)
    feed(table, "\n1\n\n1")
    path = tmp_path / "fevga.json"
    assert feed(table, f"save {path}") == f"Saved the match to {path}.\n"
    other = session("plakoto", SeededDice(3), **AGAINST_THE_COMPUTER, seed=3)
    output = feed(other, f"load {path}")
    assert output.startswith(f"Loaded {path}.\nScore: White 0, Computer 0 (match to 3).\n")
    assert "Both travel the same way round" in output  # a Fevga board
    assert other.record.to_json() == table.record.to_json()
    assert board_game(other).game.name == "fevga"
    play_out(other, first_game_over(other))  # and plays on


def test_a_lone_game_saved_from_python_is_loaded_and_played(tmp_path: Path) -> None:
    game = new_game("acey-deucey", SeededDice(6))
    game.roll(0)
    path = tmp_path / "acey-deucey.json"
    path.write_text(game.to_json())
    table = session("tavla", SeededDice(6), **AGAINST_THE_COMPUTER)
    assert feed(table, f"load {path}").startswith(f"Loaded {path}.\n")
    assert table.match is None and board_game(table).game.name == "acey-deucey"
    assert feed(table, "score") == "One game, loaded on its own: no cube.\n"
    play_out(table, lambda: table.game.result is not None)
    assert feed(table, "roll").startswith("The game is over. ")


# Bad input


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("24/1", "That is not a legal play of 3-1 here; the plays are: "),
        ("99", "There is no play 99: choose 1 to "),
        ("frobnicate", "Unknown command 'frobnicate': type a play (like 8/5 6/5), its number, "
         "or help."),
        ("name 3", "A double is named only in Acey-deucey, after playing a 1-2."),
        ("id", "Plakoto has no position ID: GNU Backgammon's IDs and XGIDs describe "
         "backgammon. save FILE keeps the game as JSON."),
        ("export game.mat", "A .mat file holds backgammon only; GNU Backgammon's formats have "
         "no Plakoto. save FILE keeps the match as JSON."),
        ("resign backgammon", "This game scores no backgammon: offer a single game or a "
         "gammon."),
        ("resign twice", "Resign what? Type resign, resign gammon or resign backgammon."),
        ("load /no/such/file.json", "Cannot read /no/such/file.json: No such file or "
         "directory."),
        ("24/21 21/20 20/19 19/18 18/17", "A turn has at most four steps."),
    ],
)
def test_bad_input_is_answered_with_a_sentence_and_changes_nothing(
    line: str, answer: str
) -> None:
    table = session("plakoto")
    feed(table, "65\n31")  # White won the opening, threw 3-1: White to move
    game = board_game(table)
    events, prompt = len(game.events), table.prompt()
    output = feed(table, line)
    assert output.startswith(answer)
    assert output.count("\n") == 1 and "Traceback" not in output
    assert len(game.events) == events and table.prompt() == prompt == "White to move 3-1> "


def test_the_cube_is_refused_in_a_game_without_one() -> None:
    table = session("tavla")
    feed(table, "65")
    assert feed(table, "double") == "The cube is not used in this game.\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--game", "plakoto", "--jacoby"],
         "--game plakoto is played by its own rules: --jacoby is backgammon's. Leave them "
         "out."),
        (["play", "--game", "tavli", "--variant", "nackgammon", "--no-cube"],
         "--variant, --cube are backgammon's"),
        (["play", "--game", "fevga", "--position", "4HPwATDgc/ABMA"],
         "--position is backgammon's"),
        (["play", "--game", "chess"], "invalid choice: 'chess'"),
    ],
)
def test_bad_game_arguments_end_with_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert message in error and "Traceback" not in error


def test_the_set_up_refuses_a_position_or_a_rotation_it_cannot_play() -> None:
    with pytest.raises(BackgammonError, match="a position ID is backgammon's"):
        SessionOptions(rules=Rules.for_game("portes"),
                       start=setup_from_id("4HPwATDgc/ABMA"))
    with pytest.raises(BackgammonError, match="the rules those of the first"):
        SessionOptions(rotation=TAVLI)
