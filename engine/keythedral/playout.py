"""How random play-outs choose: still only among legal actions, but buying seats and saving the cubes the seats on
offer need, so that a random game ends in a reasonable number of rounds (engine.core.Game.playout_weights)."""

from __future__ import annotations

from engine.keythedral import flow
from engine.keythedral.actions import Act
from engine.keythedral.legal import buyable
from engine.keythedral.state import KState
from engine.keythedral.supply import CRAFTSMEN

FIXED = {"buy": 200.0, "house": 8.0, "pass": 4.0, "continue": 4.0, "procure": 1.0, "match": 1.0, "laws": 0.5,
         "back": 1.0}
SPREAD = {"fence": 0.5, "unfence": 0.3, "law": 2.0, "bid": 1.0}


def weights(state: KState, seat: int, legal: list[Act]) -> list[float]:
    """A weight per legal action (see the module docstring)."""
    needed = {c for s in buyable(state) for c in flow.tile_cost(s["tile"])}
    held = state.cubes[seat]
    counts: dict[str, int] = {}
    for a in legal:
        counts[a.verb] = counts.get(a.verb, 0) + 1
    found = []
    for a in legal:
        verb = a.verb
        if verb == "trade":
            spare = sum(k for c, k in held.items() if c not in needed)
            w = 3.0 if spare >= 2 and any(state.store.get(c, 0) for c in needed) else 0.2
        elif verb in FIXED:
            w = FIXED[verb]
        elif verb in SPREAD:
            w = SPREAD[verb] / counts[verb]
        elif verb in CRAFTSMEN:
            colour = CRAFTSMEN[verb][0]
            w = 4.0 if colour in needed and not held.get(colour) else 0.1
        elif verb == "give":
            w = 0.5 if a.args[0] in needed else 3.0
        elif verb == "take":
            w = 3.0 if a.args[0] in needed else 0.5
        else:
            w = 1.0
        found.append(w)
    return found
