"""Several bot processes on one database: shard leases, and each queued message's shard.

Revision ID: 0003_shards
Revises: 0002_decisions_outbox
Create Date: 2026-11-27

- outbox: a new column shard_key, the part of the server id that decides its Discord shard (id >> 22; 0 for a
  DM or a terminal table), filled in for the rows already there, so that each process sends only its shards' messages.
- new table leases: which process looks after which shard's deadlines and messages, until when.
- games.seed becomes a 64-bit integer on PostgreSQL (SQLite's INTEGER is 64-bit already): seeds from 2**31 up were
  refused there.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003_shards"
down_revision: str | None = "0002_decisions_outbox"
branch_labels: str | None = None
depends_on: str | None = None

BIG = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    """Add outbox.shard_key (filled in), create leases, widen games.seed on PostgreSQL."""
    with op.batch_alter_table("outbox") as batch:
        batch.add_column(sa.Column("shard_key", BIG, nullable=False, server_default="0"))
    outbox = sa.table("outbox", sa.column("guild_id", sa.String()), sa.column("shard_key", BIG))
    bind = op.get_bind()
    for (guild_id,) in bind.execute(sa.select(outbox.c.guild_id).distinct()).all():
        if guild_id.isdigit():
            bind.execute(outbox.update().where(outbox.c.guild_id == guild_id).values(shard_key=int(guild_id) >> 22))
    op.create_table(
        "leases",
        sa.Column("shard", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(), nullable=False),
        sa.Column("borrowed", sa.Boolean(), nullable=False),
        sa.Column("waiting", sa.String(), nullable=True),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("shard"),
    )
    if bind.dialect.name == "postgresql":
        op.alter_column("games", "seed", type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=False)


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0003_shards; restore the <database>.backup-* copy that was written next to "
        "the database before the upgrade"
    )
