"""Several hosts on one database: job leases, job files and the shared signing key.

Tickets get an owner, a lease, a count of attempts and the start of the current
attempt, so a job whose host died is taken over by another; finished files (booklet
PDFs) and the key that signs session cookies move into the database.  Only additions:
a host still on the previous release keeps working on the upgraded schema.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tickets") as batch:
        batch.add_column(sa.Column("owner", sa.String(80), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.DateTime(), nullable=True))
        batch.add_column(sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("started", sa.DateTime(), nullable=True))
        batch.create_index("ix_tickets_status", ["status"])
    op.create_table(
        "job_files",
        sa.Column("ticket", sa.String(32), primary_key=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_job_files_created", "job_files", ["created"])
    op.create_table(
        "site_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("site_keys")
    op.drop_index("ix_job_files_created", "job_files")
    op.drop_table("job_files")
    with op.batch_alter_table("tickets") as batch:
        batch.drop_index("ix_tickets_status")
        for column in ("started", "attempts", "lease_until", "owner"):
            batch.drop_column(column)
