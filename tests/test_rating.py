"""Tests for engine.rating and engine.chains: the rating follows Berthier's whip scale on
puzzles he rated, every chain is sound, and the solve finds the one solution."""

from __future__ import annotations

import itertools
import random

import pytest

from engine import LEVELS, MAX_CHAIN, level_of, parse_puzzle, rate, reduction
from engine.board import Adjacency, Grid, Puzzle
from engine.paths import random_hamiltonian_path
from engine.rating import LogicSolve, Unsolvable, solves_within
from engine.rigid import rigid_path
from engine.shapes import shape_board

from rated_files import RATED as RATED_DIR
from rated_files import Rated, rated_puzzles

RATED = rated_puzzles()
RATINGS = {r.name: rate(r.load()[0]) for r in RATED}


def test_the_rated_folder_is_all_there():
    assert len([r for r in RATED if r.folder == "published"]) == 13
    assert len([r for r in RATED if r.folder == "generated"]) == 48


def test_rating_orders_puzzles_as_berthier_does_whenever_his_lengths_differ_by_two():
    rated = [(r, r.whip) for r in RATED if r.whip is not None]
    disagree = []
    for (a, whip_a), (b, whip_b) in itertools.permutations(rated, 2):
        if whip_b - whip_a >= 2 and not RATINGS[a.name].score < RATINGS[b.name].score:
            disagree.append(f"{a.name} (W{whip_a}, ours {RATINGS[a.name].text}) vs "
                            f"{b.name} (W{whip_b}, ours {RATINGS[b.name].text})")
    assert not disagree


@pytest.mark.parametrize("rated", [r for r in RATED if r.whip is not None], ids=lambda r: r.name)
def test_chain_length_is_berthiers_whip_length(rated: Rated):
    ours = RATINGS[rated.name]
    assert ours.solved
    assert ours.length == rated.whip


def test_a_puzzle_with_no_whip_needs_a_guess_though_braids_finish_it():
    puzzle = parse_puzzle((RATED_DIR / "beyond-whips" / "king10-braids-only.txt").read_text())
    assert not rate(puzzle).solved
    braids = rate(puzzle, whips=False)
    assert braids.solved and braids.length <= MAX_CHAIN


@pytest.mark.parametrize("rated", [r for r in RATED if r.folder == "generated"], ids=lambda r: r.name)
def test_generated_puzzles_fall_in_the_same_level_by_both_ratings(rated: Rated):
    ours = RATINGS[rated.name]
    if rated.whip is None:  # beyond whips on his scale: a guess is needed on ours too
        assert not ours.solved
    else:
        assert ours.solved and level_of(ours.length) == level_of(rated.whip)


@pytest.mark.parametrize("rated", RATED, ids=lambda r: r.name)
def test_every_step_keeps_the_solution(rated: Rated):
    puzzle, solution = rated.load()
    logic = LogicSolve(puzzle)
    logic.run(MAX_CHAIN)
    chains = logic.chains
    board = puzzle.board
    for cell, k in solution.items():
        assert chains.cand[k] & board.bit(cell), f"{k} was ruled out of its own cell"
    if chains.solved:
        assert {board.cells[chains.cell_index(chains.cand[k])]: k for k in range(1, puzzle.size + 1)} == solution


def test_each_chain_really_forces_its_steps():
    """A chain read back: with its candidate placed, each step is a single in turn, and the
    variable it names is then empty."""
    puzzle, _ = next(r for r in RATED if r.name == "mebane-III.7").load()
    logic = LogicSolve(puzzle)
    logic.run(MAX_CHAIN)
    chains = [d.chain for d in logic.deductions if d.chain is not None]
    assert max(c.length for c in chains) == RATINGS["mebane-III.7"].length
    assert all(c.length == len(c.steps) + 1 for c in chains)
    assert all(c.number not in [k for k, _ in c.steps] for c in chains)


def test_singles_only_puzzle_rates_zero_and_levels_follow_the_table():
    puzzle, _ = next(r for r in RATED if r.name == "mebane-III.1").load()
    assert rate(puzzle).length == 0
    assert [level_of(n) for n in range(0, 8)] == ["easy", "easy", "medium", "hard", "hard",
                                                  "expert", "expert", "expert"]
    assert LEVELS["expert"].longest == MAX_CHAIN


def test_solves_within_stops_at_the_cap():
    puzzle, _ = next(r for r in RATED if r.name == "mebane-III.7").load()
    assert solves_within(puzzle, 4)
    assert not solves_within(puzzle, 3)


def test_contradictory_givens_are_refused():
    with pytest.raises(Unsolvable, match="no solution"):
        rate(parse_puzzle("1 . 3\n. . .\n. . 4"))


def test_score_has_the_chain_length_as_its_whole_part():
    for rating in RATINGS.values():
        if rating.solved:
            assert int(rating.score) == rating.length
            assert rating.text == f"{rating.score:.1f}"
        else:
            assert rating.text == f"over {MAX_CHAIN}"


def _minimal_puzzles() -> list[tuple[Puzzle, Grid]]:
    """Minimal unique puzzles on rigid paths (what the generator gives back numbers to),
    one per adjacency: the hardest real inputs braids meet."""
    out = []
    cases: tuple[tuple[Adjacency, int], ...] = (("king", 3), ("hex", 1), ("rook", 2))
    for adjacency, seed in cases:
        board = shape_board("square", 8, adjacency)
        rng = random.Random(seed)
        order = rigid_path(board, random_hamiltonian_path(board, rng), rng, 100)
        solution = {board.cells[i]: k for k, i in enumerate(order, start=1)}
        out.append((Puzzle(board, reduction.to_minimal(board, solution, rng, None)), solution))
    return out


@pytest.mark.parametrize("cap", [LEVELS["hard"].longest, MAX_CHAIN])
def test_closing_at_the_longest_length_ends_where_the_simplest_first_solve_ends(cap: int):
    """``close`` (what giving numbers back asks, at hard's and expert's longest chain)
    skips the rating's order and, on these puzzles, not its result: the same candidates
    are left, solved or not, as after ``run``, and the solution's are among them."""
    ended = []
    for puzzle, solution in [*_minimal_puzzles(), *(r.load() for r in RATED if r.name.startswith("mebane"))]:
        simplest_first, closed = LogicSolve(puzzle, whips=False), LogicSolve(puzzle, whips=False)
        assert simplest_first.run(cap) == closed.close(cap)
        assert closed.chains.cand == simplest_first.chains.cand
        board = puzzle.board
        assert all(closed.chains.cand[k] & board.bit(cell) for cell, k in solution.items())
        ended.append(closed.chains.solved)
    assert True in ended and False in ended  # both kinds of ending were compared
