"""Acting on a match: the one place where a change to a match is checked, made, saved and
shown.

:class:`MatchService` owns an action's whole way through the server, in this order, under
the match's lock: the idempotency key checked (:mod:`.idempotency`), the copy brought up to
its row where another process may have acted (:meth:`.store.MatchStore.current`), the
version the action names checked, the rules run (``Game.act``, the one way in), the state
made once (:class:`.views.Shown`), the save (:meth:`.store.MatchStore.save`: the row, the
key and a finished match's ratings in one write, the other processes told), then the push
to the watching pages (:class:`.watchers.Hub`) and the computer woken
(:class:`.computer.Computer`). The routes only read the request and answer with what it
returns.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Protocol

from fastapi import HTTPException, status
from sqlalchemy import Connection
from sqlalchemy.exc import SQLAlchemyError
from starlette.responses import Response

from ...errors import BackgammonError
from ...fairdice import FairDice
from ...game import Act, Action
from ...game.clock import time_out
from ...position import WinKind
from ..accounts.ratings import RatedMatchError, Ratings
from ..accounts.users import Account
from .action_schemas import ActionRequest, Claim, Name, Play, Resign, Step
from .clocks import out_of_time
from .computer import Computer
from .idempotency import ActionKeys, KeptKey, digest
from .live import AnyMatch, LiveMatch, as_it_was
from .rematches import (
    answered,
    check_answer,
    check_offer,
    offered,
    seat_in_rematch,
    started,
)
from .saves import MatchChangedError
from .seats import Key, digest_of, new_secret, rematch_token
from .store import MatchStore
from .views import Shown, claim_refusal, claim_window
from .watchers import Hub

log = logging.getLogger(__name__)

#: The refusal of an invite whose seat is taken.
SPENT = "This invite has been used: its seat is taken."


class ActionOptions(Protocol):
    """What a request for an action says besides the action (:class:`.action_calls.
    ActionOptions`): its idempotency key, the side and record asked for, the page that
    named itself."""

    @property
    def key(self) -> str | None: ...
    @property
    def view(self) -> int | None: ...
    @property
    def record_since(self) -> int | None: ...
    @property
    def watcher(self) -> str | None: ...


class MatchService:
    """Acting on the matches of one app: a person's action (:meth:`act`), a seat's seed for
    the fair dice (:meth:`add_seed`), a seat taken with an invite (:meth:`join`) or the
    seats of an unheld match (:meth:`take`), a rematch offered and answered
    (:meth:`offer_rematch`, :meth:`answer_rematch`), and the save that refuses a request it
    cannot keep (:meth:`save`)."""

    def __init__(
        self,
        store: MatchStore,
        hub: Hub,
        computer: Computer,
        keys: ActionKeys,
        ratings: Ratings,
        ended: Callable[[LiveMatch], None] | None = None,
    ) -> None:
        self.store = store
        self.hub = hub
        self.computer = computer
        self.keys = keys
        self.ratings = ratings
        #: Called after the save of an action that ended its match (a tournament's goes on).
        self.ended = ended

    async def act(
        self,
        live: LiveMatch,
        action: ActionRequest,
        options: ActionOptions,
    ) -> Response:
        """Make ``action`` on ``live`` (its seat checked already) and answer with the state
        after it, from the side ``options`` ask for (``view``; the record's changes after
        ``record_since``), the watcher that names itself not pushed it; a resend with a
        kept idempotency ``key`` is answered as the first time and applies nothing
        (HTTPException: 409 for a stale version or a move the rules refuse, 422 for a key
        reused, 503 for a failed save)."""
        key = options.key
        side = action.seat if options.view is None else options.view
        asked = "" if key is None else digest(action.model_dump_json(by_alias=True), options.view)
        kept = None if key is None else KeptKey(action.seat, key, asked)
        async with live.lock:
            replayed = await self._check_version(live, action, kept)
            if replayed is not None:  # a resend of an action applied already
                return _replayed(live, replayed, side, options.record_since)
            await self._refuse_out_of_time(live)
            _check_open(live, action)
            before = live.version
            try:
                apply(live.match, action)
            except BackgammonError as exc:
                raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
            # The state is made once, for the answer (kept with the key) and the watching
            # pages.
            shown = Shown(live)
            replayed = await self._save_action(live, before, kept)
            if replayed is not None:
                return _replayed(live, replayed, side, options.record_since)
            if kept is not None:
                self.keys.note(live.id, action.seat, kept.key, kept.digest)
            self.hub.publish(live, shown=shown, answered=options.watcher)
            self.computer.wake(live)
            if self.ended is not None and live.match.is_over:
                self.ended(live)
        return shown.response(side, options.record_since)

    async def check_clock(self, live: LiveMatch) -> None:
        """Record the time-out of the seat of ``live`` whose time has run out, if one has:
        any read of a match with a clock asks, so a time-out is recorded even where nobody
        acts (the waiting opponent's page asks once the clock it shows runs out). Checked
        on the server's time, under the match's lock, on the copy brought up to its row, and
        saved with the version check: of several processes, one records it."""
        if out_of_time(live) is None:
            return
        async with live.lock:
            await self.store.current(live)
            try:
                await self._record_time_out(live)
            except HTTPException as refused:
                # Another process recorded it or acted first (its row is read at the next
                # use), or the database failed: the read answers with the state as it is.
                log.info("match %s: a time-out was not saved here: %s", live.id,
                         refused.detail)

    async def _refuse_out_of_time(self, live: LiveMatch) -> None:
        """409 for an action on ``live`` once the time of the seat it waits for has run
        out: the time-out is recorded first (call with the lock held)."""
        seat = await self._record_time_out(live)
        if seat is not None:
            raise HTTPException(
                status.HTTP_409_CONFLICT,
                f"Seat {seat}'s time has run out, so the action was not made: "
                + ("the money game is lost on time." if not live.match.length
                   else "the match is lost on time."),
            )

    async def _record_time_out(self, live: LiveMatch) -> int | None:
        """Record and show the time-out of the seat of ``live`` whose time has run out now
        (:func:`backgammon.game.clock.time_out`), and return that seat; None where no time
        has run out (call with the lock held; HTTPException 409 or 503 where the save
        failed)."""
        out = out_of_time(live)
        if out is None:
            return None
        seat, when = out
        before = live.version
        time_out(live.match, seat, when)
        shown = Shown(live)
        await self.save(live, before, None, self.ratings.counting(live))
        self.hub.publish(live, shown=shown)
        self.computer.wake(live)  # a money session goes on: the computer may roll first
        return seat

    async def _check_version(
        self, live: LiveMatch, action: ActionRequest, kept: KeptKey | None
    ) -> int | None:
        """Bring ``live`` up to the version ``action`` names where it may be behind; the
        version a resend of a kept action made (to answer it again), or 409 where the action
        names another version than the match's."""
        if kept is not None:
            self.keys.check(live.id, kept.seat, kept.key, kept.digest)
        if live.stale or action.version != live.version or live.seating.invite is not None:
            # Another process may have acted: the copy is brought up to its row (on the
            # version it holds, the save's version check finds a change elsewhere).
            await self.store.current(live)
        if action.version == live.version:
            return None
        replayed = await self._kept_version(live, kept)
        if replayed is not None:
            return replayed
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"The action was made on version {action.version} of the game, "
            f"which is now at version {live.version}; look again and retry.",
        )

    async def _save_action(
        self, live: LiveMatch, before: int, kept: KeptKey | None
    ) -> int | None:
        """Save the action just made on ``live`` (with its key, and a finished match's
        ratings); None once saved, or, where the save lost to a resend of the same action
        kept first by another process, the version that one made (this copy is then brought
        up to its row)."""
        try:
            await self.save(live, before, kept, self.ratings.counting(live))
        except HTTPException as refused:
            # The same action, sent again to another process at once, may have been kept
            # there first: it is answered as that one was.
            if refused.status_code != status.HTTP_409_CONFLICT:
                raise
            replayed = await self._kept_version(live, kept)
            if replayed is None:
                raise
            await self.store.current(live)  # this copy made the action too: the row's is kept
            return replayed
        return None

    async def _kept_version(self, live: LiveMatch, kept: KeptKey | None) -> int | None:
        """The version the seat's action kept with ``kept``'s key made, if it is kept."""
        if kept is None:
            return None
        return await self.keys.version(live.id, kept.seat, kept.key, kept.digest)

    async def add_seed(self, live: LiveMatch, seat: int, seed: str) -> Response:
        """Add ``seat``'s own seed to the fair dice of the game in play (its seat checked
        already), and answer with the state after it (HTTPException 409 where the dice take
        no seed now, 503 for a failed save)."""
        async with live.lock:
            await self.store.current(live)  # a roll taken elsewhere refuses the seed
            game = live.match.game
            if not isinstance(game.dice_source, FairDice):
                raise HTTPException(
                    status.HTTP_409_CONFLICT,
                    "This match rolls seeded dice (for tests and reproductions), which take "
                    "no player's seed.",
                )
            before = live.version
            try:
                # Refused once the game's first roll is drawn, or the game over.
                game.act(seat, Act(Action.SEED, seed=seed))
            except BackgammonError as exc:
                raise HTTPException(status.HTTP_409_CONFLICT, str(exc)) from None
            await self.save(live, before)
            # The state is made once, for the watching pages and the answer.
            shown = Shown(live)
            self.hub.publish(live, shown=shown)
        return shown.response(seat)

    async def join(
        self, live: LiveMatch, digest: str, account: Account | None, name: str | None
    ) -> tuple[int, str]:
        """Take the seat of ``live``'s open invite whose digest is ``digest``, for
        ``account`` (None: a guest), named ``name`` where given: the seat and its new token
        (HTTPException 410 where the invite is spent, 403 where a rated match refuses the
        account)."""
        async with live.lock:
            invite = live.seating.invite
            if invite is None or invite.digest != digest:
                raise HTTPException(status.HTTP_410_GONE, SPENT)
            await self.ratings.check_joiner(live.id, invite.seat, account)
            token = new_secret()
            seating, players, before = live.seating, live.match.players, live.version
            live.seating = seating.joined(token)
            if name is not None:
                named = list(players)
                named[invite.seat] = name
                live.match.players = (named[0], named[1])
            # An event of the record, so the version moves: a page that reconnects with the
            # version it saw before is sent the seat taken.
            live.match.game.join(invite.seat)
            try:
                await self.store.save_seating(
                    live, digest, before,
                    partial(self.ratings.joined, live.id, invite.seat, account),
                )
            except MatchChangedError:
                raise HTTPException(status.HTTP_410_GONE, SPENT) from None
            except RatedMatchError as exc:  # the account's row changed since the check
                raise HTTPException(status.HTTP_403_FORBIDDEN, str(exc)) from None
            self.hub.publish(live)
        return invite.seat, token

    async def take(self, live: LiveMatch) -> tuple[frozenset[int], str]:
        """Take the seats played by people of ``live``, a match saved before seats had
        tokens: those seats and their new token (HTTPException 409 where they are held
        already, or were taken meanwhile elsewhere)."""
        async with live.lock:
            await self.store.current(live)
            if not live.seating.unheld:
                raise HTTPException(
                    status.HTTP_409_CONFLICT,
                    "This match's seats are held already: only their token may act in it.",
                )
            token = new_secret()
            seats = frozenset(i for i, seat in enumerate(live.seats) if seat.kind == "human")
            live.seating = live.seating.taken(token, seats)
            try:
                await self.store.save_taken(live)
            except MatchChangedError:
                raise HTTPException(
                    status.HTTP_409_CONFLICT,
                    "This match's seats were taken meanwhile: only their token may act in it.",
                ) from None
            self.hub.publish(live, again=True)  # no new event: the state no longer says unheld
        return seats, token

    async def offer_rematch(
        self,
        live: LiveMatch,
        seat: int,
        token: str,
        held: frozenset[int],
        account: Account | None,
    ) -> Response:
        """``seat`` of ``live`` offers a rematch (:mod:`.rematches`) with ``token``, which
        holds the seats ``held`` (``seat`` among them, checked already): between people
        online, the offer waits for the other's answer; otherwise the rematch starts at
        once. The answer is ``live``'s state after it (HTTPException: 409 where no offer may
        be made now, 403 for a rated match's seat whose account is not signed in, 503 for a
        failed save)."""
        async with live.lock:
            await self.store.current(live)  # an offer made elsewhere refuses this one
            check_offer(live)
            await self.ratings.check_rematch(live.id, seat, account)
            before = live.rematch
            own = Key(digest_of(rematch_token(token, live.id)), held)
            if live.seating.online:
                live.rematch = offered(before, seat, own.digest)
                await self._save_rematch(live, before.step, None)
            else:  # the computer, or both seats at one screen: no one to ask
                await self._start_rematch(live, before.step, [own])
            return Shown(live).response(seat)

    async def answer_rematch(
        self, live: LiveMatch, seat: int, token: str, account: Account | None, accept: bool
    ) -> Response:
        """``seat`` of ``live`` (held by ``token``, checked already) accepts the rematch
        the other seat offered, which starts it, or declines it; the answer is ``live``'s
        state after it (HTTPException: 409 where there is no offer for ``seat`` to answer,
        403 for a rated match's seat whose account is not signed in, 503 for a failed
        save)."""
        async with live.lock:
            await self.store.current(live)  # an answer made elsewhere refuses this one
            offerer = check_answer(live, seat)
            before = live.rematch
            if not accept:
                live.rematch = answered(before, None)
                await self._save_rematch(live, before.step, None)
                return Shown(live).response(seat)
            # A rated match's rematch is rated: only its accounts, signed in, start it.
            await self.ratings.check_rematch(live.id, seat, account)
            assert before.offer_digest is not None  # kept with every offer
            keys = [
                Key(before.offer_digest, frozenset({seat_in_rematch(live, offerer)})),
                Key(digest_of(rematch_token(token, live.id)),
                    frozenset({seat_in_rematch(live, seat)})),
            ]
            await self._start_rematch(live, before.step, keys)
            return Shown(live).response(seat)

    async def _start_rematch(self, live: LiveMatch, step: int, keys: list[Key]) -> None:
        """Start the rematch of ``live``, whose seats ``keys`` hold, and save both matches
        (with the accounts at the new one's seats) in place of ``live``'s rematch change
        number ``step``; the computer is woken there, if it is to act."""
        new = started(live, keys)
        live.rematch = answered(live.rematch, new.id)
        accounts = partial(self.ratings.rematched, live.id, new.id, live.seating.online)
        await self._save_rematch(live, step, new, accounts)
        self.computer.wake(new)

    async def _save_rematch(
        self,
        live: LiveMatch,
        step: int,
        new: LiveMatch | None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Save ``live``'s rematch as changed (:meth:`.store.MatchStore.save_rematch`), and
        show it to the watching pages; or refuse the request (409, 503)."""
        with _refusing_failed_saves(
            live.id,
            "The rematch was offered or answered elsewhere meanwhile, so this was not kept; "
            "look again and retry.",
            "The rematch could not be saved, so it was not kept; try again.",
        ):
            await self.store.save_rematch(live, step, new, also)
        self.hub.publish(live, again=True)  # no new event: the state now shows the rematch

    async def save(
        self,
        live: LiveMatch,
        before: int,
        key: KeptKey | None = None,
        also: Callable[[Connection], None] | None = None,
    ) -> None:
        """Save ``live`` in place of version ``before`` (with the action's ``key`` and what
        ``also`` writes: :meth:`.store.MatchStore.save`), or refuse the request (409,
        503)."""
        with _refusing_failed_saves(
            live.id,
            "The match was changed elsewhere meanwhile, so the action was not kept; look "
            "again and retry.",
            "The game could not be saved, so the action was not kept; try again.",
        ):
            await self.store.save(live, before, key=key, also=also)


@contextmanager
def _refusing_failed_saves(match_id: str, changed: str, failed: str) -> Iterator[None]:
    """A save's failures as the request's refusals: 409 with ``changed`` where the row was
    changed elsewhere meanwhile (:class:`MatchChangedError`), 503 with ``failed`` where the
    database failed (logged)."""
    try:
        yield
    except MatchChangedError:
        raise HTTPException(status.HTTP_409_CONFLICT, changed) from None
    except SQLAlchemyError:
        log.exception("match %s could not be saved", match_id)
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, failed) from None


def _check_open(live: LiveMatch, action: ActionRequest) -> None:
    """409 unless ``live`` takes an action now: not over, not waiting for its opponent, and
    for a claim, waited on long enough (:func:`_check_claim`)."""
    if live.match.is_over:
        raise HTTPException(status.HTTP_409_CONFLICT, "The match is over.")
    if live.seating.invite is not None:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "The match waits for its opponent to take the other seat with the invite.",
        )
    if isinstance(action, Claim):
        _check_claim(live, action.seat)


def _check_claim(live: LiveMatch, seat: int) -> None:
    """409 unless ``seat`` may claim now: an online game that has waited for the other seat
    for the match's claim time (the game itself then says whether the claim is allowed)."""
    refusal = claim_refusal(claim_window(live), seat)
    if refusal is not None:
        raise HTTPException(status.HTTP_409_CONFLICT, refusal)


def _replayed(live: LiveMatch, version: int, side: int, since: int | None) -> Response:
    """The answer to an action kept with an idempotency key, given again: the state of the
    ``version`` it made (from seat ``side``'s side, the record's changes after ``since``)."""
    answer = Shown(as_it_was(live, version)).response(side, since)
    answer.headers["Idempotent-Replayed"] = "true"
    return answer


def apply(match: AnyMatch, action: ActionRequest) -> None:
    """Make ``action`` in ``match``; BackgammonError, and no change, when it is not allowed."""
    if isinstance(action, Claim):
        match.claim(action.seat, action.level, whole=action.match)
        return
    game = match.game
    if isinstance(action, Step):
        act = Act(Action.STEP, step=(action.from_, action.to))
    elif isinstance(action, Play):
        act = Act(Action.PLAY, play=action.play)
    elif isinstance(action, Resign):
        act = Act(Action.RESIGN, level=WinKind(action.level))
    elif isinstance(action, Name):
        act = Act(Action.NAME, die=action.die)
    else:
        act = Act(Action(action.action))
    game.act(action.seat, act)
