"""The Hidato engine: boards and shapes, the text notation, solver, generator, grader, hints.

Pure Python with no web imports; the web app and the command line use only what is
exported here.
"""

from .board import ADJACENCIES, MAX_CELLS, Adjacency, Board, Cell, Grid, Puzzle, is_solution
from .candidates import candidates
from .generator import Generated, GenerationError, Stage, generate, generate_shape
from .grading import DIFFICULTIES, Grade, grade
from .hints import (
    Chain,
    ChainStep,
    Deduced,
    FromSolution,
    Hint,
    HintReason,
    Mistake,
    NoSolution,
    OnlyCell,
    OnlyNeighbour,
    Solved,
    hint,
)
from .levels import LEVELS, SMALLEST, Level, level_of, range_text, smallest_size, unreachable
from .notation import (
    EMPTY_TOKENS,
    HOLE_TOKENS,
    PuzzleFormatError,
    format_puzzle,
    iter_puzzles,
    parse_puzzle,
    puzzle_from_id,
    puzzle_to_id,
    split_puzzles,
)
from .propagation import runs_of
from .rating import MAX_CHAIN, Rating, rate
from .shapes import SHAPES, ShapeError, ShapeSpec, parse_mask, shape_board, shape_cells
from .solver import SolveResult, SolverGaveUp, count_solutions, solve
from .words import CELLS_SHOWN, FactsError, Phrase, Seconds, cell_name, plural, seconds

__all__ = [
    "ADJACENCIES",
    "DIFFICULTIES",
    "LEVELS",
    "EMPTY_TOKENS",
    "HOLE_TOKENS",
    "SMALLEST",
    "CELLS_SHOWN",
    "FactsError",
    "Phrase",
    "Seconds",
    "range_text",
    "smallest_size",
    "MAX_CHAIN",
    "Level",
    "Rating",
    "level_of",
    "unreachable",
    "rate",
    "runs_of",
    "SHAPES",
    "Generated",
    "GenerationError",
    "Grade",
    "Hint",
    "HintReason",
    "Chain",
    "ChainStep",
    "Deduced",
    "FromSolution",
    "Mistake",
    "NoSolution",
    "OnlyCell",
    "OnlyNeighbour",
    "Solved",
    "Stage",
    "ShapeError",
    "ShapeSpec",
    "generate",
    "generate_shape",
    "grade",
    "hint",
    "parse_mask",
    "shape_board",
    "shape_cells",
    "MAX_CELLS",
    "Adjacency",
    "Board",
    "Cell",
    "Grid",
    "Puzzle",
    "PuzzleFormatError",
    "SolveResult",
    "SolverGaveUp",
    "candidates",
    "cell_name",
    "count_solutions",
    "format_puzzle",
    "is_solution",
    "iter_puzzles",
    "parse_puzzle",
    "plural",
    "puzzle_from_id",
    "puzzle_to_id",
    "seconds",
    "solve",
    "split_puzzles",
]
