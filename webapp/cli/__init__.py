"""The ``hidato`` command line: argument parsing and one small function per subcommand.

Each subcommand registers itself with ``_add_<name>(subparsers)`` and runs as
``_cmd_<name>(args) -> exit status``.  Usage mistakes, unreadable input and malformed
puzzles are reported as one ``error: ...`` line on stderr with exit status 2, never as a
traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from typing import Any, Callable, Sequence

from engine.board import ADJACENCIES, Grid, Puzzle
from engine.notation import PuzzleFormatError, format_puzzle, parse_puzzle
from engine.solver import SolveResult, solve
from engine.words import plural, seconds

from .cli_puzzles import add_generate, add_grade, add_hint
from .cli_common import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_NO_SOLUTION,
    EXIT_OK,
    Parser,
    UsageError,
    fail,
    positive_int,
    positive_seconds,
    read_blocks,
    worse,
)

MAIN_EPILOG = """\
puzzle notation (one board row per line, cells separated by spaces):
  .  (or 0, _)   an empty cell to fill in
  x  (or X, -)   a hole, not part of the board
  17             a given number
  # ...          a comment; '# adjacency: rook' or '# adjacency: hex' changes
                 the neighbourhood (default king: 8 neighbours)
  A file may hold several puzzles separated by blank lines; they are read one
  at a time, so a long file needs no more memory than one puzzle (the whole
  input may hold up to 16 MB).

example:
  $ printf '. . 3\\n6 5 .\\n. . .\\n' | hidato solve
  1 2 3
  6 5 4
  7 8 9

Run 'hidato COMMAND --help' for the options of one command.
"""

SOLVE_EPILOG = """\
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
  $ hidato solve --count --limit 10 puzzle.txt
  $ cat puzzles.txt | hidato solve --json --max-seconds 5
"""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``hidato`` and all its subcommands."""
    parser = Parser(
        prog="hidato",
        description="Hidato puzzles: fill the board with 1..N so consecutive numbers touch.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    _add_solve(commands)
    add_generate(commands)
    add_grade(commands)
    add_hint(commands)
    _add_print(commands)
    _add_serve(commands)
    _add_pool(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except UsageError as err:
        return fail(str(err))
    except SystemExit as done:  # --help and --version
        return done.code if isinstance(done.code, int) else EXIT_OK
    if args.command is None:
        return fail("missing command (see 'hidato --help')")
    handler: Callable[[argparse.Namespace], int] = args.handler
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more can be written.
        sys.stderr.close()
        return EXIT_OK


# --- solve ----------------------------------------------------------------------------


def _add_solve(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "solve",
        help="solve puzzles from a file or standard input",
        description="Solve the puzzle(s) in FILE and print the solution in the puzzle notation.",
        epilog=SOLVE_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub.add_argument("file", nargs="?", default="-", metavar="FILE",
                     help="puzzle file, or - for standard input (the default)")
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
    try:
        for block in read_blocks(args.file):
            if block.number > 1 and not args.json:
                print()
            status = worse(status, _solve_one(block.text, block.first_line, block.label(), args))
    except UsageError as err:
        return worse(status, fail(str(err)))
    return status


def _solve_one(block: str, first_line: int, label: str, args: argparse.Namespace) -> int:
    """Solve one puzzle block, print its result, and return its exit status."""
    prefix = f"{label}: " if label else ""
    try:
        puzzle = parse_puzzle(block, adjacency=args.adjacency, first_line=first_line)
    except PuzzleFormatError as err:
        print(f"error: {err}", file=sys.stderr)
        if args.json:
            _print_json({"status": "error", "error": str(err), "line": err.line, "column": err.column})
        elif label:
            print(f"# {label}: error")
        return EXIT_BAD_INPUT
    result = solve(puzzle, limit=args.limit, max_seconds=args.max_seconds)
    status = _status(result, args.limit)
    if args.json:
        _print_json(_result_json(puzzle, result, status, args.limit))
    elif label:
        # Keeps each output block attributable when some puzzles print no grid.
        note = {"no_solution": ": no solution", "gave_up": ": gave up"}.get(status, "")
        print(f"# {label}{note}")
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
    if args.count:
        if not args.json:
            print(f"solutions: {result.count}")
    elif not args.json:
        print(format_puzzle(puzzle, result.solutions[0]), end="")
        if status == "multiple":
            more = " or more" if result.count >= args.limit else ""
            print(f"{prefix}warning: the puzzle has {result.count}{more} solutions; "
                  "printed the first", file=sys.stderr)
    if status == "solved" and not result.complete:
        print(f"{prefix}warning: gave up checking that the solution is unique "
              f"after {seconds(result.seconds, 3)}", file=sys.stderr)
    return EXIT_OK


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


# --- print ----------------------------------------------------------------------------


def _add_print(commands: argparse._SubParsersAction) -> None:
    from .booklet_cli import PRINT_DESCRIPTION, PRINT_EPILOG, PRINT_HELP, add_print_arguments, print_booklet_command

    sub = commands.add_parser("print", help=PRINT_HELP, description=PRINT_DESCRIPTION,
                              epilog=PRINT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_print_arguments(sub)
    sub.set_defaults(handler=print_booklet_command)


# --- serve ----------------------------------------------------------------------------


def _add_serve(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "serve",
        help="serve the web app (http://127.0.0.1:5000 by default)",
        description="Serve the Hidato web app with Werkzeug's server. The SQLite database in "
                    "the instance folder is created on first run; DATABASE_URL selects another.",
    )
    sub.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1",
                     help="address to listen on (default $HOST or 127.0.0.1)")
    sub.add_argument("--port", type=_port, default=os.environ.get("PORT") or "5000",
                     help="port to listen on (default $PORT or 5000)")
    sub.add_argument("--debug", action="store_true", help="reload on code changes, show tracebacks")
    sub.set_defaults(handler=_cmd_serve)


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be from 0 to 65535, got {value}")
    return value


def _cmd_serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import run_simple

    from webapp import create_app

    app = create_app()
    print(f"Hidato on http://{args.host}:{args.port}/ (database in {app.instance_path})", file=sys.stderr)
    # SIGTERM (from a process manager) ends the server like Ctrl-C, so the pool child is stopped too.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    try:
        run_simple(args.host, args.port, app, threaded=True, use_reloader=args.debug, use_debugger=args.debug)
    finally:
        app.extensions["hidato"].refiller.stop()
    return EXIT_OK


# --- pool -----------------------------------------------------------------------------


def _add_pool(commands: argparse._SubParsersAction) -> None:
    sub = commands.add_parser(
        "pool",
        help="manage the pool of pre-generated puzzles",
        description="The web app serves large and expert puzzles from a pool of "
                    "pre-generated ones, so nobody waits for the generator.",
    )
    actions = sub.add_subparsers(dest="pool_command", metavar="ACTION", title="actions")
    fill = actions.add_parser(
        "fill",
        help="generate puzzles until the pool is full",
        description="Top up the pool: each shape at its default size, in every variant, at "
                    "the hard and expert levels (or only the --only options), and make "
                    "today's and tomorrow's puzzle of the day.",
    )
    fill.add_argument("--count", type=positive_int, default=1, metavar="N",
                      help="puzzles to keep waiting for each set of options (default 1)")
    fill.add_argument("--only", action="append", default=[], metavar="SHAPE:SIZE:DIFFICULTY:VARIANT",
                      help="fill only these options (repeatable), e.g. diamond:7:expert:hidato")
    fill.add_argument("--quiet", action="store_true", help="print nothing but errors")
    fill.set_defaults(handler=_cmd_pool_fill)
    sub.set_defaults(handler=_cmd_pool)


def _cmd_pool(args: argparse.Namespace) -> int:
    return fail("missing action (see 'hidato pool --help')")


def _cmd_pool_fill(args: argparse.Namespace) -> int:
    from webapp import create_app
    from webapp.pool import default_targets, fill, today_and_tomorrow
    from webapp.puzzles import parse_options

    targets = []
    for text in args.only:
        parts = text.split(":")
        if len(parts) != 4:
            return fail(f"--only expects SHAPE:SIZE:DIFFICULTY:VARIANT, got {text!r}")
        shape, size, difficulty, variant = parts
        try:
            targets.append(parse_options({"shape": shape, "size": size, "difficulty": difficulty,
                                          "variant": variant}))
        except ValueError as err:
            return fail(f"--only {text}: {err}")
    config: dict[str, Any] = {"POOL_FILL_ON_START": False}
    app = create_app(config)
    store = app.extensions["hidato"].store
    report = None if args.quiet else (lambda line: print(line, flush=True))
    days = [] if args.only else today_and_tomorrow()
    made = fill(store, targets or default_targets(), count=args.count, report=report, days=days)
    if not args.quiet:
        print(f"pool: {plural(made, 'puzzle')} added")
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())
