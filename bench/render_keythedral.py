"""Time the Keythedral table image: `python bench/render_keythedral.py --runs 30 --seed 3`.

Plays a seeded 4-player random game and takes the table at the first phase-3 turn of round 4 (mid-game: houses,
fences, workers out, seats taken), then renders its public view --runs times. Prints the first (cold) render,
the PNG's size, and last the median time per render.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.keythedral import GAME  # noqa: E402
from engine.keythedral.state import KState  # noqa: E402
from engine.playout import random_playout  # noqa: E402
from render.keythedral import render  # noqa: E402

ROUND = 4


def mid_game(seed: int) -> KState:
    """A 4-player table at the first phase-3 turn of round ROUND."""
    found: list[KState] = []

    def hook(state: KState, seat: int, action: Any) -> None:
        if not found and state.round == ROUND and state.phase == "actions" and state.step == "turn":
            found.append(GAME.from_json(GAME.to_json(state)))

    random_playout(GAME, ["Ana", "Ben", "Cy", "Dee"], seed, on_step=hook)
    return found[0]


def main() -> None:
    """Parse arguments, render the table --runs times, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    view = GAME.view(mid_game(args.seed), None)
    start = time.perf_counter()
    data = render(view)
    cold = time.perf_counter() - start
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        render(view)
        times.append(time.perf_counter() - start)
    print(f"keythedral table, 4 players, round {view['round']}, phase {view['phase']}, "
          f"{len(view['workers'])} workers, {len(view['fences'])} fences")
    print(f"png {len(data) / 1024:.0f} KiB; first (cold) render {cold * 1000:.1f} ms")
    print(f"median {statistics.median(times) * 1000:.1f} ms per render over {args.runs} runs (target < 60 ms)")


if __name__ == "__main__":
    main()
