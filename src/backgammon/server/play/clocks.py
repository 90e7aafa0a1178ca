"""The match clocks as the server runs them: its time, each state's clocks, and whose time
has run out.

The clocks themselves are worked out from the record (:mod:`backgammon.game.clock`; each
copy keeps its fold, which takes only the new events at each read): this module only reads
them on the server's own time, never a client's. That time is
:data:`server_time`, the wall clock unless a test sets it (:meth:`ServerTime.set`), so that no
test waits for a clock to run out. A match's clocks do not run while its invite is open.
"""

from __future__ import annotations

from datetime import datetime

from ...game.clock import ClockFold, Clocks
from ..db import now, utc
from .live import LiveMatch
from .schemas import ClockView


class ServerTime:
    """The time the clocks are read on: the wall clock (UTC), or the time a test set.

    >>> from datetime import UTC
    >>> time = ServerTime()
    >>> time.set(datetime(2026, 12, 7, 12, 0, tzinfo=UTC))
    >>> time().isoformat()
    '2026-12-07T12:00:00+00:00'
    >>> time.set(None)
    >>> abs((time() - now()).total_seconds()) < 60
    True
    """

    def __init__(self) -> None:
        self._set: datetime | None = None

    def __call__(self) -> datetime:
        return now() if self._set is None else self._set

    def set(self, when: datetime | None) -> None:
        """Read ``when`` from now on, until set again; None: the wall clock again."""
        self._set = when


#: The server's time for every clock of this process.
server_time = ServerTime()


def clocks_of(live: LiveMatch, at: datetime) -> Clocks | None:
    """The clocks of ``live`` at ``at``; None for a match without a time control, or whose
    invite is still open (nobody is waited for yet)."""
    control = live.seating.clock
    if control is None or live.seating.invite is not None:
        return None
    fold = live.clock_fold
    if fold is None or fold.match is not live.match or fold.control != control:
        fold = live.clock_fold = ClockFold(live.match, control, utc(live.created_at))
    return fold.read(at)


def out_of_time(live: LiveMatch) -> tuple[int, datetime] | None:
    """The seat of ``live`` whose time has run out, on the server's time, and when it ran out
    (None: no seat's has)."""
    if live.seating.clock is None or live.match.is_over:
        return None
    state = clocks_of(live, server_time())
    if state is None or state.out is None or state.ran_out is None:
        return None
    return state.out, state.ran_out


def clock_view(live: LiveMatch) -> ClockView | None:
    """The state's ``clock``: the control, and each seat's clock now on the server's time."""
    control = live.seating.clock
    if control is None:
        return None
    at = server_time()
    state = clocks_of(live, at)
    full = control.bank_for(live.match.length)
    return ClockView(
        delay=control.delay,
        bank=control.bank,
        preset=control.preset,  # type: ignore[arg-type]  # one of the presets' names
        banks=[full, full] if state is None else list(state.banks),
        running=[] if state is None else list(state.running),
        delay_left=float(control.delay) if state is None else state.delay,
        now=at,
    )
