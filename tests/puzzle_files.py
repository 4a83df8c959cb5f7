"""The example puzzles shipped in tests/data, with their known solutions."""

from __future__ import annotations

from pathlib import Path

from engine import Grid, Puzzle, parse_puzzle

DATA = Path(__file__).parent / "data" / "puzzles"
PUZZLE_FILES = sorted(p for p in DATA.rglob("*.txt") if not p.name.endswith(".solution.txt"))


def load(path: Path) -> tuple[Puzzle, Grid]:
    """The puzzle in ``path`` and the solution stored beside it."""
    puzzle = parse_puzzle(path.read_text())
    solution = parse_puzzle(path.with_name(path.name[:-4] + ".solution.txt").read_text())
    return puzzle, dict(solution.givens)
