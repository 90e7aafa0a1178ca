"""One typed walk over a game's record, for every reader of it (the server's record view, the
``.mat`` writer, the terminal, the analysis), as python-chess's one PGN visitor serves many.

:meth:`Game.history() <backgammon.game.Game.history>` yields one frozen entry for each thing
that happened, in order. Every entry has ``index``, the place in ``game.events`` of the event
that made it, and ``seat``, the seat that made it (for :class:`GameEnded`, the winner). What
the rules decided (who won the opening roll, the cube after a tie or a take, the points) is
read from the game's own state before and after each event, never worked out again here.

The entries: :class:`OpeningRoll` (each roll of the opening, ties included), :class:`Rolled`
(the dice a player is to play: a roll, or the opening roll's dice for its winner),
:class:`TurnPlayed` (the play of a roll, the empty play for a roll with no move),
:class:`Doubled`, :class:`Beavered`, :class:`Taken`, :class:`Dropped`,
:class:`ResignationOffered`, :class:`ResignationAccepted`, :class:`ResignationRejected` and
:class:`GameEnded`. A turn's single steps and their undos make no entry: the turn is its play.

>>> from backgammon.dice import ManualDice
>>> from backgammon.game import Game, Rules
>>> game = Game(Rules(automatic_doubles=1), ManualDice(["3 3", "6 1", "5 2"]))
>>> game.roll(0); game.roll(1)                       # a tie doubles the cube, then seat 0 wins
>>> game.play(0, "13/7 8/7")
>>> game.double(1); game.take(0); game.roll(1); game.resign(1); game.accept(0)
>>> for entry in game.history():
...     print(type(entry).__name__, entry.index, entry.seat)
OpeningRoll 0 0
OpeningRoll 1 1
Rolled 1 0
TurnPlayed 2 0
Doubled 3 1
Taken 4 0
Rolled 5 1
ResignationOffered 6 1
ResignationAccepted 7 0
GameEnded 7 0
>>> opening, tie_broken, rolled, played, doubled, taken = list(game.history())[:6]
>>> opening.automatic_double, opening.cube_value, tie_broken.winner, rolled.dice
(True, 2, 0, (6, 1))
>>> str(played.play), played.dice_used, played.cube.value, doubled.value, taken.owner
('13/7 8/7', (6, 1), 2, 4, 0)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, NamedTuple

from ..cube import CubeContext
from ..dice import Dice
from ..moves import Play
from ..position import Position, WinKind
from ..turns import dice_of_steps
from .boards import P
from .rules import Action, Offer, Phase, cube_context_for

if TYPE_CHECKING:
    from .backgammon import Game
    from .record import Event



class Moment(NamedTuple, Generic[P]):
    """What the history reads of a game's state, as it stood just before an event (the
    board a :class:`~backgammon.Position` or, in the other games, a
    :class:`~backgammon.games.Board`)."""

    phase: Phase
    on_roll: int
    position: P
    dice: Dice | None
    cube_value: int
    cube_owner: int | None
    cube_turned: bool
    offer: Offer | None


@dataclass(frozen=True)
class OpeningRoll:
    """A roll of the opening: ``dice`` are seat 0's die and seat 1's, rolled by ``seat``.
    ``winner`` plays first (None: a tie, and both roll again); ``reroll``: the winner rolls
    both dice afresh (the option ``opening_reroll``); ``automatic_double``: this tie doubled
    the cube, which shows ``cube_value`` after the roll."""

    index: int
    seat: int
    dice: Dice
    winner: int | None
    reroll: bool
    automatic_double: bool
    cube_value: int
    auto: bool = False

    @property
    def tie(self) -> bool:
        """Whether both dice showed the same number."""
        return self.winner is None


@dataclass(frozen=True)
class Rolled:
    """The dice ``seat`` is to play, from ``position`` (their view) with the ``cube`` as
    they see it: a roll of theirs (``auto``: rolled for them in a race), or, ``opening``,
    the opening roll's two dice for its winner (high die first). ``cube`` is None only for a
    game of a match made without its match score."""

    index: int
    seat: int
    dice: Dice
    position: Position
    cube: CubeContext | None
    auto: bool = False
    opening: bool = False



@dataclass(frozen=True)
class TurnPlayed:
    """``seat``'s turn with ``dice``: the ``play`` (no steps: no checker could move), made
    from ``play.position`` (the mover's view) with the ``cube`` as the mover saw it.
    ``auto``: the game made it (a forced play with ``auto_forced``, or a roll with no move)."""

    index: int
    seat: int
    dice: Dice
    play: Play
    cube: CubeContext | None
    auto: bool = False

    @property
    def position(self) -> Position:
        """The position the play was made from, the mover's view."""
        return self.play.position

    @property
    def forced(self) -> bool:
        """Whether the roll left no choice: one legal play, or none."""
        return len(self.play.position.legal_plays(self.dice)) <= 1

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The die each step of ``play.steps`` used, in order."""
        return dice_of_steps(self.dice, self.play.steps)



@dataclass(frozen=True)
class Doubled:
    """``seat`` doubled, offering the cube at ``value``, from ``position`` (their view) with
    the ``cube`` as they saw it before doubling."""

    index: int
    seat: int
    value: int
    position: Position
    cube: CubeContext | None



@dataclass(frozen=True)
class Beavered:
    """``seat``, doubled, redoubled at once: taken, the cube shows ``value``, ``seat``'s."""

    index: int
    seat: int
    value: int


@dataclass(frozen=True)
class Taken:
    """``seat`` took: the cube shows ``value`` and ``owner`` owns it (a beaver's maker
    keeps it)."""

    index: int
    seat: int
    value: int
    owner: int


@dataclass(frozen=True)
class Dropped:
    """``seat`` refused the cube at ``value``, conceding the game at the stake before it."""

    index: int
    seat: int
    value: int


@dataclass(frozen=True)
class ResignationOffered:
    """``seat`` offered to resign at ``level``; ``accepted`` says what became of it (None:
    no answer yet). ``on_roll`` is the player on roll at the offer (the resigner or not),
    ``position`` the board from their side and ``cube`` the cube as they saw it: what the
    offer is judged on, a take just before it included."""

    index: int
    seat: int
    level: WinKind
    accepted: bool | None
    on_roll: int
    position: Position
    cube: CubeContext | None


@dataclass(frozen=True)
class ResignationAccepted:
    """``seat`` accepted the resignation at ``level``: the game is over."""

    index: int
    seat: int
    level: WinKind


@dataclass(frozen=True)
class ResignationRejected:
    """``seat`` rejected the resignation at ``level``: the game goes on."""

    index: int
    seat: int
    level: WinKind


@dataclass(frozen=True)
class GameEnded:
    """The game's end: ``winner`` won ``kind`` for ``points``, by ``reason`` ("bear off",
    "drop", "resign", or "claim": the other side had left); ``index`` is the event that ended it."""

    index: int
    winner: int
    kind: WinKind
    points: int
    reason: str

    @property
    def seat(self) -> int:
        """The winner."""
        return self.winner


Entry = (
    OpeningRoll
    | Rolled
    | TurnPlayed
    | Doubled
    | Beavered
    | Taken
    | Dropped
    | ResignationOffered
    | ResignationAccepted
    | ResignationRejected
    | GameEnded
)


#: The actions that end a turn, each with its entry in ``Game.plays``.
_PLAYED = frozenset({Action.PLAY, Action.PASS, Action.CONFIRM})


def walk(game: Game, moments: Sequence[Moment[Position]], start: int = 0) -> Iterator[Entry]:
    """The entries of ``game``'s record; ``moments[i]`` is the state before event ``i``, and
    the last one the state now. From ``start`` on, only the entries of events ``start`` and
    later (each entry depends only on its own event and the moments around it, so a record
    shown so far is extended, not rebuilt)."""
    events = game.events
    # ``game.plays`` has an entry for each event that ended a turn: those from ``start`` on
    # are its last ones (counted from the end: a record's changes are its last few events).
    later = sum(event.action in _PLAYED for event in events[start:])
    plays = iter(game.plays[len(game.plays) - later :])
    for index in range(start, len(events)):
        event = events[index]
        before, after = moments[index], moments[index + 1]
        if event.action is Action.ROLL:
            yield from _roll_entries(game, index, event, before, after)
        elif event.action in _PLAYED:
            mover, dice, play = next(plays)
            yield TurnPlayed(
                index,
                mover,
                dice,
                play if play is not None else Play.empty(before.position),
                _cube(game, before, mover),
                auto=event.auto,
            )
        else:
            entry = _offer_entry(game, index, before, after)
            if entry is not None:
                yield entry
    result = game.result
    if result is not None and (start == 0 or start < len(events)):
        yield GameEnded(len(events) - 1, result.winner, result.kind, result.points, result.reason)


def _cube(game: Game, moment: Moment[Position], seat: int) -> CubeContext | None:
    """The cube as ``seat`` saw it at ``moment``; None in a match game without its score."""
    if game.in_match and game.score is None:
        return None
    return cube_context_for(
        game.rules,
        seat,
        value=moment.cube_value,
        owner=moment.cube_owner,
        turned=moment.cube_turned,
        in_match=game.in_match,
        score=game.score,
    )


def _roll_entries(
    game: Game, index: int, event: Event, before: Moment[Position], after: Moment[Position]
) -> Iterator[Entry]:
    """The entries of a roll: an opening roll's own (a tie, or the winner's dice to play,
    unless the winner rolls afresh), a later roll's dice to play."""
    assert event.dice is not None
    if before.phase is Phase.OPENING:
        tie = event.dice[0] == event.dice[1]
        yield OpeningRoll(
            index,
            event.player,
            event.dice,
            winner=None if tie else after.on_roll,
            reroll=not tie and after.phase is Phase.ROLL,
            automatic_double=after.cube_value > before.cube_value,
            cube_value=after.cube_value,
            auto=event.auto,
        )
        if tie or after.dice is None:
            return
    assert after.dice is not None
    yield Rolled(
        index,
        after.on_roll,
        after.dice,
        after.position,
        _cube(game, after, after.on_roll),
        auto=event.auto,
        opening=before.phase is Phase.OPENING,
    )


def _offer_entry(
    game: Game, index: int, before: Moment[Position], after: Moment[Position]
) -> Entry | None:
    """The entry of an offer of the cube or of a resignation, or of its answer; None for the
    events that make none (a turn's single steps and their undos)."""
    events = game.events
    event = events[index]
    action, seat = event.action, event.player
    if action is Action.DOUBLE:
        assert after.offer is not None
        return Doubled(index, seat, after.offer.value, before.position, _cube(game, before, seat))
    if action is Action.BEAVER:
        assert after.offer is not None
        return Beavered(index, seat, after.offer.value)
    if action is Action.TAKE:
        assert after.cube_owner is not None
        return Taken(index, seat, after.cube_value, after.cube_owner)
    if action is Action.DROP:
        assert before.offer is not None
        return Dropped(index, seat, before.offer.value)
    if action is Action.RESIGN:
        assert event.level is not None
        answer = events[index + 1].action if index + 1 < len(events) else None
        accepted = None if answer is None else answer is Action.ACCEPT
        return ResignationOffered(
            index,
            seat,
            event.level,
            accepted,
            before.on_roll,
            before.position,
            _cube(game, before, before.on_roll),
        )
    if action is Action.ACCEPT:
        return ResignationAccepted(index, seat, _offered(events, index))
    if action is Action.REJECT:
        return ResignationRejected(index, seat, _offered(events, index))
    return None


def _offered(events: Sequence[Event], answer: int) -> WinKind:
    """The level of the resignation that event ``answer`` (an acceptance or a refusal)
    answers: the offer just before it, which the game waits on until it is answered."""
    offer = events[answer - 1]
    assert offer.action is Action.RESIGN and offer.level is not None
    return offer.level


def awaited(events: Sequence[Event], moments: Sequence[Moment[Any]], start: int = 0
            ) -> list[tuple[int, ...]]:
    """For each event of a record (from ``start`` on), the seats the game waited for just
    before it, from the game's ``moments`` before each
    (:meth:`Game.awaited_before <backgammon.game.Game.awaited_before>`)."""
    seats: list[tuple[int, ...]] = []
    resigner: int | None = None  # who offered the resignation that waits for its answer
    # Who threw their own opening die, while the other's is awaited (-1: nobody).
    thrower: int | None = None
    for index in range(start, len(events)):
        moment = moments[index]
        phase = moment.phase
        if phase is Phase.OPENING:
            if thrower is None:  # at ``start``: the opening's last throw or roll says
                thrower = next(
                    (events[back].player if events[back].action is Action.THROW else -1
                     for back in range(index - 1, -1, -1)
                     if events[back].action in (Action.THROW, Action.ROLL)),
                    -1,
                )
            seats.append((0, 1) if thrower < 0 else (1 - thrower,))
        elif phase is Phase.OVER:
            seats.append(())
        elif phase is Phase.CUBE:
            assert moment.offer is not None
            seats.append((moment.offer.decider,))
        elif phase is Phase.RESIGN:
            if resigner is None:  # offered before ``start``: the last offer made
                resigner = next(
                    events[back].player for back in range(index - 1, -1, -1)
                    if events[back].action is Action.RESIGN
                )
            seats.append((1 - resigner,))
        else:
            seats.append((moment.on_roll,))
        action = events[index].action
        if action is Action.RESIGN:
            resigner = events[index].player
        elif action is Action.THROW:
            thrower = events[index].player
        elif action is Action.ROLL:
            thrower = -1
    return seats
