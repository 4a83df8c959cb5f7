"""``hidato secret rotate``: a new key to sign session cookies with (loads the store when it runs)."""

from __future__ import annotations

import argparse
import os
import sys

from .common import EXIT_OK, fail


def add_secret(commands: argparse._SubParsersAction) -> None:
    """Register ``hidato secret rotate``."""
    sub = commands.add_parser(
        "secret",
        help="manage the key that signs session cookies",
        description="Without SECRET_KEY in the environment, every host signs session cookies "
                    "with one random key kept in the database (DATABASE_URL, else the instance "
                    "folder's SQLite file).",
    )
    actions = sub.add_subparsers(dest="secret_command", metavar="ACTION", title="actions")
    rotate = actions.add_parser(
        "rotate",
        help="replace the database's key; cookies signed with the old one stay valid",
        description="Make a new random key; the one it replaces still verifies cookies until "
                    "the next rotation. Each host uses the new key once restarted.",
    )
    rotate.set_defaults(handler=_cmd_rotate)
    sub.set_defaults(handler=lambda _args: fail("missing action (see 'hidato secret --help')"))


def _cmd_rotate(args: argparse.Namespace) -> int:
    from ..web import keys
    from ..web.app import create_app

    app = create_app({"POOL_FILL": False})
    found = app.extensions["hidato"]
    try:
        keys.rotate(found.store)
    finally:
        found.close()
    print(f"secret: a new session key is in the database; the old one is kept as '{keys.PREVIOUS}' "
          "and still verifies cookies until the next rotation.")
    print("Each host signs with the new key once restarted: restart them one at a time, "
          "no player loses their session.")
    if os.environ.get("SECRET_KEY"):
        print("note: SECRET_KEY is set here, and a host with SECRET_KEY set uses it instead of the "
              "database's key (to change that one, set the new key in SECRET_KEY and the old in "
              "HIDATO_SECRET_KEY_FALLBACKS).", file=sys.stderr)
    return EXIT_OK
