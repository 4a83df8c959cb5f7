"""Remember puzzle ids found unplayable, so asking again costs no solve.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "unplayable",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("message", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("unplayable")
