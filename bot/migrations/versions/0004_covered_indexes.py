"""Two indexes fewer on the command path: each was covered by another index of its table.

Revision ID: 0004_covered_indexes
Revises: 0003_shards
Create Date: 2026-11-27

- actions: ix_actions_game_id (game_id) goes; the unique (game_id, seq) index answers every lookup by game.
- prompts: ix_prompts_game_id (game_id) goes; ix_prompts_game_status (game_id, status) answers every lookup by game.

Every play appends a log row and opens or changes a decision, and each index on those tables is one more page in the
write-ahead log at its COMMIT (docs/benchmarks.md, fifth pass).
"""

from __future__ import annotations

from alembic import op

revision = "0004_covered_indexes"
down_revision: str | None = "0003_shards"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Drop the two covered indexes."""
    op.drop_index("ix_actions_game_id", table_name="actions")
    op.drop_index("ix_prompts_game_id", table_name="prompts")


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0004_covered_indexes; restore the <database>.backup-* copy that was written "
        "next to the database before the upgrade"
    )
