"""Rollouts in the background, under ``/api/rollouts``: a position (as the engine API takes
it: :mod:`.routes`) rolled out by the bot, its progress and its result so far asked for while
it runs, and a way to stop it.

``POST /api/rollouts`` starts a job and answers its id (202); ``GET /api/rollouts/{id}``
answers its state: ``status`` (``running``, ``done``, ``cancelled`` or ``failed``), the
trials ``done`` of the ``trials`` asked, and from the second trial on the ``result`` so far
(:meth:`backgammon.bot.RolloutResult.as_dict`: the cubeless probabilities, the cubeless
equity and the cubeful equity, each with its standard error; with ``cubeful`` the cube is
played in the trials and the result also says how often a trial doubled and a drop ended
it);
``DELETE /api/rollouts/{id}`` stops it. A job runs its trials a piece at a time in the bounded
pool of threads that thinks out hints (:class:`~..http.guards.BoundedPool`), so that hints
wait behind at most one piece, its progress moves and a cancel takes effect before the next
piece. A client (an address) may have :attr:`Rollouts.per_client` jobs running at once (429
beyond), the process :attr:`Rollouts.most` (503 beyond).

Jobs live in the process's memory: they are forgotten :attr:`Rollouts.keep` seconds after
they end, and all of them at a restart. Like the engine API, the rollouts answer positions:
nothing ties a position to a match, so the fair play of online games is kept by the pages,
which offer no rollout while such a game is played.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Path, Request, status
from pydantic import BaseModel, Field, StrictBool, StrictInt

from ...bot import Bot, Level, RolloutRun
from ...cube import CubeContext
from ...position import Position
from ..http.guards import BoundedPool, client_of, rate_limited
from ..play import computer
from .routes import Question, _read

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/rollouts", tags=["rollouts"])

#: The most trials a job may ask for at each depth: a trial of the opening played to the
#: end took about 0.08 s at 0 ply on a busy two-core machine, 0.33 s at 1 ply and 2.5 s at
#: 2, so that the longest job takes a minute or two.
MOST_TRIALS = {0: 1296, 1: 324, 2: 36}
#: The trials of one piece at each depth: a piece holds a thread of the pool for about a
#: second (a 2-ply trial cannot be split), so hints are not kept waiting long and a cancel
#: is soon felt.
PIECE = {0: 12, 1: 3, 2: 1}
#: The most turns a truncated trial plays.
MOST_TRUNCATE = 100
#: The bot whose networks and move filters play the trials.
LEVEL = Level.STRONGEST


class RolloutQuestion(Question):
    """A position to roll out, the cube and score it is judged at, and how."""

    plies: StrictInt = Field(
        0, ge=0, le=2, description="the depth of both sides' plays in the trials"
    )
    trials: StrictInt = Field(
        324, ge=2, le=MOST_TRIALS[0],
        description=f"how many games to play (at most {MOST_TRIALS[1]} at 1 ply, "
        f"{MOST_TRIALS[2]} at 2; a multiple of 36 spreads the first rolls evenly)",
    )
    truncate: StrictInt = Field(
        0, ge=0, le=MOST_TRUNCATE,
        description="turns each trial plays before the 0-ply value stands in (0: to the end)",
    )
    cubeful: StrictBool = Field(
        False,
        description="play the cube in the trials (a cubeful rollout, as GNU Backgammon's); "
        "otherwise the cubeful equity is the cube model's on the rolled-out chances",
    )


class Started(BaseModel):
    """A job started."""

    id: str


class JobView(BaseModel):
    """A job's state: its progress and its result so far."""

    id: str
    status: Literal["running", "done", "cancelled", "failed"]
    position_id: str
    plies: int
    truncate: int
    cubeful: bool = Field(description="whether the cube is played in the trials")
    done: int = Field(description="trials run")
    trials: int = Field(description="trials asked")
    result: dict[str, Any] | None = Field(
        description="the result of the trials run (None before two): "
        "``backgammon rollout --json``'s fields"
    )


@dataclass
class Job:
    """A rollout under way or ended, and whose it is."""

    id: str
    client: str
    run: RolloutRun
    status: str = "running"
    ended: float | None = None
    result: dict[str, Any] | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def view(self) -> dict[str, Any]:
        """The job as :class:`JobView` shows it."""
        run = self.run
        return {
            "id": self.id, "status": self.status, "position_id": run.position.id(),
            "plies": run.plies, "truncate": run.truncate, "cubeful": run.cubeful,
            "done": run.done,
            "trials": run.trials, "result": self.result,
        }


class Rollouts:
    """The jobs of this process, with their limits: ``per_client`` running at once per
    client, ``most`` in all; an ended job is kept ``keep`` seconds for its result."""

    def __init__(self, pool: BoundedPool, per_client: int, most: int, keep: float) -> None:
        self.pool, self.per_client, self.most, self.keep = pool, per_client, most, keep
        self._jobs: dict[str, Job] = {}

    def admit(self, client: str) -> None:
        """429 or 503 with a sentence where ``client`` may not start a job now."""
        self._forget_old()
        running = [job for job in self._jobs.values() if job.status == "running"]
        if sum(job.client == client for job in running) >= self.per_client:
            raise HTTPException(
                status.HTTP_429_TOO_MANY_REQUESTS,
                f"Too many rollouts from this address: at most {self.per_client} at once; "
                "wait for one to end, or cancel one.",
            )
        if len(running) >= self.most:
            raise HTTPException(
                status.HTTP_503_SERVICE_UNAVAILABLE,
                "The computer is busy with other rollouts; try again in a minute.",
                headers={"Retry-After": "60"},
            )

    def start(self, client: str, run: RolloutRun) -> Job:
        """Start ``run`` for ``client``; 429 or 503 with a sentence beyond the limits."""
        self.admit(client)
        job = Job(secrets.token_urlsafe(12), client, run)
        self._jobs[job.id] = job
        job.task = asyncio.create_task(self._work(job))
        return job

    def get(self, job_id: str) -> Job | None:
        """The job ``job_id``, where it is still known."""
        self._forget_old()
        return self._jobs.get(job_id)

    def cancel(self, job: Job) -> None:
        """Stop ``job`` before its next piece (its trials so far keep their result)."""
        if job.status == "running":
            self._end(job, "cancelled")

    async def settle(self) -> None:
        """Stop every job (the server stops)."""
        for job in list(self._jobs.values()):
            self.cancel(job)
            if job.task is not None:
                job.task.cancel()

    async def _work(self, job: Job) -> None:
        run, piece = job.run, PIECE[job.run.plies]
        try:
            while job.status == "running" and not run.finished:
                try:
                    # The trials read the networks only: they need not take the bot's lock.
                    await self.pool.run(run.step, piece)
                except HTTPException:
                    # The pool is full of hints: they go first, and the job tries again.
                    await asyncio.sleep(0.5)
                    continue
                job.result = _result(run)
            if job.status == "running":
                self._end(job, "done")
        except Exception:
            log.exception("rollout %s failed", job.id)
            self._end(job, "failed")

    def _end(self, job: Job, how: str) -> None:
        job.status, job.ended = how, time.monotonic()

    def _forget_old(self) -> None:
        now = time.monotonic()
        for job_id, job in list(self._jobs.items()):
            if job.ended is not None and now - job.ended > self.keep:
                del self._jobs[job_id]


def _result(run: RolloutRun) -> dict[str, Any] | None:
    result = run.result()
    return None if result is None else result.as_dict()


def _rollouts(request: Request) -> Rollouts:
    rollouts: Rollouts = request.app.state.rollouts
    return rollouts


JobId = Annotated[str, Path(max_length=40, description="the id the start answered")]

_RESPONSES: dict[int | str, dict[str, Any]] = {
    422: {"description": "a malformed question: a bad ID, checkers, cube, score or setting"},
    429: {"description": "too many rollouts or hints from this address"},
    503: {"description": "too many rollouts under way on the server"},
}


@router.post(
    "",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=Started,
    dependencies=[Depends(rate_limited("hint"))],
    responses=_RESPONSES,
)
async def start(question: RolloutQuestion, request: Request) -> dict[str, Any]:
    """Start rolling out the position (any dice in the ID are not read); the job's id."""
    position, cube, _ = _read(question)
    most = MOST_TRIALS[question.plies]
    if question.trials > most:
        raise HTTPException(
            422,
            f"A rollout at {question.plies} plies plays at most {most} trials; ask for fewer "
            "trials or fewer plies.",
        )
    jobs, client = _rollouts(request), client_of(request)
    jobs.admit(client)  # before waiting for a thread to prepare the run
    job = jobs.start(client, await _prepare(request, position, cube, question))
    return {"id": job.id}


async def _prepare(
    request: Request, position: Position, cube: CubeContext, question: RolloutQuestion
) -> RolloutRun:
    """The run of the question with the networks and move filters of the pool's bot."""

    def make(bot: Bot) -> RolloutRun:
        return RolloutRun(
            position, cube, question.trials, question.plies, question.truncate,
            kernel=bot.rollout_kernel(), filters=bot.filters, cubeful=question.cubeful,
        )

    pool: BoundedPool = request.app.state.hint_pool
    run: RolloutRun = await pool.run(computer.consult, LEVEL, make)
    return run


@router.get(
    "/{job_id}",
    response_model=JobView,
    responses={404: {"description": "no such rollout, or forgotten"}},
)
async def progress(job_id: JobId, request: Request) -> dict[str, Any]:
    """The job's progress and its result so far."""
    return _job(request, job_id).view()


@router.delete(
    "/{job_id}",
    response_model=JobView,
    responses={404: {"description": "no such rollout, or forgotten"}},
)
async def cancel(job_id: JobId, request: Request) -> dict[str, Any]:
    """Stop the job before its next piece; its state, with the result of the trials run."""
    job = _job(request, job_id)
    _rollouts(request).cancel(job)
    return job.view()


def _job(request: Request, job_id: str) -> Job:
    job = _rollouts(request).get(job_id)
    if job is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND,
            "No such rollout: the id is wrong, or the rollout ended some minutes ago and is "
            "forgotten (rollouts are not kept across a restart).",
        )
    return job
