"""A turn in a season: bid, move an outbid group, use a tile, or pass (reference §3.2, §4, §5, §6).

Every choice is a small step: `bid alehouse red` then `count 2`; `use keywood blue` then `count 1`, then what
the tile's use asks for (`pay saw`, `take wood`, `carry wood home-3 keywood`, `upgrade keywood`, `done`).
"""

from __future__ import annotations

from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act, act
from engine.keyflower.components import Face
from engine.keyflower.flow import HOME, tile
from engine.keyflower.state import Json, KfState

PRODUCING = ("produce", "transport")


def biddable(state: KfState) -> list[str]:
    """Locations that take bids: the season's tiles up for auction and the turn-order tiles in use."""
    return list(state.auction) + [pl.order_loc(n) for n in state.order_tiles]


def owner_of(state: KfState, loc: str) -> tuple[int, str] | None:
    """(seat, position) of a village tile; None for a tile up for auction or a turn-order tile."""
    for seat, village in enumerate(state.villages):
        for pos, placed in village.items():
            if placed["tile"] == loc:
                return seat, pos
    return None


def face_of(state: KfState, loc: str) -> Face | None:
    """The face a location's tile shows now (None for a turn-order tile)."""
    if loc.startswith("order-"):
        return None
    found = owner_of(state, loc)
    upgraded = found is not None and state.villages[found[0]][found[1]]["up"]
    t = tile(loc)
    return t.back if upgraded and t.back is not None else t.front


def usable(state: KfState) -> list[str]:
    """Tiles that may be used this season: every village tile and the tiles up for auction that produce or
    transport (never winter tiles, summer boats, storage or points-only tiles; reference §5)."""
    found = [p["tile"] for village in state.villages for p in village.values()] + list(state.auction)
    return [loc for loc in found if (face := face_of(state, loc)) is not None and face.kind in PRODUCING
            and tile(loc).kind not in ("winter", "summerboat")]


def colours_for(state: KfState, seat: int, loc: str, purpose: str) -> list[str]:
    """Colours of the seat's screen that may go to this location as a bid or a use: its colour, or any while it
    has none; summer boat 4a lets a counter-bid break the colour (not against green), 4b a use."""
    return [c for c in sup.WORKER_COLOURS if state.workers[seat].get(c, 0) and colour_fits(state, seat, loc, c,
                                                                                          purpose)]


def colour_fits(state: KfState, seat: int, loc: str, colour: str, purpose: str) -> bool:
    """Whether workers of this colour may join the location as a bid or a use (reference §4, §9.4)."""
    mine = pl.bid_of(state, loc, seat) if purpose == "bid" else None
    if mine is not None:
        return mine[0] == colour
    current = pl.colour_of(state, loc)
    if current in (None, colour):
        return True
    powers = tr.powers(state, seat)
    if purpose == "bid":  # 4a: a counter-bid against another's standing bid on a season tile, not against green
        others = [b for s, b in pl.peek(state, loc)["bids"].items() if int(s) != seat and b[1] and not pl.flat(b, 2)]
        return "4a" in powers and current != "green" and bool(others) and not loc.startswith("order-")
    return "4b" in powers


def bid_needed(state: KfState, seat: int, loc: str) -> int:
    """Workers a seat must add to its bid here for it to be a legal bid: beating the best other bid strictly."""
    others = [b[1] for s, b in pl.peek(state, loc)["bids"].items() if int(s) != seat]
    mine = pl.bid_of(state, loc, seat)
    return max(1, max(others, default=0) + 1 - (mine[1] if mine else 0))


def can_pay(state: KfState, seat: int, face: Face, colour: str, count: int) -> bool:
    """Whether the seat can make a use's extra payment (workers into the bag, skills) besides the count."""
    screen, skills = state.workers[seat], state.skills[seat]
    for key, k in face.pay.items():
        if key in sup.WORKER_COLOURS and screen.get(key, 0) - (count if key == colour else 0) < k:
            return False
        if key == "any" and sum(screen.values()) - count < k:
            return False
        if key in sup.SKILLS and skills.get(key, 0) < k:
            return False
        if key == "skill" and sum(skills.values()) < k:
            return False
    return True


def turn_actions(state: KfState, seat: int) -> list[Act]:
    """Every action of a turn (reference §3.2): bids, moves of an outbid group, uses, pass."""
    found = []
    screen = state.workers[seat]
    for loc in biddable(state):
        need = bid_needed(state, seat, loc)
        found += [act("bid", loc, c) for c in colours_for(state, seat, loc, "bid") if screen[c] >= need]
    found += _moves(state, seat)
    for loc in usable(state):
        need = pl.next_use_minimum(state, loc)
        face = face_of(state, loc)
        assert face is not None
        if pl.used(state, loc) + need > pl.MAX_WORKERS:
            continue
        found += [act("use", loc, c) for c in colours_for(state, seat, loc, "use")
                  if screen[c] >= need and can_pay(state, seat, face, c, need)]
        if mixed_use_allowed(state, seat, loc, need, face):
            found.append(act("use", loc, "mixed"))
    return found + [act("pass")]


def mixed_use_allowed(state: KfState, seat: int, loc: str, need: int, face: Face) -> bool:
    """Summer boat 4b: on a tile already bid on or used, a use may mix colours (reference §9.4, F-26)."""
    screen = state.workers[seat]
    spare = sum(screen.values()) - sum(k for key, k in face.pay.items() if key in (*sup.WORKER_COLOURS, "any"))
    return ("4b" in tr.powers(state, seat) and pl.colour_of(state, loc) is not None
            and sum(1 for c in sup.WORKER_COLOURS if screen.get(c)) >= 2 and spare >= need
            and can_pay(state, seat, face, "", 0))


def losing_bids(state: KfState, seat: int) -> list[str]:
    """Locations where the seat has a bid that is not winning."""
    return [loc for loc in biddable(state) if pl.bid_of(state, loc, seat) and not pl.winning(state, loc, seat)]


def _moves(state: KfState, seat: int) -> list[Act]:
    """An outbid group moved whole to bid or use elsewhere (reference §4), topped up from the screen if needed."""
    found = []
    for source in losing_bids(state, seat):
        bid = pl.bid_of(state, source, seat)
        assert bid is not None
        colour, n = bid
        groups = {other: b[1] for other in losing_bids(state, seat) if other != source
                  for b in [pl.bid_of(state, other, seat)] if b and b[0] == colour}

        def spare(target: str, colour: str = colour, groups: dict[str, int] = groups) -> int:
            """The screen, and the other losing groups of the colour that could be carried along to target."""
            return state.workers[seat].get(colour, 0) + sum(k for g, k in groups.items() if g != target)

        for loc in biddable(state):
            if loc != source and colour_fits(state, seat, loc, colour, "bid") \
                    and spare(loc) >= max(0, bid_needed(state, seat, loc) - n):
                found.append(act("move", source, "bid", loc))
        for loc in usable(state):
            face = face_of(state, loc)
            if loc == source or face is None or not colour_fits(state, seat, loc, colour, "use"):
                continue
            top_up = max(0, pl.next_use_minimum(state, loc) - n)
            if pl.used(state, loc) + n + top_up <= pl.MAX_WORKERS and spare(loc) >= top_up \
                    and can_pay(state, seat, face, colour, top_up):
                found.append(act("move", source, "use", loc))
    return found


def mix_actions(state: KfState, pending: Json) -> list[Act]:
    """The steps of a mixed use: one worker of any colour at a time, then `done` once there are enough."""
    seat, loc = pending["seat"], pending["loc"]
    added = sum(pending["added"].values())
    room = pl.MAX_WORKERS - pl.used(state, loc) - added
    face = face_of(state, loc)
    assert face is not None
    screen = state.workers[seat]
    keep_any = face.pay.get("any", 0)  # the tile's extra payment must stay payable after the workers added
    found = [act("add", c) for c in sup.WORKER_COLOURS if room > 0 and screen.get(c, 0) > face.pay.get(c, 0)
             and sum(screen.values()) - 1 >= keep_any + sum(face.pay.get(k, 0) for k in sup.WORKER_COLOURS)]
    return found + ([act("done")] if added >= pl.next_use_minimum(state, loc) else [])


def joinable(state: KfState, pending: Json) -> list[Act]:
    """Other losing groups of the moved group's colour that may be carried along with it (reference §4)."""
    if "from" not in pending:
        return []
    taken = {pending["from"], *pending.get("joined", []), pending["loc"]}
    room = pl.MAX_WORKERS - pl.used(state, pending["loc"]) - pending["carried"] if pending["what"] == "use" else 99
    return [act("join", other) for other in losing_bids(state, pending["seat"]) if other not in taken
            and (b := pl.bid_of(state, other, pending["seat"])) and b[0] == pending["colour"] and b[1] <= room]


def count_range(state: KfState, pending: Json) -> range:
    """The counts a `count` step allows."""
    seat, loc, colour = pending["seat"], pending["loc"], pending["colour"]
    screen = state.workers[seat].get(colour, 0)
    carried = pending.get("carried", 0)
    if pending["what"] == "bid":
        low = max(0, bid_needed(state, seat, loc) - carried) if carried else bid_needed(state, seat, loc)
        return range(low, screen + 1)
    low = max(0, pl.next_use_minimum(state, loc) - carried)
    face = face_of(state, loc)
    assert face is not None
    if not can_pay(state, seat, face, colour, low):
        return range(0)
    keep = face.pay.get(colour, 0)  # an extra worker of this colour is paid on top of the count
    keep_any = face.pay.get("any", 0)
    total = sum(state.workers[seat].values())
    high = min(screen - keep, total - keep_any, pl.MAX_WORKERS - pl.used(state, loc) - carried)
    return range(low, high + 1) if low <= high else range(0)


def output_place(state: KfState, seat: int, loc: str) -> str:
    """Where a use's resources go: on the tile in one's own village, else on one's home tile (reference §5)."""
    found = owner_of(state, loc)
    if found is not None and found[0] == seat:
        return found[1]
    return HOME
