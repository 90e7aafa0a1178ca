"""Two versions of the server measured at once: ``bench/server/server.py`` run on a git revision
and on the working tree together, each with its own players, so that both meet the same
machine.

    .venv/bin/python bench/server/side_by_side.py [--runs 2] REVISION [-- OPTIONS FOR server.py]

On a shared virtual machine the CPU an action costs moves by a tenth or more from one minute
to the next, more than most changes: two runs one after the other compare the minutes as
much as the code. Here each run starts both at once (the revision's checkout in a temporary
git worktree, with its own ``bench/server/server.py``, so that each is served as its version
deploys it) and prints their figure lines and the ratio of their server CPU a request.
The options after ``--`` go to both (default: ``--online --players 250 --think 2 --seconds 60
--ramp 10``: half of the usual 500 players each).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
DEFAULT = ["--online", "--players", "250", "--think", "2", "--seconds", "60", "--ramp", "10"]


def cpu_of(line: str) -> float:
    """The server CPU a request (ms) of ``server.py``'s last line.

    >>> cpu_of("server players=250 rps=64 p50_ms=2.9 p99_ms=6.9 cpu_ms=1.91 lost=0 doubled=0")
    1.91
    """
    found = re.search(r"cpu_ms=([0-9.]+)", line)
    if found is None:
        raise SystemExit(f"bench/server/server.py printed no figures: {line!r}")
    return float(found[1])


def start(checkout: Path, options: list[str]) -> subprocess.Popen[str]:
    """``bench/server/server.py`` of ``checkout`` serving its own code, with ``options``."""
    environ = dict(os.environ, PYTHONPATH=str(checkout / "src"))
    # bench/server/server.py since the benches were grouped by area, bench/server/server.py before.
    script = checkout / "bench" / "server" / "server.py"
    if not script.exists():
        script = checkout / "bench" / "server.py"
    return subprocess.Popen(
        [sys.executable, str(script), *options],
        cwd=checkout, env=environ, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def last_line(process: subprocess.Popen[str]) -> str:
    output, _ = process.communicate()
    if process.returncode:
        raise SystemExit(f"bench/server/server.py failed ({process.returncode}):\n{output}")
    return output.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("revision", help="the git revision to measure beside the working tree")
    parser.add_argument("--runs", type=int, default=2, help="runs of both at once")
    parser.add_argument("options", nargs="*", help="options for bench/server/server.py, after --")
    arguments = parser.parse_args()
    options = arguments.options or DEFAULT
    with tempfile.TemporaryDirectory(prefix="side-by-side-") as folder:
        other = Path(folder) / "checkout"
        subprocess.run(["git", "worktree", "add", "--detach", str(other), arguments.revision],
                       cwd=HERE, check=True, capture_output=True)
        try:
            for run in range(1, arguments.runs + 1):
                theirs, ours = start(other, options), start(HERE, options)
                before, after = last_line(theirs), last_line(ours)
                print(f"run {run}: {arguments.revision}: {before}")
                print(f"run {run}: working tree: {after}")
                print(f"run {run}: working tree / {arguments.revision}, server CPU a request: "
                      f"{cpu_of(after) / cpu_of(before):.3f}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=HERE,
                           check=False, capture_output=True)


if __name__ == "__main__":
    main()
