"""Accounts: sign up, sign in and out, who is signed in, and a player's results and rating."""

from __future__ import annotations

import contextlib
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Path, Request, Response, status
from pydantic import BaseModel, Field, StrictBool, StrictStr
from starlette.concurrency import run_in_threadpool

from ..db import utc
from ..http.guards import RateLimits, rate_limited
from ..play.deps import SettingsDep
from ..play.schemas import RequestBody
from .ratings import Analysed, Ratings, RatingsDep, Result
from .sessions import (
    SESSION_COOKIE,
    Sessions,
    SignedIn,
    Viewer,
    clear_cookies,
    csrf_token,
    get_sessions,
    keep_guest_name,
    set_cookies,
)
from .users import (
    Account,
    Accounts,
    AccountsDep,
    InvalidNameError,
    InvalidPasswordError,
    NameTakenError,
    WrongPasswordError,
)

router = APIRouter(prefix="/api", tags=["accounts"])


class Credentials(RequestBody):
    """A name and a password (the rules a new account's follow are in the refusals)."""

    name: StrictStr = Field(max_length=100, description="3 to 20 letters, digits, - or _")
    password: StrictStr = Field(max_length=1000, description="8 to 128 characters")


class AccountView(BaseModel):
    """An account as anyone may see it."""

    name: str
    rating: float = Field(description="the FIBS rating, 1500 to start with")
    experience: int = Field(description="the points of the rated matches finished")


class SessionView(BaseModel):
    """Who this browser is signed in as (None: a guest, with the name it plays under), and
    the token its state-changing requests send in the X-CSRF-Token header while signed in."""

    account: AccountView | None
    guest: str | None = None
    csrf: str | None = None


class ResultView(BaseModel):
    """A rated match from the player's side."""

    match: str
    opponent: str
    length: int
    won: bool
    rating_before: float
    change: float
    rating_after: float
    finished: str = Field(description="when it ended, ISO 8601 in UTC")
    opponent_hidden: bool = Field(description="the opponent hid their page")
    game: str = Field(description="the game rated: backgammon, tavli or another game's name")


class GameStanding(BaseModel):
    """A player's rating in one of the other games (backgammon's is the account's own)."""

    game: str = Field(description="tavli or another game's name, as a match's game says")
    rating: float = Field(description="the FIBS rating in this game, 1500 to start with")
    experience: int = Field(description="the points of the rated matches of it finished")


class AnalysedView(BaseModel):
    """How the player played a rated match, from its analysis (their side only)."""

    match: str
    opponent: str
    opponent_hidden: bool = Field(description="the opponent hid their page")
    length: int
    won: bool
    finished: str = Field(description="when it ended, ISO 8601 in UTC")
    checker: float = Field(description="the checker plays' error rate, mEMG a decision")
    cube: float = Field(description="the cube decisions' error rate, mEMG a decision")
    overall: float = Field(description="the error rate of all decisions, mEMG a decision")
    equity_lost: float = Field(description="the errors' total, in EMG")
    pr: float | None = Field(description="500 times the error a decision (XG's PR)")


class PlayerView(AccountView):
    """A player's page: their rating, their rated matches (the latest first), whose
    ``rating_after`` are the rating's history, and how they played those analysed (the
    latest 50 first)."""

    created: str
    hidden: bool = Field(description="the player hid their page: only they see this")
    results: list[ResultView]
    analysed: list[AnalysedView]
    games: list[GameStanding] = Field(
        description="the ratings in the other games played rated (rating and experience "
        "above are backgammon's)")


class Privacy(RequestBody):
    """Whether the signed-in player's page is hidden from everyone else."""

    hidden: StrictBool


SessionsDep = Annotated[Sessions, Depends(get_sessions)]
PlayerName = Annotated[str, Path(min_length=1, max_length=40, description="the player's name")]


def _view(account: Account) -> AccountView:
    return AccountView(name=account.name, rating=account.rating, experience=account.experience)


def _signed_in(
    request: Request, response: Response, sessions: Sessions, account: Account, days: int
) -> SessionView:
    """Open a session of ``account`` and give its cookies (ending one this browser had)."""
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        sessions.close(old)
    secret = sessions.open(account)
    set_cookies(request, response, secret, days)
    return SessionView(account=_view(account), csrf=csrf_token(secret))


@router.post(
    "/accounts",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(rate_limited("signin"))],
    responses={
        409: {"description": "the name is taken"},
        422: {"description": "a name or password that breaks a rule (the sentence says which)"},
        429: {"description": "too many tries from this address"},
    },
)
async def sign_up(
    credentials: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    sessions: SessionsDep,
    settings: SettingsDep,
) -> SessionView:
    """Make an account (rated 1500) and sign in with it: the session's cookies are set."""
    try:
        account = await accounts.sign_up(credentials.name, credentials.password)
    except (InvalidNameError, InvalidPasswordError) as exc:
        raise HTTPException(422, str(exc)) from None
    except NameTakenError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
    return await run_in_threadpool(
        _signed_in, request, response, sessions, account, settings.session_days
    )


@router.post(
    "/session",
    dependencies=[Depends(rate_limited("signin"))],
    responses={
        401: {"description": "the name or the password is wrong"},
        429: {"description": "too many tries from this address, or too many wrong passwords "
              "for this name lately"},
        503: {"description": "the threads that check passwords are all busy"},
    },
)
async def sign_in(
    credentials: Credentials,
    request: Request,
    response: Response,
    accounts: AccountsDep,
    sessions: SessionsDep,
    settings: SettingsDep,
) -> SessionView:
    """Sign in: the session's cookies are set (a session this browser had is ended). A name
    that has had too many wrong passwords lately, from any address, is refused (429) until
    its window has passed, whether or not it is an account's."""
    limits: RateLimits = request.app.state.limits
    name_key = credentials.name.lower()
    await limits.check("account", name_key, count=False)
    try:
        account = await accounts.sign_in(credentials.name, credentials.password)
    except WrongPasswordError as exc:
        with contextlib.suppress(HTTPException):  # this try is answered as wrong, not as many
            await limits.check("account", name_key)
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, str(exc)) from None
    return await run_in_threadpool(
        _signed_in, request, response, sessions, account, settings.session_days
    )


@router.get("/session")
async def who(request: Request, response: Response, account: Viewer) -> SessionView:
    """Who this browser is signed in as, or the name its guest plays under (kept in a cookie
    from the first asking); a session that has ended has its cookies taken back, and a live
    one has its CSRF cookie given again (a page that lost it finds it)."""
    secret = request.cookies.get(SESSION_COOKIE)
    if account is None or secret is None:
        if secret is not None:
            clear_cookies(response)
        return SessionView(account=None, guest=keep_guest_name(request, response))
    settings = request.app.state.settings
    set_cookies(request, response, secret, settings.session_days)
    return SessionView(account=_view(account), csrf=csrf_token(secret))


@router.delete("/session", status_code=status.HTTP_204_NO_CONTENT)
async def sign_out(request: Request, response: Response, sessions: SessionsDep) -> None:
    """Sign out: the session ends and its cookies are taken back."""
    secret = request.cookies.get(SESSION_COOKIE)
    if secret:
        await run_in_threadpool(sessions.close, secret)
    clear_cookies(response)


@router.put("/account/privacy", responses={401: {"description": "nobody is signed in"}})
async def set_privacy(body: Privacy, account: SignedIn, accounts: AccountsDep) -> Privacy:
    """Hide the signed-in player's page from everyone else (``hidden``: true), or show it
    again. A hidden page answers 404, as for no such player, to all but its owner."""
    changed = await run_in_threadpool(accounts.hide, account, body.hidden)
    return Privacy(hidden=changed.hidden)


@router.get("/players/{name}", responses={404: {"description": "no such player, or one who "
                                                 "hid their page from all but themselves"}})
async def player(
    name: PlayerName, accounts: AccountsDep, ratings: RatingsDep, viewer: Viewer
) -> PlayerView:
    """A player's rating, experience, rated matches, the latest first, and how they played
    those with a finished analysis."""
    return await run_in_threadpool(player_view, accounts, ratings, name, viewer)


def player_view(
    accounts: Accounts, ratings: Ratings, name: str, viewer: Account | None = None
) -> PlayerView:
    """The player called ``name`` and their results; 404 if there is none, or if they hid
    their page and ``viewer`` is not they (the same answer, so that it says nothing)."""
    account = accounts.named(name)
    if account is None or (account.hidden and (viewer is None or viewer.id != account.id)):
        raise HTTPException(status.HTTP_404_NOT_FOUND, "There is no player by that name.")
    return PlayerView(
        **_view(account).model_dump(),
        created=utc(account.created_at).isoformat(),
        hidden=account.hidden,
        results=[_result(result) for result in ratings.results(account)],
        analysed=[_analysed(played) for played in ratings.analysed(account)],
        games=[GameStanding(game=game, rating=rating, experience=experience)
               for game, rating, experience in ratings.in_games(account)],
    )


def _result(result: Result) -> ResultView:
    """A rated match as the API gives it."""
    return ResultView(
        match=result.match_id,
        opponent=result.opponent,
        length=result.length,
        won=result.won,
        rating_before=result.rating_before,
        change=result.change,
        rating_after=result.rating_after,
        finished=utc(result.finished_at).isoformat(),
        opponent_hidden=result.opponent_hidden,
        game=result.game,
    )


def _analysed(played: Analysed) -> AnalysedView:
    """An analysed match as the API gives it."""
    return AnalysedView(
        match=played.match_id,
        opponent=played.opponent,
        opponent_hidden=played.opponent_hidden,
        length=played.length,
        won=played.won,
        finished=utc(played.finished_at).isoformat(),
        checker=played.checker,
        cube=played.cube,
        overall=played.overall,
        equity_lost=played.equity_lost,
        pr=played.pr,
    )
