"""The store: opens transactions, each a Tx with the queries of every area; and whole tables for copying."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Integer, text
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlmodel import func, select

from bot.store.connect import DEFAULT_URL, LOCK_WAIT, READING, make_engine
from bot.store.core import trouble
from bot.store.games import GameQueries
from bot.store.leases import LeaseQueries
from bot.store.log import LogQueries
from bot.store.outbox import OutboxQueries
from bot.store.prompts import PromptQueries
from bot.store.rows import METADATA
from bot.store.seats import SeatQueries
from bot.store.settings import SettingsQueries


class Tx(GameQueries, SeatQueries, LogQueries, PromptQueries, OutboxQueries, LeaseQueries, SettingsQueries):
    """The queries of one transaction (bot/store/core.py: its connection, rows and locks)."""


class Store:
    """Opens transactions; each Tx offers the queries the table layer needs."""

    def __init__(self, url: str = DEFAULT_URL, *, lock_wait: float = LOCK_WAIT) -> None:
        self.url = url
        self.engine = make_engine(url, lock_wait)  # lock_wait: how long SQLite waits for another program's lock

    @contextmanager
    def transaction(self) -> Iterator[Tx]:
        """One unit of work: committed when the block ends (then its after_commit callbacks run), rolled back if it
        raises; raises StoreTrouble when the database fails it."""
        with self._opened(reading=False) as tx:
            yield tx

    @contextmanager
    def reading(self) -> Iterator[Tx]:
        """A transaction that only reads the last committed state: it takes no lock and waits for no writer (a write
        in it raises ReadOnlyTransaction); raises StoreTrouble when the database fails it."""
        with self._opened(reading=True) as tx:
            yield tx

    @contextmanager
    def _opened(self, *, reading: bool) -> Iterator[Tx]:
        """A transaction on a connection of the pool, its database errors turned into StoreTrouble."""
        try:
            with self.engine.connect() as connection:
                if reading:
                    connection.execution_options(**{READING: True})
                with connection.begin():
                    tx = Tx(connection, reading=reading)
                    yield tx
        except DBAPIError as exc:
            if isinstance(exc, IntegrityError):  # a bug of ours, not trouble with the database
                raise
            raise trouble(exc) from exc
        for callback in tx.after_commit:
            callback()

    def close(self) -> None:
        """Release the engine's connections."""
        self.release()

    def release(self) -> None:
        """Close every connection the store holds open (the next transaction opens a new one)."""
        self.engine.dispose()

    # whole tables, for copying a database (bot/dbcopy.py)
    @staticmethod
    def table_names() -> list[str]:
        """Keywood's tables, each after the tables it refers to."""
        return [table.name for table in METADATA.sorted_tables]

    def row_counts(self) -> dict[str, int]:
        """How many rows each table holds."""
        with self.engine.connect() as connection:
            return {table.name: int(connection.execute(select(func.count()).select_from(table)).scalar_one())
                    for table in METADATA.sorted_tables}

    def read_rows(self, name: str, batch: int = 500) -> Iterator[list[dict[str, Any]]]:
        """A table's rows in the order of its key, a batch at a time, as the columns' Python values (times aware
        UTC, flags bool), all read in one transaction."""
        table = METADATA.tables[name]
        with self.engine.connect() as connection:
            result = connection.execution_options(yield_per=batch).execute(
                table.select().order_by(*table.primary_key.columns))
            for part in result.mappings().partitions():
                yield [dict(row) for row in part]

    @contextmanager
    def loading(self, *, replace: bool = False) -> Iterator[Callable[[str, list[dict[str, Any]]], None]]:
        """One transaction that writes whole tables through the function it yields, (table, rows) with their ids:
        every table emptied first when replace; at the end PostgreSQL's id sequences are moved past the largest id
        (SQLite needs nothing), so new rows get new ids. Commits when the block ends, rolls back if it raises."""
        with self.engine.begin() as connection:
            if replace:
                for table in reversed(METADATA.sorted_tables):
                    connection.execute(table.delete())

            def insert_rows(name: str, rows: list[dict[str, Any]]) -> None:
                if rows:
                    connection.execute(METADATA.tables[name].insert(), rows)

            yield insert_rows
            if connection.dialect.name == "postgresql":
                for table in METADATA.sorted_tables:
                    for column in table.primary_key.columns:
                        if isinstance(column.type, Integer):  # setval(NULL, ...) when it has no sequence: nothing
                            connection.execute(text(
                                f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                                f"coalesce(max({column.name}), 0) + 1, false) FROM {table.name}"))
