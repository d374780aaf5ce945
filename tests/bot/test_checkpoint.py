"""The SQLite checkpointer: the write-ahead log reaches the database file from a thread of the store's own, not in a
command's COMMIT; the thread ends with the store. Also the plain records the command path reads and writes."""

from __future__ import annotations

import dataclasses
import gc
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.store import (
    BACKSTOP_PAGES,
    Checkpointer,
    GameRecord,
    GameRow,
    PromptRecord,
    PromptRow,
    SeatRecord,
    SeatRow,
    Store,
)

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
    forgotten.release()
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


@pytest.mark.parametrize(("record", "model"), [(GameRecord, GameRow), (SeatRecord, SeatRow),
                                             (PromptRecord, PromptRow)])
def test_the_command_paths_records_match_their_tables(record: type, model: type) -> None:
    """Each plain record the command path uses has its table's columns, in order, with the same defaults; a column
    without a default must be given."""
    assert [f.name for f in dataclasses.fields(record)] == [c.name for c in model.__table__.columns]
    for f in dataclasses.fields(record):
        info = model.model_fields[f.name]
        assert (f.default_factory is not dataclasses.MISSING) == (info.default_factory is not None), f.name
        if f.default_factory is dataclasses.MISSING and not info.is_required():
            assert f.default == info.default, f.name
        assert (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING) == info.is_required()
    with pytest.raises(TypeError, match="deadline"):
        PromptRecord(game_id=3, kind="turn")  # type: ignore[call-arg]
