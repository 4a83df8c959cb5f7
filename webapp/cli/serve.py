"""``hidato serve`` (the web app under Werkzeug's server), ``hidato worker`` (a process that
only does background jobs) and ``hidato db upgrade``.

Both load the web stack, and only when they run: the engine commands never do.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from .common import EXIT_OK

POOL_CHECK_SECONDS = 60.0  # how often ``hidato worker`` tops up the pool


def add_serve(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato serve``."""
    sub = commands.add_parser(
        "serve",
        help="serve the web app (http://127.0.0.1:5000 by default)",
        description="Serve the Hidato web app with Werkzeug's server, after bringing the database "
                    "to the latest schema. The SQLite database in the instance folder is created "
                    "on first run; DATABASE_URL selects another.",
    )
    sub.add_argument("--host", default=os.environ.get("HOST") or "127.0.0.1",
                     help="address to listen on (default $HOST or 127.0.0.1)")
    sub.add_argument("--port", type=_port, default=os.environ.get("PORT") or "5000",
                     help="port to listen on (default $PORT or 5000)")
    sub.add_argument("--debug", action="store_true", help="reload on code changes, show tracebacks")
    sub.set_defaults(handler=_cmd_serve)


def add_worker(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato worker``."""
    sub = commands.add_parser(
        "worker",
        help="do the site's background jobs (new puzzles, booklets) on this machine",
        description="Take the site's background jobs (puzzles that take a while to make, PDF "
                    "booklets) from the database and do them, so web hosts can leave them alone "
                    "(HIDATO_JOB_THREADS=0 there). Every server process does jobs too unless told "
                    "not to. DATABASE_URL names the shared database. Stops on Ctrl-C or SIGTERM, "
                    "finishing the jobs it holds for up to --grace seconds; jobs it leaves are "
                    "taken over by another worker.",
    )
    sub.add_argument("--threads", type=_threads, default=None,
                     help="jobs at once (default $HIDATO_JOB_THREADS, else 2)")
    sub.add_argument("--grace", type=float, default=30.0, metavar="SECONDS",
                     help="how long to finish running jobs when told to stop (default 30)")
    sub.set_defaults(handler=_cmd_worker)


def add_db(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato db upgrade``."""
    sub = commands.add_parser(
        "db",
        help="bring the database to the latest schema",
        description="The database's schema changes from one release to the next; 'hidato db upgrade' "
                    "brings it to the latest without losing anything (make run, make serve and "
                    "hidato serve run it first). DATABASE_URL names the database, else the instance "
                    "folder's SQLite file.",
    )
    actions = sub.add_subparsers(dest="db_command", metavar="ACTION", title="actions")
    upgrade = actions.add_parser("upgrade", help="upgrade to the latest schema (creating it if new)")
    upgrade.set_defaults(handler=_cmd_db_upgrade)
    sub.set_defaults(handler=lambda _args: _missing("db"))


def _missing(command: str) -> int:
    from .common import fail

    return fail(f"missing action (see 'hidato {command} --help')")


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a port number, got {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be from 0 to 65535, got {value}")
    return value


def _threads(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 up, got {text!r}")
    return int(text)


def _cmd_worker(args: argparse.Namespace) -> int:
    import threading

    from ..web.app import create_app

    config = {"JOB_THREADS": args.threads} if args.threads else {}
    app = create_app(config)
    found = app.extensions["hidato"]
    if not found.jobs.threads:
        found.close()
        from .common import fail

        return fail("HIDATO_JOB_THREADS is 0: a worker with no job threads would do nothing "
                    "(use --threads N)")
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda _signum, _frame: stop.set())
    found.jobs.start()
    print(f"Hidato worker: {found.jobs.threads} job threads as {found.jobs.owner} "
          f"(database {found.store.schema_note})", file=sys.stderr)
    try:
        # Web hosts that leave jobs to workers may leave the pool to them too (HIDATO_POOL_FILL=0
        # there): a worker tops it up now and then (a full pool costs one query).
        while not stop.wait(POOL_CHECK_SECONDS):
            found.refiller.request()
    except KeyboardInterrupt:
        pass
    finally:
        found.jobs.shutdown(wait=args.grace)
        found.close()
    return EXIT_OK


def _cmd_db_upgrade(args: argparse.Namespace) -> int:
    from ..web.app import create_app

    app = create_app({"POOL_FILL": False})
    found = app.extensions["hidato"]
    print(f"database: {found.store.schema_note}", file=sys.stderr)
    found.close()
    return EXIT_OK


def _cmd_serve(args: argparse.Namespace) -> int:
    from werkzeug.serving import run_simple

    from ..web.app import create_app

    app = create_app()
    found = app.extensions["hidato"]
    print(f"Hidato on http://{args.host}:{args.port}/ (instance folder {app.instance_path}; "
          f"database {found.store.schema_note})", file=sys.stderr)
    # SIGTERM (from a process manager) ends the server like Ctrl-C, so the pool child is stopped too.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    found.jobs.start()  # this process does background jobs too, its own and other hosts'
    try:
        run_simple(args.host, args.port, app, threaded=True, use_reloader=args.debug, use_debugger=args.debug)
    finally:
        found.close()
    return EXIT_OK
