"""The generator on two cores makes the puzzle it makes on one, and leaves nothing running.

``spare_cores=True`` runs the solution paths in forked children, the next starting as
soon as its random state is known (``engine/look_ahead.py``); ``False`` makes them one
after the other here.  Real generations on paths that fail before one fits.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from process_state import alive

from engine import Board, generate, generate_shape
from engine.generator import GenerationError, Stage


def _attempts_made(made_with: dict[str, object]) -> int:
    stages: list[Stage] = []
    generate_shape(**made_with, progress=stages.append, spare_cores=False)  # type: ignore[arg-type]
    return stages[-1].attempt


# 10x10 hex expert seed 304 fits on its third path, seed 310 on its fifth.
@pytest.mark.parametrize("seed", [304, 310])
def test_two_cores_make_the_same_puzzle_as_one(seed: int) -> None:
    asked = {"shape": "square", "size": 10, "difficulty": "expert", "adjacency": "hex", "seed": seed}
    assert _attempts_made(asked) >= 3  # else this would test nothing
    one = generate_shape(**asked, spare_cores=False)  # type: ignore[arg-type]
    two = generate_shape(**asked, spare_cores=True)  # type: ignore[arg-type]
    assert (two.puzzle, two.solution, two.grade) == (one.puzzle, one.solution, one.grade)


def test_a_drawn_board_too() -> None:
    cells = [(r, c) for r in range(9) for c in range(9) if (r, c) not in {(4, 4), (0, 8), (8, 0)}]
    board = Board.from_cells(cells, "king")
    one = generate(board, "expert", seed=3, spare_cores=False)
    two = generate(board, "expert", seed=3, spare_cores=True)
    assert (two.puzzle, two.solution, two.grade) == (one.puzzle, one.solution, one.grade)


def test_progress_is_told_by_this_process_only_and_reads_as_on_one_core() -> None:
    heard: list[tuple[Stage, int]] = []
    one: list[Stage] = []
    generate_shape("square", 10, "expert", "hex", seed=304, spare_cores=True,
                   progress=lambda stage: heard.append((stage, os.getpid())))
    generate_shape("square", 10, "expert", "hex", seed=304, spare_cores=False, progress=one.append)
    assert {pid for _stage, pid in heard} == {os.getpid()}
    assert [stage for stage, _pid in heard] == one


def test_a_time_limit_stops_every_child() -> None:
    started = time.perf_counter()
    with pytest.raises(GenerationError, match="gave up after"):
        generate_shape("square", 20, "expert", "rook", seed=301, max_seconds=1.0, spare_cores=True)
    assert time.perf_counter() - started < 5
    _assert_no_children(os.getpid())


def _assert_no_children(pid: int) -> None:
    with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listed:
        left = [int(child) for child in listed.read().split()]
    assert not [child for child in left if alive(child) and _is_generation(child)]


def _is_generation(pid: int) -> bool:
    """A forked child of this interpreter (not a browser or server another test started)."""
    try:
        return os.readlink(f"/proc/{pid}/exe") == os.readlink("/proc/self/exe") and \
            Path(f"/proc/{pid}/cmdline").read_bytes() == Path("/proc/self/cmdline").read_bytes()
    except OSError:
        return False
