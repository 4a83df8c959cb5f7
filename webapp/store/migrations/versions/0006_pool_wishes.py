"""Boards players asked for that were neither ready nor made in time: the pool's filler on
any host makes them next.  Only an addition: a host on the previous release ignores it.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pool_wishes",
        sa.Column("name", sa.String(120), primary_key=True),
        sa.Column("shape", sa.String(40), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("difficulty", sa.String(16), nullable=False),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("asked", sa.DateTime(), nullable=False),
        sa.Column("asks", sa.Integer(), nullable=False),
    )
    op.create_index("ix_pool_wishes_asked", "pool_wishes", ["asked"])


def downgrade() -> None:
    op.drop_index("ix_pool_wishes_asked", "pool_wishes")
    op.drop_table("pool_wishes")
