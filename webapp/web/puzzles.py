"""Puzzles by id for a request: found in the store, or (new to the site) charged to the
rate limit like a new puzzle and solved in a child process within the solving budget."""

from __future__ import annotations

from flask import current_app

from engine import Puzzle, SolveResult

from ..core.stored import StoredPuzzle
from ..store.catalog import load
from . import heavy
from .limits import charge
from .services import services


def find_puzzle(code: str) -> StoredPuzzle:
    """The stored puzzle with this id (PuzzleNotFound, NotPlayable, TooManyRequests, Busy)."""
    solve = heavy.solver(services().runner, float(current_app.config["SOLVE_SECONDS"]))

    def charged(puzzle: Puzzle) -> SolveResult:
        charge("generate")
        return solve(puzzle)

    return load(services().store, code, charged)
