"""The analysis view in a real browser: opened after a game, and for an uploaded ``.mat``
file; the equity graph drawn, a click on one of its points showing that decision (its board,
what was played, the choices weighed), the move list and the statistics.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it). The view's texts are checked against the catalogue without a browser.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browser_support import (
    SEED,
    WEB,
    Running,
    catalogue,
    fetch_state,
    match_url,
    post,
    request_for,
    screenshot,
)
from support import analyser_held_after_one, next_action

from backgammon.server.analysis import analyses

Json = dict[str, Any]


def test_the_analysis_view_names_only_known_messages() -> None:
    messages = catalogue()
    source = (WEB / "js" / "analysis.js").read_text()
    tables = {name: re.search(rf"const {name} = \{{(.*?)\}};", source, re.S) for name in
              ("MARKS", "LUCK", "CHOICES")}
    for name, prefix in (("MARKS", "mark"), ("LUCK", "luck"), ("CHOICES", "choice")):
        found = tables[name]
        assert found is not None, name
        keys = re.findall(r':\s*"(\w+)"', found.group(1))
        assert keys and {f"analysis.{prefix}.{key}" for key in keys} <= set(messages), name
    table = re.search(r"const STATISTICS = \[(.*?)\n\];", source, re.S)
    assert table is not None
    statistics = re.findall(r'\["(\w+)", \(p\)', table.group(1))
    assert len(statistics) == 11
    assert {f"analysis.stat.{key}" for key in statistics} <= set(messages)
    assert {"analysis.graphMatch", "analysis.graphMoney"} <= set(messages)




def a_finished_game(base: str) -> str:
    """A 1-point match at one screen, played to its end through the API: its id."""
    state = post(base, "/api/matches", {"opponent": "human", "length": 1, "seed": SEED})
    while not state["match_over"]:
        state = post(base, f"/api/matches/{state['id']}/actions?view=0", next_action(state))
    match_id: str = state["id"]
    return match_id


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as response:
        return json.load(response)


def report_of(base: str, path: str) -> Json:
    deadline = time.monotonic() + 60
    while True:
        with urllib.request.urlopen(request_for(base, path), timeout=10) as response:
            if response.status == 200:
                report: Json = json.load(response)
                return report
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.1)


def check_a_point_shows_its_decision(base: str, tab: Any, report: Json, nth: int) -> None:
    """Click the ``nth`` point of the graph and check the decision shown is its own."""
    points = tab.query_selector_all(".graph-point")
    assert len(points) == len(report["graph"])
    point = report["graph"][nth]
    index = point["decision"]
    decision = report["decisions"][index]
    tab.click(f'.graph-point[data-decision="{index}"]')
    tab.wait_for_selector(f'#analysis-decision[data-shown="{index}"]')
    heading = tab.inner_text("#analysis-decision-heading")
    assert f"move {decision['move_number']}" in heading
    assert f"Played: {decision['played']}" in tab.inner_text("#analysis-played")
    assert tab.get_attribute(f'.analysis-entry[data-decision="{index}"]', "aria-pressed") == (
        "true")
    # The board is the decision's: the checkers where the server's board of its IDs has them.
    query = urllib.parse.urlencode({"position_id": decision["position_id"],
                                    "match_id": decision["match_id"]})
    board = get(base, f"/api/board?{query}")["board"]
    counts = [tab.get_attribute(f'#analysis-board [data-place="p{n}"]', "data-count")
              for n in range(1, 25)]
    assert counts == [str(p["count"]) for p in board["points"]]
    dice = tab.get_attribute("#analysis-board [data-dice]", "data-dice")
    assert sorted(map(int, dice.split(","))) == sorted(decision["dice"])
    shown = [row.inner_text().split("\t")[0] for row in tab.query_selector_all(
        "#analysis-choices tbody tr")]
    assert shown == [a["text"] for a in decision["alternatives"]]


def test_the_analysis_of_a_game_graph_and_a_click_on_it(
    server: str, page: Any
) -> None:
    match_id = a_finished_game(server)
    page.goto(match_url(server, match_id))
    page.wait_for_selector("#analyse-button:not([hidden])")
    page.click("#analyse-button")
    page.wait_for_selector(".graph-point")
    assert "analyse=1" in page.url
    report = report_of(server, f"/api/matches/{match_id}/analysis")
    assert page.is_hidden("#analysis-progress")
    # The first point is shown at once; then a click on another shows its decision.
    page.wait_for_selector(f'#analysis-decision[data-shown="{report["graph"][0]["decision"]}"]')
    check_a_point_shows_its_decision(server, page, report, len(report["graph"]) // 2)
    check_a_point_shows_its_decision(server, page, report, len(report["graph"]) - 1)
    # The decision shown can be rolled out in the editor: its position there, settings open.
    decision = report["decisions"][report["graph"][-1]["decision"]]
    link = page.get_attribute("#analysis-rollout", "href")
    assert link == "/editor?" + urllib.parse.urlencode(
        {"id": f"{decision['position_id']}:{decision['match_id']}", "rollout": "1"})
    editor = page.context.new_page()
    editor.goto(server + link)
    editor.wait_for_selector("body[data-ready=true]")
    assert editor.input_value("#gnubg-id").split(":")[0] == decision["position_id"]
    editor.wait_for_selector("#editor-rollout-panel", state="visible")
    assert editor.get_attribute("#editor-rollout", "aria-expanded") == "true"
    editor.close()
    screenshot(page, "browser-analysis.png")
    # The move list has every decision; the statistics a row each, the players' names above.
    assert len(page.query_selector_all(".analysis-entry")) == len(report["decisions"])
    header = page.inner_text("#analysis-statistics thead")
    assert all(player["name"] in header for player in report["players"])
    pr = page.inner_text('#analysis-statistics [data-statistic="pr"]')
    assert f"{report['players'][0]['overall']['pr']:.1f}" in pr
    # Back to the match.
    page.click("#analysis-close")
    page.wait_for_selector("#play:not([hidden])")
    assert page.url.endswith(f"?match={match_id}")
    assert fetch_state(server, match_id)["match_over"]


def test_a_decisions_plays_are_rolled_out_in_the_view(server: str, page: Any) -> None:
    match_id = a_finished_game(server)
    report = report_of(server, f"/api/matches/{match_id}/analysis")
    index, decision = next(
        (i, d) for i, d in enumerate(report["decisions"])
        if d["kind"] == "checker" and len(d["alternatives"]) >= 3)
    page.goto(match_url(server, match_id))
    page.click("#analyse-button")
    page.wait_for_selector(".analysis-entry")
    page.click(f'.analysis-entry[data-decision="{index}"]')
    page.wait_for_selector(f'#analysis-decision[data-shown="{index}"]')
    assert page.is_hidden("#analysis-choices th.analysis-rolled")
    page.select_option("#analysis-rollout-trials", "36")
    page.get_by_role("button", name="Roll out these plays").click()
    page.wait_for_function(
        "() => document.querySelector('#analysis-rollout-message').textContent"
        ".startsWith('Rolled out')", timeout=120_000)
    # The best three weighed and the one played, each with its rolled-out equity and error.
    rolled = [a["text"] for a in decision["alternatives"][:3]]
    if decision["played"] not in rolled:
        rolled.append(decision["played"])
    assert page.get_attribute("#analysis-choices", "data-rolled") == str(len(rolled))
    assert page.is_visible("#analysis-choices th.analysis-rolled")
    for text in rolled:
        cell = page.locator(f'#analysis-choices tr[data-play="{text}"] td.analysis-rolled')
        assert re.fullmatch(r"[+−-]?\d\.\d{3} ± \d\.\d{3}", cell.inner_text()), (
            cell.inner_text())
    total = 36 * len(rolled)
    assert f"{total} of {total} trials" == page.inner_text("#analysis-rollout-progress-label")
    assert page.is_hidden("#analysis-rollout-running")
    assert page.is_enabled("#analysis-rollout-start")


def test_an_uploaded_mat_file_is_analysed_in_the_page(
    server: str, page: Any
) -> None:
    match_id = a_finished_game(server)
    with urllib.request.urlopen(f"{server}/api/matches/{match_id}/mat", timeout=10) as answer:
        text = answer.read()
    page.goto(server + "/")
    page.wait_for_selector("#mat-file")
    # A file that cannot be read: the reason, with its line.
    page.set_input_files("#mat-file", files=[{
        "name": "bad.mat", "mimeType": "text/plain",
        "buffer": b" 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/4 6/5\n"}])
    page.wait_for_function(
        "document.querySelector('#upload-message').textContent.includes('Line 4')")
    assert page.inner_text("#upload-message").startswith("That file cannot be read")
    page.set_input_files("#mat-file", files=[{
        "name": "game.mat", "mimeType": "text/plain", "buffer": text}])
    page.wait_for_selector(".graph-point")
    analysis_id = re.search(r"analysis=([\w-]+)", page.url)
    assert analysis_id is not None
    report = report_of(server, f"/api/analyses/{analysis_id.group(1)}")
    check_a_point_shows_its_decision(server, page, report, 3)
    # A reload comes back to the same analysis, from the database.
    page.reload()
    page.wait_for_selector(".graph-point")
    assert len(page.query_selector_all(".graph-point")) == len(report["graph"])


def test_the_progress_is_shown_while_the_server_thinks(
    tmp_path: Path, page: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An analysis held after its first decision: the page says how far it has got, then
    draws the report once the analysis goes on to its end."""
    release = threading.Event()


    monkeypatch.setattr(analyses, "Analyser", analyser_held_after_one(release))
    running = Running(tmp_path / "games.sqlite")
    try:
        match_id = a_finished_game(running.url)
        page.goto(match_url(running.url, match_id).replace("#", "&analyse=1#"))
        page.wait_for_function(
            "document.querySelector('#analysis-status').textContent.startsWith('Analysing: 1 of')")
        assert page.is_visible("#analysis-progress") and page.is_hidden("#analysis-body")
        assert page.get_attribute("#analysis-progress", "aria-label") == "Progress of the analysis"
        assert page.evaluate("document.querySelector('#analysis-progress').value") == 1
        release.set()
        page.wait_for_selector(".graph-point")
        assert page.is_hidden("#analysis-progress")
    finally:
        release.set()
        running.stop()


def test_the_graph_has_axes_a_caption_and_a_table(server: str, page: Any) -> None:
    match_id = a_finished_game(server)
    page.goto(match_url(server, match_id))
    page.wait_for_selector("#analyse-button:not([hidden])")
    page.click("#analyse-button")
    page.wait_for_selector(".graph-point")
    report = report_of(server, f"/api/matches/{match_id}/analysis")
    player = report["players"][0]["name"]
    # The caption, which names the graph for screen readers too.
    caption = page.inner_text("#analysis-graph-caption")
    assert caption == (
        f"{player}'s chance of winning the match after each move; choose a point to see that move."
    )
    assert page.get_attribute("#analysis-graph", "aria-labelledby") == "analysis-graph-caption"
    # The axes: the values (a 1-point match: chances, 0% to 100%) and the moves, each named.
    labels = page.eval_on_selector_all(
        "#analysis-graph .graph-axes text", "nodes => nodes.map(n => n.textContent)"
    )
    assert {"0%", "50%", "100%", "Move number", "Winning chance"} <= set(labels)
    assert str(report["graph"][-1]["move_number"]) in labels
    assert page.locator("#analysis-graph .graph-axis").count() >= 2
    # The text alternative: a table of every point of the graph, behind a summary to open.
    assert page.is_hidden("#analysis-graph-table")
    page.click(".analysis-graph-data summary")
    page.wait_for_selector("#analysis-graph-table", state="visible")
    assert page.inner_text("#analysis-graph-table caption") == (
        f"{player}'s chance of winning the match"
    )
    rows = page.eval_on_selector_all(
        "#analysis-graph-table tbody tr",
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))",
    )
    assert len(rows) == len(report["graph"])
    first = report["graph"][0]
    value = round(first["value"] * 1000) / 10
    assert rows[0][:3] == [str(first["game"]), str(first["move_number"]),
                           report["players"][first["player"]]["name"]]
    assert rows[0][3] == f"{value:g}%"
