"""A flood of expensive editor requests against gunicorn, as ``make serve`` runs it: the
ordinary pages keep answering, heavy work runs a few at a time across every worker, and
a board larger than the site plays is refused at once.  (The benchmark with the figures
is ``make flood``; this test keeps its bounds generous so a busy machine does not fail it.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import parse_puzzle, puzzle_to_id

from flood_client import run, summary
from gunicorn_server import Server
from puzzle_files import DATA

CODE = puzzle_to_id(parse_puzzle((DATA / "classic-8x8-40.txt").read_text()))


@pytest.mark.slow
def test_pages_stay_quick_while_the_editor_is_flooded(tmp_path: Path) -> None:
    server = Server(tmp_path / "instance", None, workers=2)
    server.env.update(HIDATO_PROXIES="1", HIDATO_SOLVE_SECONDS="2", HIDATO_WORK_SLOTS="1")
    server.start()
    try:
        assert server.process is not None
        report = run(server.port, CODE, seconds=8, flooders=12, root=server.process.pid)
    finally:
        server.stop()
    assert not report.probe_errors, report.probe_errors[:5]
    for name, values in report.latency.items():
        median, p99, worst = summary(values)
        assert values and p99 < 1500, f"{name}: median {median:.0f} ms, p99 {p99:.0f} ms, worst {worst:.0f} ms"
    # The flood got answers, never a server error: too hard (200), busy (503) or over its rate (429).
    assert set(report.flood_status) <= {200, 429, 503}, report.flood_status
    assert report.flood_status.get(200, 0) >= 1
    assert report.flood_status.get(503, 0) >= 1  # more asked than the one slot could take
    assert max(report.flood_seconds) < 2 + 2 + 2  # waited for a slot at most, then the budget, then a margin
    assert 1 <= report.most_children <= 1  # one slot: never two children at once, whichever worker
    assert report.big_board_status == 400 and "1,600 cells" in report.big_board_text
    assert report.big_board_seconds < 1
