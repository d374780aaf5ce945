"""The floor under a table command: `python bench/rawtxn.py [--url URL] [--stored 10000] [--txns 2000]`.

One raw transaction on Keywood's own schema, through the database driver alone (no ORM, no engine): read a
game's version and state, append one log row, write the state and the version back, commit. That is the least
any command that changes a game must do, so a table command's rate is best read as a share of this one
(bench/command.py). The schema is made by the store itself (bot.store.Store, so the migrations run); the games
are real rows with a mid-game Keyper state of the usual size, spread over --stored games; each transaction
picks a game at random.

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


def one(conn: Any, style: str, game_id: int, seqs: dict[int, int]) -> None:
    """Read a game's version and state, append a log row, write state and version back; commit."""
    cur = conn.cursor()
    begin(conn, style)
    cur.execute(sql(READ, style), (game_id,))
    version, state = cur.fetchone()
    seqs[game_id] = seqs.get(game_id, 0) + 1
    cur.execute(sql(LOG, style), (game_id, seqs[game_id], version + 1, False))
    cur.execute(sql(WRITE_STATE, style), (state, version + 1, game_id))
    cur.execute(sql(WRITE_VERSION, style), (version + 1, game_id, version))
    conn.commit()


def run(url: str, stored: int, txns: int, seed: int) -> tuple[float, float, float]:
    """Fill the database and time `txns` transactions; (transactions/s, p50 ms, p95 ms)."""
    store = Store(url)
    raw = store.engine.raw_connection()
    conn = raw.driver_connection
    style = store.engine.dialect.dbapi.paramstyle if store.engine.dialect.dbapi else "qmark"
    fill(conn, style, stored, mid_game_state())
    chooser = random.Random(seed)
    seqs: dict[int, int] = {}
    times = []
    for _ in range(txns):
        start = time.perf_counter()
        one(conn, style, chooser.randrange(stored) + 1, seqs)
        times.append(time.perf_counter() - start)
    raw.close()
    store.close()
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
