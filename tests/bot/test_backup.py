"""Issue 41, item 5: `keywood backup FILE` makes a consistent copy of the SQLite database while Keywood runs. What
is committed but still only in the write-ahead log (keywood.db-wal, which a plain file copy misses) is in the
backup; a transaction in flight is not; restoring is copying the backup into place, and the restored games replay.
"""

from __future__ import annotations

import io
import shutil
import sqlite3
from pathlib import Path

import pytest

from bot import cli
from bot.table import Table
from engine.keyper import GAME
from tests.bot.helpers import ANA, Started, cmd, log_rows

pytestmark = pytest.mark.databases("sqlite")


def test_a_backup_while_playing_holds_every_committed_move_and_restores(started: Started, tmp_path: Path) -> None:
    """The backup holds the moves committed so far (still in the WAL: checkpoints are held off by an open reader),
    not a write in flight; copied back into place it opens, and every game replays to its stored state."""
    reader = sqlite3.connect(started.path)
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM games").fetchone()  # a read snapshot: the WAL cannot be checkpointed away
    move = GAME.format(GAME.legal_actions(started.state(), 0)[0])
    assert started.table.handle(cmd(ANA, "play", move)).ok
    committed = len(log_rows(started.table, started.game_id))
    assert Path(f"{started.path}-wal").stat().st_size > 0, "the move is in the write-ahead log"
    writer = sqlite3.connect(started.path, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE games SET host_id = 'in-flight'")  # never committed
    copy = tmp_path / "backup.db"
    out = io.StringIO()
    assert cli.backup(started.db.url, str(copy), out) == 0
    writer.execute("ROLLBACK")
    reader.execute("ROLLBACK")
    assert out.getvalue().startswith(f"Backed up {started.path} to {copy} (")
    restored = tmp_path / "restored" / "keywood.db"
    restored.parent.mkdir()
    shutil.copyfile(copy, restored)  # restoring: the bot stopped, the backup copied into place
    table = Table(cli.open_store(f"sqlite:///{restored}", must_exist=True), images=False)
    assert len(log_rows(table, started.game_id)) == committed
    assert table.verify(started.game_id)[0] == "same"
    with table.store.transaction() as tx:
        assert all(row.host_id != "in-flight" for row in tx.games())


def test_a_backup_refuses_what_it_cannot_do_safely(started: Started, tmp_path: Path) -> None:
    """An existing file is never overwritten; a PostgreSQL URL is pointed at pg_dump."""
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"mine")
    with pytest.raises(cli.Refused, match="exists already; a backup never overwrites a file"):
        cli.backup(started.db.url, str(taken))
    assert taken.read_bytes() == b"mine"
    with pytest.raises(cli.Refused, match="for PostgreSQL use pg_dump"):
        cli.backup("postgresql+psycopg://kw@localhost/keywood", str(tmp_path / "x.db"))
