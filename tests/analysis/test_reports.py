"""The analysis reports: the JSON's keys, the HTML page's soundness, the text summary, and the
``analyse`` command on good and bad files."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from backgammon.analysis import Analyser, MatchAnalysis
from backgammon.analysis.html import html_report
from backgammon.analysis.report import text_report, to_json
from backgammon.cli.analyse import analyse_command, build_parser
from backgammon.dice import ManualDice
from backgammon.errors import BackgammonError
from backgammon.formats.mat import MatFormatError, export_mat
from backgammon.game.match import Match

_VOID = {"meta", "br", "img", "hr", "input", "link"}


@pytest.fixture(scope="module")
def analysis() -> MatchAnalysis:
    """A 3-point match: a blunder, a wrong double and a wrong pass end game 1; game 2 goes
    on a few turns."""
    match = Match(3, dice=ManualDice(["3 1", "4 2", "6 5", "5 5"]), players=("Ann", "Bob <b>"))
    game = match.game
    game.roll(0)
    game.play(0, "8/7 8/5")
    game.double(1)
    game.drop(0)
    game = match.game
    game.roll(0)
    game.play(0, "8/4 6/4")
    game.roll(1)
    game.play(1, "24/13")
    game.roll(0)
    game.play(0, "13/8(2) 6/1(2)")
    return Analyser(plies=0).analyse(match)


def test_the_json_has_the_keys_programs_rely_on(analysis: MatchAnalysis) -> None:
    data = json.loads(json.dumps(to_json(analysis)))
    assert [p["name"] for p in data["players"]] == ["Ann", "Bob <b>"]
    for player in data["players"]:
        assert set(player) >= {"name", "checker", "cube", "luck", "overall"}
        assert set(player["checker"]) >= {
            "moves", "unforced", "error_total_emg", "error_rate_memg", "doubtful", "bad",
            "very_bad"}
        assert set(player["cube"]) >= {"decisions", "error_total_emg", "error_rate_memg"}
        assert set(player["luck"]) >= {"total_emg", "rate_memg"}
        assert set(player["overall"]) >= {"error_rate_memg", "snowie_error_rate", "pr"}
        assert player["checker"]["error_total_emg"] >= 0 and player["cube"]["error_total_emg"] >= 0
    assert len(data["decisions"]) == len(analysis.decisions)
    for decision in data["decisions"]:
        assert set(decision) >= {
            "game", "move_number", "player", "kind", "dice", "played", "best", "equity_loss",
            "mark", "position_id", "match_id"}
        assert decision["kind"] in ("checker", "cube", "take", "resign", "answer")
        assert decision["equity_loss"] >= 0
    blunder = data["decisions"][0]
    assert (blunder["game"], blunder["move_number"], blunder["player"], blunder["dice"]) == (
        1, 1, 0, [3, 1])
    assert (blunder["played"], blunder["best"], blunder["mark"]) == (
        "8/7 8/5", "8/5 6/5", "very bad")
    assert data["players"][0]["checker"]["very_bad"] == 1
    assert data["length"] == 3 and data["cost_unit"] == "mwc"
    assert [g["winner"] for g in data["games"]] == [1, None]
    assert all(0.0 <= point["value"] <= 1.0 for point in data["graph"])


class _Checker(HTMLParser):
    """Checks that every element is closed in order, and collects the boards."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.ids += [value or "" for name, value in attrs if name == "id"]
        if tag not in _VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open.pop() == tag, f"</{tag}> closes nothing open"


def test_the_html_page_parses_and_draws_each_marked_decision(analysis: MatchAnalysis) -> None:
    page = html_report(analysis)
    checker = _Checker()
    checker.feed(page)
    checker.close()
    assert checker.open == []
    assert len(checker.ids) == len(set(checker.ids))
    marked = [d for d in analysis.decisions if d.mark is not None]
    assert len(marked) >= 3
    svgs = re.findall(r"<svg .*?</svg>", page, re.S)
    boards = [ET.fromstring(svg) for svg in svgs if "backgammon-board" in svg]
    graphs = [ET.fromstring(svg) for svg in svgs if 'class="graph"' in svg]
    assert len(boards) == len(marked) and len(graphs) == 1
    links = graphs[0].findall(".//{http://www.w3.org/2000/svg}a")
    assert links and all(link.get("href", "").lstrip("#") in checker.ids for link in links)
    assert "Bob &lt;b&gt;" in page and "<b>" not in page
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")


def test_the_text_summary_has_each_game_and_the_match(analysis: MatchAnalysis) -> None:
    text = text_report(analysis)
    assert "Game 1 (score 0-0): Bob <b> won 1 point" in text
    assert "Game 2 (score 0-1): unfinished" in text
    assert "The whole 3-point match" in text
    assert re.search(r"move +1 Ann 31: 8/7 8/5 \(best 8/5 6/5\) lost \d\.\d{3} EMG, very bad",
                     text)
    assert re.search(r"Unforced moves +3 +1\n", text)


def test_the_command_writes_the_reports(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        analysis: MatchAnalysis) -> None:
    match = Match(3, dice=ManualDice(["3 1", "6 4"]), players=("Ann", "Bob"))
    match.game.roll(0)
    match.game.play(0, "8/7 8/5")
    match.game.roll(1)
    match.game.play(1, "24/18 13/9")
    source = tmp_path / "m.mat"
    source.write_text(export_mat(match))
    out_json, out_html = tmp_path / "a.json", tmp_path / "a.html"
    args = build_parser().parse_args(
        [str(source), "--plies", "0", "--json", str(out_json), "--html", str(out_html)])
    assert analyse_command(args) == 0
    printed = capsys.readouterr()
    assert "Game 1 (score 0-0): unfinished" in printed.out and "Analysing" in printed.err
    data = json.loads(out_json.read_text())
    assert data["plies"] == 0 and data["decisions"][0]["mark"] == "very bad"
    assert out_html.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/4 6/5\n", 5, "cannot play"),
        (" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5    64: 24/1",
         5, "cannot play"),
    ],
)
def test_a_bad_file_gets_its_line_and_reason_and_no_report(
    tmp_path: Path, text: str, line: int, reason: str
) -> None:
    source, out = tmp_path / "bad.mat", tmp_path / "out.json"
    source.write_text(text)
    args = build_parser().parse_args([str(source), "--plies", "0", "--no-progress",
                                      "--json", str(out)])
    with pytest.raises(MatFormatError, match=f"^Line {line}: .*{reason}") as error:
        analyse_command(args)
    assert error.value.line == line
    assert not out.exists()


def test_a_missing_file_is_a_sentence(tmp_path: Path) -> None:
    args = build_parser().parse_args([str(tmp_path / "none.mat"), "--no-progress"])
    with pytest.raises(BackgammonError, match=r"^Cannot read .*none\.mat"):
        analyse_command(args)


def test_the_depth_is_checked() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["m.mat", "--plies", "7"])
