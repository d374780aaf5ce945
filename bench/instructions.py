"""Instructions a table play command costs, a figure the machine's speed does not move:
`python bench/instructions.py [--games 3] [--seed 7] [--game keyper]`.

Time on a shared machine moves with its load (the same code has measured 540 and 1,009 commands/s on different
days); the number of instructions it executes does not. This runs bench/shortest.py's games (one untimed warm-up
game, then --games seeded random games through a new Table on a new temporary SQLite file, board images off) under
valgrind's callgrind and counts the instructions executed inside each play command, and only there: each
`Table.handle` of a play is called through a ctypes callback, and callgrind collects only while inside libffi's
`ffi_call` (the lobby commands, choosing the moves and the warm-up game are not counted). The store's checkpoint
thread is stopped so that no timer adds instructions (the commits still checkpoint at their backstop), and
PYTHONHASHSEED is fixed, so two runs of the same code on the same Python give nearly the same count (measured on
two builds: 23 and 167 instructions a command apart). Needs valgrind (Debian's package); takes a few minutes
(callgrind runs Python about 50 times slower).

Prints which Python runs it (bench/table.py's interpreter()), then `instructions: X a play command (N commands,
seed S, game G)`.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from table import interpreter, play_games  # noqa: E402

from bot.store import Store  # noqa: E402
from bot.table import Command, Outcome, Table  # noqa: E402

INNER = "--inner"


class Counted(Table):
    """A table whose play commands run inside a C call (a ctypes callback), so that callgrind collects only there."""

    counting = False
    plays = 0

    def handle(self, command: Command) -> Outcome:
        """Handle a command; a play's while counting, through ffi_call."""
        if not self.counting or command.verb != "play":
            return super().handle(command)
        outcomes: list[Outcome] = []

        def inside() -> int:
            outcomes.append(Table.handle(self, command))
            return 0

        ctypes.CFUNCTYPE(ctypes.c_int)(inside)()
        self.plays += 1
        return outcomes[0]


def inner(args: argparse.Namespace) -> None:
    """Play the games (under callgrind) and print how many play commands were counted."""
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{folder}/bench.db")
        try:
            table = Counted(store, images=False)
            play_games(table, 1, args.seed + 1000, "warm", game=args.game)
            table.counting = True
            play_games(table, args.games, args.seed, "counted", game=args.game)
        finally:
            store.close()
    print(f"plays: {table.plays}")


def outer(args: argparse.Namespace) -> None:
    """Run this script under callgrind and print the instructions a play command."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    print(interpreter(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        command = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=ffi_call",
                   f"--callgrind-out-file={folder}/callgrind.out", sys.executable, __file__, INNER,
                   "--games", str(args.games), "--seed", str(args.seed), "--game", args.game]
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    collected = re.search(r"Collected : (\d+)", done.stderr)
    plays = re.search(r"plays: (\d+)", done.stdout)
    if done.returncode != 0 or collected is None or plays is None:
        raise SystemExit(f"the run under callgrind failed:\n{done.stdout}\n{done.stderr[-2000:]}")
    count, commands = int(collected.group(1)), int(plays.group(1))
    print(f"instructions: {count / commands:,.0f} a play command ({commands} commands, seed {args.seed}, "
          f"game {args.game})")


def main() -> None:
    """Parse arguments; run the games under callgrind, or be the run under it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=3, help="random games counted (default 3)")
    parser.add_argument("--seed", type=int, default=7, help="first game seed (default 7, as bench/shortest.py)")
    parser.add_argument("--game", default="keyper", help="which registered game to play (default keyper)")
    parser.add_argument(INNER, action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.inner:
        inner(args)
    else:
        outer(args)


if __name__ == "__main__":
    main()
