"""``hidato print``: a PDF booklet of new puzzles from the command line.

The same options and ``--seed`` give the same puzzles, so a booklet can be made again.
Exit status 0 when the PDF is written, 2 for options the generator refuses or a file
that can't be written (one ``error: ...`` line on stderr; ``--out`` is checked first,
before any puzzle is made).  With ``--url`` the QR codes carry the site's short links
when its database is here (``print_links.py``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import urllib.parse
from collections.abc import Callable
from typing import Any

from engine import ADJACENCIES, DIFFICULTIES, SHAPES

from ..paper.booklet import (
    MAX_COUNT,
    MIXED,
    PAPER_NAMES,
    PAPERS,
    PER_PAGE,
    BookletOptions,
    check_options,
    layout,
    make_puzzles,
    new_seed,
    render_pdf,
    title_of,
)
from .common import EXIT_OK, bounded_int, positive_int
from .common import fail as _fail
from .output import output_problem
from .print_links import print_links

PRINT_HELP = "make a PDF booklet of new puzzles, solutions at the back"
PRINT_DESCRIPTION = (
    "Generate puzzles and lay them out as a PDF ready to print: the puzzles first, "
    "PER_PAGE to a page, then the solutions laid out the same way, pages numbered and "
    "each puzzle labelled with its id (open it on the site at /p/ID)."
)
PRINT_EPILOG = """\
examples:
  $ hidato print --shape diamond --size 5 --difficulty medium --count 12 --per-page 2 --out booklet.pdf
  $ hidato print --shape mixed --adjacency hex --count 8 --per-page 4 --seed 7 --out hex.pdf

The same options and --seed always give the same puzzles; without --seed a random
one is used and printed, so the booklet can be made again.
"""


_count = bounded_int(1, MAX_COUNT)
_size = positive_int
_seed = bounded_int(0, 2**63 - 1)


def _per_page(text: str) -> int:
    if text not in {str(n) for n in PER_PAGE}:
        raise argparse.ArgumentTypeError(f"must be 1, 2 or 4, got {text!r}")
    return int(text)


def _choice(allowed: tuple[str, ...], what: str) -> Callable[[str], str]:
    def check(text: str) -> str:
        value = text.strip().lower()
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"unknown {what} {text!r}: expected {', '.join(allowed)}")
        return value
    return check


def _bar(count: int) -> Any:
    """A progress bar on the terminal (tqdm, loaded only then); lines otherwise."""
    from tqdm import tqdm

    # A terminal that does not say its width (0 columns) would get an empty bar: 80 then.
    width = shutil.get_terminal_size((80, 24)).columns
    return tqdm(total=count, unit="puzzle", desc="making puzzles", file=sys.stderr, leave=False, ncols=width)


def _site_url(text: str) -> str:
    """An http(s) address with a host, without a trailing slash."""
    parts = urllib.parse.urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise argparse.ArgumentTypeError(f"not a site's address: {text!r} (expected e.g. https://hidato.example.org)")
    return text.strip().rstrip("/")


def add_print(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato print``."""
    sub = commands.add_parser("print", help=PRINT_HELP, description=PRINT_DESCRIPTION,
                              epilog=PRINT_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_print_arguments(sub)
    sub.set_defaults(handler=print_booklet_command)


def add_print_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``hidato print``."""
    parser.add_argument("--shape", type=_choice((MIXED, *SHAPES), "shape"), default=MIXED,
                        help=f"{', '.join(SHAPES)}, or mixed for a different shape each time "
                             "at its usual size (default mixed)")
    parser.add_argument("--size", type=_size, metavar="K",
                        help="the shape's size (default: the shape's usual size; not with mixed)")
    parser.add_argument("--difficulty", type=_choice(DIFFICULTIES, "difficulty"), default="medium",
                        help=f"{', '.join(DIFFICULTIES)} (default medium)")
    parser.add_argument("--adjacency", type=_choice(ADJACENCIES, "adjacency"), default="king",
                        help="king (Hidato, 8 neighbours), rook (Numbrix, 4) or hex (6); default king")
    parser.add_argument("--count", type=_count, default=12, metavar="N",
                        help=f"how many puzzles, 1 to {MAX_COUNT} (default 12)")
    parser.add_argument("--per-page", type=_per_page, default=2, metavar="{1,2,4}", dest="per_page",
                        help="puzzles on a page: 1, 2 or 4 (default 2)")
    parser.add_argument("--seed", type=_seed, metavar="S",
                        help="make the same puzzles again (default: a random seed, printed on stderr)")
    parser.add_argument("--paper", type=_choice(tuple(PAPERS), "paper"), default="a4",
                        help="a4 or letter (default a4)")
    parser.add_argument("--url", type=_site_url, metavar="URL",
                        help="the site's public address (https://hidato.example.org): each puzzle gets a "
                             "QR code of its page there, a short link registered in the site's database "
                             "(DATABASE_URL, or the one 'hidato serve' uses here) when there is one, else a "
                             "long link in a larger code; without --url, no QR codes")
    parser.add_argument("--long-links", action="store_true", dest="long_links",
                        help="with --url: long links (/p/ID), without using the site's database")
    parser.add_argument("--no-name", action="store_false", dest="name_line",
                        help="leave out the Name and Date line on the worksheets")
    parser.add_argument("--out", required=True, metavar="FILE",
                        help="where to write the PDF ('-' for standard output)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors")


def print_booklet_command(args: argparse.Namespace) -> int:
    """Run ``hidato print``: generate the puzzles, write the PDF; returns the exit status."""
    problem = output_problem(args.out)
    if problem:  # before any work: a typo in --out costs a second, not the whole booklet
        return _fail(problem)
    if args.shape == MIXED and args.size is not None:
        return _fail("--size does not apply to --shape mixed (each shape has its usual size)")
    seed = args.seed if args.seed is not None else new_seed()
    options = BookletOptions(args.shape, args.size, args.difficulty, args.adjacency,
                             args.count, args.per_page, seed, args.paper, args.name_line)
    try:
        check_options(options)
    except ValueError as err:
        return _fail(str(err))
    say = (lambda line: None) if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    if args.seed is None:
        say(f"seed {seed} (--seed {seed} makes the same puzzles again)")

    bar = _bar(options.count) if not args.quiet and sys.stderr.isatty() else None

    def progress(done: int, count: int) -> None:
        if bar is not None:
            bar.update(1)
        else:
            say(f"puzzle {done} of {count} made")

    try:
        puzzles = make_puzzles(options, progress=progress)
    except ValueError as err:  # the generator refuses (e.g. expert on a tiny board)
        return _fail(str(err))
    finally:
        if bar is not None:
            bar.close()
    links = print_links(puzzles, args.url, args.long_links, say)
    say("laying out the pages")
    page = layout(puzzles, options.per_page, options.paper, qr=bool(links), links=links)
    if page.note:
        say(page.note)
    pdf = render_pdf(puzzles, options.per_page, title_of(options), links, options.paper, options.name_line,
                     seed=seed)
    try:
        if args.out == "-":
            sys.stdout.buffer.write(pdf)
            sys.stdout.buffer.flush()
        else:
            with open(args.out, "wb") as handle:
                handle.write(pdf)
    except OSError as err:
        return _fail(f"cannot write {args.out}: {err.strerror or err}")
    where = "standard output" if args.out == "-" else os.path.abspath(args.out)
    noun = "puzzle" if options.count == 1 else "puzzles"
    say(f"wrote {where}: {options.count} {noun} on {page.page_count} pages "
        f"({PAPER_NAMES[options.paper]}), seed {seed}")
    return EXIT_OK
