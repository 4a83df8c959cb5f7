"""Path benchmark: random_hamiltonian_path on every shape at its largest size, per adjacency.

Prints a Markdown table of the median (and worst) time over a few seeds.  Run with
``.venv/bin/python bench/paths_bench.py [--repeat R]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.board import ADJACENCIES  # noqa: E402
from engine.paths import is_hamiltonian_path, random_hamiltonian_path  # noqa: E402
from engine.shapes import SHAPES, ShapeError, shape_board  # noqa: E402


def largest_board(name: str, adjacency: str):
    """The board at the largest size this adjacency can play, or None."""
    spec = SHAPES[name]
    if adjacency not in spec.adjacencies:
        return None
    for size in range(spec.max_size, spec.min_size - 1, -1):
        try:
            return shape_board(name, size, adjacency)
        except ShapeError:
            continue
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="seeds per board (default 5)")
    args = parser.parse_args()
    print(f"random_hamiltonian_path, median of {args.repeat} seeds (worst in brackets), "
          f"Python {sys.version.split()[0]}\n")
    print("| shape | " + " | ".join(f"{a} cells | {a} ms" for a in ADJACENCIES) + " |")
    print("|---|" + "---:|---:|" * len(ADJACENCIES))
    for name in SHAPES:
        row = [name]
        for adjacency in ADJACENCIES:
            board = largest_board(name, adjacency)
            if board is None:
                row += ["-", "-"]
                continue
            times = []
            for seed in range(args.repeat):
                start = time.perf_counter()
                path = random_hamiltonian_path(board, random.Random(seed))
                times.append((time.perf_counter() - start) * 1000)
                assert is_hamiltonian_path(board, path)
            row += [str(board.size), f"{statistics.median(times):.1f} ({max(times):.0f})"]
        print("| " + " | ".join(row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
