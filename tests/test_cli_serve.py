"""`hidato serve` and `hidato pool fill`."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from webapp.cli import main
from webapp.store.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIDATO_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("HIDATO_POOL_FILL", "0")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    return tmp_path / "instance"


def test_pool_fill_only_some_options(instance: Path, capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{instance.parent}/pool.sqlite3"
    monkeypatch.setenv("DATABASE_URL", url)  # never on the command line, where ps shows it
    args = ["pool", "fill", "--only", "rectangle:4:easy:hidato", "--only", "hexagon:3:easy:hex", "--count", "2"]
    assert main(args) == 0
    assert "pool: 4 puzzles added" in capsys.readouterr().out
    store = Store(url)
    try:
        assert store.pool_counts() == {("rectangle", 4, "easy", "king"): 2, ("hexagon", 3, "easy", "hex"): 2}
    finally:
        store.close()
    assert main(args) == 0
    assert "pool: 0 puzzles added" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["pool"], "missing action"),
        (["pool", "fill", "--only", "diamond"], "SHAPE:SIZE:DIFFICULTY:VARIANT"),
        (["pool", "fill", "--only", "blob:3:easy:hidato"], "Unknown shape"),
        (["pool", "fill", "--count", "0"], "at least 1"),
        (["serve", "--port", "http"], "expected a port number"),
        (["serve", "--port", "70000"], "from 0 to 65535"),
    ],
)
def test_bad_usage(instance: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_serve_answers_on_the_port_it_is_given(instance: Path) -> None:
    port = _free_port()
    env = {**os.environ, "PORT": str(port)}
    server = subprocess.Popen([sys.executable, "-m", "webapp.cli", "serve"], cwd=ROOT, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    body = response.read().decode()
                break
            except urllib.error.HTTPError:
                raise
            except OSError:  # not listening yet
                assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
        assert "New puzzle" in body
        assert (instance / "hidato.sqlite3").exists()  # created on first run
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stderr:
            server.stderr.close()
