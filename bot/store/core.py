"""What every query of a transaction stands on: its ORM session, its moment, its locks, and detached rows.

Rows come back detached from the session: a command may change one freely, and what it changed is stored only by
the save method it calls (an UPDATE by id; for leases, recipients and settings a merge by key, which inserts a row
that is not there yet).

Locks: on SQLite every transaction holds the whole file from its BEGIN IMMEDIATE. On PostgreSQL a game row is read
FOR UPDATE (two commands on one game run one after the other, the second seeing what the first committed), and what
may not exist yet is guarded by a transaction-scoped advisory lock taken before it is read: a channel (two `new` in
one channel open one table), a server's settings, a user's DM record, the leases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Delete, Update, insert, inspect, text
from sqlmodel import Session, SQLModel, func, select
from sqlmodel.sql.expression import SelectOfScalar

from bot.store.rows import columns, now

# PostgreSQL advisory locks (two-key form): the first key says what is locked ("KW" and a number), the second is a
# hash of its name.
CHANNEL_LOCK, SETTINGS_LOCK, RECIPIENT_LOCK, LEASE_LOCK = 0x4B570001, 0x4B570002, 0x4B570003, 0x4B570004

M = TypeVar("M", bound=SQLModel)


class StaleVersion(Exception):
    """A game's stored version is no longer the one this transaction read: another command changed the game."""


class TxCore:
    """One transaction's session and moment, and the few things every area's queries do with them."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.sqlite = session.get_bind().dialect.name == "sqlite"
        self.after_commit: list[Callable[[], None]] = []  # run only once the transaction has committed
        self._moment: datetime | None = None

    def now(self) -> datetime:
        """The transaction's time, taken when first asked for: every row it stamps gets the same one."""
        if self._moment is None:
            self._moment = now()
        return self._moment

    def _lock(self, space: int, name: str) -> None:
        """PostgreSQL: wait for, then hold until the end of this transaction, the advisory lock on a name (SQLite's
        transactions already hold the whole file)."""
        if not self.sqlite:
            self.session.execute(select(func.pg_advisory_xact_lock(space, func.hashtext(name))))

    def _rows(self, query: SelectOfScalar[M]) -> list[M]:
        """The rows a query finds, detached."""
        return self._detached(self.session.exec(query))

    def _row(self, query: SelectOfScalar[M]) -> M | None:
        """The first row a query finds, detached; None when it finds none."""
        found = self._rows(query.limit(1))
        return found[0] if found else None

    def _insert(self, rows: list[M]) -> list[M]:
        """Insert new rows of one table; returns them with their keys (ids) filled in."""
        if not rows:
            return rows
        model = type(rows[0])
        key = inspect(model).primary_key[0]
        found = self.session.connection().execute(insert(model).returning(key, sort_by_parameter_order=True),
                                                  [columns(row) for row in rows])
        for row, (value,) in zip(rows, found, strict=True):
            setattr(row, key.name, value)
        return rows

    def _detached(self, rows: Iterable[M]) -> list[M]:
        """Rows taken out of the session (see the module's docstring)."""
        found = list(rows)
        for row in found:
            self.session.expunge(row)
        return found

    def _write(self, statement: Update | Delete, values: dict[str, Any] | None = None) -> int:
        """Run an UPDATE (setting these column values) or a DELETE; returns how many rows it matched."""
        return self.session.connection().execute(statement, values).rowcount

    def execute_raw(self, sql: str) -> Any:
        """Run a literal SQL statement (used by maintenance commands and tests)."""
        return self.session.execute(text(sql))
