"""A turn in a season: bid, move an outbid group, use a tile, or pass (reference §3.2, §4, §5, §6).

Every choice is a small step: `bid alehouse red` then `count 2`; `use keywood blue` then `count 1`, then what
the tile's use asks for (`pay saw`, `take wood`, `carry wood home-3 keywood`, `upgrade keywood`, `done`).
"""

from __future__ import annotations

from engine.keyflower import celeste
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act, act
from engine.keyflower.components import Face
from engine.keyflower.flow import HOME
from engine.keyflower.pieces import ORDER, is_tile, shown_face, tile, usable_face
from engine.keyflower.state import CountStep, GroupStep, KfState, MixStep


def biddable(state: KfState) -> list[str]:
    """Locations that take bids: the season's tiles up for auction, the turn-order tiles in use, Key Celeste."""
    found = list(state.auction) + [pl.order_loc(n) for n in state.order_tiles]
    return found + [celeste.LOC] if celeste.on_table(state) else found


def open_to_bids(state: KfState) -> list[str]:
    """Biddable locations where bids may still go (not a tile the ghost is winning)."""
    found = biddable(state)
    return [loc for loc in found if not pl.closed(state, loc)] if state.ghost_at else found


def owner_of(state: KfState, loc: str) -> tuple[int, str] | None:
    """(seat, position) of a village tile; None for a tile up for auction or a turn-order tile."""
    for seat, village in enumerate(state.villages):
        for pos, placed in village.items():
            if placed.tile == loc:
                return seat, pos
    return None


def face_of(state: KfState, loc: str) -> Face | None:
    """The face a location's tile shows now (None for a turn-order tile)."""
    if loc.startswith(ORDER):
        return None
    found = owner_of(state, loc)
    return shown_face(tile(loc), found is not None and state.villages[found[0]][found[1]].up)


def usable(state: KfState) -> list[str]:
    """Tiles that may be used this season: every village tile and the tiles up for auction that produce or
    transport (never winter tiles, summer boats, storage or points-only tiles; reference §5)."""
    return list(usable_faces(state))


def usable_faces(state: KfState) -> dict[str, Face]:
    """usable(), each tile with the face it shows."""
    shown = [(p.tile, p.up) for village in state.villages for p in village.values()]
    found = {}
    for loc, up in shown + [(loc, False) for loc in state.auction]:
        if is_tile(loc) and usable_face(tile(loc), up) and not (state.ghost_at and pl.closed(state, loc)):
            found[loc] = shown_face(tile(loc), up)
    return found


def colours_for(state: KfState, seat: int, loc: str, purpose: str, plain: bool = False,
                seen: dict[str, frozenset[str] | None] | None = None) -> list[str]:
    """Colours of the seat's screen that may go to this location as a bid or a use: its colour, or any while it
    has none; summer boat 4a lets a counter-bid break the colour (not against green), 4b a use. plain: the caller
    knows that no group here holds Sven or Paulo; seen: where the tile's colours found on the way are kept."""
    held = [c for c in kp.COLOURS if state.workers[seat].get(c, 0)]
    place = pl.peek(state, loc)
    if held and not plain and place.wild:
        return _colours_for_mixed(state, seat, loc, purpose, held)
    if not held:
        return held
    mine = pl.own_bid(state, loc, seat, purpose)
    if mine is not None:  # the quick path of colour_fits, where every group is one plain colour
        return [c for c in held if c == mine.label]
    current = pl.place_identity(place, plain=True)
    if seen is not None:
        seen[loc] = current
    fitting = held if current is None else [c for c in held if c in current]
    if len(fitting) == len(held) or not _may_break(state, seat, loc, purpose, current or frozenset()):
        return fitting
    return held


def _colours_for_mixed(state: KfState, seat: int, loc: str, purpose: str, held: list[str]) -> list[str]:
    """colours_for where Sven or Paulo stands: a new use of one colour is with him when it is of his pair, so it
    fits when that reading meets the tile's colours; a bid joining one's own goes the long way (colour_fits)."""
    if pl.own_bid(state, loc, seat, purpose) is not None:
        return [c for c in held if colour_fits(state, seat, loc, c, purpose)]
    current = pl.identity(state, loc)
    if current is None:
        return held
    here = _wilds_used(state, loc) if purpose == "use" else set()
    fitting = [c for c in held if not kp.can_be({c: 1}, here).isdisjoint(current)]
    if len(fitting) == len(held) or not _may_break(state, seat, loc, purpose, current):
        return fitting
    return held


def colour_fits(state: KfState, seat: int, loc: str, colour: str, purpose: str) -> bool:
    """Whether workers of this colour may join the location as a bid or a use (reference §4, §9.4, F-29)."""
    return placeable(state, seat, loc, {colour: 1}, purpose)


def placeable(state: KfState, seat: int, loc: str, group: kp.Group, purpose: str) -> bool:
    """Whether the seat may put this group here as a bid or a use: standing, fitting the tile's colours, or laid
    flat by summer boat 4a or 4b (reference §4, §9.4, F-29, F-30)."""
    return pl.group_fits(state, seat, loc, group, purpose) or may_lie_group(state, seat, loc, group, purpose)


def may_lie_group(state: KfState, seat: int, loc: str, group: kp.Group, purpose: str) -> bool:
    """Whether a group that does not fit the tile's colours may go there laid flat: as summer boat 4b's use of a
    tile already bid on or used (any keyples, Sven and Paulo among them), or as 4a's counter-bid, which must count
    as one colour that the standing workers cannot be (reference §9.4, F-26, F-30)."""
    if purpose == "use":
        return may_lie(state, seat, loc)
    if pl.bid_of(state, loc, seat) is not None:
        return False  # one's own bid grows standing, or as a lying bid may (places.group_fits)
    current = pl.identity(state, loc) or frozenset()
    return _may_break(state, seat, loc, purpose, current) and bool(kp.can_be(group) - current)


def _may_break(state: KfState, seat: int, loc: str, purpose: str, current: frozenset[str]) -> bool:
    """Summer boats 4a (a counter-bid against another's standing bid on a season tile, not against green) and 4b
    (a use) let workers break the tile's colour (reference §9.4, F-26)."""
    powers = tr.powers(state, seat)
    if purpose == "bid":
        others = [b for s, b in pl.peek(state, loc).bids.items() if s != seat and b.count and not b.flat]
        return "4a" in powers and "green" not in current and bool(others) and loc in state.auction
    return "4b" in powers


def may_lie(state: KfState, seat: int, loc: str) -> bool:
    """Summer boat 4b: a use may break the colour of a tile already bid on or used this season (F-26)."""
    return "4b" in tr.powers(state, seat) and pl.identity(state, loc) is not None


def bid_needed(state: KfState, seat: int, loc: str) -> int:
    """Workers a seat must add to its bid here for it to be a legal bid: beating the best other bid strictly."""
    others = [b.count for s, b in pl.peek(state, loc).bids.items() if s != seat]
    mine = pl.bid_of(state, loc, seat)
    return max(1, max(others, default=0) + 1 - (mine[1] if mine else 0))


def can_pay(state: KfState, seat: int, face: Face, group: kp.Group) -> bool:
    """Whether the seat can still make a use's extra payment (workers into the bag, skills) once the group has left
    its screen; a wild keyple may pay for a colour of its pair (F-31)."""
    screen = state.workers[seat]
    skills = state.skills[seat]
    for key, k in face.pay.items():
        if key in kp.COLOURS:
            wild = kp.PAIR_OF[key]
            have = screen.get(key, 0) - group.get(key, 0) + screen.get(wild, 0) - group.get(wild, 0)
        elif key == "any":
            have = sum(screen.values()) - sum(group.values())
        else:
            have = skills.get(key, 0) if key in sup.SKILLS else sum(skills.values())
        if have < k:
            return False
    return True


def needed(state: KfState, seat: int, loc: str, what: str) -> int:
    """The fewest workers a bid (on top of one's own) or a use must add here."""
    return bid_needed(state, seat, loc) if what == "bid" else pl.next_use_minimum(state, loc)


def can_finish(state: KfState, seat: int, loc: str, what: str, group: kp.Group, colours: tuple[str, ...],
               on_screen: kp.Group | None = None, need: int | None = None, face: Face | None = None) -> bool:
    """Whether a group started here (on_screen: the part of it still behind the screen) can be made big enough by
    adding workers of these colours from the screen, within the six and with the use's payment still possible
    (need, face: needed() and the tile's face when the caller has them)."""
    short = max(0, (needed(state, seat, loc, what) if need is None else need) - kp.size(group))
    face = (face or face_of(state, loc)) if what == "use" else None
    if what == "use" and pl.used(state, loc) + kp.size(group) + short > pl.MAX_WORKERS:
        return False
    screen = state.workers[seat]
    first, *rest = colours
    second = rest[0] if rest else ""
    splits = [{first: a, second: short - a} if second else {first: a} for a in range(short + 1)
              if a <= screen.get(first, 0) and (short - a <= screen.get(second, 0) if second else a == short)]
    return any(face is None or can_pay(state, seat, face, kp.merged(split, on_screen or {})) for split in splits)


def turn_actions(state: KfState, seat: int) -> list[Act]:
    """Every action of a turn (reference §3.2): bids, moves of an outbid group, uses, the ghost, pass."""
    found = []
    screen = state.workers[seat]
    wild_game = bool(state.options.keymelequin)  # Sven and Paulo exist only with the Keymelequin
    mixed = {loc for loc, p in state.places.items() if p.wild}
    wilds = [w for w in kp.WILD if screen.get(w)] if wild_game else []
    faces = usable_faces(state)
    has_4b = "4b" in tr.powers(state, seat)
    seen: dict[str, frozenset[str] | None] = {}  # a tile's colours, once found (plain tiles; for Sven's starts)
    for loc in open_to_bids(state):
        need = bid_needed(state, seat, loc)
        plain = loc not in mixed
        found += [act("bid", loc, c) for c in colours_for(state, seat, loc, "bid", plain, seen) if screen[c] >= need]
        if wilds:
            found += _wild_starts(state, seat, loc, "bid", wilds, need, seen=seen)
        if not plain and _pair_mix(state, seat, loc, "bid"):
            found.append(act("bid", loc, "mixed"))
    found += _moves(state, seat, faces)
    for loc, face in faces.items():
        need = pl.next_use_minimum(state, loc)
        if pl.used(state, loc) + need > pl.MAX_WORKERS:
            continue
        plain = loc not in mixed
        found += [act("use", loc, c) for c in colours_for(state, seat, loc, "use", plain, seen)
                  if screen[c] >= need and can_pay(state, seat, face, {c: need})]
        if wilds:
            found += _wild_starts(state, seat, loc, "use", wilds, need, face, seen)
        if (has_4b and mixed_use_allowed(state, seat, loc, need, face)) or (
                not plain and _pair_mix(state, seat, loc, "use")):
            found.append(act("use", loc, "mixed"))
    return found + celeste.ghost_actions(state, seat) + [act("pass")]


def _wild_starts(state: KfState, seat: int, loc: str, what: str, wilds: list[str], need: int,
                 face: Face | None = None, seen: dict[str, frozenset[str] | None] | None = None) -> list[Act]:
    """Sven or Paulo (those of `wilds` the seat holds) put into a bid or a use here (`need`: the fewest workers it
    takes), to be joined by workers of his pair, or by any keyples in summer boat 4b's use (module sheet, F-29,
    F-30)."""
    found = []
    screen = state.workers[seat]
    any_kind = what == "use" and face is not None and may_lie(state, seat, loc)  # 4b: any keyples may join him
    for wild in wilds:
        pair = kp.WILD[wild]
        alone = {wild: 1}
        if not _wild_fits(state, seat, loc, what, wild, seen):
            continue
        if any_kind:
            assert face is not None
            if _enough_of_any(state, seat, face, need - 1, alone):
                found.append(act(what, loc, wild))
            continue
        if 1 + screen.get(pair[0], 0) + screen.get(pair[1], 0) < need:
            continue  # too few of his pair to make the bid or the use
        # enough of his pair was checked above, and the room by the caller: a use that pays something must still
        # be able to pay it
        if what == "bid" or (face is not None and not face.pay) or can_finish(
                state, seat, loc, what, alone, pair, alone, need, face):
            found.append(act(what, loc, wild))
    return found


def _wild_fits(state: KfState, seat: int, loc: str, what: str, wild: str,
               seen: dict[str, frozenset[str] | None] | None = None) -> bool:
    """placeable() for Sven or Paulo alone; where every group is one plain colour, they all share it, so he fits
    when it is one of his pair (or nobody stands there), or else lies flat where summer boat 4a or 4b lets him
    (F-30). seen: the tile colours colours_for found."""
    place = pl.peek(state, loc)
    mine = pl.own_bid(state, loc, seat, what)
    if place.wild or (mine is not None and mine.flat):
        return placeable(state, seat, loc, {wild: 1}, what)
    current = seen[loc] if seen is not None and loc in seen else pl.place_identity(place, plain=True)
    return current is None or not current.isdisjoint(kp.WILD[wild]) or may_lie_group(
        state, seat, loc, {wild: 1}, what)


def _pair_mix(state: KfState, seat: int, loc: str, what: str) -> bool:
    """Whether the seat may add both colours of a pair at once: to its own bid holding Sven or Paulo, or as a use
    of a tile where he stands among the uses (F-28)."""
    if what == "bid":
        mine = pl.own_bid(state, loc, seat, what)
        wilds = kp.wilds_in(mine.keyples()) if mine is not None else set()
    else:
        wilds = _wilds_used(state, loc)
    screen = state.workers[seat]
    return any(all(screen.get(c) for c in kp.WILD[w]) and pl.group_fits(state, seat, loc, dict.fromkeys(kp.WILD[w], 1),
                                                                    what)
               and can_finish(state, seat, loc, what, {}, kp.WILD[w]) for w in wilds)


def _wilds_used(state: KfState, loc: str) -> set[str]:
    """The wild keyples used on a tile this season (every use there is with him, F-28)."""
    return {w for u in pl.peek(state, loc).uses for w in kp.wilds_in(u.keyples())}


def _face(state: KfState, loc: str) -> Face:
    """The face of a usable tile."""
    face = face_of(state, loc)
    assert face is not None
    return face


def mixed_use_allowed(state: KfState, seat: int, loc: str, need: int, face: Face) -> bool:
    """Summer boat 4b: on a tile already bid on or used, a use may mix colours (reference §9.4, F-26)."""
    screen = state.workers[seat]
    return (may_lie(state, seat, loc) and sum(1 for k in kp.KINDS if screen.get(k)) >= 2
            and _enough_of_any(state, seat, face, need, {}))


def _enough_of_any(state: KfState, seat: int, face: Face, short: int, on_screen: kp.Group) -> bool:
    """Whether `short` more workers of any kinds can still come from the screen for summer boat 4b's use, besides
    on_screen (the group's keyples not yet taken from it), with the tile's payment still possible."""
    screen = state.workers[seat]
    paid = sum(k for key, k in face.pay.items() if key in (*kp.COLOURS, "any"))
    return sum(screen.values()) - kp.size(on_screen) - paid >= short and can_pay(state, seat, face, on_screen)


def losing_bids(state: KfState, seat: int) -> list[str]:
    """Locations where the seat has a bid that is not winning."""
    return [loc for loc in biddable(state) if pl.bid_of(state, loc, seat) and not pl.winning(state, loc, seat)]


def _moves(state: KfState, seat: int, faces: dict[str, Face]) -> list[Act]:
    """An outbid group moved whole to bid or use elsewhere (reference §4), topped up from the screen if needed;
    faces: the usable tiles (usable_faces)."""
    found: list[Act] = []
    losing = losing_bids(state, seat)
    if not losing:
        return found
    targets = [(loc, "bid") for loc in open_to_bids(state)] + [(loc, "use") for loc in faces]
    for source in losing:
        group = pl.peek(state, source).bids[seat].keyples()
        wilds = kp.wilds_in(group)
        others = {other: b[1] for other in losing if other != source
                  for b in [pl.bid_of(state, other, seat)] if b and {b[0]} == set(group)}
        for loc, what in targets:
            if loc == source:
                continue
            if wilds:  # a group with Sven or Paulo is topped up with his pair's colours (any, under boat 4b)
                if placeable(state, seat, loc, group, what) and _wild_finishes(state, seat, loc, what, group):
                    found.append(act("move", source, what, loc))
            elif _plain_move(state, seat, group, others, loc, what):
                found.append(act("move", source, what, loc))
    return found


def _wild_finishes(state: KfState, seat: int, loc: str, what: str, group: kp.Group) -> bool:
    """Whether a moved group holding Sven or Paulo can be made big enough here: with his pair's colours, or with
    any keyples for summer boat 4b's use (F-29, F-30)."""
    if what == "use" and may_lie(state, seat, loc):
        short = max(0, pl.next_use_minimum(state, loc) - kp.size(group))
        return pl.used(state, loc) + kp.size(group) + short <= pl.MAX_WORKERS and _enough_of_any(
            state, seat, _face(state, loc), short, {})
    return can_finish(state, seat, loc, what, group, kp.WILD[next(iter(kp.wilds_in(group)))])


def _plain_move(state: KfState, seat: int, group: kp.Group, others: dict[str, int], loc: str, what: str) -> bool:
    """Whether a group without a wild keyple may move here, topped up from the screen or other losing groups of
    its colour (`others`: location -> workers)."""
    colour = next(iter(group))
    if len(group) > 1 or not colour_fits(state, seat, loc, colour, what):
        return False
    n = group[colour]
    spare = state.workers[seat].get(colour, 0) + sum(k for other, k in others.items() if other != loc)
    if what == "bid":
        return spare >= max(0, bid_needed(state, seat, loc) - n)
    top_up = max(0, pl.next_use_minimum(state, loc) - n)
    return pl.used(state, loc) + n + top_up <= pl.MAX_WORKERS and spare >= top_up \
        and can_pay(state, seat, _face(state, loc), {colour: top_up})


def mix_group(state: KfState, pending: GroupStep) -> dict[str, int]:
    """The workers of a group being built: those added from the screen and any outbid groups carried along."""
    carried = [pl.peek(state, src).bids[pending.seat].keyples() for src in sources(pending)]
    added = pending.added if isinstance(pending, MixStep) else {}
    return kp.merged(added, *carried)


def sources(pending: GroupStep) -> list[str]:
    """The locations a moved group comes from (none for workers placed from the screen)."""
    return pending.moved.sources() if pending.moved else []


def mix_actions(state: KfState, pending: MixStep) -> list[Act]:
    """The steps of a group built a colour at a time (Sven or Paulo with his pair, or summer boat 4b's mixed use):
    `add KIND` (one) or `add KIND N` while the group still fits the tile (or may lie flat, 4b), then `done` once it
    is enough."""
    seat, loc, what = pending.seat, pending.loc, pending.what
    group = mix_group(state, pending)
    face = face_of(state, loc) if what == "use" else None
    room = pl.MAX_WORKERS - pl.used(state, loc) - kp.size(group) if what == "use" else pl.MAX_WORKERS
    found = []
    wild = next(iter(kp.wilds_in(group)), None)
    any_kind = what == "use" and may_lie(state, seat, loc)  # summer boat 4b: any keyples, Sven and Paulo too
    for kind in kp.KINDS if room > 0 else ():
        if not state.workers[seat].get(kind) or (face is not None and not can_pay(state, seat, face, {kind: 1})):
            continue
        if any_kind:
            fits = True  # off the tile's colour, the use lies flat (F-26, F-30)
        elif wild is not None:  # with Sven in it, the group (which fits) takes his pair's colours and nothing else
            fits = kind in kp.WILD[wild]
        else:
            fits = pl.group_fits(state, seat, loc, kp.merged(group, {kind: 1}), what)
        if fits:
            most = min(state.workers[seat][kind], room)
            while most > 1 and face is not None and not can_pay(state, seat, face, {kind: most}):
                most -= 1
            found += [act("add", kind)] + [act("add", kind, n) for n in range(2, most + 1)]
    found += joinable(state, pending)
    if kp.size(group) >= needed(state, seat, loc, what) and (face is None or can_pay(state, seat, face, {})):
        found.append(act("done"))
    return found


def joinable(state: KfState, pending: GroupStep) -> list[Act]:
    """Other losing groups that may be carried along with the moved group (reference §4): the group they make
    together must still fit the target."""
    if pending.moved is None:
        return []
    seat, loc, what = pending.seat, pending.loc, pending.what
    taken = {*sources(pending), loc}
    group = mix_group(state, pending)
    room = pl.MAX_WORKERS - pl.used(state, loc) - kp.size(group) if what == "use" else 99
    found = []
    for other in losing_bids(state, seat):
        more = pl.peek(state, other).bids[seat].keyples()
        if other not in taken and kp.size(more) <= room and _joins(state, seat, loc, what, group, more, pending):
            found.append(act("join", other))
    return found


def _joins(state: KfState, seat: int, loc: str, what: str, group: kp.Group, more: kp.Group,
           pending: GroupStep) -> bool:
    """Whether another outbid group may join: of the moved group's colour, or fitting the tile together with it."""
    if isinstance(pending, CountStep) and not kp.wilds_in(group) and not kp.wilds_in(more):
        return set(more) == {pending.colour}
    return placeable(state, seat, loc, kp.merged(group, more), what)


def count_range(state: KfState, pending: CountStep) -> range:
    """The counts a `count` step allows."""
    seat, loc, colour = pending.seat, pending.loc, pending.colour
    screen = state.workers[seat].get(colour, 0)
    carried = pending.moved.carried if pending.moved else 0
    if pending.what == "bid":

        low = max(0, bid_needed(state, seat, loc) - carried) if carried else bid_needed(state, seat, loc)
        return range(low, screen + 1)
    low = max(0, pl.next_use_minimum(state, loc) - carried)
    face = _face(state, loc)
    high = min(screen, pl.MAX_WORKERS - pl.used(state, loc) - carried)
    while high >= low and not can_pay(state, seat, face, {colour: high}):
        high -= 1  # an extra worker of this colour is paid on top of the count
    return range(low, high + 1) if low <= high else range(0)


def output_place(state: KfState, seat: int, loc: str) -> str:
    """Where a use's resources go: on the tile in one's own village, else on one's home tile (reference §5)."""
    found = owner_of(state, loc)
    if found is not None and found[0] == seat:
        return found[1]
    return HOME
