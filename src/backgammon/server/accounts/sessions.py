"""Signed-in sessions, their cookies, and the CSRF guard on every request made with them.

A sign-in opens a session: a random secret (``secrets``, 256 bits) in the ``bg_session``
cookie (HttpOnly, SameSite=Lax, Secure when the page came over https), and only its SHA-256 in
the ``sessions`` table, so a copy of the database holds no usable session. A session lasts
``BACKGAMMON_SESSION_DAYS``; sign-out deletes it.

CSRF: the double-submit cookie pattern, bound to the session (OWASP's "signed double-submit
cookie", with the session's own secret as the key, so that no server-wide key has to be
shared between processes). Beside the session cookie the server sets ``bg_csrf``, readable by
the page's scripts, holding :func:`csrf_token` of the session's secret; every state-changing
request (any method but GET, HEAD and OPTIONS) that carries the session cookie must send the
same value in the ``X-CSRF-Token`` header, or :class:`CsrfGuard` answers 403 before the app
sees it. Another site can make a browser send the cookie (where SameSite does not stop it)
but can neither read ``bg_csrf`` nor derive it, since the session's secret never leaves the
HttpOnly cookie. A request without the session cookie acts as a guest and needs no token.
This is done here in one small module rather than with ``starlette-csrf``, whose last
release (2023) predates the Starlette this app runs on, and whose token is signed with a
server-wide key instead of being tied to the session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Annotated

from fastapi import Depends, HTTPException, Request, Response, status
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Receive, Scope, Send

from ..db import SessionRow, UserRow, now, utc
from ..play.seats import digest_of
from .users import Account, guest_name, is_guest_name

SESSION_COOKIE = "bg_session"
CSRF_COOKIE = "bg_csrf"
#: A guest's name (:func:`backgammon.server.accounts.users.guest_name`), kept by their browser.
GUEST_COOKIE = "bg_guest"
CSRF_HEADER = "X-CSRF-Token"
#: The methods that change nothing, and so need no token.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_SESSION = SESSION_COOKIE.encode()


def csrf_token(secret: str) -> str:
    """The CSRF token of the session whose cookie holds ``secret``: a hash of it, so the token
    can be shown to the page's scripts without showing the secret.

    >>> token = csrf_token("s3cret")
    >>> len(token), token == csrf_token("s3cret"), token == csrf_token("s3cres")
    (43, True, False)
    """
    digest = hashlib.sha256(b"backgammon csrf\0" + secret.encode()).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


class Sessions:
    """The sessions of one database (each method reads or writes it: call in a thread)."""

    def __init__(self, engine: Engine, days: int) -> None:
        self.engine = engine
        self.lifetime = timedelta(days=days)

    def open(self, account: Account) -> str:
        """A new session of ``account``: the secret its cookie holds. The sessions that have
        expired are cleared on the way (sign-ins are few: their rate is limited)."""
        secret = secrets.token_urlsafe(32)
        stamp = now()
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.expires_at <= stamp))
            session.add(
                SessionRow(
                    id=digest_of(secret),
                    user_id=account.id,
                    created_at=stamp,
                    expires_at=stamp + self.lifetime,
                )
            )
        return secret

    def account(self, secret: str) -> Account | None:
        """The account whose session the cookie ``secret`` is, or None (no such session, or
        one that has expired)."""
        with Session(self.engine) as session:
            found = session.execute(
                select(UserRow, SessionRow.expires_at)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(SessionRow.id == digest_of(secret))
            ).one_or_none()
        if found is None:
            return None
        user, expires = found
        if utc(expires) <= now():
            return None
        return Account.of(user)

    def close(self, secret: str) -> None:
        """End the session of ``secret`` (nothing if there is none)."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(SessionRow).where(SessionRow.id == digest_of(secret)))


def set_cookies(request: Request, response: Response, secret: str, days: int) -> None:
    """Give the browser the session's cookie and its CSRF token's."""
    secure = request.url.scheme == "https"
    age = days * 86_400
    response.set_cookie(
        SESSION_COOKIE, secret, max_age=age, httponly=True, samesite="lax", secure=secure
    )
    # Not HttpOnly: the page's scripts read it to send it back in the header.
    response.set_cookie(
        CSRF_COOKIE, csrf_token(secret), max_age=age, httponly=False, samesite="lax",
        secure=secure,
    )


def clear_cookies(response: Response) -> None:
    """Take both cookies back (sign-out, or a session that has ended)."""
    response.delete_cookie(SESSION_COOKIE, httponly=True, samesite="lax")
    response.delete_cookie(CSRF_COOKIE, samesite="lax")


class CsrfGuard:
    """ASGI middleware: a state-changing request that carries the session cookie is let
    through only with that session's CSRF token in the ``X-CSRF-Token`` header; 403 else."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and scope["method"] not in SAFE_METHODS
            # Most requests carry no sign-in (a seat token, a guest): they are let through
            # without their cookies read.
            and any(name == b"cookie" and _SESSION in value for name, value in scope["headers"])
        ):
            request = Request(scope)
            secret = request.cookies.get(SESSION_COOKIE)
            if secret is not None:
                sent = request.headers.get(CSRF_HEADER, "")
                if not hmac.compare_digest(sent.encode(), csrf_token(secret).encode()):
                    refusal = JSONResponse(
                        {
                            "detail": "This request carries your sign-in but not its CSRF "
                            f"token (the {CSRF_HEADER} header, from the {CSRF_COOKIE} "
                            "cookie), so it may come from another site: it is refused."
                        },
                        status_code=status.HTTP_403_FORBIDDEN,
                    )
                    await refusal(scope, receive, send)
                    return
        await self.app(scope, receive, send)


def get_sessions(request: Request) -> Sessions:
    """The app's sessions."""
    sessions: Sessions = request.app.state.sessions
    return sessions


async def current_account(request: Request) -> Account | None:
    """The account signed in with this request's cookie, or None for a guest."""
    secret = request.cookies.get(SESSION_COOKIE)
    if not secret:
        return None
    return await run_in_threadpool(get_sessions(request).account, secret)


async def signed_in(
    account: Annotated[Account | None, Depends(current_account)],
) -> Account:
    """The account signed in, or 401."""
    if account is None:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, "Sign in first: this needs an account."
        )
    return account


def player_name(request: Request, account: Account | None) -> str:
    """The name to seat this request's player under: their account's, else the guest name
    their browser keeps (``bg_guest``, given by ``GET /api/session``), else a new one."""
    if account is not None:
        return account.name
    kept = request.cookies.get(GUEST_COOKIE, "")
    return kept if is_guest_name(kept) else guest_name()


def keep_guest_name(request: Request, response: Response) -> str:
    """The guest's name, given to their browser to keep when it has none."""
    name = player_name(request, None)
    if request.cookies.get(GUEST_COOKIE) != name:
        response.set_cookie(
            GUEST_COOKIE, name, max_age=365 * 86_400, httponly=True, samesite="lax",
            secure=request.url.scheme == "https",
        )
    return name


Viewer = Annotated[Account | None, Depends(current_account)]
SignedIn = Annotated[Account, Depends(signed_in)]
