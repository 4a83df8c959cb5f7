"""The ``hidato`` command line: argument parsing, and one module per group of subcommands.

Each module registers its subcommands with ``add_<name>(commands)``; a subcommand runs as
a handler returning the exit status.  The engine's commands (solve, generate, grade,
hint) import only the engine; ``scan`` loads OpenCV and the OCR model when it reads a
picture; ``serve``, ``worker``, ``db``, ``pool``, ``secret`` and ``print`` load the web
stack, the database or WeasyPrint when they run, never before.  Usage mistakes,
unreadable input and malformed puzzles are one ``error: ...`` line on stderr with exit
status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from .booklet import add_print
from .common import EXIT_OK, Parser, UsageError, fail
from .hint import add_hint
from .pool import add_pool
from .puzzles import add_generate, add_grade
from .scan import add_scan
from .secret import add_secret
from .serve import add_db, add_serve, add_worker
from .solve import add_solve

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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser for ``hidato`` and all its subcommands."""
    parser = Parser(
        prog="hidato",
        description="Hidato puzzles: fill the board with 1..N so consecutive numbers touch.",
        epilog=MAIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for add in (add_solve, add_generate, add_grade, add_hint, add_scan, add_print, add_serve, add_worker, add_pool,
                add_db, add_secret):
        add(commands)
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
