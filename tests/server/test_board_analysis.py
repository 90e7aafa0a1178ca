"""The analysis of the other games' matches in the web app (Portes, Tavla, Plakoto, Fevga, Long
Nardy, Acey-deucey, a Tavli match): thought out in the background as backgammon's, its
progress said, its report the CLI's (:func:`analyse_board_record`) marked ``"kind": "board"``
with the players' names, its failures said; the trainer's cards stay backgammon's."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from test_analysis_api import finished
from test_api import act, client_for, create, opening
from test_board_games import GAMES, next_action

from backgammon.analysis.board_games import analyse_board_record, board_to_json
from backgammon.errors import BackgammonError
from backgammon.game.match import BoardMatch
from backgammon.server.analysis import analyses

Json = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Any:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def played_to_the_end(client: Any, game: str, length: int = 1,
                      resign_after: int | None = None) -> Json:
    """A match of ``game`` at one screen, each seat making the first step offered, to the
    match's end; with ``resign_after``, each game is resigned (single) by the player not to
    move after that many actions, as soon as it may be."""
    state = create(client, game=game, length=length, seed=11)
    match_id = state["id"]
    state = opening(client, match_id)
    actions = 0
    for _ in range(6000):
        if state["match_over"]:
            break
        mover = state["to_act"]
        if (resign_after is not None and actions >= resign_after and mover is not None
                and "resign" in state["actions"][1 - mover]):
            act(client, match_id, seat=1 - mover, action="resign", level=1)
            state = act(client, match_id, seat=mover, action="accept")
            actions = 0
            if not state["match_over"]:
                state = opening(client, match_id)
            continue
        state = act(client, match_id, **next_action(state))
        actions += 1
    assert state["match_over"]
    return state


def expected(client: Any, match_id: str) -> Json:
    """What ``backgammon analyse FILE.json --json`` says of the match, at 0 plies."""
    record = client.get(f"/api/matches/{match_id}/record").json()
    return board_to_json(analyse_board_record(BoardMatch.from_dict(record), 0))


@pytest.mark.parametrize("game", GAMES)
def test_each_game_is_analysed_to_its_end(client: Any, game: str) -> None:
    state = played_to_the_end(client, game)
    path = f"/api/matches/{state['id']}/analysis"
    started = client.post(path)
    assert started.status_code in (200, 202), started.text
    report = finished(client, path)
    assert report == finished(client, path)  # asked again: the same, at once
    assert report["kind"] == "board" and report["game"] == game and report["plies"] == 0
    assert "schema" not in report and "graph" not in report  # not backgammon's shape
    assert [p["name"] for p in report["players"]] == [s["name"] for s in state["seats"]]
    # The CLI's JSON, the players named as the record names them (at one screen, the
    # colours).
    cli = expected(client, state["id"])
    assert report["decisions"] == cli["decisions"] and report["players"] == cli["players"]
    # Both players decided something in a game played to its end.
    decisions = report["decisions"]
    assert {d["seat"] for d in decisions} == {0, 1}
    for seat, player in enumerate(report["players"]):
        own = [d for d in decisions if d["seat"] == seat]
        assert player["decisions"] == len(own)
        assert player["loss"] == pytest.approx(sum(d["loss"] for d in own))
        assert player["error_rate"] == pytest.approx(1000 * player["loss"] / len(own))
    assert all(d["game"] == 1 and d["turn"] >= 1 and d["loss"] >= 0 for d in decisions)


def test_a_tavli_match_is_analysed_game_by_game(client: Any) -> None:
    state = played_to_the_end(client, "tavli", length=3, resign_after=12)
    games = len(state["record"])
    assert games >= 3  # Portes, Plakoto, Fevga at least: each resigned for a point
    path = f"/api/matches/{state['id']}/analysis"
    client.post(path)
    report = finished(client, path)
    assert report["kind"] == "board" and report["game"] == "tavli"
    assert {d["game"] for d in report["decisions"]} == set(range(1, games + 1))
    assert report["decisions"] == expected(client, state["id"])["decisions"]


def test_a_match_under_way_is_analysed_as_it_stands(client: Any) -> None:
    """At one screen the analysis is the players' business during play; asked again after
    the match has moved on, it starts afresh."""
    state = create(client, game="portes", length=3, seed=5)
    match_id = state["id"]
    state = opening(client, match_id)
    for _ in range(30):
        state = act(client, match_id, **next_action(state))
    path = f"/api/matches/{match_id}/analysis"
    before = finished(client, path)
    for _ in range(30):
        state = act(client, match_id, **next_action(state))
    assert client.get(path).status_code == 202
    after = finished(client, path)
    assert len(after["decisions"]) > len(before["decisions"])


def test_the_progress_counts_the_decisions(client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = analyse_board_record

    def held(record: Any, plies: int, progress: Any) -> Any:
        def after_one(done: int, total: int) -> None:
            progress(done, total)
            if done == 1:
                release.wait(30)

        return real(record, plies, after_one)

    monkeypatch.setattr(analyses, "analyse_board_record", held)
    state = played_to_the_end(client, "fevga")
    path = f"/api/matches/{state['id']}/analysis"
    assert client.post(path).json() == {"status": "running", "done": 0, "total": 0}
    deadline = time.monotonic() + 30
    while (progress := client.get(path)).json()["done"] == 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert progress.status_code == 202
    assert progress.json()["done"] == 1 and progress.json()["total"] > 1
    release.set()
    assert finished(client, path)["kind"] == "board"


@pytest.mark.parametrize(("error", "said"), [
    (BackgammonError("The record holds a play the rules do not allow."),
     "The record holds a play the rules do not allow."),
    (RuntimeError("a bug"), analyses.FAILED),
])
def test_a_failed_analysis_says_why(client: Any, monkeypatch: pytest.MonkeyPatch,
                                    error: Exception, said: str) -> None:
    def fails(*_: Any) -> Any:
        raise error

    monkeypatch.setattr(analyses, "analyse_board_record", fails)
    state = played_to_the_end(client, "plakoto")
    path = f"/api/matches/{state['id']}/analysis"
    client.post(path)
    deadline = time.monotonic() + 30
    while (answer := client.get(path)).status_code == 202:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert answer.status_code == 409 and answer.json()["detail"] == said


def test_the_trainer_keeps_to_backgammon(client: Any) -> None:
    """An analysed match of another game gives no trainer's cards: said with a sentence."""
    state = played_to_the_end(client, "tavla")
    finished(client, f"/api/matches/{state['id']}/analysis")
    answer = client.get(f"/api/matches/{state['id']}/mistakes")
    assert answer.status_code == 409
    assert answer.json()["detail"].startswith("The trainer's cards are for backgammon alone")
