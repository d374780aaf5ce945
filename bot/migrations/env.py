"""Alembic's entry point: runs the revisions on the connection bot/migrate.py passes in, inside its transaction."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError("Keywood migrations run through bot.migrate, which passes an open connection")

# The caller already began the transaction (BEGIN IMMEDIATE on SQLite), so Alembic treats it as external and
# neither begins nor commits: the whole upgrade commits, or rolls back, as one.
context.configure(connection=connection, target_metadata=None, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
