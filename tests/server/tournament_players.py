"""Simulated tournament players through the HTTP API: each signed in with an account of their
own, on a test client (whose cookies are swapped to the player's at each request) or on
real servers (a client each, its requests sent to each server in turn)."""

from __future__ import annotations

import time
from typing import Any

PASSWORD = "correct horse battery"
#: A guard against a hang, never a measure.
PATIENCE = 120.0


class Player:
    """A signed-in player: ``client`` is theirs alone, or ``shared`` between players."""

    def __init__(self, client: Any, name: str, bases: tuple[str, ...] = ("",),
                 shared: bool = False) -> None:
        self.client, self.name, self.bases, self.shared = client, name, bases, shared
        self.jar: dict[str, str] = {}
        self.calls = 0
        answer = self.call("POST", "/api/accounts", {"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """The response to a request of this player's, sent to the next server in turn."""
        if self.shared:
            self.client.cookies.clear()
            for key, value in self.jar.items():
                self.client.cookies.set(key, value)
        headers = {}
        csrf = self.client.cookies.get("bg_csrf")
        if csrf and method != "GET":
            headers["X-CSRF-Token"] = csrf
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        base = self.bases[self.calls % len(self.bases)]
        self.calls += 1
        response = self.client.request(method, base + path, json=body, headers=headers)
        if self.shared:
            self.jar = {cookie.name: cookie.value for cookie in self.client.cookies.jar}
        return response

    def ok(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """The JSON answer of a request that must succeed."""
        response = self.call(method, path, body, token)
        assert response.status_code in (200, 201), response.text
        return response.json()


def finish_match(match_id: str, seats: dict[int, tuple[Player, str]]) -> int:
    """Play the match to its end through the API, of any game: each game, after the opening
    roll (in backgammon each player throws their own die; in the games whose opening winner
    rolls afresh, that roll too), the player not to move resigns a single game and the mover
    accepts. The winning seat."""

    def act(seat: int, **action: Any) -> dict[str, Any]:
        player, token = seats[seat]
        for _ in range(20):
            state = player.ok("GET", f"/api/matches/{match_id}?view={seat}")
            response = player.call("POST", f"/api/matches/{match_id}/actions",
                                   {"seat": seat, "version": state["version"], **action}, token)
            if response.status_code == 409 and "look again and retry" in response.text:
                # Read from a process whose copy was a moment behind: look again, as a page
                # does.
                continue
            assert response.status_code == 200, response.text
            answer: dict[str, Any] = response.json()
            return answer
        raise AssertionError("the action was refused as stale twenty times")

    state = seats[0][0].ok("GET", f"/api/matches/{match_id}")
    while not state["match_over"]:
        while state["phase"] in ("opening", "roll"):  # each throws (ties: again)
            thrower = next(seat for seat in (0, 1) if "roll" in state["actions"][seat])
            state = act(thrower, action="roll")
        mover = state["to_act"]
        act(1 - mover, action="resign", level=1)
        state = act(mover, action="accept")
    winner: int = state["winner"]
    return winner


def play_out(tournament_id: str, players: list[Player]) -> tuple[dict[str, Any], list[str]]:
    """Play every match of the tournament, each as its players find it on the tournament's
    page (``your_match``) and take their seats, until it is finished: the tournament then,
    and the matches played, in order."""
    path = f"/api/tournaments/{tournament_id}"
    played: list[str] = []
    deadline = time.monotonic() + PATIENCE * 3
    while True:
        assert time.monotonic() < deadline, "the tournament did not finish"
        views = {player.name: player.ok("GET", path) for player in players}
        if any(view["status"] == "finished" for view in views.values()):
            return players[0].ok("GET", path), played
        waiting = [(player, views[player.name]["your_match"]) for player in players
                   if views[player.name]["your_match"] not in (None, *played)]
        if not waiting:
            time.sleep(0.02)  # the server advances the tournament: look again
            continue
        match_id = waiting[0][1]
        pairing = next(p for p in views[waiting[0][0].name]["draw"] if p["match"] == match_id)
        seats: dict[int, tuple[Player, str]] = {}
        for player in players:
            if player.name in pairing["players"]:
                seat = player.ok("GET", f"{path}/matches/{match_id}/seat")
                assert seat["id"] == match_id
                seats[seat["seats"][0]] = (player, seat["token"])
        assert sorted(seats) == [0, 1], seats
        finish_match(match_id, seats)
        played.append(match_id)
