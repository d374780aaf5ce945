"""The search for a player's best allocation (engine.keyflower.scoring explains how it works): the groups of items
and their set tiles, each choice a group may make, and the branch and bound over the numbers of sets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import product

from engine.keyflower.holdings import (
    GOLD,
    GOLD_POINTS,
    PAIRS,
    POINTS,
    PURPLE,
    RESOURCES,
    SET_OF_FIVE,
    SKILLS,
    WHITE_WIND,
    WHITE_WIND_POINTS,
    WILDS,
    WINTER,
    WORKERS,
    Holdings,
    Storage,
)


@dataclass(frozen=True)
class _Pile:
    """Identical items: a kind, how many, where they come from, and their best single value under one choice."""

    kind: str
    count: int
    origin: str  # "" loose, a storage tile's name, or PURPLE
    value: int
    where: str  # the label giving that value ("" when none)


@dataclass(frozen=True)
class Group:
    """A group of items and its set tiles."""

    kinds: tuple[str, ...]
    triple: tuple[frozenset[str], ...]  # the three slots of the three-item tile; () when not owned
    triple_value: int
    triple_label: str
    five_value: int  # 0 when the five-item tile is not owned
    five_label: str
    prefilled: tuple[tuple[int, str], ...] = ()  # wild keyples already in the first three-item set: (slot, wild)


@dataclass(frozen=True)
class Plan:
    """The best plan found for one group."""

    points: int
    choice: str
    piles: tuple[_Pile, ...]
    sets3: int
    sets5: int
    taken: tuple[int, ...]  # per pile, how many go to the set tiles
    group: Group
    placed: tuple[tuple[str, str, int], ...]  # wild keyples fixed on a single-value tile: (wild, label, points)


@dataclass(frozen=True)
class _Choice:
    """One choice of a group: its name, its piles, its set tiles and the wild keyples it fixes on a tile."""

    name: str  # the Village hall colour, Scholar skill type or Watermill resource type ("" when none)
    piles: tuple[_Pile, ...]
    group: Group
    placed: tuple[tuple[str, str, int], ...] = ()  # (wild, label, points)


@cache
def _masks(group: Group) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Per kind subset (bitmask): triple slots taking one of its kinds; per kind: its subsets; per subset: prefilled."""
    n = len(group.kinds)

    def meets(accept: frozenset[str], s: int) -> bool:
        return any(group.kinds[i] in accept for i in range(n) if s >> i & 1)

    slots = tuple(sum(1 for accept in group.triple if meets(accept, s)) for s in range(1 << n))
    holding = tuple(tuple(s for s in range(1, 1 << n) if s >> k & 1) for k in range(n))
    deficit = tuple(sum(1 for j, _ in group.prefilled if meets(group.triple[j], s)) for s in range(1 << n))
    return slots, holding, deficit


def _fill(group: Group, piles: Sequence[_Pile], order: Sequence[int], m: int, w: int) -> tuple[int, ...] | None:
    """The cheapest items filling m three-item sets (bar prefilled slots) and w five-item sets, per pile; or None."""
    slots, holding, deficit = _masks(group)
    index = {k: i for i, k in enumerate(group.kinds)}
    used = [0] * len(slots)
    need, got = 3 * m + SET_OF_FIVE * w - len(group.prefilled), 0
    taken = [0] * len(piles)
    for i in order:
        if got == need:
            break
        masks = holding[index[piles[i].kind]]
        room = min(slots[s] * m - deficit[s] + SET_OF_FIVE * w - used[s] for s in masks)  # Hall's condition
        x = min(piles[i].count, room)
        if x > 0:
            taken[i] = x
            got += x
            for s in masks:
                used[s] += x
    return tuple(taken) if got == need else None


def _best_sets(group: Group, piles: Sequence[_Pile], floor: int) -> tuple[int, int, int, tuple[int, ...]] | None:
    """(points, m, w, taken) of the best plan scoring more than floor, or None: branch and bound over (m, w)."""
    pre = len(group.prefilled)  # wild keyples placed in the guild: at least one set, or they would not score there
    total = sum(p.count for p in piles)
    single = sum(p.value * p.count for p in piles)
    order = sorted(range(len(piles)), key=lambda i: (piles[i].value, piles[i].origin != PURPLE))
    cheapest = [0]
    for i in order:
        for _ in range(piles[i].count):
            cheapest.append(cheapest[-1] + piles[i].value)
    most3 = min([(total + pre) // 3] + [sum(p.count for p in piles if p.kind in accept)
                                        + sum(1 for k, _ in group.prefilled if k == j)
                                        for j, accept in enumerate(group.triple)]) if group.triple else 0
    most5 = total // SET_OF_FIVE if group.five_value else 0
    bounds = sorted(((single + group.triple_value * m + group.five_value * w - cheapest[3 * m + SET_OF_FIVE * w - pre],
                      m, w)
                     for m in range(1 if pre else 0, most3 + 1)
                     for w in range(min(most5, (total + pre - 3 * m) // SET_OF_FIVE) + 1)),

                    key=lambda b: (-b[0], b[1], b[2]))
    best: tuple[int, int, int, tuple[int, ...]] | None = None
    for bound, m, w in bounds:
        if bound <= floor:
            break
        taken = _fill(group, piles, order, m, w)
        if taken is None:
            continue
        points = single + group.triple_value * m + group.five_value * w - sum(
            piles[i].value * n for i, n in enumerate(taken))
        if points > floor:
            floor, best = points, (points, m, w, taken)
    return best


def solve(choices: Iterable[_Choice], floor: int) -> Plan | None:
    """The best plan over a group's choices scoring more than floor, or None."""
    best: Plan | None = None
    for choice in choices:
        bonus = sum(points for _, _, points in choice.placed)
        found = _best_sets(choice.group, choice.piles, floor - bonus)
        if found is not None:
            points, m, w, taken = found
            floor = points + bonus
            best = Plan(floor, choice.name, choice.piles, m, w, taken, choice.group, choice.placed)
    return best


def _best_of(options: Sequence[tuple[int, str]]) -> tuple[int, str]:
    """The highest (value, label), the first one on a tie; (0, '') when nothing scores."""
    best = (0, "")
    for value, label in options:
        if value > best[0]:
            best = (value, label)
    return best


def _pile(kind: str, count: int, origin: str, options: Sequence[tuple[int, str]]) -> _Pile:
    """A pile with its best single value."""
    value, where = _best_of(options)
    return _Pile(kind, count, origin, value, where)


def _worker_group(owned: set[str], spots: Mapping[str, str], loose: tuple[str, ...]) -> Group:
    """The worker group for these wild spots: a wild in the guild prefills a slot and opens its slots to its pair."""
    guild = "craftsmens-guild"
    triple: tuple[frozenset[str], ...] = ()
    if guild in owned:
        red = frozenset({"red", "green"}) if spots["paulo"] == guild else frozenset({"red"})
        sides = (frozenset({"blue", "yellow"}),) * 2 if spots["sven"] == guild else \
            (frozenset({"blue"}), frozenset({"yellow"}))
        triple = (sides[0], red, sides[1])
    prefilled = tuple((j, w) for j, w in ((0, "sven"), (1, "paulo")) if spots[w] == guild)
    return Group(WORKERS + loose, triple, POINTS[guild], WINTER[guild], POINTS["apothecary"] if "apothecary" in owned
                 else 0,
                  WINTER["apothecary"], prefilled)


def _wild_spots(h: Holdings) -> list[dict[str, str]]:
    """Every placement of the wild keyples worth trying: per wild, '' (a plain worker) or the tile it reads on."""
    owned = set(h.winter)
    spots = {w: [""] + [k for k in ("craftsmens-guild", "village-hall", "key-market") if k in owned
                        and (k != "key-market" or w == "paulo")] if h.workers.get(w) else [""] for w in WILDS}
    return [{"sven": sven, "paulo": paulo} for sven, paulo in product(spots["sven"], spots["paulo"])
            if not sven == paulo == "village-hall"]  # one colour is chosen: one wild at most reads on the hall


def _worker_choices(h: Holdings, extra: str | None) -> list[_Choice]:
    """Workers under each placement of the wild keyples and each Village hall colour worth trying."""
    owned = set(h.winter)
    counts = Counter({c: n for c, n in h.workers.items() if n})
    present = [c for c in WORKERS if counts[c] or c == extra]
    out = []
    for spots in _wild_spots(h):
        loose = tuple(w for w in WILDS if counts[w] and not spots[w])
        at_hall = next((w for w in WILDS if spots[w] == "village-hall"), "")
        market = spots["paulo"] == "key-market"  # reds with Paulo there score as green
        group = _worker_group(owned, spots, loose)
        placed = tuple((w, WINTER[spots[w]], POINTS[spots[w]]) for w in WILDS
                       if spots[w] in ("village-hall", "key-market"))
        colours = ([PAIRS[at_hall][0]] if at_hall else (present or ["blue"])) if "village-hall" in owned else [""]
        as_green = {"green", "red"} if market else {"green"}
        for choice in colours:
            on_hall = set(PAIRS[at_hall]) if at_hall else {choice}

            def options(colour: str, on_hall: set[str] = on_hall, as_green: set[str] = as_green
                        ) -> list[tuple[int, str]]:
                return [(POINTS["key-market"] if "key-market" in owned and colour in as_green else 0,
                         WINTER["key-market"]),
                        (POINTS["village-hall"] if colour in on_hall else 0, WINTER["village-hall"]),
                        (WHITE_WIND_POINTS if h.white_wind else 0, WHITE_WIND)]
            piles = [_pile(c, counts[c], "", options(c)) for c in WORKERS if counts[c]]
            piles += [_pile(w, 1, "", [(WHITE_WIND_POINTS if h.white_wind else 0, WHITE_WIND)]) for w in loose]
            if extra:
                piles.append(_pile(extra, 1, PURPLE, options(extra)))
            out.append(_Choice(choice, tuple(piles), group, placed))
    return out


def _skill_choices(h: Holdings, extra: str | None) -> list[tuple[str, list[_Pile]]]:
    """Skills under each Scholar type worth trying."""
    counts = Counter({s: n for s, n in h.skills.items() if n})
    present = [s for s in SKILLS if counts[s] or s == extra]
    types = (present or ["anvil"]) if "scholar" in h.winter else [""]
    out = []
    for choice in types:
        piles = [_pile(s, counts[s], "", [(POINTS["scholar"] if s == choice else 0, WINTER["scholar"])])
                 for s in SKILLS if counts[s]]
        if extra:
            piles.append(_pile(extra, 1, PURPLE, [(POINTS["scholar"] if extra == choice else 0, WINTER["scholar"])]))
        out.append((choice, piles))
    return out


def _accepts(tile: Storage, kind: str, wild: bool, moved: bool) -> bool:
    """Whether a resource of this kind on this tile scores there (gold stands in only if moved there in play)."""
    return tile.kind in ("any", kind) or wild or (kind == "gold" and moved)


def _resource_choices(h: Holdings, extra: tuple[str, Storage | None] | None) -> list[tuple[str, list[_Pile]]]:
    """Resources (loose, stored, the start-player keyple) under each Watermill type worth trying."""
    owned, wild = set(h.winter), h.any_resource
    kinds = Counter({r: n for r, n in h.resources.items() if n})
    for tile in h.storage:
        kinds.update({r: n for r, n in tile.held.items() if n})
    if extra:
        kinds[extra[0]] += 1
    present = [r for r in RESOURCES[1:] if kinds[r]]
    types = ((present or ["iron"])[:1 if wild else 3]) if "watermill" in owned else [""]
    out = []
    for choice in types:
        def options(kind: str, tile: Storage | None, moved: bool, choice: str = choice) -> list[tuple[int, str]]:
            found = [(tile.per, tile.name)] if tile and _accepts(tile, kind, wild, moved) else []
            as_gold = kind == "gold" or wild
            return found + [(POINTS["jeweller"] if as_gold and "jeweller" in owned else 0, WINTER["jeweller"]),
                            (POINTS["watermill"] if choice and (kind == choice or wild) else 0, WINTER["watermill"]),
                            (GOLD_POINTS if as_gold else 0, GOLD)]
        piles = [_pile(r, h.resources[r], "", options(r, None, False)) for r in RESOURCES if h.resources.get(r)]
        for tile in h.storage:
            piles += [_pile(r, tile.held[r], tile.name, options(r, tile, True)) for r in RESOURCES
                      if tile.held.get(r)]
        if extra:
            piles.append(_pile(extra[0], 1, PURPLE, options(extra[0], extra[1], False)))
        out.append((choice, piles))
    return out


def groups_of(h: Holdings) -> tuple[Group, Group, Group]:
    """The worker (wild keyples aside), skill and resource groups with the set tiles this player owns."""
    owned = set(h.winter)

    def has(key: str) -> int:
        return POINTS[key] if key in owned else 0

    any_res = frozenset(RESOURCES)
    mercer = tuple(any_res if h.any_resource else frozenset({r, "gold"}) for r in RESOURCES[1:])
    return (
        _worker_group(owned, {w: "" for w in WILDS}, ()),
        Group(SKILLS, tuple(frozenset({s}) for s in SKILLS) if "scribes" in owned else (), POINTS["scribes"],
              WINTER["scribes"], has("key-guild"), WINTER["key-guild"]),
        Group(RESOURCES, mercer if "mercers-guild" in owned else (), POINTS["mercers-guild"], WINTER["mercers-guild"],
              has("windmill"), WINTER["windmill"]),
    )


# --- the search over the start-player keyple --------------------------------------------------------------------


def purple_options(h: Holdings) -> list[tuple[int, str, str | tuple[str, Storage | None]]]:
    """What the start-player keyple may stand for: (group, words, extra item)."""
    out: list[tuple[int, str, str | tuple[str, Storage | None]]] = []
    out += [(0, f"one {c} worker", c) for c in WORKERS]
    out += [(1, f"one {s}", s) for s in SKILLS]
    for r in RESOURCES:
        tiles = [t for t in h.storage if _accepts(t, r, h.any_resource, True)]
        tile = max(tiles, key=lambda t: t.per) if tiles else None
        out.append((2, f"one {r}", (r, tile)))
    return out


def choices(h: Holdings, groups: Sequence[Group], index: int, extra: str | tuple[str, Storage | None] | None
             ) -> list[_Choice]:
    """The choices of one group, with the start-player keyple's extra item if it is in this group."""
    if index == 0:
        return _worker_choices(h, extra if isinstance(extra, str) else None)
    found = _skill_choices(h, extra if isinstance(extra, str) else None) if index == 1 else \
        _resource_choices(h, extra if isinstance(extra, tuple) else None)
    return [_Choice(name, tuple(piles), groups[index]) for name, piles in found]
