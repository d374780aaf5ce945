"""What every query of a transaction stands on: its connection, its moment, its locks, and the rows it reads.

Queries are SQLModel statements run on the transaction's connection; each row found comes back as a new row object
that belongs to no ORM session. A command may change one freely, and what it changed is stored only by the save
method it calls (an UPDATE by id; for leases, recipients and settings an UPDATE by key that inserts the row when it
is not there yet). Every write is a statement run at once, so a later query of the same transaction sees it.

Locks: on SQLite every writing transaction holds the whole file from its BEGIN IMMEDIATE. On PostgreSQL a game row
is read FOR UPDATE (two commands on one game run one after the other, the second seeing what the first committed),
and what may not exist yet is guarded by a transaction-scoped advisory lock taken before it is read: a channel (two
`new` in one channel open one table), a server's settings, a user's DM record, the leases.

A reading transaction (Store.reading) takes none of these locks and waits for none: it sees the last committed
state (on SQLite, WAL's snapshot), and any write in it is refused as a bug (ReadOnlyTransaction).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from sqlalchemy import Column, Connection, Delete, Insert, Update, bindparam, insert, inspect, text, update
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm.instrumentation import manager_of_class
from sqlmodel import SQLModel, func, select
from sqlmodel.sql.expression import SelectOfScalar

from bot.store.rows import columns, now

# PostgreSQL advisory locks (two-key form): the first key says what is locked ("KW" and a number), the second is a
# hash of its name.
CHANNEL_LOCK, SETTINGS_LOCK, RECIPIENT_LOCK, LEASE_LOCK = 0x4B570001, 0x4B570002, 0x4B570003, 0x4B570004

M = TypeVar("M", bound=SQLModel)


class StaleVersion(Exception):
    """A game's stored version is no longer the one this transaction read: another command changed the game."""


class ReadOnlyTransaction(Exception):
    """A reading transaction was asked to write (a bug of ours: the command should have opened a writing one)."""


class StoreTrouble(Exception):
    """The database failed a transaction, which changed nothing: kind is "locked" (another program held it past the
    wait), "full" (no room left), "read-only", or "unreachable" (any other failure of the database itself)."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"the database is {kind}: {detail}")
        self.kind = kind


def trouble(exc: DBAPIError) -> StoreTrouble:
    """What kind of trouble a database error is (SQLite by its message, PostgreSQL by its SQLSTATE)."""
    detail = " ".join(str(exc.orig).split())
    state = str(getattr(exc.orig, "sqlstate", "") or "")
    text = detail.lower()
    if "locked" in text or "busy" in text or state in ("55P03", "40P01", "57014"):
        return StoreTrouble("locked", detail)
    if "full" in text or state.startswith("53"):
        return StoreTrouble("full", detail)
    if "readonly" in text or "read-only" in text or state == "25006":
        return StoreTrouble("read-only", detail)
    return StoreTrouble("unreachable", detail)


class TxCore:
    """One transaction's connection and moment, and the few things every area's queries do with them."""

    def __init__(self, connection: Connection, *, reading: bool = False) -> None:
        self.connection = connection
        self.sqlite = connection.dialect.name == "sqlite"
        self.reading = reading  # takes no locks, and may not write
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
        if not self.sqlite and not self.reading:
            self.connection.execute(select(func.pg_advisory_xact_lock(space, func.hashtext(name))))

    def _rows(self, query: SelectOfScalar[M], params: Mapping[str, Any] | None = None) -> list[M]:
        """The rows a query of one table finds (its bound parameters given), as new row objects (see the module's
        docstring)."""
        make = manager_of_class(query.column_descriptions[0]["type"]).new_instance
        found = []
        for values in self.connection.execute(query, params).mappings():
            row: M = make()  # as SQLAlchemy's own loading makes a row: __init__ costs twenty times more
            row.__dict__.update(values)
            found.append(row)
        return found

    def _row(self, query: SelectOfScalar[M], params: Mapping[str, Any] | None = None) -> M | None:
        """The first row a query finds; None when it finds none (a query that may find several says limit(1))."""
        found = self._rows(query, params)
        return found[0] if found else None

    def _value(self, query: SelectOfScalar[Any], params: Mapping[str, Any] | None = None) -> Any:
        """The one value a query of one column finds (None when it finds no row)."""
        return self.connection.execute(query, params).scalar()

    def add_rows(self, rows: list[M]) -> list[M]:
        """Insert new rows of one table; returns them with their keys (ids) filled in."""
        if not rows:
            return rows
        self._writing()
        model = type(rows[0])
        found = self.connection.execute(_inserting(model), [columns(row) for row in rows])
        name = _key(model).name
        for row, (value,) in zip(rows, found, strict=True):
            setattr(row, name, value)
        return rows

    def _save(self, row: SQLModel, statement: Update | None = None, **where: Any) -> int:
        """Write a row back: by default an UPDATE by its primary key, else the given UPDATE statement with its bound
        parameters (`where`); returns how many rows it matched."""
        self._writing()
        values = columns(row)
        if statement is None:
            statement, where = _updating(type(row)), {"key_": getattr(row, _key(type(row)).name)}
        return int(self.connection.execute(statement, {**values, **where}).rowcount)

    def _save_by_key(self, row: SQLModel) -> None:
        """Store a row keyed by its primary key (not an id): an UPDATE of the row with that key, else an INSERT."""
        if not self._save(row):
            self.connection.execute(insert(type(row)), columns(row))

    def _write(self, statement: Update | Delete, values: dict[str, Any] | None = None) -> int:
        """Run an UPDATE (setting these column values) or a DELETE; returns how many rows it matched."""
        self._writing()
        return int(self.connection.execute(statement, values).rowcount)

    def _writing(self) -> None:
        """Raise ReadOnlyTransaction in a reading transaction."""
        if self.reading:
            raise ReadOnlyTransaction("a reading transaction may not write")

    def execute_raw(self, sql: str) -> Any:
        """Run a literal SQL statement (used by maintenance commands and tests)."""
        return self.connection.execute(text(sql))


# The statements every table's rows are inserted and updated with, each built once (a statement built for every call
# costs more than running it).
@cache
def _key(model: type[SQLModel]) -> Column[Any]:
    """A table's primary key column."""
    key: Column[Any] = inspect(model).primary_key[0]
    return key


@cache
def _inserting(model: type[SQLModel]) -> Insert:
    """INSERT of a table's rows, returning their keys in the order given."""
    return insert(model).returning(_key(model), sort_by_parameter_order=True)


@cache
def _updating(model: type[SQLModel]) -> Update:
    """UPDATE of a table's row by its key (bound as key_), setting the columns given."""
    return update(model).where(_key(model) == bindparam("key_"))
