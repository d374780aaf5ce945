"""The first schema: the tables of Keywood at commit ff0c4a6, as SQLModel's create_all made them.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-24

A database created before Keywood used Alembic has exactly this schema and no alembic_version table;
bot/migrate.py stamps it with this revision before upgrading it.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001_initial"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    """Create games, seats, actions, snapshots, prompts and guild_settings with their indexes."""
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.String(), nullable=False),
        sa.Column("channel_id", sa.String(), nullable=False),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("options", sa.String(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("host_id", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_guild_id", "games", ["guild_id"])
    op.create_index("ix_games_channel_id", "games", ["channel_id"])
    op.create_index("ix_games_where", "games", ["guild_id", "channel_id", "status"])

    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.String(), nullable=False),
        sa.Column("joiner_deadline_minutes", sa.Integer(), nullable=False),
        sa.Column("reminder_hours", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.UniqueConstraint("game_id", "user_id"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_index("ix_seats_game_id", "seats", ["game_id"])

    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("author_id", sa.String(), nullable=False),
        sa.Column("notation", sa.String(), nullable=False),
        sa.Column("summary", sa.String(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seq"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])

    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )

    op.create_table(
        "prompts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.String(), nullable=True),
        sa.Column("deadline", sa.DateTime(), nullable=False),
        sa.Column("payload", sa.String(), nullable=False),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("answer", sa.String(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_index("ix_prompts_game_status", "prompts", ["game_id", "status"])
    op.create_index("ix_prompts_deadline", "prompts", ["deadline"])
    op.create_index("ix_prompts_game_id", "prompts", ["game_id"])
    op.create_index("ix_prompts_status", "prompts", ["status"])


def downgrade() -> None:
    """Drop every table of this schema (children first)."""
    for table in ("prompts", "snapshots", "actions", "seats", "guild_settings", "games"):
        op.drop_table(table)
