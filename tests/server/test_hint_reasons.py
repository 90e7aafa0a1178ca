"""The hint's reasons through the API: ``GET /api/matches/{id}/hint?lang=xx`` says them in the
language asked, the same reasons the analysis gives for the bot's plays; a language the game
does not speak is a 422 with a sentence."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backgammon import Position
from backgammon.analysis.reasons import LANGUAGES, hints_reasons, say_all
from backgammon.bot import Bot, Level
from backgammon.server import Settings, create_app
from backgammon.server.play.routes.hints import Lang
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

#: White (on roll) with 3-1 facing Black's blot on White's 5-point: 8/5* 6/5 hits and
#: makes the point.
HITTING = Position.from_points(
    {6: 5, 8: 3, 13: 5, 24: 2}, {6: 5, 8: 3, 13: 5, 24: 1, 20: 1}
)
HITTING_XGID = "XGID=-a---aE-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=sqlite_url(tmp_path / "games.sqlite"), computer_pause=0,
        create_rate=None, hint_rate=None, action_rate=None, upload_rate=None,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def create(client: TestClient, **options: Any) -> str:
    response = client.post("/api/matches", json={"opponent": "human", **options})
    assert response.status_code == 201, response.text
    # The client holds the new match's seat token from now on, as the page that made it.
    client.headers["Authorization"] = f"Bearer {response.json()['token']}"
    match_id: str = response.json()["id"]
    return match_id


def hint(client: TestClient, match_id: str, **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/hint", params=params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def act(client: TestClient, match_id: str, **action: Any) -> None:
    version = client.get(f"/api/matches/{match_id}").json()["version"]
    response = client.post(f"/api/matches/{match_id}/actions", json={"version": version, **action})
    assert response.status_code == 200, response.text


def test_the_languages_are_the_games() -> None:
    assert Lang.__origin__.__args__ == LANGUAGES  # type: ignore[attr-defined]


def test_a_move_hint_says_why_in_the_language_asked(client: TestClient) -> None:
    match_id = create(client, position=HITTING_XGID)
    expected = Bot(level=Level.STRONGEST).hints(HITTING, (3, 1), 5)
    english = hint(client, match_id)  # English without a lang
    assert [play["play"] for play in english["plays"]] == [str(h.play) for h in expected]
    best = english["plays"][0]
    assert best["play"] == "8/5* 6/5"
    assert best["reasons"][:3] == [
        "makes your 5-point", "safe: no blot can be hit", "hits a checker"
    ]
    reasons = hints_reasons(expected)
    for lang in LANGUAGES:
        answer = hint(client, match_id, lang=lang)
        assert [play["reasons"] for play in answer["plays"]] == [
            say_all(why, lang) for why in reasons
        ]
        assert all(play["reasons"] for play in answer["plays"])
    assert hint(client, match_id, lang="vi")["plays"][0]["reasons"][2] == "đá 1 quân của đối thủ"


def test_cube_and_resignation_hints_say_why(client: TestClient) -> None:
    match_id = create(client, position="4HPwATDgc/ABMA")  # the start, White to roll
    cube = hint(client, match_id, lang="fa")["cube"]
    assert cube["recommended"] == "roll" and cube["reasons"]
    assert cube["reasons"][0].startswith("هنوز برای داو دادن کافی نیست")
    act(client, match_id, seat=0, action="double")
    taker = hint(client, match_id, lang="en")["cube"]
    assert taker["recommended"] == "take" and taker["reasons"][0].startswith("a take: you win ")
    act(client, match_id, seat=1, action="take")
    act(client, match_id, seat=0, action="resign", level=1)
    offer = hint(client, match_id, lang="km")["resignation"]
    assert offer["accept"] and offer["reasons"][0].startswith("យល់ព្រម៖")


@pytest.mark.parametrize("lang", ["xx", "EN", "en-GB", ""])
def test_a_language_the_game_does_not_speak_is_a_422(client: TestClient, lang: str) -> None:
    match_id = create(client, position=HITTING_XGID)
    response = client.get(f"/api/matches/{match_id}/hint", params={"lang": lang})
    assert response.status_code == 422
    detail = response.json()["detail"]
    assert detail.endswith(".") and "lang" in detail and "'vi'" in detail, detail
