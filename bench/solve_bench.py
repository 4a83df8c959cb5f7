"""Solver benchmark: count-to-2 on every example puzzle, in-process; prints a Markdown table.

The puzzles are the shipped examples (tests/data/puzzles, with the large minimal ones)
and bench/puzzles: expert puzzles made by our generator (minimal as far as its budget
allowed), named shape+size_e+seed.

Run with ``make bench`` (or ``.venv/bin/python bench/solve_bench.py [--repeat R]``).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import parse_puzzle, solve  # noqa: E402

SETS = [ROOT / "tests" / "data" / "puzzles", ROOT / "bench" / "puzzles"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per puzzle (default 5)")
    args = parser.parse_args()
    files = [p for folder in SETS for p in sorted(folder.rglob("*.txt")) if not p.name.endswith(".solution.txt")]
    print(f"count_solutions(limit=2), {args.repeat} runs each, Python {sys.version.split()[0]}\n")
    print("| puzzle | cells | givens | solutions | search steps | median ms | worst ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    medians = []
    for path in files:
        puzzle = parse_puzzle(path.read_text())
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = solve(puzzle, limit=2)
            times.append((time.perf_counter() - start) * 1000)
        name = str(path.relative_to(ROOT))[:-4]
        medians.append(statistics.median(times))
        print(
            f"| {name} | {puzzle.size} | {len(puzzle.givens)} | {result.count} | {result.nodes} "
            f"| {statistics.median(times):.1f} | {max(times):.1f} |"
        )
    print(f"\n{len(files)} puzzles: median of medians {statistics.median(medians):.1f} ms, "
          f"slowest median {max(medians):.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
