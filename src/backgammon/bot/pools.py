"""Worker processes for rollouts and labels: on this machine, or over a Ray cluster.

Both are a ``multiprocessing``-style pool (``imap_unordered``, an initializer run once in each
worker), so the work is cut and gathered the same way whichever runs it, and a rollout's result
depends on its seed alone: every trial is seeded by its index.

``ray`` is the address of a Ray cluster (``"auto"``: the one this machine belongs to; an
``IP:port``; ``"local"``: a Ray instance started here, as one machine's test of the cluster
path). Ray is the optional extra ``backgammon[cluster]``; every worker imports this package, so
each machine of the cluster must have it installed, as Ray's runtime environments allow.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from ..errors import BackgammonError


class Pool(Protocol):
    """What the callers use of a pool of workers."""

    def imap(self, func: Callable[[Any], Any], iterable: Iterable[Any]) -> Iterator[Any]:
        """``func`` of each item, in the items' order."""
        ...

    def imap_unordered(self, func: Callable[[Any], Any], iterable: Iterable[Any]) -> Iterator[Any]:
        """``func`` of each item, in the order they finish."""
        ...

    def __enter__(self) -> Pool: ...

    def __exit__(self, *exc: Any) -> Any: ...


class ClusterError(BackgammonError):
    """Ray is missing, or its cluster cannot be reached."""


def worker_pool(
    workers: int | None, initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (), ray: str | None = None,
) -> Pool:
    """A pool of ``workers`` processes (None: one a core, of this machine or of the cluster),
    each set up by ``initializer(*initargs)`` where given: forked from this process where the system
    forks (the workers inherit the compiled kernel), or actors of the Ray cluster at ``ray``."""
    if ray is None:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else None)
        return context.Pool(workers, initializer, initargs)
    _connect(ray)  # first: it says what to install where Ray is missing
    from ray.util.multiprocessing import Pool as RayPool

    return RayPool(workers, initializer, initargs)


def cluster_cpus(ray: str | None) -> int | None:
    """The CPUs of the Ray cluster at ``ray`` (None without one)."""
    if ray is None:
        return None
    _connect(ray)
    import ray as ray_module

    return int(ray_module.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]


def _connect(address: str) -> None:
    """Join the cluster at ``address`` once a process (``"local"``: start one here); a
    :class:`ClusterError` that says what to install where Ray is missing."""
    try:
        import ray
    except ModuleNotFoundError:
        raise ClusterError(
            "Working on a Ray cluster needs Ray: pip install 'backgammon[cluster]'."
        ) from None

    if ray.is_initialized():
        return
    try:
        ray.init(address=None if address == "local" else address, include_dashboard=False,
                 log_to_driver=False)
    except ConnectionError:
        raise ClusterError("No Ray cluster answers at the address given.") from None
