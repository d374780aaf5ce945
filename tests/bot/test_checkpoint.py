"""The SQLite write-ahead log stays small: the commits of the store's own connections copy it into the database file
(SQLite's automatic checkpoint), so a long-running bot needs no thread of its own for that."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import Store

ROWS = 1500  # each about a page and a half: some 9 MB, twice SQLite's automatic checkpoint of 1,000 pages (4 MB)
BLOB = b"k" * 6000
WAL_LIMIT = 6_000_000  # bytes: the automatic checkpoint's 1,000 pages, one transaction and some slack


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    """A store on a new SQLite file, with a scratch table of its own."""
    made = Store(f"sqlite:///{tmp_path / 'check.db'}")
    with made.engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB)")
    yield made
    made.close()


def write_rows(store: Store, count: int) -> None:
    """Commit `count` transactions of one new row each, through the store's own connections."""
    for _ in range(count):
        with store.engine.begin() as connection:
            connection.exec_driver_sql("INSERT INTO scratch (body) VALUES (?)", (BLOB,))


def test_the_log_reaches_the_database_file_and_stays_small(store: Store, tmp_path: Path) -> None:
    """After 9 MB of commits, with the store still open (closing its last connection would checkpoint too), the
    database file holds them and the write-ahead log is no bigger than SQLite's automatic checkpoint lets it grow."""
    write_rows(store, ROWS)
    assert (tmp_path / "check.db").stat().st_size >= (ROWS - 1000) * len(BLOB)
    assert (tmp_path / "check.db-wal").stat().st_size < WAL_LIMIT


def test_without_the_automatic_checkpoint_the_log_would_grow(store: Store, tmp_path: Path) -> None:
    """The counter-test: the same commits with the automatic checkpoint switched off leave every row in the log."""
    with store.engine.connect() as connection:  # a new file's pool holds one connection: this one
        connection.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
        connection.rollback()
    before = (tmp_path / "check.db").stat().st_size
    write_rows(store, ROWS)
    assert (tmp_path / "check.db").stat().st_size == before
    assert (tmp_path / "check.db-wal").stat().st_size >= ROWS * len(BLOB)
