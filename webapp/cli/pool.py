"""``hidato pool fill``: top up the pool of pre-generated puzzles (loads the store when it runs)."""

from __future__ import annotations

import argparse

from engine import plural

from .common import EXIT_OK, fail, positive_int


def add_pool(commands: argparse._SubParsersAction) -> None:
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
                    "the hard and expert levels, after the boards players asked for and "
                    "could not get at once (or only the --only options, or only those "
                    "boards with --wishes), and make today's and tomorrow's puzzle of the day.",
    )
    fill.add_argument("--count", type=positive_int, default=1, metavar="N",
                      help="puzzles to keep waiting for each set of options (default 1)")
    fill.add_argument("--only", action="append", default=[], metavar="SHAPE:SIZE:DIFFICULTY:VARIANT",
                      help="fill only these options (repeatable), e.g. diamond:7:expert:hidato")
    fill.add_argument("--wishes", action="store_true",
                      help="fill only the boards players asked for and could not get at once")
    fill.add_argument("--quiet", action="store_true", help="print nothing but errors")
    fill.set_defaults(handler=_cmd_pool_fill)
    sub.set_defaults(handler=_cmd_pool)


def _cmd_pool(args: argparse.Namespace) -> int:
    return fail("missing action (see 'hidato pool --help')")


def _cmd_pool_fill(args: argparse.Namespace) -> int:
    from ..core.options import parse_options
    from ..store.pool import fill, pool_targets, today_and_tomorrow
    from ..store.wishes import wished
    from ..web.app import create_app

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
    app = create_app({"POOL_FILL": False})
    store = app.extensions["hidato"].store
    report = None if args.quiet else (lambda line: print(line, flush=True))
    if args.wishes:
        targets += [options for options in wished(store) if options not in targets]
    days = [] if args.only or args.wishes else today_and_tomorrow(app.config["TIMEZONE"])
    made = fill(store, targets if args.only or args.wishes else pool_targets(store), count=args.count,
                report=report, days=days)
    if not args.quiet:
        print(f"pool: {plural(made, 'puzzle')} added")
    app.extensions["hidato"].close()
    return EXIT_OK
