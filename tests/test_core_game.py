"""webapp.core.game: entries, feedback, undo/redo, the clock (no Flask, no database)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from engine import parse_puzzle
from webapp.core.game import IDLE_LIMIT, EntryError, Game, Move, MoveList, State, format_seconds, parse_entry
from webapp.core.number_index import NumberIndex

from puzzle_files import DATA, load

T0 = datetime(2026, 1, 1, 12, 0, 0)


@pytest.fixture
def game() -> Game:
    puzzle, solution = load(DATA / "seed000-5x5.txt")
    return Game(puzzle, solution)


def open_cell(game: Game, index: int = 0) -> tuple[tuple[int, int], int]:
    cell = game.open_cells[index]
    return cell, game.solution[cell]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", 0), ("  ", 0), ("7", 7), (" 18 ", 18), ("01", 1)],
)
def test_parse_entry_accepts(text: str, expected: int) -> None:
    assert parse_entry(text, 18) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("x", "whole number from 1 to 18"), ("-3", "whole number"), ("1.5", "whole number"),
     ("0", "out of range"), ("19", "out of range"), ("９", "whole number"), ("9" * 40, "whole number")],
)
def test_parse_entry_refuses(text: str, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        parse_entry(text, 18)


def test_right_and_wrong_entries_are_marked(game: Game) -> None:
    cell, right = open_cell(game)
    other, _ = open_cell(game, 1)
    game.enter(cell, right, T0)
    game.enter(other, right, T0)  # the same number again: wrong, and a duplicate
    assert not game.cell_view(cell).wrong
    view = game.cell_view(other)
    assert view.wrong and view.invalid
    assert view.also_at == cell and view.also_count == 0
    assert "wrong number" in view.note and "also at row" in view.note
    assert game.state.mistakes == 1
    assert game.filled == 2 and game.wrong_cells == [other]


def test_entries_in_givens_and_holes_are_refused(game: Game) -> None:
    given = next(iter(game.puzzle.givens))
    with pytest.raises(EntryError, match="given"):
        game.enter(given, 3)
    with pytest.raises(EntryError, match="not a cell"):
        game.enter((0, 2), 3)  # a hole


def test_undo_redo_entries_and_clears(game: Game) -> None:
    cell, right = open_cell(game)
    game.enter(cell, right, T0)
    game.enter(cell, 0, T0)  # a clear is a move too
    assert cell not in game.state.entries
    assert game.undo(T0) == cell and game.state.entries[cell] == right
    assert game.undo(T0) == cell and cell not in game.state.entries
    assert game.undo(T0) is None
    assert game.redo(T0) == cell and game.state.entries[cell] == right
    game.enter(open_cell(game, 1)[0], 5, T0)  # a new move drops what could be redone
    assert not game.can_redo()


def test_solving_stops_the_clock(game: Game) -> None:
    for index, cell in enumerate(game.open_cells):
        game.enter(cell, game.solution[cell], T0 + timedelta(seconds=10 * index))
    assert game.solved and game.finished
    assert not game.clock_running
    assert game.seconds(T0 + timedelta(hours=5)) == 10 * (game.total - 1)
    with pytest.raises(EntryError, match="finished"):
        game.enter(game.open_cells[0], 1)


def test_reveal_fills_the_board_unsolved(game: Game) -> None:
    game.reveal(T0)
    assert game.state.revealed and not game.solved
    assert game.grid() == game.solution
    game.restart(T0)
    assert game.state.entries == {} and not game.finished and game.state.mistakes == 0


def test_restart_is_a_new_game_in_the_same_state(game: Game) -> None:
    """Every field goes back, in the state object the caller holds (it is what gets saved)."""
    held = game.state
    game.enter(game.open_cells[0], 1, T0)  # a mistake, history, a running clock
    game.pause(T0 + timedelta(seconds=20))
    game.reveal(T0 + timedelta(seconds=30))
    later = T0 + timedelta(minutes=5)
    game.restart(later)
    assert game.state is held
    assert held == State(started=later, last_activity=later, clock_started=later)
    assert not game.can_undo() and game.seconds(later + timedelta(seconds=7)) == 7


def test_pause_and_idle_time_do_not_count(game: Game) -> None:
    game.touch(T0)
    assert game.seconds(T0 + timedelta(seconds=30)) == 30
    game.pause(T0 + timedelta(seconds=30))
    assert game.seconds(T0 + timedelta(hours=1)) == 30
    game.resume(T0 + timedelta(hours=1))
    assert game.seconds(T0 + timedelta(hours=1, seconds=5)) == 35
    # Nobody about for a day: only IDLE_LIMIT of it counts.
    later = T0 + timedelta(days=1)
    assert game.seconds(later) == 30 + int(IDLE_LIMIT.total_seconds())
    game.away(later)
    assert game.seconds(later + timedelta(hours=2)) == 30 + int(IDLE_LIMIT.total_seconds())


def test_duplicates_against_givens(game: Game) -> None:
    given_cell, given_value = next(iter(game.puzzle.givens.items()))
    cell, _ = open_cell(game)
    game.enter(cell, given_value)
    assert game.cell_view(cell).also_at == given_cell


def test_many_copies_name_the_nearest_and_count_the_rest(game: Game) -> None:
    cells = [c for c in game.puzzle.board.cells if c not in game.puzzle.givens][:5]
    for cell in cells:
        game.enter(cell, 7)
    first = game.cell_view(cells[0])
    assert first.also_count == 3
    nearest = first.also_at
    assert nearest in cells[1:]
    assert first.note.endswith(f"7 is also at row {nearest[0] + 1}, column {nearest[1] + 1}, and 3 other cells")
    game.enter(cells[1], 0)
    assert game.cell_view(cells[0]).also_count == 2  # the index follows every change


@pytest.mark.parametrize(("seconds", "shown"), [(0, "0:00"), (65, "1:05"), (3723, "1:02:03")])
def test_format_seconds(seconds: int, shown: str) -> None:
    assert format_seconds(seconds) == shown


def test_hex_and_rook_boards_play_the_same() -> None:
    puzzle = parse_puzzle("# adjacency: rook\n1 . 3\n")
    game = Game(puzzle, {(0, 0): 1, (0, 1): 2, (0, 2): 3})
    game.enter((0, 1), 2, T0)
    assert game.solved


def test_notes_toggle_and_give_way_to_an_entry(game: Game) -> None:
    cell = game.open_cells[0]
    assert game.toggle_note(cell, 4, T0) and game.toggle_note(cell, 7, T0)
    assert game.state.notes == {cell: {4, 7}}
    assert not game.toggle_note(cell, 4, T0)
    assert game.state.notes == {cell: {7}}
    with pytest.raises(EntryError, match="out of range"):
        game.toggle_note(cell, game.puzzle.size + 1)
    game.enter(cell, game.solution[cell], T0)
    assert cell not in game.state.notes
    with pytest.raises(EntryError, match="holds a number"):
        game.toggle_note(cell, 2)


def board(game: Game) -> tuple[dict, dict, int, int]:
    """What a player sees of the game, and where it stands on its undo chain."""
    return dict(game.state.entries), {c: set(m) for c, m in game.state.notes.items()}, game.state.mistakes, \
        game.state.undo_pos


def test_restart_is_undone_by_undo(game: Game) -> None:
    first, second = game.open_cells[:2]
    game.enter(first, game.solution[first], T0)
    game.enter(second, 1 if game.solution[second] != 1 else 2, T0)
    game.toggle_note(game.open_cells[2], 5, T0)
    before = board(game)
    game.restart(T0 + timedelta(seconds=5))
    assert game.state.entries == {} and game.state.notes == {} and game.can_undo() and game.undoes_restart()
    assert game.state.mistakes == 0 and game.seconds(T0 + timedelta(seconds=5)) == 0
    game.enter(first, game.solution[first], T0 + timedelta(seconds=6))
    assert game.undo() == first and game.undoes_restart()  # the new entry first, then the restart
    game.undo(T0 + timedelta(seconds=7))
    assert board(game) == before
    assert game.undo() == second  # and on back through the moves as before
    assert not game.undoes_restart()


def test_restart_is_a_move_redo_clears_again(game: Game) -> None:
    """Restart sits on the one undo chain: Redo clears the board again, Undo brings it back,
    and a new move after undoing it cuts it off like any other move undone."""
    first, second = game.open_cells[:2]
    game.enter(first, game.solution[first], T0)
    game.toggle_note(second, 3, T0)
    before = board(game)
    game.restart(T0)
    after = board(game)
    assert after[:3] == ({}, {}, 0) and after[3] == before[3] + 1  # one move more
    game.undo(T0)
    assert board(game) == before and game.can_redo()
    assert game.redo(T0) == first and board(game) == after and not game.can_redo()
    game.undo(T0)
    game.enter(second, 4, T0)  # a new move: the Restart can no longer be redone
    assert not game.can_redo() and game.state.redo_top == game.state.undo_pos == before[3] + 1
    assert game.undo(T0) == second and game.undo(T0) == first and not game.can_undo()


def test_restart_of_a_clear_board_adds_no_move(game: Game) -> None:
    cell = game.open_cells[0]
    game.enter(cell, game.solution[cell], T0)
    game.enter(cell, 0, T0)  # cleared by hand: nothing left to clear
    game.restart(T0 + timedelta(minutes=1))
    assert game.state.undo_pos == game.state.redo_top == 2 and game.state.started == T0 + timedelta(minutes=1)
    assert not game.undoes_restart() and game.undo(T0) == cell and game.state.entries == {cell: game.solution[cell]}


def test_a_finished_game_restarts_with_nothing_to_undo(game: Game) -> None:
    game.enter(game.open_cells[0], game.solution[game.open_cells[0]], T0)
    game.reveal(T0)
    game.restart(T0)
    assert (game.state.undo_pos, game.state.undo_floor, game.state.redo_top) == (0, 0, 0)
    assert not game.can_undo() and not game.can_redo()
    assert game.state.moves.moves == {}  # type: ignore[attr-defined]


class CountingMoves(MoveList):
    """A move log that counts the moves read."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get(self, number: int) -> Move:
        self.reads += 1
        return super().get(number)


def test_entries_read_no_move_and_undo_reads_one() -> None:
    puzzle, solution = load(DATA / "seed000-5x5.txt")
    moves = CountingMoves()
    game = Game(puzzle, solution, State(moves=moves))
    cells = game.open_cells
    for turn in range(300):
        game.enter(cells[turn % len(cells)], turn % 3 + 1, T0)
    game.restart(T0)
    assert moves.reads == 0 and len(moves.moves) == 301
    game.undo(T0)
    assert moves.reads == 1 and game.state.entries
    game.undoes_restart()
    game.redo(T0)
    assert moves.reads == 3


def test_undo_reaches_back_max_history_moves(game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("webapp.core.game.MAX_HISTORY", 5)
    cell = game.open_cells[0]
    for value in range(1, 9):  # eight moves: the first three are forgotten
        game.enter(cell, value, T0)
    assert (game.state.undo_floor, game.state.undo_pos, game.state.redo_top) == (3, 8, 8)
    assert sorted(game.state.moves.moves) == [4, 5, 6, 7, 8]  # type: ignore[attr-defined]
    undone = [game.undo(T0) and game.state.entries[cell] for _ in range(5)]
    assert undone == [7, 6, 5, 4, 3] and not game.can_undo() and game.undo(T0) is None


def test_the_numbers_entered_twice_and_missing_stay_right_through_entries_undo_and_redo(game: Game) -> None:
    """duplicates() and missing() come from what each change keeps up to date, not from the
    board gone over again: they must say what the board shows after any run of moves."""
    chooser = random.Random(7)
    cells = game.open_cells
    game.duplicates()  # the index built first, then kept up to date
    for _ in range(300):
        step = chooser.random()
        if step < 0.7:
            game.enter(chooser.choice(cells), chooser.choice([0, *range(1, game.puzzle.size + 1)][:12]))
        elif step < 0.85:
            game.undo()
        else:
            game.redo()
        shown: dict[int, list[tuple[int, int]]] = {}
        for cell, value in sorted(game.grid().items()):
            shown.setdefault(value, []).append(cell)
        twice = [(v, found) for v, found in sorted(shown.items()) if len(found) > 1]
        assert game.duplicates() == twice
        # Only the first few asked for (what the page names): the same numbers, the same cells.
        assert all(game.duplicates(first) == twice[:first] for first in (0, 1, 5))
        absent = [k for k in range(1, game.puzzle.size + 1) if k not in shown]
        assert [k for low, high in game.missing() for k in range(low, high + 1)] == absent
        runs = game.missing()  # runs: separated by at least one number shown
        assert all(runs[i][1] + 1 < runs[i + 1][0] for i in range(len(runs) - 1))


def test_missing_says_the_absent_numbers_whether_few_or_most_are_shown(game: Game) -> None:
    """missing() reads the gaps between the numbers shown while they are few, and the
    absent numbers once most are shown: both say the same runs as the board, from the
    first entry to a full board and back, with some numbers entered twice."""
    chooser = random.Random(11)
    cells = game.open_cells
    game.duplicates()  # the index built first, then kept up to date
    order = chooser.sample(cells, len(cells))[1:] * 2  # one cell left out: never solved
    for step, cell in enumerate(order):
        # First the right numbers, cell by cell (most shown in the end), then wrong ones and
        # blanks (copies, gaps), so both of missing()'s ways are gone through.
        value = game.solution[cell] if step < len(cells) - 1 else chooser.choice([0, 1, 2, game.puzzle.size])
        game.enter(cell, value)
        shown = set(game.grid().values())
        absent = [k for k in range(1, game.puzzle.size + 1) if k not in shown]
        assert [k for low, high in game.missing() for k in range(low, high + 1)] == absent
        runs = game.missing()
        assert all(runs[i][1] + 1 < runs[i + 1][0] for i in range(len(runs) - 1))
        # The number index built afresh (one way without copies, another with) says what the
        # index kept up to date since the first entry says.
        fresh = Game(game.puzzle, game.solution, game.state)
        assert fresh.duplicates() == game.duplicates()
        assert all(fresh.holding(k) == game.holding(k) for k in range(1, game.puzzle.size + 1))


def test_a_game_given_the_stored_entries_index_says_what_a_game_indexing_the_board_says(game: Game) -> None:
    """Each request's game takes the entries' number index the store kept for the text it
    read (``State.entries_index``) instead of indexing the board: after any move made on it
    (entries, clears, Undo and Redo, a Restart, before or after the index is first asked
    for), what it says of the board is what a game indexing the board afresh says."""
    chooser = random.Random(5)
    cells = game.open_cells
    state = game.state
    carried: NumberIndex | None = None
    for step in range(300):
        # As the store gives it: made from the entries, or (every other step) the last one
        # changed by the move's cells, with what it said with the givens carried along.
        given = carried if carried is not None and step % 2 else NumberIndex.of(dict(state.entries))
        state.entries_index = given
        before = dict(state.entries)
        played = Game(game.puzzle, game.solution, state)
        assert state.entries_index is None  # taken: a second game on the state indexes its own
        if step % 3 == 0:
            played.duplicates()  # asked for first, or only after the move
        roll = chooser.random()
        if roll < 0.7:
            played.enter(chooser.choice(cells), chooser.choice([0, *range(1, 13)]))
        elif roll < 0.8:
            played.undo()
        elif roll < 0.9:
            played.redo()
        elif roll < 0.93:
            played.restart()
        fresh = Game(game.puzzle, game.solution, state)
        assert played.duplicates() == fresh.duplicates()
        assert all(played.holding(k) == fresh.holding(k) for k in range(1, game.puzzle.size + 1))
        # The missing numbers from the kept index and this request's changes over it: the
        # numbers the grid does not show.
        shown = set(game.grid().values())
        absent = [k for k in range(1, game.puzzle.size + 1) if k not in shown]
        assert [k for low, high in played.missing() for k in range(low, high + 1)] == absent
        assert played.missing() == fresh.missing()
        after = state.entries
        changes = [(cell, before.get(cell, 0), after.get(cell, 0)) for cell in before.keys() | after.keys()
                   if before.get(cell, 0) != after.get(cell, 0)]
        carried = given.changed(changes) if len(changes) <= 8 else None
