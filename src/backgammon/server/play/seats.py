"""Who may act for each seat of a match: seat tokens, the invite to an online match, and when
an absent player's game may be claimed.

Every match gives its creator a secret token (:func:`new_secret`, from :mod:`secrets`); the
database keeps only its SHA-256 digest, beside the seats it holds. At one screen one token
holds both seats; against the computer, the person's; in an online match the creator's seat,
and the invite, spent by the first who joins with it, gives the other seat a token of its own.

>>> token = "s3cret"
>>> seating = Seating([Key(digest_of(token), frozenset({0}))], online=True)
>>> seating.holds(token), seating.holds("guess")
(frozenset({0}), None)
>>> Seating.from_dict(seating.to_dict()) == seating
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from ...game.clock import TimeControl

#: Bytes of randomness in a token or an invite (32 characters of URL-safe text).
SECRET_BYTES = 24
#: The longest token or invite read from a request.
SECRET_LENGTH = 64


def new_secret() -> str:
    """A fresh, unguessable token or invite."""
    return secrets.token_urlsafe(SECRET_BYTES)


def rematch_token(token: str, match_id: str) -> str:
    """The token that holds, in the rematch of match ``match_id``, the seats ``token`` holds
    in that match: made from it (HMAC-SHA-256), so that only whoever holds ``token`` has it,
    and its holder may ask for it again at any time (a page reloaded, another process).

    >>> rematch_token("abc", "m1") == rematch_token("abc", "m1") != rematch_token("abc", "m2")
    True
    >>> len(rematch_token("abc", "m1"))
    32
    """
    made = hmac.new(token.encode("utf-8", "replace"), f"rematch of {match_id}".encode(),
                    hashlib.sha256).digest()
    return base64.urlsafe_b64encode(made[:SECRET_BYTES]).decode("ascii")


def digest_of(secret: str) -> str:
    """The SHA-256 digest of a token or invite, as hex: what the database keeps.

    >>> digest_of("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class Key:
    """A token's digest and the seats it holds."""

    digest: str
    seats: frozenset[int]


@dataclass(frozen=True)
class Invite:
    """The open invite to an online match: its digest, the seat it gives, and, for a match
    listed in the lobby, the invite itself (public by the creator's choice)."""

    digest: str
    seat: int
    public: str | None = None


@dataclass
class Seating:
    """The keys of a match's seats, whether it is played online (and as a practice match),
    its open invite (None once spent, or for a match that has none), and the seconds the game
    waits for an absent online player before the other may claim (:func:`claimable_from`)."""

    keys: list[Key] = field(default_factory=list)
    online: bool = False
    invite: Invite | None = None
    claim_seconds: float = 0.0
    #: The digest of the invite once spent, so that its reuse is told apart from a guess.
    spent: str | None = None
    #: A match saved before seats had tokens (when whoever knew its id could act in it): it
    #: holds no key, and the first who asks takes its seats (:meth:`taken`).
    unheld: bool = False
    #: Whether the creator listed the match in the lobby, kept once its invite is spent:
    #: only such a match is offered to spectators among the live matches (:mod:`.lobby`).
    public: bool = False
    #: An online practice match: both players may ask the engine for hints and analyses
    #: while it is played. Fixed when the match is made, never rated: the creator chose it
    #: and the joiner, told before taking the seat (the invite's preview, the lobby), agreed
    #: by joining, so neither can turn it on against the other.
    practice: bool = False
    #: The match's time control (None: no clock; :mod:`backgammon.game.clock`). With one,
    #: a seat out of time loses (:func:`backgammon.game.clock.time_out`) and no claim is
    #: made by hand; without one, the claim after ``claim_seconds`` stays.
    clock: TimeControl | None = None

    def joined(self, token: str) -> Seating:
        """The seating once the open invite is spent: ``token`` holds the seat it gave.

        >>> listed = Seating(invite=Invite("d1g3st", 1, "public"), online=True)
        >>> private = Seating(invite=Invite("d1g3st", 1), online=True)
        >>> listed.joined("t").public, private.joined("t").public
        (True, False)
        """
        assert self.invite is not None
        key = Key(digest_of(token), frozenset({self.invite.seat}))
        return replace(self, keys=[*self.keys, key], invite=None, spent=self.invite.digest,
                       public=self.invite.public is not None)

    def taken(self, token: str, seats: frozenset[int]) -> Seating:
        """The seating of an unheld match once ``token`` has taken its ``seats``.

        >>> Seating(unheld=True).taken("t", frozenset({0})).holds("t")
        frozenset({0})
        """
        assert self.unheld
        return replace(self, keys=[Key(digest_of(token), seats)], unheld=False)

    def columns(self) -> dict[str, Any]:
        """What the matches table keeps of the seating in indexed columns of its own, for
        the invites and the lobby: the invite's digest (the spent one's once spent), whether
        it is open, and whether the lobby lists the match (open, and public).

        >>> Seating(invite=Invite("d1g3st", 1, "public")).columns()
        {'invite_digest': 'd1g3st', 'waiting': True, 'listed': True}
        >>> Seating(spent="d1g3st").columns()
        {'invite_digest': 'd1g3st', 'waiting': False, 'listed': False}
        """
        invite = self.invite
        return {
            "invite_digest": self.spent if invite is None else invite.digest,
            "waiting": invite is not None,
            "listed": invite is not None and invite.public is not None,
        }

    def holds(self, token: str) -> frozenset[int] | None:
        """The seats ``token`` holds; None when it is none of this match's tokens. Every key
        is compared, in constant time, so the answer's timing tells nothing."""
        wanted = digest_of(token)
        held: frozenset[int] | None = None
        for key in self.keys:
            if hmac.compare_digest(key.digest, wanted):
                held = key.seats
        return held

    def to_dict(self) -> dict[str, Any]:
        """The seating as plain JSON values, for the match's settings."""
        invite = self.invite
        return {
            "keys": [{"digest": key.digest, "seats": sorted(key.seats)} for key in self.keys],
            "online": self.online,
            "invite": None
            if invite is None
            else {"digest": invite.digest, "seat": invite.seat, "public": invite.public},
            "claim_seconds": self.claim_seconds,
            "spent": self.spent,
            "unheld": self.unheld,
            "public": self.public,
            "practice": self.practice,
            "clock": None if self.clock is None else self.clock.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seating:
        """A seating from :meth:`to_dict` (a match saved before seats had tokens is given an
        unheld seating by the migration 0004)."""
        invite = data.get("invite")
        return cls(
            keys=[Key(key["digest"], frozenset(key["seats"])) for key in data.get("keys", [])],
            online=bool(data.get("online", False)),
            invite=None
            if invite is None
            else Invite(invite["digest"], invite["seat"], invite.get("public")),
            claim_seconds=float(data.get("claim_seconds", 0.0)),
            spent=data.get("spent"),
            unheld=bool(data.get("unheld", False)),
            public=bool(data.get("public", False)),
            practice=bool(data.get("practice", False)),
            clock=None if data.get("clock") is None else TimeControl.from_dict(data["clock"]),
        )


def claimable_from(waiting_since: datetime, claim_seconds: float) -> datetime:
    """When a game that has waited for a seat since ``waiting_since`` may be claimed.

    >>> from datetime import UTC
    >>> claimable_from(datetime(2026, 1, 1, tzinfo=UTC), 90).isoformat()
    '2026-01-01T00:01:30+00:00'
    """
    return waiting_since + timedelta(seconds=claim_seconds)
