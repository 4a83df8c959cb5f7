"""Heavy work is bounded: children killed at their budget, a few at a time across processes,
and the requests that start it (the editor's buttons, ids new to the site) charged and
remembered so a flood of them cannot take the site down."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from busy import BUSY_SLACK
from flask import Flask

from engine import parse_puzzle, puzzle_to_id
from webapp.web import limits
from webapp.work import budget

ROOT = Path(__file__).resolve().parent.parent
HARD = (ROOT / "tests" / "data" / "budget" / "hard-900.txt").read_text()


def _slow(seconds: float) -> str:
    time.sleep(seconds)
    return "done"


def _refuse(message: str) -> None:
    raise ValueError(message)


def _children() -> list[int]:
    """Live processes whose parent is one of our forkservers' children, i.e. budget children."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as handle:
                    cmdline = handle.read()
            except OSError:
                continue
            if b"forkserver" in cmdline and int(entry) != os.getpid() and _ours(int(entry)):
                found.append(int(entry))
    return found


def _ours(pid: int) -> bool:
    """Whether the process descends from this one (not from another xdist worker's)."""
    while pid > 1:
        try:
            with open(f"/proc/{pid}/stat") as handle:
                pid = int(handle.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return False
        if pid == os.getpid():
            return True
    return False


# --- children with a budget --------------------------------------------------------------


def test_run_with_budget_returns_refuses_and_kills() -> None:
    assert budget.run_with_budget(10, _slow, 0) == "done"
    with pytest.raises(ValueError, match="no good"):
        budget.run_with_budget(10, _refuse, "no good")
    started = time.monotonic()
    with pytest.raises(budget.OutOfTime, match="gave up after 0.3 seconds"):
        budget.run_with_budget(0.3, _slow, 30)
    assert time.monotonic() - started < 2  # the child was killed, not waited for


def _hungry(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def test_a_child_with_a_memory_limit_stops_at_it_and_says_so() -> None:
    """A photo's pixels are a stranger's to choose: its child may hold so much and no more."""
    assert budget.run_with_budget(10, _hungry, 50, memory=1024 * 1024 * 1024) == 50 * 1024 * 1024
    with pytest.raises(budget.OutOfMemory, match="needed more than 512 MB of memory") as caught:
        budget.run_with_budget(10, _hungry, 2048, memory=512 * 1024 * 1024)
    assert caught.value.limit == 512 * 1024 * 1024
    # A native library that cannot map its code under the limit says so in an ImportError.
    with pytest.raises(budget.OutOfMemory):
        budget.run_with_budget(20, _load_opencv, memory=200 * 1024 * 1024)
    # The limit was the child's alone: this process still takes as much as it needs.
    assert _hungry(600) == 600 * 1024 * 1024


def _load_opencv() -> str:
    import cv2

    return str(cv2.__version__)


def _counting(limit: int, progress) -> int:  # noqa: ANN001 - the child's progress function
    for step in range(1, limit + 1):
        progress(("step", step))
    return limit


def test_a_child_says_how_far_it_has_got_as_it_goes() -> None:
    heard: list[object] = []
    assert budget.run_with_budget(10, _counting, 3, progress=heard.append) == 3
    assert heard == [("step", 1), ("step", 2), ("step", 3)]  # in order, all before the answer


def _pids(share: list[int], seconds: float, progress=None) -> list[tuple[int, int]]:  # noqa: ANN001
    """Each item with the child's pid, a moment apart; gives its slot back after the first
    two items (the caller runs the rest in a next round)."""
    answers = []
    for item in share[:2]:
        time.sleep(seconds)
        if progress:
            progress(item)
        answers.append((item, os.getpid()))
    return answers


def _refuse_item(share: list[int], progress=None) -> list[int]:  # noqa: ANN001
    if 3 in share:
        raise ValueError("item 3 refused")
    time.sleep(30)  # the other child: stopped long before this
    return share


def test_split_work_runs_in_as_many_children_as_slots_are_free(tmp_path: Path) -> None:
    budget.start_processes()
    runner = budget.Runner(budget.Slots(str(tmp_path / "slots"), 2), 1, 30)
    heard: list[int] = []
    answers = runner.run_split(10, _pids, list(range(7)), 0.05, progress=heard.append)
    assert [item for item, _pid in answers] == list(range(7))  # in the order of the items
    assert len({pid for _item, pid in answers}) >= 3  # two at once, and a next round after two each
    assert sorted(heard) == list(range(7))
    # One slot: one child at a time, the same results.
    single = budget.Runner(budget.Slots(str(tmp_path / "one"), 1), 1, 30)
    assert [item for item, _pid in single.run_split(10, _pids, list(range(3)), 0.01)] == [0, 1, 2]


def test_split_work_stops_every_child_when_one_fails(tmp_path: Path) -> None:
    budget.start_processes()
    runner = budget.Runner(budget.Slots(str(tmp_path / "slots"), 2), 1, 30)
    before = set(_children())  # the forkserver
    started = time.monotonic()
    with pytest.raises(ValueError, match="item 3 refused"):
        runner.run_split(60, _refuse_item, [0, 1, 2, 3])  # shares [0, 2] and [1, 3]
    assert time.monotonic() - started < 10  # the sleeping child was killed, not waited for
    assert not set(_children()) - before  # and nothing is left running


def test_a_child_is_stopped_when_asked() -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    with pytest.raises(budget.Stopped):
        budget.run_with_budget(30, _slow, 20, stop=stop)
    assert time.monotonic() - started < 3


def test_out_of_time_says_one_second_not_one_seconds() -> None:
    assert str(budget.OutOfTime(1)) == "gave up after 1 second"
    assert str(budget.Busy(1)).endswith("try again in 1 second.")


# --- slots shared by processes -------------------------------------------------------------


def test_a_slot_is_held_while_the_work_runs_and_freed_after(tmp_path: Path) -> None:
    slots = budget.Slots(str(tmp_path / "slots"), 1)
    with slots.hold(0.1, background=True):
        started = time.monotonic()
        with pytest.raises(budget.Busy), slots.hold(0.3, background=True):
            pass
        assert 0.25 < time.monotonic() - started < 2  # it waited, briefly
    with slots.hold(0.1, background=True):
        pass  # free again


def test_two_slots_take_two_at_once(tmp_path: Path) -> None:
    slots = budget.Slots(str(tmp_path / "slots"), 2)
    with slots.hold(0, background=True), slots.hold(0, background=True), pytest.raises(budget.Busy):
        with slots.hold(0, background=True):
            pass


HOLDER = """
import fcntl, sys, time
handle = open(sys.argv[1], "a+b")
fcntl.flock(handle, fcntl.LOCK_EX)
print("held", flush=True)
time.sleep(60)
"""


def test_a_slot_held_by_another_process_counts_and_is_freed_when_it_dies(tmp_path: Path) -> None:
    slots = budget.Slots(str(tmp_path / "slots"), 1)
    with slots.hold(0, background=True):
        pass  # makes the lock files
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / "slots" / "slot-0.lock")],
                              stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
        with pytest.raises(budget.Busy), slots.hold(0.2, background=True):
            pass
    finally:
        holder.kill()
        holder.wait()
        assert holder.stdout is not None
        holder.stdout.close()
    with slots.hold(1, background=True):
        pass  # the kernel let go of the dead process's lock


def test_background_work_leaves_a_slot_for_requests(tmp_path: Path) -> None:
    slots = budget.Slots(str(tmp_path / "slots"), 1)
    with slots.hold(0, background=True):
        with pytest.raises(budget.Busy), slots.hold(0, background=True):
            pass  # background work: one at a time
        started = time.monotonic()
        with slots.hold(1):
            assert time.monotonic() - started < 0.5  # a request goes ahead at once
            other = budget.Slots(str(tmp_path / "slots"), 1)  # another process's request
            with pytest.raises(budget.Busy), other.hold(0.2):
                pass  # requests: one at a time too (the gate), so never more than the slots
    with slots.hold(0), slots.hold(0, background=True):
        pass  # a request first leaves the shared slot to background work


def test_each_process_lets_only_a_few_requests_wait(tmp_path: Path) -> None:
    slots = budget.Slots(str(tmp_path / "slots"), 3, waiting_per_process=1)
    with slots.hold(0):
        started = time.monotonic()
        with pytest.raises(budget.Busy):
            with slots.hold(5):  # a free slot exists, but this process has no place to wait
                pass
        assert time.monotonic() - started < 2.0  # told at once, not after the 5 s it could wait
        with slots.hold(0, background=True):
            pass  # background work is not a request thread


# --- the editor ---------------------------------------------------------------------------


def _editor(client, text: str, action: str) -> tuple[int, str, float]:
    started = time.monotonic()
    response = client.post("/solve", data={"puzzle": text, "drawn": "", "action": action})
    return response.status_code, response.get_data(as_text=True), time.monotonic() - started


def test_a_board_larger_than_the_site_plays_is_refused_at_once(client) -> None:
    side = 40
    rows = [["."] * side for _ in range(side)]
    rows[0][0], rows[-1][-1] = "1", str(side * side)
    text = "\n".join(" ".join(row) for row in rows)
    for action in ("solve", "check", "grade", "play"):
        status, html, seconds = _editor(client, text, action)
        assert status == 400
        assert "This board has 1,600 cells" in html and f"up to {limits.MAX_BOARD_CELLS:,} cells" in html
        assert seconds < BUSY_SLACK  # refused before any solving, which takes far longer


@pytest.mark.parametrize("action", ["grade", "check"])
def test_editor_work_that_runs_out_of_time_says_so_and_is_stopped(tmp_path: Path, make_app, action: str) -> None:
    app = make_app(tmp_path / "instance", SOLVE_SECONDS=1.0)
    budget.start_processes()
    before = set(_children())
    status, html, seconds = _editor(app.test_client(), HARD, action)
    assert status == 200
    assert "too hard to" in html and "1 second" in html
    assert seconds < 1.0 + BUSY_SLACK  # unbounded, this board takes minutes
    time.sleep(0.2)
    assert not set(_children()) - before - {os.getppid()}  # nothing left running


def test_editor_work_is_refused_with_a_503_while_every_slot_is_taken(tmp_path: Path, make_app) -> None:
    app: Flask = make_app(tmp_path / "instance", WORK_SLOTS=1, SLOT_WAIT_SECONDS=0.2)
    slots = budget.Slots(str(tmp_path / "instance" / "slots"), 1)
    # Other processes' work, as far as the app can tell: a background job and a request.
    with slots.hold(0, background=True), slots.hold(0):
        response = app.test_client().post("/solve", data={"puzzle": "1 . 3", "action": "solve"})
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    assert "busy" in response.get_data(as_text=True)
    ok = app.test_client().post("/solve", data={"puzzle": "1 . 3", "action": "solve"})
    assert ok.status_code == 200 and "Solved in" in ok.get_data(as_text=True)


# --- puzzles by id -------------------------------------------------------------------------


def _code(text: str) -> str:
    return puzzle_to_id(parse_puzzle(text))


AMBIGUOUS = _code("1 . .\n. . .\n. . 9")
UNIQUE = [_code(f"1 2 3\n6 5 4\n{a} {b} {c}") for a, b, c in [(7, 8, 9)]] + [_code("1 . 3\n. 5 .\n7 . 9")]


def test_solving_a_new_id_counts_as_generating_a_puzzle(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"generate": (1, 60), "solve": (1000, 60)})
    client = app.test_client()
    assert client.get(f"/p/{UNIQUE[0]}").status_code == 200  # new: charged
    assert client.get(f"/p/{UNIQUE[0]}").status_code == 200  # stored: free
    response = client.get(f"/p/{UNIQUE[1]}")
    assert response.status_code == 429 and "new puzzles" in response.get_data(as_text=True)
    assert client.get(f"/p/{UNIQUE[1]}/print").status_code == 429  # the print page solves too


def test_an_unplayable_id_is_remembered(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"generate": (1, 60), "solve": (1000, 60)})
    client = app.test_client()
    first = client.get(f"/p/{AMBIGUOUS}")
    assert first.status_code == 200 and "more than one solution" in first.get_data(as_text=True)
    assert app.extensions["hidato"].store.find_unplayable(AMBIGUOUS)
    again = client.get(f"/p/{AMBIGUOUS}")  # answered from the store: not charged a second time
    assert again.status_code == 200 and "more than one solution" in again.get_data(as_text=True)
    assert client.get(f"/p/{UNIQUE[0]}").status_code == 429  # the one solve allowed was the first


def test_the_text_of_an_id_is_never_solved(tmp_path: Path, make_app, steady_rate_window) -> None:
    app = make_app(tmp_path / "instance", RATE_LIMITS={"generate": (0, 60), "solve": (0, 60)})
    client = app.test_client()
    for code in (UNIQUE[0], AMBIGUOUS):
        response = client.get(f"/p/{code}.txt")
        assert response.status_code == 200 and response.mimetype == "text/plain"
    store = app.extensions["hidato"].store
    assert store.find_puzzle(UNIQUE[0]) is None and store.find_unplayable(AMBIGUOUS) is None


def test_solving_a_new_id_keeps_to_its_budget(tmp_path: Path, make_app) -> None:
    app = make_app(tmp_path / "instance", SOLVE_SECONDS=1.0)
    code = _code(HARD)
    started = time.monotonic()
    response = app.test_client().get(f"/p/{code}")
    seconds = time.monotonic() - started
    assert response.status_code == 200
    assert "too hard to finish in 1 second" in response.get_data(as_text=True)
    assert seconds < 1.0 + BUSY_SLACK  # unbounded, minutes
    started = time.monotonic()
    assert "too hard to finish" in app.test_client().get(f"/p/{code}").get_data(as_text=True)
    assert time.monotonic() - started < 1.0  # remembered: not tried again for the budget's second


def test_a_new_id_opens_while_a_background_generation_holds_the_slot(tmp_path: Path, make_app) -> None:
    """A real child holds the machine's one slot for background work (as a generation behind
    a waiting page does): a puzzle id new to the site is still solved at once, not 503."""
    app: Flask = make_app(tmp_path / "instance", WORK_SLOTS=1, SLOT_WAIT_SECONDS=0.5)
    runner = app.extensions["hidato"].runner
    budget.start_processes()
    holding = threading.Thread(target=runner.run_queued, args=(20, _slow, 4), daemon=True)
    holding.start()
    slots = budget.Slots(str(tmp_path / "instance" / "slots"), 1)
    deadline = time.monotonic() + 10
    while True:  # until the background child holds the slot
        try:
            with slots.hold(0, background=True):
                pass
        except budget.Busy:
            break
        assert time.monotonic() < deadline, "the background work never took its slot"
        time.sleep(0.02)
    started = time.monotonic()
    response = app.test_client().get(f"/p/{UNIQUE[1]}")
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    assert time.monotonic() - started < 3
    assert holding.is_alive()  # the generation still held its slot all along
    assert app.extensions["hidato"].store.find_puzzle(UNIQUE[1]) is not None
    holding.join(timeout=30)
