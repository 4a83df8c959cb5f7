"""Tests for engine.candidates ("Fill candidates"): what a player could note from the
numbers around each cell, no more: sound (the solution's number is always among them),
not the solution (most cells keep several), narrower with right entries, and never
emptied by a wrong entry."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from engine import Cell, Puzzle, candidates, puzzle_to_id, solve
from webapp.core.options import Options
from webapp.core.stored import generate

from puzzle_files import DATA, load


def _steps(puzzle: Puzzle, placed: dict[Cell, int], start: Cell) -> dict[Cell, int]:
    """Steps from ``start`` to every empty cell, through empty cells (plain BFS on cells)."""
    board = puzzle.board
    seen = {start: 0}
    todo = [start]
    while todo:
        cell = todo.pop(0)
        for other in board.cells:
            if other not in seen and other not in placed and board.touches(cell, other):
                seen[other] = seen[cell] + 1
                todo.append(other)
    return seen


def _by_the_rule(puzzle: Puzzle, placed: dict[Cell, int]) -> dict[Cell, tuple[int, ...]]:
    """The rule as the play page states it, written out the slow way: k fits an empty cell
    when, for the nearest placed numbers a < k < b, the cell is within k - a steps of a and
    b - k steps of b."""
    where = {number: cell for cell, number in placed.items()}
    steps = {cell: _steps(puzzle, placed, cell) for cell in placed}
    out = {}
    for cell in puzzle.board.cells:
        if cell in placed:
            continue
        fits = []
        for k in range(1, puzzle.size + 1):
            if k in where:
                continue
            a = max((n for n in where if n < k), default=None)
            b = min((n for n in where if n > k), default=None)
            if a is not None and steps[where[a]].get(cell, 10**9) > k - a:
                continue
            if b is not None and steps[where[b]].get(cell, 10**9) > b - k:
                continue
            fits.append(k)
        out[cell] = tuple(fits)
    return out


EASY = [generate(Options(shape, size, "easy", variant), seed=seed)
        for shape, size, variant in (("square", 5, "hidato"), ("square", 5, "numbrix"), ("hexagon", 3, "hex"),
                                     ("heart", 8, "hidato"), ("square", 8, "hidato"))
        for seed in (1, 2)]


@pytest.mark.parametrize("stored", EASY, ids=lambda s: f"{s.shape}-{s.puzzle.board.adjacency}-{s.seed}")
def test_easy_puzzles_get_what_the_numbers_around_allow_and_not_the_solution(stored) -> None:
    puzzle, solution = stored.puzzle, stored.solution
    found = candidates(puzzle)
    assert found == _by_the_rule(puzzle, dict(puzzle.givens))
    assert set(found) == {c for c in puzzle.board.cells if c not in puzzle.givens}
    for cell, numbers in found.items():
        assert solution[cell] in numbers
    several = sum(len(numbers) > 1 for numbers in found.values())
    assert several >= len(found) // 2, f"only {several} of {len(found)} cells have more than one candidate"


def test_the_solution_is_always_a_candidate_and_entries_narrow_them() -> None:
    for name in ("seed000-5x5.txt", "classic-8x8-40.txt"):
        puzzle, solution = load(DATA / name)
        bare = candidates(puzzle)
        open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
        assert set(bare) == set(open_cells)
        for cell, numbers in bare.items():
            assert solution[cell] in numbers and list(numbers) == sorted(numbers)
            assert not set(numbers) & set(puzzle.givens.values())
        assert sum(len(numbers) > 1 for numbers in bare.values()) > len(bare) // 2
        entries = {cell: solution[cell] for cell in open_cells[: len(open_cells) // 2]}
        narrowed = candidates(puzzle, entries)
        assert narrowed == _by_the_rule(puzzle, {**puzzle.givens, **entries})
        assert not set(narrowed) & set(entries)
        for cell, numbers in narrowed.items():
            assert solution[cell] in numbers and set(numbers) <= set(bare.get(cell, numbers))
            assert not set(numbers) & set(entries.values())
        assert sum(map(len, narrowed.values())) < sum(map(len, bare.values()))


def test_a_wrong_or_doubled_entry_falls_back_to_the_givens() -> None:
    puzzle, solution = load(DATA / "classic-8x8-40.txt")
    open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
    a, b = open_cells[:2]
    bare = candidates(puzzle)
    doubled = {a: solution[a], b: solution[a]}
    found = candidates(puzzle, doubled)
    assert found and all(solution[c] in numbers for c, numbers in found.items())
    assert a not in found and b not in found
    assert found == {cell: numbers for cell, numbers in bare.items() if cell not in doubled}
    # The number after a given, entered in a cell that does not touch it: they cannot both
    # be right, so the givens alone say what fits (the entry's cell aside).
    given_cell, given = next((c, k) for c, k in sorted(puzzle.givens.items())
                             if k + 1 not in puzzle.givens.values() and k < puzzle.size)
    apart = next(c for c in open_cells if not puzzle.board.touches(c, given_cell))
    assert candidates(puzzle, {apart: given + 1}) == {c: n for c, n in bare.items() if c != apart}
    assert solve(puzzle).count == 1


def test_fill_candidates_on_the_play_page_writes_notes_a_player_could_make(client: FlaskClient) -> None:
    stored = EASY[0]
    client.application.extensions["hidato"].store.save_puzzle(stored)
    code = puzzle_to_id(stored.puzzle)
    html = client.post(f"/p/{code}", data={"action": "candidates"},
                       headers={"HX-Request": "true"}).get_data(as_text=True)
    assert "Candidates filled in as notes" in html
    notes = {}
    for cell in stored.puzzle.board.cells:
        if cell in stored.puzzle.givens:
            continue
        tag = re.search(rf'<div id="cell-{cell[0] + 1}-{cell[1] + 1}".*?</div>', html, re.S)
        assert tag is not None
        marks = re.search(r'class="pencil">([0-9 ]*)<', tag.group(0))
        if marks:
            notes[cell] = [int(n) for n in marks.group(1).split()]
    assert notes
    assert all(stored.solution[cell] in numbers for cell, numbers in notes.items())
    assert sum(len(numbers) > 1 for numbers in notes.values()) >= len(notes) // 2
