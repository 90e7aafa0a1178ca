"""Accounts: a name, a password, a FIBS rating.

Accounts are optional: a guest plays under a name of the page's choosing, and only a match
between two accounts can be rated (:mod:`.ratings`). Passwords are kept as Argon2id hashes
(``argon2-cffi``'s :class:`~argon2.PasswordHasher`, with its default cost, RFC 9106's
second recommendation); a hash made with an older cost is redone at the next sign-in. A sign-in
under an unknown name verifies a hash all the same, so the time of the answer does not say
whether the name exists (the answer itself does not either: "the name or the password is
wrong"). Hashing is slow on purpose, and takes 64 MiB: it runs in a pool of its own, two
threads by default, so that a burst of sign-ins waits its turn instead of taking every thread
and the memory (:meth:`Accounts.sign_up`, :meth:`Accounts.sign_in`).

Names are 3 to 20 characters, ASCII letters, digits, ``-`` and ``_``, starting with a letter,
so that one cannot be made to look like another (``paul`` and ``раul``); they are unique
whatever their case. Names starting with ``guest`` are the guests'.

>>> check_name("alice_99")
'alice_99'
>>> check_name("9lives")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
backgammon.server.accounts.users.InvalidNameError: A name starts with a letter (a to z); ...
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Annotated

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import Depends, Request
from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ...errors import BackgammonError
from ...ratings import START_EXPERIENCE, START_RATING
from ..db import UserRow, now
from ..http.guards import BoundedPool

NAME_LENGTHS = (3, 20)
PASSWORD_LENGTHS = (8, 128)
#: The names kept for guests (:func:`guest_name`).
GUEST_PREFIX = "guest"
_NAME = re.compile(r"[A-Za-z0-9_-]*")
_GUEST = re.compile(GUEST_PREFIX + r"-[0-9a-f]{6}")


class AccountError(BackgammonError):
    """A sign-up or sign-in that is refused, with the sentence that says why."""


class InvalidNameError(AccountError):
    """A name that cannot be an account's."""


class InvalidPasswordError(AccountError):
    """A password too short, too long, or the same as the name."""


class NameTakenError(AccountError):
    """A sign-up under a name that an account already has."""


class WrongPasswordError(AccountError):
    """A sign-in whose name or password is wrong (it never says which)."""


@dataclass(frozen=True)
class Account:
    """An account as the rest of the server sees it: never its password's hash."""

    id: int
    name: str
    rating: float
    experience: int
    created_at: datetime
    #: Whether the player hid their page (:meth:`Accounts.hide`).
    hidden: bool = False

    @classmethod
    def of(cls, row: UserRow) -> Account:
        """The account of a ``users`` row."""
        return cls(row.id, row.name, row.rating, row.experience, row.created_at, row.hidden)


def check_name(name: str) -> str:
    """``name`` if it can be an account's; InvalidNameError with the rule it breaks if not.

    >>> check_name("Guest-12")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.server.accounts.users.InvalidNameError: Names starting with 'guest' are kept for ...
    >>> try:
    ...     check_name("al")
    ... except InvalidNameError as error:
    ...     print(error)
    A name is 3 to 20 characters long; this one has 2.
    """
    shortest, longest = NAME_LENGTHS
    if not shortest <= len(name) <= longest:
        raise InvalidNameError(
            f"A name is {shortest} to {longest} characters long; this one has {len(name)}."
        )
    if _NAME.fullmatch(name) is None:
        raise InvalidNameError(
            "A name holds only the letters a to z (either case), the digits 0 to 9, '-' "
            "and '_'."
        )
    if not ("a" <= name[0].lower() <= "z"):
        raise InvalidNameError(f"A name starts with a letter (a to z); {name!r} does not.")
    if name.lower().startswith(GUEST_PREFIX):
        raise InvalidNameError(
            f"Names starting with {GUEST_PREFIX!r} are kept for guests; choose another."
        )
    return name


def check_password(password: str, name: str) -> str:
    """``password`` if it may be one (NIST SP 800-63B: at least 8 characters, any characters,
    long ones allowed); InvalidPasswordError if not.

    >>> check_password("alice123", "Alice123")
    Traceback (most recent call last):
    ...
    backgammon.server.accounts.users.InvalidPasswordError: A password must not be the name.
    """
    shortest, longest = PASSWORD_LENGTHS
    if not shortest <= len(password) <= longest:
        raise InvalidPasswordError(
            f"A password is {shortest} to {longest} characters long; this one has "
            f"{len(password)}."
        )
    if password.lower() == name.lower():
        raise InvalidPasswordError("A password must not be the name.")
    return password


def _could_be_a_name(name: str) -> bool:
    """Whether an account may be called ``name`` (a look-up of anything else finds none)."""
    return NAME_LENGTHS[0] <= len(name) <= NAME_LENGTHS[1] and _NAME.fullmatch(name) is not None


def guest_name() -> str:
    """A name for a guest: ``guest-`` and six random hex digits, never an account's.

    >>> name = guest_name()
    >>> name.startswith("guest-"), len(name)
    (True, 12)
    """
    return f"{GUEST_PREFIX}-{secrets.token_hex(3)}"


def is_guest_name(name: str) -> bool:
    """Whether ``name`` is one :func:`guest_name` makes.

    >>> is_guest_name(guest_name()), is_guest_name("guest-<b>"), is_guest_name("alice")
    (True, False, False)
    """
    return _GUEST.fullmatch(name) is not None


class Accounts:
    """The accounts of one database, and the threads that hash their passwords."""

    def __init__(
        self, engine: Engine, hasher: PasswordHasher | None = None, workers: int = 2,
        queue: int = 8,
    ) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        # Bounded: a crowd of sign-ins answers 503 rather than making every one wait.
        self._pool = BoundedPool(
            workers, queue, "The server is busy signing other players in; try again in a "
            "moment.", name="password",
        )
        # The hash an unknown name is checked against (made when first needed).
        self._decoy: str | None = None

    async def sign_up(self, name: str, password: str) -> Account:
        """A new account, rated 1500 with no experience; InvalidNameError,
        InvalidPasswordError or NameTakenError if it cannot be made."""
        return await self._hashing(self.create, name, password)

    async def sign_in(self, name: str, password: str) -> Account:
        """The account ``name`` if ``password`` is its own; WrongPasswordError if not."""
        return await self._hashing(self.check, name, password)

    def close(self) -> None:
        """Let the hashing under way finish; take no more."""
        self._pool.close()

    async def _hashing(self, work: Callable[[str, str], Account], name: str, password: str
                       ) -> Account:
        return await self._pool.run(work, name, password)

    def create(self, name: str, password: str) -> Account:
        """:meth:`sign_up`, in the calling thread."""
        check_password(password, check_name(name))
        row = UserRow(
            name=name,
            name_key=name.lower(),
            password_hash=self.hasher.hash(password),
            rating=START_RATING,
            experience=START_EXPERIENCE,
            created_at=now(),
            hidden=False,
        )
        try:
            with Session(self.engine, expire_on_commit=False) as session, session.begin():
                session.add(row)
        except IntegrityError:  # the unique name_key: taken, perhaps a moment ago
            raise NameTakenError(f"The name {name!r} is taken; choose another.") from None
        return Account.of(row)

    def check(self, name: str, password: str) -> Account:
        """:meth:`sign_in`, in the calling thread."""
        row = None
        if _could_be_a_name(name):
            with Session(self.engine, expire_on_commit=False) as session:
                row = session.scalars(
                    select(UserRow).where(UserRow.name_key == name.lower())
                ).one_or_none()
        if row is None:
            self._verify(self._decoy_hash(), password)
            raise WrongPasswordError("The name or the password is wrong.")
        if not self._verify(row.password_hash, password):
            raise WrongPasswordError("The name or the password is wrong.")
        if self.hasher.check_needs_rehash(row.password_hash):
            with Session(self.engine) as session, session.begin():
                stored = session.get(UserRow, row.id)
                if stored is not None:
                    stored.password_hash = self.hasher.hash(password)
        return Account.of(row)

    def named(self, name: str) -> Account | None:
        """The account called ``name`` (in any case), or None (call in a worker thread)."""
        if not _could_be_a_name(name):
            return None
        with Session(self.engine) as session:
            row = session.scalars(
                select(UserRow).where(UserRow.name_key == name.lower())
            ).one_or_none()
            return None if row is None else Account.of(row)

    def hide(self, account: Account, hidden: bool) -> Account:
        """Hide ``account``'s page, or show it again (call in a worker thread)."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(UserRow).where(UserRow.id == account.id).values(hidden=hidden))
        return replace(account, hidden=hidden)

    def _verify(self, hashed: str, password: str) -> bool:
        try:
            return self.hasher.verify(hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    def _decoy_hash(self) -> str:
        if self._decoy is None:
            self._decoy = self.hasher.hash(secrets.token_hex(16))
        return self._decoy


def get_accounts(request: Request) -> Accounts:
    """The app's accounts (a dependency)."""
    accounts: Accounts = request.app.state.accounts
    return accounts


AccountsDep = Annotated[Accounts, Depends(get_accounts)]
