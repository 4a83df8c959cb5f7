"""Generator benchmark: time and givens per shape, size and difficulty; prints Markdown tables.

Run with ``make bench`` (or ``.venv/bin/python bench/generate_bench.py [--seeds K]``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import generate_shape  # noqa: E402

CASES = [
    ("rectangle", 10, "hard"),
    ("rectangle", 10, "expert"),
    ("rectangle", 20, "hard"),
    ("rectangle", 20, "expert"),
    ("diamond", 7, "hard"),
    ("diamond", 7, "expert"),
    ("heart", 12, "hard"),
    ("cross", 6, "expert"),
]
LEVELS_ON = ("rectangle", 10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5, help="puzzles per case (default 5)")
    parser.add_argument("--profile", action="store_true", help="print where the slowest case spends its time")
    args = parser.parse_args()
    seeds = range(args.seeds)
    print(f"generate(), seeds 0..{args.seeds - 1} per case, Python {sys.version.split()[0]}\n")
    print("| shape | size | cells | difficulty | median s | worst s | givens (share of cells) |")
    print("|---|---:|---:|---|---:|---:|---:|")
    slowest: tuple[float, tuple[str, int, str, int] | None] = (0.0, None)
    for shape, size, difficulty in CASES:
        times, givens, cells = [], [], 0
        for seed in seeds:
            start = time.perf_counter()
            made = generate_shape(shape, size, difficulty, seed=seed)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            givens.append(len(made.puzzle.givens))
            cells = made.puzzle.size
            slowest = max(slowest, (elapsed, (shape, size, difficulty, seed)), key=lambda item: item[0])
        share = statistics.mean(givens) / cells
        print(
            f"| {shape} | {size} | {cells} | {difficulty} | {statistics.median(times):.2f} | {max(times):.2f} "
            f"| {statistics.mean(givens):.0f} ({share:.0%}) |"
        )
    shape, size = LEVELS_ON
    print(f"\nGivens left per difficulty, {shape} {size}, same seeds:\n")
    print("| difficulty | givens (share of cells) | median s |")
    print("|---|---:|---:|")
    for difficulty in ("easy", "medium", "hard", "expert"):
        made_all = [generate_shape(shape, size, difficulty, seed=seed) for seed in seeds]
        counts = [len(m.puzzle.givens) for m in made_all]
        cells = made_all[0].puzzle.size
        print(
            f"| {difficulty} | {statistics.mean(counts):.0f} ({statistics.mean(counts) / cells:.0%}) "
            f"| {statistics.median(m.seconds for m in made_all):.2f} |"
        )
    if args.profile and slowest[1] is not None:
        shape, size, difficulty, seed = slowest[1]
        print(f"\nProfile of the slowest: {shape} {size} {difficulty} seed {seed}\n")
        profiler = cProfile.Profile()
        profiler.runcall(generate_shape, shape, size, difficulty, seed=seed)
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(12)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
