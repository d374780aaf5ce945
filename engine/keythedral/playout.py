"""How random play-outs choose, and what a position is worth when a play-out is cut short.

Play-outs still choose only among legal actions, but buy seats and save the cubes the seats on offer need, so that
a random game ends in a reasonable number of rounds (engine.core.Game.playout_weights). The weights were tuned by
measuring the rounds a 4-player play-out takes (`git show d8e1394:docs/benchmarks.md`, "Keythedral"): passing
too rarely wastes cubes, passing too often hoards them until the store runs dry, and bids keep cubes moving.

A seat's worth beyond its seats (engine.core.Game.playout_worth) is the part of the seats on offer its cubes
already pay for, at less than a seat bought (buying always gains), and its houses, each a worker more every round
while the Keythedral has far to go.
"""

from __future__ import annotations

from collections import Counter

from engine.keythedral import flow
from engine.keythedral.actions import Act
from engine.keythedral.components import CRAFTSMEN
from engine.keythedral.legal import buyable
from engine.keythedral.state import KState

FIXED = {"buy": 200.0, "house": 8.0, "pass": 4.0, "continue": 4.0, "procure": 1.0, "match": 1.0, "laws": 0.5,
         "back": 1.0}
SPREAD = {"fence": 0.5, "unfence": 0.3, "law": 2.0, "bid": 1.0}
PAID = 0.6  # a seat whose cost the cubes held cover, as a share of its value
HOUSE = 0.3  # a house, in points per stage still to build
_CUBE_VERBS = frozenset({"give", "take", "trade", *CRAFTSMEN})


def weights(state: KState, seat: int, legal: list[Act]) -> list[float]:
    """A weight per legal action (see the module docstring)."""
    if len(legal) == 1:
        return [1.0]
    verbs = [a.words[0] for a in legal]
    counts = Counter(verbs)
    needed: set[str] = set()
    if not _CUBE_VERBS.isdisjoint(counts):
        needed = {c for s in buyable(state) for c in flow.tile_cost(s.tile)}
    held = state.cubes[seat]
    return [_weight(state, verb, a, counts, needed, held) for verb, a in zip(verbs, legal, strict=True)]


def _weight(state: KState, verb: str, a: Act, counts: Counter[str], needed: set[str], held: dict[str, int]) -> float:
    """The weight of one action."""
    if verb in FIXED:
        return FIXED[verb]
    if verb in SPREAD:
        return SPREAD[verb] / counts[verb]
    if verb == "give":
        return 0.5 if a.words[1] in needed else 3.0
    if verb == "take":
        return 3.0 if a.words[1] in needed else 0.5
    if verb == "trade":
        spare = sum(k for c, k in held.items() if c not in needed)
        return 3.0 if spare >= 2 and any(state.store.get(c, 0) for c in needed) else 0.2
    if verb in CRAFTSMEN:
        colour = CRAFTSMEN[verb].colour
        return 4.0 if colour in needed and not held.get(colour) else 0.1
    return 1.0


def worth(state: KState, seat: int) -> float:
    """The seat's cubes held towards the seats on offer (most valuable first, each cube counted once) and its houses,
    in points (see the module docstring)."""
    held = dict(state.cubes[seat])
    paid = 0.0
    for space in sorted(buyable(state), key=lambda s: -s.stage):
        cost = flow.tile_cost(space.tile)
        covered = 0
        for colour in cost:
            if held.get(colour, 0) > 0:
                held[colour] -= 1
                covered += 1
        paid += PAID * space.stage * covered / len(cost)
    houses = sum(1 for c in state.cottages[seat] if c.house)
    return paid + HOUSE * houses * (6 - flow.current_stage(state))
