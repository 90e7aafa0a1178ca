"""The tournaments API's request and answer shapes."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field, StrictBool, StrictInt

from ...cube import MAX_MATCH_LENGTH
from ..play.schemas import Name, RequestBody
from .draw import MOST_ELIMINATION, MOST_ROUND_ROBIN, Kind

TimeControl = Literal["none", "fast", "normal", "casual"]
#: What a tournament's matches play: backgammon, or one of the other games online
#: (:data:`..play.schemas.OtherGame`: ``tavli`` plays Portes, Plakoto and Fevga in turn).
Game = Literal["backgammon", "portes", "tavla", "plakoto", "fevga", "long-nardy",
               "acey-deucey", "tavli"]
#: How far ahead a start time may be, in days.
MOST_DAYS_AHEAD = 30


class CreateTournament(RequestBody):
    """A new tournament: its name, its kind, its matches' game, length and clock, whether
    they are rated, the most players it takes, and when it starts (None: once full)."""

    name: Name
    kind: Kind = Field(description="single elimination, or round robin (at most "
                       f"{MOST_ROUND_ROBIN} players)")
    game: Game = Field("backgammon", description="what each match plays, as an online "
                       "match's ``game`` names it (rated matches move the ratings in it)")
    length: StrictInt = Field(ge=1, le=MAX_MATCH_LENGTH, description="each match's points")
    time_control: TimeControl = Field(
        "none", description="each match's clock (kept for the matches' clocks to come)")
    rated: StrictBool = Field(False, description="whether its matches are rated")
    max_players: StrictInt = Field(
        ge=2, le=MOST_ELIMINATION,
        description=f"the most players it takes (round robin: at most {MOST_ROUND_ROBIN}); "
        "without a start time it starts once this many have joined")
    starts_at: datetime | None = Field(
        None, description="when it starts with the players it has (two at least, or it is "
        f"called off), within {MOST_DAYS_AHEAD} days, with its zone; none: once full")


class EntrantView(BaseModel):
    """A player entered: name, rating, seed once it has started (from 1)."""

    name: str
    rating: float
    seed: int | None


class PairingView(BaseModel):
    """A place of the draw: round and slot (from 0), its match (none for a bye), the
    players (seat 0, seat 1; none: a bye), and once decided the winner and the points."""

    round: int
    slot: int
    match: str | None
    players: tuple[str, str | None]
    winner: str | None
    points: tuple[int, int]


class StandingView(BaseModel):
    """A player's place (shared by those out in the same elimination round) and record."""

    place: int
    name: str
    wins: int
    losses: int
    points_won: int
    points_lost: int


class TournamentView(BaseModel):
    """A tournament as it stands. ``version`` grows with every change; ``joined`` and
    ``your_match`` are the signed-in viewer's (their entry; the match they are to play)."""

    id: str
    name: str
    kind: Kind
    game: Game
    status: Literal["open", "running", "finished", "cancelled"]
    version: int
    creator: str
    length: int
    time_control: TimeControl
    rated: bool
    max_players: int
    starts_at: datetime | None
    created_at: datetime
    winner: str | None
    players: list[EntrantView]
    draw: list[PairingView]
    standings: list[StandingView]
    joined: bool
    your_match: str | None


class TournamentSummary(BaseModel):
    """A tournament in the list."""

    id: str
    name: str
    kind: Kind
    game: Game
    status: str
    length: int
    players: int
    max_players: int
    starts_at: datetime | None


class TournamentList(BaseModel):
    """The latest tournaments open to join, running, and finished."""

    open: list[TournamentSummary]
    running: list[TournamentSummary]
    finished: list[TournamentSummary]


class TournamentSeat(BaseModel):
    """The signed-in player's seat in a match of the tournament, and the token that holds
    it (as a rematch's: ``Authorization: Bearer <token>`` for its actions)."""

    id: str
    seats: list[int]
    token: str
