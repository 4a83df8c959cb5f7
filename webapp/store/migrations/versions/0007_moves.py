"""A game's moves in a table of their own, one row per move, and Restart a move like any other.

Until now a progress row held its game's whole history as one JSON list (rewritten on
every entry) and, beside it, the game as it was before the last Restart (a second undo
mechanism).  Here every game's history becomes rows of ``moves``, numbered from 1, and
the game kept before a Restart becomes the moves it had applied followed by a Restart
move that holds what it cleared, so Undo walks back exactly as before.  The one thing a
single chain cannot hold: moves undone *before* that Restart (Redo could not reach them
again until the Restart itself was undone) are left out.

The data is copied in Python, a batch of games at a time, with the same JSON formats the
codec writes (written out here: a migration must not change when the codec does).  The
table gets its foreign key last: SQLite rebuilds ``progress`` to change a column, and a
key in place would take the new rows with the old table.

The old columns stay, emptied (NULL; ``history`` may now be): hosts are upgraded one at a
time (README, "Upgrading one host at a time"), and a host still on the previous release
reads an empty history (no Undo of what came before) and goes on saving entries, instead
of failing on a missing column.  A later migration drops them.

Downgrade writes the moves back into the JSON columns: the moves since the last Restart
applied, and that Restart's board with the moves before it (back to the Restart before
it: the old columns hold one); a Restart waiting to be redone ends the history there.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

BATCH = 500  # games converted per round trip
FOREIGN_KEY = "moves_progress_id_fkey"  # PostgreSQL's own name for it, given on SQLite too

PROGRESS = sa.table(
    "progress", sa.column("id", sa.Integer()), sa.column("history", sa.Text()), sa.column("undo_pos", sa.Integer()),
    sa.column("before_restart", sa.Text()), sa.column("undo_floor", sa.Integer()),
    sa.column("redo_top", sa.Integer()))
MOVES = sa.table(
    "moves", sa.column("progress_id", sa.Integer()), sa.column("number", sa.Integer()),
    sa.column("cell_row", sa.Integer()), sa.column("cell_col", sa.Integer()), sa.column("old_value", sa.Integer()),
    sa.column("new_value", sa.Integer()), sa.column("cleared", sa.Text()))


def upgrade() -> None:
    op.create_table(
        "moves",
        sa.Column("progress_id", sa.Integer(), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("cell_row", sa.Integer(), nullable=True),
        sa.Column("cell_col", sa.Integer(), nullable=True),
        sa.Column("old_value", sa.Integer(), nullable=True),
        sa.Column("new_value", sa.Integer(), nullable=True),
        sa.Column("cleared", sa.Text(), nullable=True),
    )
    with op.batch_alter_table("progress") as batch:
        batch.add_column(sa.Column("undo_floor", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("redo_top", sa.Integer(), nullable=False, server_default="0"))
    connection = op.get_bind()
    last = 0
    while True:
        games = connection.execute(
            sa.select(PROGRESS.c.id, PROGRESS.c.history, PROGRESS.c.undo_pos, PROGRESS.c.before_restart)
            .where(PROGRESS.c.id > last,
                   sa.or_(PROGRESS.c.history != "[]", PROGRESS.c.before_restart.is_not(None)))
            .order_by(PROGRESS.c.id).limit(BATCH)).all()
        if not games:
            break
        rows: list[dict[str, Any]] = []
        positions: list[dict[str, int]] = []
        for game_id, history, undo_pos, before_restart in games:
            chain, pos = _chain(history, undo_pos, before_restart)
            rows += [{"progress_id": game_id, "number": number, **move}
                     for number, move in enumerate(chain, start=1)]
            positions.append({"game": game_id, "pos": pos, "top": len(chain)})
        if rows:
            connection.execute(MOVES.insert(), rows)
        connection.execute(
            PROGRESS.update().where(PROGRESS.c.id == sa.bindparam("game"))
            .values(undo_pos=sa.bindparam("pos"), undo_floor=0, redo_top=sa.bindparam("top")), positions)
        last = games[-1][0]
    # The old columns stay, empty, for hosts still on the previous release (see above).
    with op.batch_alter_table("progress") as batch:
        batch.alter_column("history", existing_type=sa.Text(), nullable=True)
    connection.execute(PROGRESS.update().values(history=None, before_restart=None))
    with op.batch_alter_table("moves") as batch:
        batch.create_foreign_key(FOREIGN_KEY, "progress", ["progress_id"], ["id"], ondelete="CASCADE")


def downgrade() -> None:
    connection = op.get_bind()
    connection.execute(PROGRESS.update().values(history="[]", before_restart=None))
    last = 0
    while True:
        games = connection.execute(
            sa.select(PROGRESS.c.id, PROGRESS.c.undo_pos, PROGRESS.c.undo_floor, PROGRESS.c.redo_top)
            .where(PROGRESS.c.id > last, PROGRESS.c.redo_top > PROGRESS.c.undo_floor)
            .order_by(PROGRESS.c.id).limit(BATCH)).all()
        if not games:
            break
        found: dict[int, dict[int, dict[str, Any]]] = {game_id: {} for game_id, *_rest in games}
        for game_id, number, *values in connection.execute(
                sa.select(MOVES.c.progress_id, MOVES.c.number, MOVES.c.cell_row, MOVES.c.cell_col,
                          MOVES.c.old_value, MOVES.c.new_value, MOVES.c.cleared)
                .where(MOVES.c.progress_id.in_(list(found)))):
            found[game_id][number] = dict(zip(("cell_row", "cell_col", "old_value", "new_value", "cleared"),
                                              values, strict=True))
        connection.execute(
            PROGRESS.update().where(PROGRESS.c.id == sa.bindparam("game"))
            .values(history=sa.bindparam("old_history"), undo_pos=sa.bindparam("pos"),
                    before_restart=sa.bindparam("old_before")),
            [{"game": game_id, **_old_columns(found[game_id], pos, floor, top)}
             for game_id, pos, floor, top in games])
        last = games[-1][0]
    op.drop_table("moves")
    with op.batch_alter_table("progress") as batch:
        batch.alter_column("history", existing_type=sa.Text(), nullable=False)
        batch.drop_column("redo_top")
        batch.drop_column("undo_floor")


def _cell_move(move: list[int]) -> dict[str, Any]:
    r, c, old, new = move
    return {"cell_row": r, "cell_col": c, "old_value": old, "new_value": new, "cleared": None}


def _chain(history: str | None, undo_pos: int | None, before_restart: str | None) -> tuple[list[dict[str, Any]], int]:
    """One game's moves in order, and how many of them are applied."""
    moves = json.loads(history or "[]")
    pos = min(max(0, undo_pos or 0), len(moves))
    chain: list[dict[str, Any]] = []
    if before_restart:
        before = json.loads(before_restart)
        kept = before.get("history") or []
        applied = kept[: min(max(0, int(before.get("undo_pos") or 0)), len(kept))]
        cleared = {"entries": before.get("entries") or [], "notes": before.get("notes") or [],
                   "mistakes": int(before.get("mistakes") or 0)}
        chain = [_cell_move(move) for move in applied]
        chain.append({"cell_row": None, "cell_col": None, "old_value": None, "new_value": None,
                      "cleared": json.dumps(cleared)})
    return chain + [_cell_move(move) for move in moves], len(chain) + pos


def _old_columns(moves: dict[int, dict[str, Any]], pos: int, floor: int, top: int) -> dict[str, Any]:
    """The history, undo position and game before the last Restart as the old columns held them."""
    restarts = sorted(number for number, move in moves.items() if floor < number <= top and move["cleared"])
    applied = [number for number in restarts if number <= pos]
    start, before = floor, None
    if applied:
        start = applied[-1]
        previous = max((number for number in restarts if number < start), default=floor)
        kept = _old_history(moves, previous, start)
        cleared = json.loads(moves[start]["cleared"])
        before = json.dumps({"entries": cleared["entries"], "history": kept, "undo_pos": len(kept),
                             "mistakes": cleared["mistakes"], "notes": cleared["notes"]})
    end = min((number for number in restarts if number > pos), default=top + 1)
    return {"old_history": json.dumps(_old_history(moves, start, end)), "pos": pos - start, "old_before": before}


def _old_history(moves: dict[int, dict[str, Any]], after: int, before: int) -> list[list[int]]:
    """The cell moves numbered between ``after`` and ``before`` (both left out), as old JSON."""
    return [[move["cell_row"], move["cell_col"], move["old_value"], move["new_value"]]
            for number, move in sorted(moves.items()) if after < number < before]
