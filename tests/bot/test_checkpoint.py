"""The SQLite checkpointer: the write-ahead log reaches the database file from a thread of the store's own, not in a
command's COMMIT; the thread ends with the store. Also new_row, the quick way the table makes a new row."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import BACKSTOP_PAGES, Checkpointer, PromptRow, Store, new_row, now

ROWS = 300  # each about a page and a half: 450 pages, well short of the backstop
BLOB = b"k" * 6000


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


def test_commits_leave_the_checkpoint_to_the_checkpointer(store: Store) -> None:
    """The store's connections checkpoint only past the backstop (SQLite's default is 1,000 pages)."""
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == BACKSTOP_PAGES
    assert store.checkpointer is not None and store.checkpointer.running


def test_the_log_reaches_the_database_file_without_a_command_copying_it(store: Store, tmp_path: Path) -> None:
    """After 300 commits (far below the backstop, so none of them checkpoints) the database file grows to hold them
    within a few seconds, while the store stays open (closing its last connection would checkpoint too)."""
    database = tmp_path / "check.db"
    write_rows(store, ROWS)
    deadline = time.monotonic() + 10
    while database.stat().st_size < ROWS * len(BLOB) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert database.stat().st_size >= ROWS * len(BLOB)


def test_without_the_checkpointer_the_file_would_not_grow(tmp_path: Path) -> None:
    """The counter-test: the same commits with the checkpointer stopped leave the rows in the log alone."""
    store = Store(f"sqlite:///{tmp_path / 'still.db'}")
    try:
        assert store.checkpointer is not None
        store.checkpointer.close()
        with store.engine.begin() as connection:
            connection.exec_driver_sql("CREATE TABLE scratch (id INTEGER PRIMARY KEY, body BLOB)")
        before = (tmp_path / "still.db").stat().st_size
        write_rows(store, ROWS)
        time.sleep(0.5)
        assert (tmp_path / "still.db").stat().st_size == before
        assert (tmp_path / "still.db-wal").stat().st_size >= ROWS * len(BLOB)
    finally:
        store.close()


def test_the_thread_ends_with_close_and_with_a_forgotten_store(tmp_path: Path) -> None:
    """close() stops it at once; a store dropped without close() stops its thread when collected."""
    closed = Store(f"sqlite:///{tmp_path / 'a.db'}")
    assert closed.checkpointer is not None
    closed.close()
    assert not closed.checkpointer.running
    forgotten = Store(f"sqlite:///{tmp_path / 'b.db'}")
    checkpointer = forgotten.checkpointer
    assert isinstance(checkpointer, Checkpointer) and checkpointer.running
    forgotten.engine.dispose()
    del forgotten
    gc.collect()
    deadline = time.monotonic() + 5
    while checkpointer.running and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not checkpointer.running


def test_an_in_memory_database_has_no_checkpointer() -> None:
    """Nothing to copy: no thread."""
    store = Store("sqlite://")
    assert store.checkpointer is None
    store.close()


def test_new_row_fills_in_the_defaults_and_refuses_a_missing_column() -> None:
    """A new prompt gets the columns' defaults (status open, a creation time, no id); a required column left out is
    a TypeError naming it."""
    moment = now()
    row = new_row(PromptRow, game_id=3, kind="turn", seat=1, deadline=moment)
    assert (row.id, row.game_id, row.kind, row.seat, row.key, row.deadline, row.payload, row.status, row.answer) == (
        None, 3, "turn", 1, "", moment, "{}", "open", None)
    assert abs((row.created_at - moment).total_seconds()) < 5
    with pytest.raises(TypeError, match="deadline"):
        new_row(PromptRow, game_id=3, kind="turn")
