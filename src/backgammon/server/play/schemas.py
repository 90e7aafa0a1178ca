"""The shapes of the API's requests and answers, as /docs shows them.

Point numbers in actions are the moving player's own (1..24, 25 the bar, 0 off), as in the
game's notation. The board in an answer is drawn from one seat's side (``view``): entry ``i``
of ``board.points`` is that seat's point ``i + 1``, and each step also names the places it
joins on that board (``board_from``, ``board_to``: the viewer's point numbers, with 25 the
mover's bar and 0 the mover's tray), so a page can highlight them without knowing the rules.
Lists of two (``score``, ``bar``, ``off``, ``pips``, ``actions``, ``seats``) are by seat.
"""

from __future__ import annotations

import unicodedata
from datetime import datetime
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt

from ...bot import Level
from ...cube import HIGHEST_CUBE, MAX_MATCH_LENGTH
from ...game.clock import MAX_BANK, MAX_DELAY
from ...variants import Variant

# Numbers and switches are strict: a seat is never 1.0 or true, a length never true, a
# switch never "yes". Text that the game reads (plays, IDs) is printable ASCII.
Seat = Annotated[StrictInt, Field(ge=0, le=1)]
Ascii = Annotated[str, Field(pattern=r"^[ -~]*$")]


def _no_control_characters(name: str) -> str:
    """A name as records and files can hold it: no control characters, no lone surrogates.

    >>> _no_control_characters("Ann")
    'Ann'
    >>> _no_control_characters("A" + chr(0))
    Traceback (most recent call last):
    ...
    ValueError: a name holds no control characters
    """
    if any(unicodedata.category(character) in ("Cc", "Cs") for character in name):
        raise ValueError("a name holds no control characters")
    return name


Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(_no_control_characters)]


class RequestBody(BaseModel):
    """A request's body: no field it does not name."""

    model_config = ConfigDict(extra="forbid")


class CustomClock(RequestBody):
    """A time control of one's own: a delay each time the game waits for a seat, then a bank
    a match point (three points' worth a game of money play)."""

    delay: StrictInt = Field(ge=0, le=MAX_DELAY, description="seconds each wait")
    bank: StrictInt = Field(ge=0, le=MAX_BANK, description="seconds a match point")


#: The games other than backgammon a match may be of (:data:`backgammon.games.GAMES` beyond
#: backgammon's layouts), and ``tavli``: Portes, Plakoto and Fevga in turn.
OtherGame = Literal["portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey", "tavli"]


class CreateMatch(RequestBody):
    """A new match to ``length`` points, or a money session (0), with its options."""

    length: StrictInt = Field(
        0, ge=0, le=MAX_MATCH_LENGTH, description="points to win; 0 for money play"
    )
    opponent: Literal["human", "computer", "online"] = Field(
        "computer",
        description="the computer, another person at the same screen, or a person elsewhere "
        "(online: the answer's ``invite`` gives them the other seat)",
    )
    lobby: StrictBool = Field(
        False, description="online: list the match in the lobby, for anyone to join"
    )
    level: Level = Field(Level.INTERMEDIATE, description="the computer's strength")
    colour: Literal["white", "black"] = Field("white", description="the colour of seat 0")
    names: tuple[Name, Name] | None = Field(
        None, description="the players' names for records (seat 0, seat 1)"
    )
    variant: Variant = Variant.STANDARD
    game: OtherGame | None = Field(
        None,
        description="one of the other games played on the board (None: backgammon, in its "
        "``variant``): against the computer or at one screen, with its own rules, cube and "
        "opening; ``tavli`` plays Portes, Plakoto and Fevga in turn",
    )
    cube: StrictBool = True
    jacoby: StrictBool = Field(False, description="money play only")
    beavers: StrictBool = Field(False, description="money play only")
    automatic_doubles: StrictInt = Field(
        0, ge=0, le=8, description="money play: the cap of automatic doubles a game"
    )
    max_cube: StrictInt | None = Field(
        None,
        ge=1,
        le=HIGHEST_CUBE,
        description=f"the highest cube value, a power of two (by default {HIGHEST_CUBE}, "
        "as GNU Backgammon's)",
    )
    crawford: StrictBool = Field(True, description="matches: the Crawford rule")
    opening_reroll: StrictBool = False
    auto_forced: StrictBool = Field(False, description="play forced plays for the player")
    auto_race_roll: StrictBool = Field(False, description="roll for the player in a pure race")
    seed: StrictInt | None = Field(
        None,
        ge=0,
        lt=2**63,
        description="seeded dice, known in advance: only where the server allows it "
        "(for tests and reproductions); the state then shows the seed",
    )
    rated: StrictBool = Field(
        False,
        description="a rated match (FIBS ratings): only to a length, between two signed-in "
        "players online, from the opening",
    )
    practice: StrictBool = Field(
        False,
        description="online: a practice match, where both players may ask for hints and the "
        "match's analysis while it is played (the invite's preview and the lobby tell the "
        "joiner first); fixed at creation, never with ``rated``",
    )
    clock: Literal["fast", "normal", "casual"] | CustomClock | None = Field(
        None,
        description="the match's time control (None: no clock): a preset (fast: 8 s a wait "
        "and 20 s a point; normal: 12 s and 60 s; casual: 15 s and 180 s) or a custom one; "
        "out of time, a match is lost, a money game lost at the highest level the position "
        "allows",
    )
    position: Ascii | None = Field(
        None,
        max_length=100,
        description="start from a position instead of the opening roll: a GNU Backgammon "
        "Position ID (seat 0 to roll), a full GNU Backgammon ID or an XGID; the last two "
        "also give the dice, the cube, and the match length and score (over ``length``)",
    )


class AddSeed(RequestBody):
    """A player's own seed for the fair dice of the game in play, before its first roll (it
    holds for the next games too, until changed)."""

    seat: Seat = Field(description="the seat whose seed it is")
    seed: str = Field(
        pattern=r"^[A-Za-z0-9._-]{0,64}$",
        description="up to 64 letters, digits, '.', '_' or '-'; empty takes the seed back",
    )


#: The longest ``.mat`` text taken for analysis (a long match's file is some 100 kB).
MAX_MAT_TEXT = 1_000_000


class UploadMat(RequestBody):
    """A ``.mat`` file to analyse, as its text."""

    text: str = Field(max_length=MAX_MAT_TEXT, description="the file's text")




class SeatView(BaseModel):
    """Who plays a seat."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["human", "computer"]
    level: Level | None
    name: str
    colour: str


class OfferView(BaseModel):
    """A double waiting for its answer."""

    by: int
    value: int
    beavered: bool


class CubeView(BaseModel):
    """The cube: its value, its owner (None: in the middle) and any double offered."""

    value: int
    owner: int | None
    offer: OfferView | None
    used: bool = Field(description="false when the game is played without the cube")


class ResignationView(BaseModel):
    """A resignation waiting for its answer."""

    by: int
    level: int


class ResultView(BaseModel):
    """How a game ended."""

    winner: int
    kind: Literal["single", "gammon", "backgammon"]
    points: int
    reason: Literal["bear off", "drop", "resign", "claim", "time", "mother", "draw"]


class PointView(BaseModel):
    """One point: whose checkers are on it (None: nobody's) and how many."""

    model_config = ConfigDict(frozen=True)

    seat: int | None
    count: int


class BoardView(BaseModel):
    """The checkers, drawn from the viewer's side."""

    model_config = ConfigDict(frozen=True)

    points: list[PointView] = Field(description="the viewer's points 1..24, in order")
    bar: list[int]
    off: list[int]
    pips: list[int]


class PinView(BaseModel):
    """A checker pinned under a point held by the other side (Plakoto)."""

    model_config = ConfigDict(frozen=True)

    point: int = Field(description="the viewer's point")
    seat: int = Field(description="whose checker lies pinned there")


class GameBoardView(BoardView):
    """The board of one of the other games (``points`` show who holds each point, and how
    many checkers, above any pinned one), with what backgammon's lacks."""

    travel: Literal["opposite", "same"] = Field(
        description="opposite: the opponent moves from the viewer's point 1 to 24, as in "
        "backgammon; same: both move the same way round (Fevga, Long Nardy), the opponent "
        "from the viewer's point 12 down to 1, then from 24 to 13"
    )
    pinned: list[PinView] = Field(description="the checkers pinned under other points")
    waiting: list[int] = Field(
        description="by seat: the checkers still to enter the board (Acey-deucey), counted "
        "in ``bar`` too"
    )


class StepView(BaseModel):
    """A checker step: on the mover's numbers, and where it lies on the viewer's board."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True, frozen=True)

    from_: int = Field(alias="from")
    to: int
    board_from: int
    board_to: int


class DieView(BaseModel):
    """One die of the roll being played (doubles give four), and whether it is used."""

    model_config = ConfigDict(frozen=True)
    value: int
    used: bool


class PlayedStepView(BaseModel):
    """One checker step of a play in the record, on the mover's numbers (25 the bar, 0 off),
    and whether it hit a blot."""

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)

    from_: int = Field(alias="from")
    to: int
    hit: bool


class EntryView(BaseModel):
    """One entry of a game's record.

    ``kind`` is ``opening`` (``dice`` are seat 0's die and seat 1's), ``play`` (``dice`` and
    ``play`` in notation, None for no move, and its ``steps`` one by one, for a page to say
    them in words), ``double``, ``beaver`` (``value``), ``take``, ``drop``, ``resign``
    (``level``), ``accept``, ``reject`` or, in Acey-deucey after a 1-2, ``name`` (the double
    named: ``value``, its number). ``auto``: the game made it.
    """

    seat: int
    kind: Literal[
        "opening", "play", "double", "beaver", "take", "drop", "resign", "accept", "reject",
        "name",
    ]
    dice: list[int] | None = None
    play: str | None = None
    steps: list[PlayedStepView] | None = None
    value: int | None = None
    level: int | None = None
    auto: bool = False


class FairDiceView(BaseModel):
    """A game's provably fair dice (docs/guide/online.md, "Provably fair dice"): the commitment
    published before its first roll, the players' seeds, and the server seed once the game
    is over."""

    model_config = ConfigDict(frozen=True)

    commitment: str = Field(description="SHA-256 of the secret server seed, in hex")
    seeds: list[str] = Field(description="each seat's own seed (empty: none)")
    server_seed: str | None = Field(None, description="revealed when the game is over, in hex")
    rolls: int = Field(description="the rolls made so far; the next is number rolls + 1")


class GameView(BaseModel):
    """One game of the match: its record, the score before it, and its result."""

    number: int
    score_before: list[int]
    crawford: bool
    entries: list[EntryView] = Field(
        description="the game's entries from place ``first_entry`` on (all of them but in "
        "a state's record of changes, ``record_since``)"
    )
    first_entry: int = Field(
        0, description="the place, among all the game's entries, of the first one given"
    )
    result: ResultView | None
    fair_dice: FairDiceView | None = None


class ThrownView(BaseModel):
    """An opening die thrown by one seat, the other's still to come."""

    seat: int
    die: int


class ClaimView(BaseModel):
    """When the other side may claim the game of a seat an online game waits for."""

    against: int = Field(description="the seat the game waits for")
    after: datetime = Field(description="from this time the other seat may claim")


class TimeControlView(BaseModel):
    """A match's time control: a delay each wait, then a bank a match point."""

    delay: int = Field(description="seconds each time the game waits for a seat")
    bank: int = Field(description="seconds a match point (three points' worth a money game)")
    preset: Literal["fast", "normal", "casual"] | None = Field(
        description="the preset's name (None: a custom control)"
    )


class ClockView(TimeControlView):
    """Each seat's clock as the state was made: the page counts down from ``now`` (the
    server's time then), correcting for its own clock's skew."""

    banks: list[float] = Field(description="the seconds left in each seat's bank")
    running: list[int] = Field(
        description="the seats whose clock runs (both at an opening roll, none once over)"
    )
    delay_left: float = Field(description="the seconds left of this wait's delay")
    now: datetime = Field(description="the server's time when the state was made")


class RematchView(BaseModel):
    """A match's rematch, once offered: the seat that offered it while it waits for the
    other's answer, and the rematch's id once it has started."""

    offered_by: int | None = Field(description="the seat whose offer waits for an answer")
    id: str | None = Field(description="the rematch, once started: its seats' tokens are "
                           "asked for with GET /api/matches/{id}/rematch")


class SharedState(BaseModel):
    """What a state shows every seat alike: all of :class:`State` but the side its board is
    drawn from (a state's text is made of this part, made once for all the pages an action
    reaches, and each page's side)."""

    id: str
    version: int = Field(description="the number of events so far; every action raises it")
    seed: int | None = Field(
        description="the dice's seed, when the match was started with one: its rolls are "
        "then known in advance"
    )
    fair_dice: FairDiceView | None = Field(
        None,
        description="the provably fair dice of the game in play (None: seeded dice, or a "
        "match from before fair dice)",
    )
    seats: list[SeatView]
    length: int = Field(description="0 for money play")
    score: list[int]
    match_over: bool
    winner: int | None
    game_number: int
    crawford: bool = Field(description="this game is the Crawford game: no doubling")
    phase: Literal["opening", "roll", "cube", "move", "confirm", "resign", "name", "over"] = (
        Field(description="name: Acey-deucey, after a 1-2 the player names a double to play")
    )
    on_roll: int
    to_act: int | None = Field(description="the seat the game waits for (None: either)")
    dice: list[DieView] = Field(description="the roll being played, empty otherwise")
    opening_tie: list[int] | None = Field(description="the opening roll's tied dice, if any")
    thrown: ThrownView | None = Field(
        None,
        description="online, at the opening roll: the seat that has thrown its own die, and "
        "the die, while the game waits for the other's",
    )
    cube: CubeView
    resignation: ResignationView | None
    result: ResultView | None = Field(description="the result of the game shown")
    actions: list[list[str]] = Field(description="the actions each seat may take now")
    record: list[GameView] = Field(
        description="the match's games, each with its entries; where ``record_since`` is "
        "set, only what changed after that version"
    )
    record_since: int | None = Field(
        None,
        description="None: ``record`` is the whole record. A version: ``record`` holds only "
        "the games from the one in play at that version on, the first of them with only the "
        "entries made after it (from its place ``first_entry``); a client that holds the "
        "state of that version or a later one keeps its entries before ``first_entry`` and "
        "takes the rest, and every later game, from this one",
    )
    gnubg_id: str | None
    xgid: str | None
    rules: dict[str, object]
    game: str = Field(
        "standard",
        description="the game in play: backgammon's layout (standard, nackgammon, "
        "hypergammon) or one of the other games (backgammon.games.GAMES)",
    )
    rotation: list[str] | None = Field(
        None, description="a match of several games in turn (Tavli): their names, in order"
    )
    online: bool = Field(description="the seats are played from two places")
    practice: bool = Field(
        False,
        description="online: a practice match, where both players may ask for hints and "
        "analyses while it is played",
    )
    waiting_for_opponent: bool = Field(
        description="online: the invite is not yet taken, so no one may act"
    )
    unheld: bool = Field(
        False, description="saved before seats had tokens: the first who asks takes its "
        "seats (POST /api/matches/{id}/take)"
    )
    claim: ClaimView | None = Field(
        description="online: when the seat the game waits for may be claimed against"
    )
    clock: ClockView | None = Field(
        None, description="the match's clocks (None: no time control)"
    )
    rematch: RematchView | None = Field(
        None, description="the match over: its rematch, offered or started (None: neither)"
    )
    rematch_of: str | None = Field(None, description="the match this one is a rematch of")


class State(SharedState):
    """Everything a client needs to show the match and offer the next action."""

    view: int = Field(description="the seat whose side the board is drawn from")
    board: GameBoardView | BoardView
    steps: list[StepView] = Field(description="the checker steps that may come next")
    made: list[StepView] = Field(description="the steps made so far this turn")


class Created(State):
    """A new match's state, with the creator's seat token (send it with every action, hint
    and analysis request as ``Authorization: Bearer <token>``) and, for an online match,
    the invite that gives the other seat."""

    token: str
    invite: str | None


class JoinMatch(RequestBody):
    """Take the seat an invite gives."""

    invite: Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
    name: Name | None = Field(None, description="the joining player's name")


class Joined(BaseModel):
    """The seat taken: the match, the seat, and its token."""

    id: str
    seat: int
    token: str


class Taken(BaseModel):
    """The seats of a match saved before seats had tokens, taken: their token."""

    id: str
    seats: list[int]
    token: str


class InviteView(BaseModel):
    """What an open invite offers, for the joiner to see before taking its seat."""

    creator: str = Field(description="the creator's name")
    rating: float | None = Field(description="a signed-in creator's rating (FIBS)")
    rated: bool = Field(False, description="the match is rated: only signed-in players join")
    practice: bool = Field(
        False,
        description="a practice match: both players may ask for hints and analyses while it "
        "is played (whoever joins agrees to it)",
    )
    seat: int = Field(description="the seat a joining player takes")
    length: int = Field(description="0 for money play")
    crawford: bool = Field(description="the Crawford rule applies (a match)")
    rules: dict[str, object]
    clock: TimeControlView | None = Field(None, description="the time control (None: none)")
    game: str = Field(
        "backgammon",
        description="what is played: backgammon (in the rules' layout), tavli (Portes, "
        "Plakoto and Fevga in turn) or another game's name, as POST /api/matches takes it",
    )


class LobbyEntry(InviteView):
    """An online match waiting for an opponent."""

    id: str
    invite: str = Field(description="join with it (POST /api/matches/join)")
    created_at: datetime


class LivePlayer(BaseModel):
    """A player of a live match: their name, and a signed-in player's rating."""

    name: str
    rating: float | None = Field(description="a signed-in player's rating (FIBS)")


class LiveMatchEntry(BaseModel):
    """An online match both of whose players have come, being played: watch it at
    ``/?match=<id>`` (read-only without a seat's token)."""

    id: str
    players: list[LivePlayer] = Field(description="by seat")
    score: list[int] = Field(description="by seat: points so far")
    length: int = Field(description="0 for money play")
    rated: bool
    clock: TimeControlView | None = Field(None, description="the time control (None: none)")
    updated_at: datetime = Field(description="the last action")
    game: str = Field("backgammon", description="what is played, as an invite's game says")


class DecisionBoard(BaseModel):
    """The board of a moment given by gnubg's IDs, drawn from one seat's side."""

    board: BoardView
    on_roll: int = Field(description="the seat on roll (and to decide)")
    dice: list[int] | None = Field(description="the roll to play, if rolled")
    cube_value: int
    cube_owner: int | None = Field(description="the seat owning the cube; null: centred")


class OfferRematch(RequestBody):
    """Offer a rematch, at the match's end."""

    seat: Seat = Field(description="the seat that offers")


class AnswerRematch(RequestBody):
    """Answer the rematch the other seat offered."""

    seat: Seat = Field(description="the seat that answers")
    accept: StrictBool = Field(description="true starts the rematch; false declines it")


class Rematched(BaseModel):
    """A rematch started, for the seats of the token that asked: the new match, the seats
    that token held in the first match have in it, and their token there."""

    id: str
    seats: list[int]
    token: str
