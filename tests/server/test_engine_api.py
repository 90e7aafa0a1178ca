"""The engine API for other programs (/api/v1/engine/move, eval, cube): the answers are
bot.answers' JSON for the position, cube and score asked, by every way of naming a position;
every kind of bad input is a 422 with a sentence; the hint rate and pool guard it; OpenAPI
documents its answers."""

from __future__ import annotations

import json
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon import Position
from backgammon.bot import Bot, CubeContext, CubeOwner, Level, MatchScore
from backgammon.bot.answers import cube_answer, eval_answer, move_answer
from backgammon.server import Settings, create_app
from backgammon.server.play import computer
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

START = "4HPwATDgc/ABMA"
#: Seat 1 on roll with 5-2, the cube at 2 owned by seat 0, 7-point match at 2-1.
XGID = "XGID=-b----E-C---eE---c-e----B-:1:1:-1:52:2:1:0:7:10"
UNLIMITED = {"create_rate": None, "hint_rate": None, "action_rate": None}


def client_for(database: Path, **settings: Any) -> TestClient:
    options = {"computer_pause": 0, **UNLIMITED, **settings}
    return TestClient(create_app(Settings(database_url=sqlite_url(database), **options)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with client_for(tmp_path_factory.mktemp("engine") / "games.sqlite") as test_client:
        yield test_client


@pytest.fixture(scope="module")
def bot() -> Bot:
    return Bot(level=Level.ADVANCED)


def ask(client: TestClient, kind: str, **question: Any) -> dict[str, Any]:
    response = client.post(f"/api/v1/engine/{kind}", json=question)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def refused(client: TestClient, kind: str, body: Any, phrase: str = "") -> str:
    """The 422's sentence for ``body``, checked to hold ``phrase``."""
    content = body if isinstance(body, str) else json.dumps(body)
    response = client.post(
        f"/api/v1/engine/{kind}", content=content, headers={"content-type": "application/json"}
    )
    assert response.status_code == 422, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith("."), detail
    assert phrase in detail, detail
    return detail


def same(answer: dict[str, Any], expected: dict[str, Any]) -> None:
    """The API's JSON is bot.answers' (floats through JSON unchanged)."""
    assert answer == json.loads(json.dumps(expected))


# Answers


def test_move_ranks_the_plays_of_the_roll(client: TestClient, bot: Bot) -> None:
    answer = ask(client, "move", position=START, dice=[3, 1], plays=3)
    same(answer, move_answer(bot, Position.initial(), (3, 1), CubeContext(), 3))
    assert [play["rank"] for play in answer["plays"]] == [1, 2, 3]
    assert answer["plays"][0]["play"] == "8/5 6/5" and answer["legal"] == 16
    assert all(play["difference"] <= 0 for play in answer["plays"])


def test_move_reads_the_roll_cube_and_score_of_an_xgid(client: TestClient, bot: Bot) -> None:
    answer = ask(client, "move", position=XGID, plays=2)
    assert answer["dice"] == [5, 2]
    assert answer["match"] == {"length": 7, "score": [1, 2], "crawford": False}
    cube = CubeContext(2, CubeOwner.OPPONENT, MatchScore(7, (1, 2)))
    same(answer, move_answer(bot, Position.initial(), (5, 2), cube, 2))
    same(ask(client, "move", position=XGID, plays=2, dice=[2, 5]), answer)


def test_a_full_gnubg_id_gives_the_score(client: TestClient) -> None:
    answer = ask(client, "eval", position="4HPwATDgc/ABMA:cAngACAAAAAE")
    assert answer["match"] == {"length": 7, "score": [0, 2], "crawford": False}


def test_checkers_name_a_position(client: TestClient, bot: Bot) -> None:
    home = [0] * 26
    home[0], home[1], home[2] = 12, 2, 1
    far = [12] + [0] * 25
    far[1] = 3
    answer = ask(client, "move", checkers={"on_roll": home, "opponent": far}, dice=[6, 6])
    position = Position(home, far)
    same(answer, move_answer(bot, position, (6, 6), CubeContext(), 5))
    assert answer["plays"][0]["play"] == "2/off 1/off(2)"


def test_a_roll_with_no_move_has_no_plays(client: TestClient) -> None:
    closed = [0, 2, 2, 2, 2, 2, 2] + [0] * 17 + [3] + [0]
    barred = [14] + [0] * 24 + [1]
    answer = ask(client, "move", checkers={"on_roll": barred, "opponent": closed}, dice=[6, 5])
    assert answer["legal"] == 0 and answer["plays"] == []


def test_eval_gives_the_chances_and_both_equities(client: TestClient, bot: Bot) -> None:
    answer = ask(client, "eval", position=START)
    same(answer, eval_answer(bot, Position.initial(), CubeContext()))
    chances = answer["probabilities"]
    assert abs(chances["win"] + chances["lose"] - 1) < 1e-9
    assert answer["cubeful"]["match_winning_chance"] is None
    in_match = ask(client, "eval", position=START, match={"length": 5, "score": [3, 1]})
    assert 0 < in_match["cubeful"]["match_winning_chance"] < 1


def test_cube_gives_the_decision_and_its_equities(client: TestClient, bot: Bot) -> None:
    strong = "4HPwATDgc/ABMA"
    answer = ask(client, "cube", position=strong, cube={"value": 2, "owner": "on roll"})
    same(answer, cube_answer(bot, Position.initial(), CubeContext(2, CubeOwner.ON_ROLL)))
    assert answer["cube"] == {"value": 2, "owner": "on roll", "may_double": True}
    crawford = ask(
        client, "cube", position=strong, match={"length": 5, "score": [4, 2], "crawford": True}
    )
    assert crawford["cube"]["may_double"] is False and crawford["action"] == "no double"
    assert crawford["equities"]["double_take"] == {"equity": None, "match_winning_chance": None}
    beavers = ask(client, "cube", position=strong, cube={"beavers": True, "jacoby": True})
    assert beavers["response"] in ("take", "beaver", "drop")


def test_deeper_plies_are_asked_of_the_deeper_bot(client: TestClient) -> None:
    answer = ask(client, "eval", position=START, plies=1)
    assert answer["plies"] == 1
    assert answer["probabilities"] != ask(client, "eval", position=START)["probabilities"]
    deepest = ask(client, "move", position=START, dice=[3, 1], plies=3, plays=2)
    assert deepest["plies"] == 3 and deepest["plays"][0]["play"] == "8/5 6/5"


def test_openapi_documents_the_answers(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for kind, model in (("move", "MoveAnswer"), ("eval", "EvalAnswer"), ("cube", "CubeAnswer")):
        operation = paths[f"/api/v1/engine/{kind}"]["post"]
        ok = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert ok["$ref"].endswith(model)
        assert {"422", "429", "503"} <= set(operation["responses"])


# Bad input


SIDE = [0] * 26
SIDE[6] = 15


@pytest.mark.parametrize(
    ("kind", "body", "phrase"),
    [
        ("eval", {}, "Give the position once"),
        ("eval", {"position": START, "checkers": {"on_roll": SIDE, "opponent": SIDE}}, "once"),
        ("eval", {"position": "not an id"}, ""),
        ("eval", {"position": "4HPwATDgc/ABM\u00e9"}, "position"),
        ("eval", {"position": "A" * 101}, "position"),
        ("eval", {"position": 7}, "position"),
        ("eval", {"position": "4HPwATDgc/ABMA:MBkAAAAAAAAE"}, "waiting for its answer"),
        ("eval", {"checkers": {"on_roll": SIDE[:25], "opponent": SIDE}}, "on_roll"),
        ("eval", {"checkers": {"on_roll": SIDE, "opponent": [-1, *SIDE[1:]]}}, "opponent"),
        ("eval", {"checkers": {"on_roll": SIDE, "opponent": [16, *SIDE[1:]]}}, "opponent"),
        ("eval", {"checkers": {"on_roll": SIDE, "opponent": [*SIDE[:6], 14, *SIDE[7:]]}}, "same"),
        ("eval", {"checkers": {"on_roll": SIDE, "opponent": SIDE[::-1]}}, "point"),
        ("eval", {"checkers": {"on_roll": [15] + [0] * 25, "opponent": SIDE}}, "game is over"),
        ("eval", {"checkers": {"on_roll": SIDE}}, "opponent"),
        ("move", {"position": START}, "needs the dice"),
        ("move", {"position": START, "dice": [7, 1]}, "dice"),
        ("move", {"position": START, "dice": [0, 1]}, "dice"),
        ("move", {"position": START, "dice": [3, 1.0]}, "dice"),
        ("move", {"position": START, "dice": [True, 1]}, "dice"),
        ("move", {"position": START, "dice": ["3", "1"]}, "dice"),
        ("move", {"position": START, "dice": [3, 1, 1]}, "dice"),
        ("move", {"position": START, "dice": 31}, "dice"),
        ("move", {"position": XGID, "dice": [3, 1]}, "holds the dice 5-2"),
        ("move", {"position": START, "dice": [3, 1], "plays": 0}, "plays"),
        ("move", {"position": START, "dice": [3, 1], "plays": 33}, "plays"),
        ("move", {"position": START, "dice": [3, 1], "plies": 3, "plays": 9}, "at most 8 plays"),
        ("eval", {"position": START, "plies": 4}, "plies"),
        ("eval", {"position": START, "plies": -1}, "plies"),
        ("eval", {"position": START, "plies": "1"}, "plies"),
        ("eval", {"position": START, "plies": 1.0}, "plies"),
        ("eval", {"position": START, "plies": True}, "plies"),
        ("eval", {"position": START, "dice": [3, 1]}, "dice"),
        ("eval", {"position": START, "match": {"length": 0}}, "length"),
        ("eval", {"position": START, "match": {"length": 65}}, "length"),
        ("eval", {"position": START, "match": {"length": 5, "score": [5, 0]}}, "5-point match"),
        ("eval", {"position": START, "match": {"length": 5, "score": [1]}}, "score"),
        ("eval", {"position": START, "match": {"length": 5, "crawford": True}}, "Crawford"),
        ("eval", {"position": START, "match": {"length": 5, "extra": 1}}, "extra"),
        ("eval", {"position": XGID, "match": {"length": 5}}, "The ID holds the cube"),
        ("cube", {"position": XGID, "cube": {"value": 4}}, "The ID holds the cube"),
        ("cube", {"position": START, "cube": {"value": 3}}, "power of two"),
        ("cube", {"position": START, "cube": {"value": 8192}}, "value"),
        ("cube", {"position": START, "cube": {"owner": "me"}}, "owner"),
        ("cube", {"position": START, "cube": {"jacoby": "yes"}}, "jacoby"),
        (
            "cube",
            {"position": START, "cube": {"jacoby": True}, "match": {"length": 5}},
            "do not apply in matches",
        ),
        ("cube", {"position": START, "colour": "white"}, "colour"),
        ("cube", "[1, 2]", "not a JSON object"),
        ("cube", "{not json", "not valid JSON"),
    ],
)
def test_bad_questions_are_refused_with_a_sentence(
    client: TestClient, kind: str, body: Any, phrase: str
) -> None:
    refused(client, kind, body, phrase)


# Guards


def test_questions_count_against_the_hint_rate(tmp_path: Path) -> None:
    with client_for(tmp_path / "g.sqlite", hint_rate="2/minute") as limited:
        ask(limited, "eval", position=START)
        ask(limited, "cube", position=START)
        response = limited.post("/api/v1/engine/move", json={"position": START, "dice": [3, 1]})
        assert response.status_code == 429 and "Too many hints" in response.json()["detail"]


def test_questions_wait_in_the_bounded_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    consult = computer.consult

    def slow(level: Level, question: Any) -> Any:
        started.set()
        release.wait(30)
        return consult(level, question)

    monkeypatch.setattr(computer, "consult", slow)
    with client_for(tmp_path / "g.sqlite", hint_workers=1, hint_queue=0) as busy:
        first: list[int] = []
        thread = threading.Thread(
            target=lambda: first.append(
                busy.post("/api/v1/engine/eval", json={"position": START}).status_code
            )
        )
        thread.start()
        assert started.wait(30)
        response = busy.post("/api/v1/engine/eval", json={"position": START})
        assert response.status_code == 503 and "busy" in response.json()["detail"]
        release.set()
        thread.join(30)
        assert first == [200]
