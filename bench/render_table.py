"""Time one game's table image: `python bench/render_table.py --game keythedral --runs 30 --seed 3`.

Plays a seeded 4-player random game and takes the table at a busy moment (Keythedral: the first phase-3 turn of
round 4; Keyflower: the first autumn turn with more than four tiles bid on or used), then renders its public view
--runs times. Prints the first (cold) render, the PNG's size, and last the median time per render.
`python bench/render.py` times every game's table (Keyper's too) in one run with this module's helpers.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games  # noqa: E402
from engine.playout import random_playout  # noqa: E402

MOMENTS: dict[str, Callable[[Any], bool]] = {
    "keythedral": lambda s: s.round == 4 and s.phase == "actions" and s.step == "turn",
    "keyflower": lambda s: s.season == 2 and s.phase == "turns" and len(s.places) > 4,
}


@dataclass(frozen=True)
class Timing:
    """One table's figures: the first (cold) render, the warm renders (wall clock and this process's CPU) and the
    PNG."""

    cold: float
    warm: list[float]
    cpu: list[float]
    png: bytes

    @property
    def median(self) -> float:
        """The median warm render in seconds (wall clock)."""
        return statistics.median(self.warm)

    @property
    def cpu_median(self) -> float:
        """The median CPU time of a warm render in seconds: steadier than the wall clock on a busy machine."""
        return statistics.median(self.cpu)


def time_renders(draw: Callable[[], bytes], runs: int) -> Timing:
    """Call draw once cold, then runs times warm, timing each call."""
    start = time.perf_counter()
    data = draw()
    cold = time.perf_counter() - start
    warm, cpu = [], []
    for _ in range(runs):
        start, used = time.perf_counter(), time.process_time()
        draw()
        warm.append(time.perf_counter() - start)
        cpu.append(time.process_time() - used)
    return Timing(cold, warm, cpu, data)


def busy_table(game_id: str, seed: int, options: dict[str, str] | None = None) -> Any:
    """The first state of a seeded 4-player game (with these engine options) at the game's busy moment."""
    entry = games.get(game_id)
    found: list[Any] = []

    def hook(state: Any, seat: int, action: Any) -> None:
        if not found and MOMENTS[game_id](state):
            found.append(entry.engine.from_json(entry.engine.to_json(state)))

    chosen = entry.engine_options(entry.read_options(options or {}, {}))
    random_playout(entry.engine, ["Ana", "Ben", "Cy", "Dee"], seed, on_step=hook, options=chosen)
    return found[0]


def main() -> None:
    """Parse arguments, render the table --runs times, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="keythedral", choices=sorted(MOMENTS))
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable), e.g. keymelequin=flipper")
    args = parser.parse_args()
    entry = games.get(args.game)
    options = dict(item.partition("=")[::2] for item in args.option)
    view = entry.engine.view(busy_table(args.game, args.seed, options), None)
    timing = time_renders(lambda: entry.render(view), args.runs)
    print(f"{args.game} table, 4 players, phase {view['phase']}{''.join(', ' + o for o in args.option)}")
    print(f"png {len(timing.png) / 1024:.0f} KiB; first (cold) render {timing.cold * 1000:.1f} ms")
    print(f"median {timing.median * 1000:.1f} ms per render over {args.runs} runs, CPU median "
          f"{timing.cpu_median * 1000:.1f} ms (target < 60 ms)")


if __name__ == "__main__":
    main()
