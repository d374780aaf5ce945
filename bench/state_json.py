"""A state's JSON, both ways, for every registered game: `python bench/state_json.py [--actions 120] [--seed 5]`.

Deals a 4-player game of each registered game (its default options), plays --actions random legal actions (fewer if
it ends), and times on that mid-game state what every command and every cold load does: `to_json_text` (the text a
snapshot stores), `to_json` and `from_json` (the state rebuilt from that data). Each figure is the median of seven
batches of 200 calls, in microseconds a call; the state's text length is printed with it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import games  # noqa: E402

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def per_call(work: Callable[[], Any], calls: int = 200, batches: int = 7) -> float:
    """Microseconds a call: the median over batches of `calls` calls."""
    spans = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(calls):
            work()
        spans.append((time.perf_counter() - start) / calls)
    return statistics.median(spans) * 1e6


def mid_game(game_id: str, actions: int, seed: int) -> Any:
    """A 4-player state of the game after up to `actions` random legal actions."""
    engine = games.get(game_id).engine
    state = engine.setup(NAMES, seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))[0]
    return state


def timings(game_id: str, actions: int, seed: int) -> str:
    """One game's line: its mid-game state's text length and the three timings."""
    engine = games.get(game_id).engine
    state = mid_game(game_id, actions, seed)
    text, data = engine.to_json_text(state), engine.to_json(state)
    return (f"{game_id}: {len(text)} characters; to_json_text {per_call(lambda: engine.to_json_text(state)):.0f} us, "
            f"to_json {per_call(lambda: engine.to_json(state)):.0f} us, "
            f"from_json {per_call(lambda: engine.from_json(data)):.0f} us")


def main() -> None:
    """Parse arguments, time each registered game, print one line per game."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=120, help="random actions before timing (default 120)")
    parser.add_argument("--seed", type=int, default=5, help="deal and choice of actions (default 5)")
    args = parser.parse_args()
    for entry in games.all_games():
        print(timings(entry.id, args.actions, args.seed), flush=True)


if __name__ == "__main__":
    main()
