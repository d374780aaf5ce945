"""Issue 41, item 7: no table waits for another. Commands that only read take no write lock and wait for none; a
writing command holds the lock only while it writes: a computer's thinking and the table image are worked out
outside its transaction (Context.writing), and the command is run again with them. On a real SQLite file, whose
write lock another connection can hold or probe."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from bot.store import GameRow, ReadOnlyTransaction, Store, aware, now
from bot.table import STANDIN_AUTHOR, Outcome, Table
from bot.table.outbox import IMAGE_WAIT, outbox_rows
from engine import standin
from engine.keyper import GAME
from tests.bot.helpers import ANA, BEN, CLEO, WHERE, Started, cmd, count, dump, log_rows, url

pytestmark = pytest.mark.databases("sqlite")


def test_a_reading_transaction_refuses_to_write(started: Started) -> None:
    """A write inside Store.reading is a bug of ours: it is refused before it reaches the database."""
    with pytest.raises(ReadOnlyTransaction), started.table.store.reading() as tx:
        tx.add_game(GameRow(guild_id="g", channel_id="c", game="keyper", host_id="h", seed=1))


def test_reads_answer_while_another_program_holds_the_write_lock(started: Started) -> None:
    """Another connection holds the write lock past the store's wait: `board`, `hand`, `log`, `score`, `check`,
    `rules` and the suggestions still answer; a move is refused as 'busy' and changes nothing."""
    table = Table(Store(started.table.store.url, lock_wait=0.2), images=False)
    move = GAME.format(GAME.legal_actions(started.state(), 0)[0])
    before = dump(started.db)
    other = sqlite3.connect(started.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        answers = {verb: table.handle(cmd(ANA, verb, arg)) for verb, arg in
                   [("board", ""), ("hand", ""), ("log", ""), ("score", ""), ("check", move), ("rules", "")]}
        suggested = table.suggest(WHERE, ANA.user_id, "")
        refused = table.handle(cmd(ANA, "play", move))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert all(a.ok for a in answers.values()), {v: a.reply for v, a in answers.items() if not a.ok}
    assert move in suggested
    assert not refused.ok and refused.reply.startswith("Keywood's database is busy"), refused.reply
    assert dump(started.db) == before


def test_the_write_lock_is_free_while_a_computer_thinks(db_path: Path) -> None:
    """Ana plays against two computer seats that think a second each: while they think, another program can take
    the file's write lock (before, the whole command held it); their moves are then stored as the stand-in's."""
    slow = standin.Budget(playouts=10**6, seconds=1.0)
    table = Table(Store(url(db_path)), images=True, standin_budget=slow)
    assert table.handle(cmd(ANA, "new", "keyper", options={"seed": 5, "computers": 2})).ok
    started = table.handle(cmd(ANA, "start"))
    assert started.ok and started.game_id is not None
    with table.store.reading() as tx:
        state = GAME.from_json(tx.snapshot(started.game_id))
    move = GAME.format(GAME.legal_actions(state, 0)[0])
    played: list[bool] = []
    worker = threading.Thread(target=lambda: played.append(table.handle(cmd(ANA, "play", move)).ok))
    worker.start()
    time.sleep(0.3)
    free = 0
    probe = sqlite3.connect(db_path, isolation_level=None, timeout=0)
    while worker.is_alive() and not free:
        try:
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            free += 1
        except sqlite3.OperationalError:  # "database is locked": the command holds it at this moment
            time.sleep(0.05)
    probe.close()
    worker.join()
    assert played == [True]
    assert free, "the write lock was held the whole time the computers thought"
    authors = [row[2] for row in log_rows(table, started.game_id)]
    assert authors.count(STANDIN_AUTHOR) >= 2, authors


def test_the_table_image_is_drawn_after_the_move_is_stored(db_path: Path) -> None:
    """The turn message is queued waiting for its image (due only IMAGE_WAIT later, as it stays if the process
    stops before drawing it); once the command has committed, the image is drawn and handed to it, and it is due."""
    table = Table(Store(url(db_path)), images=True)
    assert table.handle(cmd(ANA, "new", "keyper", options={"seed": 5})).ok
    for who in (BEN, CLEO):
        assert table.handle(cmd(who, "join")).ok
    started = table.handle(cmd(ANA, "start"))
    public = [row for row in started.outbox if row.kind == "public"][-1]
    assert started.image is not None and started.image.startswith(b"\x89PNG")
    assert public.image == started.image and aware(public.next_attempt_at) <= now()
    assert count(db_path, f"SELECT count(*) FROM outbox WHERE id = {public.id} AND image IS NOT NULL") == 1
    waiting = Outcome(True, public=["A move."], where=WHERE, game_id=started.game_id, draw=lambda: b"png")
    rows = outbox_rows(waiting, now())
    assert rows[0]["image"] == b"" and rows[0]["next_attempt_at"] == rows[0]["created_at"] + IMAGE_WAIT
