"""The engine kernel: move generation, encoding, evaluation, n-ply values, self-play and
rollout trials compiled with numba, for the bot's hot loops.

The rules core (:mod:`backgammon.moves`) and the numpy networks stay the readable reference;
the kernel is tested to give the same results (tests/bot/test_kernel.py). The first call of each
compiled function compiles it (some seconds) and caches the machine code in ``__pycache__``,
so later runs load it at once.
"""

from .engine import (
    Boards,
    Engine,
    KernelError,
    SelfPlayResult,
    board_of,
    boards_of,
    legal_results,
    legal_results_batch,
    position_of,
)

__all__ = [
    "Boards",
    "Engine",
    "KernelError",
    "SelfPlayResult",
    "board_of",
    "boards_of",
    "legal_results",
    "legal_results_batch",
    "position_of",
]
