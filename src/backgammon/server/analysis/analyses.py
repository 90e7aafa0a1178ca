"""Analyses of the server's matches and of uploaded ``.mat`` files, thought out in the
background and kept in the database.

An analysis is asked for by a key (a match's id, or the id an upload was given) and the
version of the match it is of (an upload's never changes: 0). What the key's row holds
decides the answer: the report (:func:`backgammon.analysis.report.to_json`) once done at that
version; the progress while running; otherwise (none yet, a match that has changed since, or
one cut short by a restart) a new analysis starts. The bot thinks in a bounded pool of
threads (``workers`` of them, at most ``queue`` analyses waiting: 503 beyond), off the event
loop, and no client (an address) has more than ``per_client`` analyses under way or waiting
(429 beyond), so that one client cannot fill the pool; its progress is counted in memory,
and the report is written once, whole, so the database never holds a partial analysis as
complete.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections import Counter
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException, status
from sqlalchemy import Engine, update
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from ...analysis import Analyser
from ...analysis.board_games import analyse_board_record, board_to_json
from ...analysis.report import to_json
from ...bot.games import MOST_PLIES as BOARD_PLIES
from ...dice import SecureDice
from ...errors import BackgammonError
from ...game.match import BoardMatch, Match
from ..db import AnalysisRow, now
from ..play.live import match_from_dict

log = logging.getLogger(__name__)

#: What is said when the bot fails for a reason of its own (a bug, not the match's fault).
FAILED = "The analysis failed on the server; try again later."

#: The ``kind`` of the report of a match of the other games (:func:`board_report`).
BOARD_REPORT = "board"


class _Cancelled(Exception):
    """The match changed while it was analysed: the analysis under way is dropped."""


@dataclass(eq=False)
class Job:
    """An analysis under way: its key, the version it is of, and how far it has got (the
    decisions judged, of ``total``; both 0 until the bot has counted them)."""

    key: str
    version: int
    client: str = ""
    done: int = 0
    total: int = 0
    cancelled: bool = False

    def progress(self, done: int, total: int) -> None:
        """Called by the analyser, in its thread, after each decision."""
        if self.cancelled:
            raise _Cancelled
        self.done, self.total = done, total

    def view(self) -> dict[str, Any]:
        """The progress as the API answers it."""
        return {"status": "running", "done": self.done, "total": self.total}


class AnalysisFailedError(BackgammonError):
    """The match could not be analysed; the message says why."""


class Analyses:
    """The analyses of one app: its pool of threads, the jobs under way, their rows."""

    def __init__(
        self, engine: Engine, plies: int, workers: int, queue: int, per_client: int = 2
    ) -> None:
        self.engine = engine
        self.plies = plies
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="analysis")
        self._room = workers + queue
        self._per_client = per_client
        self._jobs: dict[str, Job] = {}
        # The uploads admitted and still being read, by client: they hold their place.
        self._admitting: Counter[str] = Counter()
        # The tasks waiting for each job, kept so that they are not collected before they end.
        self._tasks: set[asyncio.Task[None]] = set()

    async def of(
        self, key: str, version: int, record: Callable[[], dict[str, Any]] | None,
        client: str = "",
    ) -> dict[str, Any]:
        """The analysis of ``key`` at ``version``: the report when done, else the progress of
        the one under way, started now if none is (of the match ``record()`` gives, as
        ``Match.to_dict()`` writes it, or of the row's own record when None).
        AnalysisFailedError when it failed; LookupError when there is no such row and no
        record to start from."""
        job = self._jobs.get(key)
        if job is not None and job.version == version:
            return job.view()
        row = await run_in_threadpool(self._load, key)
        if row is not None and row.version == version:
            if row.status == "done" and row.result is not None:
                return row.result
            if row.status == "failed":
                raise AnalysisFailedError(row.error or FAILED)
        if record is not None:
            self._admit(client, key)
            return await self._start(key, version, record(), False, client)
        if row is None or row.record is None:
            raise LookupError(key)
        self._admit(client, key)
        return await self._start(key, version, row.record, False, client)

    @asynccontextmanager
    async def admitted(self, client: str) -> AsyncIterator[None]:
        """Hold a place in the pool for ``client`` while its upload is read (503 when the
        pool is full, 429 when the client has its share): the check comes before the work
        of reading the file."""
        self._admit(client)
        self._admitting[client] += 1
        try:
            yield
        finally:
            self._admitting[client] -= 1
            if not self._admitting[client]:
                del self._admitting[client]

    async def upload(self, match: Match, client: str = "") -> tuple[str, dict[str, Any]]:
        """Start the analysis of an uploaded match (admitted: :meth:`admitted`); its new key
        and its progress."""
        key = secrets.token_urlsafe(12)
        return key, await self._start(key, 0, match.to_dict(), True, client)

    def _admit(self, client: str, key: str | None = None) -> None:
        """Refuse a new analysis when the pool is full (503) or ``client`` has its share under
        way (429); an analysis of ``key`` already under way makes way for it."""
        active = [job for job in self._jobs.values() if not job.cancelled and job.key != key]
        if len(active) + self._admitting.total() >= self._room:
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE,
                "The computer is busy with other analyses; ask again in a moment.",
                headers={"Retry-After": "5"},
            )
        mine = sum(job.client == client for job in active) + self._admitting[client]
        if mine >= self._per_client:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"You have {mine} analyses under way, as many as one client may; ask again "
                "once one is done.",
                headers={"Retry-After": "30"},
            )

    async def _start(
        self, key: str, version: int, record: dict[str, Any], keep: bool, client: str
    ) -> dict[str, Any]:
        """Start analysing ``record`` as ``key`` at ``version`` for ``client`` (admitted);
        ``keep``: the row keeps the record (an upload's), so that the analysis can start
        again after a restart."""
        stale = self._jobs.get(key)
        if stale is not None:
            stale.cancelled = True
        job = self._jobs[key] = Job(key, version, client)
        await run_in_threadpool(self._begin, key, version, record if keep else None)
        task = asyncio.get_running_loop().create_task(self._run(job, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job.view()

    async def _run(self, job: Job, record: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        result: dict[str, Any] | None = None
        error: str | None = None
        try:
            result = await loop.run_in_executor(
                self._executor, _analyse, record, self.plies, job
            )
        except _Cancelled:
            return
        except BackgammonError as exc:
            error = str(exc)
        except Exception:
            log.exception("the analysis of %s failed", job.key)
            error = FAILED
        finally:
            if job.cancelled and self._jobs.get(job.key) is job:
                del self._jobs[job.key]
        try:
            await run_in_threadpool(self._finish, job, result, error)
        except Exception:
            log.exception("the analysis of %s could not be saved", job.key)
        finally:
            if self._jobs.get(job.key) is job:
                del self._jobs[job.key]

    async def settle(self) -> None:
        """Stop the analyses under way (a shutdown): they start again when next asked for."""
        for job in self._jobs.values():
            job.cancelled = True
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._executor.shutdown(wait=True, cancel_futures=True)

    def finished(self, key: str, version: int) -> dict[str, Any] | None:
        """The report of ``key``'s analysis at ``version`` if it is done, else None (none
        started, under way, failed, or of another version): read from its row, in the
        caller's thread."""
        row = self._load(key)
        if row is None or row.version != version or row.status != "done":
            return None
        return row.result

    # The rows

    def _load(self, key: str) -> AnalysisRow | None:
        with Session(self.engine, expire_on_commit=False) as session:
            return session.get(AnalysisRow, key)

    def _begin(self, key: str, version: int, record: dict[str, Any] | None) -> None:
        stamp = now()
        with Session(self.engine) as session, session.begin():
            row = session.get(AnalysisRow, key)
            if row is None:
                row = AnalysisRow(id=key, created_at=stamp, record=record)
                session.add(row)
            row.updated_at, row.version, row.plies = stamp, version, self.plies
            row.status, row.result, row.error = "running", None, None

    def _finish(self, job: Job, result: dict[str, Any] | None, error: str | None) -> None:
        # Only over the row of the same version: a newer analysis may have taken it since.
        with Session(self.engine) as session, session.begin():
            session.execute(
                update(AnalysisRow)
                .where(AnalysisRow.id == job.key, AnalysisRow.version == job.version)
                .values(
                    status="done" if error is None else "failed",
                    result=result,
                    error=None if error is None else error[:500],
                    updated_at=now(),
                )
            )


def _analyse(record: dict[str, Any], plies: int, job: Job) -> dict[str, Any]:
    """The report of the match ``record`` at ``plies`` (in a worker thread): backgammon's,
    or, for a match of the other games, :func:`board_report`."""
    match = match_from_dict(record, SecureDice())
    if isinstance(match, BoardMatch):
        return board_report(match, plies, job.progress)
    # One process: forking a server that runs threads could deadlock the child.
    report = to_json(Analyser(plies=plies, workers=1).analyse(match, job.progress))
    return _finite(report)  # type: ignore[no-any-return]


def board_report(
    match: BoardMatch, plies: int, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """The analysis of a match of the other games (:func:`analyse_board_record`, at most as
    deep as their engine searches), as :func:`board_to_json` writes it, marked as such:
    ``kind`` "board" (backgammon's report has no ``kind``), the ``game`` the match plays
    (``tavli`` for Tavli's three in turn), and each player's ``name``.

    >>> from backgammon.game import Rules
    >>> report = board_report(BoardMatch(1, Rules.for_game("fevga")), 2)
    >>> report["kind"], report["game"], report["plies"], report["decisions"]
    ('board', 'fevga', 1, [])
    """
    analysis = analyse_board_record(match, min(plies, BOARD_PLIES), progress)
    return {"kind": BOARD_REPORT, "game": match.plays, **board_to_json(analysis)}


def _finite(value: Any) -> Any:
    """``value`` with every number JSON cannot hold (nan, infinities) as null.

    >>> _finite({"a": [1.0, float("nan")], "b": float("inf"), "c": "x"})
    {'a': [1.0, None], 'b': None, 'c': 'x'}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value
