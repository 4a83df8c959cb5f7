"""How long the link preview (the og:image PNG a shared puzzle shows) takes to draw: the
largest board the form offers, with a given in every other cell, median and worst of a few
draws after one to load the fonts. It runs in a request, so it must stay well under a
second; the figure lives here rather than in a timed test (see the README's Benchmarks)."""

from __future__ import annotations

import argparse
import statistics
import time

from engine import Puzzle, shape_board
from webapp.paper.preview import preview_png


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print("| board | median s | worst s | CPU median s |\n|---|---:|---:|---:|")
    boards = (("rectangle", 21, shape_board("rectangle", 21, "king")),
              ("hexagon", 11, shape_board("hexagon", 11, "hex")))
    for shape, size, board in boards:
        puzzle = Puzzle(board, {cell: n for n, cell in enumerate(board.cells, start=1) if n % 2 == 1})
        preview_png(puzzle, "warm up")
        walls, cpus = [], []
        for _ in range(args.runs):
            wall, cpu = time.perf_counter(), time.process_time()
            preview_png(puzzle, f"Hidato · {shape} {size} · Expert · {board.size} cells")
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        print(f"| {shape} {size} ({board.size} cells) | {statistics.median(walls):.3f} | {max(walls):.3f} "
              f"| {statistics.median(cpus):.3f} |")


if __name__ == "__main__":
    main()
