"""Issue 41, item 4: storage that stays small. Revision 0006 drops the images of messages already delivered or given
up, and on SQLite the file gives the freed space back (bot/migrate.py vacuums after the upgrade); a delivered
message leaves the outbox SENT_KEPT after it was sent, notices and failures aside (bot/store/outbox.py).
`python bench/storage.py` measures what a finished game keeps.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from bot import migrate, store
from bot.store import Store, now
from bot.store.outbox import SENT_KEPT
from engine.keyper import GAME
from tests.bot.helpers import ANA, T0, Started, cmd
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")

IMAGE = random.Random(41).randbytes(200_000)  # a table image's size; random bytes, which no page compresses
AT = "2026-11-27 06:00:00"


def at_0005(database: Database, statuses: list[str]) -> None:
    """Bring a new database to revision 0005 and store a game with one queued message per status, each holding an
    image, as Keywood before 0006 left them."""
    engine = store.connect(database.url)
    try:
        with engine.begin() as connection:
            command.upgrade(migrate.alembic_config(connection), "0005_open_deadlines")
            connection.execute(text(
                "INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, version, host_id, "
                "created_at, updated_at) VALUES (1, 'g', '5', 'keyper', '{}', 7, 'active', 1, 'u', :at, :at)"),
                {"at": AT})
            for status in statuses:
                connection.execute(text(
                    "INSERT INTO outbox (game_id, guild_id, shard_key, channel_id, kind, payload, image, status, "
                    "attempts, next_attempt_at, last_error, created_at) "
                    "VALUES (1, 'g', 0, '5', 'public', '{}', :image, :status, 0, :at, '', :at)"),
                    {"image": IMAGE, "status": status, "at": AT})
    finally:
        engine.dispose()


def checkpointed_size(path: Path) -> int:
    """A SQLite file's size once its write-ahead log is checkpointed into it (its own connection)."""
    connection = sqlite3.connect(path)
    try:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    return path.stat().st_size


def test_0006_drops_the_images_of_sent_and_failed_messages_and_the_file_shrinks(database: Database) -> None:
    """A database at 0005 holding eight sent messages, a failed and a pending one, each with a 200 kB image, opened
    by this Keywood: the sent and failed ones lose their images, the pending one keeps its own; on SQLite the file
    is smaller by at least the nine images dropped, its write-ahead log empty, and the backup written before the
    upgrade still holds all ten."""
    statuses = ["sent"] * 8 + ["failed", "pending"]
    at_0005(database, statuses)
    before = checkpointed_size(database.path) if database.path is not None else 0
    opened = Store(database.url)  # upgrades, as every Keywood command does
    try:
        after = database.path.stat().st_size if database.path is not None else 0
        assert database.rows("SELECT version_num FROM alembic_version") == [(migrate.HEAD,)]
        kept = database.rows("SELECT status, image FROM outbox ORDER BY id")
        assert [status for status, _ in kept] == statuses, "no row went"
        assert [bytes(image) if image is not None else None for _, image in kept] == [None] * 9 + [IMAGE]
    finally:
        opened.close()
    if database.path is None:  # PostgreSQL: its own vacuum reuses the space; nothing more to see in a file
        return
    assert after <= before - 9 * len(IMAGE), (before, after)
    wal = Path(f"{database.path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    [backup] = database.path.parent.glob(f"{database.path.name}.backup-0005_open_deadlines-*")
    copy = sqlite3.connect(backup)
    try:
        assert copy.execute("SELECT count(*) FROM outbox WHERE image IS NOT NULL").fetchone() == (10,)
    finally:
        copy.close()


def test_a_database_at_head_is_not_vacuumed_again(database: Database) -> None:
    """Opening a database already at 0006 runs no revision, so no VACUUM rewrites the file: its pages stay as they
    were (a freed page is still free)."""
    at_0005(database, ["pending"])
    Store(database.url).close()
    database.execute("UPDATE outbox SET image = NULL")
    if database.path is None:
        return
    free = sqlite3.connect(database.path)
    try:
        free.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        before = free.execute("PRAGMA freelist_count").fetchone()[0]
    finally:
        free.close()
    assert before > 0, "the image's pages are free"
    Store(database.url).close()
    again = sqlite3.connect(database.path)
    try:
        assert again.execute("PRAGMA freelist_count").fetchone()[0] == before
    finally:
        again.close()


def outbox(started: Started) -> list[tuple[int, str, str]]:
    """(id, kind, status) of every row of the outbox, oldest first."""
    with started.table.store.transaction() as tx:
        return [(int(i), str(k), str(s)) for i, k, s in tx.execute_raw("SELECT id, kind, status FROM outbox "
                                                                      "ORDER BY id").all()]


def test_a_delivered_message_leaves_the_outbox_a_week_after_it_was_sent(started: Started) -> None:
    """The start's messages: one fails for good (the host gets a notice), some are sent now, the rest two days
    later. A delivery SENT_KEPT and a day after now deletes the messages sent now but keeps those sent since, the
    failure and the notice; the game goes on. (Rows are queued at the store's clock, so the moments follow it.)"""
    table = started.table
    queued = [row for row in table.pending_messages() if row.id is not None]
    channel = [row.id for row in queued if row.recipient is None and row.id is not None]
    assert len(queued) >= 3 and channel
    failed = channel[0]
    table.message_failed(failed, "403 Forbidden (error code: 50013): Missing Permissions", permanent=True, moment=T0)
    pending = [row.id for row in table.pending_messages() if row.id is not None]
    notices = [i for i, kind, _ in outbox(started) if kind == "notice"]
    assert len(notices) == 1 and notices[0] in pending
    early = [i for i in pending if i not in notices][:-1]
    recent = [i for i in pending if i not in early]
    assert early and recent
    sent = now()
    table.messages_sent(early, sent)
    table.messages_sent(recent, sent + timedelta(days=2))
    later = sent + SENT_KEPT + timedelta(days=1)
    move = GAME.format(GAME.legal_actions(started.state(), 0)[0])
    assert table.handle(cmd(ANA, "play", move, at=later)).ok
    fresh = [row.id for row in table.pending_messages() if row.id is not None]
    assert fresh
    table.messages_sent(fresh, later)
    left = outbox(started)
    assert [i for i, _, _ in left] == sorted([failed, *recent, *fresh])
    assert {i: status for i, _, status in left}[failed] == "failed"
    assert notices[0] in recent  # sent two days on; even long after, a notice stays (below)
    with table.store.transaction() as tx:
        assert tx.prune_sent(later + 10 * SENT_KEPT) == len(recent) + len(fresh) - 1  # all but the notice
    assert sorted(i for i, _, _ in outbox(started)) == sorted([failed, notices[0]])
