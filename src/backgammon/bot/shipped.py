"""The evaluator the package ships: its trained networks and its bearoff table.

The networks are read from ``backgammon/bot/weights/td.npz`` (a checkpoint of ``backgammon
train``, loaded with :mod:`importlib.resources`), or, when the environment variable
``BACKGAMMON_WEIGHTS`` names a file, from that file: a developer can try a checkpoint such as
``data/training/checkpoint.npz`` without copying it into the package.

>>> evaluator = shipped_evaluator()
>>> evaluator is shipped_evaluator()      # loaded once
True
"""

from __future__ import annotations

import functools
import os
from importlib import resources

from ..errors import BackgammonError
from .bearoff import BearoffEvaluator
from .evaluator import NetworkEvaluator

#: The file of the shipped networks, in ``backgammon/bot/weights``.
WEIGHTS = "td.npz"
#: The environment variable that names another file of networks.
WEIGHTS_VARIABLE = "BACKGAMMON_WEIGHTS"


class MissingWeightsError(BackgammonError):
    """The package has no trained networks and none were named."""


def load_shipped_networks() -> NetworkEvaluator:
    """The contact and race networks (and the crashed network where the file has one): the
    file ``BACKGAMMON_WEIGHTS`` names, else the package's own."""
    named = os.environ.get(WEIGHTS_VARIABLE)
    if named:
        if not os.path.isfile(named):
            raise MissingWeightsError(f"{WEIGHTS_VARIABLE} names {named!r}, which is no file.")
        return NetworkEvaluator.load(named)
    resource = resources.files("backgammon.bot") / "weights" / WEIGHTS
    if not resource.is_file():
        raise MissingWeightsError(
            f"The package has no trained networks (backgammon/bot/weights/{WEIGHTS}). Train "
            f"them with `backgammon train`, then copy data/training/checkpoint.npz there or "
            f"set {WEIGHTS_VARIABLE}=data/training/checkpoint.npz."
        )
    with resources.as_file(resource) as path:
        return NetworkEvaluator.load(path)


@functools.cache
def shipped_evaluator() -> BearoffEvaluator:
    """The networks with exact bear-offs from the table, loaded on first use and shared."""
    return BearoffEvaluator(load_shipped_networks())
