"""Time Keyflower's end-game scoring: `python bench/scoring_keyflower.py --games 20 --seed 1`.

Plays seeded 6-player random games to their end and times the final scoreboard (every player's best allocation,
Flipper's free flip tried on every tile it could flip). Prints the median per player (target: under 20 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.keyflower import final  # noqa: E402
from engine.keyflower.game import GAME  # noqa: E402
from engine.playout import random_playout  # noqa: E402


def main() -> None:
    """Parse arguments, score the ends, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option (repeatable), e.g. keymelequin=flipper")
    args = parser.parse_args()
    options = dict(item.partition("=")[::2] for item in args.option)
    per_player = []
    for k in range(args.games):
        state, _ = random_playout(GAME, [f"P{i + 1}" for i in range(6)], args.seed + k, options=options)
        start = time.perf_counter()
        final.scoreboard(state, True)
        per_player.append((time.perf_counter() - start) / 6)
    shown = "".join(f", {item}" for item in args.option)
    print(f"keyflower{shown}, 6 players, {args.games} ends; worst {max(per_player) * 1000:.2f} ms per player")
    print(f"median {statistics.median(per_player) * 1000:.2f} ms per player (target < 20 ms)")


if __name__ == "__main__":
    main()
