"""Fewer index entries written on the command path: two indexes covered by others, one made partial.

Revision ID: 0004_covered_indexes
Revises: 0003_shards
Create Date: 2026-11-27

- actions: ix_actions_game_id (game_id) goes; the unique (game_id, seq) index answers every lookup by game.
- prompts: ix_prompts_game_id (game_id) goes; ix_prompts_game_status (game_id, status) answers every lookup by game.
- outbox: ix_outbox_game_id (game_id) becomes ix_outbox_game_notices, on game_id of the notices alone (a partial
  index): notices are the only messages looked up by game, and every other message now skips the index.

Every play appends a log row, opens or changes a decision and queues a message, and each index entry written is more
for SQLite's COMMIT to log (measured in issue 17: `git show d8e1394:docs/benchmarks.md`, "Fifth pass").
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004_covered_indexes"
down_revision: str | None = "0003_shards"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Drop the two covered indexes; index only the notices of the outbox by game."""
    op.drop_index("ix_actions_game_id", table_name="actions")
    op.drop_index("ix_prompts_game_id", table_name="prompts")
    op.drop_index("ix_outbox_game_id", table_name="outbox")
    notices = sa.text("kind = 'notice'")
    op.create_index("ix_outbox_game_notices", "outbox", ["game_id"], sqlite_where=notices, postgresql_where=notices)


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0004_covered_indexes; restore the <database>.backup-* copy that was written "
        "next to the database before the upgrade"
    )
