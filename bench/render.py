"""Time the Keyper table image: `python bench/render.py --runs 30 --seed 3`.

Plays a seeded 4-player random game and takes the table in its second season (the first joiner offer after
summer's tenth turn, else summer's first state), then renders that table's public view
--runs times. Prints the first (cold: fonts, board faces and text not yet cached) render, the size of the
PNG, and last the median time per render.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.keyper import GAME  # noqa: E402
from engine.keyper.state import State, clone  # noqa: E402
from engine.playout import random_playout  # noqa: E402
from render.keyper import render  # noqa: E402


def mid_game(seed: int) -> State:
    """A 4-player table in mid-game: a joiner offer open in summer after its tenth turn, else summer's first turn."""
    offer: list[State] = []
    summer: list[State] = []

    def hook(state: State, seat: int, action: Any) -> None:
        if state.season == 1 and not summer:
            summer.append(clone(state))
        if not offer and state.season == 1 and state.phase == "joiner" and state.turn >= 10:
            offer.append(clone(state))

    random_playout(GAME, ["Ana", "Ben", "Cy", "Dee"], seed, on_step=hook)
    return (offer or summer)[0]


def main() -> None:
    """Parse arguments, render the table --runs times, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    state = mid_game(args.seed)
    view = GAME.view(state, None)
    highlight = f"{state.offer.board}.{state.offer.field}" if state.offer else None
    start = time.perf_counter()
    data = render(view, highlight=highlight)
    cold = time.perf_counter() - start
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        render(view, highlight=highlight)
        times.append(time.perf_counter() - start)
    print(f"keyper table, 4 players, {view['season_name']} turn {view['turn']}, phase {view['phase']}")
    print(f"png {len(data) / 1024:.0f} KiB; first (cold) render {cold * 1000:.1f} ms")
    print(f"median {statistics.median(times) * 1000:.1f} ms per render over {args.runs} runs (target < 60 ms)")


if __name__ == "__main__":
    main()
