"""The typed errors of the package.

Every error a user can cause by bad input is a subclass of :class:`BackgammonError`, which is
itself a :class:`ValueError`, so callers may catch either. Each carries a sentence a person
understands; none is an assertion.
"""

from __future__ import annotations


class BackgammonError(ValueError):
    """Base class of every error caused by bad input.

    ``code`` names the refusal, where a program words it in its own language (the position
    editor's page, in five): None where none is named.

    >>> BackgammonError("Both sides are all off.", code="all_off").code
    'all_off'
    """

    def __init__(self, *args: object, code: str | None = None) -> None:
        super().__init__(*args)
        self.code = code


class InvalidPositionError(BackgammonError):
    """A position that cannot exist: counts out of range, too many checkers, shared points."""


class InvalidIdError(BackgammonError):
    """A malformed position or match identifier (gnubg Position ID, Match ID, XGID)."""


class InvalidDiceError(BackgammonError):
    """Dice that are not two numbers from 1 to 6."""


class IllegalPlayError(BackgammonError):
    """A play, or a step of one, that the rules do not allow for this position and roll.

    ``legal`` holds the legal plays in notation, so an interface can show them.
    """

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.legal = legal
