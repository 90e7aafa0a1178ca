"""The server's provably fair dice: the commitment in the state before the first roll, the
players' seeds, the server seed revealed when the game ends (and only then), the record that
``backgammon verify-dice`` checks, and fair dice that resume at the right roll after a
restart."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.orm import Session
from test_api import (
    SEED,
    State,
    act,
    client_for,
    create,
    next_action,
    opening,
    play,
    settled,
    state_of,
)
from test_fuzz import FUZZ, answered, anything, encode

from backgammon.game.verify import verify_dice
from backgammon.server.db import MatchRow, make_engine
from backgammon.server.settings import sqlite_url

HEX = re.compile(r"[0-9a-f]{64}")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def add_seed(client: Any, match_id: str, status: int = 200, **body: Any) -> Any:
    response = client.post(f"/api/matches/{match_id}/seed", json=body)
    assert response.status_code == status, response.text
    return response.json()


def refused_seed(client: Any, match_id: str, status: int, phrase: str, **body: Any) -> None:
    before = state_of(client, match_id)
    detail = add_seed(client, match_id, status, **body)["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail
    assert state_of(client, match_id) == before


def record_of(client: Any, match_id: str) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/record")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def resign_game(client: Any, match_id: str) -> State:
    """Resign the game in play (after its opening roll, if not rolled yet)."""
    state = state_of(client, match_id)
    if state["phase"] == "opening":
        state = opening(client, match_id)
    seat = state["to_act"]
    act(client, match_id, seat=seat, action="resign", level=1)
    return act(client, match_id, seat=1 - seat, action="accept")


def test_a_new_match_shows_its_commitment_and_hides_its_seed(client: Any) -> None:
    state = create(client, length=3)
    fair = state["fair_dice"]
    assert HEX.fullmatch(fair["commitment"]) and fair["server_seed"] is None
    assert fair["seeds"] == ["", ""] and fair["rolls"] == 0
    record = record_of(client, state["id"])
    assert record["dice"] == [
        {"scheme": "hmac-sha256-v1", "commitment": fair["commitment"], "seeds": ["", ""]}
    ]


def test_the_server_seed_is_revealed_when_the_game_ends(client: Any) -> None:
    state = create(client, length=3)
    match_id, commitment = state["id"], state["fair_dice"]["commitment"]
    add_seed(client, match_id, seat=1, seed="bob-7")
    state = play(client, match_id, 6)
    assert state["fair_dice"]["server_seed"] is None
    assert "server_seed" not in record_of(client, match_id)["dice"][0]
    state = resign_game(client, match_id)
    shown = state["record"][0]["fair_dice"]
    assert shown["commitment"] == commitment and shown["seeds"] == ["", "bob-7"]
    assert hashlib.sha256(bytes.fromhex(shown["server_seed"])).hexdigest() == commitment
    # The next game has a seed of its own, still secret, and keeps the players' seeds.
    assert state["fair_dice"]["commitment"] != commitment
    assert state["fair_dice"]["server_seed"] is None
    assert state["fair_dice"]["seeds"] == ["", "bob-7"]
    record = record_of(client, match_id)
    assert record["dice"][0]["server_seed"] == shown["server_seed"]
    assert "server_seed" not in record["dice"][1]
    report = verify_dice(record)
    assert report.ok and report.games[0].rolls >= 2


def test_the_last_game_of_a_match_is_revealed_in_the_state(client: Any) -> None:
    match_id = create(client, length=1)["id"]
    state = resign_game(client, match_id)
    assert state["match_over"]
    assert state["fair_dice"]["server_seed"] == state["record"][0]["fair_dice"]["server_seed"]
    assert verify_dice(record_of(client, match_id)).ok


def test_a_seed_is_taken_only_before_the_first_roll(client: Any) -> None:
    match_id = create(client, length=3)["id"]
    state = add_seed(client, match_id, seat=0, seed="first")
    state = add_seed(client, match_id, seat=0, seed="second")  # a player may change it
    assert state["fair_dice"]["seeds"] == ["second", ""]
    assert state["record"][0]["fair_dice"]["seeds"] == ["second", ""]
    act(client, match_id, seat=0, action="roll")
    refused_seed(client, match_id, 409, "before its first roll", seat=1, seed="late")


def test_bad_seeds_are_refused(client: Any) -> None:
    match_id = create(client, length=3)["id"]
    refused_seed(client, match_id, 422, "seed", seat=0, seed="no:colons")
    refused_seed(client, match_id, 422, "seed", seat=0, seed="x" * 65)
    refused_seed(client, match_id, 422, "seat", seat=2, seed="x")


def test_the_computer_seat_takes_no_seed(client: Any) -> None:
    match_id = create(client, opponent="computer")["id"]
    refused_seed(client, match_id, 403, "not seat 1", seat=1, seed="x")  # nobody's seat
    assert add_seed(client, match_id, seat=0, seed="x")["fair_dice"]["seeds"] == ["x", ""]


def test_seeded_test_dice_stay_as_they_are(client: Any) -> None:
    state = create(client, seed=SEED)
    assert state["fair_dice"] is None and state["seed"] == SEED
    assert "dice" not in record_of(client, state["id"])
    refused_seed(client, state["id"], 409, "seeded dice", seat=0, seed="x")


def test_a_restart_resumes_the_fair_dice_at_the_right_roll(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as first:
        match_id = create(first, length=3)["id"]
        add_seed(first, match_id, seat=0, seed="alice")
        before = play(first, match_id, 9)
        seat_token = first.headers["Authorization"]
    # The database keeps the secret seed, from which a restarted server rolls on.
    with Session(make_engine(sqlite_url(database))) as session:
        row = session.get(MatchRow, match_id)
        assert row is not None and HEX.fullmatch(row.record["dice"][0]["server_seed"])
    with client_for(database) as second:
        second.headers["Authorization"] = seat_token
        resumed = state_of(second, match_id)
        assert resumed["fair_dice"] == before["fair_dice"]
        play(second, match_id, 30)
        resign_game(second, match_id)
        record = record_of(second, match_id)
    report = verify_dice(record)
    assert report.ok, report.text()
    assert report.games[0].rolls > before["fair_dice"]["rolls"] >= 2


def test_the_computers_rolls_are_fair_dice_too(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        match_id = create(client, opponent="computer", length=3)["id"]
        add_seed(client, match_id, seat=0, seed="me")
        state = settled(client, match_id)
        for _ in range(30):
            if state["to_act"] not in (0, None):
                break
            answer = [a for a in ("take", "accept") if a in state["actions"][0]]
            action = {"seat": 0, "action": answer[0]} if answer else next_action(state)
            state = settled(client, act(client, match_id, **action)["id"])
    # The server's own record holds the seed of the game in play: every roll checks out,
    # the computer's (made on its copy of the match) as well as the person's.
    with Session(make_engine(sqlite_url(database))) as session:
        row = session.get(MatchRow, match_id)
        assert row is not None
        report = verify_dice(row.record)
    assert report.ok, report.text()
    assert sum(game.rolls for game in report.games) >= 6


seed_bodies = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.sampled_from([0, 1]) | anything,
        "seed": st.from_regex(r"[A-Za-z0-9._:-]{0,66}", fullmatch=True) | anything,
        "extra": anything,
    },
)


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, str]]:
    with client_for(tmp_path_factory.mktemp("fuzz") / "games.sqlite") as test_client:
        yield test_client, create(test_client, length=3)["id"]


@FUZZ
@given(body=seed_bodies.map(encode) | st.binary(max_size=64))
def test_fuzzed_seeds_are_taken_or_refused_with_a_sentence(
    fuzzed: tuple[Any, str], body: bytes
) -> None:
    client, match_id = fuzzed
    before = state_of(client, match_id)
    response = client.post(
        f"/api/matches/{match_id}/seed", content=body,
        headers={"Content-Type": "application/json"},
    )
    answered(response)
    after = state_of(client, match_id)
    if response.status_code != 200:
        assert after == before
    else:
        sent = json.loads(body)
        assert after["fair_dice"]["seeds"][sent["seat"]] == sent["seed"]
