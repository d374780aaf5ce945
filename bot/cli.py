"""The `keywood` command. Until the store and terminal game land, it runs a Keyper demonstration."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

from engine.core import Rng
from engine.keyper import GAME


def demo(players: int, seed: int, out: TextIO = sys.stdout) -> int:
    """Play a seeded random game of Keyper, printing every action and event; returns the exit code."""
    names = ["Ana", "Ben", "Cleo", "Dev"][:players]
    state = GAME.setup(names, seed)
    chooser = Rng.from_seed(seed)
    print(f"Keyper demo: {', '.join(names)}; seed {seed}. {GAME.waiting_for(state)}.", file=out)
    while not GAME.is_over(state):
        seats = GAME.to_act(state)
        seat = seats[chooser.below(len(seats))]
        options = GAME.legal_actions(state, seat)
        action = options[chooser.below(len(options))]
        state, events = GAME.apply(state, seat, action)
        print(f"> {names[seat]}: {action}", file=out)
        for event in events:
            print(f"  {event.text}", file=out)
    board = GAME.score(state)
    print("Final score (shipping and fairs; building tiles score once the economy rules land):", file=out)
    for line in board.players:
        print(f"  {line.name}: {line.total}", file=out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `keywood` console script."""
    parser = argparse.ArgumentParser(prog="keywood", description="Keywood, a Discord referee for Key-series games.")
    sub = parser.add_subparsers(dest="command")
    run_demo = sub.add_parser("demo", help="play a seeded random Keyper game in the terminal")
    run_demo.add_argument("--players", type=int, default=3, choices=[2, 3, 4])
    run_demo.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    return demo(getattr(args, "players", 3), getattr(args, "seed", 1))


if __name__ == "__main__":
    sys.exit(main())
