"""Issue 41, item 9: a database in trouble (locked by another program past the wait, full, read-only) gets a reply
that says so and that nothing was changed; the game is as it was, and plays on once the trouble is gone. SQLite
only: each kind of trouble is made with SQLite itself (another connection's exclusive lock, a page limit, a
read-only connection)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from bot import cli
from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from tests.bot.helpers import ANA, BEN, CLEO, Started, cmd, dump

pytestmark = pytest.mark.databases("sqlite")
FIXTURES = Path(__file__).parents[1] / "fixtures"


def a_legal_move(started: Started) -> str:
    """One of Ana's legal moves, in notation (she acts first)."""
    return GAME.format(GAME.legal_actions(started.state(), 0)[0])


def test_a_locked_database_is_named_and_changes_nothing(started: Started) -> None:
    """Another program holding the file's lock past the store's wait: the command is refused as 'busy'."""
    table = Table(Store(started.table.store.url, lock_wait=0.2), images=False)
    before, move = dump(started.db), a_legal_move(started)
    other = sqlite3.connect(started.path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        refused = table.handle(cmd(ANA, "play", move))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not refused.ok and refused.reply.startswith("Keywood's database is busy"), refused.reply
    assert "nothing was changed" in refused.reply
    assert dump(started.db) == before
    assert table.handle(cmd(ANA, "play", move)).ok, "the game plays on once the lock is gone"


def test_a_full_database_is_named_and_changes_nothing(table: Table, db_path: Path) -> None:
    """No room left for another page: `start`, which stores the new game's state, is refused as 'full', and
    nothing of it is stored; once there is room again the game starts."""
    for step in [cmd(ANA, "new", "keyper", options={"seed": 7}), cmd(BEN, "join"), cmd(CLEO, "join")]:
        assert table.handle(step).ok
    store = Store(table.store.url)

    @event.listens_for(store.engine, "connect")
    def no_room(dbapi_connection: Any, _record: Any) -> None:
        pages = dbapi_connection.execute("PRAGMA page_count").fetchone()[0]
        dbapi_connection.execute(f"PRAGMA max_page_count = {pages}")

    store.release()  # new connections, with the limit
    full = Table(store, images=False)
    before = dump(db_path)
    refused = full.handle(cmd(ANA, "start"))
    assert not refused.ok and refused.reply.startswith("Keywood's database has no room left"), refused.reply
    assert dump(db_path) == before
    assert table.handle(cmd(ANA, "start")).ok, "the game starts once there is room"


def test_a_read_only_database_is_named(started: Started) -> None:
    """A database Keywood may only read: every command is refused as 'read-only', and the file is unchanged."""
    before = dump(started.db)
    table = Table(Store(f"sqlite:///file:{started.path}?mode=ro&uri=true"), images=False)
    refused = table.handle(cmd(ANA, "play", a_legal_move(started)))
    assert not refused.ok and refused.reply.startswith("Keywood's database is read-only"), refused.reply
    assert dump(started.db) == before


def test_a_read_only_database_that_needs_upgrading_is_named_at_startup(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 41 §9, at startup: a database of an older Keywood that may only be read cannot be brought up to date;
    `keywood play` says so in one line, exits 2, and the file is unchanged."""
    old = tmp_path / "old.db"
    shutil.copy(FIXTURES / "keywood-ff0c4a6.db", old)
    before = old.read_bytes()
    assert cli.main(["play", "--db", f"sqlite:///file:{old}?mode=ro&uri=true"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert len(said) == 1 and said[0].startswith(f"keywood play: cannot open the database at {old}: Keywood may "
                                                 "only read it, and must write to it; nothing was changed"), said
    assert old.read_bytes() == before
