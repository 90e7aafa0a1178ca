"""GNU Backgammon's Position ID: 80 bits of checker counts in 14 base64 characters.

The key lists, for the player *not* on roll and then for the player on roll, the checkers on
each of their points 1..24 and on the bar: each count as that many 1-bits followed by a 0-bit.
Bit ``k`` of the key is bit ``k % 8`` of byte ``k // 8``; the ten bytes are written in base64
without padding (gnubg's ``PositionID``).

>>> encode_position_id(*decode_position_id("4HPwATDgc/ABMA"))
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import base64
import binascii
import re

from .errors import InvalidIdError

_BASE64 = re.compile(r"[A-Za-z0-9+/]*")

# One side's checkers as gnubg counts them: points 1..24, then the bar.
Counts = tuple[int, ...]


def encode_position_id(on_roll: Counts, opponent: Counts) -> str:
    """The Position ID of two sides, each given as 25 counts (points 1..24, then the bar)."""
    key = 0
    bit = 0
    for side in (opponent, on_roll):
        for count in side:
            key |= ((1 << count) - 1) << bit
            bit += count + 1
    return base64.b64encode(key.to_bytes(10, "little")).decode("ascii")[:14]


def decode_key(text: object, characters: int, name: str) -> int:
    """The little-endian number that ``characters`` of unpadded base64 spell, as gnubg writes
    its Position and Match IDs; InvalidIdError naming ``name`` if ``text`` is not that."""
    stripped = text.strip() if isinstance(text, str) else None
    if stripped is None or len(stripped) != characters or not _BASE64.fullmatch(stripped):
        raise InvalidIdError(
            f"{text!r} is not a {name}: it must be {characters} characters of A-Z, a-z, 0-9, "
            "+ and /."
        )
    padding = "=" * (-characters % 4)
    try:
        raw = base64.b64decode(stripped + padding, validate=True)
    except binascii.Error as exc:  # pragma: no cover - the pattern already excludes this
        raise InvalidIdError(f"{text!r} is not valid base64.") from exc
    return int.from_bytes(raw, "little")


def decode_position_id(position_id: str) -> tuple[Counts, Counts]:
    """The two sides of a Position ID: (player on roll, opponent), 25 counts each.

    >>> decode_position_id("4HPwATDgc/ABMA")[0][5]
    5
    >>> decode_position_id("not an id")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidIdError: 'not an id' is not a Position ID: it must be 14 characters...
    """
    key = decode_key(position_id, 14, "Position ID")
    text = position_id.strip()
    sides: list[Counts] = []
    for who in ("opponent", "player on roll"):
        counts = []
        for _ in range(25):
            count = 0
            while key & 1:
                count += 1
                key >>= 1
            key >>= 1
            counts.append(count)
        total = sum(counts)
        if total > 15:
            raise InvalidIdError(
                f"Position ID {text!r} gives the {who} {total} checkers; a side has at most 15."
            )
        sides.append(tuple(counts))
    opponent, on_roll = sides
    return on_roll, opponent
