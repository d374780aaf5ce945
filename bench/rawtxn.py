"""The floor under a table command: `python bench/rawtxn.py [--url URL] [--stored 10000] [--txns 2000]`.

One raw transaction on Keywood's own schema, through the database driver alone (no ORM, no engine): read a
game's version and state, append one log row, write the state (a mid-game Keyper state of the usual size, 4.5 KB
of JSON) and the version back, commit. That is the least any command that changes a game must do, so a table
command's rate is best read as a share of this one (bench/table.py runs it between its commands, on its own stored
games: Floor). The schema is made by the store itself (bot.store.Store, so the migrations run); here the games are
real rows with that state, spread over --stored games; each transaction picks a game at random.

Prints the rate and p95, and last: `raw transactions/s: X, p95: Y ms (N games, URL kind)`.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import Store  # noqa: E402
from engine.core import Rng  # noqa: E402
from engine.keyper import GAME  # noqa: E402
from engine.playout import pick  # noqa: E402

NAMES = ["Ana", "Ben", "Cleo"]
CHUNK = 1000
READ = "SELECT g.version, s.state FROM games g JOIN snapshots s ON s.game_id = g.id WHERE g.id = ?"
LOG = ("INSERT INTO actions (game_id, seq, seat, author_id, notation, summary, version, undone, at) "
       "VALUES (?, ?, 0, 'bench', 'pass', 'Ana passes.', ?, ?, CURRENT_TIMESTAMP)")
WRITE_STATE = "UPDATE snapshots SET state = ?, version = ? WHERE game_id = ?"
WRITE_VERSION = "UPDATE games SET version = ? WHERE id = ? AND version = ?"


def mid_game_state(steps: int = 120) -> str:
    """A Keyper state after `steps` random actions, as the JSON the snapshots hold."""
    state = GAME.setup(NAMES, 5)
    rng = Rng.from_seed(5)
    for _ in range(steps):
        seat, options, index = pick(GAME, state, rng)
        GAME.apply_choice(state, seat, options, index)
    return json.dumps(GAME.to_json(state), separators=(",", ":"), sort_keys=True)


def sql(statement: str, paramstyle: str) -> str:
    """The statement in the driver's parameter style (qmark for sqlite3, format for psycopg)."""
    return statement if paramstyle == "qmark" else statement.replace("?", "%s")


def fill(conn: Any, style: str, stored: int, state: str) -> None:
    """Insert `stored` active games with three seats and a snapshot each, in chunks."""
    cur = conn.cursor()
    for first in range(0, stored, CHUNK):
        begin(conn, style)
        for i in range(first, min(first + CHUNK, stored)):
            cur.execute(sql("INSERT INTO games (id, guild_id, channel_id, game, options, seed, status, version, "
                            "host_id, created_at, updated_at) VALUES (?, 'raw', ?, 'keyper', '{}', ?, 'active', 1, "
                            "'h', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)", style), (i + 1, f"c{i}", i))
            cur.executemany(sql("INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, ?, ?, ?)", style),
                            [(i + 1, s, f"u{i}-{s}", n) for s, n in enumerate(NAMES)])
            cur.execute(sql("INSERT INTO snapshots (game_id, version, state) VALUES (?, 1, ?)", style), (i + 1, state))
        conn.commit()


def begin(conn: Any, style: str) -> None:
    """Open a write transaction: SQLite takes its write lock now (as the store does); psycopg begins implicitly."""
    if style == "qmark":
        conn.cursor().execute("BEGIN IMMEDIATE")


class Floor:
    """The raw transaction, on games already stored (with no log rows yet), on a connection of its own from the
    store's pool; each one on a game drawn at random."""

    def __init__(self, store: Store, game_ids: list[int], seed: int) -> None:
        self.raw = store.engine.raw_connection()
        self.conn = self.raw.driver_connection
        dbapi = store.engine.dialect.dbapi
        self.style = dbapi.paramstyle if dbapi else "qmark"
        self.state = mid_game_state()
        self.game_ids = game_ids
        self.chooser = random.Random(seed)
        self.seqs: dict[int, int] = {}

    def one(self) -> float:
        """Time one transaction on a game drawn at random; returns the seconds."""
        game_id = self.game_ids[self.chooser.randrange(len(self.game_ids))]
        start = time.perf_counter()
        self._transaction(game_id)
        return time.perf_counter() - start

    def _transaction(self, game_id: int) -> None:
        """Read a game's version and state, append a log row, write a state and the version back; commit."""
        style, cur = self.style, self.conn.cursor()
        begin(self.conn, style)
        cur.execute(sql(READ, style), (game_id,))
        version, _state = cur.fetchone()
        self.seqs[game_id] = self.seqs.get(game_id, 0) + 1
        cur.execute(sql(LOG, style), (game_id, self.seqs[game_id], version + 1, False))
        cur.execute(sql(WRITE_STATE, style), (self.state, version + 1, game_id))
        cur.execute(sql(WRITE_VERSION, style), (version + 1, game_id, version))
        self.conn.commit()

    def close(self) -> None:
        """Give the connection back."""
        self.raw.close()


def run(url: str, stored: int, txns: int, seed: int) -> tuple[float, float, float]:
    """Fill the database and time `txns` transactions; (transactions/s, p50 ms, p95 ms)."""
    store = Store(url)
    floor = Floor(store, list(range(1, stored + 1)), seed)
    fill(floor.conn, floor.style, stored, floor.state)
    times = [floor.one() for _ in range(txns)]
    floor.close()
    store.close()
    return summary(times)


def summary(times: list[float]) -> tuple[float, float, float]:
    """(transactions per second, p50 ms, p95 ms)."""
    cuts = statistics.quantiles(times, n=20, method="inclusive")
    return len(times) / sum(times), statistics.median(times) * 1000, cuts[18] * 1000


def main() -> None:
    """Parse arguments, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=None, help="an empty database (default: a new temporary SQLite file)")
    parser.add_argument("--stored", type=int, default=10_000, help="games stored (default 10,000)")
    parser.add_argument("--txns", type=int, default=2000, help="timed transactions (default 2,000)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="keywood-raw-") as tmp:
        url = args.url or f"sqlite:///{Path(tmp) / 'raw.db'}"
        rate, p50, p95 = run(url, args.stored, args.txns, args.seed)
    kind = url.split(":", 1)[0]
    print(f"{args.txns} transactions on {args.stored:,} games: p50 {p50:.2f} ms")
    print(f"raw transactions/s: {rate:.0f}, p95: {p95:.2f} ms ({args.stored:,} games, {kind})")


if __name__ == "__main__":
    main()
