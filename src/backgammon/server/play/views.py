"""The state of a match as one seat's page sees it (:class:`.schemas.State`).

The page knows no rules: everything it shows or offers is worked out here, from the engine.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator
from datetime import datetime
from functools import cache, lru_cache
from typing import Any, assert_never

from starlette.responses import Response

from ...bot import Level
from ...errors import BackgammonError
from ...fairdice import FairDice
from ...formats.ids import gnubg_id_of, xgid_of
from ...game import (
    Action,
    Beavered,
    BoardEntry,
    Doubled,
    DoubleNamed,
    Dropped,
    Game,
    GameEnded,
    GameEntry,
    GameResult,
    OpeningRoll,
    Phase,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Taken,
    TurnPlayed,
    begun,
)
from ...game.board_game import BoardGame
from ...game.match import BoardMatch, Match
from ...games import LoneChecker
from ...position import BAR, OFF, Position, WinKind
from ..db import now
from .board_views import game_dice, game_sided, game_sided_text
from .clocks import clock_view
from .live import LiveMatch, SeatKind, game_name
from .schemas import (
    BoardView,
    ClaimView,
    CubeView,
    DieView,
    EntryView,
    FairDiceView,
    GameView,
    OfferView,
    PlayedStepView,
    PointView,
    RematchView,
    ResignationView,
    ResultView,
    SeatView,
    SharedState,
    State,
    StepView,
    ThrownView,
)
from .seats import claimable_from

_PHASES = {
    Phase.OPENING: "opening",
    Phase.ROLL: "roll",
    Phase.CUBE: "cube",
    Phase.MOVE: "move",
    Phase.CONFIRM: "confirm",
    Phase.RESIGN: "resign",
    Phase.NAME: "name",
    Phase.OVER: "over",
}
#: How many of each kind of view are kept made (boards, fair dice, seats): a few for each
#: match in play.
KEPT = 4096
_KINDS = {WinKind.SINGLE: "single", WinKind.GAMMON: "gammon", WinKind.BACKGAMMON: "backgammon"}


def state_of(live: LiveMatch, view: int, since: int | None = None) -> State:
    """The whole state of ``live`` with the board drawn from seat ``view``'s side; its
    record only what changed after version ``since`` where one is given (see
    :attr:`.schemas.State.record_since`)."""
    game = live.match.game
    sided = game_sided(game, view) if isinstance(game, BoardGame) else _sided(game, view)
    return State(**_shared(live, since), **sided)


def _shared(live: LiveMatch, since: int | None) -> dict[str, Any]:
    """What the state of ``live`` shows every seat alike (:class:`.schemas.SharedState`)."""
    match = live.match
    game = match.game
    claim = claim_window(live)
    ids = _ids(live)
    shown = game
    if not begun(game) and len(match.games) > 1:
        # A finished game is followed at once by the next, empty one: show the last result.
        shown = match.games[-2]
    return dict(
        id=live.id,
        version=live.version,
        seed=live.seed,
        fair_dice=fair_dice_view(game),
        seats=[
            _seat_view(seat.kind, seat.level, match.players[index], match.colours[index])
            for index, seat in enumerate(live.seats)
        ],
        length=match.length,
        score=list(match.score),
        match_over=match.is_over,
        winner=match.winner,
        game_number=len(match.games),
        crawford=game.crawford,
        phase=_PHASES[game.phase],
        on_roll=game.on_roll,
        to_act=game.player_to_act,
        dice=_dice(game),
        opening_tie=_opening_tie(game),
        thrown=None if game.thrown is None else ThrownView(seat=game.thrown[0], die=game.thrown[1]),
        cube=CubeView(
            value=game.cube_value,
            owner=game.cube_owner,
            offer=_offer(game),
            used=game.rules.cube and not game.crawford,
        ),
        resignation=(
            ResignationView(by=game.resignation.player, level=int(game.resignation.level))
            if game.resignation is not None
            else None
        ),
        result=_result(shown.result, timed=live.seating.clock is not None),
        actions=[_actions(live, seat, claim) for seat in (0, 1)],
        **record_view(live, since),
        gnubg_id=ids[0],
        xgid=ids[1],
        rules=game.rules.to_dict(),
        game=game_name(match),
        rotation=list(match.rotation) if isinstance(match, BoardMatch) and match.rotation
        else None,
        online=live.seating.online,
        practice=live.seating.practice,
        waiting_for_opponent=live.seating.invite is not None,
        unheld=live.seating.unheld,
        claim=None if claim is None else ClaimView(against=claim[0], after=claim[1]),
        clock=clock_view(live),
        rematch=_rematch(live),
        rematch_of=live.rematch.of,
    )


def _rematch(live: LiveMatch) -> RematchView | None:
    """The rematch of ``live`` as its state shows it; None while none is offered or started
    (the offer's token digest is the server's alone)."""
    rematch = live.rematch
    if rematch.offered_by is None and rematch.next is None:
        return None
    return RematchView(offered_by=rematch.offered_by, id=rematch.next)


#: A checker's step, from a point to a point, on the mover's point numbers.
_Step = tuple[int, int]


def _side(game: Game, view: int) -> tuple[Position, int, list[_Step], tuple[_Step, ...]]:
    """The position as seat ``view`` sees it, the player moving, the steps that may come
    next and the steps made this turn (on the mover's point numbers)."""
    mover = game.on_roll
    position = game.turn.current() if game.turn is not None else game.position
    seen = position if view == mover else position.flip()
    steps = game.turn.legal_steps() if game.turn is not None and game.phase is Phase.MOVE else []
    made = game.turn.made if game.turn is not None else ()
    return seen, mover, steps, made


def _sided(game: Game, view: int) -> dict[str, Any]:
    """What a state shows from seat ``view``'s side: the board and the steps on it."""
    seen, mover, steps, made = _side(game, view)
    return {
        "view": view,
        "board": board_view(seen, view),
        "steps": [step_view(a, b, mover, view) for a, b in steps],
        "made": [step_view(a, b, mover, view) for a, b in made],
    }


def _sided_text(game: Game, view: int) -> str:
    """:func:`_sided` as the members of a JSON object (the API's names), made of the texts
    of boards and steps made once."""
    seen, mover, steps, made = _side(game, view)
    return (
        f'"view":{view},"board":{_board_text(seen, view)},'
        f'"steps":[{",".join(_step_text(a, b, mover, view) for a, b in steps)}],'
        f'"made":[{",".join(_step_text(a, b, mover, view) for a, b in made)}]'
    )


class Shown:
    """The state of ``live`` as it is now, from each side asked for and with the record's
    changes since each version asked for, as JSON text: an action answers its actor and
    pushes to every watching page, and what they share (everything but the board's side:
    the actions on offer, the ids, the record) is made and written out once. Use it before
    ``live`` changes again (its lock is held, or nothing is awaited meanwhile)."""

    def __init__(self, live: LiveMatch) -> None:
        self.live = live
        self._shared: dict[int | None, str] = {}
        self._sides: dict[int, str] = {}
        self._texts: dict[tuple[int, int | None], str] = {}

    def shared(self, since: int | None = None) -> str:
        """What the state shows every seat alike, its record what changed after ``since``,
        as the text of a JSON object (:class:`.schemas.SharedState`): :meth:`text` adds a
        side to it."""
        since = _since(self.live, since)  # versions not reached all mean the whole record
        text = self._shared.get(since)
        if text is None:
            text = SharedState(**_shared(self.live, since)).model_dump_json(by_alias=True)
            self._shared[since] = text
        return text

    def text(self, view: int, since: int | None = None) -> str:
        """The state from seat ``view``'s side, its record what changed after ``since``, as
        JSON text (the API's field names): :func:`state_of`'s, written out."""
        since = _since(self.live, since)
        text = self._texts.get((view, since))
        if text is None:
            text = with_side(self.shared(since), self._side_text(view))
            self._texts[view, since] = text
        return text

    def _side_text(self, view: int) -> str:
        side = self._sides.get(view)
        if side is None:
            game = self.live.match.game
            side = self._sides[view] = (
                game_sided_text(game, view) if isinstance(game, BoardGame)
                else _sided_text(game, view)
            )
        return side

    def response(self, view: int, since: int | None = None) -> Response:
        """The state from seat ``view``'s side as an answer: the text made once serves it,
        without the framework checking and writing it out again."""
        return Response(self.text(view, since), media_type="application/json")


def with_side(shared: str, side: str) -> str:
    """A state's text, from the texts of its shared part and of a seat's side.

    >>> with_side('{"id":"x"}', '"view":1')
    '{"id":"x","view":1}'
    """
    return f"{shared[:-1]},{side}}}"


def _since(live: LiveMatch, since: int | None) -> int | None:
    """The version a record of changes is made from: None (the whole record) for a version
    the match has not reached."""
    return since if since is not None and since <= live.version else None


def record_view(live: LiveMatch, since: int | None = None) -> dict[str, Any]:
    """The state's ``record`` and ``record_since``: the whole record, or, after version
    ``since``, the games from the one in play then on, the first with only the entries made
    after it (an action's answer and each push then carry a few entries, not every game's
    every entry, written out again each time)."""
    since = _since(live, since)
    games = live.match.games
    # The game in play at version ``since`` (at a game's end the next, which began then),
    # and how many of its events it had: only the games from it on are made.
    number, start = 1, 0 if since is None else since
    while since is not None and number < len(games) and start >= len(games[number - 1].events):
        start -= len(games[number - 1].events)
        number += 1
    record = []
    for index in range(number, len(games) + 1):
        if not (begun(games[index - 1]) or index == 1):
            continue
        entries, indexes = _game_entries(live, index)
        first = bisect_left(indexes, start) if since is not None and index == number else 0
        record.append(_game_view(live, index, entries[first:], first))
    return {"record": record, "record_since": since}


def claim_window(live: LiveMatch) -> tuple[int, datetime] | None:
    """The seat an online game waits for, and the time from which the other may claim the
    game (RULES.md, Leaving a game): the game has waited for that seat since its last event.
    None where nothing may be claimed: not online, no one awaited, the match over, or a
    match with a clock, where a seat out of time loses instead (:mod:`.clocks`)."""
    game = live.match.game
    awaited = game.player_to_act
    seating = live.seating
    if seating.clock is not None or not seating.online or live.match.is_over:
        return None
    if awaited is None or not begun(game):
        return None
    since = datetime.fromisoformat(game.events[-1].time)
    return awaited, claimable_from(since, live.seating.claim_seconds)


def claim_refusal(window: tuple[int, datetime] | None, seat: int) -> str | None:
    """Why ``seat`` may not claim the game now, given its :func:`claim_window` (None: it
    may; the game itself then says whether the claim is allowed).

    >>> from datetime import timedelta
    >>> print(claim_refusal((1, now() - timedelta(seconds=1)), 0))
    None
    >>> claim_refusal((1, now() - timedelta(seconds=1)), 1)[:40]
    'A game may be claimed only in an online '
    """
    if window is None or window[0] == seat:
        return (
            "A game may be claimed only in an online match, while it waits for the other "
            "player."
        )
    if now() < window[1]:
        return (
            f"Seat {window[0]} may still act: the game may be claimed from "
            f"{window[1].isoformat(timespec='seconds')}."
        )
    return None


def _actions(live: LiveMatch, seat: int, claim: tuple[int, datetime] | None) -> list[str]:
    """What ``seat`` may do now: the game's legal actions, none while an online match waits
    for its opponent, and a claim only once the claim window has opened."""
    if live.match.is_over or live.seating.invite is not None:
        return []
    may_claim = claim_refusal(claim, seat) is None
    return [
        action.value
        for action in live.match.game.legal_actions(seat)
        if action is not Action.CLAIM or may_claim
    ]


def _game_entries(live: LiveMatch, number: int) -> tuple[list[EntryView], list[int]]:
    """Game ``number``'s record entries, with the event each was made by, extended only
    with the entries of its new events: what a record shows of an event never changes once
    the event is made. The lists are the cache's own: read them, never change them."""
    game = live.match.games[number - 1]
    cached = live.record_views.get(number)
    if cached is None:
        cached = live.record_views[number] = (0, [], [])
    count, entries, indexes = cached
    if count != len(game.events):
        for index, entry in _entries(game, count):
            entries.append(entry)
            indexes.append(index)
        live.record_views[number] = (len(game.events), entries, indexes)
    return entries, indexes


def _game_view(live: LiveMatch, number: int, entries: list[EntryView], first: int) -> GameView:
    """Game ``number``'s record from its entry ``first`` on (``entries``, made here), with
    the score before it and its result."""
    game = live.match.games[number - 1]
    return GameView(
        number=number,
        score_before=list(live.match.scores_before(number - 1)),
        crawford=game.crawford,
        entries=entries,
        first_entry=first,
        result=_result(game.result, timed=live.seating.clock is not None),
        fair_dice=fair_dice_view(game),
    )


def fair_dice_view(game: Game | BoardGame) -> FairDiceView | None:
    """The fair dice of ``game``, their server seed only once it is over; None for others."""
    dice = game.dice_source
    if not isinstance(dice, FairDice):
        return None
    shown = dice.to_dict(reveal=game.result is not None)
    return _fair_dice(
        shown["commitment"], tuple(shown["seeds"]), shown.get("server_seed"), game.rolls_drawn
    )


@lru_cache(KEPT)
def _fair_dice(
    commitment: str, seeds: tuple[str, ...], server_seed: str | None, rolls: int
) -> FairDiceView:
    """Fair dice as a state shows them, made once for the states (and the record's game)
    that show them alike (frozen)."""
    return FairDiceView(commitment=commitment, seeds=list(seeds), server_seed=server_seed,
                        rolls=rolls)


@lru_cache(KEPT)
def _seat_view(kind: SeatKind, level: Level | None, name: str, colour: str) -> SeatView:
    """A seat as a state shows it, made once for the states that show it (frozen)."""
    return SeatView(kind=kind, level=level, name=name, colour=colour)


def _offer(game: Game | BoardGame) -> OfferView | None:
    offer = game.offer
    if offer is None:
        return None
    return OfferView(by=offer.player, value=offer.value, beavered=offer.beavered)


#: The events after which a game's IDs are as they were: they show the position the turn
#: started from, and a step (or its undo) changes only the turn's.
_SAME_IDS = frozenset({Action.STEP, Action.UNDO})


def _ids(live: LiveMatch) -> tuple[str | None, str | None]:
    """The GNU Backgammon ID and the XGID of the game in play (None: one the format cannot
    express), made again only after an event that may change them (most of a turn's
    actions are steps)."""
    game = live.match.game
    if isinstance(game, BoardGame):
        return None, None  # GNU Backgammon's formats have no such games
    events = game.events
    kept = live.ids
    if (
        kept is None
        or kept[0] is not game
        or any(event.action not in _SAME_IDS for event in events[kept[1]:])
    ):
        kept = (game, len(events), _identifier(gnubg_id_of, live), _identifier(xgid_of, live))
        live.ids = kept
    return kept[2], kept[3]


def _identifier(encode: Callable[[Match], str], live: LiveMatch) -> str | None:
    assert isinstance(live.match, Match)
    try:
        return encode(live.match)
    except BackgammonError:
        return None  # a finished game, say, that the format cannot express


@lru_cache(KEPT)
def board_view(seen: Position, view: int) -> BoardView:
    """The checkers of ``seen`` (``view``'s side) placed by seat, made once for the states
    that show them (a roll, a double, an answer to it leave the board as it was), and shared
    (frozen)."""
    other = 1 - view
    # Read once: each reading of a side makes a new tuple of its counts.
    mine, theirs = seen.mine, seen.theirs
    points = []
    for point in range(1, 25):
        if mine[point]:
            points.append(_point(view, mine[point]))
        elif theirs[25 - point]:
            points.append(_point(other, theirs[25 - point]))
        else:
            points.append(_point(None, 0))
    pips = seen.pips()

    def by_seat(own: int, opponent: int) -> list[int]:
        return [own, opponent] if view == 0 else [opponent, own]

    return BoardView(
        points=points,
        bar=by_seat(mine[BAR], theirs[BAR]),
        off=by_seat(mine[OFF], theirs[OFF]),
        pips=by_seat(pips[0], pips[1]),
    )


@lru_cache(KEPT)
def _board_text(seen: Position, view: int) -> str:
    """:func:`board_view` as JSON text, made once for the states that show it."""
    return board_view(seen, view).model_dump_json()


@cache
def _point(seat: int | None, count: int) -> PointView:
    """A point held by ``seat`` with ``count`` checkers, made once and shared by every board
    (a few dozen in all; frozen, so no board changes another's)."""
    return PointView(seat=seat, count=count)


@cache
def step_view(from_point: int, to_point: int, mover: int, view: int) -> StepView:
    """A step of ``mover``'s (on their point numbers) with the places it joins on seat
    ``view``'s board, made once and shared (frozen: a few thousand in all)."""

    def place(point: int) -> int:
        if point in (BAR, OFF) or mover == view:
            return point
        return 25 - point

    return StepView.model_validate(
        {"from": from_point, "to": to_point, "board_from": place(from_point),
         "board_to": place(to_point)}
    )


@cache
def _step_text(from_point: int, to_point: int, mover: int, view: int) -> str:
    """:func:`step_view` as JSON text (the API's names), made once."""
    return step_view(from_point, to_point, mover, view).model_dump_json(by_alias=True)


def _dice(game: Game | BoardGame) -> list[DieView]:
    """The dice of the roll being played, each marked when a step has used it."""
    if isinstance(game, BoardGame):
        return [_die(face, used) for face, used in game_dice(game)]
    if game.turn is None or game.phase not in (Phase.MOVE, Phase.CONFIRM):
        return []
    return [_die(face, used) for face, used in game.turn.dice_faces()]


@cache
def _die(face: int, used: bool) -> DieView:
    """A die as a state shows it, made once and shared (frozen: twelve in all)."""
    return DieView(value=face, used=used)


def _opening_tie(game: Game | BoardGame) -> list[int] | None:
    """The dice of the opening roll's last tie, while the opening roll goes on."""
    if game.phase is not Phase.OPENING or not game.rolls_drawn:
        return None
    *_, last = game.history()
    return list(last.dice) if isinstance(last, OpeningRoll) else None


def _result(result: GameResult | None, *, timed: bool = False) -> ResultView | None:
    """A game's result as the state shows it; in a match with a clock, where no claim is
    made by hand, a claim is a time-out (``"time"``)."""
    if result is None:
        return None
    return ResultView(
        winner=result.winner,
        kind=_KINDS[result.kind],  # type: ignore[arg-type]
        points=result.points,
        reason="time" if timed and result.reason == "claim" else result.reason,  # type: ignore
    )


def _entries(game: Game | BoardGame, start: int = 0) -> Iterator[tuple[int, EntryView]]:
    """The record of ``game`` as entries, in the order they were made (the game's history;
    a roll's dice are written with its play), from event ``start`` on, each with the index
    of the event that made it."""
    for entry in game.history(start):
        view = _entry_view(entry)
        if view is not None:
            yield entry.index, view


def _entry_view(entry: GameEntry | BoardEntry) -> EntryView | None:
    """The entry as the page shows it; None for what the page does not list (a roll, whose
    dice go with its play, and the game's end, which the result says). A step's ``hit`` is
    a hit, never Plakoto's pin (the checker pinned stays where it was: the notation's ``*``
    and the board's ``pinned`` show it)."""
    seat = entry.seat
    match entry:
        case OpeningRoll():
            return EntryView(seat=seat, kind="opening", dice=list(entry.dice), auto=entry.auto)
        case TurnPlayed():
            play = str(entry.play) if entry.play.steps else None
            hits = entry.lone_checker is LoneChecker.HIT
            steps = [
                PlayedStepView.model_validate(
                    {"from": step.from_point, "to": step.to_point, "hit": step.hit and hits}
                )
                for step in entry.play.steps
            ]
            return EntryView(
                seat=seat, kind="play", dice=list(entry.dice), play=play, steps=steps,
                auto=entry.auto,
            )
        case Doubled():
            return EntryView(seat=seat, kind="double", value=entry.value)
        case Beavered():
            return EntryView(seat=seat, kind="beaver", value=entry.value)
        case Taken():
            return EntryView(seat=seat, kind="take")
        case Dropped():
            return EntryView(seat=seat, kind="drop")
        case ResignationOffered():
            return EntryView(seat=seat, kind="resign", level=int(entry.level))
        case ResignationAccepted():
            return EntryView(seat=seat, kind="accept")
        case ResignationRejected():
            return EntryView(seat=seat, kind="reject")
        case DoubleNamed():
            return EntryView(seat=seat, kind="name", value=entry.die)
        case Rolled() | GameEnded():
            return None
        case _:
            assert_never(entry)
