"""How the app refuses a request: a malformed one (422) and every HTTPException, each with
its detail one sentence, and never an echo of what was sent (:func:`_unechoed`). The app
installs both as its exception handlers (:mod:`..app`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from fastapi import Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.responses import Response


async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """A malformed request: 422 with one sentence saying what is wrong, and each problem's
    place, kind and message. What was sent is never echoed (:func:`_unechoed`): it may be
    a script, something JSON cannot hold (NaN, a lone surrogate) or megabytes long."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {
            "loc": _place(error),
            "type": _printable(error.get("type", "")),
            "msg": _unechoed(str(_printable(error.get("msg", ""), 300)), _sent(error)),
        }
        for error in exc.errors()
    ]
    return JSONResponse(status_code=422, content={"detail": _sentence(errors), "errors": errors})


def _place(error: Any) -> list[str | int]:
    """An error's place, each name in it as the schemas spell names (an unknown field's too:
    a word of at most 40 letters, digits, ``_`` or ``-`` can carry no markup), any other
    left out.

    >>> _place({"loc": ("body", "names", 0), "type": "string_type"})
    ['body', 'names', 0]
    >>> _place({"loc": ("body", "<b>x</b>"), "type": "extra_forbidden"})
    ['body', '…']
    """
    return [
        part if isinstance(part, int) and not isinstance(part, bool)
        else str(part) if _NAME.fullmatch(str(part)) else "…"
        for part in error.get("loc", ())
    ]


def _sent(error: Any) -> set[str]:
    """What a validation error's message may quote of what was sent: its input, and the tag
    of a union's, where they are text or numbers."""
    found = (error.get("input"), (error.get("ctx") or {}).get("tag"))
    return {str(each) for each in found if isinstance(each, str | int | float)}


#: A field's name as the API's schemas spell them (a header's with hyphens).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}")
#: A quoted piece of a message (Python's repr of a string, pydantic's quoting of an input): an
#: opening quote not after a letter (an apostrophe is), the closing one not before a letter.
_QUOTED = re.compile(r"""(?<![A-Za-z])'[^'\n]*'(?![A-Za-z])|(?<![A-Za-z])"[^"\n]*"(?![A-Za-z])""")


def _unechoed(text: str, sent: set[str] | None = None) -> str:
    """``text`` with the quoted pieces that are in ``sent`` left out (None: every quoted
    piece): the messages of the rules and of pydantic quote what they were given (an ID, a
    move, a line of a file), which a refusal must not send back (a script reflected, a
    megabyte answered to a megabyte). Where what was sent is not known, every quoted piece
    goes, the examples of the server's own sentences too.

    >>> _unechoed("There is no match with the id '<script>'.")
    'There is no match with the id ….'
    >>> _unechoed("Line 4: Cannot read '31: 8/4': a player's entry reads as '52: 13/8'.")
    "Line 4: Cannot read …: a player's entry reads as …."
    >>> _unechoed("Input tag 'fly' found using 'action'", {"fly"})
    "Input tag … found using 'action'"
    """

    def left_out(quoted: re.Match[str]) -> str:
        return "…" if sent is None or quoted.group()[1:-1] in sent else quoted.group()

    return _QUOTED.sub(left_out, text)


#: Starlette's and FastAPI's own refusals, said as sentences.
_SENTENCES = {
    400: "The request could not be read: its body is not JSON text.",
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
}


async def refused(request: Request, exc: Exception) -> Response:
    """A refusal, with its detail a sentence even where the framework wrote a phrase."""
    assert isinstance(exc, HTTPException)
    detail = exc.detail
    if not (isinstance(detail, str) and detail.endswith(".")):
        detail = _SENTENCES.get(exc.status_code, f"The request is refused ({detail}).")
    detail = _unechoed(detail)
    changed = HTTPException(exc.status_code, detail, exc.headers)
    return await http_exception_handler(request, changed)


def _printable(part: object, longest: int = 40) -> str | int:
    """A piece of an error as JSON can hold it: short, and without lone surrogates.

    >>> _printable(3), _printable("name"), _printable("\\ud800x"), len(_printable("n" * 99))
    (3, 'name', '?x', 41)
    """
    if isinstance(part, int) and not isinstance(part, bool):
        return part
    text = str(part).encode("utf-8", "replace").decode("utf-8")
    return text if len(text) <= longest else text[:longest] + "…"


def _sentence(errors: Sequence[Any]) -> str:
    if not errors:
        return "The request is malformed."
    first = errors[0]
    where = tuple(first.get("loc", ()))
    if first.get("type") == "json_invalid":
        return "The request's body is not valid JSON."
    if where == ("body",) and first.get("type") == "model_attributes_type":
        return "The request's body is not a JSON object."
    place = " → ".join(str(part) for part in where)
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"The request is malformed at {place}: {first.get('msg', 'invalid')}{more}."
