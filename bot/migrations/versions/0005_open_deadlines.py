"""Prompts indexed by deadline only while open; the index on status alone goes.

Revision ID: 0005_open_deadlines
Revises: 0004_covered_indexes
Create Date: 2026-11-27

- prompts: ix_prompts_deadline (deadline) becomes ix_prompts_open_deadline, on the deadline of open prompts alone (a
  partial index): only an open prompt falls due, and a closed one then leaves the index for good.
- prompts: ix_prompts_status (status) goes; the due deadlines are found through the partial index, and a game's
  prompts through ix_prompts_game_status.

A play closes a decision or moves a turn's decision to its next step, and each index entry written is more for
SQLite's COMMIT to log (measured in issue 17: `git show d8e1394:docs/benchmarks.md`, "Sixth pass").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_open_deadlines"
down_revision: str | None = "0004_covered_indexes"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Index only the open prompts by deadline; drop the index on status."""
    op.drop_index("ix_prompts_deadline", table_name="prompts")
    op.drop_index("ix_prompts_status", table_name="prompts")
    still_open = sa.text("status = 'open'")
    op.create_index("ix_prompts_open_deadline", "prompts", ["deadline"], sqlite_where=still_open,
                    postgresql_where=still_open)


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0005_open_deadlines; restore the <database>.backup-* copy that was written "
        "next to the database before the upgrade"
    )
