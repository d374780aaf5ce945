"""Locations of a season: tiles in villages, tiles up for auction and turn-order tiles; their bids, uses and colour.

A location is named by its tile's id (`alehouse`, `home-3`) or `order-N` for a turn-order tile. Its entry in
state.places holds `bids` (seat -> [colour, count]) and `uses` ([seat, colour, count] in order).
"""

from __future__ import annotations

from engine.keyflower.state import Json, KfState

MAX_WORKERS = 6  # workers on one tile per season (reference §5)


def entry(state: KfState, loc: str) -> Json:
    """A location's bids and uses this season (created empty)."""
    return state.places.setdefault(loc, {"bids": {}, "uses": []})


def peek(state: KfState, loc: str) -> Json:
    """A location's bids and uses, without creating an entry."""
    return state.places.get(loc, {"bids": {}, "uses": []})


def colour_of(state: KfState, loc: str) -> str | None:
    """The colour every worker at this location must have; None while none is there (reference §4, F-10).

    Workers laid flat by summer boats 4a and 4b do not set it; when no standing worker is left, a flat bid
    stands up and its colour becomes the tile's."""
    found = peek(state, loc)
    for bid in found["bids"].values():
        if bid[1] and not flat(bid, 2):
            return str(bid[0])
    for use in found["uses"]:
        if not flat(use, 3):
            return str(use[1])
    for bid in found["bids"].values():
        if bid[1]:
            return str(bid[0])
    return None


def flat(entry: list[object], index: int) -> bool:
    """Whether a bid or use entry is laid flat (a colour-breaking summer boat's workers)."""
    return len(entry) > index and bool(entry[index])


def highest(state: KfState, loc: str) -> tuple[int, int] | None:
    """(seat, count) of the winning bid, None when nobody bid."""
    bids = [(int(s), b[1]) for s, b in peek(state, loc)["bids"].items() if b[1]]
    return max(bids, key=lambda item: item[1]) if bids else None


def bid_of(state: KfState, loc: str, seat: int) -> tuple[str, int] | None:
    """A seat's bid at a location."""
    found = peek(state, loc)["bids"].get(str(seat))
    return (str(found[0]), int(found[1])) if found and found[1] else None


def winning(state: KfState, loc: str, seat: int) -> bool:
    """Whether the seat's bid is the highest here."""
    top = highest(state, loc)
    return top is not None and top[0] == seat


def used(state: KfState, loc: str) -> int:
    """Workers placed on a tile to use it this season."""
    return sum(u[2] for u in peek(state, loc)["uses"])


def next_use_minimum(state: KfState, loc: str) -> int:
    """The fewest workers the next use needs: one, then one more than the last use (reference §5)."""
    uses = peek(state, loc)["uses"]
    return int(uses[-1][2]) + 1 if uses else 1


def order_loc(number: int) -> str:
    """The location name of a turn-order tile."""
    return f"order-{number}"
