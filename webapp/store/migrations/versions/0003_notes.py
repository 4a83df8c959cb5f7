"""Pencil marks kept with each game, and the game before its last Restart (for Undo).

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite cannot add a column with a default in every version otherwise.
    with op.batch_alter_table("progress") as batch:
        batch.add_column(sa.Column("notes", sa.Text(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("before_restart", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("progress") as batch:
        batch.drop_column("before_restart")
        batch.drop_column("notes")
