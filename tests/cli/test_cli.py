"""The command line: games and matches at the interactive table driven by scripts, and the
subcommands."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Iterable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from support import feed, said

from backgammon import Position
from backgammon.bot import Bot
from backgammon.cli import main
from backgammon.cli.display import board_text
from backgammon.cli.interactive import Session, run
from backgammon.cli.setup import SessionOptions
from backgammon.dice import Dice, DiceSource, ManualDice, SeededDice
from backgammon.errors import BackgammonError, InvalidPositionError
from backgammon.formats.ids import IdSetting, gnubg_id_of, setup_from_id
from backgammon.game import Game, Phase, Rules, SetUp
from backgammon.game.match import Match

START = "4HPwATDgc/ABMA"
AFTER_31 = Position.initial().parse_play("8/5 6/5", (3, 1)).result
# Seat 0 (White) to roll with checkers on the 6 and 1 points; Black has 14 on its 13 and a blot
# on its 20 (White's 5 point), inside White's home board, and nothing borne off.
LATE_BEAROFF = Position.from_points({6: 1, 1: 1}, {20: 1, 13: 14})
# The player on roll has a checker on the bar and the opponent's home board is closed.
_ON_THE_BAR: dict[int | str, int] = {"bar": 1, 6: 14}
CLOSED_OUT = Position.from_points(_ON_THE_BAR, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3})
# A bear-off, the player on roll 9 checkers (45 pips) against 10 (48): a double and a take
# (the exact bearoff table's, at every level).
DOUBLE_TAKE = Position.from_points({6: 3, 5: 3, 4: 3}, {6: 3, 5: 3, 4: 3, 3: 1})
# The player on roll has one checker off and 14 on the 6 point; the opponent bears off its
# last checker next: a single game lost for sure.
SURELY_LOST = Position.from_points({6: 14}, {1: 1})
SEVEN_POINTS = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:7:10"
AGAINST_THE_COMPUTER: dict[str, Any] = {
    "players": ("human", "computer"),
    "names": ("White", "Computer"),
}


def set_up(position: Position) -> IdSetting:
    """A first game set up at ``position``, seat 0 (White) to roll: what a Position ID says."""
    return IdSetting(SetUp(position))


def session(dice: DiceSource | None = None, **setup: Any) -> Session:
    """A started session on ``dice`` (by default manual dice, typed at the prompt)."""
    table = Session(io.StringIO(), ManualDice() if dice is None else dice, SessionOptions(**setup))
    table.start()
    return table


def drive(script: str, dice: Iterable[Dice | str] = (), **setup: Any) -> tuple[int, str]:
    """Run the whole loop on ``script`` with manual dice (``dice`` queued for ``roll``); the
    exit status and everything it wrote."""
    out = io.StringIO()
    status = run(io.StringIO(script), out, ManualDice(dice), options=SessionOptions(**setup))
    return status, out.getvalue()


def answer(table: Session) -> str:
    """A person's line for any moment of a game: roll, the first legal play, take, accept."""
    replies = {Phase.MOVE: "1", Phase.CUBE: "take", Phase.RESIGN: "accept"}
    return replies.get(table.game.phase, "")


def load_set_up(table: Session, tmp_path: Path, position: Position, on_roll: int) -> str:
    """Load, into ``table``, a game set up at ``position`` with ``on_roll`` to roll or double;
    what the session wrote."""
    path = tmp_path / "set-up.json"
    path.write_text(Game(setup=SetUp(position, on_roll=on_roll)).to_json())
    return feed(table, f"load {path}")


#: A row of a play hint: its number in the list of legal plays, the play, its equity.
_HINT_ROW = re.compile(r"^ +(\d+)\. (\S.*?) +([+-]\d\.\d{3})(?:  \(\d\.\d{3} behind\))?$")


def hinted_plays(output: str) -> list[tuple[int, str, str]]:
    """The rows of the play hint in ``output``: number, play and equity."""
    rows = [_HINT_ROW.match(line) for line in output.splitlines()]
    return [(int(row[1]), row[2], row[3]) for row in rows if row]


def lines_after(output: str, marker: str) -> list[str]:
    """The lines written after the first line that contains ``marker``."""
    lines = output.splitlines()
    index = next(i for i, line in enumerate(lines) if marker in line)
    return lines[index + 1 :]


# The start and the opening roll


def test_start_shows_the_board_and_waits_for_the_opening_roll() -> None:
    status, output = drive("")
    assert status == 0
    assert output.startswith(
        "Backgammon (standard): money play, White against Black. Type help for the commands.\n"
    )
    assert str(Position.initial()) in output
    assert "  O White; X Black; cube 1 in the middle" in output
    assert "Opening roll: enter the two dice, White's die first (like 52)" in output
    assert output.endswith("opening roll> \nGoodbye.\n")  # the end of the input leaves like quit


@pytest.mark.parametrize("text", ["31", "3 1", "3-1", " 3-1 ", "3,1"])
def test_the_opening_dice_are_typed_in_the_usual_ways(text: str) -> None:
    _, output = drive(f"{text}\nquit\n")
    assert "Opening roll: White rolls 3, Black rolls 1: White plays first with 3-1." in output
    assert "White to play 3-1: 16 legal plays." in output
    assert "White to move 3-1> " in output


def test_the_higher_die_plays_first_and_a_tie_rolls_again() -> None:
    # RULES.md, Starting the game: equal numbers roll again; the higher die moves first,
    # playing the two numbers just rolled.
    _, output = drive("33\n26\nquit\n")
    assert "Opening roll: both roll 3; roll again." in output
    assert "Opening roll: White rolls 2, Black rolls 6: Black plays first with 6-2." in output
    # The board is drawn from Black's side, Black's checkers as X.
    assert board_text(Position.initial(), "X") in output
    assert "Black to play 6-2: " in output


def test_roll_and_enter_take_the_next_dice_of_the_source() -> None:
    _, output = drive("roll\n", dice=[(5, 2)])
    assert "White rolls 5, Black rolls 2: White plays first with 5-2." in output
    _, output = drive("\n", dice=[(2, 5)])
    assert "Black plays first with 5-2." in output


def test_physical_dice_must_be_typed_before_rolling() -> None:
    _, output = drive("roll\n\nquit\n")
    assert output.count("No dice have been entered: type the two numbers the dice show.") == 2
    assert output.count("opening roll> ") == 3


@pytest.mark.parametrize("text", ["3", "37", "07", "311", "1 2 3", "6 0"])
def test_bad_dice_say_why_and_change_nothing(text: str) -> None:
    table = session()
    before = gnubg_id_of(table.record)
    output = feed(table, text)
    assert f"{text!r} is not a roll" in output
    assert gnubg_id_of(table.record) == before
    assert table.game.phase is Phase.OPENING and not table.game.events


def test_seeded_dice_cannot_be_typed() -> None:
    table = session(SeededDice(1))
    output = feed(table, "31")
    assert "The dice are rolled here: type roll (or just Enter)." in output
    assert "--manual-dice" in output
    assert not table.game.events


def test_the_automatic_double_of_a_tied_opening() -> None:
    table = session(rules=Rules(automatic_doubles=1))
    output = feed(table, "44\n55\n31")
    assert output.count("Automatic double: the cube is at 2, in the middle.") == 1  # the cap
    assert table.game.cube_value == 2 and table.game.cube_owner is None


def test_the_opening_winner_may_roll_afresh() -> None:
    table = session(rules=Rules(opening_reroll=True))
    output = feed(table, "31\n65")
    assert "White rolls 3, Black rolls 1: White plays first and rolls both dice afresh." in output
    assert "White on roll: enter the dice" in output
    assert "White rolls 6-5." in output
    assert table.game.dice == (6, 5)


# Plays


def test_a_typed_play_passes_the_turn_to_black() -> None:
    _, output = drive("31\n6/5 8/5\nquit\n")
    assert "White plays 8/5 6/5." in output
    assert board_text(AFTER_31, "X") in output  # Black's checkers are X on Black's own board
    assert "Black on roll: enter the dice (like 31, 3 1 or 3-1) or type double." in output
    assert "Black to roll or double> " in output


def test_a_play_by_its_number() -> None:
    plays = AFTER_31.legal_plays((6, 5))
    table = session()
    output = feed(table, "31\n8/5 6/5\n65\n2")
    assert "Black rolls 6-5." in output
    assert f"Black plays {plays[1]}." in output
    assert table.game.position == plays[1].result


def test_an_illegal_play_lists_the_legal_ones_and_changes_nothing() -> None:
    table = session()
    feed(table, "31")
    before = gnubg_id_of(table.record)
    output = feed(table, "8/2\n24/21 24/21\n17\n0\nfoo bar")
    complaint = next(line for line in output.splitlines() if "'8/2'" in line)
    assert "not a legal play with 3-1" in complaint
    assert "24/20" in complaint and "8/5 6/5" in complaint  # it lists the legal plays
    assert "There is no play 17: choose 1 to 16, or type the play." in output
    assert "There is no play 0: choose 1 to 16" in output
    assert "Unknown command 'foo': type a play (like 8/5 6/5), its number, or help." in output
    assert gnubg_id_of(table.record) == before
    assert feed(table, "24/20").startswith("White plays 24/20.")


def test_a_dance_passes_the_turn() -> None:
    table = session(start=set_up(CLOSED_OUT))
    output = feed(table, "64")
    assert "White rolls 6-4." in output
    assert "White dances with 6-4: no checker can move." in output
    assert table.game.on_roll == 1 and table.game.phase is Phase.ROLL


def test_undo_is_refused_honestly() -> None:
    table = session()
    output = feed(table, "31\n8/5 6/5\nundo")
    assert "A play cannot be taken back" in output
    assert table.game.on_roll == 1 and table.game.position == AFTER_31


def test_a_forced_play_is_made_automatically() -> None:
    # Two checkers each on the ace point: any roll but doubles bears both off, the only play.
    table = session(start=set_up(Position.from_points({1: 2}, {1: 2})), length=1,
                    rules=Rules(auto_forced=True))
    output = feed(table, "21\nroll")
    assert "White plays 1/off(2) (the only legal play)." in output
    assert "Game 1: White wins a single game: 1 point." in output
    assert "The match is over: White wins it 1-0." in output
    assert table.prompt() == "over> "


def test_the_rolls_of_a_race_are_made_automatically() -> None:
    race = Position.from_points({6: 1, 5: 1}, {6: 1, 5: 1})
    rules = Rules(auto_race_roll=True, cube=False)
    table = session(ManualDice([(2, 1), (4, 3)]), start=set_up(race), rules=rules)
    output = feed(table, "roll\n6/4 5/4")
    assert "Black rolls 4-3 (rolled for them: the race needs no decision)." in output
    assert table.prompt() == "Black to move 4-3> "


# The cube


def test_double_and_take() -> None:
    table = session()
    output = feed(table, "31\n8/5 6/5\ndouble")
    assert "Black doubles to 2." in output
    assert "White: take or drop? Taking plays on for 2; dropping gives up 1 point." in output
    assert table.prompt() == "White to take or drop> "
    output = feed(table, "take")
    assert "White takes: the cube is at 2, White's." in output
    assert "Black on roll: enter the dice (like 31, 3 1 or 3-1)." in output  # no more double
    assert table.prompt() == "Black to roll> "
    output = feed(table, "double\n65\n1")
    assert "Only the cube's owner may redouble, and the opponent owns it." in output
    assert table.prompt() == "White to roll or double> "  # the owner may redouble
    assert (table.game.cube_value, table.game.cube_owner) == (2, 0)


def test_a_drop_ends_the_game_and_the_score_goes_on() -> None:
    table = session()
    output = feed(table, "31\n8/5 6/5\ndouble\ndrop\nscore")
    assert "White drops." in output
    assert "Game 1: White dropped the double: Black wins 1 point." in output
    assert "Score: White 0, Black 1 (money play)." in output
    assert "Game 2 begins." in output
    assert output.endswith("Score: White 0, Black 1 (money play).\nGame 2: cube 1 in the middle.\n")
    assert table.game.phase is Phase.OPENING
    assert str(Position.initial()) in "\n".join(lines_after(output, "Game 2 begins"))


def test_a_beaver() -> None:
    table = session(rules=Rules(beavers=True))
    output = feed(table, "31\n8/5 6/5\ndouble")
    assert "White: take, drop or beaver? Taking plays on for 2" in output
    output = feed(table, "beaver")
    assert "White beavers: the cube goes to 4 and White keeps it." in output
    assert "Black: take or drop? Taking plays on for 4; dropping gives up 2 points." in output
    output = feed(table, "take")
    assert "Black takes: the cube is at 4, White's." in output


def test_no_beaver_without_the_option_and_no_cube_when_it_is_off() -> None:
    table = session()
    output = feed(table, "31\n8/5 6/5\ndouble\nbeaver")
    assert "A beaver is not allowed here: beavers are off." in output
    assert table.game.phase is Phase.CUBE
    table = session(rules=Rules(cube=False))
    output = feed(table, "31\n8/5 6/5\ndouble")
    assert "The cube is not used in this game." in output
    assert table.prompt() == "Black to roll> "


# Resignations


def test_a_resignation_accepted() -> None:
    table = session()
    output = feed(table, "31\n8/5 6/5\nresign gammon")
    assert "Black offers to resign a gammon." in output
    assert "White: accept or reject Black's resignation of a gammon?" in output
    assert table.prompt() == "White to answer resignation> "
    output = feed(table, "accept")
    assert "White accepts the resignation." in output
    assert "Game 1: Black resigned a gammon: White wins 2 points." in output
    assert "Score: White 2, Black 0 (money play)." in output


def test_a_resignation_rejected_and_a_bad_level() -> None:
    table = session()
    output = feed(table, "31\nresign triple\nresign\nreject")
    assert "Resign what? Type resign, resign gammon or resign backgammon." in output
    assert "White offers to resign a single game." in output
    assert "Black rejects the resignation: the game goes on." in output
    assert table.prompt() == "White to move 3-1> "  # back where it was


# Matches


def test_a_one_point_match_played_to_its_end() -> None:
    table = session(SeededDice(5), length=1)
    for _ in range(2000):
        if table.match is None or table.match.is_over:
            break
        table.handle("1" if table.game.phase is Phase.MOVE else "")
    match = table.match
    assert match is not None and match.is_over and match.winner is not None
    assert match.game.result is not None and match.game.result.reason == "bear off"
    winner = ("White", "Black")[match.winner]
    output = said(table)
    assert f"Game 1: {winner} wins a single game: 1 point." in output
    assert f"The match is over: {winner} wins it 1-0." in output
    assert feed(table, "roll").startswith("The match is over")
    assert table.prompt() == "over> "


def test_the_crawford_game_has_no_doubling() -> None:
    table = session(length=3, names=("Alice", "Bob"))
    output = feed(table, "31\nresign gammon\naccept")
    assert "Game 1: Alice resigned a gammon: Bob wins 2 points." in output
    assert "Score: Alice 0, Bob 2 (match to 3)." in output
    assert "Game 2 begins. It is the Crawford game: no doubling." in output
    assert "Crawford game, no doubling; match to 3, score 0-2" in output
    output = feed(table, "31\n8/5 6/5\ndouble")
    assert "No doubling in the Crawford game." in output
    assert table.prompt() == "Bob to roll> "


def test_a_match_without_the_crawford_rule() -> None:
    table = session(length=3, crawford=False)
    output = feed(table, "31\nresign gammon\naccept")
    assert "Rules: no Crawford rule." in said(table)
    assert "Crawford" not in output


# Actions out of turn


@pytest.mark.parametrize(
    ("script", "commands", "messages"),
    [
        (
            "",
            "double\nresign\ntake\n8/5 6/5\naccept",
            [
                "A double is offered at the start of a turn, before rolling",
                "A resignation cannot be offered while the game waits for the opening roll.",
                "There is no double to answer.",
                "No checker can be moved now",
                "There is no resignation to answer.",
            ],
        ),
        (
            "31\n8/5 6/5",
            "take\ndrop\nbeaver\nreject\n13/7 13/8\nroll now\ndouble now",
            [
                "There is no double to answer.",
                "There is no resignation to answer.",
                "No checker can be moved now: the game waits for a roll or a double.",
                "roll takes nothing after it; to enter dice, type them, like 31.",
                "double takes nothing after it.",
            ],
        ),
        (
            "31",
            "double\nroll\n65\ntake",
            [
                "A double is offered at the start of a turn, before rolling; the game waits "
                "for a move.",
                "The dice cannot be rolled now: the game waits for a move.",
                "There is no play 65: choose 1 to 16",
                "There is no double to answer.",
            ],
        ),
        (
            "31\n8/5 6/5\ndouble",
            "roll\n42\ndouble\nresign\n24/20",
            [
                "The dice cannot be rolled now: the game waits for a take or a drop.",
                "A double is offered at the start of a turn",
                "A resignation cannot be offered while the game waits for a take or a drop.",
                "No checker can be moved now: the game waits for a take or a drop.",
            ],
        ),
    ],
)
def test_an_action_out_of_turn_changes_nothing(
    script: str, commands: str, messages: list[str]
) -> None:
    table = session()
    feed(table, script)
    before, events, prompt = gnubg_id_of(table.record), len(table.game.events), table.prompt()
    output = feed(table, commands)
    for message in messages:
        assert message in output
    assert gnubg_id_of(table.record) == before
    assert len(table.game.events) == events
    assert table.prompt() == prompt


def test_dice_typed_while_a_double_waits_are_not_kept() -> None:
    table = session()
    feed(table, "31\n8/5 6/5\ndouble\n42\ntake\n65")
    assert table.game.dice == (6, 5)


def test_no_traceback_for_any_bad_line() -> None:
    script = "\n".join(
        [
            "31",
            "bar/22",
            "8/5(5)",
            "9/5",
            "6/7",
            "24/21*",
            "1 2 3",
            "resign 7",
            "load",
            "save",
            "export",
            "roll now",
            "pass",
            "13/11 13/8 6/5",
            "",
        ]
    )
    status, output = drive(script)
    assert status == 0
    assert "Traceback" not in output
    assert output.count("White to move 3-1> ") == 14  # every line left the turn in place


# The other commands


def test_help_lists_the_commands() -> None:
    _, output = drive("help\nquit\n")
    for command in ("roll", "double", "hint", "take, drop", "beaver",
                    "resign [single|gammon|backgammon]", "accept, reject", "undo", "board", "id",
                    "score", "save FILE", "load FILE", "export FILE", "quit"):
        assert command in output


def test_id_prints_the_gnubg_id_and_the_xgid() -> None:
    table = session(length=7)
    output = feed(table, "31\nid")
    assert "GNU Backgammon ID: 4HPwATDgc/ABMA:MIHlAAAAAAAE\n" in output
    assert "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10\n" in output


def test_board_draws_the_board_again_with_the_plays() -> None:
    table = session()
    output = feed(table, "31\nboard")
    assert output.count(str(Position.initial())) == 1
    assert "White to play 3-1: 16 legal plays." in output


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    first = session(length=5, names=("Alice", "Bob"))
    output = feed(first, f"31\n8/5 6/5\ndouble\ntake\n42\nsave {path}")
    assert f"Saved the match to {path}." in output
    assert json.loads(path.read_text())["players"] == ["Alice", "Bob"]
    second = session(names=("Carol", "Dave"))
    output = feed(second, f"load {path}")
    assert f"Loaded {path}." in output
    assert "Score: Alice 0, Bob 0 (match to 5)." in output
    assert "Bob to play 4-2:" in output
    assert second.record.to_json() == first.record.to_json()
    assert gnubg_id_of(second.record) == gnubg_id_of(first.record)
    feed(second, "1")
    assert second.game.on_roll == 0  # the loaded match goes on


def test_save_and_load_a_match_from_a_position(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = session(start=set_up(LATE_BEAROFF))
    feed(first, f"21\n6/3\nsave {path}")
    second = session()
    output = feed(second, f"load {path}")
    assert isinstance(second.record, Match) and second.record.setup is not None
    assert second.game.position == first.game.position
    assert "Black on roll" in output


def test_load_and_save_errors_change_nothing(tmp_path: Path) -> None:
    table = session()
    feed(table, "31")
    before = table.record.to_json()
    (tmp_path / "bad.json").write_text("not json")
    (tmp_path / "other.json").write_text('{"hello": 1}')
    (tmp_path / "edited.json").write_text(
        json.dumps({**json.loads(before), "games": [[{"action": "take", "player": 0, "time": ""}]]})
    )
    output = feed(
        table,
        f"load {tmp_path / 'missing.json'}\nload {tmp_path / 'bad.json'}\n"
        f"load {tmp_path / 'other.json'}\nload {tmp_path / 'edited.json'}\n"
        f"save {tmp_path / 'no' / 'such' / 'folder.json'}",
    )
    assert f"Cannot read {tmp_path / 'missing.json'}: No such file or directory." in output
    assert "A saved match is not valid JSON" in output
    assert f"{tmp_path / 'other.json'} holds no saved match or game." in output
    assert "Event 1 of game 1 of the saved match: There is no double to answer." in output
    assert "Cannot write" in output
    assert table.record.to_json() == before


def test_export_writes_a_mat_file(tmp_path: Path) -> None:
    mat = pytest.importorskip("backgammon.formats.mat")
    path = tmp_path / "match.mat"
    table = session(length=3, names=("Alice", "Bob"))
    output = feed(table, f"31\n8/5 6/5\ndouble\ndrop\nexport {path}")
    assert f"Exported the match to {path}." in output
    text = path.read_text()
    assert text == mat.export_mat(table.record)
    assert " 3 point match" in text and "31: 8/5 6/5" in text
    assert mat.import_mat(text).score == (0, 1)


def test_export_refuses_what_the_format_cannot_hold(tmp_path: Path) -> None:
    pytest.importorskip("backgammon.formats.mat")
    table = session(start=set_up(LATE_BEAROFF))
    output = feed(table, f"export {tmp_path / 'game.mat'}")
    assert "starts from a set-up position" in output
    assert not (tmp_path / "game.mat").exists()


def test_quit_and_exit_and_end_of_input() -> None:
    for script in ("quit\n31\n", "EXIT\n31\n", ""):
        status, output = drive(script)
        assert status == 0
        assert output.endswith("Goodbye.\n")
        assert "White to play" not in output


# The set-up


def test_an_xgid_sets_up_the_dice_the_cube_and_the_match_score() -> None:
    # Black (XG's top player) to play 5-2, White owning the cube at 2, at 2-1 in a 7-point
    # match.
    table = session(start=setup_from_id(SEVEN_POINTS))
    assert "Backgammon (standard): a 7-point match from " in said(table)
    assert table.prompt() == "Black to move 5-2> "
    assert feed(table, "score") == (
        "Score: White 2, Black 1 (match to 7).\nGame 1: cube 2, White's.\n"
    )
    assert "Black plays 13/11 13/8." in feed(table, "13/8 13/11")
    assert table.prompt() == "White to roll or double> "


def test_a_game_from_a_set_up_position_played_to_the_end() -> None:
    # White bears off its last two checkers while Black still has a checker in White's home
    # board and none borne off: a backgammon. One play typed, one by number.
    table = session(start=set_up(LATE_BEAROFF))
    output = feed(table, "21\n6/3\n65\n13/7 13/8\n31\n1\nroll")
    assert f"Backgammon (standard): money play from {LATE_BEAROFF.id()}:" in said(table)
    assert "White plays 6/3." in output
    assert "Black plays 13/8 13/7." in output
    assert "White plays 3/off 1/off." in output
    assert "Game 1: White wins a backgammon: 3 points." in output
    assert "Game 2 begins." in output  # money play goes on, from the starting position
    assert table.game.position == Position.initial()
    assert feed(table, "score") == (
        "Score: White 3, Black 0 (money play).\nGame 2: cube 1 in the middle.\n"
    )


def test_the_jacoby_rule_counts_an_uncubed_gammon_single() -> None:
    table = session(start=set_up(Position.from_points({1: 1}, {13: 15})), rules=Rules(jacoby=True))
    output = feed(table, "21\n1")
    assert (
        "White wins a gammon: 1 point. (The Jacoby rule counts it single: the cube was never "
        "turned.)" in output
    )


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"names": ("Ann", "ann")}, "two different names"),
        ({"names": ("Ann", " ")}, "two different names"),
        ({"players": ("human", "robot")}, "A seat is played by one of human, computer"),
        ({"players": ("computer", "computer")}, "A person plays at least one seat"),
        (
            {"players": ("human", "computer"), "level": "grandmaster"},
            "The computer's levels are beginner, casual, intermediate, advanced, expert, "
            "strongest, world-class; got 'grandmaster'.",
        ),
        (
            {"start": setup_from_id(SEVEN_POINTS), "length": 3},
            "The ID is of a 7-point match, not a 3-point match",
        ),
    ],
)
def test_a_bad_setup_is_refused(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(BackgammonError, match=message):
        SessionOptions(**setup)


# Against the computer


def test_a_money_game_against_the_computer_to_its_end() -> None:
    table = session(SeededDice(8), seed=8, **AGAINST_THE_COMPUTER)
    match = table.match
    assert match is not None
    first = match.game
    for _ in range(2000):
        if first.result is not None:
            break
        assert table.game.player_to_act != 1  # the computer never waits for the person
        table.handle(answer(table))
    assert first.result is not None
    output = said(table)
    assert "Opening roll: White rolls " in output
    # Every turn of the computer's is said as a person's is, without any input for it.
    turns = [(dice, play) for seat, dice, play in first.plays if seat == 1]
    assert turns
    for dice, play in turns:
        if play is None:
            assert f"Computer dances with {dice[0]}-{dice[1]}: no checker can move." in output
        else:
            assert f"Computer plays {play}." in output
    assert "Computer rolls " in output
    winner = ("White", "Computer")[first.result.winner]
    assert f"Game 1: {winner} " in output
    assert f"Score: White {match.score[0]}, Computer {match.score[1]} (money play)." in output
    assert "Game 2 begins." in output
    assert table.prompt() == "opening roll> "  # the next game waits for the person's roll


def test_a_match_against_the_computer_at_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A person who rolls, plays the first legal play, takes and accepts, to the match's end;
    # the seed repeats the computer's choices as well as the dice.
    outputs = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\ntake\naccept\n" * 300))
        argv = ["play", "--computer", "beginner", "--seed", "4", "--match-length", "1"]
        assert main(argv) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    output = outputs[0]
    assert "a 1-point match, White against Computer (beginner)." in output
    assert "Computer plays " in output
    # A single game, a gammon or a backgammon: the winner's points, the loser's none.
    over = re.search(r"The match is over: (White|Computer) wins it ([123])-0\.", output)
    assert over is not None
    score = (over[2], "0") if over[1] == "White" else ("0", over[2])
    assert f"Score: White {score[0]}, Computer {score[1]} (match to 1)." in output
    assert output.endswith("over> \nGoodbye.\n")


def test_the_computer_doubles_and_the_person_takes(tmp_path: Path) -> None:
    table = session(SeededDice(2), **AGAINST_THE_COMPUTER)
    output = load_set_up(table, tmp_path, DOUBLE_TAKE, on_roll=1)
    assert "Computer doubles to 2." in output
    assert board_text(DOUBLE_TAKE, "X") in output  # the board comes with the double
    assert "White: take or drop? Taking plays on for 2; dropping gives up 1 point." in output
    assert table.prompt() == "White to take or drop> "
    output = feed(table, "take")
    assert "White takes: the cube is at 2, White's." in output
    # The computer goes on with its turn, and the person is on roll.
    assert re.search(r"Computer rolls \d-\d\.\nComputer plays \S", output)
    assert (table.game.cube_value, table.game.cube_owner, table.game.on_roll) == (2, 0, 0)


def test_a_set_up_game_s_first_roll_is_no_opening_roll(tmp_path: Path) -> None:
    table = session(ManualDice(["1 1"]))
    load_set_up(table, tmp_path, DOUBLE_TAKE, on_roll=1)
    output = feed(table, "roll")
    assert output.startswith("Black rolls 1-1.\n")  # not "Opening roll: both roll 1"


def test_the_computer_doubles_and_the_person_drops(tmp_path: Path) -> None:
    table = session(SeededDice(2), **AGAINST_THE_COMPUTER)
    load_set_up(table, tmp_path, DOUBLE_TAKE, on_roll=1)
    output = feed(table, "drop")
    assert "White drops." in output
    assert "Game 1: White dropped the double: Computer wins 1 point." in output
    assert table.prompt() == "over> "


def test_the_computer_answers_a_double(tmp_path: Path) -> None:
    table = session(SeededDice(2), **AGAINST_THE_COMPUTER)
    load_set_up(table, tmp_path, DOUBLE_TAKE, on_roll=0)
    output = feed(table, "double")
    assert "White doubles to 2.\nComputer takes: the cube is at 2, Computer's." in output
    assert table.prompt() == "White to roll> "


def test_the_computer_resigns_and_answers_a_resignation(tmp_path: Path) -> None:
    table = session(SeededDice(2), **AGAINST_THE_COMPUTER)
    output = load_set_up(table, tmp_path, SURELY_LOST, on_roll=1)
    assert "Computer offers to resign a single game." in output
    assert "White: accept or reject Computer's resignation of a single game?" in output
    before = len(table.game.events)
    hint = feed(table, "hint")
    assert hint.startswith("Resignation hint for White (the computer at 2-ply):\n")
    assert "  Accept a single game" in hint and hint.endswith("Best now: accept.\n")
    assert len(table.game.events) == before
    output = feed(table, "accept")
    assert "Game 1: Computer resigned a single game: White wins 1 point." in output
    # The person resigns a backgammon at the start of a game: the computer accepts at once.
    table = session(**AGAINST_THE_COMPUTER)
    output = feed(table, "31\nresign backgammon")
    assert "White offers to resign a backgammon.\nComputer accepts the resignation." in output
    assert "Game 1: White resigned a backgammon: Computer wins 3 points." in output


def test_the_person_types_the_computer_s_physical_dice() -> None:
    table = session(**AGAINST_THE_COMPUTER)
    output = feed(table, "12")
    assert "Opening roll: White rolls 1, Computer rolls 2: Computer plays first with 2-1." in output
    assert "Computer plays " in output
    output = feed(table, "31\n8/5 6/5")
    assert "White plays 8/5 6/5." in output
    assert output.endswith(
        "The computer is on roll and does not double: type the numbers its dice show "
        "(like 31, 3 1 or 3-1).\n"
    )
    assert table.prompt() == "Computer's dice> "
    before, events = gnubg_id_of(table.record), len(table.game.events)
    output = feed(table, "roll\n\ndouble\ntake\n8/5 6/5\nhint")
    assert output.count("It is the computer's turn: type the numbers its dice show") == 5
    assert "No hint now: the game waits for the computer's dice" in output
    assert (gnubg_id_of(table.record), len(table.game.events)) == (before, events)
    output = feed(table, "64")
    assert output.startswith("Computer rolls 6-4.\nComputer plays ")
    assert table.prompt() == "White to roll or double> "


def test_playing_black_against_the_computer() -> None:
    table = session(players=("computer", "human"), names=("Computer", "Black"))
    output = feed(table, "52")
    assert "Opening roll: Computer rolls 5, Black rolls 2: Computer plays first with 5-2." in output
    assert "Computer plays " in output
    assert table.prompt() == "Black to roll or double> "
    table = session(players=("computer", "human"), names=("Computer", "Black"))
    feed(table, "25")
    assert table.prompt() == "Black to move 5-2> "
    assert not table.game.plays  # the computer waits for its turn


# Hints


def test_a_hint_lists_the_best_legal_plays_and_changes_nothing() -> None:
    table = session()
    feed(table, "31")
    before, prompt = gnubg_id_of(table.record), table.prompt()
    output = feed(table, "hint")
    assert output.startswith("Hint for White's 3-1 (the computer at 2-ply), the best play first:")
    assert "Equity: points a game, without the cube." in output
    assert "win " in output and "lose " in output
    rows = hinted_plays(output)
    legal = Position.initial().legal_plays((3, 1))
    assert 1 <= len(rows) <= 5
    for number, play, _ in rows:
        assert str(legal[number - 1]) == play  # numbered as in the list of legal plays
    equities = [float(equity) for _, _, equity in rows]
    assert equities == sorted(equities, reverse=True)  # the best first
    assert (gnubg_id_of(table.record), table.prompt()) == (before, prompt)
    number, play, _ = rows[0]
    assert feed(table, str(number)).startswith(f"White plays {play}.")


def test_a_hint_says_why() -> None:
    table = session()
    output = feed(table, "31\nhint")
    rows = output.splitlines()
    best = next(i for i, line in enumerate(rows) if _HINT_ROW.match(line))
    assert rows[best + 2].startswith("       Why: makes your 5-point; safe: no blot can be hit")
    output = feed(table, "8/5 6/5\nhint")  # Black's cube decision, said to Black
    assert re.search(r"^Why: not strong enough to double: you win \d+%", output, re.MULTILINE)
    output = feed(table, "double\nhint")  # White's answer
    assert re.search(r"^Why: a take: you win \d+%, you need \d+%", output, re.MULTILINE)


def test_a_cube_hint_before_the_roll_and_when_doubled() -> None:
    # After White's good 3-1 Black is the underdog: a double would be beavered.
    table = session(rules=Rules(beavers=True))
    output = feed(table, "31\n8/5 6/5\nhint")
    assert "Cube hint on Black's double (the computer at 2-ply):" in output
    for choice in ("No double", "Double, take", "Double, drop"):
        assert re.search(rf"^  {choice} +[+-]\d\.\d{{3}}$", output, re.MULTILINE)
    assert re.search(r"^  Cubeless: win \d+\.\d% \(G \d+\.\d%, BG", output, re.MULTILINE)
    assert "Equities and chances are Black's; equities in points per unit of the cube" in output
    assert "Right cube action: no double, beaver. Best now: roll without doubling." in output
    output = feed(table, "double\nhint")
    assert "Cube hint on Black's double" in output
    assert output.endswith("Best now: beaver.\n")
    assert table.game.phase is Phase.CUBE and table.game.offer is not None
    # The doubler answers the beaver, on the terms of the double.
    output = feed(table, "beaver\nhint")
    assert re.search(r"Cube hint on Black's double .*Best now: (take|drop)\.\n$", output, re.DOTALL)
    assert table.prompt() == "Black to take or drop> "
    # Without beavers, the same double is a take.
    table = session()
    output = feed(table, "31\n8/5 6/5\ndouble\nhint")
    assert output.endswith("Right cube action: no double, take. Best now: take.\n")


def test_match_hints_are_the_match_s(tmp_path: Path) -> None:
    table = session(length=5)
    output = feed(table, "31\n8/5 6/5\nhint")
    assert "Equities and chances are Black's; equities in the chances of winning the match." in (
        output
    )
    assert re.search(r"^  No double +\d+\.\d%$", output, re.MULTILINE)
    output = feed(table, "42\nhint")
    assert "Equity: the chance of winning the match, scaled to +1 a single game won" in output
    game = table.game
    assert game.dice is not None
    expected = Bot(level="strongest").hints(game.position, game.dice, 5, game.cube_context(1))
    assert [(play, equity) for _, play, equity in hinted_plays(output)] == [
        (str(hint.play), f"{hint.equity:+.3f}") for hint in expected
    ]


def test_a_hint_against_the_computer() -> None:
    table = session(SeededDice(8), seed=8, **AGAINST_THE_COMPUTER)
    for _ in range(200):
        if table.game.phase is Phase.MOVE:
            break
        table.handle(answer(table))
    output = feed(table, "hint")
    game = table.game
    assert game.dice is not None and game.on_roll == 0
    legal = game.position.legal_plays(game.dice)
    rows = hinted_plays(output)
    assert rows and all(str(legal[number - 1]) == play for number, play, _ in rows)


@pytest.mark.parametrize(
    ("script", "answer_"),
    [
        ("", "No hint now: the opening roll needs no decision; type roll."),
        ("31\n8/5 6/5\ndouble\ntake",
         "No hint now: Black may not double, so there is nothing to decide before the roll; "
         "ask again once the dice are in."),
        ("31\nresign\naccept", "No hint now: The match is over: Black wins it 1-0."),
        ("31\nhint now", "hint takes nothing after it."),
    ],
)
def test_no_hint_when_there_is_nothing_to_hint(script: str, answer_: str) -> None:
    table = session(length=1) if "resign" in script else session()
    feed(table, script.removesuffix("\nhint now"))
    before, events, prompt = gnubg_id_of(table.record), len(table.game.events), table.prompt()
    output = feed(table, "hint now" if script.endswith("hint now") else "hint")
    assert output.startswith(answer_)
    assert output.count("\n") == 1
    assert (gnubg_id_of(table.record), len(table.game.events), table.prompt()) == (
        before, events, prompt
    )


# The command line


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        ([], "Backgammon (standard): money play, White against Black."),
        (["play"], "Backgammon (standard): money play"),
        (["--variant", "nackgammon"], "Backgammon (nackgammon): money play"),
        (["play", "--variant", "hypergammon"], str(Position.initial("hypergammon"))),
        (
            ["play", "--match-length", "5", "--names", "Ann", "Bo"],
            "a 5-point match, Ann against Bo",
        ),
        (["play", "--position", CLOSED_OUT.id()], f"money play from {CLOSED_OUT.id()}:"),
        (["play", "--position", SEVEN_POINTS], "a 7-point match from "),
        (
            ["play", "--jacoby", "--beavers", "--automatic-doubles", "1", "--max-cube", "64",
             "--opening-reroll", "--auto-forced", "--auto-race-roll"],
            "Rules: Jacoby rule, beavers, automatic doubles (at most 1 a game), cube up to 64, "
            "the opening roll's winner rolls afresh, forced plays made automatically, automatic "
            "rolls in a race.",
        ),
        (["play", "--no-cube", "--match-length", "3", "--no-crawford"],
         "Rules: no cube, no Crawford rule."),
        (["play", "--manual-dice"], "Opening roll: enter the two dice"),
        (["play", "--computer"], "money play, White against Computer (intermediate)."),
        (
            ["play", "--computer", "expert", "--colour", "black", "--match-length", "3"],
            "a 3-point match, Computer (expert) against Black.",
        ),
        (
            ["play", "--computer", "beginner", "--names", "Ann", "Bo"],
            "Ann against Bo (the computer, beginner).",
        ),
        (["play", "--seed", "7"], "Opening roll: type roll"),
    ],
)
def test_play_and_its_options(
    argv: list[str],
    expected: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("id\nquit\n"))
    assert main(argv) == 0
    assert expected in capsys.readouterr().out


def test_the_seed_repeats_the_dice(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for _ in range(2):
        monkeypatch.setattr(sys, "stdin", io.StringIO("roll\n1\nroll\n1\nquit\n"))
        assert main(["play", "--seed", "11"]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    die_0, die_1 = SeededDice(11).roll()
    opening = "both roll" if die_0 == die_1 else f"White rolls {die_0}, Black rolls {die_1}"
    assert f"Opening roll: {opening}" in outputs[0]


def test_the_options_reach_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("33\n31\n8/5 6/5\ndouble\nbeaver\nquit\n"))
    argv = ["play", "--manual-dice", "--beavers", "--automatic-doubles", "1", "--max-cube", "4"]
    assert main(argv) == 0
    output = capsys.readouterr().out
    assert "Automatic double: the cube is at 2, in the middle." in output
    assert "Black doubles to 4." in output
    assert "A beaver is not allowed here: the cube may not pass 4." in output


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["moves", "nonsense", "31"], "'nonsense' is not a Position ID"),
        (["moves", START, "37"], "'37' is not a roll"),
        (["moves", START, "3", "1", "2"], "'3 1 2' is not a roll"),
        (["moves", START, "31", "--checkers", "16"], "a side has from 1 to 15 checkers"),
        (["play", "--position", "nonsense"], "'nonsense' is not a Position ID"),
        (["play", "--position", SEVEN_POINTS, "--match-length", "3"], "a 7-point match, not"),
        (["play", "--position", Position.from_points({6: 15}, {}).id()], "no game left"),
        (["play", "--match-length", "3", "--jacoby"], "do not apply in matches"),
        (["play", "--match-length", "-1"], "expected a whole number, 0 or more"),
        (["play", "--max-cube", "3"], "a power of two"),
        (["play", "--names", "Ann", "Ann"], "two different names"),
        (["play", "--names", "Ann"], "expected 2 arguments"),
        (["play", "--seed", "1", "--manual-dice"], "--seed and --manual-dice do not go together"),
        (
            ["play", "--computer", "grandmaster"],
            "argument --computer: the computer's levels are beginner, casual, intermediate, "
            "advanced, expert, strongest, world-class; got 'grandmaster'",
        ),
        (["play", "--colour", "black"], "--colour chooses your colour against the computer"),
        (["play", "--computer", "--colour", "red"], "invalid choice: 'red'"),
        (["--variant", "chess"], "invalid choice: 'chess'"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_arguments_end_with_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert message in error
    assert "Traceback" not in error
    assert error.splitlines()[-1].startswith("backgammon")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    assert capsys.readouterr().out == f"backgammon {version('backgammon')}\n"


_SCRIPT = Path(sys.executable).with_name("backgammon")


@pytest.mark.parametrize(
    "command",
    [
        pytest.param(
            [str(_SCRIPT)],
            marks=pytest.mark.skipif(not _SCRIPT.exists(), reason="console script not installed"),
            id="console-script",
        ),
        pytest.param([sys.executable, "-m", "backgammon.cli"], id="python-m"),
    ],
)
def test_the_real_command_reads_a_pipe(command: list[str]) -> None:
    result = subprocess.run(
        [*command, "play", "--manual-dice", "--match-length", "1", "--names", "Ann", "Bo"],
        input="37\n31\n8/5 6/5\nid\ndouble\ndrop\nroll\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "'37' is not a roll" in result.stdout
    assert "Ann plays 8/5 6/5." in result.stdout
    assert "GNU Backgammon ID: " in result.stdout
    assert "Game 1: Ann dropped the double: Bo wins 1 point." in result.stdout
    assert result.stdout.count("The match is over: Bo wins it 1-0.") == 2
    assert result.stdout.endswith("over> \nGoodbye.\n")


# The board


def test_the_board_from_black_side_marks_black_checkers_with_x() -> None:
    # After White's 8/5 6/5 the board is drawn from Black's side: Black's 5 on its 6 point,
    # White's new point on Black's 20, and the pips line names X first.
    board = board_text(AFTER_31, "X")
    assert board.splitlines()[-1].startswith(
        f"  X on roll, pips 167; O pips 163; id {AFTER_31.id()}"
    )
    assert board.splitlines()[8].startswith(" | O                |   | X ")
    assert "O bar 0  off 0" in board and "X bar 0  off 0" in board
    assert board_text(AFTER_31, "O") == str(AFTER_31)


def test_the_board_keeps_letters_o_and_x_inside_the_position_id() -> None:
    # The Position ID is base64 and may hold either letter; swapping the colours leaves it whole.
    positions = {
        play.result
        for dice in [(a, b) for a in range(1, 7) for b in range(1, a + 1)]
        for play in Position.initial().legal_plays(dice)
    }
    with_letters = [p for p in positions if "O" in p.id() or "X" in p.id()]
    assert with_letters
    for position in with_letters:
        assert position.id() in board_text(position, "X")


# The moves subcommand


def test_moves_prints_the_board_and_numbered_plays(capsys: pytest.CaptureFixture[str]) -> None:
    for dice in (["31"], ["3-1"], ["3", "1"], ["3 1"]):
        assert main(["moves", START, *dice]) == 0
        output = capsys.readouterr().out
        assert output.startswith(str(Position.initial()))
        assert "Legal plays of 3-1 (16):" in output
        numbered = [line.split(". ", 1) for line in lines_after(output, "Legal plays")]
        assert [int(number) for number, _ in numbered] == list(range(1, 17))
        plays = {str(play) for play in Position.initial().legal_plays((3, 1))}
        assert {text for _, text in numbered} == plays


def test_moves_for_a_dance_and_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", CLOSED_OUT.id(), "66"]) == 0
    assert "No legal play with 6-6: the player on roll dances." in capsys.readouterr().out
    finished = Position.from_points({}, {1: 2}, checkers=2)
    assert main(["moves", finished.id(), "31", "--checkers", "2"]) == 0
    assert "The game is over: O wins a gammon (2 points)." in capsys.readouterr().out


def test_moves_of_a_hypergammon_position(capsys: pytest.CaptureFixture[str]) -> None:
    hyper = Position.initial("hypergammon")
    assert main(["moves", hyper.id(), "21", "--checkers", "3"]) == 0
    output = capsys.readouterr().out
    assert output.startswith(str(hyper))
    assert f"Legal plays of 2-1 ({len(hyper.legal_plays((2, 1)))}):" in output


# Bugs found in the library while building the command line


def test_a_position_with_both_sides_borne_off_is_refused() -> None:
    # Such a position cannot exist (RULES.md: the first player to bear off all checkers wins, and
    # the game ends there).
    with pytest.raises(InvalidPositionError):
        Position.from_points({}, {})
    with pytest.raises(InvalidPositionError):
        Position.from_id("AAAAAAAAAAAAAA")


def test_a_game_from_a_finished_position_is_refused() -> None:
    # Black (seat 1) has borne off both checkers, so the game is over before it starts; yet
    # Game(start=...) takes it, rolls the opening roll and waits for White to move. The command
    # line refuses such a position itself (SessionOptions), so this shows only in the engine.
    finished = Position.from_points({3: 2}, {}, checkers=2)
    with pytest.raises(BackgammonError):
        game = Game(start=finished, dice=ManualDice(["3 1"]))
        game.roll(0)


_TYPED_USE = """\
from backgammon import Position
Position.from_points({"bar": 1, 6: 2}, {1: 1}, checkers=3)
"""


@pytest.mark.parametrize(
    "source_path",
    [
        # As a user's project sees the installed package: it must carry the py.typed marker.
        pytest.param(None, id="installed"),
        # From the source tree: the call in from_points's own docstring must type-check.
        pytest.param(Path(__file__).parents[2] / "src", id="source"),
    ],
)
def test_the_documented_api_type_checks_for_users(
    source_path: Path | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mypy_api = pytest.importorskip("mypy.api")
    if source_path is None:
        monkeypatch.delenv("MYPYPATH", raising=False)
    else:
        monkeypatch.setenv("MYPYPATH", str(source_path))
    # An empty configuration, so that the project's own (which names its files) is not read.
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    options = ["--config-file", str(config), "--strict", "--cache-dir", str(tmp_path / "cache")]
    report, errors, status = mypy_api.run([*options, "--no-error-summary", "-c", _TYPED_USE])
    assert status == 0, report + errors

