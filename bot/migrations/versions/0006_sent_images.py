"""Images of messages already delivered (or given up on) are dropped.

Revision ID: 0006_sent_images
Revises: 0005_open_deadlines
Create Date: 2026-12-02

- outbox: image becomes NULL on every row whose status is 'sent' or 'failed'. Nothing reads an image once its
  message is delivered or given up (`/board` draws the table afresh, an export draws it again from the log); since
  then the store drops it as it marks the row (bot/store/outbox.py, bot/table/outbox.py), but a database written
  before kept every table image of every game, a few megabytes a game.

No schema change. On SQLite the freed pages are given back to the file system by a VACUUM that bot/migrate.py runs
after the upgrade has committed (VACUUM cannot run inside a transaction); PostgreSQL reuses the space of the old
values by itself (autovacuum), with no VACUUM FULL needed.
"""

from __future__ import annotations

from alembic import op

revision = "0006_sent_images"
down_revision: str | None = "0005_open_deadlines"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Set image to NULL on the outbox rows already sent or failed."""
    op.execute("UPDATE outbox SET image = NULL WHERE status IN ('sent', 'failed') AND image IS NOT NULL")


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0006_sent_images; restore the <database>.backup-* copy that was written "
        "next to the database before the upgrade"
    )
