"""The Hidato engine: boards of any shape, the text notation, the solver.

Pure Python with no web imports; the web app and the command line use only what is
exported here.
"""

from .board import ADJACENCIES, MAX_CELLS, Adjacency, Board, Cell, Grid, Puzzle, is_solution
from .notation import (
    PuzzleFormatError,
    format_puzzle,
    parse_puzzle,
    puzzle_from_id,
    puzzle_to_id,
    split_puzzles,
)
from .solver import SolveResult, SolverGaveUp, count_solutions, solve

__all__ = [
    "ADJACENCIES",
    "MAX_CELLS",
    "Adjacency",
    "Board",
    "Cell",
    "Grid",
    "Puzzle",
    "PuzzleFormatError",
    "SolveResult",
    "SolverGaveUp",
    "count_solutions",
    "format_puzzle",
    "is_solution",
    "parse_puzzle",
    "puzzle_from_id",
    "puzzle_to_id",
    "solve",
    "split_puzzles",
]
