"""The puzzles of the test set: boards from our generator, and a player's entries.

A ``BoardSpec`` names a puzzle the way the site does (shape, size, adjacency, level,
seed), or a "ragged" board: a rectangle with holes punched and its edges notched, made
from its seed, for the outlines no named shape has.  ``make`` returns the generated
puzzle with its solution; the same spec gives the same puzzle on any machine (the
engine draws from ``random.Random`` seeded with a string).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from engine import Board, Cell, Generated, GenerationError, Puzzle, ShapeError, generate, generate_shape


@dataclass(frozen=True)
class BoardSpec:
    """One puzzle of the set, as the generator is asked for it."""

    shape: str  # a named shape, or "ragged" (a rectangle with holes and notches)
    size: int  # the shape's size (ragged: rows)
    adjacency: str = "king"
    difficulty: str = "easy"
    seed: int = 0
    cols: int | None = None  # rectangles and ragged boards: columns (None: as many as rows)

    @property
    def label(self) -> str:
        cols = f"x{self.cols}" if self.cols else ""
        return f"{self.shape} {self.size}{cols} {self.adjacency} {self.difficulty} seed {self.seed}"


@lru_cache(maxsize=256)
def make(spec: BoardSpec) -> Generated:
    """The puzzle of ``spec`` with its solution."""
    if spec.shape == "ragged":
        return _ragged(spec)
    rows = spec.size if spec.cols else None
    return generate_shape(spec.shape, spec.size, spec.difficulty, spec.adjacency,  # type: ignore[arg-type]
                          seed=spec.seed, rows=rows, cols=spec.cols)


def _ragged(spec: BoardSpec) -> Generated:
    """A rectangle with a few holes inside and bites out of its edges: the first board,
    from the spec's seed on, that the engine can make a puzzle on."""
    rows, cols = spec.size, spec.cols or spec.size
    rng = random.Random(f"ragged/{rows}/{cols}/{spec.adjacency}/{spec.seed}")
    for _attempt in range(200):
        cells = {(r, c) for r in range(rows) for c in range(cols)}
        for _hole in range(rng.randint(1, max(1, rows * cols // 30))):  # holes inside, 1 or 2x2
            r, c = rng.randrange(1, rows - 1), rng.randrange(1, cols - 1)
            cells -= {(r, c), (r + 1, c), (r, c + 1), (r + 1, c + 1)} if rng.random() < 0.4 else {(r, c)}
        for _bite in range(rng.randint(2, 5)):  # bites out of the edges and corners
            side = rng.randrange(4)
            length, depth = rng.randint(1, max(1, (cols if side % 2 == 0 else rows) // 3)), rng.randint(1, 2)
            start = rng.randrange(0, (cols if side % 2 == 0 else rows) - length + 1)
            for k in range(start, start + length):
                for d in range(depth):
                    cells.discard({0: (d, k), 1: (k, cols - 1 - d), 2: (rows - 1 - d, k), 3: (k, d)}[side])
        try:
            board = Board.from_cells(_shifted(cells), spec.adjacency)  # type: ignore[arg-type]
            return generate(board, spec.difficulty, seed=spec.seed)
        except (ShapeError, GenerationError, ValueError):
            continue
    raise RuntimeError(f"no playable ragged board for {spec.label}")


def _shifted(cells: set[Cell]) -> list[Cell]:
    """Cells moved so the top row and left column are 0 (hex: by an even number of rows,
    so the odd-r layout keeps its shape)."""
    top = min(r for r, _ in cells)
    top -= top % 2
    left = min(c for _, c in cells)
    return sorted((r - top, c - left) for r, c in cells)


def entries_of(made: Generated, share: float, seed: str) -> dict[Cell, int]:
    """Numbers a player has written in: ``share`` of the empty cells, filled with the
    solution's numbers (a player part-way through, without mistakes)."""
    rng = random.Random(f"entries/{seed}")
    empty = [cell for cell in made.puzzle.board.cells if cell not in made.puzzle.givens]
    chosen = rng.sample(empty, max(1, round(len(empty) * share)))
    return {cell: made.solution[cell] for cell in sorted(chosen)}


def with_entries(puzzle: Puzzle, entries: dict[Cell, int]) -> Puzzle:
    """The puzzle a reader keeping the player's numbers returns: givens and entries."""
    return puzzle.with_givens({**puzzle.givens, **entries})
