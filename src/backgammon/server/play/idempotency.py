"""Idempotency keys: an action sent again is answered as it was the first time.

A client that sends an action and gets no answer (the connection dropped) cannot know whether
it was applied. It sends it again with the same ``Idempotency-Key`` header; the server keeps,
for each seat of each match, its last action sent with a key: the key, a digest of what was
asked, and the version the action made, written with the action itself, in one transaction
(on PostgreSQL, one statement), so that the key is kept exactly when the action is. A resend
is then answered with the state of that version, made again from the record, and applies
nothing, whichever process it reaches; the same key with another action is refused (422).

The version check already keeps a resend from applying twice (it names a version the match
has left), so the kept key is looked up only where an action would otherwise be refused as
stale, or its save lost to another process: the plain path costs a small write more, no
read (the answer itself is not kept: written with every action, it cost more than the
action's own write, and a resend is rare).
Only a seat's last keyed action is kept: a client waits for an answer before its next action,
so it never resends an older one (one that did would be refused as stale, 409, and apply
nothing).
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import NamedTuple, cast

from fastapi import HTTPException, status
from sqlalchemy import Engine, Table, bindparam, select
from starlette.concurrency import run_in_threadpool

from ..db import ActionKeyRow, autocommitting

#: The longest key taken (a UUID is 36 characters).
KEY_LENGTH = 64

_KEYS = cast(Table, ActionKeyRow.__table__)
_SEAT = (_KEYS.c.match_id == bindparam("the_match")) & (_KEYS.c.seat == bindparam("the_seat"))
#: The statement, made once (see ``saves.SAVE``).
_FIND = select(_KEYS.c.key, _KEYS.c.digest, _KEYS.c.version).where(_SEAT)

#: The keys this process has kept lately, by match and seat (with their digests): enough to
#: refuse at once a key reused for another action on the version now in play.
_RECENT = 10_000

REUSED = (
    "This Idempotency-Key was sent before with another action (or another view) of this "
    "seat; send a new key with a new action."
)


class KeptKey(NamedTuple):
    """An action's key, to be kept by the action's own write (:meth:`.store.MatchStore.save`
    writes it, with the match's id and the version the action made; :meth:`ActionKeys.note`
    it once saved): the seat whose last keyed action it is, and the digest of what it asked."""

    seat: int
    key: str
    digest: str


def digest(action_json: str, view: int | None) -> str:
    """What identifies a request: its action (as JSON text) and the side asked for.

    >>> digest('{"action":"roll"}', None) == digest('{"action":"roll"}', None)
    True
    >>> digest('{"action":"roll"}', None) == digest('{"action":"roll"}', 0)
    False
    """
    return hashlib.sha256(f"{view}\n{action_json}".encode()).hexdigest()


class ActionKeys:
    """The kept keys, in the database ``engine`` reaches; one per app."""

    def __init__(self, engine: Engine) -> None:
        self.engine = autocommitting(engine)  # it only reads: its writes go with the action's
        self._recent: OrderedDict[tuple[str, int], tuple[str, str]] = OrderedDict()

    def check(self, match_id: str, seat: int, key: str, asked: str) -> None:
        """422 if this process kept ``key`` for another action of the seat."""
        kept = self._recent.get((match_id, seat))
        if kept is not None and kept[0] == key and kept[1] != asked:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, REUSED)

    async def version(self, match_id: str, seat: int, key: str, asked: str) -> int | None:
        """The version the action kept with ``key`` made, if it is the seat's last keyed
        action (None if not); 422 if the key was kept with another action."""
        found = await run_in_threadpool(self._find, match_id, seat)
        if found is None or found[0] != key:
            return None
        if found[1] != asked:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_CONTENT, REUSED)
        self.note(match_id, seat, key, asked)
        return found[2]

    def _find(self, match_id: str, seat: int) -> tuple[str, str, int] | None:
        with self.engine.connect() as connection:
            row = connection.execute(_FIND, {"the_match": match_id, "the_seat": seat}).first()
        return None if row is None else (row[0], row[1], row[2])

    def note(self, match_id: str, seat: int, key: str, asked: str) -> None:
        """Remember that ``key`` is kept for the seat's action ``asked`` (in the event loop's
        thread: the record of recent keys is not shared with the workers)."""
        self._recent[(match_id, seat)] = (key, asked)
        self._recent.move_to_end((match_id, seat))
        while len(self._recent) > _RECENT:
            self._recent.popitem(last=False)
