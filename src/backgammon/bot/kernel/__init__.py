"""The compiled kernel: move generation, encoding, evaluation, n-ply values, self-play and
rollout trials compiled with numba, for the bot's hot loops.

The rules core (:mod:`backgammon.moves`) and the numpy networks stay the readable reference;
the kernel is tested to give the same results (tests/bot/test_kernel.py). The first call of each
compiled function compiles it (some seconds) and caches the machine code in ``__pycache__``,
so later runs load it at once; the cache is dropped first when any kernel source changed
(:mod:`._stale`: numba checks only each function's own file).
"""

from ._stale import KERNEL, drop_stale_cache, sources_digest

drop_stale_cache(KERNEL / "__pycache__", sources_digest())

from .api import (  # noqa: E402 (after the stale cache is dropped)
    Boards,
    Kernel,
    KernelError,
    SelfPlayResult,
    board_of,
    boards_of,
    encoder,
    legal_results,
    legal_results_batch,
    position_of,
)

__all__ = [
    "Boards",
    "Kernel",
    "KernelError",
    "SelfPlayResult",
    "board_of",
    "boards_of",
    "encoder",
    "legal_results",
    "legal_results_batch",
    "position_of",
]
