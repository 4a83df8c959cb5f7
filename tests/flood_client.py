"""A flood of expensive editor requests against a live server, with ordinary pages timed meanwhile.

Shared by the flood test (tests/test_web_flood.py) and the benchmark (``make flood``,
bench/load/flood.py).  The flooders post the solver page's Grade button with a
900-cell sparse board that no solver settles within seconds, each from its own
address (``X-Forwarded-For``: the server runs with ``HIDATO_PROXIES=1``), so they are
24 clients each inside its rate limit.  Probes meanwhile fetch the home page, a puzzle
page and a static file, and a sampler counts the budgeted child processes running at
once on the machine.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

HARD_BOARD = (Path(__file__).parent / "data" / "budget" / "hard-900.txt").read_text()
PROBES = {"home": "/", "puzzle": "/p/{code}", "static": "/static/hidato.css"}


@dataclass
class Report:
    """What the probes and flooders saw."""

    latency: dict[str, list[float]] = field(default_factory=lambda: {name: [] for name in PROBES})
    probe_errors: list[str] = field(default_factory=list)
    flood_status: dict[int, int] = field(default_factory=dict)  # HTTP status -> answers
    flood_seconds: list[float] = field(default_factory=list)
    most_children: int = 0
    big_board_seconds: float = 0.0
    big_board_status: int = 0
    big_board_text: str = ""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def summary(values: list[float]) -> tuple[float, float, float]:
    """(median, p99, max) in milliseconds."""
    if not values:
        return float("nan"), float("nan"), float("nan")
    return 1000 * statistics.median(values), 1000 * percentile(values, 0.99), 1000 * max(values)


class Client:
    """One keep-alive HTTP/1.1 connection with a cookie and an address of its own."""

    def __init__(self, port: int, address: str | None = None):
        self.port = port
        self.address = address
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> tuple[int, str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        if self.cookie:
            lines.append(f"Cookie: session={self.cookie}")
        if self.address:
            lines.append(f"X-Forwarded-For: {self.address}")
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        assert self.reader is not None
        status_line = await self.reader.readline()
        if not status_line:
            await self.close()
            raise ConnectionError("the server closed the connection")
        status = int(status_line.split()[1])
        length, close = 0, False
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "content-length":
                length = int(value)
            elif name == "set-cookie" and value.startswith("session="):
                self.cookie = value.split(";", 1)[0][len("session="):]
            elif name == "connection" and value.lower() == "close":
                close = True
        text = (await self.reader.readexactly(length)).decode() if length else ""
        if close:
            await self.close()
        return status, text

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None


def budget_children(root: int | None = None) -> int:
    """Budgeted children running on this machine: processes forked by a forkserver (with
    ``root``, only the forkservers of that process tree: other tests run beside this one)."""
    servers: set[int] = set()
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                parents[int(entry)] = int(handle.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if b"multiprocessing.forkserver" in handle.read():
                    servers.add(int(entry))
        except OSError:
            continue
    if root is not None:
        servers = {pid for pid in servers if _descends(pid, root, parents)}
    return sum(1 for parent in parents.values() if parent in servers)


def _descends(pid: int, root: int, parents: dict[int, int]) -> bool:
    seen = 0
    while pid > 1 and seen < 64:
        if pid == root:
            return True
        pid = parents.get(pid, 0)
        seen += 1
    return False


async def _token(client: Client) -> str:
    status, page = await client.request("GET", "/solve")
    marker = 'name="csrf_token" value="'
    assert status == 200 and marker in page, (status, page[:200])
    return page.split(marker, 1)[1].split('"', 1)[0]


async def _flooder(index: int, port: int, deadline: float, report: Report) -> None:
    client = Client(port, f"10.77.{index // 250}.{index % 250 + 1}")
    try:
        token = await _token(client)
        body = urllib.parse.urlencode({"puzzle": HARD_BOARD, "drawn": "", "action": "grade",
                                       "csrf_token": token}).encode()
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                status, _ = await client.request("POST", "/solve", body)
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError):
                status = 0
            report.flood_seconds.append(time.perf_counter() - started)
            report.flood_status[status] = report.flood_status.get(status, 0) + 1
    finally:
        await client.close()


async def _probe(name: str, path: str, port: int, deadline: float, report: Report, pause: float) -> None:
    client = Client(port)
    try:
        while time.monotonic() < deadline:
            started = time.perf_counter()
            try:
                status, _ = await client.request("GET", path)
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as err:
                report.probe_errors.append(f"{name}: {err!r}")
                continue
            report.latency[name].append(time.perf_counter() - started)
            if status != 200:
                report.probe_errors.append(f"{name}: {status}")
            await asyncio.sleep(pause)
    finally:
        await client.close()


async def _sample_children(deadline: float, report: Report, root: int | None) -> None:
    while time.monotonic() < deadline:
        report.most_children = max(report.most_children, await asyncio.to_thread(budget_children, root))
        await asyncio.sleep(0.05)


async def _big_board(port: int, report: Report) -> None:
    side = 40
    rows = [["."] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = "1", str(side * side)
    client = Client(port, "10.78.0.1")
    try:
        token = await _token(client)
        body = urllib.parse.urlencode({"puzzle": "\n".join(" ".join(row) for row in rows), "drawn": "",
                                       "action": "grade", "csrf_token": token}).encode()
        started = time.perf_counter()
        report.big_board_status, report.big_board_text = await client.request("POST", "/solve", body)
        report.big_board_seconds = time.perf_counter() - started
    finally:
        await client.close()


async def measure(port: int, code: str, seconds: float, flooders: int, pause: float = 0.05,
                  root: int | None = None) -> Report:
    """Probe the pages for ``seconds`` while ``flooders`` clients post Grade (none: a quiet run)."""
    report = Report()
    warm = Client(port)
    for path in PROBES.values():  # every worker's templates and connections warm first
        for _ in range(10):
            await warm.request("GET", path.format(code=code))
    await warm.close()
    deadline = time.monotonic() + seconds
    tasks = [_probe(name, path.format(code=code), port, deadline, report, pause) for name, path in PROBES.items()]
    tasks += [_flooder(i, port, deadline, report) for i in range(flooders)]
    tasks.append(_sample_children(deadline, report, root))
    if flooders:
        tasks.append(_delayed(min(2.0, seconds / 2), _big_board(port, report)))
    await asyncio.gather(*tasks)
    return report


async def _delayed(seconds: float, work: asyncio.Future[None] | object) -> None:
    await asyncio.sleep(seconds)
    await work  # type: ignore[misc]


def run(port: int, code: str, seconds: float, flooders: int, root: int | None = None) -> Report:
    """``measure`` in a thread of its own (pytest-playwright keeps an event loop in this one)."""
    found: list[Report] = []
    thread = threading.Thread(
        target=lambda: found.append(asyncio.run(measure(port, code, seconds, flooders, root=root))))
    thread.start()
    thread.join()
    if not found:
        raise RuntimeError("the flood measurement failed (see the thread's traceback above)")
    return found[0]
