"""``backgammon hint`` and ``backgammon eval``: the engine's answers in the terminal, the same
as the HTTP engine API's (bot.answers)."""

from __future__ import annotations

import json

import pytest

from backgammon import Position
from backgammon.bot import Bot
from backgammon.bot.answers import cube_answer, eval_answer, move_answer
from backgammon.cli import main
from backgammon.cube import CubeContext, MatchScore

START = "4HPwATDgc/ABMA"
#: Seat 0 on roll at 0-0 in a 7-point match, the cube centred, no dice.
XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_hint_ranks_the_plays_of_a_roll(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "hint", START, "--dice", "31", "--plies", "0", "--plays", "3")
    lines = out.splitlines()
    assert lines[0] == f"Position {START}, money play, 3-1 at 0-ply (16 legal plays):"
    assert lines[1].split()[:2] == ["1.", "8/5"] and len(lines) == 7
    # Each play with its reasons on the line below.
    assert lines[2].startswith("     Why: makes your 5-point; safe: no blot can be hit; ")
    assert [line.split()[0] for line in lines[3::2]] == ["2.", "3."]
    assert all(line.startswith("     Why: ") for line in lines[4::2])


def test_hint_says_why_in_the_language_asked(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "hint", START, "--dice", "31", "--plies", "0", "--plays", "1",
              "--lang", "vi")
    assert out.splitlines()[2].startswith("     Why: chiếm ô 5 của bạn; an toàn: ")
    cube = run(capsys, "hint", START, "--plies", "0", "--lang", "en").splitlines()
    assert cube[-1].startswith(" Why: not strong enough to double: you win ")


def test_hint_json_is_the_engine_apis_answer(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "hint", START, "--dice", "6-4", "--plies", "0", "--json")
    assert json.loads(out) == move_answer(Bot(plies=0), Position.from_id(START), (6, 4))


def test_hint_without_dice_is_the_cube_decision_at_the_ids_score(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = run(capsys, "hint", XGID, "--plies", "0", "--json")
    cube = CubeContext(match=MatchScore(7))
    assert json.loads(out) == cube_answer(Bot(plies=0), Position.initial(), cube)
    text = run(capsys, "hint", XGID, "--plies", "0")
    assert "0-0 in a 7-point match" in text and "Right action: no double" in text


def test_eval_gives_the_chances_and_equities(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(capsys, "eval", START, "--plies", "0", "--json")
    assert json.loads(out) == eval_answer(Bot(plies=0), Position.initial())
    assert "cubeful equity" in run(capsys, "eval", START, "--plies", "0")


@pytest.mark.parametrize(
    ("args", "phrase"),
    [
        (["eval", "nonsense"], "nonsense"),
        (["hint", START, "--dice", "7"], "not a roll"),
        (["hint", START, "--plies", "9"], "the depth is 0 to"),
        (["hint", START, "--lang", "xx"], "invalid choice: 'xx'"),
    ],
)
def test_bad_input_is_a_sentence_and_exit_status_2(
    capsys: pytest.CaptureFixture[str], args: list[str], phrase: str
) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(args)
        raise SystemExit(code)
    assert raised.value.code == 2
    assert phrase in capsys.readouterr().err
