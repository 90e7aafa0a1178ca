"""The position editor's routes: /editor is its page; POST /api/editor/ids checks a position set
by hand and writes its IDs, POST /api/editor/read reads an ID back as a position; every kind of
bad input is a 422 with a sentence that echoes nothing; and the IDs it writes start a match
("Play from here") at the same position."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

START = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:7:10"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("editor") / "games.sqlite"
    settings = Settings(database_url=sqlite_url(database), computer_pause=0, create_rate=None)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def position(**fields: Any) -> dict[str, Any]:
    return {"checkers": [START, START], **fields}


def ids(client: TestClient, body: Any) -> dict[str, Any]:
    response = client.post("/api/editor/ids", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, path: str, body: Any, phrase: str) -> str:
    content = body if isinstance(body, str) else json.dumps(body)
    response = client.post(path, content=content, headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    detail: str = response.json()["detail"]
    assert phrase in detail and detail.endswith("."), detail
    assert "<script>" not in response.text
    return detail


def test_the_page_is_served_with_its_script(client: TestClient) -> None:
    page = client.get("/editor")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert 'id="board"' in page.text and ("/js/editor.js" in page.text or "/dist/" in page.text)


def test_the_start_has_its_ids(client: TestClient) -> None:
    answer = ids(client, position(dice=[3, 1], length=7))
    assert answer["gnubg_id"] == "4HPwATDgc/ABMA:MIHlAAAAAAAE"
    assert answer["xgid"] == "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10"
    assert answer["per_side"] == 15 and answer["checkers"] == [START, START]


def test_an_id_reads_back_as_the_position_that_writes_it(client: TestClient) -> None:
    read = client.post("/api/editor/read", json={"id": XGID}).json()
    seen = read["on_roll"], read["dice"], read["cube_value"], read["cube_owner"]
    assert seen == (1, [5, 2], 2, 0)
    assert (read["length"], read["score"], read["xgid"]) == (7, [2, 1], XGID)
    body = {key: read[key] for key in ("variant", "checkers", "on_roll", "dice", "cube_value",
                                        "cube_owner", "length", "score", "crawford")}
    assert ids(client, body)["gnubg_id"] == read["gnubg_id"]
    again = client.post("/api/editor/read", json={"id": read["gnubg_id"]}).json()
    assert again == read


def test_no_id_reads_as_the_variants_start(client: TestClient) -> None:
    answer = client.post("/api/editor/read", json={"variant": "hypergammon"}).json()
    assert answer["per_side"] == 3 and answer["checkers"][0][21:24] == [1, 1, 1]
    assert answer["gnubg_id"].startswith("AACgAgAAKgAAAA:")


def test_fewer_checkers_and_the_bar_are_accepted(client: TestClient) -> None:
    mine = [0] * 25
    mine[5], mine[24] = 2, 1
    theirs = [0] * 25
    theirs[0] = 1
    answer = ids(client, {"checkers": [mine, theirs], "on_roll": 1})
    assert answer["checkers"] == [mine, theirs]


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        pytest.param(position(checkers=[[16] + [0] * 24, START]), "equal to 15", id="count 16"),
        pytest.param(position(checkers=[[15] + [0] * 23 + [1], START]), "16 checkers",
                     id="16 on the board"),
        pytest.param(position(checkers=[[1] + [0] * 24, [0] * 23 + [1, 0]]), "point 1",
                     id="shared point"),
        pytest.param(position(checkers=[[0] * 25, START]), "all off", id="all off"),
        pytest.param(position(variant="hypergammon"), "a side has 3", id="15 in hypergammon"),
        pytest.param(position(variant="<script>"), "variant", id="unknown variant"),
        pytest.param(position(checkers=[START]), "checkers", id="one side"),
        pytest.param(position(checkers=[START[:24], START]), "checkers", id="24 counts"),
        pytest.param(position(checkers=[["1"] * 25, START]), "checkers", id="strings"),
        pytest.param(position(on_roll=2), "on_roll", id="on roll 2"),
        pytest.param(position(dice=[0, 7]), "dice", id="die 0"),
        pytest.param(position(dice=[3]), "dice", id="one die"),
        pytest.param(position(cube_value=3), "power of two", id="cube 3"),
        pytest.param(position(cube_value=8192), "cube_value", id="cube too big"),
        pytest.param(position(cube_owner=2), "cube_owner", id="owner 2"),
        pytest.param(position(length=65), "length", id="length 65"),
        pytest.param(position(length=-1), "length", id="negative length"),
        pytest.param(position(length=5, score=[5, 0]), "nothing to play", id="score at length"),
        pytest.param(position(score=[1, 0]), "Money play", id="score in money"),
        pytest.param(position(length=5, score=[2, 2], crawford=True), "one point short",
                     id="Crawford at 2-2"),
        pytest.param(position(length=5, score=[4, 2], crawford=True, cube_value=2), "Crawford",
                     id="cube in the Crawford game"),
        pytest.param(position(extra=1), "extra", id="unknown field"),
        pytest.param({}, "checkers", id="empty"),
        pytest.param("[]", "body", id="a list"),
        pytest.param("{", "JSON", id="not JSON"),
    ],
)
def test_bad_positions_are_refused_with_a_sentence(
    client: TestClient, body: Any, phrase: str
) -> None:
    refused(client, "/api/editor/ids", body, phrase)


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        pytest.param({"id": "<script>alert(1)</script>"}, "Position ID", id="markup"),
        pytest.param({"id": "4HPwATDgc/ABMA:MBkAAAAAAAAE"}, "double", id="double pending"),
        pytest.param({"id": "27YBANC2bQAABA"}, "closed board", id="both shut out"),
        pytest.param({"id": "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0"}, "fields",
                     id="short XGID"),
        pytest.param({"id": XGID, "variant": "hypergammon"}, "a side has 3",
                     id="standard read as hypergammon"),
        pytest.param({"id": "x" * 101}, "id", id="too long"),
        pytest.param({"id": "é"}, "id", id="not ASCII"),
        pytest.param({"id": 7}, "id", id="a number"),
        pytest.param({"id": "4HPwATDgc/ABMA", "other": 1}, "other", id="unknown field"),
    ],
)
def test_bad_ids_are_refused_with_a_sentence(client: TestClient, body: Any, phrase: str) -> None:
    refused(client, "/api/editor/read", body, phrase)


def test_play_from_here_starts_the_position_edited(client: TestClient) -> None:
    mine = [0] * 25
    mine[5], mine[7], mine[24] = 3, 2, 1
    theirs = [0] * 25
    theirs[5], theirs[12] = 4, 2
    edited = ids(client, {"checkers": [mine, theirs], "on_roll": 0, "dice": [6, 4],
                          "cube_value": 2, "cube_owner": 1, "length": 5, "score": [1, 3]})
    created = client.post("/api/matches", json={
        "opponent": "human", "length": edited["length"], "position": edited["gnubg_id"],
    })
    assert created.status_code in (200, 201), created.text
    state = client.get(f"/api/matches/{created.json()['id']}",
                       headers={"Authorization": f"Bearer {created.json()['token']}"}).json()
    assert (state["gnubg_id"], state["xgid"]) == (edited["gnubg_id"], edited["xgid"])


@pytest.mark.parametrize(
    ("body", "code"),
    [
        pytest.param(position(checkers=[[15] + [0] * 23 + [1], START]), "too_many", id="16"),
        pytest.param(position(checkers=[[1] + [0] * 24, [0] * 23 + [1, 0]]), "shared_point",
                     id="shared point"),
        pytest.param(position(checkers=[[0] * 25, START]), "all_off", id="one side all off"),
        pytest.param(position(checkers=[[0] * 25, [0] * 25]), "all_off", id="both all off"),
        pytest.param(position(checkers=[[2] * 6 + [0] * 18 + [1]] * 2), "shut_out",
                     id="both shut out"),
        pytest.param(position(length=5, score=[5, 0]), "score", id="score"),
        pytest.param(position(length=5, score=[2, 2], crawford=True), "crawford", id="Crawford"),
        pytest.param(position(length=5, score=[4, 2], crawford=True, cube_owner=1),
                     "crawford_cube", id="cube in the Crawford game"),
        pytest.param(position(score=[1, 0]), "money_score", id="money score"),
    ],
)
def test_the_refusals_the_page_words_are_named(client: TestClient, body: Any, code: str) -> None:
    response = client.post("/api/editor/ids", json=body)
    assert response.status_code == 422
    assert response.json()["code"] == code and response.json()["detail"].endswith(".")


def test_a_refusal_the_page_does_not_word_has_no_code(client: TestClient) -> None:
    response = client.post("/api/editor/ids", json=position(cube_value=3))
    assert response.status_code == 422 and "code" not in response.json()
