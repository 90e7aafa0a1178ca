"""Evaluators: what gives a position its five probabilities, for the player on roll.

An :class:`Evaluator` is a small protocol (as wildbg's is), so that search and play work with
any of them: :class:`NetworkEvaluator` (a contact and a race network with their encodings) or
:class:`FakeEvaluator` (a cheap pip-count formula, for fast tests). Positions where the game is
over get their exact value, whatever the evaluator.

>>> from backgammon import Position
>>> FakeEvaluator().evaluate(Position.initial()).win
0.5
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
from numpy.typing import NDArray

from ..position import Position
from .contact_inputs import contact_encoder
from .encoding import Board, boards, either_crashed, encode_race, is_race
from .network import OUTPUTS, Array, Network, load_networks
from .probabilities import Probabilities

if TYPE_CHECKING:
    from .bearoff import BearoffTable
    from .kernel.api import Kernel


class Evaluator(Protocol):
    """Gives positions their probabilities (:class:`Probabilities` order) for the player on
    roll."""

    def evaluate(self, position: Position) -> Probabilities:
        """The probabilities of one position."""
        ...

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        """The probabilities of many positions at once, as rows of an ``(n, 5)`` array."""
        ...


class BoardEvaluator(Evaluator, Protocol):
    """An evaluator that also takes a batch as count arrays (:func:`encoding.boards`), so
    that a caller that has them already need not build them again."""

    def evaluate_boards(self, mine: Board, theirs: Board) -> Array:
        """The probabilities of the rows of ``mine`` and ``theirs``: ``(n, 5)``."""
        ...


def terminal_values(mine: Board, theirs: Board) -> tuple[NDArray[np.bool_], Array]:
    """Which rows are finished games, and the exact outputs of those rows (zeros elsewhere).

    RULES.md, Winning and scoring: the loser pays a gammon with no checker borne off, and a
    backgammon with one still on the bar or in the winner's home board as well.
    """
    checkers = mine.sum(axis=1, dtype=np.int64)
    won = mine[:, 0] == checkers
    lost = theirs[:, 0] == checkers
    values = np.zeros((len(mine), OUTPUTS), dtype=np.float32)
    values[:, 0] = won
    values[:, 1] = won & (theirs[:, 0] == 0)
    values[:, 2] = values[:, 1] * (theirs[:, 19:26].sum(axis=1) > 0)
    values[:, 3] = lost & (mine[:, 0] == 0)
    values[:, 4] = values[:, 3] * (mine[:, 19:26].sum(axis=1) > 0)
    return won | lost, values


class NetworkEvaluator:
    """The networks' evaluation: a race network where no contact is left, a crashed network
    (if given) in the positions GNU Backgammon calls crashed (:func:`~.encoding.is_crashed`),
    the contact network elsewhere, exact values where the game is over. A network's number of
    inputs says which contact encoding it reads (:func:`~.contact_inputs.contact_encoder`)."""

    def __init__(self, contact: Network, race: Network, crashed: Network | None = None) -> None:
        self.contact = contact
        self.race = race
        self.crashed = crashed
        # A width no encoding has fails here, not in play.
        contact_encoder(contact.inputs)
        if crashed is not None:
            contact_encoder(crashed.inputs)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> NetworkEvaluator:
        """The networks of a file of :func:`~.network.save_networks`: ``contact`` and
        ``race``, and ``crashed`` where the file has one."""
        return cls.load_with_meta(path)[0]

    @classmethod
    def load_with_meta(
        cls, path: str | os.PathLike[str]
    ) -> tuple[NetworkEvaluator, dict[str, Any]]:
        """:meth:`load`, and the file's meta data."""
        networks, meta = load_networks(path, ("contact", "race"), optional=("crashed",))
        return cls(networks["contact"], networks["race"], networks.get("crashed")), meta

    def networks(self) -> dict[str, Network]:
        """The networks by the names :meth:`load` reads, for
        :func:`~.network.save_networks`: ``contact``, ``race`` and ``crashed`` where there is
        one."""
        networks = {"contact": self.contact, "race": self.race}
        if self.crashed is not None:
            networks["crashed"] = self.crashed
        return networks

    def kernel(self, table: BearoffTable | None = None) -> Kernel:
        """The compiled kernel of these networks (with the bearoff ``table`` where given).
        Built afresh at each call, which costs nothing, so that it sees the weights a trainer
        has changed in place or replaced."""
        from .kernel.api import Kernel  # the kernel is built on this module's evaluators

        return Kernel(self.contact, self.race, table, self.crashed)

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.from_values(self.evaluate_batch([position])[0])

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        mine, theirs = boards(positions)
        return self.evaluate_boards(mine, theirs)

    def evaluate_boards(self, mine: Board, theirs: Board) -> Array:
        """The outputs of a batch given as count arrays (see :func:`encoding.boards`), from
        the compiled kernel, as every search and rollout computes them."""
        return self.kernel().evaluate(np.stack((mine, theirs), axis=1))

    def reference_boards(self, mine: Board, theirs: Board) -> Array:
        """:meth:`evaluate_boards` in numpy, step by step: the readable reference the tests
        hold the kernel to (tests/bot/test_kernel.py), used by nothing in play."""
        over, values = terminal_values(mine, theirs)
        race = is_race(mine, theirs) & ~over
        contact = ~(race | over)
        if self.crashed is not None:
            crashed = contact & either_crashed(mine, theirs)  # contact: no race, no end
            if crashed.any():
                contact &= ~crashed
                encode_crashed = contact_encoder(self.crashed.inputs)
                values[crashed] = self.crashed.forward(
                    encode_crashed(mine[crashed], theirs[crashed])
                )
        encode_contact = contact_encoder(self.contact.inputs)
        if contact.all():
            return self.contact.forward(encode_contact(mine, theirs))
        if race.any():
            values[race] = self.race.forward(encode_race(mine[race], theirs[race]))
        if contact.any():
            values[contact] = self.contact.forward(encode_contact(mine[contact], theirs[contact]))
        return values


class FakeEvaluator:
    """A cheap, deterministic evaluator for tests: the winning chance from the pip counts
    alone (no gammons), exact where the game is over."""

    def evaluate(self, position: Position) -> Probabilities:
        return Probabilities.from_values(self.evaluate_batch([position])[0])

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        return self.evaluate_boards(*boards(positions))

    def evaluate_boards(self, mine: Board, theirs: Board) -> Array:
        """The outputs of a batch given as count arrays (see :func:`encoding.boards`)."""
        over, values = terminal_values(mine, theirs)
        pips = np.arange(26)
        mine_pips, theirs_pips = mine @ pips, theirs @ pips
        # A lead of a tenth of the pips still to go is worth most of a game.
        lead = (theirs_pips - mine_pips) / (0.05 * (mine_pips + theirs_pips) + 1.0)
        win = (1.0 / (1.0 + np.exp(-lead))).astype(np.float32)
        values[~over, 0] = win[~over]
        return values
