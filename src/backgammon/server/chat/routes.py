"""The chat's API, under ``/api/matches/{id}/chat``: write, read, mute, report
(:mod:`.rooms` keeps and pushes the messages; :mod:`.texts` says what a message may hold).

Only an online match between people has a chat. Its players write in the players' channel,
each with their seat token; a spectator writes in the spectators' channel once signed in,
under their account's name (a guest reads only: a name given on the spot would let anyone
write under any name, and a report could name nobody). Everyone who may watch the match may
read both channels; a player's page may hide the spectators' (a choice kept in that browser).
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, status
from pydantic import BaseModel, Field, StrictBool
from starlette.responses import Response

from ..accounts.sessions import Viewer
from ..http.guards import RateLimits
from ..play.deps import LiveToAct, bearer_token, check_holds, held_by
from ..play.live import LiveMatch
from ..play.schemas import RequestBody
from .rooms import PLAYERS, Chats, Message, OwnMessageError, UnknownMessageError, Writer
from .texts import MOST, PHRASES, ChatTextError, check_phrase, clean

router = APIRouter(prefix="/api/matches", tags=["chat"])

Seat = Annotated[int, Field(ge=0, le=1, strict=True)]

#: What the chat's routes may answer besides their answer.
_REFUSALS: dict[int | str, dict[str, str]] = {
    401: {"description": "no seat token (a player), or not signed in (a spectator)"},
    403: {"description": "a match that has no chat (against the computer, at one screen); a "
          "token that holds no seat of the match, or not this one; a player writing in the "
          "spectators' channel, or a spectator in the players'"},
    404: {"description": "no such match, or no such message of it"},
    422: {"description": "an empty message, a longer one than 300 characters, a control "
          "character, an unknown quick phrase"},
    429: {"description": "too many messages from this writer: at most 5 in 10 seconds"},
}


class WriteChat(RequestBody):
    """A message: ``text``, or a quick ``phrase`` by its key (each reader's page says it in
    its own language)."""

    channel: Literal["players", "spectators"] = Field(
        description="the players' channel (a seat's token) or the spectators' (signed in)"
    )
    seat: Seat | None = Field(None, description="the player's seat (the players' channel)")
    text: str | None = Field(
        None, max_length=4 * MOST,
        description=f"at most {MOST} characters once trimmed; no control characters (line "
        "breaks and tabs are read as spaces); kept and answered as text, never as markup",
    )
    phrase: str | None = Field(
        None, max_length=32, description="a quick phrase's key: " + ", ".join(PHRASES)
    )


class Mute(RequestBody):
    """Mute the other player's messages for ``seat``, or hear them again."""

    seat: Seat = Field(description="the seat that mutes")
    muted: StrictBool = Field(description="true mutes the other player; false hears them again")


class Report(RequestBody):
    """Report a message to whoever runs the site."""

    seat: Seat = Field(description="the seat that reports it")


class ChatMessage(BaseModel):
    """A message of the chat."""

    id: int = Field(description="rises with each message of the site: the order to show")
    channel: Literal["players", "spectators"]
    seat: int | None = Field(description="the player's seat; null for a spectator")
    name: str = Field(description="the writer's name: the player's, or the account's")
    text: str = Field(description="the text as written (show it as text); empty for a phrase")
    phrase: str | None = Field(description="a quick phrase's key, or null")
    at: str = Field(description="when it was written (ISO 8601, UTC)",
                    json_schema_extra={"format": "date-time"})


class ChatListing(BaseModel):
    """The chat's latest messages, the oldest first, as the asker may see them."""

    messages: list[ChatMessage]
    seat: int | None = Field(description="the seat of the token sent, or null (a spectator)")
    muted: bool = Field(description="whether that seat has muted the other player, whose "
                        "messages are then left out")


class Muted(BaseModel):
    """A seat's mute of the other player, as kept now."""

    seat: int
    muted: bool


class Reported(BaseModel):
    """A report kept."""

    message: int = Field(description="the message reported")
    new: bool = Field(description="false where this seat had reported it already")


MessageId = Annotated[int, Path(ge=1, le=2**62, description="the message's id")]


async def get_chats(request: Request) -> Chats:
    """The app's chats."""
    chats: Chats = request.app.state.chats
    return chats


ChatsDep = Annotated[Chats, Depends(get_chats)]


async def chatting(live: LiveToAct) -> LiveMatch:
    """The match named in the path (404), where it has a chat: 403 else."""
    if not live.seating.online:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "Chat is for online matches between people: this match is against the computer "
            "or at one screen.",
        )
    return live


Chatting = Annotated[LiveMatch, Depends(chatting)]


@router.post(
    "/{match_id}/chat", response_model=ChatMessage, status_code=status.HTTP_201_CREATED,
    responses=_REFUSALS,
)
async def write(
    body: WriteChat, request: Request, live: Chatting, chats: ChatsDep, account: Viewer
) -> ChatMessage:
    """Write a message: a player in the players' channel, with their seat token
    (``Authorization: Bearer <token>``) and ``seat``; a signed-in spectator in the
    spectators' channel. The message is kept with the match and pushed to every page
    watching it (``{"chat": message}`` on its WebSocket)."""
    token = bearer_token(request)
    if body.channel == PLAYERS:
        held = await held_by(live, request, token)
        if body.seat is None:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                                "A player's message names their seat.")
        check_holds(held, body.seat)
        writer = Writer(body.seat, live.match.players[body.seat],
                        None if account is None else account.id)
    else:
        if token is not None and live.seating.holds(token) is not None:
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                "The players write in the players' channel; this one is the spectators'.",
            )
        if account is None:
            raise HTTPException(
                status.HTTP_401_UNAUTHORIZED,
                "Spectators write in the chat once signed in; anyone may read it.",
            )
        if body.seat is not None:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT,
                                "A spectator's message names no seat.")
        writer = Writer(None, account.name, account.id)
    text, phrase = _said(body)
    limits: RateLimits = request.app.state.limits
    # Each seat of each match is a writer, and each spectator's account.
    sender = f"user:{writer.user_id}" if writer.seat is None else f"seat:{live.id}:{writer.seat}"
    await limits.check("chat", sender)
    return _shown(await chats.write(live.id, writer, text, phrase))


def _shown(message: Message) -> ChatMessage:
    """A message as the API answers it."""
    return ChatMessage(**message.to_dict())


def _said(body: WriteChat) -> tuple[str, str | None]:
    """The text and the phrase of ``body``: one of them, checked (422 with the sentence)."""
    try:
        if (body.text is None) == (body.phrase is None):
            raise ChatTextError("A chat message is a text or a quick phrase: one of the two.")
        if body.phrase is not None:
            return "", check_phrase(body.phrase)
        assert body.text is not None
        return clean(body.text), None
    except ChatTextError as refused:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, str(refused)) from None


@router.get("/{match_id}/chat", response_model=ChatListing, responses=_REFUSALS)
async def read(
    request: Request,
    response: Response,
    live: Chatting,
    chats: ChatsDep,
    after: Annotated[int, Query(ge=0, le=2**62, description="only the messages after this "
                                "id (a page that reconnects names the last it has)")] = 0,
) -> ChatListing:
    """The chat's latest messages (at most 200), the oldest first, both channels. With a
    player's seat token, the other player's messages are left out where that seat has muted
    them (``muted``)."""
    token = bearer_token(request)
    seat = None
    if token is not None:
        seat = min(await held_by(live, request, token))
    messages, muted = await chats.listing(live.id, after, seat)
    response.headers["Cache-Control"] = "no-store"
    return ChatListing(
        messages=[_shown(message) for message in messages],
        seat=seat, muted=muted,
    )


@router.put("/{match_id}/chat/mute", response_model=Muted, responses=_REFUSALS)
async def mute(body: Mute, request: Request, live: Chatting, chats: ChatsDep) -> Muted:
    """Mute the other player's messages for ``seat`` (its token as ``Authorization: Bearer
    <token>``), or hear them again: kept on the server, so the mute holds after a reload and
    on every page of that seat."""
    check_holds(await held_by(live, request, bearer_token(request)), body.seat)
    await chats.mute(live.id, body.seat, body.muted)
    return Muted(seat=body.seat, muted=body.muted)


@router.post(
    "/{match_id}/chat/{message_id}/report", response_model=Reported,
    status_code=status.HTTP_201_CREATED,
    responses={**_REFUSALS, 200: {"description": "reported by this seat already"},
               409: {"description": "the seat's own message"}},
)
async def report(
    body: Report,
    request: Request,
    response: Response,
    message_id: MessageId,
    live: Chatting,
    chats: ChatsDep,
) -> Reported:
    """Report a message to whoever runs the site, for ``seat`` (its token as ``Authorization:
    Bearer <token>``): a copy of it is kept (its text, its writer, the match, its time, who
    reported it), which ``backgammon reports`` lists."""
    check_holds(await held_by(live, request, bearer_token(request)), body.seat)
    try:
        new = await chats.report(live.id, message_id, body.seat)
    except UnknownMessageError:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, "This match's chat has no message with that id."
        ) from None
    except OwnMessageError:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "A player reports the other side's messages, not their own."
        ) from None
    if not new:
        response.status_code = status.HTTP_200_OK
    return Reported(message=message_id, new=new)
