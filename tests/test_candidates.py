"""Tests for engine.candidates: sound (the solution's number is always among them), narrower
with entries, and never emptied by a wrong entry."""

from __future__ import annotations

from engine import candidates, solve

from puzzle_files import DATA, load


def test_the_solution_is_always_a_candidate_and_entries_narrow_them() -> None:
    for name in ("seed000-5x5.txt", "classic-8x8-40.txt"):
        puzzle, solution = load(DATA / name)
        bare = candidates(puzzle)
        open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
        assert set(bare) <= set(open_cells)
        for cell, numbers in bare.items():
            assert solution[cell] in numbers and list(numbers) == sorted(numbers)
            assert not set(numbers) & set(puzzle.givens.values())
        entries = {cell: solution[cell] for cell in open_cells[: len(open_cells) // 2]}
        narrowed = candidates(puzzle, entries)
        assert not set(narrowed) & set(entries)
        for cell, numbers in narrowed.items():
            assert solution[cell] in numbers and set(numbers) <= set(bare.get(cell, numbers))
        assert sum(map(len, narrowed.values())) < sum(map(len, bare.values()))


def test_a_wrong_or_doubled_entry_falls_back_to_the_givens() -> None:
    puzzle, solution = load(DATA / "classic-8x8-40.txt")
    open_cells = [c for c in puzzle.board.cells if c not in puzzle.givens]
    a, b = open_cells[:2]
    doubled = {a: solution[a], b: solution[a]}
    found = candidates(puzzle, doubled)
    assert found and all(solution[c] in numbers for c, numbers in found.items())
    assert a not in found and b not in found
    assert solve(puzzle).count == 1
