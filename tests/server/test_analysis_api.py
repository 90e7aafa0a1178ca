"""The analysis in the web app: a match's or an uploaded ``.mat`` file's, thought out in the
background, its progress said, its report the CLI's JSON, kept in the database across a
restart, and started afresh when the match has changed."""

from __future__ import annotations

import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session
from support import analyser_held_after_one, next_action

from backgammon.analysis import Analyser
from backgammon.analysis.report import to_json
from backgammon.errors import BackgammonError
from backgammon.formats.mat import import_mat
from backgammon.server import Settings, create_app
from backgammon.server.analysis import analyses
from backgammon.server.db import AnalysisRow, make_engine
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SEED = 11
Json = dict[str, Any]


def client_for(database: Path, **options: Any) -> TestClient:
    unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                 "upload_rate": None}
    settings = Settings(database_url=sqlite_url(database), computer_pause=0, allow_seed=True,
                        **{**unlimited, **options})
    return TestClient(create_app(settings))




def played(client: TestClient, actions: int, match_id: str | None = None) -> Json:
    """A 3-point match at one screen, ``actions`` actions into it (a new one by default)."""
    if match_id is None:
        answer = client.post("/api/matches", json={"opponent": "human", "length": 3,
                                                   "seed": SEED})
        state: Json = answer.json()
        # The client holds the new match's token from now on, as the page that made it.
        client.headers["Authorization"] = f"Bearer {state['token']}"
    else:
        state = client.get(f"/api/matches/{match_id}").json()
    for _ in range(actions):
        answer = client.post(f"/api/matches/{state['id']}/actions", json=next_action(state))
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def finished(client: TestClient, path: str) -> Json:
    """The report at ``path`` once the analysis is done (a guard against one that never
    ends, not a measure)."""
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(path)
        if answer.status_code == 200:
            report: Json = answer.json()
            return report
        assert answer.status_code == 202, answer.text
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)


def cli_report(client: TestClient, match_id: str) -> Json:
    """What ``backgammon analyse --json`` says of the match, at the server's 0 plies."""
    match = import_mat(client.get(f"/api/matches/{match_id}/mat").text)
    report: Json = to_json(Analyser(plies=0).analyse(match))
    return report


def test_a_match_is_analysed_in_the_background_as_the_cli_analyses_it(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        state = played(client, 40)
        path = f"/api/matches/{state['id']}/analysis"
        started = client.post(path)
        assert started.status_code == 202
        assert started.json() == {"status": "running", "done": 0, "total": 0}
        report = finished(client, path)
        assert report == finished(client, path)  # asked again: the same, at once
        expected = cli_report(client, state["id"])
    assert report["plies"] == 0 and report["decisions"] and report["graph"]
    # The players' names aside (the .mat file has its own), the CLI's JSON.
    assert [p["name"] for p in report["players"]] == ["White", "Black"]
    for key in ("decisions", "graph", "length", "plies", "cost_unit", "schema"):
        assert report[key] == expected[key], key
    assert [p["checker"] for p in report["players"]] == [
        p["checker"] for p in expected["players"]]


def test_the_progress_counts_the_decisions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                           ) -> None:
    release = threading.Event()


    monkeypatch.setattr(analyses, "Analyser", analyser_held_after_one(release))
    with client_for(tmp_path / "games.sqlite") as client:
        state = played(client, 30)
        path = f"/api/matches/{state['id']}/analysis"
        client.post(path)
        deadline = time.monotonic() + 30
        while (progress := client.get(path).json())["done"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert progress["status"] == "running" and progress["done"] == 1
        assert progress["total"] > 1
        release.set()
        report = finished(client, path)
    assert len([d for d in report["decisions"] if d["kind"] == "checker"]) <= progress["total"]


def test_an_analysis_is_kept_across_a_restart_and_redone_when_cut_short(tmp_path: Path
                                                                         ) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        state = played(client, 30)
        path = f"/api/matches/{state['id']}/analysis"
        client.post(path)
        report = finished(client, path)
        token = client.headers["Authorization"]
    with client_for(database) as client:
        assert client.get(path).status_code == 401  # the analysis is the players'
        client.headers["Authorization"] = token
        answer = client.get(path)
        assert answer.status_code == 200 and answer.json() == report
    # A server stopped while it analysed: the row says running; the next start redoes it.
    engine = make_engine(sqlite_url(database))
    with Session(engine) as session, session.begin():
        session.execute(update(AnalysisRow).values(status="running", result=None))
    engine.dispose()
    with client_for(database) as client:
        client.headers["Authorization"] = token
        assert client.get(path).status_code == 202
        assert finished(client, path) == report


def test_a_match_that_changes_is_analysed_again(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        state = played(client, 20)
        path = f"/api/matches/{state['id']}/analysis"
        client.post(path)
        before = finished(client, path)
        played(client, 12, state["id"])
        assert client.get(path).status_code == 202
        after = finished(client, path)
    assert len(after["decisions"]) > len(before["decisions"])


def test_an_uploaded_file_is_analysed(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        state = played(client, 30)
        text = client.get(f"/api/matches/{state['id']}/mat").text
        started = client.post("/api/analyses", json={"text": text})
        assert started.status_code == 202, started.text
        body = started.json()
        assert body["status"] == "running" and body["id"]
        report = finished(client, f"/api/analyses/{body['id']}")
        assert report["decisions"] == cli_report(client, state["id"])["decisions"]
        missing = client.get("/api/analyses/nosuchanalysis")
        assert missing.status_code == 404 and missing.json()["detail"].endswith(".")


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        (" 3 point match\n Game 1\n A : 0  B : 0\n  1) 31: 8/4 6/5\n", "Line 4"),
        (" 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5   64: 24/1\n", "Line 5"),
        ("this is not a match", "cannot be read"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_with_its_line(
    tmp_path: Path, text: str, phrase: str
) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        answer = client.post("/api/analyses", json={"text": text})
        assert answer.status_code == 422, answer.text
        detail = answer.json()["detail"]
        assert detail.startswith("The file cannot be read") and phrase in detail, detail
        for body in ({"file": text}, {"text": 3}, {"text": "x" * 1_000_001}):
            refused = client.post("/api/analyses", json=body)
            assert refused.status_code in (413, 422)
            assert refused.json()["detail"].endswith(".")


def test_the_board_of_a_decision(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        state = played(client, 20)
        path = f"/api/matches/{state['id']}/analysis"
        client.post(path)
        decision = finished(client, path)["decisions"][1]
        answer = client.get("/api/board", params={"position_id": decision["position_id"],
                                                  "match_id": decision["match_id"]})
        assert answer.status_code == 200, answer.text
        shown = answer.json()
        assert shown["on_roll"] == decision["player"] and shown["dice"] == decision["dice"]
        for seat in (0, 1):
            on_board = sum(p["count"] for p in shown["board"]["points"] if p["seat"] == seat)
            assert on_board + shown["board"]["bar"][seat] + shown["board"]["off"][seat] == 15
        bad = client.get("/api/board", params={"position_id": "nonsense", "match_id": "x"})
        assert bad.status_code == 422 and bad.json()["detail"].endswith(".")


def test_uploads_are_limited_per_client(tmp_path: Path) -> None:
    with client_for(tmp_path / "games.sqlite", upload_rate="2/minute") as client:
        for _ in range(2):
            assert client.post("/api/analyses", json={"text": "no"}).status_code == 422
        refused = client.post("/api/analyses", json={"text": "no"})
        assert refused.status_code == 429 and "files to analyse" in refused.json()["detail"]


def test_one_client_cannot_fill_the_pool_of_analyses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    monkeypatch.setattr(analyses, "Analyser", analyser_held_after_one(release))
    try:
        with client_for(tmp_path / "games.sqlite", analysis_per_client=2) as client:
            text = client.get(f"/api/matches/{played(client, 30)['id']}/mat").text
            first, second, third = (
                client.post("/api/analyses", json={"text": text}) for _ in range(3)
            )
            assert (first.status_code, second.status_code) == (202, 202), second.text
            assert third.status_code == 429 and third.headers["Retry-After"]
            assert third.json()["detail"] == (
                "You have 2 analyses under way, as many as one client may; ask again once "
                "one is done."
            )
            release.set()
            finished(client, f"/api/analyses/{first.json()['id']}")
            finished(client, f"/api/analyses/{second.json()['id']}")
            assert client.post("/api/analyses", json={"text": text}).status_code == 202
    finally:
        release.set()


def test_a_file_longer_than_an_analysis_takes_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from backgammon.server.analysis import routes as analysis

    def never(text: str) -> None:
        raise AssertionError("the file was read")

    monkeypatch.setattr(analysis, "import_mat", never)
    lines = "".join(f" {n}) 31: 8/5 6/5   31: 8/5 6/5\n" for n in range(1, 3002))
    with client_for(tmp_path / "games.sqlite") as client:
        answer = client.post("/api/analyses", json={"text": f" 0 point match\n Game 1\n{lines}"})
    assert answer.status_code == 413
    assert answer.json()["detail"] == (
        "The file has 3001 move lines; an analysis takes at most 3000: send one match at a time."
    )


def test_the_analysis_settings_come_from_the_environment() -> None:
    assert Settings.from_env({}).analysis_plies == 0
    assert Settings.from_env({"BACKGAMMON_ANALYSIS_PLIES": "2"}).analysis_plies == 2
    assert Settings.from_env({"BACKGAMMON_UPLOAD_RATE": "none"}).upload_rate is None
    assert Settings.from_env({"BACKGAMMON_ANALYSIS_PLIES": "3"}).analysis_plies == 3
    for plies in ("4", "-1", "two"):
        with pytest.raises(BackgammonError, match="BACKGAMMON_ANALYSIS_PLIES"):
            Settings.from_env({"BACKGAMMON_ANALYSIS_PLIES": plies})
