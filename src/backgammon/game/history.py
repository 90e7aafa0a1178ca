"""One typed walk over a game's record, for every reader of it (the server's record view, the
``.mat`` writer, the terminal, the analysis), as python-chess's one PGN visitor serves many,
in backgammon and in the other games on its board alike.

:meth:`Game.history() <backgammon.game.Game.history>` and :meth:`BoardGame.history()
<backgammon.game.BoardGame.history>` yield one frozen entry for each thing that happened, in
order. The entries that carry a board are generic over it (``P``: backgammon's
:class:`~backgammon.Position` or the other games' :class:`~backgammon.games.Board`), and a
turn's entry over its play too (``X``: :class:`~backgammon.Play` or
:class:`~backgammon.games.GamePlay`): ``Entry[Position, Play]`` is backgammon's
(:data:`GameEntry`), and ``Entry[Board, GamePlay]``, with Acey-deucey's :class:`DoubleNamed`,
the other games' (:data:`BoardEntry`). Every entry has ``index``, the place in ``game.events``
of the event that made it, and ``seat``, the seat that made it (for :class:`GameEnded`, the
winner). What the rules decided (who won the opening roll, the cube after a tie or a take, the
points) is read from the game's own state before and after each event, never worked out again
here.

The entries: :class:`OpeningRoll` (each roll of the opening, ties included), :class:`Rolled`
(the dice a player is to play: a roll, or the opening roll's dice for its winner),
:class:`TurnPlayed` (the play of a roll, the empty play for a roll with no move),
:class:`Doubled`, :class:`Beavered`, :class:`Taken`, :class:`Dropped`,
:class:`ResignationOffered`, :class:`ResignationAccepted`, :class:`ResignationRejected`,
:class:`DoubleNamed` (Acey-deucey: the double named after a 1-2, to play at once) and
:class:`GameEnded` (its :class:`EndReason` says Plakoto's mother and draw too). A play that
pins (Plakoto) says so (:attr:`TurnPlayed.pins`), apart from one that hits. A turn's single
steps and their undos make no entry: the turn is its play.

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

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, TypeAlias, overload

from ..cube import CubeContext
from ..dice import Dice
from ..games import Board, GamePlay, LoneChecker
from ..moves import Play, Step
from ..position import Position, WinKind
from ..turns import dice_of_steps
from .boards import P, X
from .rules import Action, Offer, Phase, cube_context_for

if TYPE_CHECKING:
    from .machine import Machine
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
class Rolled(Generic[P]):
    """The dice ``seat`` is to play, from ``position`` (their view) with the ``cube`` as
    they see it: a roll of theirs (``auto``: rolled for them in a race), or, ``opening``,
    the opening roll's two dice for its winner (high die first). ``cube`` is None only for a
    game of a match made without its match score."""

    index: int
    seat: int
    dice: Dice
    position: P
    cube: CubeContext | None
    auto: bool = False
    opening: bool = False



@dataclass(frozen=True)
class TurnPlayed(Generic[P, X]):
    """``seat``'s turn with ``dice``: the ``play`` (no steps: no checker could move), made
    from ``position`` (the mover's view, the play's own) with the ``cube`` as the mover saw
    it. ``auto``: the game made it (a forced play with ``auto_forced``, or a roll with no
    move). ``lone_checker`` is what landing on a lone opposing checker did in this game: a
    step marked ``hit`` sent it to the bar, or, in Plakoto, pinned it (:attr:`hits`,
    :attr:`pins`)."""

    index: int
    seat: int
    dice: Dice
    position: P
    play: X
    cube: CubeContext | None
    auto: bool = False
    lone_checker: LoneChecker = LoneChecker.HIT

    @property
    def forced(self: TurnPlayed[Position, Play]) -> bool:
        """Whether the roll left no choice: one legal play, or none (backgammon's)."""
        return len(self.position.legal_plays(self.dice)) <= 1

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The die each step of ``play.steps`` used, in order."""
        return dice_of_steps(self.dice, self.play.steps)

    @property
    def hits(self) -> tuple[Step, ...]:
        """The steps that sent a lone opposing checker to the bar."""
        if self.lone_checker is not LoneChecker.HIT:
            return ()
        return tuple(step for step in self.play.steps if step.hit)

    @property
    def pins(self) -> tuple[Step, ...]:
        """The steps that pinned a lone opposing checker where it stood (Plakoto)."""
        if self.lone_checker is not LoneChecker.PIN:
            return ()
        return tuple(step for step in self.play.steps if step.hit)


@dataclass(frozen=True)
class Doubled(Generic[P]):
    """``seat`` doubled, offering the cube at ``value``, from ``position`` (their view) with
    the ``cube`` as they saw it before doubling."""

    index: int
    seat: int
    value: int
    position: P
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
class ResignationOffered(Generic[P]):
    """``seat`` offered to resign at ``level``; ``accepted`` says what became of it (None:
    no answer yet). ``on_roll`` is the player on roll at the offer (the resigner or not),
    ``position`` the board from their side and ``cube`` the cube as they saw it: what the
    offer is judged on, a take just before it included."""

    index: int
    seat: int
    level: WinKind
    accepted: bool | None
    on_roll: int
    position: P
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
class DoubleNamed:
    """Acey-deucey: ``seat``, having played a 1-2, named the double ``die``-``die``, which
    they play now (then they roll again)."""

    index: int
    seat: int
    die: int

    @property
    def dice(self) -> Dice:
        """The dice the named double gives to play."""
        return (self.die, self.die)


class EndReason(StrEnum):
    """Why a game ended."""

    BEAR_OFF = "bear off"  # the winner bore off their last checker
    DROP = "drop"  # the loser refused the cube
    RESIGN = "resign"  # the loser's resignation was accepted
    CLAIM = "claim"  # the other side had left (or, with a clock, ran out of time)
    MOTHER = "mother"  # Plakoto: the loser's last checker on its starting point was pinned
    DRAW = "draw"  # Plakoto: both mothers pinned; nobody won


@dataclass(frozen=True)
class GameEnded:
    """The game's end: ``winner`` won ``kind`` for ``points``, by ``reason``; ``index`` is
    the event that ended it. A Plakoto draw (:attr:`drawn`) scores nothing, and its
    ``winner`` is the player who made its last move."""

    index: int
    winner: int
    kind: WinKind
    points: int
    reason: EndReason

    @property
    def seat(self) -> int:
        """The winner."""
        return self.winner

    @property
    def drawn(self) -> bool:
        """Whether nobody won (Plakoto's both mothers pinned)."""
        return self.reason is EndReason.DRAW


#: An entry of the history of any game on boards of type ``P`` played with plays ``X``.
Entry: TypeAlias = (
    OpeningRoll
    | Rolled[P]
    | TurnPlayed[P, X]
    | Doubled[P]
    | Beavered
    | Taken
    | Dropped
    | ResignationOffered[P]
    | ResignationAccepted
    | ResignationRejected
    | GameEnded
)
#: An entry of backgammon's history (:meth:`Game.history <backgammon.game.Game.history>`).
GameEntry: TypeAlias = Entry[Position, Play]
#: An entry of the other games' (:meth:`BoardGame.history
#: <backgammon.game.BoardGame.history>`): Acey-deucey's named double is theirs alone.
BoardEntry: TypeAlias = Entry[Board, GamePlay] | DoubleNamed


#: The actions that end a turn, each with its entry in the game's ``plays``.
_PLAYED = frozenset({Action.PLAY, Action.PASS, Action.CONFIRM})


@overload
def walk(
    game: Machine[Position],
    moments: Sequence[Moment[Position]],
    plays: Sequence[tuple[int, Dice, Play | None]],
    empty: Callable[[Position], Play],
    start: int = 0,
) -> Iterator[GameEntry]: ...
@overload
def walk(
    game: Machine[Board],
    moments: Sequence[Moment[Board]],
    plays: Sequence[tuple[int, Dice, GamePlay | None]],
    empty: Callable[[Board], GamePlay],
    start: int = 0,
) -> Iterator[BoardEntry]: ...
def walk(
    game: Machine[P],
    moments: Sequence[Moment[P]],
    plays: Sequence[tuple[int, Dice, X | None]],
    empty: Callable[[P], X],
    start: int = 0,
) -> Iterator[Entry[P, X] | DoubleNamed]:
    """The entries of ``game``'s record; ``moments[i]`` is the state before event ``i``, and
    the last one the state now. ``plays`` are the game's plays (``game.plays``, typed as the
    game has them; None for a roll with no move, whose play ``empty`` makes from the board).
    From ``start`` on, only the entries of events ``start`` and later (each entry depends
    only on its own event and the moments around it, so a record shown so far is extended,
    not rebuilt)."""
    events = game.events
    lone_checker = game.rules.game_rules.lone_checker
    # ``plays`` has an entry for each event that ended a turn: those from ``start`` on are
    # its last ones (counted from the end: a record's changes are its last few events).
    later = sum(event.action in _PLAYED for event in events[start:])
    made = iter(plays[len(plays) - later :])
    for index in range(start, len(events)):
        event = events[index]
        before, after = moments[index], moments[index + 1]
        if event.action is Action.ROLL:
            yield from _roll_entries(game, index, event, before, after)
        elif event.action in _PLAYED:
            mover, dice, play = next(made)
            yield TurnPlayed(
                index,
                mover,
                dice,
                before.position,
                play if play is not None else empty(before.position),
                _cube(game, before, mover),
                auto=event.auto,
                lone_checker=lone_checker,
            )
        elif event.action is Action.NAME:  # Acey-deucey's alone (backgammon refuses it)
            assert event.die is not None
            yield DoubleNamed(index, event.player, event.die)
        else:
            entry = _offer_entry(game, index, before, after)
            if entry is not None:
                yield entry
    result = game.result
    if result is not None and (start == 0 or start < len(events)):
        yield GameEnded(len(events) - 1, result.winner, result.kind, result.points,
                        EndReason(result.reason))


def _cube(game: Machine[P], moment: Moment[P], seat: int) -> CubeContext | None:
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
    game: Machine[P], index: int, event: Event, before: Moment[P], after: Moment[P]
) -> Iterator[OpeningRoll | Rolled[P]]:
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
    game: Machine[P], index: int, before: Moment[P], after: Moment[P]
) -> Doubled[P] | Beavered | Taken | Dropped | ResignationOffered[P] | ResignationAccepted \
        | ResignationRejected | None:
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
