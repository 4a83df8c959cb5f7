"""gunicorn started as `make serve` starts it, on a free loopback port, for tests and the load bench."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn with several workers on one database, as make serve runs it."""

    def __init__(self, instance: Path, database: str | None, workers: int = 2):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "WORKERS": str(workers),
                    "THREADS": "4", "HIDATO_INSTANCE": str(instance), "HIDATO_POOL_FILL": "0"}
        self.env.pop("SECRET_KEY", None)
        self.env.pop("DATABASE_URL", None)
        if database:
            self.env["DATABASE_URL"] = database
        self.process: subprocess.Popen[bytes] | None = None
        self.log = instance.parent / f"gunicorn-{self.port}.log"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(GUNICORN), "-c", "python:webapp.web.gunicorn_conf", "--no-control-socket", "webapp.web.wsgi:app"],
                cwd=ROOT, env=self.env, stdout=log, stderr=log)
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.base + "/mine", timeout=5) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            assert time.monotonic() < deadline, "gunicorn did not start"
            time.sleep(0.1)

    def workers(self) -> list[int]:
        """The worker processes: the master's children."""
        assert self.process is not None
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.process.pid:
                found.append(int(entry))
        return found

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None
