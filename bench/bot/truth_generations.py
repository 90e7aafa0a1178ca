"""The truth set's verdict on every network the bot has had: each shipped version of the
networks file (from git), each generation of rollout-label training, and the later refits tried,
their 0-ply cubeless equity error against the truth set by class.

    .venv/bin/python bench/bot/truth_generations.py [--truth data/truth]
        [--svg docs/lab/truth-by-generation.svg]

Printed: a Markdown table (RMS error in equity with the truth's own variance subtracted, by
class, as ``backgammon truth report`` gives it; bear-offs are the table's, 0 for all). With
``--svg``, the same figures drawn as lines by class over the networks in order. Networks not
found (a clone without ``data/generations``) are left out.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from backgammon.training import truth

WEIGHTS = "src/backgammon/bot/weights/td.npz"
SHOWN = ("contact", "crashed", "backgame", "race", "all")
COLOURS = {"contact": "#1f77b4", "crashed": "#d62728", "backgame": "#9467bd",
           "race": "#2ca02c", "all": "#000000"}


def shipped_versions(folder: Path) -> list[tuple[str, Path]]:
    """Each version of the shipped networks file that git holds, oldest first, written to
    ``folder``: (its label, its path)."""
    log = subprocess.run(["git", "log", "--reverse", "--format=%h %cs", "--", WEIGHTS],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    versions = []
    for line in filter(None, log):
        commit, day = line.split()
        path = folder / f"shipped-{commit}.npz"
        blob = subprocess.run(["git", "show", f"{commit}:{WEIGHTS}"], capture_output=True,
                              check=True).stdout
        path.write_bytes(blob)
        versions.append((f"shipped {day} ({commit})", path))
    return versions


def networks(folder: Path) -> list[tuple[str, Path]]:
    """The networks judged, in the order they were made: the shipped versions, with the
    rollout-label generations after the fourth (the TD networks they started from, their
    generation 0), then the refits that were tried and not shipped."""
    shipped = shipped_versions(folder)
    generations = [(f"generation {int(path.stem.split('-')[1])}", path)
                   for path in sorted(Path("data/generations").glob("nets-*.npz"))][1:]
    refits = [(f"refit {path.stem} (not shipped)", path)
              for path in sorted(Path("data/refit").glob("*.npz"))]
    return shipped[:4] + generations + shipped[4:] + refits


def svg(rows: list[tuple[str, dict[str, float]]]) -> str:
    """The errors as one line a class over the networks, a plain SVG figure."""
    width, height, left, bottom, top = 760, 380, 60, 60, 20
    highest = max(value for _, errors in rows for value in errors.values())
    scale = (height - bottom - top) / highest
    step = (width - left - 20) / max(len(rows) - 1, 1)

    def point(index: int, value: float) -> str:
        return f"{left + index * step:.1f},{height - bottom - value * scale:.1f}"

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="sans-serif" font-size="11">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<text x="{left}" y="14">0-ply equity error against the truth set (RMS), '
             f'by class, network by network</text>']
    for tick in range(0, int(highest * 100) + 1, 2):
        y = height - bottom - tick / 100 * scale
        parts.append(f'<line x1="{left}" x2="{width - 20}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="#ddd"/><text x="{left - 34}" y="{y + 4:.1f}">'
                     f'{tick / 100:.2f}</text>')
    for index, (name, _) in enumerate(rows):
        x = left + index * step
        if name.startswith("shipped"):
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top}" y2="{height - bottom}" '
                         f'stroke="#bbb" stroke-dasharray="3,3"/>')
        every_fourth = name.startswith("generation") and int(name.split()[1]) % 4 == 0
        if name.startswith("shipped") or every_fourth:
            label = name.split()[-1].strip("()") if name.startswith("shipped") else name[11:]
            parts.append(f'<text x="{x - 3:.1f}" y="{height - bottom + 12}" font-size="8" '
                         f'text-anchor="end" transform="rotate(-45 {x:.1f} '
                         f'{height - bottom + 12})">{label}</text>')
    for key in SHOWN:
        points = " ".join(point(i, errors[key]) for i, (_, errors) in enumerate(rows))
        parts.append(f'<polyline fill="none" stroke="{COLOURS[key]}" stroke-width='
                     f'"{2.5 if key == "all" else 1.5}" points="{points}"/>')
    for index, key in enumerate(SHOWN):
        x = left + index * 110
        parts.append(f'<rect x="{x}" y="{height - 16}" width="12" height="4" '
                     f'fill="{COLOURS[key]}"/><text x="{x + 16}" y="{height - 10}">{key}</text>')
    parts.append(f'<text x="{left + 5 * 110}" y="{height - 10}">dashed: a shipped version'
                 '</text></svg>')
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--truth", type=Path, default=Path("data/truth"))
    parser.add_argument("--svg", type=Path)
    args = parser.parse_args()
    labels = truth.read_labels(args.truth)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for name, path in networks(Path(folder)):
            found = truth.errors(labels, path)
            rows.append((name, {key: found[key][1] for key in SHOWN}))
    print(f"{len(labels)} truth labels; RMS error in equity, the truth's variance subtracted\n")
    print("| network | " + " | ".join(SHOWN) + " |")
    print("|---|" + "---|" * len(SHOWN))
    for name, errors in rows:
        print(f"| {name} | " + " | ".join(f"{errors[key]:.4f}" for key in SHOWN) + " |")
    if args.svg:
        args.svg.write_text(svg(rows), encoding="utf-8")


if __name__ == "__main__":
    main()
