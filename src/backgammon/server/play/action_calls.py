"""What a request for an action says: the match (its path), the action (its body), the side
and the record asked for (its query), the seat token, the idempotency key and the page's name
(its headers), read and checked in one step.

The action is the request the server answers most, and FastAPI, reading each parameter of a
route on its own (a dependency, a header, a query value: each solved and checked apart), spends
more on that than on the action. The route takes the bare request and :func:`read_action`
checks everything at once with two pydantic validators, refusing as FastAPI would: a 422 whose
errors name each problem's place (``body``, ``query``, ``header``, ``path``). Its parameters
and body are documented from the same models (:data:`ACTION_DOCS`, :data:`ACTION_SCHEMAS`).
"""

from __future__ import annotations

import contextlib
import json
from typing import Any, Literal, NamedTuple
from urllib.parse import parse_qsl

from fastapi import HTTPException, Request, status
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from .action_schemas import ActionRequest
from .deps import MATCH_ID_LENGTH, RECORD_SINCE, bearer_token
from .idempotency import KEY_LENGTH
from .watchers import WATCHER_NAME

_Where = Literal["path", "query", "header"]


def _in(where: _Where) -> dict[str, Any]:
    """A field's place in the request, as its documentation says (``in``)."""
    return {"in": where}


class ActionOptions(BaseModel):
    """What an action's request says besides the action itself (its fields' aliases are the
    names of the query's values and of the headers)."""

    match_id: str = Field(
        min_length=1, max_length=MATCH_ID_LENGTH, description="the match's id",
        json_schema_extra=_in("path"),
    )
    view: int | None = Field(
        None, ge=0, le=1, description="the board's side (default: the actor's)",
        json_schema_extra=_in("query"),
    )
    record_since: int | None = Field(
        None, ge=0, description=RECORD_SINCE, json_schema_extra=_in("query")
    )
    key: str | None = Field(
        None,
        alias="Idempotency-Key",
        min_length=1,
        max_length=KEY_LENGTH,
        description="any string unique to this action (a UUID): the action sent again with "
        "the same key is answered as the first time and applies nothing again",
        json_schema_extra=_in("header"),
    )
    watcher: str | None = Field(
        None,
        alias="Watcher-Id",
        pattern=WATCHER_NAME,
        description="the name the page gave its WebSocket of updates (its ``watcher``): the "
        "state this action makes, which the answer carries, is not pushed to it",
        json_schema_extra=_in("header"),
    )


class ActionCall(NamedTuple):
    """An action's request, read and checked: the action, what else it says, and the seat
    token it carries (None: none)."""

    action: ActionRequest
    options: ActionOptions
    token: str | None


_BODY: TypeAdapter[ActionRequest] = TypeAdapter(ActionRequest)
_OPTIONS = ActionOptions.model_json_schema(by_alias=True)
#: Where each of the options is, by its name in the request.
_WHERE: dict[str, _Where] = {
    name: field["in"] for name, field in _OPTIONS["properties"].items()
}


async def read_action(request: Request) -> ActionCall:
    """The action ``request`` asks for, with its options and token; RequestValidationError
    (answered 422) naming every problem, as FastAPI names them, when something is malformed.
    Its body is read as JSON unless it says it is something else (then it is refused)."""
    body = await request.body()
    problems: list[dict[str, Any]] = []
    options = _options(request, problems)
    action = _action(body, request.headers.get("content-type"), problems)
    if problems or options is None or action is None:
        raise RequestValidationError(problems)
    return ActionCall(action, options, bearer_token(request))


def _options(request: Request, problems: list[dict[str, Any]]) -> ActionOptions | None:
    """The request's options, or None with their problems added to ``problems``."""
    # The query read as Starlette reads it (the last value of a name counts), without its
    # multi-valued dictionary.
    query = dict(parse_qsl(request.scope["query_string"].decode("latin-1"), True))
    headers = request.headers
    values = {"match_id": request.path_params["match_id"]}
    for name, where in _WHERE.items():
        if where != "path":
            value = (query if where == "query" else headers).get(name)
            if value is not None:
                values[name] = value
    try:
        return ActionOptions.model_validate(values)
    except ValidationError as exc:
        problems += [_placed(error, _WHERE[str(error["loc"][0])]) for error in _errors(exc)]
        return None


def _action(body: bytes, kind: str | None, problems: list[dict[str, Any]]) -> Any:
    """The action in ``body`` (of Content-Type ``kind``), or None with its problems added to
    ``problems``: checked as it is parsed, and where that fails, parsed and checked again
    apart, as FastAPI does, for its problems to be named as FastAPI names them."""
    if not body:
        problems.append(
            {"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}
        )
        return None
    parsed: Any = body  # refused, unless it is JSON
    if kind is None or _is_json(kind):
        with contextlib.suppress(ValidationError):
            return _BODY.validate_json(body)
        try:
            parsed = json.loads(body, parse_int=_bounded_int)
        except (_TooLarge, RecursionError):
            raise HTTPException(
                422,
                f"The request's body holds a number of more than {MOST_DIGITS} digits or is "
                "nested too deeply for an action.",
            ) from None
        except json.JSONDecodeError as exc:
            raise RequestValidationError(
                [{"type": "json_invalid", "loc": ("body", exc.pos), "msg": "JSON decode error",
                  "input": {}, "ctx": {"error": exc.msg}}]
            ) from None
        except UnicodeDecodeError:
            raise HTTPException(
                status.HTTP_400_BAD_REQUEST,
                "The request could not be read: its body is not JSON text.",
            ) from None
    try:
        return _BODY.validate_python(parsed)
    except ValidationError as exc:
        problems += [_placed(error, "body") for error in _errors(exc)]
        return None


#: The most digits of an integer in an action (a version, a seat, a point: a few digits).
MOST_DIGITS = 20


class _TooLarge(ValueError):
    """A number in a body longer than any an action holds."""


def _bounded_int(text: str) -> int:
    """An integer of the body, refused before it is converted when it is longer than any an
    action holds (Python's conversion of thousands of digits is slow, and refused beyond
    4,300).

    >>> _bounded_int("-12")
    -12
    """
    if len(text) > MOST_DIGITS + 1:
        raise _TooLarge
    return int(text)


def _is_json(kind: str) -> bool:
    """Whether a Content-Type names JSON (``application/json``, ``application/...+json``).

    >>> [_is_json(kind) for kind in ("application/json; charset=utf-8", "text/plain")]
    [True, False]
    """
    media = kind.partition(";")[0].strip().lower()
    main, _, sub = media.partition("/")
    return main == "application" and (sub == "json" or sub.endswith("+json"))


def _errors(exc: ValidationError) -> list[dict[str, Any]]:
    return exc.errors(include_url=False)  # type: ignore[return-value]


def _placed(error: dict[str, Any], where: str) -> dict[str, Any]:
    """``error`` with its place in the request first in its ``loc``."""
    return {**error, "loc": (where, *error["loc"])}


#: What OpenAPI says of a parameter beside its schema.
_PLACED = ("in", "description")
#: The route's parameters and body as OpenAPI documents them (FastAPI's ``openapi_extra``):
#: the route reads them itself, so FastAPI does not see them.
ACTION_DOCS: dict[str, Any] = {
    "parameters": [
        {
            "name": name,
            "in": field["in"],
            "required": name in _OPTIONS["required"],
            "description": field["description"],
            "schema": {key: value for key, value in field.items() if key not in _PLACED},
        }
        for name, field in _OPTIONS["properties"].items()
    ],
    "requestBody": {
        "required": True,
        "content": {"application/json": {"schema": _BODY.json_schema(
            ref_template="#/components/schemas/{model}"
        )}},
    },
    "security": [{"seat token": []}],
}
#: The schemas of the body's kinds of action, for the OpenAPI document's components.
ACTION_SCHEMAS: dict[str, Any] = ACTION_DOCS["requestBody"]["content"]["application/json"][
    "schema"
].pop("$defs")
