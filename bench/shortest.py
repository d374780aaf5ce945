"""The table's command path below a shared machine's noise: `python bench/shortest.py [--runs 7] [--games 3]
[--seed 7] [--cpu] [--game keyper]`.

Plays the same seeded random games of one registered game, Keyper by default (bench/table.py's play_games: 3
players, board images off, lobby commands and the choice of moves untimed) --runs times, each time through a new
Table on a new temporary SQLite file, and keeps each play command's time. Other work on the machine only ever adds
time to a command, so the shortest time of each command over the runs, summed, estimates what the command path
costs with no interference; it lets two versions of the code be compared where single runs of bench/table.py spread
by 30 % or more. --cpu times the thread's CPU (time.thread_time) instead of the wall clock: no waiting counted at
all, the SQLite COMMIT's writes included.

Prints which Python runs it (bench/table.py's interpreter()), each run's commands/s, then `shortest: X us a play
command, Y commands/s (N commands, R runs, clock)`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import interpreter, play_games  # noqa: E402

from bot.store import Store  # noqa: E402
from bot.table import Table  # noqa: E402


def one_run(games: int, seed: int, *, cpu: bool = False, game: str = "keyper") -> list[float]:
    """Each play command's time in one run on a new SQLite file (after one untimed warm-up game)."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/bench.db")
        try:
            table = Table(store, images=False)
            play_games(table, 1, seed + 1000, "warm", game=game)
            return play_games(table, games, seed, "timed", clock=time.thread_time if cpu else time.perf_counter,
                              game=game)
        finally:
            store.close()


def main() -> None:
    """Parse arguments, run, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7, help="runs of the same games (default 7)")
    parser.add_argument("--games", type=int, default=3, help="random games in each run (default 3)")
    parser.add_argument("--seed", type=int, default=7, help="first game seed (default 7)")
    parser.add_argument("--cpu", action="store_true", help="time the thread's CPU instead of the wall clock")
    parser.add_argument("--game", default="keyper", help="which registered game to play (default keyper)")
    args = parser.parse_args()
    print(interpreter(), flush=True)
    runs = []
    for k in range(args.runs):
        times = one_run(args.games, args.seed, cpu=args.cpu, game=args.game)
        runs.append(times)
        print(f"run {k + 1}: {len(times) / sum(times):.0f} commands/s", flush=True)
    shortest = [min(each) for each in zip(*runs, strict=True)]
    cost = sum(shortest) / len(shortest)
    print(f"shortest: {cost * 1e6:.0f} us a play command, {1 / cost:.0f} commands/s ({len(shortest)} commands, "
          f"{args.runs} runs, {'thread CPU' if args.cpu else 'wall clock'})")


if __name__ == "__main__":
    main()
