"""gunicorn started as `make serve` starts it, on a free loopback port, for tests and the load bench.

Each server is the leader of its own process group (its workers and their children are
in it), so ``kill`` can end the whole host at once with SIGKILL, as a machine that dies.
"""

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

    def __init__(self, instance: Path, database: str | None, workers: int = 2, env: dict[str, str] | None = None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.env = {**os.environ, "HOST": "127.0.0.1", "PORT": str(self.port), "WORKERS": str(workers),
                    "THREADS": "4", "HIDATO_INSTANCE": str(instance), "HIDATO_POOL_FILL": "0"}
        self.env.pop("SECRET_KEY", None)
        self.env.pop("DATABASE_URL", None)
        if database:
            self.env["DATABASE_URL"] = database
        self.env.update(env or {})
        self.process: subprocess.Popen[bytes] | None = None
        self.log = instance.parent / f"gunicorn-{self.port}.log"

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self) -> None:
        """Start gunicorn without waiting for it (``wait_ready``): several servers start together."""
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(GUNICORN), "-c", "python:webapp.web.gunicorn_conf", "--no-control-socket", "webapp.web.wsgi:app"],
                cwd=ROOT, env=self.env, stdout=log, stderr=log, start_new_session=True)

    def wait_ready(self) -> None:
        assert self.process is not None
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
        return [pid for pid, parent in _parents().items() if parent == self.process.pid]

    def pids(self) -> set[int]:
        """The master and every process under it (workers, their forkserver and children)."""
        assert self.process is not None
        children: dict[int, list[int]] = {}
        for pid, parent in _parents().items():
            children.setdefault(parent, []).append(pid)
        found, todo = set(), [self.process.pid]
        while todo:
            pid = todo.pop()
            if pid not in found:
                found.add(pid)
                todo.extend(children.get(pid, []))
        return found

    def kill(self) -> None:
        """SIGKILL the whole host at once, as a machine that dies: nothing runs its exit code."""
        if self.process is None:
            return
        victims = self.pids()
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the group: master, workers, children
        except ProcessLookupError:
            pass
        for pid in victims:  # and any that left the group
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self.process.wait()
        self.process = None
        deadline = time.monotonic() + 10
        while alive := [pid for pid in victims if _running(pid)]:
            assert time.monotonic() < deadline, f"processes {alive} outlived SIGKILL"
            time.sleep(0.02)

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


def _parents() -> dict[int, int]:
    """Every process's parent, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        found[int(entry)] = int(fields[1])
    return found


def _running(pid: int) -> bool:
    """Whether the process exists and is not a zombie (a dead child nobody reaped yet)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
