"""Database size per finished game: `python bench/storage.py [--games 1] [--seed 1]`.

Target: at most 1 MB (1,000,000 bytes) of database per finished 4-player game (issue 41, item 4).

For each title (Keyper, Keythedral, Keyflower) a new SQLite file (WAL, as the store opens it) gets --games
finished 4-player games, played through the real table (bot.table.Table, board images on) with Discord-sized ids
(18-digit server, channel and user ids): new, three joins and start with the seed, then the moves of a seeded random
play-out recorded beforehand with the same seed and names (the forced moves the table plays itself left out). After
every command the outbox is delivered as a transport would deliver it: every pending message read and marked sent
(which drops its image).

How it is measured, in two stages:
- "just finished": the store closed, the write-ahead log checkpointed into the file (`PRAGMA
  wal_checkpoint(TRUNCATE)`, the -wal file then empty) and the file's size taken ("as used": what the bot's file
  holds, pages freed by the dropped images included); then `VACUUM`, checkpoint, and the size again ("vacuumed").
  Every delivered message is still in the outbox: the store keeps one for SENT_KEPT (7 days) after it was sent.
- "for good": the store's prune_sent (which every later delivery runs) at a moment SENT_KEPT and a day after the
  game, until it deletes nothing more; then VACUUM, checkpoint, size. What the game keeps from then on: its log,
  its decisions, its snapshot, its seats and row, and the notices.
An empty database (the schema alone, vacuumed) is measured the same way, and "per game" is (vacuumed size - empty)
/ games. The bytes by table (indexes counted with their table) come from SQLite's dbstat, after each VACUUM. The
last line per title says `TITLE: N bytes per game just finished, M for good`, and the last line of all whether
every title is within the target for good.
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
import tempfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games as registry  # noqa: E402
from bot.store import Store, now  # noqa: E402
from bot.store.outbox import SENT_KEPT  # noqa: E402
from bot.table import Command, Outcome, Table, Where, Who  # noqa: E402
from engine.playout import chosen_moves, random_playout  # noqa: E402

TITLES = ("keyper", "keythedral", "keyflower")
NAMES = ["Ana", "Ben", "Cleo", "Dev"]
TARGET = 1_000_000  # bytes per finished 4-player game
SERVER = "1100000000000000001"  # Discord ids are 17 to 19 digits; these are of its usual length today


@dataclass(frozen=True)
class Measured:
    """A database file's figures: its size as used (after a checkpoint), vacuumed, and bytes by table (vacuumed)."""

    used: int
    vacuumed: int
    tables: dict[str, int]

    def line(self) -> str:
        """The bytes by table, largest first."""
        return ", ".join(f"{table} {size:,}" for table, size in sorted(self.tables.items(), key=lambda kv: -kv[1]))


def deliver(table: Table) -> int:
    """Mark every pending message sent, as a transport does once it has delivered them; returns how many."""
    delivered = 0
    while pending := table.pending_messages():
        table.messages_sent([row.id for row in pending if row.id is not None])
        delivered += len(pending)
    return delivered


def play_game(table: Table, title: str, seed: int, number: int) -> tuple[int, int]:
    """Play one finished 4-player game of a title through the table (in the number-th channel), delivering the outbox
    after every command; returns (commands, messages delivered). Raises SystemExit if a command is refused or the
    game does not end."""
    engine = registry.get(title).engine
    moves = chosen_moves(engine, random_playout(engine, NAMES, seed)[1])
    where = Where(SERVER, str(1100000000000010000 + number))
    players = [Who(str(1100000000000020000 + 10 * number + i), name) for i, name in enumerate(NAMES)]
    commands = [Command(where, players[0], "new", title, options={"seed": seed})]
    commands += [Command(where, p, "join") for p in players[1:]]
    commands.append(Command(where, players[0], "start"))
    commands += [Command(where, players[seat], "play", text) for seat, text in moves]
    delivered, outcome = 0, Outcome(False)
    for command in commands:
        outcome = table.handle(command)
        if not outcome.ok:
            raise SystemExit(f"{title} seed {seed}: {command.verb} '{command.arg}' refused: {outcome.reply}")
        delivered += deliver(table)
    if not any(line.startswith("Final score") for line in outcome.public):
        raise SystemExit(f"{title} seed {seed}: the game did not finish")
    return len(commands), delivered


def measure(path: Path) -> Measured:
    """Checkpoint the WAL into the file and take its size, then VACUUM and take it again, with bytes by table."""
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        used = path.stat().st_size
        connection.execute("VACUUM")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        vacuumed = path.stat().st_size
        owners = dict(connection.execute("SELECT name, tbl_name FROM sqlite_schema WHERE tbl_name IS NOT NULL"))
        tables: dict[str, int] = {}
        for name, size in connection.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
            owner = owners.get(name, name)
            tables[owner] = tables.get(owner, 0) + int(size)
    return Measured(used, vacuumed, tables)


def empty_size(folder: Path) -> int:
    """The vacuumed size of a database holding the schema alone."""
    path = folder / "empty.db"
    Store(f"sqlite:///{path}").close()
    return measure(path).vacuumed


def prune(url: str) -> int:
    """Run the store's prune of delivered messages as the deliveries a week and a day later would, until it deletes
    nothing more; returns how many messages went."""
    store = Store(url)
    later, pruned = now() + SENT_KEPT + timedelta(days=1), 0
    try:
        while True:
            with store.transaction() as tx:
                deleted = tx.prune_sent(later)
            if not deleted:
                return pruned
            pruned += deleted
    finally:
        store.close()


def run_title(folder: Path, title: str, games: int, seed: int) -> tuple[Measured, Measured, int, int, int]:
    """Play `games` games of a title on a new file; returns its figures just finished and for good, the commands, the
    messages delivered and those pruned."""
    path = folder / f"{title}.db"
    url = f"sqlite:///{path}"
    store = Store(url)
    table = Table(store, images=True)
    commands = delivered = 0
    try:
        for k in range(games):
            sent, messages = play_game(table, title, seed + k, k)
            commands += sent
            delivered += messages
    finally:
        store.close()
    finished = measure(path)
    pruned = prune(url)
    return finished, measure(path), commands, delivered, pruned


def main() -> None:
    """Parse the arguments, play every title, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1, help="finished games per title (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (then seed + 1, ...)")
    parser.add_argument("--title", action="append", choices=TITLES, help="only this title (repeatable)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="keywood-storage-") as name:
        folder = Path(name)
        empty = empty_size(folder)
        print(f"empty database (schema alone, vacuumed): {empty:,} bytes")
        worst = 0
        for title in args.title or TITLES:
            finished, kept, commands, delivered, pruned = run_title(folder, title, args.games, args.seed)
            at_end, for_good = ((m.vacuumed - empty) // args.games for m in (finished, kept))
            worst = max(worst, for_good)
            print(f"{title}: {args.games} game(s), {commands:,} commands, {delivered:,} messages delivered")
            print(f"  just finished: file {finished.used:,} bytes as used, {finished.vacuumed:,} vacuumed; by table: "
                  f"{finished.line()}")
            print(f"  for good ({pruned:,} delivered messages pruned): {kept.vacuumed:,} bytes vacuumed; by table: "
                  f"{kept.line()}")
            print(f"{title}: {at_end:,} bytes per game just finished, {for_good:,} for good")
    verdict = "within" if worst <= TARGET else "OVER"
    print(f"largest: {worst:,} bytes per finished 4-player game for good, {verdict} the target of {TARGET:,}")


if __name__ == "__main__":
    main()
