"""``hidato hint``: the next step for each puzzle of the input, in words.

Numbers in the input count as placed.  With ``--puzzle`` (the puzzle as it was printed:
an id, a link or a file) the numbers that are not its givens are a player's entries: the
puzzle is solved first, within ``--max-seconds``, and a wrong entry is named as the
site's hint names it ("The 12 in row 3, column 4 is wrong…") instead of the sheet
having "no solution".
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from engine import (
    Grid,
    Puzzle,
    PuzzleFormatError,
    SolverGaveUp,
    cell_name,
    hint,
    plural,
    seconds,
    solve,
)

from ..core.hint_words import hint_text
from .common import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    UsageError,
    fail,
    positive_seconds,
    read_blocks,
)
from .inputs import Puzzles
from .puzzles import add_input, each_puzzle

DEFAULT_SECONDS = 10.0
HINT_EPILOG = """\
a player's sheet: the numbers in the input all count as placed, so a sheet with a
  wrong entry has no solution.  Give the puzzle as it was printed with --puzzle (its
  id, printed with its solution in a booklet, a link to it, or a file): the numbers
  that are not its givens are then the player's entries, and a wrong one is named.

examples:
  $ hidato hint puzzle.txt
  $ hidato hint --puzzle 5x5:a18A11a17aAa10_1AbBa5aB4a6a sheet.txt

exit status: 0 a hint, 1 no solution (or the --puzzle has not exactly one), 2 bad
  input, 3 the time ran out (--max-seconds).
"""


def add_hint(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato hint``."""
    sub = commands.add_parser(
        "hint",
        help="print the next deduction for a puzzle",
        description="Print the next step a person could deduce, in words. Numbers already "
                    "written in the file count as placed; with --puzzle, those that are not the "
                    "puzzle's givens are checked against its solution first.",
        epilog=HINT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_input(sub)
    sub.add_argument("--puzzle", metavar="ID|LINK|FILE",
                     help="the puzzle as printed, so the other numbers in FILE are a player's entries")
    sub.add_argument("--max-seconds", type=positive_seconds, default=DEFAULT_SECONDS, metavar="S",
                     help=f"give up after S seconds (default {DEFAULT_SECONDS:g})")
    sub.set_defaults(handler=cmd_hint)


@dataclass
class _Printed:
    """The puzzle as printed (``--puzzle``) and its solution, found once for every sheet."""

    puzzle: Puzzle
    solution: Grid | None = None
    problem: tuple[int, str] | None = None  # (exit status, message) when it has no single solution
    checked: bool = False
    cells: frozenset[tuple[int, int]] = field(default_factory=frozenset)


def cmd_hint(args: argparse.Namespace) -> int:
    """Print the next deduction for each puzzle in the input."""
    if args.puzzle is None:
        return each_puzzle(args, lambda puzzle, prefix: _hint_one(puzzle, {}, None, prefix, args))
    try:
        printed = _Printed(_read_printed(args.puzzle))
    except UsageError as err:
        return fail(f"--puzzle: {err}")
    printed.cells = frozenset(printed.puzzle.board.cells)
    return each_puzzle(args, lambda sheet, prefix: _hint_sheet(printed, sheet, prefix, args))


def _read_printed(source: str) -> Puzzle:
    """The one puzzle ``--puzzle`` names (UsageError otherwise)."""
    puzzles = Puzzles()
    try:
        blocks = read_blocks(source)
        block = next(blocks)
        if next(blocks, None) is not None:
            raise UsageError(f"{source} holds more than one puzzle: give the one the sheet is of")
        return puzzles.puzzle(block)
    except PuzzleFormatError as err:
        raise UsageError(str(err)) from None
    finally:
        puzzles.close()


def _hint_sheet(printed: _Printed, sheet: Puzzle, prefix: str, args: argparse.Namespace) -> int:
    """The hint for a player's sheet of the printed puzzle: its entries checked first."""
    entries, problem = _entries(printed.puzzle, sheet)
    if problem:
        print(f"error: {prefix}{problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not printed.checked:
        printed.checked = True
        found = solve(printed.puzzle, limit=2, max_seconds=args.max_seconds)
        if found.count == 1 and found.complete:
            printed.solution = found.solutions[0]
        elif found.count >= 2:
            printed.problem = (EXIT_NO_SOLUTION, "the puzzle given with --puzzle has more than one solution, so "
                                                 "entries cannot be checked against it")
        elif found.complete:
            why = f": {found.reason}" if found.reason else ""
            printed.problem = (EXIT_NO_SOLUTION, f"the puzzle given with --puzzle has no solution{why}")
        else:
            printed.problem = (EXIT_GAVE_UP, f"gave up after {seconds(args.max_seconds, 3)} without settling the "
                                             "solution of the puzzle given with --puzzle (try a longer --max-seconds)")
    if printed.problem is not None:
        print(f"{prefix}{printed.problem[1]}", file=sys.stderr)
        return printed.problem[0]
    return _hint_one(printed.puzzle, entries, printed.solution, prefix, args)


def _entries(printed: Puzzle, sheet: Puzzle) -> tuple[Grid, str]:
    """The player's entries on a sheet of the printed puzzle, or what does not match it."""
    if sheet.board.cell_set != printed.board.cell_set:
        other = sorted(sheet.board.cell_set ^ printed.board.cell_set)[0]
        what = "a cell" if other in printed.board.cell_set else "a hole"
        return {}, (f"the sheet is not of this puzzle: {cell_name(other)} is {what} in the puzzle but not on the "
                    "sheet")
    for cell, value in sorted(printed.givens.items()):
        if cell not in sheet.givens:
            return {}, f"the sheet has lost the given {value} in {cell_name(cell)}"
        if sheet.givens[cell] != value:
            return {}, (f"the sheet has {sheet.givens[cell]} in {cell_name(cell)}, where the puzzle gives "
                        f"{value}: it is not a sheet of this puzzle")
    return {cell: value for cell, value in sheet.givens.items() if cell not in printed.givens}, ""


def _hint_one(puzzle: Puzzle, entries: Grid, solution: Grid | None, prefix: str, args: argparse.Namespace) -> int:
    try:
        step = hint(puzzle, entries, solution, max_seconds=args.max_seconds)
    except SolverGaveUp:
        print(f"{prefix}gave up after {seconds(args.max_seconds, 3)} without a hint (try a longer --max-seconds)",
              file=sys.stderr)
        return EXIT_GAVE_UP
    print(f"{prefix}{hint_text(step)}")  # English: the command line does not follow LANG
    if step.kind == "no solution" and args.puzzle is None and len(puzzle.givens) > 0:
        print(f"{prefix}note: if some of these {plural(len(puzzle.givens), 'number')} were written in by a "
              "player, give the puzzle as printed with --puzzle ID|FILE and the wrong one is named",
              file=sys.stderr)
    return EXIT_NO_SOLUTION if step.kind == "no solution" else EXIT_OK
