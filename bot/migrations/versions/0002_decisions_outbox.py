"""Decisions belong to seats, deadlines are "decision minutes", and messages go through an outbox.

Revision ID: 0002_decisions_outbox
Revises: 0001_initial
Create Date: 2026-11-24

- prompts: a seat, not a user, owns a decision, so user_id goes (a joiner row that somehow had no seat gets
  the seat its user held); a new column `key` ('' for existing rows); kind 'joiner' becomes 'reaction' and
  'reminder' becomes 'turn'. Payloads are kept as they are.
- guild_settings: joiner_deadline_minutes is renamed decision_minutes.
- games.options (JSON text): the key "joiner_deadline_minutes" is renamed "decision_minutes".
- new tables: outbox (messages to deliver, written in the command's transaction) and recipients (users whose
  direct messages are closed).
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002_decisions_outbox"
down_revision: str | None = "0001_initial"
branch_labels: str | None = None
depends_on: str | None = None

OLD_OPTION, NEW_OPTION = "joiner_deadline_minutes", "decision_minutes"


def upgrade() -> None:
    """Reshape prompts and guild_settings, rewrite game options, create outbox and recipients."""
    _prompts()
    with op.batch_alter_table("guild_settings") as batch:
        batch.alter_column(OLD_OPTION, new_column_name=NEW_OPTION, existing_type=sa.Integer(), existing_nullable=False)
    _game_options()
    _outbox()
    op.create_table(
        "recipients",
        sa.Column("user_id", sa.String(), nullable=False),
        sa.Column("dms_closed_at", sa.DateTime(), nullable=True),
        sa.Column("told_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("user_id"),
    )


def _prompts() -> None:
    """Seat owns the decision (user_id dropped), new column key, kinds renamed; payloads untouched."""
    prompts = sa.table("prompts", sa.column("game_id", sa.Integer()), sa.column("kind", sa.String()),
                       sa.column("seat", sa.Integer()), sa.column("user_id", sa.String()))
    seats = sa.table("seats", sa.column("game_id", sa.Integer()), sa.column("seat", sa.Integer()),
                     sa.column("user_id", sa.String()))
    holder = (
        sa.select(seats.c.seat)
        .where(seats.c.game_id == prompts.c.game_id, seats.c.user_id == prompts.c.user_id)
        .scalar_subquery()
    )
    op.execute(
        prompts.update()
        .where(prompts.c.kind == "joiner", prompts.c.seat.is_(None), prompts.c.user_id.is_not(None))
        .values(seat=holder)
    )
    with op.batch_alter_table("prompts") as batch:
        batch.add_column(sa.Column("key", sa.String(), nullable=False, server_default=""))
        batch.drop_column("user_id")
    for old, new in (("joiner", "reaction"), ("reminder", "turn")):
        op.execute(prompts.update().where(prompts.c.kind == old).values(kind=new))


def _game_options() -> None:
    """Rename the deadline option inside every game's options JSON (rows without it stay as they are)."""
    games = sa.table("games", sa.column("id", sa.Integer()), sa.column("options", sa.String()))
    bind = op.get_bind()
    for game_id, text in bind.execute(sa.select(games.c.id, games.c.options)).all():
        renamed = _renamed(text)
        if renamed is not None:
            bind.execute(games.update().where(games.c.id == game_id).values(options=renamed))


def _renamed(text: str) -> str | None:
    """The options JSON with the old key renamed, or None when there is nothing to rename."""
    try:
        options: Any = json.loads(text)
    except (TypeError, ValueError):
        return None
    if not isinstance(options, dict) or OLD_OPTION not in options:
        return None
    value = options.pop(OLD_OPTION)
    options.setdefault(NEW_OPTION, value)
    return json.dumps(options, sort_keys=True)


def _outbox() -> None:
    """The outbox: messages an accepted command must send, delivered (and retried) by the transport."""
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("guild_id", sa.String(), nullable=False),
        sa.Column("channel_id", sa.String(), nullable=False),
        sa.Column("recipient", sa.String(), nullable=True),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("payload", sa.String(), nullable=False),
        sa.Column("image", sa.LargeBinary(), nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("last_error", sa.String(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
    op.create_index("ix_outbox_game_id", "outbox", ["game_id"])
    op.create_index("ix_outbox_status_next", "outbox", ["status", "next_attempt_at"])


def downgrade() -> None:
    """Not supported: Keywood only migrates forward (restore the backup written before the upgrade instead)."""
    raise NotImplementedError(
        "Keywood cannot downgrade from 0002_decisions_outbox; restore the <database>.backup-* copy that was "
        "written next to the database before the upgrade"
    )
