"""Table commands from several bot processes on one database: `python bench/processes.py [--url URL | --postgres]
[--processes 1,2] [--games 3] [--stored 10]`.

What `keywood run --shards` does to a store's throughput: N processes, each with its own Store and Table (as each
shard process has), play random 3-player Keyper games (bench/table.py's play_games, board images off) on one
database at the same time, each its own games. Before the start every process has played one untimed game and
recorded its games' moves, so that between the start and the last process's end the processes do nothing but
table commands (each game's lobby commands included, its play commands timed one by one).

commands/s is every process's play commands over the wall-clock time from the start to the last end (the lobby
commands count in the time, not in the number); p95 is over every play command. One line per count of processes;
the last lines say `processes: N, commands/s: X, p95: Y ms (per process: A, B; kind)`.

On SQLite each command's transaction holds the file's write lock from its BEGIN IMMEDIATE to its COMMIT, engine
work included, so the processes' commands run one at a time (docs/deploy.md: one process per SQLite file). On
PostgreSQL a command locks its own game's row, so processes playing different games run side by side.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import database, interpreter, play_games, recorded_moves, store_games, summary, wipe  # noqa: E402

from bot.heap import freeze_long_lived  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.table import Table  # noqa: E402


def player(url: str, index: int, games: int, seed: int, start: Any, results: Any) -> None:
    """One bot process: warm up, record its moves, wait for the start, play its games; puts (start, end, times)."""
    store = Store(url)
    try:
        table = Table(store, images=False)
        play_games(table, 1, seed + 5000 + index, f"warm{index}")
        moves = recorded_moves(games, seed + 100 * index)
        freeze_long_lived()
        start.wait()
        begin = time.perf_counter()
        times = play_games(table, games, seed + 100 * index, f"p{index}", moves=moves)
        results.put((begin, time.perf_counter(), times))
    finally:
        store.close()


def run(url: str, processes: int, args: argparse.Namespace) -> dict[str, Any]:
    """Every process's games at once on an emptied database holding --stored games; prints a line."""
    store = Store(url)
    try:
        wipe(store)
        store_games(store, args.stored, args.seed + 1_000_000)
    finally:
        store.close()
    context = multiprocessing.get_context("spawn")  # a fresh interpreter each, as separate bot processes are
    start, results = context.Barrier(processes), context.Queue()
    workers = [context.Process(target=player, args=(url, k, args.games, args.seed, start, results))
               for k in range(processes)]
    for worker in workers:
        worker.start()
    done = [results.get() for _ in workers]
    for worker in workers:
        worker.join()
    span = max(end for _, end, _ in done) - min(begin for begin, _, _ in done)
    times = [t for _, _, each in done for t in each]
    rate, (_, _, p95) = len(times) / span, summary(times)
    alone = [len(each) / (end - begin) for begin, end, each in done]
    print(f"{processes} process(es): {len(times)} play commands in {span:.2f} s, {rate:.0f} commands/s, "
          f"p95 {p95:.2f} ms; each process {', '.join(f'{a:.0f}' for a in alone)} commands/s", flush=True)
    return {"processes": processes, "rate": rate, "p95": p95, "alone": alone}


def main() -> None:
    """Parse arguments, run each count of processes, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--url", default=None, help="an empty database to use (its Keywood tables are emptied)")
    where.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL server for the run")
    parser.add_argument("--processes", default="1,2", help="counts of processes, one run each (default 1,2)")
    parser.add_argument("--games", type=int, default=3, help="random games each process plays (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed (default 1)")
    parser.add_argument("--stored", type=int, default=10, help="started games stored beforehand (default 10)")
    args = parser.parse_args()
    print(interpreter(), flush=True)
    with database(args) as url:
        kind = url.split(":", 1)[0]
        results = [run(url, int(n), args) for n in args.processes.split(",")]
    for r in results:
        print(f"processes: {r['processes']}, commands/s: {r['rate']:.0f}, p95: {r['p95']:.2f} ms (per process: "
              f"{', '.join(f'{a:.0f}' for a in r['alone'])}; {kind})")


if __name__ == "__main__":
    main()
