"""An action's save: the statements that write a match's row in place of the version the
action was made on (and keep its idempotency key), made once, and the values they take.
:class:`.store.MatchStore` sends them; a save that finds another version raises
:class:`MatchChangedError`.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import (
    CursorResult,
    Executable,
    Integer,
    Select,
    String,
    Table,
    bindparam,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite

from ..match import Match
from .db import ActionKeyRow, JSONText, MatchRow, now
from .keys import KeptKey


class MatchChangedError(RuntimeError):
    """The database holds another version of the match than the one an action was made on
    (another copy of it wrote first): the action is not kept."""



_MATCHES = cast(Table, MatchRow.__table__)
_KEYS = cast(Table, ActionKeyRow.__table__)
#: An action's write, made once: a statement built for each save, with the record's values in
#: it, cost more than the write itself.
SAVE = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("match_id"), _MATCHES.c.version == bindparam("before"))
    .values(
        record=bindparam("new_record", type_=_MATCHES.c.record.type),
        version=bindparam("new_version"),
        updated_at=bindparam("stamp", type_=_MATCHES.c.updated_at.type),
    )
)


def keeping(dialect: str) -> tuple[Executable, Executable | None]:
    """The statements that keep an action's key (:class:`.keys.KeptKey`) on the ``dialect``'s
    database: the key's write, made after the save in its transaction (the seat's row added
    or replaced), and, on PostgreSQL, the save and the key's write as one statement, its own
    transaction: one round trip instead of four (BEGIN, the save, the key, COMMIT), which
    returns the key's row exactly when the save found its version. ValueError for a
    database other than these two."""
    if dialect not in ("postgresql", "sqlite"):
        raise ValueError(f"The server keeps its matches in SQLite or PostgreSQL, not {dialect}.")
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    names = ["match_id", "seat", "key", "digest", "version"]

    def upsert(source: Select[Any]) -> postgresql.Insert | sqlite.Insert:
        keep = insert(_KEYS).from_select(names, source)
        return keep.on_conflict_do_update(
            index_elements=[_KEYS.c.match_id, _KEYS.c.seat],
            set_={name: keep.excluded[name] for name in names[2:]},
        )

    def key_of(match: Any) -> Select[Any]:
        return select(
            match,
            bindparam("the_seat", type_=Integer()),
            bindparam("the_key", type_=String()),
            bindparam("the_digest", type_=String()),
            bindparam("new_version", type_=Integer()),
        )

    after = upsert(key_of(bindparam("match_id", type_=String())))
    if dialect != "postgresql":
        return after, None
    saved = SAVE.returning(_MATCHES.c.id).cte("saved")
    # The row kept is returned: the count of an insert's rows is not told on every driver.
    return after, upsert(key_of(saved.c.id).select_from(saved)).returning(_KEYS.c.seat)


def save_values(
    match_id: str, match: Match, version: int, before: int, key: KeptKey | None
) -> dict[str, Any]:
    """The values of a save's statements (:data:`SAVE`, :func:`keeping`)."""
    # The record's text, made mostly of its events' texts, each made once.
    values = {"match_id": match_id, "before": before,
              "new_record": JSONText(match.to_json(secrets=True)),
              "new_version": version, "stamp": now()}
    if key is not None:
        values.update(the_seat=key.seat, the_key=key.key, the_digest=key.digest)
    return values


def check_saved(result: CursorResult[Any], match_id: str, key: KeptKey | None) -> None:
    """MatchChangedError unless the save alone (:func:`keeping`) found its version: the
    match's row written, or with a key, the key's row returned."""
    if (result.rowcount if key is None else len(result.all())) != 1:
        raise MatchChangedError(match_id)
