"""Time the final-scoring optimiser on a worst case: `python bench/scoring.py --runs 30`.

Four players, each with every plot built with allocation-scored tiles (all six gem-set tiles, prospector,
scrap dealer, the three yards, keyple and animal tiles, upgraded windmill) and a full supply's worth of
resources. Prints the median time per player as its last line.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.keyper import GAME  # noqa: E402
from engine.keyper.state import Plot, State  # noqa: E402
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW, WHEAT  # noqa: E402

VILLAGE = ["bracelet_maker", "emporium", "gem_merchant", "goldsmith", "jeweller", "ring_maker", "prospector",
           "scrap_dealer", "brickyard", "stoneyard", "timberyard", "boatman"]
FARM = ["cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock", "windmill", "hunters_lodge"]


def worst_case(upgraded: bool) -> State:
    """A finished-looking 4-player state where every player holds every allocation-scored tile and plenty."""
    state = GAME.setup(["A", "B", "C", "D"], 1)
    for player in state.players:
        player.plots = {f"v{i + 1}": Plot(t, upgraded) for i, t in enumerate(VILLAGE)}
        player.plots |= {f"f{i + 1}": Plot(t, upgraded) for i, t in enumerate(FARM)}
        player.goods = {r: 16 for r in GEMS + FINISHED + RAW} | {WHEAT: 20} | {a: 12 for a in ANIMALS}
        player.keyp = {"blue": 4, "white": 8, "green": 3}
    return state


def main() -> None:
    """Score the worst case repeatedly and print the median per player."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    for upgraded in (False, True):
        state = worst_case(upgraded)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            GAME.score(state, None)
            times.append((time.perf_counter() - start) / len(state.players))
        label = "upgraded" if upgraded else "plain"
        print(f"{label}: median {statistics.median(times) * 1000:.2f} ms per player")
    print(f"median {statistics.median(times) * 1000:.2f} ms per player (worst case, 4 players, all upgraded)")


if __name__ == "__main__":
    main()
