"""Match clocks through the API: a time control chosen at creation, each seat's clock in the
state, the time-out recorded on the server's time by any read, once, and by a second
process too; a restart keeps the clocks; the lobby and the rematch keep the control.

No test waits for a clock: the server's time is set (:data:`backgammon.server.play.clocks.
server_time`), and the record's times are the real ones, a moment before.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from test_rematches import answer, finish, offer, ok
from test_seats import act, bearer, client_for, create, join, online_match, play_to, state_of

from backgammon.server import Settings, create_app
from backgammon.server.play.clocks import server_time

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]
#: A delay no test takes as long as, so that no bank runs while a test acts.
LONG = {"delay": 600, "bank": 10}


@pytest.fixture(autouse=True)
def wall_clock() -> Iterator[None]:
    """Each test starts on the wall clock, and leaves it so."""
    server_time.set(None)
    yield
    server_time.set(None)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def set_time(client: TestClient, match_id: str, seconds: float) -> None:
    """The server's time from now: ``seconds`` after the match's last event."""
    games = client.get(f"/api/matches/{match_id}/record").json()["games"]
    last = [event for game in games for event in game][-1]
    server_time.set(datetime.fromisoformat(last["time"]) + timedelta(seconds=seconds))


def tokens_of(created: State, joined: State) -> dict[int, str]:
    return {0: created["token"], 1: joined["token"]}


def test_a_preset_is_shown_with_each_seats_clock_which_runs_once_joined(
    client: TestClient,
) -> None:
    created = create(client, opponent="online", length=5, clock="fast", lobby=True)
    clock = created["clock"]
    assert (clock["delay"], clock["bank"], clock["preset"]) == (8, 20, "fast")
    assert clock["banks"] == [100, 100] and clock["running"] == []  # the invite is open
    [entry] = client.get("/api/lobby").json()
    assert entry["clock"] == {"delay": 8, "bank": 20, "preset": "fast"}
    assert client.get(f"/api/invites/{created['invite']}").json()["clock"]["preset"] == "fast"
    join(client, created["invite"])
    state = state_of(client, created["id"])
    assert state["clock"]["running"] == [0, 1]  # the opening roll: either may roll
    assert state["claim"] is None  # a clock, not the claim, deals with a player who left
    assert create(client, opponent="online")["clock"] is None


def test_custom_controls_and_refusals(client: TestClient) -> None:
    created = create(client, opponent="online", clock={"delay": 3, "bank": 7}, length=2)
    assert created["clock"]["preset"] is None and created["clock"]["banks"] == [14, 14]
    for clock, phrase in (({"delay": 0, "bank": 0}, "gives some time"),
                          ({"delay": -1, "bank": 5}, "greater than or equal to 0"),
                          ({"delay": 5, "bank": 10**6}, "less than or equal to 3600"),
                          ("blitz", "'fast', 'normal' or 'casual'"),
                          ({"delay": 5}, "Field required")):
        response = client.post("/api/matches", json={"opponent": "online", "clock": clock})
        assert response.status_code == 422, clock
        assert phrase in response.text, response.text


def test_the_delay_then_the_bank_run_for_the_seat_awaited(client: TestClient) -> None:
    created, joined = online_match(client, length=1, clock={"delay": 10, "bank": 30})
    match_id, tokens = created["id"], tokens_of(created, joined)
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    mover = state["to_act"]
    set_time(client, match_id, 5)
    clock = state_of(client, match_id)["clock"]
    assert clock["running"] == [mover] and clock["banks"] == [30, 30]
    assert clock["delay_left"] == 5
    set_time(client, match_id, 25)
    clock = state_of(client, match_id)["clock"]
    assert clock["delay_left"] == 0 and clock["banks"][mover] == 15
    assert clock["banks"][1 - mover] == 30


def test_out_of_time_a_read_records_the_loss_of_the_match_once(client: TestClient) -> None:
    created, joined = online_match(client, length=5, clock="fast")
    match_id, tokens = created["id"], tokens_of(created, joined)
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    mover = state["to_act"]
    set_time(client, match_id, 200)
    # Read by a spectator: the time-out is recorded on the server's time, the match lost.
    over = state_of(client, match_id)
    assert over["match_over"] and over["winner"] == 1 - mover
    assert over["version"] == state["version"] + 1
    assert over["record"][0]["result"]["reason"] == "time"
    assert over["clock"]["running"] == [] and over["clock"]["banks"][mover] == 0
    assert state_of(client, match_id)["version"] == over["version"]  # recorded once
    record = client.get(f"/api/matches/{match_id}/record").json()
    assert record["forfeited"] == mover and record["games"][0][-1]["action"] == "claim"


def test_an_action_out_of_time_is_refused_and_the_time_out_recorded(
    client: TestClient,
) -> None:
    created, joined = online_match(client, length=3, clock="normal")
    match_id, tokens = created["id"], tokens_of(created, joined)
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    mover, step = state["to_act"], state["steps"][0]
    set_time(client, match_id, 1000)
    response = client.post(
        f"/api/matches/{match_id}/actions", headers=bearer(tokens[mover]),
        json={"seat": mover, "version": state["version"], "action": "step",
              "from": step["from"], "to": step["to"]})
    assert response.status_code == 409
    assert response.json()["detail"] == (
        f"Seat {mover}'s time has run out, so the action was not made: the match is lost "
        "on time.")
    after = state_of(client, match_id)
    assert after["match_over"] and after["winner"] == 1 - mover


def test_money_out_of_time_loses_the_game_at_the_highest_level_and_play_goes_on(
    client: TestClient,
) -> None:
    created, joined = online_match(client, clock={"delay": 5, "bank": 4})
    match_id, tokens = created["id"], tokens_of(created, joined)
    state = play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
    mover = state["to_act"]
    assert state["clock"]["banks"] == [12, 12]  # three points' worth a money game
    set_time(client, match_id, 60)
    after = state_of(client, match_id)
    result = after["record"][0]["result"]
    # From the opening the loser's back checkers are in the winner's home board.
    assert result == {"winner": 1 - mover, "kind": "backgammon", "points": 3, "reason": "time"}
    assert not after["match_over"] and after["game_number"] == 2
    # The time-out is recorded at the time the bank ran out (5 s, then 12 s), however late
    # it is read: the next game's clocks start there, with fresh banks.
    set_time(client, match_id, 3)
    clock = state_of(client, match_id)["clock"]
    assert clock["banks"] == [12, 12] and clock["running"] == [0, 1]
    assert clock["delay_left"] == 2


def test_cube_actions_and_resignations_are_waits_of_the_seat_that_answers(
    client: TestClient,
) -> None:
    created, joined = online_match(client, length=5, clock=LONG)
    match_id, tokens = created["id"], tokens_of(created, joined)
    state = play_to(client, match_id, tokens, lambda s: "double" in s["actions"][s["to_act"]]
                    if s["to_act"] is not None else False)
    doubler = state["to_act"]
    state = act(client, match_id, tokens[doubler], seat=doubler, action="double")
    assert state["clock"]["running"] == [1 - doubler]
    set_time(client, match_id, 2000)  # the taker's wait has run out: they lose
    after = state_of(client, match_id)
    assert after["match_over"] and after["winner"] == doubler


def test_a_restart_keeps_the_clocks(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite"
    with client_for(database) as client:
        created, joined = online_match(client, length=1, clock={"delay": 10, "bank": 30})
        match_id, tokens = created["id"], tokens_of(created, joined)
        play_to(client, match_id, tokens, lambda s: s["phase"] == "move")
        set_time(client, match_id, 25)
        before = state_of(client, match_id)["clock"]
    with client_for(database) as client:
        assert state_of(client, match_id)["clock"] == before
        set_time(client, match_id, 100)
        assert state_of(client, match_id)["match_over"]


def test_a_rematch_keeps_the_time_control(client: TestClient) -> None:
    created, joined = online_match(client, length=1, clock="casual")
    match_id, tokens = created["id"], tokens_of(created, joined)
    finish(client, match_id, tokens)
    ok(offer(client, match_id, tokens[0], 0))
    rematch_id = ok(answer(client, match_id, tokens[1], 1, True))["rematch"]["id"]
    clock = state_of(client, rematch_id)["clock"]
    assert clock["preset"] == "casual" and clock["banks"] == [180, 180]


def test_without_a_clock_the_claim_stays(client: TestClient) -> None:
    created, joined = online_match(client, length=3)
    state = play_to(client, created["id"], tokens_of(created, joined),
                    lambda s: s["phase"] == "move")
    assert state["clock"] is None and state["claim"] is not None


def test_a_time_out_is_recorded_once_by_two_processes(database: Settings) -> None:
    """Two apps on one database (on PostgreSQL with Redis: two processes' parts) both read
    a match whose clock has run out: one records the time-out, the other sees it."""
    settings: dict[str, Any] = {"computer_pause": 0, "allow_seed": True, "create_rate": None,
                "hint_rate": None, "action_rate": None}
    one = TestClient(create_app(Settings(database.database_url, redis_url=database.redis_url,
                                         **settings)))
    other = TestClient(create_app(Settings(database.database_url,
                                           redis_url=database.redis_url, **settings)))
    with one, other:
        created, joined = online_match(one, length=3, clock="fast")
        match_id, tokens = created["id"], tokens_of(created, joined)
        state = play_to(one, match_id, tokens, lambda s: s["phase"] == "move")
        state_of(other, match_id)  # the other process holds a copy, still running
        set_time(one, match_id, 500)
        first, second = state_of(other, match_id), state_of(one, match_id)
        assert first["match_over"] and second["match_over"]
        assert first["version"] == second["version"] == state["version"] + 1
        assert first["winner"] == second["winner"] == 1 - state["to_act"]
        record = one.get(f"/api/matches/{match_id}/record").json()
        assert [event["action"] for event in record["games"][0]].count("claim") == 1
