"""Time every game's table image: `python bench/render.py --runs 30 --seed 3 [--game keyper] [--save DIR]`.

For each game (Keyper, Keythedral, Keyflower; or the one --game names) plays a seeded 4-player random game, takes
a mid-game table and renders its public view once cold, then --runs times warm. Keyper's table is the first
joiner offer after summer's tenth turn (else summer's first state) with the offer's field highlighted; the others
are bench/render_table.py's busy moments. Prints per game the cold render, the median and spread of the warm
renders (and their CPU time, steadier on a busy machine) and the PNG's size, then a summary table. --save DIR writes
each table's PNG as DIR/<game>.png.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.render_table import Timing, busy_table, time_renders  # noqa: E402
from bot import games  # noqa: E402
from engine.core import clone  # noqa: E402
from engine.keyper import GAME  # noqa: E402
from engine.keyper.state import State  # noqa: E402
from engine.playout import random_playout  # noqa: E402
from render.keyper import render  # noqa: E402

GAMES = ("keyper", "keythedral", "keyflower")


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


def table(game_id: str, seed: int) -> tuple[str, Callable[[], bytes]]:
    """A description of the game's mid-game table and a call that renders its public view."""
    if game_id == "keyper":
        state = mid_game(seed)
        view = GAME.view(state, None)
        highlight = f"{state.offer.board}.{state.offer.field}" if state.offer else None
        return f"{view['season_name']} turn {view['turn']}, phase {view['phase']}", lambda: render(
            view, highlight=highlight)
    entry = games.get(game_id)
    view = entry.engine.view(busy_table(game_id, seed), None)
    return f"phase {view['phase']}", lambda: entry.render(view)


def report(game_id: str, what: str, timing: Timing) -> None:
    """Print one game's figures."""
    ms = sorted(t * 1000 for t in timing.warm)
    print(f"{game_id} table, 4 players, {what}")
    print(f"  png {len(timing.png) / 1024:.0f} KiB; first (cold) render {timing.cold * 1000:.1f} ms")
    print(f"  median {timing.median * 1000:.1f} ms per warm render over {len(ms)} runs "
          f"(min {ms[0]:.1f}, max {ms[-1]:.1f}); CPU median {timing.cpu_median * 1000:.1f} ms")


def main() -> None:
    """Parse arguments, time each game's table, print the figures and a summary."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", choices=GAMES, action="append", help="a game to time (repeatable; default all)")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--save", type=Path, metavar="DIR", help="write each table's PNG as DIR/<game>.png")
    args = parser.parse_args()
    results: dict[str, Timing] = {}
    for game_id in args.game or GAMES:
        what, draw = table(game_id, args.seed)
        results[game_id] = timing = time_renders(draw, args.runs)
        report(game_id, what, timing)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"{game_id}.png").write_bytes(timing.png)
    print("| game | median warm | CPU median | PNG |")
    for game_id, timing in results.items():
        print(f"| {game_id} | {timing.median * 1000:.1f} ms | {timing.cpu_median * 1000:.1f} ms "
              f"| {len(timing.png) / 1024:.0f} KiB |")


if __name__ == "__main__":
    main()
