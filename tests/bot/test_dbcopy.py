"""`keywood migrate-db`: a SQLite database holding games of every registered game copied to PostgreSQL (and to
another SQLite file), checked table by table and game by game by replaying each log through the engine.

The source is made once for the module through the real Table: for each registered game a table that has played
forty random legal moves (open decisions, answers kept ahead, outbox messages) and a second one played to its end
if that is quick (the test game Tokens) or else abandoned, a lobby, an abandoned lobby, a server's settings, a user
with closed DMs and a message with its table image. Each test copies that file and migrates the copy. Whole games
of the real games are left out for time: a random Keyper or Keyflower game through the table takes some seconds,
and random Keythedral games hardly ever end.
"""

from __future__ import annotations

import random
import re
import shutil
from collections.abc import Iterator
from datetime import datetime
from io import StringIO
from pathlib import Path

import pytest

from bot import cli, games
from bot.games import GameEntry
from bot.store import Store
from bot.table import Command, Table, Where, Who
from tests.bot.helpers import count, keywood
from tests.databases import Database

pytestmark = pytest.mark.databases("sqlite", "postgresql")  # the target's kind; the source is always SQLite

GUILD = "guild-1"
PLAYERS = [Who(f"u-{name.lower()}", name) for name in ("Ana", "Ben", "Cleo")]
MOVES = 40  # random legal moves per running game
QUICK_FINISH = 20  # a second game of each is played for this many moves: finished if it ended (Tokens), else abandoned
TABLES = ("games", "seats", "actions", "snapshots", "prompts", "outbox", "recipients", "guild_settings")


def play_random(table: Table, entry: GameEntry, where: Where, seed: int, moves: int) -> int:
    """Open, fill and start a table of the game in a channel, then play random legal moves for the seats that must
    act (and, now and then, an answer ahead); returns the game id."""
    players = PLAYERS[:max(entry.min_players, min(3, entry.max_players))]
    assert table.handle(Command(where, players[0], "new", entry.id, options={"seed": seed})).ok
    for who in players[1:]:
        assert table.handle(Command(where, who, "join")).ok
    started = table.handle(Command(where, players[0], "start"))
    assert started.ok and started.game_id is not None, started.reply
    rng = random.Random(seed)
    for _ in range(moves):
        with table.store.transaction() as tx:
            row = tx.game(started.game_id)
            data = tx.snapshot(started.game_id)
            kept = {p.seat for p in tx.open_prompts(started.game_id) if p.answer is not None}
        assert row is not None and data is not None
        if row.status != "active":
            break
        state = entry.engine.from_json(data)
        choices = [(seat, a) for seat in entry.engine.to_act(state) for a in entry.engine.legal_actions(state, seat)]
        ahead = [(d.seat, a) for d in entry.engine.decisions(state) if not d.must and d.seat not in kept
                 for a in entry.engine.pending_answers(state, d.seat)]
        seat, action = rng.choice(ahead if ahead and rng.random() < 0.5 else choices)
        outcome = table.handle(Command(where, players[seat], "play", entry.engine.format(action)))
        assert outcome.ok, (entry.id, outcome.reply)
    return started.game_id


@pytest.fixture(scope="module")
def source_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite database with games of every registered game (made once; tests copy it)."""
    path = tmp_path_factory.mktemp("dbcopy") / "source.db"
    store = Store(f"sqlite:///{path}")
    try:
        table = Table(store, images=False)
        for n, entry in enumerate(games.all_games()):
            play_random(table, entry, Where(GUILD, f"running-{entry.id}"), 11 + n, MOVES)
            finished = play_random(table, entry, Where(GUILD, f"finished-{entry.id}"), 31 + n, QUICK_FINISH)
            with store.transaction() as tx:
                row = tx.game(finished)
                assert row is not None
            if row.status != "finished":  # a long game: abandoned
                assert table.handle(Command(Where(GUILD, f"finished-{entry.id}"), PLAYERS[0], "abandon")).ok
        assert table.handle(Command(Where(GUILD, "lobby"), PLAYERS[1], "new", "keyper")).ok
        assert table.handle(Command(Where(GUILD, "gone"), PLAYERS[2], "new", "keyper")).ok
        assert table.handle(Command(Where(GUILD, "gone"), PLAYERS[2], "abandon")).ok
        assert table.handle(Command(Where(GUILD, "x"), Who("u-mod", "Mod", is_admin=True), "settings",
                                    options={"decision_minutes": "90"})).ok
        table.note_dms(PLAYERS[1].user_id, open_=False)
        drawn = Table(store, images=True)  # one message with its table image (a BLOB column)
        assert drawn.handle(Command(Where(GUILD, "running-keyper"), PLAYERS[0], "board")).ok
        with store.transaction() as tx:
            tx.add_outbox([{"guild_id": GUILD, "channel_id": "running-keyper", "kind": "public", "payload": "{}",
                            "image": b"\x89PNG\r\n\x1a\n" + bytes(range(256))}])
    finally:
        store.close()
    return path


@pytest.fixture
def source(source_file: Path, tmp_path: Path) -> Iterator[Database]:
    """A copy of the source database for one test."""
    path = tmp_path / "source.db"
    shutil.copyfile(source_file, path)
    yield Database("sqlite", f"sqlite:///{path}", path)


def migrate(source: Database, target: Database, overwrite: bool = False) -> tuple[int, str]:
    """Run `keywood migrate-db` in this process (the test game Tokens is registered here); (exit code, output)."""
    out = StringIO()
    code = cli.migrate_db(source.url, target.url, overwrite, out)
    return code, out.getvalue()


def stamp(value: object) -> str:
    """A stored time as SQLite keeps it ('2026-11-22 12:00:00.000000'), whether read as text or as a datetime."""
    return value.isoformat(sep=" ", timespec="microseconds") if isinstance(value, datetime) else str(value)


def started_games(db: Database) -> list[tuple[int, str, str]]:
    """(id, game, status) of every game with a stored state."""
    return [tuple(r) for r in db.rows("SELECT id, game, status FROM games WHERE id IN (SELECT game_id FROM snapshots) "
                                      "ORDER BY id")]  # type: ignore[misc]


def test_every_game_of_every_registered_game_is_copied_and_replays(source: Database, database: Database) -> None:
    """Every table's rows arrive with their ids, every started game is replayed and reported the same, the copied
    times are the same moments, and the target plays on: new rows get new ids (the sequences moved past the
    copied ones) and a running game takes its next move."""
    code, output = migrate(source, database)
    assert code == 0, output
    games_seen = {game for _, game, _ in started_games(source)}
    assert games_seen >= {entry.id for entry in games.all_games()}, "a game of every registered game"
    assert {"active", "finished", "abandoned"} <= {status for *_, status in started_games(source)}
    for game_id, game, status in started_games(source):
        assert f"game {game_id} ({game}, {status}): same — " in output, output
    assert "never started, nothing to replay" in output
    assert output.rstrip().endswith("replays to its stored state.")
    for name in TABLES:
        assert count(database, f"SELECT count(*) FROM {name}") == count(source, f"SELECT count(*) FROM {name}"), name
        assert count(database, f"SELECT count(*) FROM {name}") > 0, name
    deadlines = "SELECT id, deadline FROM prompts ORDER BY id"
    assert [(i, stamp(t)) for i, t in database.rows(deadlines)] == [(i, stamp(t)) for i, t in source.rows(deadlines)]
    image = "SELECT image FROM outbox WHERE image IS NOT NULL ORDER BY id"
    assert [bytes(r[0]) for r in database.rows(image)] == [bytes(r[0]) for r in source.rows(image)]

    store = Store(database.url)
    try:
        table = Table(store, images=False)
        last = count(database, "SELECT max(id) FROM games")
        opened = table.handle(Command(Where(GUILD, "after"), PLAYERS[0], "new", "keyper"))
        assert opened.ok and opened.game_id == last + 1
        where = Where(GUILD, "running-keyper")
        with store.transaction() as tx:
            row = tx.live_game(where.guild_id, where.channel_id)
            assert row is not None and row.id is not None
            data = tx.snapshot(row.id)
            seats = tx.seats(row.id)
        entry = games.get("keyper")
        state = entry.engine.from_json(data or {})
        seat = entry.engine.to_act(state)[0]
        action = entry.engine.legal_actions(state, seat)[0]
        who = next(Who(s.user_id, s.name) for s in seats if s.seat == seat)
        assert table.handle(Command(where, who, "play", entry.engine.format(action))).ok
        assert table.verify(row.id)[0] == "same"
    finally:
        store.close()


def test_a_target_holding_rows_is_refused_unless_overwritten(source: Database, database: Database) -> None:
    """A second copy into the same target is refused and writes nothing; with overwrite it empties the target and
    copies again."""
    assert migrate(source, database)[0] == 0
    before = database.dump()
    with pytest.raises(cli.Refused, match=r"already holds rows \(games \d+, .*seats \d+.*--overwrite"):
        migrate(source, database)
    assert database.dump() == before
    code, output = migrate(source, database, overwrite=True)
    assert code == 0, output
    assert count(database, "SELECT count(*) FROM games") == count(source, "SELECT count(*) FROM games")


def test_a_game_whose_log_no_longer_gives_its_snapshot_is_reported(source: Database, database: Database) -> None:
    """A snapshot damaged in the source is copied as it is, and its game is reported as differing (exit code 1)."""
    [(game_id,)] = source.rows("SELECT id FROM games WHERE channel_id = 'running-keyper'")
    source.execute(f"UPDATE snapshots SET state = replace(state, '\"turn\":', '\"turn\":1') WHERE game_id = {game_id}")
    code, output = migrate(source, database)
    assert code == 1
    assert f"game {game_id} (keyper, active): differs" in output
    assert "Checks failed: 1." in output


@pytest.mark.databases("postgresql")
def test_the_keywood_command(tmp_path: Path, database: Database, capsys: pytest.CaptureFixture[str]) -> None:
    """`keywood migrate-db FILE URL` from the shell: a SQLite path as the source, exit code 0 and the report. A
    missing source file, or one database given twice, is refused with exit code 2 and nothing is created."""
    path = tmp_path / "small.db"
    store = Store(f"sqlite:///{path}")
    try:
        play_random(Table(store, images=False), games.get("keyper"), Where(GUILD, "c"), 5, 10)
    finally:
        store.close()
    done = keywood("migrate-db", str(path), database.url)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^game 1 \(keyper, active\): same — \d+ actions replay to the stored state$", done.stdout, re.M)
    assert cli.main(["migrate-db", str(tmp_path / "nothere.db"), database.url]) == 2
    assert "keywood migrate-db: no database at" in capsys.readouterr().err
    assert not (tmp_path / "nothere.db").exists()
    assert cli.main(["migrate-db", database.url, database.url]) == 2
    assert "is both the source and the target; nothing was copied" in capsys.readouterr().err
