"""Locations of a season: tiles in villages, tiles up for auction and turn-order tiles; their bids, uses and colour.

A location is named by its tile's id (`alehouse`, `home-3`), `order-N` for a turn-order tile or `key-celeste`. Its
entry in state.places holds `bids` (seat -> [colour, count, flat], with the group of keyples as a fourth item when
it is not one plain colour), `uses` ([seat, colour, count, flat] in order, the group fifth when mixed) and, when
the ghost replaced the winning bid, `ghost` (the seat it wins the tile for).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.keyflower import keyples as kp
from engine.keyflower.state import Json, KfState

MAX_WORKERS = 6  # workers on one tile per season (reference §5)


def entry(state: KfState, loc: str) -> Json:
    """A location's bids and uses this season (created empty)."""
    return state.places.setdefault(loc, {"bids": {}, "uses": []})


def peek(state: KfState, loc: str) -> Json:
    """A location's bids and uses, without creating an entry."""
    return state.places.get(loc, {"bids": {}, "uses": []})


def bid_group(bid: list[Any]) -> dict[str, int]:
    """The keyples of a bid entry ([colour, count, flat] or [label, count, flat, group])."""
    return dict(bid[3]) if len(bid) > 3 else ({str(bid[0]): int(bid[1])} if bid[1] else {})


def use_group(use: list[Any]) -> dict[str, int]:
    """The keyples of a use entry ([seat, colour, count, flat] or [seat, label, count, flat, group])."""
    return dict(use[4]) if len(use) > 4 else {str(use[1]): int(use[2])}


def bid_entry(group: kp.Group, flat_: bool) -> list[Any]:
    """A bid entry for a group: plain [colour, count, flat], or [label, count, flat, group] when it mixes kinds."""
    kinds = [k for k, n in group.items() if n]
    if len(kinds) == 1 and kinds[0] in kp.COLOURS:
        return [kinds[0], group[kinds[0]], flat_]
    return [kp.label(group), kp.size(group), flat_, {k: n for k, n in group.items() if n}]


def use_entry(seat: int, group: kp.Group, flat_: bool) -> list[Any]:
    """A use entry for a group (a mixed-colour use laid flat by summer boat 4b is labelled 'mixed')."""
    kinds = [k for k, n in group.items() if n]
    if len(kinds) == 1 and kinds[0] in kp.COLOURS:
        return [seat, kinds[0], group[kinds[0]], flat_]
    name = "mixed" if flat_ else kp.label(group)
    return [seat, name, kp.size(group), flat_, {k: n for k, n in group.items() if n}]


def identity(state: KfState, loc: str, seat: int | None = None, purpose: str = "",
             group: kp.Group | None = None) -> frozenset[str] | None:
    """The colours every standing group at this location can count as (None while nobody stands there); with a
    group, as if the seat added it as a bid (merged with its own) or a use (reference §4, F-10, F-29)."""
    found = peek(state, loc)
    return place_identity(found, seat, purpose, group, plain=not may_be_mixed(found))


def place_identity(found: Mapping[str, Any], seat: int | None = None, purpose: str = "",
                   group: kp.Group | None = None, plain: bool = False) -> frozenset[str] | None:
    """identity() of a location's entry (as in the state or the public view); plain: known to hold no group with
    Sven or Paulo (the only groups of two colours that stand; a mixed use of summer boat 4b lies flat).

    Workers laid flat by summer boats 4a and 4b do not set it; when no standing worker is left, a flat bid
    stands up and sets it."""
    raw_bids: Mapping[str, list[Any]] = found.get("bids") or {}
    raw_uses: list[list[Any]] = found.get("uses") or []
    single = group is None or (len(group) == 1 and next(iter(group)) in kp.COLOURS)
    if single and (plain or is_plain(found)):
        return _plain_identity(raw_bids, raw_uses, seat, purpose, None if group is None else next(iter(group)))
    return _group_identity(raw_bids, raw_uses, seat, purpose, group)


def _group_identity(raw_bids: Mapping[str, list[Any]], raw_uses: list[list[Any]], seat: int | None, purpose: str,
                    group: kp.Group | None) -> frozenset[str] | None:
    """place_identity() in general: every group read by its keyples (module sheet "Using Sven and Paulo")."""
    bids = {s: (bid_group(b), flat(b, 2)) for s, b in raw_bids.items() if b[1]}
    uses = [(use_group(u), flat(u, 3)) for u in raw_uses]
    if not any(not lying for _, lying in [*bids.values(), *uses]):  # nobody stands: lying bids stand up
        bids = {s: (g, False) for s, (g, _) in bids.items()}
    if group is not None and purpose == "bid":
        mine = bids.get(str(seat), ({}, False))
        bids[str(seat)] = (kp.merged(mine[0], group), mine[1])
    elif group is not None:
        uses.append((dict(group), False))
    here = 0  # the pairs whose wild keyple is used on the tile: every use there is with him (F-28)
    for g, _ in uses:
        here |= sum(kp.PAIR_BITS[w] for w in kp.wilds_in(g))
    found_mask, standing = kp.ANY, False
    for g, lying in bids.values():
        if not lying:
            found_mask, standing = found_mask & kp.mask(g), True
    for g, lying in uses:
        if not lying:
            found_mask, standing = found_mask & kp.mask(g, here), True
    return kp.SETS[found_mask] if standing else None


def recheck_wild(found: Json) -> None:
    """Clear a location's Sven-or-Paulo mark once no group there holds him (after a group left it)."""
    if found.get("wild") and not any(kp.wilds_in(bid_group(b)) for b in found["bids"].values()) and not any(
            kp.wilds_in(use_group(u)) for u in found["uses"]):
        del found["wild"]


def may_be_mixed(found: Json) -> bool:
    """Whether a group with Sven or Paulo stands at this location (the general colour rules apply)."""
    return bool(found.get("wild"))


def is_plain(found: Mapping[str, Any]) -> bool:
    """Whether every group at a location is one plain colour (no Sven, Paulo or mixed use there)."""
    return all(len(b) < 4 for b in (found.get("bids") or {}).values()) and all(
        len(u) < 5 for u in found.get("uses") or [])


def _plain_identity(bids: Mapping[str, list[Any]], uses: list[list[Any]], seat: int | None, purpose: str,
                    colour: str | None) -> frozenset[str] | None:
    """place_identity() where every group is one plain colour: the quick path play-outs take most of the time."""
    standing = [str(b[0]) for b in bids.values() if b[1] and not flat(b, 2)]
    standing += [str(u[1]) for u in uses if not flat(u, 3)]
    if not standing:  # nobody stands: lying bids stand up
        standing = [str(b[0]) for b in bids.values() if b[1]]
    if colour is not None:
        mine = bids.get(str(seat)) if purpose == "bid" else None
        if mine and mine[1] and mine[0] != colour:
            return frozenset()
        standing.append(colour)
    found = set(standing)
    return None if not found else frozenset(found) if len(found) == 1 else frozenset()


def group_fits(state: KfState, seat: int, loc: str, group: kp.Group, purpose: str) -> bool:
    """Whether the seat may add this group here as a bid or a use without breaking the tile's colour (F-29)."""
    found_place = peek(state, loc)
    mine = found_place["bids"].get(str(seat)) if purpose == "bid" else None
    if mine and mine[1] and flat(mine, 2):
        return lying_bid_grows(found_place, seat, mine, group)
    found = identity(state, loc, seat, purpose, group)
    return found is None or bool(found)


def lying_bid_grows(found: Mapping[str, Any], seat: int, mine: list[Any], group: kp.Group) -> bool:
    """Whether a seat's lying counter-bid (summer boat 4a) may take this group: the whole must still count as one
    colour, one the other standing workers cannot be (reference §9.4, F-26, F-30)."""
    colours = kp.can_be(kp.merged(bid_group(mine), group))
    others = {s: b for s, b in (found.get("bids") or {}).items() if s != str(seat)}
    rest = place_identity({"bids": others, "uses": found.get("uses") or []})
    return bool(colours) and (rest is None or bool(colours - rest))


def colour_of(state: KfState, loc: str) -> str | None:
    """The one colour the location's workers have (None while none is there or while it is still open)."""
    found = identity(state, loc)
    return next(iter(found)) if found is not None and len(found) == 1 else None


def closed(state: KfState, loc: str) -> bool:
    """Whether the ghost (Key Celeste) is winning this tile: no more bids or uses there (F-40)."""
    return "ghost" in peek(state, loc)


def flat(entry: list[object], index: int) -> bool:
    """Whether a bid or use entry is laid flat (a colour-breaking summer boat's workers)."""
    return len(entry) > index and bool(entry[index])


GHOST_WINS = 99  # the ghost always wins its tile (Key Celeste)


def highest(state: KfState, loc: str) -> tuple[int, int] | None:
    """(seat, count) of the winning bid, None when nobody bid; a ghost wins for the seat whose bid it replaced."""
    if closed(state, loc):
        return int(peek(state, loc)["ghost"]), GHOST_WINS
    bids = [(int(s), b[1]) for s, b in peek(state, loc)["bids"].items() if b[1]]
    return max(bids, key=lambda item: item[1]) if bids else None


def bid_of(state: KfState, loc: str, seat: int) -> tuple[str, int] | None:
    """(label, count) of a seat's bid at a location (the label is its colour, or 'blue/yellow' with Sven)."""
    found = peek(state, loc)["bids"].get(str(seat))
    return (str(found[0]), int(found[1])) if found and found[1] else None


def winning(state: KfState, loc: str, seat: int) -> bool:
    """Whether the seat's bid is the highest here."""
    top = highest(state, loc)
    return top is not None and top[0] == seat


def used(state: KfState, loc: str) -> int:
    """Workers placed on a tile to use it this season."""
    return sum(int(u[2]) for u in peek(state, loc)["uses"])


def next_use_minimum(state: KfState, loc: str) -> int:
    """The fewest workers the next use needs: one, then one more than the last use (reference §5)."""
    uses = peek(state, loc)["uses"]
    return int(uses[-1][2]) + 1 if uses else 1


def order_loc(number: int) -> str:
    """The location name of a turn-order tile."""
    return f"order-{number}"
