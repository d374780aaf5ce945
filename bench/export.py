"""Time the replay export of each game's longest random game: `python bench/export.py --seeds 40 --runs 3`.

Target (issue 41 item 8): any finished game of each title exports in under 15 s and under 8 MiB (Discord's upload
limit is 10 MiB), in bounded memory.

For each game (Keyper, Keythedral, Keyflower; or the one --game names) plays seeded random play-outs at the most
players the game takes, or --players (seeds 1 to --seeds, as `keywood demo` plays them) and keeps the longest;
stores it as a finished game in a new SQLite file with `keywood demo --db` (in --keep DIR, reused by a later run,
else a temporary folder: storing a 7,500-action game takes a minute or more); then writes its replay page --runs
times, each in a new Python process (`bench/export.py --child DB PAGE`), as `keywood export` writes it. Prints per
run the wall-clock and CPU seconds (the drawing processes' included), the page's MiB, the process's peak resident
memory (and how much of it came after the imports) and the largest peak of its drawing processes (bot/export's
WORKERS), then per game the medians.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import cli, games  # noqa: E402
from engine.playout import random_playout  # noqa: E402

GAMES = ("keyper", "keythedral", "keyflower")


def longest(game: str, players: int, seeds: int) -> tuple[int, int]:
    """(actions, seed) of the longest of the seeded random games 1..seeds at this many players."""
    entry = games.get(game)
    options = entry.engine_options(entry.read_options({}, {}))
    found = []
    for seed in range(1, seeds + 1):
        _, record = random_playout(entry.engine, cli.DEMO_NAMES[:players], seed, options=options)
        found.append((len(record.actions), seed))
    return max(found)


def stored(folder: Path, game: str, players: int, seed: int) -> Path:
    """The SQLite file holding that random game as a finished game (stored by `keywood demo --db` unless there)."""
    db = folder / f"{game}-{players}p-seed{seed}.db"
    if not db.exists():
        code = cli.demo(players, seed, out=io.StringIO(), game=game, db=str(db))
        if code != 0:
            raise SystemExit(f"could not store {game} seed {seed} in {db}")
    return db


def child(db: str, out: str) -> None:
    """Write game 1's page from db to out in this process and print its figures as JSON."""
    from bot import export
    from bot.store import Store

    store = Store(f"sqlite:///{db}")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall, cpu = time.perf_counter(), time.process_time()
    size = export.write(store, 1, Path(out))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the drawing processes, once they have ended
    print(json.dumps({"seconds": wall, "cpu": cpu + workers.ru_utime + workers.ru_stime, "bytes": size,
                      "peak_kib": peak, "imports_kib": before, "worker_kib": workers.ru_maxrss}))


def run(db: Path, page: Path) -> dict[str, float]:
    """One export in a new process: its figures."""
    done = subprocess.run([sys.executable, __file__, "--child", str(db), str(page)], capture_output=True, text=True,
                          check=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


@contextlib.contextmanager
def folder(keep: str | None) -> Iterator[Path]:
    """The folder of the stored games: --keep's, or a temporary one."""
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        yield Path(keep)
        return
    with tempfile.TemporaryDirectory() as temporary:
        yield Path(temporary)


def line(figures: dict[str, float]) -> str:
    """One run's figures."""
    return (f"{figures['seconds']:.1f} s ({figures['cpu']:.1f} s CPU), {figures['bytes'] / 2**20:.2f} MiB, peak "
            f"{figures['peak_kib'] / 1024:.0f} MiB ({(figures['peak_kib'] - figures['imports_kib']) / 1024:.0f} MiB "
            f"after the imports), drawing processes' peak {figures['worker_kib'] / 1024:.0f} MiB each at most")


def main() -> None:
    """Parse arguments, pick and store the games, export each --runs times, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=GAMES)
    parser.add_argument("--seeds", type=int, default=40, help="random games tried per game (seeds 1..N)")
    parser.add_argument("--players", type=int, help="players per game (default: the most each game takes)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="keep the stored games here (and reuse them)")
    parser.add_argument("--child", nargs=2, metavar=("DB", "PAGE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    summary = []
    with folder(args.keep) as where:
        for game in [args.game] if args.game else GAMES:
            players = args.players or games.get(game).max_players
            actions, seed = longest(game, players, args.seeds)
            db = stored(where, game, players, seed)
            print(f"{game}: {players} players, seed {seed} (longest of {args.seeds}): {actions} actions", flush=True)
            runs = []
            for k in range(args.runs):
                runs.append(run(db, where / f"{game}.html"))
                print(f"  run {k + 1}: {line(runs[-1])}", flush=True)
            median = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            summary.append(f"{game}: {actions} actions, {line(median)}")
    print("median of", args.runs, "runs:")
    for text in summary:
        print("  " + text)


if __name__ == "__main__":
    main()
