"""Matches: create one, read its state, export its record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, status
from fastapi.responses import PlainTextResponse

from ....bot import Level
from ....errors import BackgammonError
from ....formats.ids import setup_from_id
from ....formats.mat import export_mat
from ....game import Rules
from ....game.clock import TimeControl
from ....game.match import Match
from ...accounts.ratings import RatingsDep, refuse_unratable
from ...accounts.sessions import Viewer
from ...http.guards import rate_limited
from ..board_games import new_board_match, refuse_other_games
from ..deps import ComputerDep, Live, MatchServiceDep, RecordSince, SettingsDep, StoreDep
from ..live import AnyMatch, SeatSettings, dice_for
from ..schemas import Created, CreateMatch, State
from ..seats import Invite, Key, Seating, digest_of, new_secret
from ..views import state_of

router = APIRouter(prefix="/api/matches", tags=["matches"])

View = Annotated[int, Query(ge=0, le=1, description="the seat whose side the board is drawn from")]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=Created,
    dependencies=[Depends(rate_limited("create"))],
    responses={429: {"description": "too many new matches from this address"}},
)
async def create_match(
    request: CreateMatch,
    store: StoreDep,
    computer: ComputerDep,
    settings: SettingsDep,
    account: Viewer,
    ratings: RatingsDep,
) -> Created:
    """Start a match (``length`` points) or a money session (0), waiting for its opening roll,
    or set up from a ``position`` (an ID) where the ID says.

    The answer's ``token`` holds the creator's seats: both at one screen, seat 0 against the
    computer (seat 1) and online, where the ``invite`` gives seat 1 to whoever joins with it
    (``POST /api/matches/join``, or the page's ``/join/<invite>``). An online match may be a
    ``practice`` match, with hints and analyses during play, never a rated one (422).
    """
    if request.seed is not None and not settings.allow_seed:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "This server rolls its own dice: a seed is taken only where the server is "
            "started for tests or reproductions (BACKGAMMON_ALLOW_SEED=1).",
        )
    online = request.opponent not in ("computer", "human")
    _refuse_unfit_practice(request, online)
    refuse_unratable(request.rated, account, request.length, online, bool(request.position))
    if request.game is None:
        match: AnyMatch = _new_match(request)
    else:
        match = new_board_match(request, *_players(request))
    against = request.opponent == "computer"
    seats = (
        SeatSettings("human"),
        SeatSettings("computer", Level(request.level)) if against else SeatSettings("human"),
    )
    online = request.opponent == "online"
    token, invite = new_secret(), new_secret() if online else None
    seating = Seating(
        [Key(digest_of(token), frozenset({0}) if against or online else frozenset({0, 1}))],
        online=online,
        invite=None
        if invite is None
        else Invite(digest_of(invite), 1, invite if request.lobby else None),
        claim_seconds=settings.claim_seconds,
        practice=request.practice,
        clock=_time_control(request),
    )
    live = await store.add(match, seats, request.seed, seating)
    await ratings.note_creator(live, account, request.rated)
    computer.wake(live)  # a position set up with the computer to play
    return Created(**state_of(live, 0).model_dump(), token=token, invite=invite)


def _time_control(request: CreateMatch) -> TimeControl | None:
    """The time control ``request`` asks for (None: no clock); 422 for a custom one that
    gives no time at all."""
    clock = request.clock
    if clock is None:
        return None
    try:
        if isinstance(clock, str):
            return TimeControl.named(clock)
        return TimeControl(clock.delay, clock.bank)
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None


def _refuse_unfit_practice(request: CreateMatch, online: bool) -> None:
    """422 with the reason for a practice match that cannot be one: a rated match (whose
    ratings must come from the players' own judgement), or one not online, where hints and
    analyses are the players' own business anyway."""
    if not request.practice:
        return
    if request.rated:
        raise HTTPException(
            422,
            "A rated match cannot be a practice match: in a rated match each player plays "
            "on their own judgement, without hints or analyses.",
        )
    if not online:
        raise HTTPException(
            422,
            "A practice match is an online match against a person: at one screen and against "
            "the computer, hints and analyses are always there.",
        )


def _new_match(request: CreateMatch) -> Match:
    """The match ``request`` asks for, waiting for its opening roll or set up from its
    ``position``; 422 where the rules refuse it."""
    try:
        setting = None
        if request.position is not None:
            setting = setup_from_id(request.position, checkers=request.variant.checkers)
        length = request.length if setting is None or setting.length is None else setting.length
        rules = Rules(
            request.variant,
            cube=request.cube,
            jacoby=request.jacoby,
            beavers=request.beavers,
            automatic_doubles=request.automatic_doubles,
            max_cube=request.max_cube,
            opening_reroll=request.opening_reroll,
            # RULES.md, Starting the game: players apart throw their own opening dice.
            own_opening_dice=request.opponent == "online",
            auto_forced=request.auto_forced,
            auto_race_roll=request.auto_race_roll,
        )
        names, colours = _players(request)
        return Match(
            length,
            rules,
            dice_for(request.seed),
            players=names,
            colours=colours,
            crawford=request.crawford,
            setup=setting.setup if setting else None,
            score=setting.score if setting else (0, 0),
            crawford_game=bool(setting and setting.crawford_game),
        )
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None


def _players(request: CreateMatch) -> tuple[tuple[str, str], tuple[str, str]]:
    """The players' names and colours, by seat: as asked, or Player and Computer against the
    computer, each colour's name at one screen."""
    colours = ("white", "black") if request.colour == "white" else ("black", "white")
    if request.names:
        return request.names, colours
    if request.opponent == "computer":
        return ("Player", "Computer"), colours
    return (colours[0].capitalize(), colours[1].capitalize()), colours


@router.get("/{match_id}", response_model=State)
async def get_state(
    live: Live,
    computer: ComputerDep,
    matches: MatchServiceDep,
    view: View = 0,
    record_since: RecordSince = None,
) -> State:
    """The match's state, the board drawn from seat ``view``'s side (its record only what
    changed after ``record_since``, where given). A game left waiting for the computer
    (after a restart, or a failed try) wakes it; a seat whose time has run out loses on
    time first (the match's ``clock``)."""
    await matches.check_clock(live)
    computer.wake(live)
    return state_of(live, view, record_since)


@router.get("/{match_id}/mat", response_class=PlainTextResponse)
async def export(live: Live) -> PlainTextResponse:
    """The match as a ``.mat`` file (Jellyfish / GNU Backgammon text): backgammon's alone
    (409 for the other games)."""
    refuse_other_games(live, ".mat files")
    assert isinstance(live.match, Match)
    try:
        text = export_mat(live.match)
    except BackgammonError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    return PlainTextResponse(
        text,
        headers={"Content-Disposition": f'attachment; filename="backgammon-{live.id}.mat"'},
    )


@router.get("/{match_id}/record")
async def record(live: Live) -> dict[str, Any]:
    """The engine's record of the match (``Match.to_dict()``): its rules and every event."""
    return live.match.to_dict()
