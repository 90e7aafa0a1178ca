"""A small numpy network: inputs, one sigmoid hidden layer, five sigmoid outputs.

The outputs are the five probabilities of :class:`~backgammon.bot.probabilities.Probabilities`
for the player on roll: win, win gammon, win backgammon, lose gammon, lose backgammon.

Training is by gradient steps towards soft targets (:meth:`Network.fit`), with the gradient of
the cross-entropy of each output, which for a sigmoid output is simply ``target - output`` at
its input: it does not fade where an output saturates, as the squared error's does. TD(lambda)
over one game (:func:`lambda_returns`, :meth:`Network.td_update`) is the forward view of
offline TD(lambda): the weights change once, at the end of the sequence, by the sum of the
per-step changes that eligibility traces would accumulate over the game.

>>> net = Network.create(inputs=3, hidden=4, seed=1)
>>> net.forward(np.zeros((2, 3), dtype=np.float32)).shape
(2, 5)
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from .probabilities import EQUITY_WEIGHTS

Array = NDArray[np.float32]

OUTPUTS = 5
_EQUITY = np.array(EQUITY_WEIGHTS, dtype=np.float32)
# flip_outputs: the other player's win is 1 - win, and the gammon pairs swap.
_FLIP_ORDER = np.array([0, 3, 4, 1, 2])
_FLIP_SIGN = np.array([-1, 1, 1, 1, 1], dtype=np.float32)
_FLIP_SHIFT = np.array([1, 0, 0, 0, 0], dtype=np.float32)


def equities(outputs: Array, weights: Array | None = None) -> Array:
    """Cubeless money equity of each row of outputs ``(n, 5)``; or, with ``weights`` (as
    :func:`~backgammon.bot.met.play_weights` gives them), the equity at a match
    score, in the same units."""
    result: Array = outputs @ (_EQUITY if weights is None else weights) - np.float32(1.0)
    return result


def flip_outputs(outputs: Array) -> Array:
    """Outputs ``(..., 5)`` as the other player sees them."""
    result: Array = outputs[..., _FLIP_ORDER] * _FLIP_SIGN + _FLIP_SHIFT
    return result


def lambda_returns(values: Array, final: Array, lam: float) -> Array:
    """TD(lambda) targets for a game's states, each seen by its player on roll.

    ``values`` ``(T, 5)`` are the evaluations of states ``s_0 .. s_{T-1}``, where the players
    alternate: the player on roll in ``s_{t+1}`` is the one not on roll in ``s_t``. ``final``
    ``(5,)`` is the exact value of the state after ``s_{T-1}`` (the game's end), seen by its
    player on roll. The target of ``s_t`` is ``(1 - lam) * V(s_{t+1}) + lam * G_{t+1}``, turned
    round to the player on roll in ``s_t``; with ``lam = 0`` it is the next value (TD(0)), with
    ``lam = 1`` the game's result.
    """
    targets = np.empty_like(values)
    ahead = final.astype(np.float32)
    for t in range(len(values) - 1, -1, -1):
        targets[t] = flip_outputs(ahead)
        ahead = (1.0 - lam) * values[t] + lam * targets[t]
    return targets


class Network:
    """Weights of a one-hidden-layer network, float32; forward and training on batches."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array) -> None:
        if w1.shape[1] != b1.shape[0] or w2.shape != (b1.shape[0], OUTPUTS):
            raise ValueError(
                f"Inconsistent shapes: w1 {w1.shape}, b1 {b1.shape}, w2 {w2.shape}, b2 {b2.shape}"
            )
        self.w1 = np.ascontiguousarray(w1, dtype=np.float32)
        self.b1 = np.ascontiguousarray(b1, dtype=np.float32)
        self.w2 = np.ascontiguousarray(w2, dtype=np.float32)
        self.b2 = np.ascontiguousarray(b2, dtype=np.float32)

    @classmethod
    def create(cls, inputs: int, hidden: int, seed: int | None = None) -> Network:
        """A network with small random weights (a seed makes them reproducible)."""
        rng = np.random.default_rng(seed)
        # About as many inputs are active as a position has occupied points, so this scale
        # keeps the hidden units away from saturation at the start.
        w1 = rng.normal(0.0, 0.1, (inputs, hidden)).astype(np.float32)
        w2 = rng.normal(0.0, 0.1, (hidden, OUTPUTS)).astype(np.float32)
        return cls(w1, np.zeros(hidden, np.float32), w2, np.zeros(OUTPUTS, np.float32))

    @property
    def inputs(self) -> int:
        """How many inputs the network takes."""
        return int(self.w1.shape[0])

    @property
    def hidden(self) -> int:
        """How many hidden units it has."""
        return int(self.w1.shape[1])

    def forward(self, x: Array) -> Array:
        """The five outputs of each row of ``x`` ``(n, inputs)``: ``(n, 5)``."""
        return self._forward(x)[1]

    def _forward(self, x: Array) -> tuple[Array, Array]:
        hidden = _sigmoid(x @ self.w1 + self.b1)
        return hidden, _sigmoid(hidden @ self.w2 + self.b2)

    def fit(self, x: Array, targets: Array, learning_rate: float) -> float:
        """One gradient step of the summed cross-entropy towards ``targets`` ``(n, 5)``;
        returns the mean squared error of the outputs before the step."""
        hidden, outputs = self._forward(x)
        delta_out = (targets - outputs).astype(np.float32)
        delta_hidden = (delta_out @ self.w2.T) * hidden * (1.0 - hidden)
        rate = np.float32(learning_rate)
        self.w2 += rate * (hidden.T @ delta_out)
        self.b2 += rate * delta_out.sum(axis=0)
        self.w1 += rate * (x.T @ delta_hidden)
        self.b1 += rate * delta_hidden.sum(axis=0)
        return float(np.mean(delta_out**2))

    def td_update(self, x: Array, final: Array, lam: float, learning_rate: float) -> float:
        """TD(lambda) on one game of states ``x`` ``(T, inputs)`` (players alternating, see
        :func:`lambda_returns`) ending in the exact value ``final``; returns the mean squared
        error before the update."""
        targets = lambda_returns(self.forward(x), final, lam)
        return self.fit(x, targets, learning_rate)

    # Saving

    def arrays(self, prefix: str = "") -> dict[str, Array]:
        """The weights by name, for :func:`numpy.savez` (``prefix`` keeps several apart)."""
        return {f"{prefix}w1": self.w1, f"{prefix}b1": self.b1,
                f"{prefix}w2": self.w2, f"{prefix}b2": self.b2}

    @classmethod
    def from_arrays(cls, arrays: Any, prefix: str = "") -> Network:
        """The network saved by :meth:`arrays` under ``prefix`` (a mapping or an npz file)."""
        return cls(*(np.asarray(arrays[f"{prefix}{name}"]) for name in ("w1", "b1", "w2", "b2")))

    def copy(self) -> Network:
        """An independent copy of the weights."""
        return Network(self.w1.copy(), self.b1.copy(), self.w2.copy(), self.b2.copy())

    def save(self, path: str | os.PathLike[str], meta: dict[str, Any] | None = None) -> None:
        """Write the weights (and ``meta``, as JSON) to a compressed ``.npz`` file."""
        save_networks(path, {"": self}, meta)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Network:
        """The network written by :meth:`save`."""
        with np.load(path, allow_pickle=False) as data:
            return cls.from_arrays(data)


def save_networks(
    path: str | os.PathLike[str], networks: dict[str, Network], meta: dict[str, Any] | None = None
) -> None:
    """Write several networks (by name) and ``meta`` to one compressed ``.npz`` file.

    The file is written beside its destination and then renamed, so that a reader, or a run
    stopped half-way, never sees half a file.
    """
    target = Path(path)
    arrays: dict[str, Any] = {}
    for name, network in networks.items():
        arrays.update(network.arrays(f"{name}/" if name else ""))
    arrays["meta"] = np.array(json.dumps(meta or {}))
    partial = target.with_name(target.name + ".partial")
    with partial.open("wb") as file:
        np.savez_compressed(file, **arrays)
    os.replace(partial, target)


def load_networks(
    path: str | os.PathLike[str], names: tuple[str, ...], optional: tuple[str, ...] = ()
) -> tuple[dict[str, Network], dict[str, Any]]:
    """The networks named ``names``, those named ``optional`` that the file has, and the meta
    data (empty where the file has none) in a file of :func:`save_networks`."""
    with np.load(path, allow_pickle=False) as data:
        present = names + tuple(name for name in optional if f"{name}/w1" in data.files)
        networks = {name: Network.from_arrays(data, f"{name}/") for name in present}
        meta: dict[str, Any] = json.loads(str(data["meta"])) if "meta" in data.files else {}
    return networks, meta


def _sigmoid(x: Array) -> Array:
    # Clipping keeps exp from overflowing (and warning) on extreme inputs.
    result: Array = np.float32(1.0) / (np.float32(1.0) + np.exp(-np.clip(x, _LOW, _HIGH)))
    return result


_LOW, _HIGH = np.float32(-40.0), np.float32(40.0)
