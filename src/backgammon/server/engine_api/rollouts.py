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

from ...analysis.rollout import ranked_plays
from ...bot import Bot, Level, RolloutRun
from ...cube import CubeContext
from ...dice import Dice
from ...errors import IllegalPlayError
from ...moves import Play
from ...notation import parse_play
from ...position import Position
from ..http.guards import BoundedPool, client_of, rate_limited
from ..play import computer
from ..play.schemas import Ascii
from .routes import Die, Question, _read

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
#: The most plays one job rolls out.
MOST_ROLLED_PLAYS = 6
#: The most turns a truncated trial plays.
MOST_TRUNCATE = 100
#: The bot whose networks and move filters play the trials.
LEVEL = Level.STRONGEST


class RolloutQuestion(Question):
    """A position to roll out, the cube and score it is judged at, and how; or with ``plays``,
    those plays of the roll rolled out, each from the position it leaves."""

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
    dice: tuple[Die, Die] | None = Field(
        None, description="the roll the ``plays`` are of; needed with them unless the ID "
        "holds dice", examples=[[6, 4]],
    )
    plays: list[Annotated[Ascii, Field(max_length=200)]] | None = Field(
        None, min_length=2, max_length=MOST_ROLLED_PLAYS,
        description=f"2 to {MOST_ROLLED_PLAYS} plays of the roll, in notation (``8/2 6/2``), "
        "to roll out instead of the position: each from the position it leaves, all with the "
        "same dice, ``trials`` each; the answer ranks them by their mover's equity",
    )
    cubeful: StrictBool = Field(
        False,
        description="play the cube in the trials (a cubeful rollout, as GNU Backgammon's); "
        "otherwise the cubeful equity is the cube model's on the rolled-out chances (not with "
        "``plays``, which are ranked cubeless)",
    )


class Started(BaseModel):
    """A job started."""

    id: str


class RolledPlay(BaseModel):
    """A play rolled out: its mover's equity (cubeless, at the score in a match) and its
    standard error (0 for a play that ends the game: its value is exact)."""

    play: str
    equity: float
    se: float


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
        description="the result of the trials run (None before two; None for plays): "
        "``backgammon rollout --json``'s fields"
    )
    plays: list[RolledPlay] | None = Field(
        None, description="with ``plays``: the plays ranked, the best first, once each has "
        "two trials (None before, and for a position)"
    )


@dataclass
class Job:
    """A rollout under way or ended, and whose it is: of a position (one run), or of plays
    (a run for each play that does not end the game, their trials taken in turn)."""

    id: str
    client: str
    runs: list[RolloutRun]
    #: For a rollout of plays: the position played from, its cube, and each play with its
    #: run (None where the play ends the game).
    plays: PlaysRolled | None = None
    status: str = "running"
    ended: float | None = None
    #: What the job shows as of its last piece: the trials run, a position's result and
    #: plays' ranking, set at once, so that a reader between two pieces sees one piece's.
    shown: tuple[int, dict[str, Any] | None, list[dict[str, Any]] | None] = (0, None, None)
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        """Whether every trial of every run has been run."""
        return all(run.finished for run in self.runs)

    def step(self, count: int) -> None:
        """Run the next ``count`` trials of each unfinished run."""
        for run in self.runs:
            run.step(count)
        done = sum(run.done for run in self.runs)
        if self.plays is None:
            self.shown = (done, _result(self.runs[0]), None)
        else:
            self.shown = (done, None, self.plays.ranked())

    def view(self) -> dict[str, Any]:
        """The job as :class:`JobView` shows it."""
        first = self.runs[0] if self.runs else None
        done, result, plays = self.shown
        return {
            "id": self.id, "status": self.status,
            "position_id": (self.plays.position if self.plays else self.runs[0].position).id(),
            "plies": first.plies if first else 0, "truncate": first.truncate if first else 0,
            "cubeful": bool(first and first.cubeful),
            "done": done, "trials": sum(run.trials for run in self.runs), "result": result,
            "plays": plays,
        }


@dataclass(frozen=True)
class PlaysRolled:
    """The plays of a job: the position they are played from, its cube, and each play
    (written as asked) with its run, None for a play that ends the game."""

    position: Position
    cube: CubeContext
    plays: tuple[tuple[str, Play, RolloutRun | None], ...]

    def ranked(self) -> list[dict[str, Any]] | None:
        """The plays ranked by their rollouts so far; None until every run has a result."""
        results = [None if run is None else run.result() for _, _, run in self.plays]
        if any(run is not None and result is None
               for (_, _, run), result in zip(self.plays, results, strict=True)):
            return None
        ranked = ranked_plays(self.cube, [
            (text, play, result)
            for (text, play, _), result in zip(self.plays, results, strict=True)
        ])
        return [{"play": each.text, "equity": each.equity, "se": each.se or 0.0}
                for each in ranked]


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

    def start(self, client: str, runs: list[RolloutRun], plays: PlaysRolled | None = None
              ) -> Job:
        """Start ``runs`` (of ``plays``, where given) for ``client``; 429 or 503 with a
        sentence beyond the limits."""
        self.admit(client)
        job = Job(secrets.token_urlsafe(12), client, runs, plays)
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
        # A piece of a job of plays runs a few trials of each play, so that the plays'
        # figures stay side by side as they come.
        piece = max(1, PIECE[job.runs[0].plies] // len(job.runs)) if job.runs else 0
        try:
            while job.status == "running" and not job.finished:
                try:
                    # The trials read the networks only: they need not take the bot's lock.
                    await self.pool.run(job.step, piece)
                except HTTPException:
                    # The pool is full of hints: they go first, and the job tries again.
                    await asyncio.sleep(0.5)
                    continue
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
    """Start rolling out the position (any dice in the ID are not read), or with ``plays``,
    those plays of the roll; the job's id."""
    position, cube, held = _read(question)
    plays = None if question.plays is None else _plays(position, cube, held, question)
    most = MOST_TRIALS[question.plies]
    rolled = 1 if plays is None else len(plays)
    if question.trials * rolled > most:
        raise HTTPException(
            422,
            f"A rollout at {question.plies} plies plays at most {most} trials in all (each "
            "play's count); ask for fewer trials, plays or plies.",
        )
    jobs, client = _rollouts(request), client_of(request)
    jobs.admit(client)  # before waiting for a thread to prepare the runs
    if plays is None:
        [run] = await _prepare(request, [(position, cube)], question)
        return {"id": jobs.start(client, [run]).id}
    live = [(text, play) for text, play in plays if not play.result.is_game_over()]
    runs = await _prepare(request, [(play.result, cube.flip()) for _, play in live], question)
    by_text = dict(zip((text for text, _ in live), runs, strict=True))
    rolled_plays = PlaysRolled(position, cube, tuple(
        (text, play, by_text.get(text)) for text, play in plays))
    return {"id": jobs.start(client, runs, rolled_plays).id}


def _plays(
    position: Position, cube: CubeContext, held: Dice | None, question: RolloutQuestion
) -> list[tuple[str, Play]]:
    """The question's plays, each as it is written and the legal play it is (422 where one
    is no legal play of the roll, or two are the same play)."""
    if question.cubeful:
        raise HTTPException(
            422, "Plays are ranked on cubeless rollouts at the score: leave out cubeful."
        )
    dice = question.dice or held
    if dice is None:
        raise HTTPException(422, "Plays are of a roll: give the dice, or an ID that holds them.")
    if question.dice is not None and held is not None and set(held) != set(question.dice):
        raise HTTPException(
            422, f"The ID holds the dice {held[0]}-{held[1]}, other than those given; give "
            "the dice once.",
        )
    plays: list[tuple[str, Play]] = []
    for text in question.plays or ():
        try:
            play = parse_play(position, text, dice)
        except IllegalPlayError as exc:
            raise HTTPException(422, f"Play {len(plays) + 1}: {exc.args[0]}") from None
        if any(play == other for _, other in plays):
            raise HTTPException(422, f"Play {len(plays) + 1} is another play's moves again.")
        plays.append((str(play), play))
    return plays


async def _prepare(
    request: Request, positions: list[tuple[Position, CubeContext]], question: RolloutQuestion
) -> list[RolloutRun]:
    """A run of each position with its cube, as the question asks, with the networks and
    move filters of the pool's bot; one seed for them all, so that they share their dice."""
    seed = secrets.randbits(62)

    def make(bot: Bot) -> list[RolloutRun]:
        return [
            RolloutRun(position, cube, question.trials, question.plies, question.truncate,
                       seed=seed, kernel=bot.rollout_kernel(), filters=bot.filters,
                       cubeful=question.cubeful)
            for position, cube in positions
        ]

    pool: BoundedPool = request.app.state.hint_pool
    runs: list[RolloutRun] = await pool.run(computer.consult, LEVEL, make)
    return runs


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
