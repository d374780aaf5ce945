"""Issue 41, item 5: `keywood backup FILE` makes a consistent copy of the SQLite database while Keywood runs. What
is committed but still only in the write-ahead log (keywood.db-wal, which a plain file copy misses) is in the
backup; a transaction in flight is not; restoring is copying the backup into place, and the restored games replay
and play on.
"""

from __future__ import annotations

import io
import random
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from bot import cli
from bot.store import Store
from bot.table import Table
from engine.keyper import GAME
from tests.bot.helpers import ANA, Started, cmd, game_status, log_rows, random_step

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


def test_a_backup_taken_while_another_connection_plays_restores_as_the_configured_database_and_plays_on(
        started: Started, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`keywood --config ... backup` while a second table, on its own connection, keeps committing moves: the copy
    holds the moves up to some point and nothing half-done (its log a beginning of the live one). Restored as the
    documented steps say (the bot stopped, the database and its -wal and -shm moved aside, the copy put in their
    place), `keywood patch` on the configured database finds every game as stored, and the game is played on from
    the copy to its end."""
    config = tmp_path / "config.toml"
    config.write_text(f'database_url = "sqlite:///{started.path}"\n', encoding="utf-8")
    writer = Table(Store(started.db.url), images=False)  # another connection: the bot, still playing
    playing = Started(writer, started.db, started.game_id)
    rng = random.Random(41)
    writing, done = threading.Event(), threading.Event()
    trouble: list[BaseException] = []

    def play_on() -> None:
        try:
            for step in range(200):
                if step == 2:
                    writing.set()
                if (done.is_set() and step > 2) or GAME.is_over(playing.state()):
                    return
                random_step(playing, rng, early_answers=False)
        except BaseException as exc:  # reported by the assertion below
            trouble.append(exc)
        finally:
            writing.set()

    thread = threading.Thread(target=play_on)
    thread.start()
    writing.wait()
    copy = tmp_path / "keywood-backup.db"
    code = cli.main(["--config", str(config), "backup", str(copy)])
    done.set()
    thread.join()
    writer.store.close()
    assert trouble == [] and code == 0, trouble
    assert capsys.readouterr().out.startswith(f"Backed up {started.path} to {copy} (")
    live = log_rows(started.table, started.game_id)
    started.table.store.close()  # the bot stopped
    aside = tmp_path / "aside"
    aside.mkdir()
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{started.path}{suffix}").exists():
            shutil.move(f"{started.path}{suffix}", aside)
    shutil.copyfile(copy, started.path)
    configured = cli.database_url(cli.load_config(str(config)), None)
    report = io.StringIO()
    assert cli.check_games(configured, None, False, report) == 0  # what `keywood --config ... patch` runs
    assert report.getvalue().startswith(f"game {started.game_id}: same")
    restored = Table(cli.open_store(configured, must_exist=True), images=False)
    try:
        kept = log_rows(restored, started.game_id)
        assert 2 <= len(kept) <= len(live) and kept == live[:len(kept)]
        game = Started(restored, started.db, started.game_id)
        for _ in range(3000):
            if GAME.is_over(game.state()):
                break
            random_step(game, rng)
        assert game_status(restored, started.game_id) == "finished"
        assert restored.verify(started.game_id)[0] == "same"
    finally:
        restored.store.close()
