"""Table commands: `python bench/table.py [--url URL | --postgres] [--stored 10,10000] [--games 3]`.

Plays random 3-player Keyper games through the real table and store (one transaction per command) and times each
`play` command: parse, engine, log row, snapshot, version, prompts, outbox. Board images are off
(Table(images=False)); lobby commands (new, join, start) and choosing the moves are not timed: each game's moves come
from a random play-out recorded beforehand with the same seed and names.

The database: a new temporary SQLite file (WAL, as the store opens it) by default; `--url` an empty database (its
Keywood tables are emptied between phases); `--postgres` a throwaway PostgreSQL server started for the run from the
machine's binaries, as the tests start theirs (tests/postgres.py: Unix socket only, fsync and synchronous_commit off).

One phase per count of stored games (10 and 10,000 by default), each on an emptied database: that many started
games are stored in bulk through the store's add_rows (not through Table.handle, which would take minutes): a
games row (status active, table options as `start` writes them), three seats, the opening snapshot dealt by the
engine from the game's own seed and the open turn decision `start` creates. Then --games games are played through a
new Table (the process's heap frozen first, as `keywood run` freezes it once started: bot/heap.py), each play
command timed.
Last, one more game is played with every SQL statement the store's connections send counted at the driver (SQLite's
trace callback, a counting psycopg cursor), BEGIN and COMMIT left out.

commands/s is the number of timed commands divided by their total time (one command at a time). Prints which Python
runs it (interpreter()), one line per phase and a table; the last lines say, per count, `commands/s: X, p95: Y ms
(N games, kind)`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import event  # noqa: E402
from sqlmodel import SQLModel  # noqa: E402

from bot import games as registry  # noqa: E402
from bot.heap import freeze_long_lived  # noqa: E402
from bot.records import GameOptions, PromptPayload  # noqa: E402
from bot.store import GameRow, PromptRow, SeatRow, SnapshotRow, Store, now  # noqa: E402
from bot.table import Command, Table, Where, Who  # noqa: E402
from engine.keyper import GAME  # noqa: E402
from engine.playout import chosen_moves, random_playout  # noqa: E402

NAMES = ["Ana", "Ben", "Cleo"]
CHUNK = 1000
CONTROL = ("BEGIN", "COMMIT", "ROLLBACK")


def recorded_moves(games: int, seed: int, game: str = "keyper") -> list[list[tuple[int, str]]]:
    """The moves of `games` random games of a registered game, as (seat, text) for `play` commands: one random
    play-out each, seeds seed, seed + 1, ...; the forced moves the table plays itself left out."""
    engine = registry.get(game).engine
    return [list(chosen_moves(engine, random_playout(engine, NAMES, seed + k)[1])) for k in range(games)]


def play_games(table: Table, games: int, seed: int, label: str, clock: Callable[[], float] = time.perf_counter,
               between: Callable[[], object] = lambda: None, game: str = "keyper",
               moves: list[list[tuple[int, str]]] | None = None) -> list[float]:
    """Play `games` random games of a registered game (Keyper by default) through the table, their moves recorded
    beforehand (recorded_moves, or worked out here); returns what `clock` advanced by over each play command (by
    default its latency in seconds). between() runs after each play command."""
    moves = moves if moves is not None else recorded_moves(games, seed, game)
    times: list[float] = []
    for k in range(games):
        where = Where("bench", f"{label}-{k}")
        players = [Who(f"{label}-{k}-{i}", name) for i, name in enumerate(NAMES)]
        lobby = [Command(where, players[0], "new", game, options={"seed": seed + k})]
        lobby += [Command(where, p, "join") for p in players[1:]]
        lobby.append(Command(where, players[0], "start"))
        for command in lobby:
            outcome = table.handle(command)
            if not outcome.ok:
                raise SystemExit(f"{command.verb} refused: {outcome.reply}")
        for seat, text in moves[k]:
            command = Command(where, players[seat], "play", text)
            start = clock()
            outcome = table.handle(command)
            times.append(clock() - start)
            between()
            if not outcome.ok:
                raise SystemExit(f"game {k}: '{text}' refused: {outcome.reply}")
        if not any(line.startswith("Final score") for line in outcome.public):
            raise SystemExit(f"game {k} did not finish")
    return times


def interpreter() -> str:
    """Which Python runs the bench: version, executable, and whether the interpreter is linked in or called in a
    shared libpython (read from /proc/self/maps on Linux). The build matters: the same commands take about a fifth
    less CPU on Debian's python3.11 (built with profile-guided and link-time optimisation, libpython linked in) than
    on a default pyenv build (neither, a shared libpython); docs/deploy.md, "Which Python"."""
    maps = Path("/proc/self/maps")
    if not maps.exists():
        linked = "linking unknown"
    elif "libpython" in maps.read_text():
        linked = "a shared libpython"
    else:
        linked = "libpython linked in"
    return f"Python {platform.python_version()} ({Path(sys.executable).resolve()}, {linked})"


def store_games(store: Store, count: int, seed: int) -> tuple[float, list[int]]:
    """Insert `count` started games (rows, seats, opening snapshot, turn decision) in bulk; returns the seconds and
    their ids."""
    options = GameOptions.from_json(json.dumps({"decision_minutes": 720, "max_players": 4, "min_players": 2,
                                                "names": NAMES, "reminder_hours": 24}))
    begin = time.perf_counter()
    ids: list[int] = []
    for first in range(0, count, CHUNK):
        with store.transaction() as tx:
            rows = [GameRow(guild_id="stored", channel_id=f"stored-{i}", game="keyper", options=options,
                            seed=seed + i, status="active", version=1, host_id=f"stored-{i}-0")
                    for i in range(first, min(first + CHUNK, count))]
            tx.add_rows(rows)
            deadline = now() + timedelta(hours=24)
            seats, snapshots, prompts = [], [], []
            for row in rows:
                assert row.id is not None
                ids.append(row.id)
                seats += [SeatRow(game_id=row.id, seat=s, user_id=f"{row.host_id[:-2]}-{s}", name=name)
                          for s, name in enumerate(NAMES)]
                state = json.dumps(GAME.to_json(GAME.setup(NAMES, row.seed)), separators=(",", ":"), sort_keys=True)
                snapshots.append(SnapshotRow(game_id=row.id, version=1, state=state))
                prompts.append(PromptRow(game_id=row.id, kind="turn", seat=0, key=f"turn:0:{1}",
                                         deadline=deadline, payload=PromptPayload(must=True)))
            for table in (seats, snapshots, prompts):
                tx.add_rows(table)
    return time.perf_counter() - begin, ids


def wipe(store: Store) -> None:
    """Empty Keywood's tables (PostgreSQL: TRUNCATE, ids restarting at 1; SQLite: DELETE, then VACUUM)."""
    names = [t.name for t in reversed(SQLModel.metadata.sorted_tables)]
    raw = store.engine.raw_connection()
    try:
        cursor = raw.driver_connection.cursor()
        if store.engine.dialect.name == "postgresql":
            cursor.execute(f"TRUNCATE {', '.join(names)} RESTART IDENTITY CASCADE")
            raw.driver_connection.commit()
        else:
            for name in names:
                cursor.execute(f"DELETE FROM {name}")
            raw.driver_connection.commit()
            cursor.execute("VACUUM")
    finally:
        raw.close()


@contextlib.contextmanager
def counting(store: Store) -> Iterator[list[str]]:
    """Every SQL statement the store's connections send to the database while the block runs, as seen by the driver
    (SQLite's trace callback; PostgreSQL: a psycopg cursor that notes what it executes). The pool is emptied first,
    so that every connection is a new one with the hook."""
    seen: list[str] = []
    postgres = store.engine.dialect.name == "postgresql"
    cursor_class: Any = None
    if postgres:
        import psycopg

        class Counting(psycopg.Cursor[Any]):
            """A cursor that notes each statement it executes."""

            def execute(self, query: Any, *args: Any, **kwargs: Any) -> Any:
                """Note the statement, then execute it."""
                seen.append(str(query))
                return super().execute(query, *args, **kwargs)

            def executemany(self, query: Any, *args: Any, **kwargs: Any) -> Any:
                """Note the statement, then execute it for every set of parameters."""
                seen.append(str(query))
                return super().executemany(query, *args, **kwargs)

        cursor_class = Counting

    def hook(dbapi_connection: Any, _record: Any) -> None:
        if postgres:
            dbapi_connection.cursor_factory = cursor_class
        else:
            dbapi_connection.set_trace_callback(seen.append)

    event.listen(store.engine, "connect", hook)
    store.release()
    try:
        yield seen
    finally:
        event.remove(store.engine, "connect", hook)
        store.release()


def statements(store: Store, seed: int) -> list[float]:
    """The SQL statements (BEGIN and COMMIT left out) of each play command of one more game."""
    with counting(store) as seen:
        table = Table(store, images=False)
        return play_games(table, 1, seed, "counted",
                          clock=lambda: float(sum(1 for s in seen if not s.strip().upper().startswith(CONTROL))))


def summary(times: list[float]) -> tuple[float, float, float]:
    """(commands per second, p50 ms, p95 ms)."""
    cuts = statistics.quantiles(times, n=20, method="inclusive")
    return len(times) / sum(times), statistics.median(times) * 1000, cuts[18] * 1000


@contextlib.contextmanager
def database(args: argparse.Namespace) -> Iterator[str]:
    """The URL of the database to run on: --url, a database on a throwaway PostgreSQL server, or a temporary
    SQLite file."""
    if args.url:
        yield args.url
        return
    if args.postgres:
        from tests.postgres import Server

        server = Server().start()
        try:
            with server.database() as name:
                yield server.url(name)
        finally:
            server.stop()
        return
    with tempfile.TemporaryDirectory(prefix="keywood-bench-") as tmp:
        yield f"sqlite:///{Path(tmp) / 'bench.db'}"


def phase(store: Store, stored: int, args: argparse.Namespace) -> dict[str, float]:
    """The table's play commands on `stored` games in an emptied database; prints a line."""
    wipe(store)
    took, _ = store_games(store, stored, args.seed + 1_000_000)
    table = Table(store, images=False)  # a new one: ids restart after a wipe, and the table caches states by id
    freeze_long_lived()  # as `keywood run` does once it has started, on a database that already holds these games
    times = play_games(table, args.games, args.seed, f"g{stored}")
    rate, p50, p95 = summary(times)
    print(f"{stored:,} games (stored in {took:.1f} s): {len(times)} play commands, {rate:.0f} commands/s, "
          f"p50 {p50:.2f} ms, p95 {p95:.2f} ms", flush=True)
    return {"stored": stored, "rate": rate, "p50": p50, "p95": p95}


def main() -> None:
    """Parse arguments, run every phase, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", default=None, help="an empty database to use (its Keywood tables are emptied)")
    where.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL server for the run")
    parser.add_argument("--games", type=int, default=3, help="random games played in each phase (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--stored", default="10,10000", help="games stored, one phase each (default 10,10000)")
    args = parser.parse_args()
    counts = [int(n) for n in args.stored.split(",")]
    print(interpreter(), flush=True)
    with database(args) as url:
        kind = url.split(":", 1)[0]
        store = Store(url)
        try:
            results = [phase(store, n, args) for n in counts]
            counted = statements(store, args.seed + 7)
        finally:
            store.close()
    mean = statistics.mean(counted)
    common = statistics.mode(counted)
    print(f"statements per play command (BEGIN and COMMIT left out): mean {mean:.2f}, most often {common:.0f}, "
          f"from {min(counted):.0f} to {max(counted):.0f} ({len(counted)} commands)")
    print("| database | stored games | commands/s | p50 | p95 | statements/command |")
    for r in results:
        print(f"| {kind} | {r['stored']:,} | {r['rate']:.0f} | {r['p50']:.2f} ms | {r['p95']:.2f} ms | {mean:.2f} |")
    for r in results:
        print(f"commands/s: {r['rate']:.0f}, p95: {r['p95']:.2f} ms ({r['stored']:,} games, {kind})")


if __name__ == "__main__":
    main()
