"""Locations of a season: tiles in villages, tiles up for auction and turn-order tiles; their bids, uses and colour.

A location is named by its tile's id (`alehouse`, `home-3`), `order-N` for a turn-order tile or `key-celeste`. Its
Place (engine.keyflower.state) holds the bids by seat, the uses in order and, when the ghost replaced the winning
bid, the seat the ghost wins the tile for.
"""

from __future__ import annotations

from engine.keyflower import keyples as kp
from engine.keyflower.state import Bid, KfState, Place, Use

MAX_WORKERS = 6  # workers on one tile per season (reference §5)
_NOBODY = Place()  # what peek() gives for a location nobody is at: read, never changed


def entry(state: KfState, loc: str) -> Place:
    """A location's bids and uses this season (created empty)."""
    found = state.places.get(loc)
    if found is None:
        found = state.places[loc] = Place()
    return found


def peek(state: KfState, loc: str) -> Place:
    """A location's bids and uses, without creating an entry (to read only)."""
    return state.places.get(loc, _NOBODY)


def bid_entry(group: kp.Group, flat_: bool) -> Bid:
    """A bid of a group: of its one colour, or labelled with the colours it may count as when it mixes kinds."""
    kinds = [k for k, n in group.items() if n]
    if len(kinds) == 1 and kinds[0] in kp.COLOURS:
        return Bid(kinds[0], group[kinds[0]], flat_)
    return Bid(kp.label(group), kp.size(group), flat_, {k: n for k, n in group.items() if n})


def use_entry(seat: int, group: kp.Group, flat_: bool) -> Use:
    """A use of a group (a mixed-colour use laid flat by summer boat 4b is labelled 'mixed')."""
    kinds = [k for k, n in group.items() if n]
    if len(kinds) == 1 and kinds[0] in kp.COLOURS:
        return Use(seat, kinds[0], group[kinds[0]], flat_)
    name = "mixed" if flat_ else kp.label(group)
    return Use(seat, name, kp.size(group), flat_, {k: n for k, n in group.items() if n})


def identity(state: KfState, loc: str, seat: int | None = None, purpose: str = "",
             group: kp.Group | None = None) -> frozenset[str] | None:
    """The colours every standing group at this location can count as (None while nobody stands there); with a
    group, as if the seat added it as a bid (merged with its own) or a use (reference §4, F-10, F-29)."""
    found = peek(state, loc)
    return place_identity(found, seat, purpose, group, plain=not found.wild)


def place_identity(found: Place, seat: int | None = None, purpose: str = "", group: kp.Group | None = None,
                   plain: bool = False) -> frozenset[str] | None:
    """identity() of a location (as in the state or the public view); plain: known to hold no group with Sven or
    Paulo (the only groups of two colours that stand; a mixed use of summer boat 4b lies flat).

    Workers laid flat by summer boats 4a and 4b do not set it; when no standing worker is left, a flat bid
    stands up and sets it."""
    single = group is None or (len(group) == 1 and next(iter(group)) in kp.COLOURS)
    if single and (plain or is_plain(found)):
        return _plain_identity(found, seat, purpose, None if group is None else next(iter(group)))
    return _group_identity(found, seat, purpose, group)


def _group_identity(found: Place, seat: int | None, purpose: str, group: kp.Group | None) -> frozenset[str] | None:
    """place_identity() in general: every group read by its keyples (module sheet "Using Sven and Paulo")."""
    bids = {s: (b.keyples(), b.flat) for s, b in found.bids.items() if b.count}
    uses = [(u.keyples(), u.flat) for u in found.uses]
    if not any(not lying for _, lying in [*bids.values(), *uses]):  # nobody stands: lying bids stand up
        bids = {s: (g, False) for s, (g, _) in bids.items()}
    if group is not None and purpose == "bid" and seat is not None:
        mine = bids.get(seat, ({}, False))
        bids[seat] = (kp.merged(mine[0], group), mine[1])
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


def recheck_wild(found: Place) -> None:
    """Clear a location's Sven-or-Paulo mark once no group there holds him (after a group left it)."""
    if found.wild and not any(kp.wilds_in(b.keyples()) for b in found.bids.values()) and not any(
            kp.wilds_in(u.keyples()) for u in found.uses):
        found.wild = False


def is_plain(found: Place) -> bool:
    """Whether every group at a location is one plain colour (no Sven, Paulo or mixed use there)."""
    return all(b.group is None for b in found.bids.values()) and all(u.group is None for u in found.uses)


def _plain_identity(found: Place, seat: int | None, purpose: str, colour: str | None) -> frozenset[str] | None:
    """place_identity() where every group is one plain colour: the quick path play-outs take most of the time."""
    standing = [b.label for b in found.bids.values() if b.count and not b.flat]
    standing += [u.label for u in found.uses if not u.flat]
    if not standing:  # nobody stands: lying bids stand up
        standing = [b.label for b in found.bids.values() if b.count]
    if colour is not None:
        mine = found.bids.get(seat) if purpose == "bid" and seat is not None else None
        if mine and mine.count and mine.label != colour:
            return frozenset()
        standing.append(colour)
    colours = set(standing)
    return None if not colours else frozenset(colours) if len(colours) == 1 else frozenset()


def own_bid(state: KfState, loc: str, seat: int, purpose: str) -> Bid | None:
    """The seat's bid with workers at a location, when it adds to it (purpose 'bid'); None otherwise."""
    mine = peek(state, loc).bids.get(seat) if purpose == "bid" else None
    return mine if mine is not None and mine.count else None


def group_fits(state: KfState, seat: int, loc: str, group: kp.Group, purpose: str) -> bool:
    """Whether the seat may add this group here as a bid or a use without breaking the tile's colour (F-29)."""
    mine = own_bid(state, loc, seat, purpose)
    if mine is not None and mine.flat:
        return lying_bid_grows(peek(state, loc), seat, mine, group)
    found = identity(state, loc, seat, purpose, group)
    return found is None or bool(found)


def lying_bid_grows(found: Place, seat: int, mine: Bid, group: kp.Group) -> bool:
    """Whether a seat's lying counter-bid (summer boat 4a) may take this group: the whole must still count as one
    colour, one the other standing workers cannot be (reference §9.4, F-26, F-30)."""
    colours = kp.can_be(kp.merged(mine.keyples(), group))
    others = Place({s: b for s, b in found.bids.items() if s != seat}, found.uses)
    rest = place_identity(others)
    return bool(colours) and (rest is None or bool(colours - rest))


def colour_of(state: KfState, loc: str) -> str | None:
    """The one colour the location's workers have (None while none is there or while it is still open)."""
    found = identity(state, loc)
    return next(iter(found)) if found is not None and len(found) == 1 else None


def closed(state: KfState, loc: str) -> bool:
    """Whether the ghost (Key Celeste) is winning this tile: no more bids or uses there (F-40)."""
    return peek(state, loc).ghost is not None


GHOST_WINS = 99  # the ghost always wins its tile (Key Celeste)


def highest(state: KfState, loc: str) -> tuple[int, int] | None:
    """(seat, count) of the winning bid, None when nobody bid; a ghost wins for the seat whose bid it replaced."""
    found = peek(state, loc)
    if found.ghost is not None:
        return found.ghost, GHOST_WINS
    bids = [(s, b.count) for s, b in found.bids.items() if b.count]
    return max(bids, key=lambda item: item[1]) if bids else None


def bid_of(state: KfState, loc: str, seat: int) -> tuple[str, int] | None:
    """(label, count) of a seat's bid at a location (the label is its colour, or 'blue/yellow' with Sven)."""
    found = peek(state, loc).bids.get(seat)
    return (found.label, found.count) if found and found.count else None


def winning(state: KfState, loc: str, seat: int) -> bool:
    """Whether the seat's bid is the highest here."""
    top = highest(state, loc)
    return top is not None and top[0] == seat


def used(state: KfState, loc: str) -> int:
    """Workers placed on a tile to use it this season."""
    return sum(u.count for u in peek(state, loc).uses)


def next_use_minimum(state: KfState, loc: str) -> int:
    """The fewest workers the next use needs: one, then one more than the last use (reference §5)."""
    uses = peek(state, loc).uses
    return uses[-1].count + 1 if uses else 1


def order_loc(number: int) -> str:
    """The location name of a turn-order tile."""
    return f"order-{number}"
