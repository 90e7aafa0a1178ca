"""Provably fair dice: rolls anyone can recompute once the game is over.

Before a game's first roll the server draws a secret *server seed* (32 random bytes) and
publishes its *commitment*, the SHA-256 of those bytes. Each player may add a *seed* of their
own before the first roll. Every roll is then derived from the server seed, the two players'
seeds and the roll's number by HMAC-SHA256, and when the game ends the server seed is revealed:
anyone can check that it hashes to the commitment and recompute every roll.

The derivation (docs/guide/online.md, "Provably fair dice", says the same for other programs):

- the key is the server seed's 32 bytes; the message is the ASCII text
  ``"{seed 0}:{seed 1}:{roll}:{block}"``: seat 0's seed and seat 1's (empty when none), the
  roll's number in the game (1 for the first roll, the opening roll, ties included) and the
  block (0, then 1, 2, ... while more bytes are needed), numbers in decimal;
- the bytes of the HMAC are read in order; a byte ``b`` of 252 or more is skipped (252 is
  7 x 36, so the bytes kept give each of the 36 rolls exactly 7 ways); the first byte kept
  gives ``k = b % 36`` and the dice ``(k // 6 + 1, k % 6 + 1)``. When all 32 bytes are
  skipped, the next block's HMAC is read the same way;
- the two dice are in the record's order: for the opening roll seat 0's die, then seat 1's
  (equal dice are a tie, a roll of its own, and the next roll has the next number).

>>> seed = bytes(range(32))
>>> commitment_of(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> [derive_roll(seed, ("alice", ""), number) for number in (1, 2, 3)]
[(1, 1), (4, 1), (4, 4)]
>>> dice = FairDice(seed)
>>> dice.add_seed(0, "alice")
>>> dice.roll(), dice.roll(), dice.drawn
((1, 1), (4, 1), 2)
>>> dice.add_seed(1, "bob")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon.fairdice.FairDiceError: The dice of this game have been rolled: a seed may be ...
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Sequence
from typing import Any

from .dice import Dice
from .errors import BackgammonError

#: The name of the derivation, written in records so that a later one can be told apart.
SCHEME = "hmac-sha256-v1"
#: The server seed's length in bytes.
SEED_BYTES = 32
#: Bytes from this value up are skipped: 252 = 7 x 36, so each roll has 7 of the bytes kept.
_LIMIT = 252
#: What a player's seed may hold: letters, digits, ".", "_" and "-", at most 64 of them (so
#: the ":" between the parts of the message cannot occur inside one).
_PLAYER_SEED = re.compile(r"[A-Za-z0-9._-]{0,64}")
_HEX = re.compile(r"[0-9a-f]{64}")


class FairDiceError(BackgammonError):
    """Fair dice used or recorded wrongly: a bad seed, a seed too late, a secret not held."""


def commitment_of(server_seed: bytes) -> str:
    """The commitment published before the first roll: SHA-256 of the seed, in hex."""
    return hashlib.sha256(server_seed).hexdigest()


def check_player_seed(seed: object) -> str:
    """A player's seed if it is one (up to 64 letters, digits, ``.``, ``_``, ``-``); else
    :class:`FairDiceError` saying why.

    >>> check_player_seed("lucky-7")
    'lucky-7'
    >>> check_player_seed("a:b")
    Traceback (most recent call last):
    ...
    backgammon.fairdice.FairDiceError: A player's seed is up to 64 letters, digits, '.', '_' or '-'.
    """
    if not isinstance(seed, str) or _PLAYER_SEED.fullmatch(seed) is None:
        raise FairDiceError("A player's seed is up to 64 letters, digits, '.', '_' or '-'.")
    return seed


def dice_of_bytes(data: bytes) -> Dice | None:
    """The roll the first byte below 252 gives, or None when every byte is 252 or more.

    >>> dice_of_bytes(bytes([255, 252, 0])), dice_of_bytes(bytes([35])), dice_of_bytes(bytes([251]))
    ((1, 1), (6, 6), (6, 6))
    >>> dice_of_bytes(bytes([252, 253]))
    """
    for byte in data:
        if byte < _LIMIT:
            outcome = byte % 36
            return (outcome // 6 + 1, outcome % 6 + 1)
    return None


def _block(server_seed: bytes, seeds: tuple[str, str], number: int, block: int) -> bytes:
    message = f"{seeds[0]}:{seeds[1]}:{number}:{block}".encode("ascii")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def derive_roll(server_seed: bytes, seeds: tuple[str, str], number: int) -> Dice:
    """Roll ``number`` (1 for a game's first) from the seeds, as the module's docstring says."""
    if number < 1:
        raise FairDiceError(f"Rolls are numbered from 1; got {number}.")
    block = 0
    while True:
        dice = dice_of_bytes(_block(server_seed, seeds, number, block))
        if dice is not None:
            return dice
        block += 1


def parse_server_seed(text: object) -> bytes:
    """A revealed server seed from its 64 lowercase hex digits, or :class:`FairDiceError`."""
    if not isinstance(text, str) or _HEX.fullmatch(text) is None:
        raise FairDiceError("A server seed is 64 lowercase hexadecimal digits (32 bytes).")
    return bytes.fromhex(text)


class FairDice:
    """The fair dice of one game: a dice source whose rolls are derived from a server seed
    (secret until the game ends; a new random one unless given) and the players' seeds.

    ``drawn`` counts the rolls drawn; :meth:`resume` sets the next roll's number (a game sets
    it to its record's count before each roll, so the numbers are the rolls' places in the
    record whatever was drawn and never recorded).
    """

    def __init__(
        self,
        server_seed: bytes | None = None,
        seeds: tuple[str, str] = ("", ""),
        *,
        commitment: str | None = None,
    ) -> None:
        """``commitment`` alone (no ``server_seed``): dice read from a record whose seed is
        not revealed, which can say what was committed but cannot roll."""
        if server_seed is None and commitment is None:
            server_seed = secrets.token_bytes(SEED_BYTES)
        if server_seed is not None:
            if len(server_seed) != SEED_BYTES:
                raise FairDiceError(f"A server seed is {SEED_BYTES} bytes.")
            if commitment is not None and commitment != commitment_of(server_seed):
                raise FairDiceError("The server seed does not hash to the commitment.")
            commitment = commitment_of(server_seed)
        assert commitment is not None
        if _HEX.fullmatch(commitment) is None:
            raise FairDiceError("A commitment is 64 lowercase hexadecimal digits (SHA-256).")
        self._server_seed = server_seed
        self.commitment = commitment
        self.seeds = (check_player_seed(seeds[0]), check_player_seed(seeds[1]))
        self.drawn = 0

    def add_seed(self, seat: int, seed: str) -> None:
        """Set ``seat``'s seed (replacing theirs), before the game's first roll only."""
        if self.drawn:
            raise FairDiceError(
                "The dice of this game have been rolled: a seed may be added only before "
                "its first roll."
            )
        if seat not in (0, 1):
            raise FairDiceError(f"A seat is 0 or 1; got {seat!r}.")
        seeds = list(self.seeds)
        seeds[seat] = check_player_seed(seed)
        self.seeds = (seeds[0], seeds[1])

    def roll(self) -> Dice:
        roll = self.peek()
        self.drawn += 1
        return roll

    def peek(self) -> Dice:
        """The next roll, number ``drawn + 1``, left to be drawn."""
        if self._server_seed is None:
            raise FairDiceError(
                "These dice were read from a record that does not reveal the server seed, "
                "so they cannot roll."
            )
        return derive_roll(self._server_seed, self.seeds, self.drawn + 1)

    def resume(self, rolls_drawn: int) -> None:
        """Go on as if ``rolls_drawn`` rolls had been drawn: the next is number
        ``rolls_drawn + 1``."""
        self.drawn = rolls_drawn

    def to_dict(self, *, reveal: bool) -> dict[str, Any]:
        """The dice as a record keeps them; the server seed only when ``reveal`` (the game
        is over, or the record is the server's own)."""
        data: dict[str, Any] = {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "seeds": list(self.seeds),
        }
        if reveal and self._server_seed is not None:
            data["server_seed"] = self._server_seed.hex()
        return data

    @classmethod
    def from_dict(cls, data: object) -> FairDice:
        """Dice from :meth:`to_dict`, with a clear error for what is malformed."""
        if not isinstance(data, dict):
            raise FairDiceError("A record's fair dice are a JSON object.")
        if data.get("scheme") != SCHEME:
            raise FairDiceError(
                f"These dice were rolled by the scheme {data.get('scheme')!r}; this program "
                f"knows {SCHEME!r}."
            )
        seeds = data.get("seeds")
        if not (isinstance(seeds, list) and len(seeds) == 2):
            raise FairDiceError("A record's fair dice name two players' seeds.")
        revealed = data.get("server_seed")
        return cls(
            None if revealed is None else parse_server_seed(revealed),
            (seeds[0], seeds[1]),
            commitment=data.get("commitment") if isinstance(data.get("commitment"), str) else "",
        )


class FairMatchDice:
    """The fair dice of a match: one :class:`FairDice` a game, each with its own server seed
    (revealed at that game's end). A game's dice start with the previous game's players'
    seeds, which each player may change before the game's first roll.

    >>> dice = FairMatchDice()
    >>> first = dice.for_game(0)
    >>> first.add_seed(1, "mine")
    >>> second = dice.for_game(1)
    >>> second.seeds, second.commitment != first.commitment, dice.for_game(0) is first
    (('', 'mine'), True, True)
    """

    def __init__(self, games: Sequence[FairDice] = ()) -> None:
        self.games = list(games)

    def for_game(self, index: int) -> FairDice:
        """The dice of game ``index`` (0-based), made when first asked for."""
        while len(self.games) <= index:
            seeds = self.games[-1].seeds if self.games else ("", "")
            self.games.append(FairDice(seeds=seeds))
        return self.games[index]
