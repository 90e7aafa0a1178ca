"""The tutor through the API: ``POST /api/matches/{id}/tutor`` judges a play made and not yet
confirmed, or a cube action not yet sent, against the threshold asked (GNU Backgammon's
marks), warns with the better play or cube action and its reasons above it, keeps each
warning with the match (``GET /api/matches/{id}/tutor``), and is refused online between
people and for questions that do not fit the game."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

#: The starting position, White (seat 0) on roll with 6-4: 8/2 6/2 is best; 13/3 loses about
#: 0.09 (bad, not very bad), 24/14 about 0.01 (no mark) at the hints' depth.
OPENING_64 = "XGID=-b----E-C---eE---c-e----B-:0:0:1:64:0:0:0:0:10"
#: The starting position, White to roll or double: doubling is a very bad mistake.
START = "4HPwATDgc/ABMA"


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(
        database_url=sqlite_url(tmp_path / "games.sqlite"), computer_pause=0,
        create_rate=None, hint_rate=None, action_rate=None, upload_rate=None,
    )


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def create(client: TestClient, **options: Any) -> str:
    response = client.post("/api/matches", json={"opponent": "human", **options})
    assert response.status_code == 201, response.text
    client.headers["Authorization"] = f"Bearer {response.json()['token']}"
    match_id: str = response.json()["id"]
    return match_id


def version(client: TestClient, match_id: str) -> int:
    number: int = client.get(f"/api/matches/{match_id}").json()["version"]
    return number


def act(client: TestClient, match_id: str, **action: Any) -> None:
    body = {"version": version(client, match_id), **action}
    response = client.post(f"/api/matches/{match_id}/actions", json=body)
    assert response.status_code == 200, response.text


def steps(client: TestClient, match_id: str, *moves: tuple[int, int]) -> None:
    for source, target in moves:
        act(client, match_id, seat=0, action="step", **{"from": source, "to": target})


def ask(client: TestClient, match_id: str, **question: Any) -> Any:
    body = {"version": version(client, match_id), **question}
    return client.post(f"/api/matches/{match_id}/tutor", json=body)


def judge(client: TestClient, match_id: str, **question: Any) -> dict[str, Any]:
    response = ask(client, match_id, **question)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def notes(client: TestClient, match_id: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/matches/{match_id}/tutor")
    assert response.status_code == 200, response.text
    kept: list[dict[str, Any]] = response.json()["notes"]
    return kept


def test_a_bad_play_is_warned_of_above_the_threshold_only(
    client: TestClient, settings: Settings
) -> None:
    match_id = create(client, position=OPENING_64)
    steps(client, match_id, (13, 7), (7, 3))
    quiet = judge(client, match_id, action="confirm", threshold="very bad")
    assert quiet["warn"] is False and quiet["hint"] is None
    assert quiet["played"] == "13/3" and quiet["best"] == "8/2 6/2"
    assert quiet["mark"] == "bad" and 0.08 < quiet["loss"] <= 0.16
    assert notes(client, match_id) == []  # nothing said, nothing kept
    for threshold in ("bad", "doubtful"):
        warned = judge(client, match_id, action="confirm", threshold=threshold, lang="vi")
        assert warned["warn"] is True and warned["loss"] == quiet["loss"]
        better = warned["hint"]["plays"][0]
        assert better["play"] == "8/2 6/2" and better["reasons"]
        assert better["remaining"] is None  # the steps made do not lead to it: undo them
        assert warned["hint"]["made"] and warned["hint"]["from_turn_start"]
    # The better play's reasons are the hint's, in the language asked.
    hint = client.get(f"/api/matches/{match_id}/hint", params={"lang": "vi"}).json()
    assert better["reasons"] == hint["plays"][0]["reasons"]
    kept = notes(client, match_id)  # one note a moment, however often it is asked
    assert [(n["action"], n["played"], n["best"], n["mark"], n["threshold"]) for n in kept] == [
        ("confirm", "13/3", "8/2 6/2", "bad", "bad"),
    ]
    assert kept[0]["game"] == 1 and kept[0]["seat"] == 0
    # The record tells the rest: the steps taken back, then the better play made.
    event = kept[0]["event"]
    act(client, match_id, seat=0, action="undo")
    act(client, match_id, seat=0, action="undo")
    steps(client, match_id, (8, 2), (6, 2))
    good = judge(client, match_id, action="confirm", threshold="doubtful")
    assert good["warn"] is False and good["loss"] == 0 and good["mark"] is None
    act(client, match_id, seat=0, action="confirm")
    events = client.get(f"/api/matches/{match_id}/record").json()["games"][0]
    assert [e["action"] for e in events[event:]] == ["undo", "undo", "step", "step", "confirm"]
    # The warnings are kept with the match: a server started afresh still has them.
    with TestClient(create_app(settings)) as again:
        assert again.get(f"/api/matches/{match_id}/tutor").json()["notes"] == kept


def test_a_close_play_is_not_warned_of(client: TestClient) -> None:
    match_id = create(client, position=OPENING_64)
    steps(client, match_id, (24, 18), (18, 14))
    verdict = judge(client, match_id, action="confirm", threshold="doubtful")
    assert verdict["warn"] is False and verdict["loss"] < 0.04 and verdict["mark"] is None


def test_cube_actions_are_judged_before_they_are_sent(client: TestClient) -> None:
    match_id = create(client, position=START)
    double = judge(client, match_id, action="double", threshold="very bad", lang="fa")
    assert double["warn"] is True and double["mark"] == "very bad"
    assert double["played"] == "double" and double["best"] == "no double"
    cube = double["hint"]["cube"]
    assert cube["recommended"] == "roll" and cube["reasons"]
    act(client, match_id, seat=0, action="double")  # kept, against the advice
    take = judge(client, match_id, action="take", threshold="doubtful")
    assert take["warn"] is False and take["loss"] == 0 and take["best"] == "take"
    drop = judge(client, match_id, action="drop", threshold="doubtful")
    assert drop["warn"] is True and drop["best"] == "take" and drop["loss"] > 0.16
    assert drop["hint"]["cube"]["recommended"] == "take"
    assert [(n["action"], n["best"]) for n in notes(client, match_id)] == [
        ("double", "no double"), ("drop", "take"),
    ]


def refused(response: Any, status: int, phrase: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail


@pytest.mark.parametrize("practice", [False, True])
def test_no_tutor_online_between_people(client: TestClient, practice: bool) -> None:
    match_id = create(client, opponent="online", practice=practice)
    refused(ask(client, match_id, action="double", threshold="bad"), 403,
            "The tutor is off in an online match between people")
    assert notes(client, match_id) == []


def test_questions_that_do_not_fit_the_game_are_refused(client: TestClient) -> None:
    match_id = create(client, position=OPENING_64)
    refused(ask(client, match_id, action="confirm", threshold="bad"), 409,
            "No play waits to be confirmed")
    refused(ask(client, match_id, action="take", threshold="bad"), 409, "may not take now")
    stale = client.post(f"/api/matches/{match_id}/tutor",
                        json={"version": 99, "action": "confirm", "threshold": "bad"})
    refused(stale, 409, "The game has moved on")
    for bad in ({"threshold": "awful"}, {"action": "roll"}, {"lang": "xx"}, {"view": 2},
                {"extra": 1}, {"version": -1}):
        body = {"version": 1, "action": "confirm", "threshold": "bad", **bad}
        response = client.post(f"/api/matches/{match_id}/tutor", json=body)
        assert response.status_code == 422, (bad, response.text)
        assert response.json()["detail"].endswith("."), response.text
        assert "awful" not in response.json()["detail"]
    anonymous = client.post(f"/api/matches/{match_id}/tutor", headers={"Authorization": ""},
                            json={"version": 1, "action": "confirm", "threshold": "bad"})
    assert anonymous.status_code == 401
    missing = client.post("/api/matches/nosuchmatch/tutor",
                          json={"version": 1, "action": "confirm", "threshold": "bad"})
    assert missing.status_code == 404


def test_a_computer_match_is_tutored_only_for_the_person(client: TestClient) -> None:
    match_id = create(client, opponent="computer", position=START)
    verdict = judge(client, match_id, action="double", threshold="doubtful")
    assert verdict["warn"] is True and verdict["seat"] == 0


def test_a_warning_kept_elsewhere_meanwhile_is_not_overwritten(
    client: TestClient, settings: Settings
) -> None:
    """Another process serving the same match may keep a warning while this one's copy of it
    lacks that warning: each warning is added to the notes the row holds."""
    from sqlalchemy import select, update

    from backgammon.server.db import MatchRow, make_engine

    match_id = create(client, position=OPENING_64)
    steps(client, match_id, (13, 7), (7, 3))
    elsewhere = {"game": 1, "event": 0, "seat": 0, "action": "double", "played": "double",
                 "best": "no double", "loss": 0.1, "mark": "bad", "threshold": "bad"}
    engine = make_engine(settings.database_url)
    with engine.begin() as connection:  # as the other process's write leaves the row
        row_settings = connection.execute(
            select(MatchRow.settings).where(MatchRow.id == match_id)
        ).scalar_one()
        connection.execute(
            update(MatchRow).where(MatchRow.id == match_id)
            .values(settings={**row_settings, "tutor": [elsewhere]})
        )
    assert judge(client, match_id, action="confirm", threshold="bad")["warn"] is True
    kept = notes(client, match_id)
    assert [note["action"] for note in kept] == ["double", "confirm"]
    with engine.connect() as connection:
        row_settings = connection.execute(
            select(MatchRow.settings).where(MatchRow.id == match_id)
        ).scalar_one()
    engine.dispose()
    assert row_settings["tutor"] == kept
