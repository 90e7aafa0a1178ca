"""What every answer says to the browser about itself, and what the access log leaves out.

:class:`SecurityHeaders` adds to every HTTP answer a Content-Security-Policy (scripts, styles
and connections from this site alone, no framing, no plugins), X-Frame-Options for older
browsers, X-Content-Type-Options and a Referrer-Policy that sends no address on (an invite
link must not travel to another site in a Referer). FastAPI's own API pages (``/docs``,
``/redoc``) load their scripts from a CDN and start them inline, so they get a policy that
allows just that.

:class:`MaskedAccessLog` is a filter for uvicorn's access log: the paths that carry a
secret (an invite in ``/join/...``; a token, an invite or a session in a query) are written
with the secret masked, so that whoever reads the logs cannot take a seat.

>>> masked_path("/join/Ab3-xyz")
'/join/…'
>>> masked_path("/api/matches/m1/updates?view=0&token=s3cret")
'/api/matches/m1/updates?view=0&token=…'
>>> masked_path("/api/lobby")
'/api/lobby'
"""

from __future__ import annotations

import logging
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The policy of the pages: everything from this site, nothing framed, no plugins.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
#: The policy of FastAPI's API pages, whose Swagger UI and ReDoc come from jsDelivr.
API_PAGES_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
    "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly; "
    "font-src 'self' https://fonts.gstatic.com; worker-src blob:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'"
)
API_PAGES = ("/docs", "/redoc")

_COMMON = [
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware: the headers of :data:`POLICY` (or :data:`API_PAGES_POLICY`) on every
    HTTP answer that has not set its own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        policy = API_PAGES_POLICY if path.startswith(API_PAGES) else POLICY
        added = [(b"content-security-policy", policy.encode()), *_COMMON]

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in added if name not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


_INVITE = re.compile(r"^(/join/)[^/?]+")
_SECRET_QUERY = re.compile(r"([?&](?:token|invite|session|key)=)[^&]*", re.IGNORECASE)


def masked_path(path: str) -> str:
    """``path`` (with its query) with the secrets it may carry masked."""
    return _SECRET_QUERY.sub(r"\1…", _INVITE.sub(r"\1…", path))


class MaskedAccessLog(logging.Filter):
    """A filter of uvicorn's access log (its record's arguments are the client, the method,
    the path with its query, the HTTP version and the status) that masks the path's
    secrets."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], masked_path(args[2]), *args[3:])
        return True


def mask_access_log() -> None:
    """Put :class:`MaskedAccessLog` on uvicorn's access log (once)."""
    access = logging.getLogger("uvicorn.access")
    if not any(isinstance(each, MaskedAccessLog) for each in access.filters):
        access.addFilter(MaskedAccessLog())
