"""Check a record's fair dice: every roll recomputed from the revealed seeds.

A record (a match's, as ``Match.to_dict()`` and the server's ``/api/matches/{id}/record``
give it, or one game's, as ``Game.to_dict()``) keeps each game's fair dice: the commitment,
the players' seeds and, once the game is over, the server seed. :func:`verify_dice` checks
that the server seed hashes to the commitment and that each roll of the record is the roll
the derivation (:mod:`backgammon.fairdice`) gives for its number; the record is not replayed
through the rules, so a roll changed by hand is named even where the moves after it no longer
fit it.

>>> from backgammon.fairdice import FairDice
>>> from backgammon.game import Game
>>> game = Game(dice=FairDice(bytes(range(32))))
>>> game.roll(0)
>>> game.resign(game.on_roll)
>>> game.accept(1 - game.on_roll)
>>> report = verify_dice(game.to_dict())
>>> report.ok, report.games[0].rolls
(True, 1)
>>> print(report.text())
Game 1: 1 roll, all as derived; the server seed hashes to the commitment.
  server seed 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
  commitment  630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd
  seeds       '' (seat 0), '' (seat 1)
Every roll matches the seeds: 1 roll in 1 game.
>>> record = game.to_dict()
>>> record["events"][0]["dice"] = [6, 5]
>>> print(verify_dice(record).text())  # doctest: +ELLIPSIS
Game 1: roll 1 differs: recorded 6-5, derived 1-5.
  server seed 0001...
The dice do not match the seeds: 1 roll differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..dice import Dice
from ..errors import BackgammonError
from ..fairdice import FairDice, FairDiceError, commitment_of, derive_roll, parse_server_seed
from .record import SCHEMA_VERSION, Event
from .rules import Action


class NotARecordError(FairDiceError):
    """What was given is not a saved match or game."""


class NoFairDiceError(FairDiceError):
    """The record's dice were not rolled by the fair scheme (secure, seeded or physical)."""


class UnrevealedSeedError(FairDiceError):
    """No game of the record has revealed its server seed yet, so nothing can be checked."""


@dataclass(frozen=True)
class Mismatch:
    """A roll of the record that is not the one the seeds give."""

    game: int  #: the game's number, from 1
    roll: int  #: the roll's number in its game, from 1 (the opening roll is 1)
    recorded: Dice
    derived: Dice

    def text(self) -> str:
        """The difference in words.

        >>> Mismatch(2, 5, (6, 4), (3, 1)).text()
        'roll 5 differs: recorded 6-4, derived 3-1'
        """
        return (
            f"roll {self.roll} differs: recorded {_dice(self.recorded)}, "
            f"derived {_dice(self.derived)}"
        )


@dataclass(frozen=True)
class GameCheck:
    """One game's dice: whether its seed is revealed and keeps its commitment, and which
    of its rolls differ from the derivation."""

    game: int
    rolls: int
    commitment: str
    seeds: tuple[str, str]
    server_seed: str | None  #: None while the game is not over
    commitment_kept: bool
    mismatches: tuple[Mismatch, ...]
    #: The seats whose seed in the dice is not the one their seed events gave.
    seeds_replaced: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        """Revealed, true to its commitment, the players' own seeds used, and every roll as
        derived."""
        return (self.server_seed is not None and self.commitment_kept and not self.mismatches
                and not self.seeds_replaced)

    def seeds_text(self) -> str:
        """The seeds the rolls are derived from, as a person checks them by hand."""
        return (f"  server seed {self.server_seed or '(not revealed)'}\n"
                f"  commitment  {self.commitment}\n"
                f"  seeds       {self.seeds[0]!r} (seat 0), {self.seeds[1]!r} (seat 1)")

    def text(self) -> str:
        """The check in one line."""
        rolls = _count(self.rolls, "roll")
        if self.server_seed is None:
            return (
                f"Game {self.game}: not over, so its server seed is not revealed yet "
                f"({rolls} so far, not checked)."
            )
        if not self.commitment_kept:
            return (
                f"Game {self.game}: the revealed server seed does not hash to the commitment "
                "published before the first roll."
            )
        if self.seeds_replaced:
            seats = " and ".join(f"seat {seat}" for seat in self.seeds_replaced)
            return (
                f"Game {self.game}: the dice use another seed for {seats} than the one the "
                "player gave in the record."
            )
        if self.mismatches:
            first, more = self.mismatches[0], len(self.mismatches) - 1
            others = f" (and {_count(more, 'other roll')})" if more else ""
            return f"Game {self.game}: {first.text()}{others}."
        return (
            f"Game {self.game}: {rolls}, all as derived; the server seed hashes to the "
            "commitment."
        )

    def to_dict(self) -> dict[str, Any]:
        """The check as plain JSON values."""
        return {
            "game": self.game,
            "rolls": self.rolls,
            "commitment": self.commitment,
            "seeds": list(self.seeds),
            "server_seed": self.server_seed,
            "commitment_kept": self.commitment_kept,
            "seeds_replaced": list(self.seeds_replaced),
            "ok": self.ok,
            "mismatches": [
                {
                    "roll": each.roll,
                    "recorded": list(each.recorded),
                    "derived": list(each.derived),
                }
                for each in self.mismatches
            ],
        }


@dataclass(frozen=True)
class DiceReport:
    """The check of every game of a record."""

    games: tuple[GameCheck, ...]

    @property
    def checked(self) -> tuple[GameCheck, ...]:
        """The games whose server seed is revealed."""
        return tuple(game for game in self.games if game.server_seed is not None)

    @property
    def ok(self) -> bool:
        """Whether every revealed game keeps its commitment and every roll of it matches."""
        return all(game.ok for game in self.checked)

    def text(self) -> str:
        """Two lines a game (the verdict, the seeds), then the verdict of the whole."""
        lines = [line for game in self.games for line in (game.text(), game.seeds_text())]
        checked = self.checked
        if self.ok:
            rolls = sum(game.rolls for game in checked)
            lines.append(
                f"Every roll matches the seeds: {_count(rolls, 'roll')} in "
                f"{_count(len(checked), 'game')}."
            )
        else:
            differ = sum(len(game.mismatches) for game in checked)
            broken = sum(not game.commitment_kept for game in checked)
            replaced = sum(bool(game.seeds_replaced) for game in checked)
            reasons = [f"{_count(differ, 'roll')} {'differs' if differ == 1 else 'differ'}"]
            if replaced:
                reasons.insert(0, f"{_count(replaced, 'game')} replaced a player's seed")
            if broken:
                reasons.insert(0, f"{_count(broken, 'game')} broke its commitment")
            lines.append(f"The dice do not match the seeds: {', '.join(reasons)}.")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values."""
        return {"ok": self.ok, "games": [game.to_dict() for game in self.games]}


def verify_dice(data: object) -> DiceReport:
    """Check the fair dice of a record (a match's or a game's, as plain JSON values); a
    typed error (:class:`NotARecordError`, :class:`NoFairDiceError`,
    :class:`UnrevealedSeedError`, :class:`~backgammon.fairdice.FairDiceError`) where that
    cannot be done."""
    games, dice = _games_and_dice(data)
    # A match's first game starts from no seeds, and each next game from the seeds the one
    # before ended with; a game's record alone does not say what it started from.
    whole_match = isinstance(data, dict) and "games" in data
    carried: list[str | None] = ["", ""] if whole_match else [None, None]
    checks = []
    for number, (events, kept) in enumerate(zip(games, dice, strict=True), start=1):
        check = _check_game(number, events, kept, carried)
        checks.append(check)
        carried = list(check.seeds)
    report = DiceReport(tuple(checks))
    if not report.checked:
        raise UnrevealedSeedError(
            "No game of this record is over, so no server seed is revealed yet: check the "
            "dice once a game has ended."
        )
    return report


def _games_and_dice(data: object) -> tuple[list[Sequence[Any]], list[Any]]:
    """Each game's events and its fair dice, from a match record or a game record."""
    if not isinstance(data, dict) or data.get("schema") != SCHEMA_VERSION:
        if isinstance(data, dict) and "record" in data and "version" in data:
            raise NotARecordError(
                "This is a match's state, not its record: fetch /api/matches/<id>/record."
            )
        raise NotARecordError(
            f"This is not a saved match or game (a JSON object of schema {SCHEMA_VERSION})."
        )
    if "games" in data:
        games, dice = data["games"], data.get("dice")
    elif "events" in data:
        games, dice = [data["events"]], None if data.get("dice") is None else [data["dice"]]
    else:
        raise NotARecordError("This saved record holds neither games nor events.")
    if dice is None:
        raise NoFairDiceError(
            "This record's dice were not rolled by the provably fair scheme (they were "
            "secure, seeded or physical dice), so there is nothing to verify."
        )
    if not (isinstance(games, list) and isinstance(dice, list) and len(games) == len(dice)):
        raise NotARecordError("The record does not hold one set of fair dice a game.")
    return games, dice


def _check_game(number: int, events: object, kept: object, carried: list[str | None]
                ) -> GameCheck:
    """Game ``number``'s check; ``carried``: each seat's seed as the game began (None: not
    known), which its seed events change."""
    where = f"game {number}"
    try:
        # Read without the server seed, which may break the commitment: that is reported.
        hidden = {**kept, "server_seed": None} if isinstance(kept, dict) else kept
        dice = FairDice.from_dict(hidden)
        revealed = kept.get("server_seed") if isinstance(kept, dict) else None
        seed = None if revealed is None else parse_server_seed(revealed)
    except FairDiceError as exc:
        raise type(exc)(f"The dice of {where}: {exc}") from exc
    rolls, given = _rolls_and_seeds(events, where)
    expected = [given.get(seat, carried[seat]) for seat in (0, 1)]
    replaced = tuple(seat for seat in (0, 1)
                     if expected[seat] is not None and expected[seat] != dice.seeds[seat])
    if seed is None:
        return GameCheck(number, len(rolls), dice.commitment, dice.seeds, None, False, (),
                         replaced)
    kept_promise = commitment_of(seed) == dice.commitment
    mismatches = tuple(
        Mismatch(number, roll, recorded, derive_roll(seed, dice.seeds, roll))
        for roll, recorded in enumerate(rolls, start=1)
        if derive_roll(seed, dice.seeds, roll) != recorded
    )
    return GameCheck(
        number, len(rolls), dice.commitment, dice.seeds, seed.hex(), kept_promise, mismatches,
        replaced,
    )


def _rolls_and_seeds(events: object, where: str) -> tuple[list[Dice], dict[int, str]]:
    """The dice of each roll of a game's events, in order, and the last seed each seat gave
    in them."""
    if not isinstance(events, list):
        raise NotARecordError(f"The record of {where} is not a list of events.")
    rolls = []
    seeds: dict[int, str] = {}
    for index, data in enumerate(events, start=1):
        try:
            event = Event.from_dict(data)
        except BackgammonError as exc:
            raise NotARecordError(f"Event {index} of {where}: {exc}") from exc
        if event.action is Action.ROLL:
            if event.dice is None:
                raise NotARecordError(f"Event {index} of {where} is a roll without its dice.")
            rolls.append(event.dice)
        elif event.action is Action.SEED and event.seed is not None:
            seeds[event.player] = event.seed
    return rolls, seeds


def _dice(dice: Dice) -> str:
    return f"{dice[0]}-{dice[1]}"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
