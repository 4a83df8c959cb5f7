"""Solver benchmark: count-to-2 on every example puzzle, in-process; prints a Markdown table.

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

PUZZLES = ROOT / "tests" / "data" / "puzzles"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5, help="runs per puzzle (default 5)")
    args = parser.parse_args()
    files = sorted(p for p in PUZZLES.rglob("*.txt") if not p.name.endswith(".solution.txt"))
    print(f"count_solutions(limit=2), {args.repeat} runs each, Python {sys.version.split()[0]}\n")
    print("| puzzle | cells | givens | solutions | nodes | median ms | worst ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in files:
        puzzle = parse_puzzle(path.read_text())
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = solve(puzzle, limit=2)
            times.append((time.perf_counter() - start) * 1000)
        name = str(path.relative_to(PUZZLES))[:-4]
        print(
            f"| {name} | {puzzle.size} | {len(puzzle.givens)} | {result.count} | {result.nodes} "
            f"| {statistics.median(times):.1f} | {max(times):.1f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
