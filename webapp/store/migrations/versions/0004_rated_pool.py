"""Levels became ranges of a rating (chain length on Berthier's scale): pooled puzzles
made before that, which no player has been given yet, are dropped so the pool refills
with puzzles rated in their level.  Puzzles anyone has played stay, with their old level.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The rating is stored in the grade's JSON: a pooled row without it predates ratings.
    op.execute(
        "DELETE FROM puzzles WHERE pooled "
        "AND (grade IS NULL OR grade NOT LIKE '%\"rating\"%') "
        "AND id NOT IN (SELECT puzzle_id FROM progress)"
    )


def downgrade() -> None:
    pass  # the dropped puzzles were never handed out; the older code makes new ones
