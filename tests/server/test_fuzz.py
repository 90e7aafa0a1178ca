"""Generated requests to every endpoint (hypothesis, through FastAPI's test client): bodies
made of the API's own words mixed with any JSON (NaN, Infinity, huge numbers, lone
surrogates, wrong types), raw bytes, odd ids and views, WebSocket frames of both kinds. No
answer is a 5xx, every refusal says a sentence, and a refused request leaves its match as it
was. Derandomized, so a run is reproducible.
"""

from __future__ import annotations

import json
import urllib.parse
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

FUZZ = settings(
    max_examples=500,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["NaN", "1", "true", "\ud800", "\x00", "\uff11", "13/7 8/7", "bar/22*"])
)
anything = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                               max_size=3),
    max_leaves=6,
)
ACTIONS = ["roll", "double", "take", "drop", "beaver", "step", "undo", "confirm", "play",
           "resign", "accept", "reject"]
action_bodies = st.fixed_dictionaries(
    {},
    optional={
        "seat": st.sampled_from([0, 1]) | anything,
        "action": st.sampled_from(ACTIONS) | anything,
        "from": st.integers(-1, 26) | anything,
        "to": st.integers(-1, 26) | anything,
        "play": st.sampled_from(["13/7 8/7", "24/18", "bar/off"]) | anything,
        "level": st.integers(0, 4) | anything,
        "version": st.integers(0, 5) | anything,
        "extra": anything,
    },
)
create_bodies = st.fixed_dictionaries(
    {},
    optional={
        "length": st.integers(-1, 30) | anything,
        "opponent": st.sampled_from(["human", "computer"]) | anything,
        "level": st.sampled_from(["beginner", "casual"]) | anything,
        "colour": st.sampled_from(["white", "black"]) | anything,
        "names": st.lists(st.text(max_size=45), min_size=2, max_size=2) | anything,
        "variant": st.sampled_from(["standard", "nackgammon", "hypergammon"]) | anything,
        "cube": st.booleans() | anything,
        "jacoby": st.booleans() | anything,
        "automatic_doubles": st.integers(-1, 9) | anything,
        "max_cube": st.sampled_from([1, 3, 64, 4096, 8192, 2**100]) | anything,
        "seed": st.integers(-1, 2**64) | anything,
        "position": st.sampled_from(
            ["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA", "XGID=-b----E-C---eE---c-e----B-"
             ":1:1:1:52:2:1:0:7:10", "XGID=-b----E-C---eE---c-e----B-:1:1:1:52:2:1:0:99:10"]
        ) | anything,
        "opening_reroll": st.booleans() | anything,
    },
)


def encode(body: Any) -> bytes:
    """JSON as a careless client writes it: NaN and Infinity as bare words, lone surrogates
    escaped."""
    return json.dumps(body, allow_nan=True).encode()


#: What no careless client writes but an attacker does: numbers of thousands of digits (past
#: Python's 4,300-digit limit), JSON nested thousands deep.
hostile = (
    st.integers(4000, 6000).map(lambda n: b'{"action": "roll", "version": ' + b"9" * n + b"}")
    | st.integers(1000, 6000).map(lambda n: b"[" * n + b"]" * n)
    | st.integers(1000, 3000).map(lambda n: b'{"a":' * n + b"1" + b"}" * n)
)
bodies = (action_bodies.map(encode) | anything.map(encode) | st.binary(max_size=64)
          | hostile)
#: The JSON endpoints besides the actions, new matches and joins, each family once.
OTHER_POSTS = ["/api/v1/engine/move", "/api/v1/engine/eval", "/api/v1/engine/cube",
               "/api/analyses", "/api/accounts", "/api/session", "/api/matches/{id}/seed",
               "/api/matches/{id}/analysis", "/api/matches/{id}/take"]
engine_bodies = st.fixed_dictionaries(
    {},
    optional={
        "position": st.sampled_from(["4HPwATDgc/ABMA", "4HPwATDgc/ABMA:cAkAAAAAAAAA"]) | anything,
        "dice": st.lists(st.integers(0, 7), max_size=3) | anything,
        "plies": st.integers(-1, 4) | anything,
        "plays": st.integers(0, 40) | anything,
        "match": anything, "cube": anything, "text": anything, "name": anything,
        "password": anything, "seat": anything, "seed": anything,
    },
)
views = st.sampled_from(["0", "1"]) | st.text(max_size=4)
ids = st.text(max_size=40)
#: What an Authorization header may hold: the match's token (None here), garbage, or nothing.
printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=80)
authorizations = st.none() | st.just("") | printable | printable.map(lambda text: f"Bearer {text}")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("fuzz") / "games.sqlite"
    options = Settings(database_url=sqlite_url(database), computer_pause=0, allow_seed=True,
                       create_rate=None, hint_rate=None, action_rate=None, upload_rate=None,
                       signin_rate=None, account_rate=None)
    with TestClient(create_app(options)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def matches(client: TestClient) -> dict[str, str]:
    """A match for the actions (both seats human, seeded) and one kept at its opening roll
    for the hints (which think only where a person is to play, and take a second), with
    their tokens ("actions token", "hints token")."""
    made = {}
    for purpose in ("actions", "hints"):
        response = client.post("/api/matches", json={"opponent": "human", "seed": 4})
        made[purpose] = response.json()["id"]
        made[f"{purpose} token"] = response.json()["token"]
    return made


def headers(authorization: str | None, token: str) -> dict[str, str]:
    """The headers of a request: the match's token when ``authorization`` is None."""
    return {"Authorization": f"Bearer {token}" if authorization is None else authorization}


def answered(response: Any) -> None:
    """Not a 5xx; a refusal carries a sentence."""
    assert response.status_code < 500, response.text
    if response.status_code >= 400 and response.headers["content-type"].startswith(
        "application/json"
    ):
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail.endswith("."), detail


def snapshot(client: TestClient, match_id: str) -> Any:
    return client.get(f"/api/matches/{match_id}").json()


@FUZZ
@given(body=bodies, view=views, authorization=authorizations)
def test_fuzzed_actions(client: TestClient, matches: dict[str, str], body: bytes,
                        view: str, authorization: str | None) -> None:
    match_id = matches["actions"]
    before = snapshot(client, match_id)
    response = client.post(
        f"/api/matches/{match_id}/actions",
        params={"view": view},
        content=body,
        headers={"Content-Type": "application/json",
                 **headers(authorization, matches["actions token"])},
    )
    answered(response)
    if response.status_code != 200:
        assert snapshot(client, match_id) == before


@settings(FUZZ, max_examples=800)
@given(body=create_bodies.map(encode) | bodies)
def test_fuzzed_new_matches(client: TestClient, body: bytes) -> None:
    response = client.post(
        "/api/matches", content=body, headers={"Content-Type": "application/json"}
    )
    answered(response)


@FUZZ
@given(
    known=st.booleans(),
    match_id=ids,
    view=views,
    what=st.sampled_from(["", "/hint", "/mat", "/record", "/actions", "/analysis"]),
    authorization=authorizations,
)
def test_fuzzed_reads(client: TestClient, matches: dict[str, str], known: bool, match_id: str,
                      view: str, what: str, authorization: str | None) -> None:
    target = matches["hints"] if known else match_id
    before = snapshot(client, matches["hints"])
    path = f"/api/matches/{urllib.parse.quote(target, safe='')}{what}"
    sent = headers(authorization, matches["hints token"])
    answered(client.get(path, params={"view": view}, headers=sent))
    assert snapshot(client, matches["hints"]) == before


@settings(FUZZ, max_examples=600)
@given(path=st.sampled_from(OTHER_POSTS), body=engine_bodies.map(encode) | bodies,
       authorization=authorizations)
def test_fuzzed_other_endpoints(client: TestClient, matches: dict[str, str], path: str,
                                body: bytes, authorization: str | None) -> None:
    match_id = matches["hints"]
    before = snapshot(client, match_id)
    response = client.post(
        path.replace("{id}", match_id), content=body,
        headers={"Content-Type": "application/json",
                 **headers(authorization, matches["hints token"])},
    )
    answered(response)
    if not path.endswith("/seed"):  # a seed before the first roll may well be taken
        assert snapshot(client, match_id)["version"] == before["version"]


@settings(FUZZ, max_examples=300)
@given(body=st.fixed_dictionaries({"invite": printable}).map(encode) | bodies)
def test_fuzzed_joins(client: TestClient, body: bytes) -> None:
    response = client.post(
        "/api/matches/join", content=body, headers={"Content-Type": "application/json"}
    )
    answered(response)
    assert response.status_code != 200


@settings(FUZZ, max_examples=300)
@given(
    lang=st.sampled_from(["en", "fa", "km"]) | st.text(max_size=12),
    topic=st.sampled_from(["", "rules", "play"]) | st.text(max_size=40),
)
def test_fuzzed_help_pages(client: TestClient, lang: str, topic: str) -> None:
    path = "/help/" + "/".join(urllib.parse.quote(part, safe="") for part in (lang, topic))
    response = client.get(path, follow_redirects=False)
    assert response.status_code < 500, response.text


@settings(FUZZ, max_examples=150)
@given(
    known=st.booleans(),
    match_id=ids,
    view=views,
    frames=st.lists(st.binary(max_size=32) | st.text(max_size=32), max_size=3),
)
def test_fuzzed_websockets(client: TestClient, matches: dict[str, str], known: bool,
                           match_id: str, view: str, frames: list[bytes | str]) -> None:
    target = matches["hints"] if known else match_id
    path = f"/api/matches/{urllib.parse.quote(target, safe='')}/updates"
    query = urllib.parse.urlencode({"view": view})
    try:
        with client.websocket_connect(f"{path}?{query}") as socket:
            assert socket.receive_json()["id"] == target
            for frame in frames:
                if isinstance(frame, bytes):
                    socket.send_bytes(frame)
                else:
                    socket.send_text(frame)
    except WebSocketDisconnect as closed:
        if not target or "/" in target:  # no such address: the framework's own close
            assert closed.code == 1000
        else:
            assert closed.code in (1008, 4404) and closed.reason.endswith(".")
