"""Dropping the kernel's compiled cache when any of its sources changed.

numba's ``cache=True`` checks only the source file of the function it loads, not those of the
compiled functions it calls: after an update that changes ``evaluate.py`` alone, ``deep.py``'s
cached machine code would go on running the old evaluation (it did, once, in this project).
The same goes for the tables of ``encoding.py``, ``contact_inputs.py`` and ``bearoff.py``
that numba compiles in as constants. So the kernel keeps a digest of all those sources beside
its cache, and clears the cache when the digest differs, before any kernel module is compiled
or loaded.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     cache = Path(folder)
...     _ = (cache / "deep.values-87.py311.nbi").write_bytes(b"old")
...     drop_stale_cache(cache, "digest-1")
...     drop_stale_cache(cache, "digest-1")
...     sorted(path.name for path in cache.iterdir())
1
0
['kernel-sources.sha256']
"""

from __future__ import annotations

import hashlib
from pathlib import Path

#: The folder of the kernel's sources; numba caches next to them, in ``__pycache__``.
KERNEL = Path(__file__).resolve().parent
#: The bot's modules whose tables the kernel compiles in as constants.
READ_BY_KERNEL = ("encoding.py", "contact_inputs.py", "bearoff.py")
STAMP = "kernel-sources.sha256"


def sources_digest(folder: Path = KERNEL) -> str:
    """SHA-256 of the kernel's Python sources and of the bot modules it reads tables from."""
    digest = hashlib.sha256()
    sources = sorted(folder.glob("*.py")) + [folder.parent / name for name in READ_BY_KERNEL]
    for source in sources:
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()


def drop_stale_cache(cache: Path, digest: str) -> int:
    """Delete numba's cached files in ``cache`` unless its stamp says ``digest``; then stamp
    it. Returns how many files were deleted. A folder that cannot be written is left alone
    (numba then caches elsewhere, and an install writes every source anew, which numba does
    notice)."""
    stamp = cache / STAMP
    try:
        if stamp.read_text(encoding="ascii") == digest:
            return 0
    except OSError:
        pass
    dropped = 0
    try:
        cache.mkdir(exist_ok=True)
        for cached in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            cached.unlink()
            dropped += 1
        stamp.write_text(digest, encoding="ascii")
    except OSError:
        pass
    return dropped
