"""The schema as the release before migrations made it with create_all.

A database made by that release has no alembic_version table: ``schema.upgrade``
stamps it with this revision and upgrades from here, so every game in it is kept.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False, unique=True),
        sa.Column("code", sa.Text(), nullable=False),
        sa.Column("shape", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=True),
        sa.Column("adjacency", sa.String(8), nullable=False),
        sa.Column("difficulty", sa.String(16), nullable=True),
        sa.Column("grade", sa.Text(), nullable=True),
        sa.Column("puzzle", sa.Text(), nullable=False),
        sa.Column("solution", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("pooled", sa.Boolean(), nullable=False),
        sa.Column("daily", sa.Date(), nullable=True, unique=True),
    )
    op.create_index("ix_puzzles_pooled", "puzzles", ["pooled"])
    op.create_table(
        "progress",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), sa.ForeignKey("puzzles.id"), nullable=False),
        sa.Column("entries", sa.Text(), nullable=False),
        sa.Column("history", sa.Text(), nullable=False),
        sa.Column("undo_pos", sa.Integer(), nullable=False),
        sa.Column("mistakes", sa.Integer(), nullable=False),
        sa.Column("elapsed", sa.Float(), nullable=False),
        sa.Column("clock_started", sa.DateTime(), nullable=True),
        sa.Column("paused", sa.Boolean(), nullable=False),
        sa.Column("last_activity", sa.DateTime(), nullable=True),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.Column("solved_at", sa.DateTime(), nullable=True),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("player", "puzzle_id"),
    )
    op.create_index("ix_progress_player", "progress", ["player"])
    op.create_index("ix_progress_puzzle_id", "progress", ["puzzle_id"])
    op.create_table(
        "tickets",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("request", sa.Text(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("deadline", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_tickets_created", "tickets", ["created"])
    op.create_table(
        "claims",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "rate_limits",
        sa.Column("client", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("window", sa.BigInteger(), primary_key=True),
        sa.Column("hits", sa.Integer(), nullable=False),
    )


def downgrade() -> None:
    for table in ("rate_limits", "claims", "tickets", "progress", "puzzles"):
        op.drop_table(table)
