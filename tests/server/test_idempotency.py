"""Idempotency keys (``server/keys.py``): an action sent again with its ``Idempotency-Key``
is answered as the first time and applies nothing, through the app that applied it or
another one on the same database (as another process would be); the key sent with another
action is refused. Each test runs on SQLite and again on PostgreSQL with Redis (the
``database`` fixture of ``conftest.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import warnings
from typing import Any

import pytest

from backgammon.server import Settings, create_app

pytest.importorskip("fastapi")
httpx = pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

State = dict[str, Any]
#: Seat 1 wins the opening roll, 5 against 4 (as in test_api.py).
SEED = 11
#: The sentence of a key reused with another action.
REUSED = "This Idempotency-Key was sent before with another action"


def app_on(database: Settings) -> Any:
    """An app on ``database`` that takes seeds and limits no rate."""
    return create_app(dataclasses.replace(database, computer_pause=0, allow_seed=True,
                                          action_rate=None, create_rate=None))


def rolled(client: TestClient) -> tuple[str, State]:
    """A new match at one screen, its opening roll made: its actions' path, and its state
    (the client sends the match's token from now on)."""
    made = client.post("/api/matches", json={"opponent": "human", "seed": SEED})
    assert made.status_code == 201, made.text
    state: State = made.json()
    client.headers["Authorization"] = f"Bearer {state['token']}"
    path = f"/api/matches/{state['id']}/actions"
    while state["phase"] == "opening":
        answer = client.post(path, json={"seat": 0, "action": "roll",
                                         "version": state["version"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return path, state


def seen(client: TestClient, path: str, view: int) -> State:
    """The match's state now, from seat ``view``'s side (as its actions are answered)."""
    answer = client.get(f"{path.removesuffix('/actions')}?view={view}")
    assert answer.status_code == 200, answer.text
    state: State = answer.json()
    return state


def first_step(state: State) -> dict[str, Any]:
    """The first step offered, or the turn's confirmation once it is whole."""
    if not state["steps"]:
        return {"seat": state["to_act"], "version": state["version"], "action": "confirm"}
    step = state["steps"][0]
    return {"seat": state["to_act"], "version": state["version"], "action": "step",
            "from": step["from"], "to": step["to"]}


def test_a_resend_applies_nothing_and_is_answered_as_the_first_time(
    database: Settings,
) -> None:
    with TestClient(app_on(database)) as client, TestClient(app_on(database)) as other:
        path, state = rolled(client)
        other.headers["Authorization"] = client.headers["Authorization"]
        step, key = first_step(state), {"Idempotency-Key": "step-1"}
        first = client.post(path, json=step, headers=key)
        assert first.status_code == 200, first.text
        assert "Idempotent-Replayed" not in first.headers
        version = first.json()["version"]
        # Sent again, to the same app and to another on the database (another process).
        for resend in (client.post(path, json=step, headers=key),
                       other.post(path, json=step, headers=key)):
            assert resend.status_code == 200, resend.text
            assert resend.headers["Idempotent-Replayed"] == "true"
            assert resend.json() == first.json()
        # And once the match has gone on, still the first answer.
        on = client.post(path, json=first_step(first.json()))
        assert on.status_code == 200, on.text
        late = client.post(path, json=step, headers=key)
        assert late.json() == first.json() and late.json()["version"] == version
        assert seen(client, path, state["to_act"]) == on.json()
        # Without a key, the same resend is refused as stale, as always; so is it once the
        # seat has made another keyed action (only a seat's last one is kept).
        assert client.post(path, json=step).status_code == 409
        last = client.post(path, json=first_step(on.json()), headers={"Idempotency-Key": "2"})
        assert last.status_code == 200, last.text
        assert client.post(path, json=step, headers=key).status_code == 409
        assert seen(client, path, state["to_act"]) == last.json()


def test_the_same_key_with_another_action_is_refused_and_changes_nothing(
    database: Settings,
) -> None:
    with TestClient(app_on(database)) as client, TestClient(app_on(database)) as other:
        path, state = rolled(client)
        other.headers["Authorization"] = client.headers["Authorization"]
        key = {"Idempotency-Key": "the-key"}
        first = client.post(path, json=first_step(state), headers=key)
        assert first.status_code == 200, first.text
        after = first.json()
        refusals = [
            # The next step, on the version now in play, with the key of the last one.
            client.post(path, json=first_step(after), headers=key),
            # The first action again, asking for the other side of the board.
            other.post(f"{path}?view={1 - state['to_act']}", json=first_step(state),
                       headers=key),
            # Another action on the first one's version, through the other app.
            other.post(path, json={"seat": state["to_act"], "version": state["version"],
                                   "action": "resign"}, headers=key),
        ]
        for refused in refusals:
            assert refused.status_code == 422, refused.text
            assert refused.json()["detail"].startswith(REUSED)
        assert seen(client, path, state["to_act"]) == after


def test_identical_requests_sent_at_once_to_two_apps_apply_once(database: Settings) -> None:
    """Ten copies of one keyed step sent together to each of two apps on the database (a
    client retrying through a proxy that spreads requests over processes): the step is made
    once, and every copy is answered with its state."""
    apps = [app_on(database), app_on(database)]

    async def race() -> tuple[list[Any], State, State]:
        clients = [httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") for app in apps]
        # The apps' lifespans run, so that their saves are made as a server's are.
        async with (apps[0].router.lifespan_context(apps[0]),
                    apps[1].router.lifespan_context(apps[1]), clients[0] as one,
                    clients[1] as two):
            made = (await one.post("/api/matches", json={"opponent": "human",
                                                         "seed": SEED})).json()
            for each in (one, two):
                each.headers["Authorization"] = f"Bearer {made['token']}"
            path = f"/api/matches/{made['id']}"
            state = made
            while state["phase"] == "opening":
                state = (await one.post(f"{path}/actions", json={
                    "seat": 0, "action": "roll", "version": state["version"]})).json()
            await two.get(path)  # the other app holds the match too, at this version
            step, key = first_step(state), {"Idempotency-Key": "same"}
            answers = await asyncio.gather(
                *(each.post(f"{path}/actions", json=step, headers=key)
                  for _ in range(10) for each in (one, two)))
            after = (await one.get(path)).json()
        return list(answers), state, after

    answers, before, after = asyncio.run(race())
    assert [answer.status_code for answer in answers] == [200] * 20, [
        answer.text for answer in answers if answer.status_code != 200]
    assert all(answer.json() == answers[0].json() for answer in answers)
    assert after["version"] == before["version"] + 1 == answers[0].json()["version"]
    assert len(after["made"]) == 1


def test_a_key_too_long_is_refused(database: Settings) -> None:
    with TestClient(app_on(database)) as client:
        path, state = rolled(client)
        refused = client.post(path, json=first_step(state), headers={"Idempotency-Key": "k" * 65})
        assert refused.status_code == 422
        assert "Idempotency-Key" in refused.json()["detail"]
        assert seen(client, path, state["to_act"])["version"] == state["version"]
