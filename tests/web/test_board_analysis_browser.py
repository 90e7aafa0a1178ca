"""The analysis of another game's match in a real browser: asked for from the end of the match
(its "Analyse" button), shown in a panel of its own: each player's totals and the decisions
marked, as the server's report has them, in the page's language.

The server and the browser are tests/web/test_browser.py's fixtures (Debian's chromium; skipped
without it).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from browser_support import WEB, catalogue, match_url, post, request_for, screenshot

Json = dict[str, Any]


def test_the_panel_names_only_known_messages() -> None:
    source = (WEB / "js" / "analysis.js").read_text()
    found = re.search(r"const TOTALS = \[(.*?)\n\];", source, re.S)
    assert found is not None
    keys = re.findall(r'\["(\w+)", \(p\)', found.group(1))
    assert len(keys) == 6
    assert {f"analysis.games.{key}" for key in keys} <= set(catalogue())


def a_finished_board_match(base: str, game: str = "plakoto") -> str:
    """A 1-point match of ``game`` at one screen, each seat making the first step offered, to
    its end through the API: its id."""
    state = post(base, "/api/matches", {"opponent": "human", "game": game, "length": 1,
                                        "seed": 11})
    match_id: str = state["id"]
    path = f"/api/matches/{match_id}/actions?view=0"
    while not state["match_over"]:
        seat = state["to_act"] if state["to_act"] is not None else 0
        actions = state["actions"][seat]
        action: Json = {"action": "roll"}
        if "name" in actions:
            action = {"action": "name", "die": 6}
        elif "confirm" in actions:
            action = {"action": "confirm"}
        elif "step" in actions:
            step = state["steps"][0]
            action = {"action": "step", "from": step["from"], "to": step["to"]}
        state = post(base, path, {**action, "seat": seat, "version": state["version"]})
    return match_id


def report_of(base: str, match_id: str) -> Json:
    """The match's finished analysis, asked for with its seats' token (the page's)."""
    deadline = time.monotonic() + 60
    while True:
        request = request_for(base, f"/api/matches/{match_id}/analysis")
        with urllib.request.urlopen(request, timeout=10) as response:
            if response.status == 200:
                report: Json = json.load(response)
                return report
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.1)


def open_board_analysis(base: str, page: Any, match_id: str) -> None:
    """The match's page, then its analysis from the end of the match's "Analyse" button."""
    page.goto(match_url(base, match_id))
    page.wait_for_selector("#game-end-analyse:not([hidden])")
    page.click("#game-end-analyse")
    page.wait_for_selector("#analysis-games:not([hidden])")


def test_the_analysis_of_a_match_of_plakoto(server: str, page: Any) -> None:
    match_id = a_finished_board_match(server)
    open_board_analysis(server, page, match_id)
    assert "analyse=1" in page.url
    report = report_of(server, match_id)
    assert report["kind"] == "board" and report["game"] == "plakoto"
    # Backgammon's graph, boards and trainer are not shown: the panel is the report's.
    assert page.is_hidden("#analysis-body") and page.is_hidden("#analysis-progress")
    english = catalogue()
    assert page.inner_text("#analysis-games-note") == english["analysis.games.note"].replace(
        "{plies}", str(report["plies"]))
    header = page.inner_text("#analysis-games-totals thead").strip().split("\t")
    assert header[1:] == [player["name"] for player in report["players"]]
    decisions = page.inner_text('#analysis-games-totals [data-statistic="decisions"]').strip()
    assert decisions.split("\t")[1:] == [str(p["decisions"]) for p in report["players"]]
    rate = page.inner_text('#analysis-games-totals [data-statistic="rate"]').strip().split("\t")
    assert rate[1:] == [f"{p['error_rate']:.1f}" for p in report["players"]]
    # A row for each marked decision: its game, turn, player, dice, plays and loss.
    marked = [d for d in report["decisions"] if d["mark"]]
    assert marked, "a game played by the first step offered has mistakes"
    rows = page.query_selector_all("#analysis-games-marked tbody tr")
    assert len(rows) == len(marked)
    first = marked[0]
    cells = [cell.inner_text() for cell in rows[0].query_selector_all("td")]
    assert cells == [
        str(first["game"]), str(first["turn"]), report["players"][first["seat"]]["name"],
        "-".join(map(str, first["dice"])), first["played"], first["best"],
        f"{first['loss']:.3f}", english[f"analysis.mark.{mark_key(first['mark'])}"],
    ]
    assert page.is_hidden("#analysis-games-none")
    screenshot(page, "browser-board-analysis.png")
    # In another language the panel is said again, no English left in it.
    page.select_option("#language", "vi")
    page.wait_for_function("document.documentElement.lang === 'vi'")
    vietnamese = json.loads((WEB / "messages" / "vi.json").read_text())
    assert page.inner_text("#analysis-games-marked-heading") == vietnamese[
        "analysis.games.marked"]
    assert page.inner_text('#analysis-games-totals [data-statistic="rate"] th') == vietnamese[
        "analysis.games.rate"]
    assert page.inner_text("#analysis-games-marked tbody tr td:last-child") == vietnamese[
        f"analysis.mark.{mark_key(first['mark'])}"]


def mark_key(mark: str) -> str:
    """The catalogue's name of a mark ("very bad": veryBad)."""
    return {"doubtful": "doubtful", "bad": "bad", "very bad": "veryBad"}[mark]
