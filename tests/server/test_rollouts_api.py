"""Rollouts in the background (/api/rollouts): a small rollout reaches the result that
Bot.rollout gives with the same seed, its progress rising piece by piece; cancel stops it
between pieces; the limits per client (429) and in all (503) hold; every kind of bad input is
a 422 with a sentence, an unknown job a 404."""

from __future__ import annotations

import json
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon import Position
from backgammon.bot import Bot, Level, RolloutRun
from backgammon.cube import CubeContext, CubeOwner
from backgammon.server import Settings, create_app
from backgammon.server.engine_api import rollouts
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

START = "4HPwATDgc/ABMA"
TINY = {"position": START, "trials": 36, "truncate": 2}
UNLIMITED = {"create_rate": None, "hint_rate": None, "action_rate": None}


def client_for(database: Path, **settings: Any) -> TestClient:
    options = {"computer_pause": 0, **UNLIMITED, **settings}
    return TestClient(create_app(Settings(database_url=sqlite_url(database), **options)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_for(tmp_path_factory.mktemp("rollouts") / "games.sqlite") as test_client:
        yield test_client


class Gated(RolloutRun):
    """A run whose every piece waits for the test to let it through."""

    gate = threading.Semaphore(0)

    def step(self, count: int) -> int:
        assert self.gate.acquire(timeout=60), "the test never let the piece through"
        return super().step(count)


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Semaphore]:
    """The jobs started meanwhile run one piece each time the semaphore is released."""
    gate = threading.Semaphore(0)
    monkeypatch.setattr(Gated, "gate", gate)
    monkeypatch.setattr(rollouts, "RolloutRun", Gated)
    yield gate
    gate.release(1000)  # whatever still waits runs out


def start(client: TestClient, **question: Any) -> str:
    response = client.post("/api/rollouts", json=question)
    assert response.status_code == 202, response.text
    job_id: str = response.json()["id"]
    return job_id


def state(client: TestClient, job_id: str) -> dict[str, Any]:
    response = client.get(f"/api/rollouts/{job_id}")
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()
    return view


def wait_for(client: TestClient, job_id: str, done: int | None = None) -> dict[str, Any]:
    """The job's state once it has run ``done`` trials (None: once it has ended)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = state(client, job_id)
        if view["status"] != "running" if done is None else view["done"] >= done:
            return view
        time.sleep(0.02)
    raise AssertionError(f"the rollout never got there: {view}")


def test_a_small_rollout_reaches_its_result(client: TestClient) -> None:
    job_id = start(client, **TINY)
    view = wait_for(client, job_id)
    assert view["status"] == "done" and view["done"] == view["trials"] == 36
    assert (view["plies"], view["truncate"], view["position_id"]) == (0, 2, START)
    result = view["result"]
    expected = Bot(level=Level.STRONGEST).rollout(
        Position.from_id(START), trials=36, truncate=2, seed=result["seed"], workers=1
    )
    assert result == json.loads(json.dumps(expected.as_dict()))
    assert result["equity_se"] > 0 and result["cubeful_se"] > 0
    assert set(result["probabilities_se"]) == {
        "win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"
    }


def test_a_match_rollout_gives_the_match_winning_chance(client: TestClient) -> None:
    job_id = start(client, **TINY, match={"length": 5, "score": [3, 1]})
    result = wait_for(client, job_id)["result"]
    assert 0 < result["match_winning_chance"] < 1 and result["match_winning_chance_se"] > 0


#: The opening position with 6-4 to play: 8/2 6/2 is the best of these three by far.
OPENING_64 = {"position": START, "dice": [6, 4], "trials": 36, "truncate": 2}
PLAYS_64 = ["13/3", "24/14", "8/2 6/2"]


def test_plays_are_rolled_out_each_from_the_position_it_leaves(client: TestClient) -> None:
    job_id = start(client, **OPENING_64, plays=PLAYS_64)
    view = wait_for(client, job_id)
    assert view["status"] == "done" and view["done"] == view["trials"] == 3 * 36
    assert view["result"] is None and view["position_id"] == START
    ranked = view["plays"]
    assert ranked[0]["play"] == "8/2 6/2"
    assert sorted(each["play"] for each in ranked) == sorted(["13/3", "24/14", "8/2 6/2"])
    assert all(each["se"] > 0 for each in ranked)
    assert [each["equity"] for each in ranked] == sorted(
        (each["equity"] for each in ranked), reverse=True)
    # Seen from the mover: near the opening's own value, not the opponent's side of it.
    assert -0.3 < ranked[0]["equity"] < 0.4


def test_a_play_that_ends_the_game_has_its_exact_value(client: TestClient) -> None:
    last = [0] * 26
    last[0], last[1], last[2] = 13, 1, 1
    far = [0] * 26
    far[6] = 15
    job_id = start(client, checkers={"on_roll": last, "opponent": far}, dice=[2, 1],
                   trials=36, truncate=2, plays=["2/off 1/off", "2/1 1/off"])
    ranked = wait_for(client, job_id)["plays"]
    assert ranked[0]["play"] == "2/off 1/off" and ranked[0]["se"] == 0
    assert ranked[0]["equity"] > ranked[1]["equity"]


def test_a_cubeful_rollout_plays_the_cube_in_the_trials(client: TestClient) -> None:
    job_id = start(client, **TINY, cubeful=True, cube={"value": 2, "owner": "on roll"})
    view = wait_for(client, job_id)
    assert view["status"] == "done" and view["cubeful"] is True
    result = view["result"]
    expected = Bot(level=Level.STRONGEST).rollout(
        Position.from_id(START), CubeContext(value=2, owner=CubeOwner.ON_ROLL), trials=36,
        truncate=2, seed=result["seed"], workers=1, cubeful=True,
    )
    assert result == json.loads(json.dumps(expected.as_dict()))
    assert result["cubeful"] is True and 0 <= result["doubled"] <= 1
    assert state(client, start(client, **TINY))["cubeful"] is False


def test_progress_rises_piece_by_piece(
    client: TestClient, gated: threading.Semaphore
) -> None:
    job_id = start(client, **TINY)
    first = state(client, job_id)
    assert (first["status"], first["done"], first["result"]) == ("running", 0, None)
    piece = rollouts.PIECE[0]
    seen = []
    for pieces in (1, 2, 3):
        gated.release()
        view = wait_for(client, job_id, piece * pieces)
        seen.append(view["done"])
        assert view["result"]["trials"] == view["done"]
    assert seen == [piece, 2 * piece, 3 * piece] and 3 * piece == 36
    assert wait_for(client, job_id)["status"] == "done"


def test_cancel_stops_a_rollout_between_pieces(
    client: TestClient, gated: threading.Semaphore
) -> None:
    job_id = start(client, **TINY)
    gated.release()
    wait_for(client, job_id, rollouts.PIECE[0])
    response = client.delete(f"/api/rollouts/{job_id}")
    assert response.status_code == 200 and response.json()["status"] == "cancelled"
    gated.release(5)
    view = state(client, job_id)
    assert view["status"] == "cancelled" and view["done"] <= 2 * rollouts.PIECE[0]
    assert view["result"]["trials"] == view["done"]
    # Cancelling again changes nothing.
    again = client.delete(f"/api/rollouts/{job_id}")
    assert again.status_code == 200 and again.json()["status"] == "cancelled"


def test_a_client_may_run_only_so_many_at_once(
    tmp_path: Path, gated: threading.Semaphore
) -> None:
    with client_for(tmp_path / "g.sqlite", rollouts_per_client=2) as limited:
        first, _ = start(limited, **TINY), start(limited, **TINY)
        response = limited.post("/api/rollouts", json=TINY)
        assert response.status_code == 429
        assert "at most 2 at once" in response.json()["detail"]
        limited.delete(f"/api/rollouts/{first}")
        gated.release(2)  # the threads the two hold are free again
        start(limited, **TINY)  # a cancelled one no longer counts
        gated.release(1000)  # before the server stops, which waits for its threads


def test_the_server_runs_only_so_many_in_all(
    tmp_path: Path, gated: threading.Semaphore
) -> None:
    with client_for(tmp_path / "g.sqlite", rollouts_per_client=5, rollouts_most=1) as busy:
        start(busy, **TINY)
        response = busy.post("/api/rollouts", json=TINY)
        assert response.status_code == 503 and "busy" in response.json()["detail"]
        assert response.headers["retry-after"]
        gated.release(1000)


def test_starts_count_against_the_hint_rate(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite", hint_rate="1/minute") as limited:
        start(limited, **TINY)
        response = limited.post("/api/rollouts", json=TINY)
        assert response.status_code == 429 and "Too many hints" in response.json()["detail"]


def test_an_ended_rollout_is_forgotten(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite", rollout_keep=0.0) as forgetful:
        job_id = start(forgetful, **TINY)
        deadline = time.monotonic() + 120
        while (response := forgetful.get(f"/api/rollouts/{job_id}")).status_code == 200:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert response.status_code == 404 and "forgotten" in response.json()["detail"]


# Bad input


def test_an_unknown_rollout_is_not_found(client: TestClient) -> None:
    for method in ("get", "delete"):
        response = client.request(method, "/api/rollouts/no-such-job")
        assert response.status_code == 404 and "No such rollout" in response.json()["detail"]
        too_long = client.request(method, "/api/rollouts/" + "x" * 41)
        assert too_long.status_code == 422 and "x" * 41 not in too_long.text


SIDE = [0] * 26
SIDE[6] = 15


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ({}, "Give the position once"),
        ({"position": "not an id"}, ""),
        ({"position": "4HPwATDgc/ABM\u00e9"}, "position"),
        ({"position": "A" * 101}, "position"),
        ({"checkers": {"on_roll": [15] + [0] * 25, "opponent": SIDE}}, "game is over"),
        ({"checkers": {"on_roll": SIDE, "opponent": SIDE[::-1]}}, "point"),
        ({"position": START, "trials": 1}, "trials"),
        ({"position": START, "trials": 1297}, "trials"),
        ({"position": START, "trials": "36"}, "trials"),
        ({"position": START, "trials": 36.0}, "trials"),
        ({"position": START, "plies": 1, "trials": 325}, "at most 324 trials"),
        ({"position": START, "plies": 2, "trials": 37}, "at most 36 trials"),
        ({"position": START, "plies": 3}, "plies"),
        ({"position": START, "plies": -1}, "plies"),
        ({"position": START, "plies": True}, "plies"),
        ({"position": START, "truncate": -1}, "truncate"),
        ({"position": START, "truncate": 101}, "truncate"),
        ({"position": START, "truncate": None}, "truncate"),
        ({"position": START, "cubeful": "yes"}, "cubeful"),
        ({"position": START, "cubeful": 1}, "cubeful"),
        ({"position": START, "match": {"length": 5, "score": [5, 0]}}, "5-point match"),
        ({"position": START, "cube": {"value": 3}}, "power of two"),
        ({"position": START, "seed": 1}, "seed"),
        ({**OPENING_64, "plays": ["8/2 6/2"]}, "plays"),
        ({**OPENING_64, "plays": ["8/2 6/2"] * 7}, "plays"),
        ({**OPENING_64, "dice": None, "plays": PLAYS_64}, "give the dice"),
        ({**OPENING_64, "plays": ["8/2 6/2", "6/2 8/2"]}, "another play's moves again"),
        ({**OPENING_64, "plays": ["8/2 6/2", "24/1"]}, "Play 2"),
        ({**OPENING_64, "plays": ["8/2 6/2", 7]}, "plays"),
        ({**OPENING_64, "trials": 720, "plays": PLAYS_64}, "in all"),
        ({**OPENING_64, "plays": PLAYS_64, "cubeful": True}, "leave out cubeful"),
        ("[1, 2]", "not a JSON object"),
        ("{not json", "not valid JSON"),
    ],
)
def test_bad_questions_are_refused_with_a_sentence(
    client: TestClient, body: Any, phrase: str
) -> None:
    content = body if isinstance(body, str) else json.dumps(body)
    response = client.post(
        "/api/rollouts", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith("."), detail
    assert phrase in detail, detail
    assert "not an id" not in detail and "A" * 101 not in detail


def test_openapi_documents_the_rollouts(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"post"} <= set(paths["/api/rollouts"])
    assert {"get", "delete"} <= set(paths["/api/rollouts/{job_id}"])
    assert {"422", "429", "503"} <= set(paths["/api/rollouts"]["post"]["responses"])
