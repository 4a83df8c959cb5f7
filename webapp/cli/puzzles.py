"""The ``hidato generate`` and ``hidato grade`` subcommands (``hint.py`` has ``hidato hint``)."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
from typing import Any

from engine import (
    ADJACENCIES,
    DIFFICULTIES,
    MAX_CHAIN,
    SHAPES,
    Generated,
    GenerationError,
    PuzzleFormatError,
    ShapeError,
    format_puzzle,
    generate_shape,
    grade,
    puzzle_to_id,
    solve,
)

from ..core.ratings import chain_words, levels_text, rating_number, technique_lines
from .common import (
    EXIT_BAD_INPUT,
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
from .stages import LINES_AFTER, StageReport

# Long enough for the largest expert puzzles (about 15 seconds here), short enough that a
# request the generator cannot meet ends with advice instead of running for ever.
DEFAULT_TIME_LIMIT = 60.0
_RECTANGLE = SHAPES["rectangle"]

GENERATE_EPILOG = """\
shapes: {shapes}
  (size is the shape's scale; a size out of range is refused with the shape's range;
  --rows and --cols make a rectangle and each obeys the rectangle's range, {low}..{high})

time limit: each puzzle gets --time-limit seconds (default {limit:g}); past it the
  command stops with one line that suggests another seed, a smaller size or an
  easier level.  Most puzzles take well under a second; the largest expert ones
  can take 15 seconds or more.

difficulty: each level is a range of the rating, the longest chain of reasoning
  the puzzle needs on Berthier's whip scale (see 'hidato grade'):
  {levels}; no level needs a guess.

seed: the same options and --seed give the same puzzle on any machine.  Without
  --seed a random one is used and printed on stderr ('seed 1234 (--seed 1234 makes
  the same puzzle again)'; with --json each object carries its seed).

progress: a puzzle that takes more than a second shows its stage on stderr
  ('path 3 of 30: removing givens (12 s)'), on one line rewritten in place on a
  terminal, as lines after {lines_after:g} seconds otherwise; --quiet shows nothing.

examples:
  $ hidato generate --shape diamond --size 5 --difficulty hard --seed 7
  $ hidato generate --rows 8 --cols 12 --adjacency rook --solution
  $ hidato generate --shape heart --count 10 --seed 100 > hearts.txt
"""


def add_generate(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato generate``."""
    sub = commands.add_parser(
        "generate",
        help="make new puzzles with exactly one solution",
        description="Generate puzzles on a shape, at a difficulty, deterministic by seed.",
        epilog=GENERATE_EPILOG.format(shapes=", ".join(SHAPES), low=_RECTANGLE.min_size,
                                      high=_RECTANGLE.max_size, limit=DEFAULT_TIME_LIMIT, levels=levels_text(),
                                      lines_after=LINES_AFTER),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("--shape", default="rectangle", help="board shape (default rectangle)")
    sub.add_argument("--size", type=int, help="shape size (default: the shape's default)")
    sides = f"{_RECTANGLE.min_size}..{_RECTANGLE.max_size}"
    sub.add_argument("--rows", type=positive_int, help=f"rows, for a rectangle ({sides}, as --size)")
    sub.add_argument("--cols", type=positive_int, help=f"columns, for a rectangle ({sides}, as --size)")
    sub.add_argument("--difficulty", choices=DIFFICULTIES, default="medium", help="default medium")
    sub.add_argument("--adjacency", choices=ADJACENCIES, default="king",
                     help="king (Hidato, default), rook (Numbrix) or hex")
    sub.add_argument("--seed", type=int,
                     help="first seed (default: a random one, printed on stderr so the run can be repeated)")
    sub.add_argument("--count", type=positive_int, default=1, metavar="K",
                     help="make K puzzles with seeds N, N+1, ... (default 1)")
    sub.add_argument("--time-limit", type=positive_seconds, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                     help=f"give up on a puzzle after SECONDS seconds (default {DEFAULT_TIME_LIMIT:g})")
    sub.add_argument("--solution", action="store_true", help="print each solution after its puzzle")
    sub.add_argument("--json", action="store_true",
                     help="one JSON object per puzzle, one per line (its seed among the keys)")
    sub.add_argument("--quiet", action="store_true",
                     help="print nothing on stderr but errors (no seed, no progress)")
    sub.set_defaults(handler=cmd_generate)


def cmd_generate(args: argparse.Namespace) -> int:
    """Generate ``--count`` puzzles and print them."""
    spec = SHAPES.get(args.shape)
    if spec is None:
        return fail(f"unknown shape {args.shape!r} (known: {', '.join(SHAPES)})")
    size = spec.default_size if args.size is None else args.size
    if (args.rows is None) != (args.cols is None):
        return fail("--rows and --cols go together")
    if args.rows is not None and args.shape != "rectangle":
        return fail("--rows and --cols are for --shape rectangle")
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    # A random seed is said once the first puzzle is made (bad options stay one error line);
    # --json carries each puzzle's seed.
    report = StageReport(args.count, quiet=args.quiet)
    try:
        return _generate_all(args, size, seed, report)
    finally:
        report.close()


def _generate_all(args: argparse.Namespace, size: int, seed: int, report: StageReport) -> int:
    untold = args.seed is None and not args.quiet and not args.json
    for i in range(args.count):
        report.start(i + 1)
        try:
            made = generate_shape(args.shape, size, args.difficulty, args.adjacency, seed + i, args.rows,
                                  args.cols, max_seconds=args.time_limit, progress=report)
        except (ShapeError, GenerationError, ValueError) as err:
            report.clear()
            # Say which seed gave up: the others may well be fine, and a random one can be tried again.
            named = isinstance(err, GenerationError) and (args.count > 1 or args.seed is None)
            return fail(f"{f'seed {seed + i}: ' if named else ''}{err}")
        report.made()
        if untold:
            report.clear()
            which = f"seed {seed}" if args.count == 1 else f"seeds {seed} to {seed + args.count - 1}"
            print(f"{which} (--seed {seed} makes the same {'puzzle' if args.count == 1 else 'puzzles'} again)",
                  file=sys.stderr, flush=True)
            untold = False
        if i and not args.json:
            print()
        _print_generated(made, args)
    return EXIT_OK


def _print_generated(made: Generated, args: argparse.Namespace) -> None:
    puzzle = made.puzzle
    if args.json:
        payload: dict[str, Any] = {
            "id": puzzle_to_id(puzzle),
            "shape": made.shape,
            "size": made.size,
            "adjacency": made.adjacency,
            "difficulty": made.difficulty,
            "grade": made.grade.level,
            "rating": round(made.grade.rating.score, 1),
            "chain_length": made.grade.rating.length,
            "uses": {str(length): count for length, count in made.grade.rating.uses.items()},
            "seed": made.seed,
            "cells": puzzle.size,
            "givens": len(puzzle.givens),
            "seconds": round(made.seconds, 4),
            "puzzle": format_puzzle(puzzle),
        }
        if args.solution:
            payload["solution"] = format_puzzle(puzzle, made.solution)
        print(json.dumps(payload, separators=(",", ":")))
        return
    print(format_puzzle(puzzle), end="")
    if args.solution:
        print()
        print(format_puzzle(puzzle, made.solution), end="")
    sys.stdout.flush()


def add_grade(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato grade``."""
    sub = commands.add_parser(
        "grade",
        help="rate how hard a puzzle is: the longest chain of reasoning it needs",
        description="Grade puzzles: the rating on Berthier's whip scale (its whole part is the "
                    "longest chain of reasoning the puzzle needs, W0 being singles only; its tenths "
                    "how much work that length did), the level it falls in, and how much each "
                    "length of chain did.",
        epilog=f"levels: {levels_text()}; a puzzle that chains of up to {MAX_CHAIN} steps cannot "
               "finish needs guessing, harder than expert.",
    )
    add_input(sub)
    sub.set_defaults(handler=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    """Grade each puzzle in the input."""
    return each_puzzle(args, _grade_one)


def _grade_one(puzzle: Any, prefix: str) -> int:
    found = solve(puzzle, limit=2)
    if found.count != 1:
        what = "no solution" if not found.solutions else "more than one solution"
        print(f"{prefix}cannot grade: the puzzle has {what}", file=sys.stderr)
        return EXIT_NO_SOLUTION
    result = grade(puzzle)
    print(f"{prefix}level: {result.level}")
    print(f"rating: {rating_number(result.rating)} ({chain_words(result.rating)})")
    for line in technique_lines(result.rating):
        print(f"  {line}")
    return EXIT_OK


def add_input(sub: argparse.ArgumentParser) -> None:
    """The input of a command that reads puzzles: FILE and --adjacency."""
    sub.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="puzzle file, or - for standard input (the default), or a puzzle's id or link")
    sub.add_argument("--adjacency", choices=ADJACENCIES,
                     help="neighbourhood, overriding any '# adjacency:' line (default king; ids and links "
                          "carry their own)")


def each_puzzle(args: argparse.Namespace, action: Any) -> int:
    """Run ``action`` on every puzzle of the input, read one at a time; the worst exit status."""
    status = EXIT_OK
    puzzles = Puzzles(args.adjacency)
    try:
        for block in read_blocks(args.file):
            status = worse(status, _one_puzzle(block, puzzles, action))
    except UsageError as err:
        return worse(status, fail(str(err)))
    finally:
        puzzles.close()
    return status


def _one_puzzle(block: Block, puzzles: Puzzles, action: Any) -> int:
    label = block.label()
    prefix = f"{label}: " if label else ""
    try:
        puzzle = puzzles.puzzle(block)
    except PuzzleFormatError as err:
        print(f"error: {prefix}{err}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return int(action(puzzle, prefix))
