"""Measure, for each shape, adjacency and level, the smallest size the generator makes
reliably, and print the table for ``engine/levels.py`` (``SMALLEST``).

    .venv/bin/python tools/level_sizes.py [king,rook,hex] > sizes.jsonl

"Reliably": every one of three seeds succeeds within 40 seconds, at that size and at the
next.  Each level starts from the size the level below it needed.  It takes about an hour
per adjacency on one core; run the adjacencies in separate processes.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import DIFFICULTIES, SHAPES, GenerationError, ShapeError, generate_shape, shape_board  # noqa: E402

SEEDS = 3
SECONDS = 40.0


def _all_made(shape: str, size: int, adjacency: str, level: str) -> bool:
    for seed in range(SEEDS):
        try:
            generate_shape(shape, size, level, adjacency, seed=seed, max_seconds=SECONDS)  # type: ignore[arg-type]
        except GenerationError:
            return False
    return True


def smallest(shape: str, adjacency: str, level: str, start: int) -> int | None:
    """The first size from ``start`` made reliably at it and the next, or None."""
    spec = SHAPES[shape]
    found: int | None = None
    for size in range(start, spec.max_size + 1):
        try:
            shape_board(shape, size, adjacency)  # type: ignore[arg-type]
        except ShapeError:
            continue
        if not _all_made(shape, size, adjacency, level):
            found = None
        elif found is None:
            found = size
        else:
            return found
    return None


def main() -> int:
    adjacencies = (sys.argv[1] if len(sys.argv) > 1 else "king,rook,hex").split(",")
    table: dict[str, dict[str, dict[str, int]]] = {}
    for adjacency in adjacencies:
        for shape, spec in SHAPES.items():
            if shape == "square" or adjacency not in spec.adjacencies:
                continue  # the square is the rectangle again
            start = spec.min_size
            for level in DIFFICULTIES:
                size = smallest(shape, adjacency, level, start)
                print(json.dumps({"adjacency": adjacency, "shape": shape, "level": level, "smallest": size}),
                      file=sys.stderr, flush=True)
                if size is None:
                    break  # a harder level will not be reached either
                table.setdefault(adjacency, {}).setdefault(shape, {})[level] = size
                start = size
    print(json.dumps(table, indent=4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
