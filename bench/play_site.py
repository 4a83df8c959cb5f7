"""The site of a checkout, served for the browser benchmarks (``bench/tap_to_mark.py``,
``bench/message_shift.py``), and Debian's Chromium to drive it.

``served(tree)`` starts a child process that imports ``webapp`` from ``tree`` (this
checkout by default, or another, e.g. an older commit unpacked with ``git archive``), on
a fresh SQLite database in a temporary folder, on a free port; it yields the base URL and
stops the child afterwards.  Run alone (``play_site.py --port N``) it is that child.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served(tree: Path = ROOT) -> Iterator[str]:
    """The site of the checkout at ``tree``, at the URL yielded."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with tempfile.TemporaryDirectory(prefix="hidato-bench-") as folder:
        child = subprocess.Popen([sys.executable, __file__, "--port", str(port), "--instance", folder],
                                 env=env, cwd=tree)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    if child.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"the site of {tree} did not start") from None
                    time.sleep(0.2)
            yield f"http://127.0.0.1:{port}"
        finally:
            child.terminate()
            child.wait(timeout=10)


def launch_args() -> dict[str, Any]:
    """How Playwright starts Debian's Chromium here (as tests/conftest.py does)."""
    return {"executable_path": CHROMIUM, "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]}


def _serve(port: int, instance: str) -> None:
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

    from webapp.web.app import create_app

    app = create_app({"INSTANCE_PATH": str(Path(instance) / "instance"), "SECRET_KEY": "bench",
                      "POOL_FILL": False, "DATABASE_URL": None})
    make_server("127.0.0.1", port, app, threaded=True).serve_forever()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="serve a checkout's site (a child of served())")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--instance", required=True)
    arguments = parser.parse_args()
    _serve(arguments.port, arguments.instance)
