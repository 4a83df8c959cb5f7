"""Load benchmark (``make load``): simulated players against gunicorn on 127.0.0.1.

For each database (SQLite in a fresh instance folder; PostgreSQL when
HIDATO_TEST_POSTGRES_URL names one, as tools/with_postgres.sh does) it starts gunicorn as
``make serve`` does, then for about ``--seconds`` runs ``--players`` simulated players
at once, each with its own session: open a puzzle (the page), post entries to its cells
as htmx does (the entry endpoint), now and then open another puzzle.  Every request is
timed on the client; an error is any answer but 200 or a failed connection.  The CPU time
the server's processes used during the timed part, divided by the requests answered, is
the one figure that another program busy on the same cores distorts little.

Then every server process is killed at once with SIGKILL (nothing runs its exit code) and
the servers are started again, and for every cell each player wrote to,
the last number the server acknowledged there (answered 200 with the cell showing it) is
looked up on the player's page: the run fails unless every one is there, or on any error.

``--hosts 1,2`` (as ``make load`` runs it) adds a run on PostgreSQL with two hosts: two
gunicorn servers, each with its own instance folder and no SECRET_KEY, on one database,
and every player's requests alternating between them as behind a round-robin balancer
(one cookie, a keep-alive connection to each host).

The load generator is asyncio with plain HTTP/1.1 keep-alive connections (standard
library only) and shares the two cores with the server, so the figures are a floor.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import random
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # the gunicorn launcher the worker tests use

from engine import parse_puzzle, puzzle_to_id  # noqa: E402

from gunicorn_server import Server  # noqa: E402

PUZZLE_FILES = ["tests/data/puzzles/classic-8x8-40.txt", "tests/data/puzzles/seed004-irregular-53.txt",
                "tests/data/puzzles/seed004-ring-diamond-48.txt", "tests/data/puzzles/large/rectangle10_s1.txt",
                "bench/puzzles/diamond7_e0.txt", "bench/puzzles/heart14_e1.txt"]
_INPUT = re.compile(r'<input id="c-(\d+)-(\d+)"[^>]*?value="([^"]*)"', re.S)
_TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')

Cell = tuple[int, int]
WARM_UP_SECONDS = 3.0


@dataclass
class Tally:
    """What the players saw: latencies by endpoint, errors, and the entries acknowledged."""

    latency: dict[str, list[float]] = field(default_factory=lambda: {"entry": [], "page": []})
    errors: list[str] = field(default_factory=list)
    # (player index, puzzle id) -> cell -> the last number the server said it stored there
    acknowledged: dict[tuple[int, str], dict[Cell, int]] = field(default_factory=dict)
    acks: int = 0  # entries acknowledged, every one (a cell may be written many times)
    server_cpu: float = 0.0  # CPU seconds the servers' processes used in the timed part


class Connection:
    """One keep-alive HTTP/1.1 connection with a cookie, as a browser tab has."""

    def __init__(self, port: int):
        self.port = port
        self.cookie = ""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> tuple[int, str]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}", "Connection: keep-alive"]
        if self.cookie:
            lines.append(f"Cookie: session={self.cookie}")
        for name, value in (headers or {}).items():
            lines.append(f"{name}: {value}")
        if method == "POST":
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        try:
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            await self.writer.drain()
            assert self.reader is not None
            status_line = await self.reader.readline()
            if not status_line:
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
        except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError):
            await self.close()
            raise
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


class Balanced(Connection):
    """One browser behind a round-robin balancer: each request goes to the next host
    (a keep-alive connection to each), with the one session cookie."""

    def __init__(self, ports: list[int]):
        super().__init__(ports[0])
        self.connections = [Connection(port) for port in ports]
        self.turn = 0

    async def request(self, method: str, path: str, body: bytes = b"",
                      headers: dict[str, str] | None = None) -> tuple[int, str]:
        connection = self.connections[self.turn % len(self.connections)]
        self.turn += 1
        connection.cookie = self.cookie
        try:
            return await connection.request(method, path, body, headers)
        finally:
            self.cookie = connection.cookie

    async def close(self) -> None:
        for connection in self.connections:
            await connection.close()


def connect(ports: list[int]) -> Connection:
    return Connection(ports[0]) if len(ports) == 1 else Balanced(ports)


async def play(index: int, connection: Connection, codes: list[str], deadline: float, tally: Tally,
               seed: int) -> None:
    """Open a puzzle, post entries to it, now and then move on to another, until the deadline."""
    rng = random.Random(seed)
    try:
        while time.monotonic() < deadline:
            code = rng.choice(codes)
            started = time.perf_counter()
            try:
                status, page = await connection.request("GET", f"/p/{urllib.parse.quote(code, safe=':')}")
            except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as err:
                tally.errors.append(f"page: {err!r}")
                continue
            tally.latency["page"].append(time.perf_counter() - started)
            token = _TOKEN.search(page)
            if status != 200 or token is None:
                tally.errors.append(f"page: {status}")
                continue
            cells = [(int(r) - 1, int(c) - 1) for r, c, _value in _INPUT.findall(page)]
            size = len(cells) + page.count('class="num"')
            stored = tally.acknowledged.setdefault((index, code), {})
            for _ in range(rng.randint(5, 20)):
                if time.monotonic() >= deadline:
                    break
                cell = rng.choice(cells)
                value = rng.randint(1, size)
                name = f"c-{cell[0] + 1}-{cell[1] + 1}"
                body = urllib.parse.urlencode({name: str(value)}).encode()
                headers = {"HX-Request": "true", "X-CSRF-Token": token.group(1)}
                started = time.perf_counter()
                try:
                    status, answer = await connection.request(
                        "POST", f"/p/{urllib.parse.quote(code, safe=':')}/cell/{cell[0] + 1}/{cell[1] + 1}",
                        body, headers)
                except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as err:
                    tally.errors.append(f"entry: {err!r}")
                    continue
                tally.latency["entry"].append(time.perf_counter() - started)
                shown = {(int(r) - 1, int(c) - 1): v for r, c, v in _INPUT.findall(answer)}
                if status != 200:
                    tally.errors.append(f"entry: {status}")
                elif shown.get(cell) == str(value):
                    stored[cell] = value  # acknowledged: the server says the cell holds it
                    tally.acks += 1
                else:
                    tally.errors.append(f"entry: not acknowledged ({answer[:120]!r})")
    finally:
        await connection.close()


# --- the server ------------------------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


async def verify(ports: list[int], tally: Tally, cookies: dict[int, str]) -> int:
    """Every acknowledged entry, looked up on its player's page (the hosts in turn); returns
    how many were found."""
    found = 0
    for number, ((index, code), expected) in enumerate(sorted(tally.acknowledged.items())):
        if not expected:
            continue
        connection = Connection(ports[number % len(ports)])
        connection.cookie = cookies[index]
        status, page = await connection.request("GET", f"/p/{urllib.parse.quote(code, safe=':')}")
        await connection.close()
        shown = {(int(r) - 1, int(c) - 1): html.unescape(v) for r, c, v in _INPUT.findall(page)}
        for cell, value in expected.items():
            if status == 200 and shown.get(cell) == str(value):
                found += 1
            else:
                tally.errors.append(f"lost: player {index} {code} {cell}={value}, page shows {shown.get(cell)!r}")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each run (default 30)")
    parser.add_argument("--players", type=int, default=32, help="simulated players at once (default 32)")
    parser.add_argument("--workers", type=int, default=None, help="gunicorn workers (default: make serve's)")
    parser.add_argument("--threads", type=int, default=None, help="threads per gunicorn worker (default: make serve's)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backends", default="sqlite,postgresql" if os.environ.get("HIDATO_TEST_POSTGRES_URL")
                        else "sqlite", help="comma-separated: sqlite, postgresql (needs HIDATO_TEST_POSTGRES_URL, "
                        "as tools/with_postgres.sh sets; the default when it is set)")
    parser.add_argument("--hosts", default="1", help="comma-separated numbers of hosts (default 1): more than "
                        "one runs that many gunicorn servers, --workers each, on one PostgreSQL database, each "
                        "player's requests going to them in turn (PostgreSQL only)")
    args = parser.parse_args()
    host_counts = [int(count) for count in args.hosts.split(",")]
    workers = args.workers or 2 * (os.cpu_count() or 1) + 1
    codes = [puzzle_to_id(parse_puzzle((ROOT / name).read_text())) for name in PUZZLE_FILES]
    rows = []
    failed = False
    runs = [(backend, count) for backend in args.backends.split(",") for count in host_counts
            if count == 1 or backend == "postgresql"]
    if not runs:
        print("more than one host needs PostgreSQL (--backends postgresql)", file=sys.stderr)
        return 2
    for backend, count in runs:
        database = None
        if backend == "postgresql":
            database = os.environ.get("HIDATO_TEST_POSTGRES_URL")
            if not database:
                print("postgresql: HIDATO_TEST_POSTGRES_URL is not set (make load starts a server)", file=sys.stderr)
                return 2
        with tempfile.TemporaryDirectory(prefix="hidato-load-") as folder:
            if database:
                database = _fresh_schema(database)
            extra = {"THREADS": str(args.threads)} if args.threads else {}
            servers = [Server(_instance(Path(folder), index, count), database, workers, env=extra)
                       for index in range(count)]
            _start(servers)
            try:
                ports = [server.port for server in servers]
                tally, elapsed, cookies = asyncio.run(_measure(servers, codes, args))
                for server in servers:  # every process killed at once, -9: nothing runs its exit code
                    server.kill()
                _start(servers)  # everything acknowledged must outlive that
                expected = sum(len(cells) for cells in tally.acknowledged.values())
                found = asyncio.run(verify(ports, tally, cookies))
            finally:
                _stop(servers)
        requests = len(tally.latency["entry"]) + len(tally.latency["page"])
        errors = len(tally.errors)
        failed |= errors > 0 or found != expected
        rows.append((backend, count, elapsed, requests / elapsed, tally, errors, expected, found))
        for error in tally.errors[:10]:
            print(f"{backend}{f' x {count} hosts' if count > 1 else ''}: {error}", file=sys.stderr)
    several = any(count > 1 for _backend, count in runs)
    per_host = " per host" if several else ""
    print(f"\n{args.players} players, {args.seconds:g} s per run, gunicorn on 127.0.0.1 "
          f"(gthread, {workers} workers x 4 threads{per_host}), Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores\n")
    hosts_column = ("| hosts ", "|---:") if several else ("", "")
    print(f"| database {hosts_column[0]}| requests | requests/s | entry median ms | entry p99 ms | page median ms "
          "| page p99 ms | server CPU ms per request | errors | entries acknowledged | cells checked after a restart |")
    print(f"|---{hosts_column[1]}|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for backend, count, _elapsed, rate, tally, errors, expected, found in rows:
        entry, page = tally.latency["entry"], tally.latency["page"]
        hosts = f" {count} |" if several else ""
        print(f"| {backend} |{hosts} {len(entry) + len(page):,} | {rate:,.0f} | "
              f"{1000 * statistics.median(entry):.1f} | "
              f"{1000 * percentile(entry, 0.99):.1f} | {1000 * statistics.median(page):.1f} | "
              f"{1000 * percentile(page, 0.99):.1f} | {1000 * tally.server_cpu / max(1, len(entry) + len(page)):.2f} | "
              f"{errors} | {tally.acks:,} | {found:,} of {expected:,} |")
    return 1 if failed else 0


def _instance(folder: Path, index: int, count: int) -> Path:
    """A host's instance folder: one of its own when there are several."""
    if count == 1:
        return folder / "instance"
    (folder / f"host-{index + 1}").mkdir()
    return folder / f"host-{index + 1}" / "instance"


def _start(servers: list[Server]) -> None:
    for server in servers:
        server.launch()
    for server in servers:
        server.wait_ready()


def _stop(servers: list[Server]) -> None:
    for server in servers:
        server.stop()


def _cpu_seconds(servers: list[Server]) -> dict[int, float]:
    """CPU time (user and system) of every process of the servers so far, by process id."""
    tick = os.sysconf("SC_CLK_TCK")
    used = {}
    for server in servers:
        for pid in server.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue  # gone since it was listed
            used[pid] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    return used


async def _measure(servers: list[Server], codes: list[str],
                   args: argparse.Namespace) -> tuple[Tally, float, dict[int, str]]:
    ports = [server.port for server in servers]
    tally = Tally()
    cookies: dict[int, str] = {}
    for code in codes:  # each puzzle opened once first: the run times playing, not solving new ids
        warm = Connection(ports[0])
        status, _ = await warm.request("GET", f"/p/{urllib.parse.quote(code, safe=':')}")
        await warm.close()
        if status != 200:
            raise SystemExit(f"/p/{code}: {status}")
    # A few seconds of play first, not counted, so every worker has its templates compiled
    # and its database connections open.
    warm_up = time.monotonic() + WARM_UP_SECONDS
    await asyncio.gather(*(play(-1 - i, connect(ports), codes, warm_up, Tally(), i) for i in range(args.players)))
    before = _cpu_seconds(servers)
    started = time.monotonic()
    deadline = started + args.seconds
    await asyncio.gather(*(_player_with_cookie(i, ports, codes, deadline, tally, args.seed * 1000 + i, cookies)
                           for i in range(args.players)))
    elapsed = time.monotonic() - started
    tally.server_cpu = sum(used - before.get(pid, 0.0) for pid, used in _cpu_seconds(servers).items())
    return tally, elapsed, cookies


async def _player_with_cookie(index: int, ports: list[int], codes: list[str], deadline: float, tally: Tally,
                              seed: int, cookies: dict[int, str]) -> None:
    connection = connect(ports)
    await play(index, connection, codes, deadline, tally, seed)
    cookies[index] = connection.cookie


def _fresh_schema(url: str) -> str:
    """A new, empty schema on the PostgreSQL server for this run."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from webapp.store.store import database_url

    url = database_url(url, "")
    schema = f"load_{int(time.time())}_{os.getpid()}"
    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return make_url(url).update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


if __name__ == "__main__":
    sys.exit(main())
