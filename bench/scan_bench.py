"""Photo reader benchmark (``make bench``): every picture of the test set read with
``webapp.scan.read_picture``, plus full 12-MP phone photos made on the fly; prints a
Markdown table per category.

- **numbers right**: the numbers of the drawn puzzle read with the right value in the
  right cell (tests/scan_cases.py places the reading on the truth where most numbers
  agree); for pictures with a player's numbers, read with ``entries=True``, those too;
- **boards exact**: the whole puzzle read as drawn (the acceptance test's criterion);
- **median / worst s**: the reading's wall time, the model already loaded (the first
  picture in a new process, with the imports and the model, is timed on its own line);
- **peak MB**: the largest peak resident memory of the process reading one picture: the
  reading runs in a child process whose peak (``VmHWM`` in ``/proc/self/status``) is
  reset before each picture (``/proc/self/clear_refs``), so it is the whole process's
  peak while it read that picture, the libraries and the model included.

    .venv/bin/python bench/scan_bench.py                  # the set and 4 photos of 12 MP
    .venv/bin/python bench/scan_bench.py --only hex,pdf   # some categories
    .venv/bin/python bench/scan_bench.py --big 0 --misses # no 12-MP photos; list what was misread

Targets (issue 27): >= 99 % numbers right and >= 95 % boards exact in every category; a
12-MP photo in <= 3 s median on 2 cores, under 1 GB.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tools"))

from engine import Puzzle, parse_puzzle  # noqa: E402

from scan_cases import load_cases, numbers_right, same_entries, same_puzzle  # noqa: E402

TIME_LIMIT = 120.0  # seconds for one picture before the child is stopped and started again
BIG = "12-MP photos"


@dataclass
class Job:
    """One picture to read and what it shows."""

    name: str
    category: str
    path: Path
    truth: Puzzle
    entries: dict[tuple[int, int], int] = field(default_factory=dict)
    hex_turns: bool = False


@dataclass
class Result:
    job: Job
    seconds: float = 0.0
    peak_mb: float = 0.0
    right: int = 0
    exact: bool = False
    error: str = ""
    text: str = ""
    stages: dict[str, float] = field(default_factory=dict)


# --- the child that reads -----------------------------------------------------------------


def _peak_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0


def worker() -> int:
    """Read the pictures named on stdin (one JSON request a line), answer one JSON line each."""
    import webapp.scan as scan

    for line in sys.stdin:
        request = json.loads(line)
        try:
            Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from what is resident now
            resettable = True
        except OSError:
            resettable = False
        data = Path(request["path"]).read_bytes()
        started = time.perf_counter()
        answer: dict[str, Any] = {}
        try:
            reading = scan.read_picture(data, entries=request["entries"])
            answer = {"text": reading.text(), "stages": reading.stages,
                      "written": [[c.cell[0], c.cell[1], c.value] for c in reading.cells
                                  if not c.given and c.value is not None]}
        except scan.ScanError as error:
            answer = {"error": f"{type(error).__name__}: {error}"}
        except Exception as error:  # a crash is a result too: the table says which
            answer = {"error": f"crash {type(error).__name__}: {error}"[:300]}
        answer["seconds"] = time.perf_counter() - started
        answer["peak_kb"] = _peak_kb()
        answer["resettable"] = resettable
        print(json.dumps(answer), flush=True)
    return 0


class Reader:
    """A child process reading pictures one at a time (started again after a time-out)."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                text=True, cwd=ROOT)

    def read(self, job: Job) -> dict[str, Any]:
        if self.process is None:
            self.process = self._start()
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"path": str(job.path), "entries": bool(job.entries)}) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], TIME_LIMIT)
        line = self.process.stdout.readline() if ready else ""
        if not line:
            self.close()
            return {"error": f"no answer in {TIME_LIMIT:g} s" if not ready else "the reading process died",
                    "seconds": TIME_LIMIT, "peak_kb": 0}
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


# --- the jobs -----------------------------------------------------------------------------


def set_jobs(only: list[str]) -> list[Job]:
    jobs = []
    for case in load_cases():
        if only and case.category not in only:
            continue
        jobs.append(Job(case.name, case.category, case.path, case.with_entries, case.entry_cells, case.hex_turns))
    return jobs


def big_jobs(count: int, folder: Path, seed: int) -> list[Job]:
    """Full-size phone photos, made now by the test set's generator (tools/scanset)."""
    from scanset.plan import big_photos
    from scanset.render import render

    jobs = []
    for spec in big_photos(seed, count):
        started = time.perf_counter()
        picture = render(spec, seed)
        path = folder / f"{spec.name}.{picture.ext}"
        path.write_bytes(picture.data)
        print(f"made {path.name}: {picture.width}x{picture.height}, {len(picture.data) / 1e6:.1f} MB, "
              f"EXIF orientation {spec.shot.orientation if spec.shot else 1} "
              f"({time.perf_counter() - started:.1f} s)", file=sys.stderr)
        jobs.append(Job(spec.name, BIG, path, picture.puzzle, {}, spec.hex_turns))
    return jobs


def judged(job: Job, answer: dict[str, Any]) -> Result:
    result = Result(job, seconds=answer["seconds"], peak_mb=answer.get("peak_kb", 0) / 1024,
                    error=answer.get("error", ""), text=answer.get("text", ""), stages=answer.get("stages", {}))
    if result.error:
        return result
    read = parse_puzzle(result.text)
    result.right = numbers_right(read, job.truth, job.hex_turns)
    result.exact = same_puzzle(read, job.truth, job.hex_turns)
    if result.exact and job.entries:
        written = {(r, c): v for r, c, v in answer.get("written", [])}
        result.exact = same_entries(read, written, job.truth, job.entries, job.hex_turns)
    return result


# --- the table ------------------------------------------------------------------------------


def table(results: list[Result], order: list[str]) -> list[str]:
    lines = ["| category | pictures | numbers right | boards exact | median s | worst s | peak MB |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    groups = [(name, [r for r in results if r.job.category == name]) for name in order]
    groups = [(name, rs) for name, rs in groups if rs]
    set_results = [r for r in results if r.job.category != BIG]
    if set_results:
        groups.append(("**the whole set**", set_results))
    for name, rs in groups:
        total = sum(len(r.job.truth.givens) for r in rs)
        right = sum(r.right for r in rs)
        exact = sum(r.exact for r in rs)
        times = [r.seconds for r in rs]
        lines.append(f"| {name} | {len(rs)} | {100 * right / max(total, 1):.1f} % ({right}/{total}) "
                     f"| {100 * exact / len(rs):.0f} % ({exact}/{len(rs)}) | {statistics.median(times):.2f} "
                     f"| {max(times):.2f} | {max(r.peak_mb for r in rs):.0f} |")
    return lines


def report(results: list[Result], cold_seconds: float, first: dict[str, Any], misses: bool,
           json_path: Path | None) -> None:
    """The table, the cold start, the stages' times, the errors (and with ``misses`` each
    picture not read exactly)."""
    order = ["square", "numbrix", "hex", "holes", "screenshots", "pdf", "newsprint", "entries", BIG]
    print("\n".join(table(results, order)))
    print(f"\nFirst picture in a new process (imports and model included): {cold_seconds:.1f} s "
          f"({first.get('error') or 'read'}). Peak MB: the reading process's VmHWM, reset before each picture.")
    stages: dict[str, list[float]] = {}
    for result in results:
        for stage, seconds in result.stages.items():
            stages.setdefault(stage, []).append(seconds)
    if stages:
        print("Median seconds by stage: " + ", ".join(f"{k} {statistics.median(v):.2f}" for k, v in stages.items()))
    errors: dict[str, int] = {}
    for result in results:
        if result.error:
            errors[result.error.split(":")[0]] = errors.get(result.error.split(":")[0], 0) + 1
    if errors:
        print("Errors: " + ", ".join(f"{k} x{v}" for k, v in sorted(errors.items())))
    if misses:
        for result in results:
            if not result.exact:
                print(f"- {result.job.name}: {result.error or f'{result.right}/{len(result.job.truth.givens)} right'}")
    if json_path:
        rows = [{"name": r.job.name, "category": r.job.category, "seconds": r.seconds, "peak_mb": r.peak_mb,
                 "right": r.right, "numbers": len(r.job.truth.givens), "exact": r.exact, "error": r.error,
                 "read": r.text} for r in results]
        json_path.write_text(json.dumps(rows, indent=1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--only", default="", help="categories to read, comma-separated (default all)")
    parser.add_argument("--big", type=int, default=4, help="12-MP photos made on the fly (default 4)")
    parser.add_argument("--seed", type=int, default=27, help="the 12-MP photos' seed (default 27)")
    parser.add_argument("--misses", action="store_true", help="list every picture not read exactly")
    parser.add_argument("--json", type=Path, help="write every result there too")
    args = parser.parse_args()
    if args.worker:
        return worker()
    only = [w.strip() for w in args.only.split(",") if w.strip()]
    asked = [c for c in only if c != BIG]
    jobs = set_jobs(asked) if asked or not only else []  # --only "12-MP photos": those alone
    with tempfile.TemporaryDirectory() as folder:
        if args.big and (not only or BIG in only):
            jobs += big_jobs(args.big, Path(folder), args.seed)
        print(f"reading {len(jobs)} pictures, Python {sys.version.split()[0]}, {os.cpu_count()} cores",
              file=sys.stderr)
        # The first picture in a new process: the imports and the model's loading included.
        cold = Reader()
        started = time.perf_counter()
        first = cold.read(jobs[0])
        cold_seconds = time.perf_counter() - started
        cold.close()
        reader = Reader()
        results = []
        try:
            for i, job in enumerate(jobs, 1):
                result = judged(job, reader.read(job))
                results.append(result)
                mark = "exact" if result.exact else (result.error or f"{result.right}/{len(job.truth.givens)}")
                print(f"{i:3d}/{len(jobs)} {job.name:44s} {result.seconds:6.2f} s {result.peak_mb:5.0f} MB  {mark}",
                      file=sys.stderr, flush=True)
        finally:
            reader.close()
    report(results, cold_seconds, first, args.misses, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
