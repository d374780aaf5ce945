"""Time random full games: `python bench/playouts.py --game keyper --players 4 --games 50 --seed 1`.

Engine options go with `--option NAME=VALUE` (repeatable), e.g. Keyflower's modules:
`--option keymelequin=flipper --option key_celeste=yes`.

Prints one line per run size and, last, the median time per game and games per second.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.playout import random_playout  # noqa: E402

GAMES = {"keyper": "engine.keyper:GAME", "keythedral": "engine.keythedral:GAME",
         "keyflower": "engine.keyflower:GAME"}


def load_game(name: str):  # type: ignore[no-untyped-def]
    """Import a game engine by its short name."""
    module, _, attr = GAMES[name].partition(":")
    return getattr(__import__(module, fromlist=[attr]), attr)


def main() -> None:
    """Parse arguments, play the games, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="keyper", choices=sorted(GAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option (repeatable)")
    args = parser.parse_args()
    options = dict(item.partition("=")[::2] for item in args.option)
    game = load_game(args.game)
    names = [f"P{i + 1}" for i in range(args.players)]
    times, actions = [], []
    for k in range(args.games):
        start = time.perf_counter()
        _, record = random_playout(game, names, args.seed + k, options=options)
        times.append(time.perf_counter() - start)
        actions.append(len(record.actions))
    median = statistics.median(times)
    shown = "".join(f", {item}" for item in args.option)
    print(f"{args.game}{shown}, {args.players} players, {args.games} games, "
          f"median {statistics.median(actions):.0f} actions")
    print(f"median {median * 1000:.1f} ms per game, {1 / median:.1f} games per second")


if __name__ == "__main__":
    main()
