"""``hidato solve``: solve the puzzles of a file, one at a time, and print their solutions."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from engine import ADJACENCIES, Grid, Puzzle, PuzzleFormatError, SolveResult, format_puzzle, plural, seconds, solve

from .common import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    Block,
    UsageError,
    fail,
    positive_int,
    positive_seconds,
    read_blocks,
    worse,
)
from .inputs import Puzzles

SOLVE_EPILOG = """\
input:
  Boards in the notation (see 'hidato --help'), or lines that each name a
  puzzle: its compact id as a booklet prints it with its solution
  (5x5:a18A11a17aAa10_1AbBa5aB4a6a), a link to its page (https://.../p/ID), or a
  short link printed under a QR code (hidato.example.org/s/2f).  FILE may be such
  an id or link itself.  A short link is looked up in the site's database:
  DATABASE_URL, else the instance database 'hidato serve' uses; without one it
  is refused with the reason (use the id or the /p/ link).  Ids and links carry
  their own adjacency; --adjacency changes only boards in the notation.

output:
  The solution is printed in the same notation, every cell filled in.  If the
  puzzle has more than one solution one is printed and a warning goes to stderr.
  With several puzzles in the input, each is solved in turn and the outputs are
  separated by blank lines (each headed by a '# puzzle K (line L)' comment).
  --count prints 'solutions: K' where K stops at --limit (default 2), so
  'solutions: 2' means two or more.
  --json prints one JSON object per puzzle, one per line, with the keys status
  (unique, solved, multiple, no_solution, gave_up or error), solutions (the
  count, capped at --limit), complete, solution (a list of rows, null for
  holes; null when unsolved), seconds, nodes and reason.

exit status:
  0  solved (also when there are several solutions)
  1  no solution
  2  malformed input, unreadable file or bad option
  3  the solver gave up (--max-seconds ran out) before answering
  With several puzzles the worst status counts, in the order 2, 3, 1, 0.
  Puzzles are read and answered one at a time, so when the input turns out to
  be unreadable or too large (over 16 MB) the puzzles before still get answers.

examples:
  $ hidato solve puzzle.txt
  $ hidato solve 5x5:a18A11a17aAa10_1AbBa5aB4a6a
  $ hidato solve --count --limit 10 puzzle.txt
  $ cat puzzles.txt | hidato solve --json --max-seconds 5
"""


def add_solve(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "solve",
        help="solve puzzles from a file or standard input",
        description="Solve the puzzle(s) in FILE and print the solution in the puzzle notation.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="puzzle file, or - for standard input (the default), or a puzzle's id or link")
    sub.add_argument("--adjacency", choices=ADJACENCIES,
                     help="neighbourhood, overriding any '# adjacency:' line (default king)")
    sub.add_argument("--count", action="store_true",
                     help="print 'solutions: K' instead of a solution")
    sub.add_argument("--limit", type=positive_int, default=2, metavar="N",
                     help="stop after N solutions (default 2: enough to tell unique from not)")
    sub.add_argument("--json", action="store_true", help="print each result as one line of JSON")
    sub.add_argument("--max-seconds", type=positive_seconds, metavar="S",
                     help="give up on a puzzle after S seconds (exit status 3)")
    sub.set_defaults(handler=_cmd_solve)


def _cmd_solve(args: argparse.Namespace) -> int:
    status = EXIT_OK
    puzzles = Puzzles(args.adjacency)
    try:
        for block in read_blocks(args.file):
            if block.number > 1 and not args.json:
                print()
            status = worse(status, _solve_one(block, puzzles, args))
    except UsageError as err:
        return worse(status, fail(str(err)))
    finally:
        puzzles.close()
    return status


def _solve_one(block: Block, puzzles: Puzzles, args: argparse.Namespace) -> int:
    """Solve one puzzle of the input, print its result, and return its exit status."""
    label = block.label()
    try:
        puzzle = puzzles.puzzle(block)
    except PuzzleFormatError as err:
        return _malformed(err, label, args)
    result = solve(puzzle, limit=args.limit, max_seconds=args.max_seconds)
    status = _status(result, args.limit)
    if args.json:
        _print_json(_result_json(puzzle, result, status, args.limit))
    elif label:
        # Keeps each output block attributable when some puzzles print no grid.
        note = {"no_solution": ": no solution", "gave_up": ": gave up"}.get(status, "")
        print(f"# {label}{note}")
    prefix = f"{label}: " if label else ""
    if status == "gave_up":
        print(f"{prefix}gave up after {seconds(result.seconds, 3)} ({plural(result.nodes, 'search step')}) "
              f"with {plural(result.count, 'solution')} found", file=sys.stderr)
        return EXIT_GAVE_UP
    if status == "no_solution":
        reason = f": {result.reason}" if result.reason else ""
        print(f"{prefix}no solution{reason}", file=sys.stderr)
        if args.count and not args.json:
            print("solutions: 0")
        return EXIT_NO_SOLUTION
    if not args.json:
        _print_solved(puzzle, result, status, prefix, args)
    if status == "solved" and not result.complete:
        print(f"{prefix}warning: gave up checking that the solution is unique "
              f"after {seconds(result.seconds, 3)}", file=sys.stderr)
    return EXIT_OK


def _malformed(err: PuzzleFormatError, label: str, args: argparse.Namespace) -> int:
    print(f"error: {err}", file=sys.stderr)
    if args.json:
        _print_json({"status": "error", "error": str(err), "line": err.line, "column": err.column})
    elif label:
        print(f"# {label}: error")
    return EXIT_BAD_INPUT


def _print_solved(puzzle: Puzzle, result: SolveResult, status: str, prefix: str, args: argparse.Namespace) -> None:
    """The count, or the (first) solution with a warning when there are several."""
    if args.count:
        print(f"solutions: {result.count}")
        return
    print(format_puzzle(puzzle, result.solutions[0]), end="")
    if status == "multiple":
        more = " or more" if result.count >= args.limit else ""
        print(f"{prefix}warning: the puzzle has {result.count}{more} solutions; printed the first", file=sys.stderr)


def _status(result: SolveResult, limit: int) -> str:
    """unique, solved (uniqueness not checked), multiple, no_solution or gave_up."""
    if result.count >= 2:
        return "multiple"
    if result.count == 1:
        return "unique" if result.complete and limit >= 2 else "solved"
    return "no_solution" if result.complete else "gave_up"


def _grid_rows(puzzle: Puzzle, grid: Grid) -> list[list[int | None]]:
    board = puzzle.board
    return [[grid.get((r, c)) for c in range(board.cols)] for r in range(board.rows)]


def _result_json(puzzle: Puzzle, result: SolveResult, status: str, limit: int) -> dict[str, Any]:
    return {
        "status": status,
        "solutions": result.count,
        "limit": limit,
        "complete": result.complete,
        "solution": _grid_rows(puzzle, result.solutions[0]) if result.solutions else None,
        "seconds": round(result.seconds, 6),
        "nodes": result.nodes,
        "reason": result.reason,
        "adjacency": puzzle.board.adjacency,
    }


def _print_json(payload: dict[str, Any]) -> None:
    print(json.dumps(payload, separators=(",", ":")))
