"""Time commands through Table.handle on an SQLite file: `python bench/table.py --games 3 --seed 1 --stored 10000`.

Plays random 3-player Keyper games through the real table and store (a temporary on-disk database, WAL, one
transaction per command) and times each `play` command: parse, engine, log row, snapshot, version, prompts.
Board images are off (Table(images=False)); lobby commands (new, join, start) and choosing the moves are not
timed: each game's moves come from a random play-out recorded beforehand with the same seed and names.

It runs twice: on an empty database, then after inserting --stored games (10,000 by default). Those are real
game rows, written in bulk through the store's ORM session (not through Table.handle, which would take
minutes): a games row (status active, table options as `start` writes them), three seats, the opening
snapshot dealt by the engine from the game's own seed, and the open turn decision `start` creates.

Prints per-run figures, and last: `commands/s: X, p95: Y ms (empty db); commands/s: X2, p95: Y2 ms (N games)`.
commands/s is the number of timed commands divided by their total time (one command at a time).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.store import GameRow, PromptRow, SeatRow, SnapshotRow, Store, now  # noqa: E402
from bot.table import Command, Table, Where, Who  # noqa: E402
from engine.keyper import GAME  # noqa: E402
from engine.playout import chosen_moves, random_playout  # noqa: E402

NAMES = ["Ana", "Ben", "Cleo"]
CHUNK = 1000


def play_games(table: Table, games: int, seed: int, label: str) -> list[float]:
    """Play `games` random games through the table; returns the latency of every play command in seconds."""
    times: list[float] = []
    for k in range(games):
        where = Where("bench", f"{label}-{k}")
        players = [Who(f"{label}-{k}-{i}", name) for i, name in enumerate(NAMES)]
        lobby = [Command(where, players[0], "new", "keyper", options={"seed": seed + k})]
        lobby += [Command(where, p, "join") for p in players[1:]]
        lobby.append(Command(where, players[0], "start"))
        for command in lobby:
            outcome = table.handle(command)
            if not outcome.ok:
                raise SystemExit(f"{command.verb} refused: {outcome.reply}")
        _, record = random_playout(GAME, NAMES, seed + k)
        for seat, text in chosen_moves(GAME, record):  # the table plays forced moves itself
            command = Command(where, players[seat], "play", text)
            start = time.perf_counter()
            outcome = table.handle(command)
            times.append(time.perf_counter() - start)
            if not outcome.ok:
                raise SystemExit(f"game {k}: '{text}' refused: {outcome.reply}")
        if not any(line.startswith("Final score") for line in outcome.public):
            raise SystemExit(f"game {k} did not finish")
    return times


def store_games(store: Store, count: int, seed: int) -> float:
    """Insert `count` started games (rows, seats, opening snapshot, turn decision) in bulk; returns the seconds."""
    options = json.dumps({"decision_minutes": 720, "max_players": 4, "min_players": 2, "names": NAMES,
                          "reminder_hours": 24}, sort_keys=True)
    begin = time.perf_counter()
    for first in range(0, count, CHUNK):
        with store.transaction() as tx:
            rows = [GameRow(guild_id="stored", channel_id=f"stored-{i}", game="keyper", options=options,
                            seed=seed + i, status="active", version=1, host_id=f"stored-{i}-0")
                    for i in range(first, min(first + CHUNK, count))]
            tx.session.add_all(rows)
            tx.session.flush()
            deadline = now() + timedelta(hours=24)
            for row in rows:
                assert row.id is not None
                tx.session.add_all([SeatRow(game_id=row.id, seat=s, user_id=f"{row.host_id[:-2]}-{s}", name=name)
                                    for s, name in enumerate(NAMES)])
                state = json.dumps(GAME.to_json(GAME.setup(NAMES, row.seed)), separators=(",", ":"), sort_keys=True)
                tx.session.add(SnapshotRow(game_id=row.id, version=1, state=state))
                tx.session.add(PromptRow(game_id=row.id, kind="turn", seat=0, key=f"turn:0:{1}",
                                         deadline=deadline, payload='{"must": true, "default": null}'))
    return time.perf_counter() - begin


def summary(times: list[float]) -> tuple[float, float, float]:
    """(commands per second, p50 ms, p95 ms)."""
    cuts = statistics.quantiles(times, n=20, method="inclusive")
    return len(times) / sum(times), statistics.median(times) * 1000, cuts[18] * 1000


def main() -> None:
    """Parse arguments, run both phases, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random games played in each phase (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--stored", type=int, default=10_000, help="games stored before the second phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="keywood-bench-") as tmp:
        store = Store(f"sqlite:///{Path(tmp) / 'bench.db'}")
        table = Table(store, images=False)
        times = play_games(table, args.games, args.seed, "empty")
        empty = summary(times)
        print(f"empty db: {args.games} games, {len(times)} play commands, {empty[0]:.0f} commands/s, "
              f"p50 {empty[1]:.1f} ms, p95 {empty[2]:.1f} ms")
        took = store_games(store, args.stored, args.seed + 1_000_000)
        check = table.verify(table.game_ids()[-1])
        print(f"stored {args.stored:,} games in {took:.1f} s (ORM bulk insert); last one replays: {check[0]}")
        times = play_games(table, args.games, args.seed, "full")
        full = summary(times)
        print(f"{args.stored:,} games: {args.games} games, {len(times)} play commands, {full[0]:.0f} commands/s, "
              f"p50 {full[1]:.1f} ms, p95 {full[2]:.1f} ms")
        store.close()
    print(f"commands/s: {empty[0]:.0f}, p95: {empty[2]:.1f} ms (empty db); "
          f"commands/s: {full[0]:.0f}, p95: {full[2]:.1f} ms ({args.stored:,} games)")


if __name__ == "__main__":
    main()
