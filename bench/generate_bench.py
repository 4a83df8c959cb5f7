"""Generator benchmark: per shape x adjacency x level, the time to make a puzzle, its givens
and its rating; prints Markdown tables for the README.

Run with ``make bench`` (or ``.venv/bin/python bench/generate_bench.py [--seeds K] [--quick]``).
Targets (the difficulty issue): 10x10 under 1 s median at every level, expert under 3 s;
20x20 expert under 20 s (it comes from the pool, so players do not wait).

``--targets`` times issue 28's cases instead (20x20 expert and hard, 10x10 expert, each
adjacency) on seeds 301-305, which the generator was never tuned on, and the 10x10 ones
on 30 seeds (301-330: a second's puzzle varies too much from seed to seed, and from run
to run on this machine, for five to say much); ``--busy`` keeps one other process
spinning meanwhile, so the timing has the other core busy; ``--one-core`` makes every
solution path here, one after the other, as without a core to spare.  CPU seconds count
the children that made paths on the other core too.
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import DIFFICULTIES, Generated, generate_shape  # noqa: E402

LEVEL_CASES = [("rectangle", 10, adjacency) for adjacency in ("king", "rook", "hex")]
SHAPE_CASES = [
    ("rectangle", 20, "king", "expert"),
    ("rectangle", 20, "rook", "expert"),
    ("rectangle", 20, "hex", "expert"),
    ("diamond", 7, "king", "hard"),
    ("heart", 12, "king", "expert"),
    ("cross", 6, "king", "expert"),
    ("ring", 16, "king", "hard"),
]


# Issue 28's targets: (shape, size, adjacency, level, median at most, worst at most).
TARGET_CASES = [
    *(("square", 20, adjacency, "expert", 10.0, 30.0) for adjacency in ("king", "hex", "rook")),
    *(("square", 20, adjacency, "hard", 5.0, None) for adjacency in ("king", "hex", "rook")),
    *(("square", 10, adjacency, "expert", 1.0, None) for adjacency in ("king", "hex", "rook")),
]
TARGET_SEEDS = range(301, 306)
SMALL_TARGET_SEEDS = range(301, 331)  # the 10x10 rows


def _spin() -> None:
    while True:
        pass


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended (the paths made
    on the other core)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _targets(seeds: range, busy: bool, only: str | None, one_core: bool) -> None:
    """Issue 28's cases: wall and CPU seconds per puzzle, median and worst, against the targets."""
    spinner = None
    if busy:
        spinner = multiprocessing.Process(target=_spin, daemon=True)
        spinner.start()
    try:
        print(f"generate_shape(), seeds {seeds.start}..{seeds.stop - 1} (10x10: {SMALL_TARGET_SEEDS.start}.."
              f"{SMALL_TARGET_SEEDS.stop - 1}), Python {sys.version.split()[0]}"
              f"{', one other process spinning' if busy else ''}{', one core' if one_core else ''}\n")
        print("| board | adjacency | level | median s | worst s | CPU median s | CPU worst s | target (median / worst) "
              "| rating median (range) |")
        print("|---|---|---|---:|---:|---:|---:|---|---|")
        for shape, size, adjacency, level, median_at_most, worst_at_most in TARGET_CASES:
            if only and only not in f"{size} {adjacency} {level}":
                continue
            times, cpus, scores, failed = [], [], [], 0
            for seed in (SMALL_TARGET_SEEDS if size <= 10 else seeds):
                start, cpu = time.perf_counter(), _cpu()
                try:
                    made = generate_shape(shape, size, level, adjacency, seed=seed,  # type: ignore[arg-type]
                                          spare_cores=False if one_core else None)
                    scores.append(made.grade.rating.score)
                except Exception:  # noqa: BLE001 - a give-up is a result here
                    failed += 1
                times.append(time.perf_counter() - start)
                cpus.append(_cpu() - cpu)
            target = f"≤ {median_at_most:g}" + (f" / ≤ {worst_at_most:g}" if worst_at_most else "")
            spread = f"{min(scores):.1f}–{max(scores):.1f}" if scores else "-"
            rating = f"{statistics.median(scores):.1f} ({spread})" if scores else "-"
            gave_up = f", {failed} gave up" if failed else ""
            print(f"| {shape} {size} | {adjacency} | {level} | {statistics.median(times):.2f} | {max(times):.2f} "
                  f"| {statistics.median(cpus):.2f} | {max(cpus):.2f} | {target}{gave_up} | {rating} |", flush=True)
    finally:
        if spinner is not None:
            spinner.terminate()


def _row(shape: str, size: int, adjacency: str, level: str, made: list[Generated], times: list[float]) -> str:
    cells = made[0].puzzle.size
    shares = [len(m.puzzle.givens) / cells for m in made]
    scores = [m.grade.rating.score for m in made]
    spread = f"{min(scores):.1f}–{max(scores):.1f}"
    return (f"| {shape} {size} | {adjacency} | {level} | {statistics.median(times):.2f} | {max(times):.2f} "
            f"| {statistics.median(shares):.0%} | {statistics.median(scores):.1f} ({spread}) |")


def _case(shape: str, size: int, adjacency: str, level: str, seeds: range) -> tuple[str, float, int]:
    made, times = [], []
    for seed in seeds:
        start = time.perf_counter()
        made.append(generate_shape(shape, size, level, adjacency, seed=seed))  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    slowest = max(range(len(times)), key=times.__getitem__)
    return _row(shape, size, adjacency, level, made, times), times[slowest], seeds[slowest]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=5, help="puzzles per case (default 5)")
    parser.add_argument("--quick", action="store_true", help="only the 10x10 levels")
    parser.add_argument("--profile", action="store_true", help="print where the slowest case spends its time")
    parser.add_argument("--targets", action="store_true", help="issue 28's cases on seeds 301-305")
    parser.add_argument("--busy", action="store_true", help="with --targets: keep one other process spinning")
    parser.add_argument("--only", help="with --targets: only cases whose 'size adjacency level' holds this text")
    parser.add_argument("--one-core", action="store_true", help="with --targets: no path made on another core")
    args = parser.parse_args()
    if args.targets:
        _targets(range(TARGET_SEEDS.start, TARGET_SEEDS.start + min(args.seeds, 5)), args.busy, args.only,
                 args.one_core)
        return 0
    seeds = range(args.seeds)
    print(f"generate_shape(), seeds 0..{args.seeds - 1} per case, Python {sys.version.split()[0]}\n")
    print("| board | adjacency | level | median s | worst s | givens (median share) | rating median (range) |")
    print("|---|---|---|---:|---:|---:|---|")
    cases = [(s, n, a, level) for s, n, a in LEVEL_CASES for level in DIFFICULTIES]
    if not args.quick:
        cases += SHAPE_CASES
    slowest: tuple[float, tuple[str, int, str, str, int] | None] = (0.0, None)
    for shape, size, adjacency, level in cases:
        row, seconds, seed = _case(shape, size, adjacency, level, seeds)
        print(row, flush=True)
        if seconds > slowest[0]:
            slowest = (seconds, (shape, size, adjacency, level, seed))
    if args.profile and slowest[1] is not None:
        shape, size, adjacency, level, seed = slowest[1]
        print(f"\nProfile of the slowest: {shape} {size} {adjacency} {level} seed {seed}\n")
        profiler = cProfile.Profile()
        profiler.runcall(generate_shape, shape, size, level, adjacency, seed=seed)  # type: ignore[arg-type]
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(12)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
