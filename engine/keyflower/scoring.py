"""Keyflower end-game scoring: each player's best allocation, found exactly (reference §8, §9.3, §9.4, §9.8).

Every resource, skill and worker scores once, on one tile only, and the player allocates them as they like;
this module finds the allocation that scores most and explains it line by line.

How the search works. Workers, skills and resources never share a scoring tile, so the three groups are solved
apart (the start-player keyple joins one of them: every choice of what it stands for is tried). Within a group:

* one choice is enumerated: the Village hall's colour, the Scholar's skill type or the Watermill's resource;
* once it is made, every item has a *single value*, the best a tile gives it on its own (Key market 2 per green,
  Jeweller 2 per gold, a storage tile's VP, 1 per loose gold, White Wind 1 per worker, ...);
* two tiles score sets: a three-item tile (Craftsmen's guild, Scribes, Mercer's guild: one slot per kind, gold
  fitting every Mercer's slot) and a five-item tile (Apothecary, Key guild, Windmill: any kinds). For m sets
  and w sets the best plan fills those 3m + 5w slots with the cheapest items (least single value lost): the item
  sets that fit the slots form a transversal matroid, so taking items cheapest first, each while it still fits
  (Hall's condition on the kinds), is exact;
* the pairs (m, w) are tried best bound first (set points minus the cheapest 3m + 5w single values, ignoring
  the kinds) and the search stops once no bound beats the best plan found: branch and bound.

Sven and Paulo (the Keymelequin module's wild keyples). Sven counts as blue or yellow, Paulo as green or red, and
keyples of a wild's pair allocated to the same tile as the wild may be read as either colour of the pair. Where a
wild goes is enumerated with the choice: in a Craftsmen's guild set (its slot is filled in advance, at least one
set is scored, and the guild's slots take both colours of its pair), on the Village hall with its pair chosen
(worth 1, and both colours of its pair score 1 there), Paulo on the Key market (worth 2, and reds score 2 there),
or anywhere else, where it is a plain worker that only the Apothecary or White Wind can score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import NamedTuple

WORKERS = ("blue", "red", "yellow", "green")
WILDS = {"sven": "Sven", "paulo": "Paulo"}  # Keymelequin wild keyple (a Holdings.workers key) -> its name
PAIRS = {"sven": ("blue", "yellow"), "paulo": ("green", "red")}  # the colours each wild keyple counts as
SKILLS = ("anvil", "pick", "saw")
RESOURCES = ("gold", "iron", "stone", "wood")
WINTER = {  # winter scoring key -> printed name (§9.8), in the order the lines are shown
    "keythedral": "Keythedral", "apothecary": "Apothecary", "craftsmens-guild": "Craftsmen's guild",
    "key-market": "Key market", "village-hall": "Village hall", "key-guild": "Key guild", "scholar": "Scholar",
    "scribes": "Scribes", "jeweller": "Jeweller", "mercers-guild": "Mercer's guild", "watermill": "Watermill",
    "windmill": "Windmill",
}
BOATS = ("keyflower", "sea-bastion", "sea-breese", "flipper", "ianvincible", "white-wind")
GOLD = "Gold"
WHITE_WIND = "White Wind"
PURPLE = "Start-player keyple"
UNSCORED = "Not scored"


class Line(NamedTuple):
    """One score line: what scores, its points, and what was allocated to it."""

    label: str
    points: int
    detail: str = ""


@dataclass(frozen=True)
class Storage:
    """A storage tile (Barn, Blacksmith, Stone yard, Timber yard) and the resources moved onto it during play."""

    name: str
    kind: str  # "any" or the resource it scores
    per: int  # VP per resource scored on it
    held: Mapping[str, int] = field(default_factory=dict)  # resources moved onto it during play


@dataclass(frozen=True)
class Holdings:
    """What one player's allocation-dependent score rests on."""

    winter: tuple[str, ...] = ()  # winter scoring keys owned (WINTER), each at most once
    storage: tuple[Storage, ...] = ()
    resources: Mapping[str, int] = field(default_factory=dict)  # every resource not on a storage tile
    skills: Mapping[str, int] = field(default_factory=dict)
    workers: Mapping[str, int] = field(default_factory=dict)  # behind the screen + placed in own village in winter;
    # besides the colours, "sven" and "paulo" (0 or 1 each) for the Keymelequin module's wild keyples
    purple: bool = False  # holds the start-player keyple: any one resource, skill or worker
    any_resource: bool = False  # owns summer boat 3b: any resource stands in for any other at scoring
    white_wind: bool = False  # owns the White Wind boat
    fixed: tuple[tuple[str, int], ...] = ()  # lines scored elsewhere: tile points, other boats, turn-order tiles


def boat_points(key: str, *, transport: int = 0, doubled: bool = False, loop_tiles: int = 0,
                river_points: int = 0) -> int:
    """A boat's winter points from what the village gives (§9.3); raises ValueError for White Wind or a bad key.

    transport: the owner's printed transport capacity (doubled: owns summer boat 2b); loop_tiles: tiles in road
    loops (Sea Bastion); river_points: the printed points of the boats linked by river to the home tile
    (Sea Breese). Flipper's free flip changes the village itself; only its 2 VP are counted here.
    """
    if key == "white-wind":
        raise ValueError("White Wind scores by allocation: set Holdings.white_wind")
    points = {"keyflower": transport * (2 if doubled else 1), "sea-bastion": loop_tiles,
              "sea-breese": river_points, "flipper": 2, "ianvincible": 5}
    if key not in points:
        raise ValueError(f"unknown boat {key!r}: expected one of {', '.join(BOATS)}")
    return points[key]


# --- the groups -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Pile:
    """Identical items: a kind, how many, where they come from, and their best single value under one choice."""

    kind: str
    count: int
    origin: str  # "" loose, a storage tile's name, or PURPLE
    value: int
    where: str  # the label giving that value ("" when none)


@dataclass(frozen=True)
class _Group:
    """A group of items and its set tiles."""

    kinds: tuple[str, ...]
    triple: tuple[frozenset[str], ...]  # the three slots of the three-item tile; () when not owned
    triple_value: int
    triple_label: str
    five_value: int  # 0 when the five-item tile is not owned
    five_label: str
    prefilled: tuple[tuple[int, str], ...] = ()  # wild keyples already in the first three-item set: (slot, wild)


@dataclass(frozen=True)
class _Plan:
    """The best plan found for one group."""

    points: int
    choice: str
    piles: tuple[_Pile, ...]
    sets3: int
    sets5: int
    taken: tuple[int, ...]  # per pile, how many go to the set tiles
    group: _Group
    placed: tuple[tuple[str, str, int], ...]  # wild keyples fixed on a single-value tile: (wild, label, points)


@dataclass(frozen=True)
class _Choice:
    """One choice of a group: its name, its piles, its set tiles and the wild keyples it fixes on a tile."""

    name: str  # the Village hall colour, Scholar skill type or Watermill resource type ("" when none)
    piles: tuple[_Pile, ...]
    group: _Group
    placed: tuple[tuple[str, str, int], ...] = ()  # (wild, label, points)


@cache
def _masks(group: _Group) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Per kind subset (bitmask): triple slots taking one of its kinds; per kind: its subsets; per subset: prefilled."""
    n = len(group.kinds)

    def meets(accept: frozenset[str], s: int) -> bool:
        return any(group.kinds[i] in accept for i in range(n) if s >> i & 1)

    slots = tuple(sum(1 for accept in group.triple if meets(accept, s)) for s in range(1 << n))
    holding = tuple(tuple(s for s in range(1, 1 << n) if s >> k & 1) for k in range(n))
    deficit = tuple(sum(1 for j, _ in group.prefilled if meets(group.triple[j], s)) for s in range(1 << n))
    return slots, holding, deficit


def _fill(group: _Group, piles: Sequence[_Pile], order: Sequence[int], m: int, w: int) -> tuple[int, ...] | None:
    """The cheapest items filling m three-item sets (bar prefilled slots) and w five-item sets, per pile; or None."""
    slots, holding, deficit = _masks(group)
    index = {k: i for i, k in enumerate(group.kinds)}
    used = [0] * len(slots)
    need, got = 3 * m + 5 * w - len(group.prefilled), 0
    taken = [0] * len(piles)
    for i in order:
        if got == need:
            break
        masks = holding[index[piles[i].kind]]
        room = min(slots[s] * m - deficit[s] + 5 * w - used[s] for s in masks)  # Hall's condition on every set of kinds
        x = min(piles[i].count, room)
        if x > 0:
            taken[i] = x
            got += x
            for s in masks:
                used[s] += x
    return tuple(taken) if got == need else None


def _best_sets(group: _Group, piles: Sequence[_Pile], floor: int) -> tuple[int, int, int, tuple[int, ...]] | None:
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
    most5 = total // 5 if group.five_value else 0
    bounds = sorted(((single + group.triple_value * m + group.five_value * w - cheapest[3 * m + 5 * w - pre], m, w)
                     for m in range(1 if pre else 0, most3 + 1)
                     for w in range(min(most5, (total + pre - 3 * m) // 5) + 1)),
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


def _solve(choices: Iterable[_Choice], floor: int) -> _Plan | None:
    """The best plan over a group's choices scoring more than floor, or None."""
    best: _Plan | None = None
    for choice in choices:
        bonus = sum(points for _, _, points in choice.placed)
        found = _best_sets(choice.group, choice.piles, floor - bonus)
        if found is not None:
            points, m, w, taken = found
            floor = points + bonus
            best = _Plan(floor, choice.name, choice.piles, m, w, taken, choice.group, choice.placed)
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


def _worker_group(owned: set[str], spots: Mapping[str, str], loose: tuple[str, ...]) -> _Group:
    """The worker group for these wild spots: a wild in the guild prefills a slot and opens its slots to its pair."""
    guild = "craftsmens-guild"
    triple: tuple[frozenset[str], ...] = ()
    if guild in owned:
        red = frozenset({"red", "green"}) if spots["paulo"] == guild else frozenset({"red"})
        sides = (frozenset({"blue", "yellow"}),) * 2 if spots["sven"] == guild else \
            (frozenset({"blue"}), frozenset({"yellow"}))
        triple = (sides[0], red, sides[1])
    prefilled = tuple((j, w) for j, w in ((0, "sven"), (1, "paulo")) if spots[w] == guild)
    return _Group(WORKERS + loose, triple, 3, WINTER[guild], 3 if "apothecary" in owned else 0,
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
        placed = tuple((w, WINTER[spots[w]], 2 if spots[w] == "key-market" else 1) for w in WILDS
                       if spots[w] in ("village-hall", "key-market"))
        colours = ([PAIRS[at_hall][0]] if at_hall else (present or ["blue"])) if "village-hall" in owned else [""]
        as_green = {"green", "red"} if market else {"green"}
        for choice in colours:
            on_hall = set(PAIRS[at_hall]) if at_hall else {choice}

            def options(colour: str, on_hall: set[str] = on_hall, as_green: set[str] = as_green
                        ) -> list[tuple[int, str]]:
                return [(2 if "key-market" in owned and colour in as_green else 0, WINTER["key-market"]),
                        (1 if colour in on_hall else 0, WINTER["village-hall"]),
                        (1 if h.white_wind else 0, WHITE_WIND)]
            piles = [_pile(c, counts[c], "", options(c)) for c in WORKERS if counts[c]]
            piles += [_pile(w, 1, "", [(1 if h.white_wind else 0, WHITE_WIND)]) for w in loose]
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
        piles = [_pile(s, counts[s], "", [(3 if s == choice else 0, WINTER["scholar"])]) for s in SKILLS
                 if counts[s]]
        if extra:
            piles.append(_pile(extra, 1, PURPLE, [(3 if extra == choice else 0, WINTER["scholar"])]))
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
            return found + [(2 if as_gold and "jeweller" in owned else 0, WINTER["jeweller"]),
                            (1 if choice and (kind == choice or wild) else 0, WINTER["watermill"]),
                            (1 if as_gold else 0, GOLD)]
        piles = [_pile(r, h.resources[r], "", options(r, None, False)) for r in RESOURCES if h.resources.get(r)]
        for tile in h.storage:
            piles += [_pile(r, tile.held[r], tile.name, options(r, tile, True)) for r in RESOURCES
                      if tile.held.get(r)]
        if extra:
            piles.append(_pile(extra[0], 1, PURPLE, options(extra[0], extra[1], False)))
        out.append((choice, piles))
    return out


def _groups(h: Holdings) -> tuple[_Group, _Group, _Group]:
    """The worker (wild keyples aside), skill and resource groups with the set tiles this player owns."""
    owned = set(h.winter)

    def has(key: str, value: int) -> int:
        return value if key in owned else 0

    any_res = frozenset(RESOURCES)
    mercer = tuple(any_res if h.any_resource else frozenset({r, "gold"}) for r in RESOURCES[1:])
    return (
        _worker_group(owned, {w: "" for w in WILDS}, ()),
        _Group(SKILLS, tuple(frozenset({s}) for s in SKILLS) if "scribes" in owned else (), 10, WINTER["scribes"],
               has("key-guild", 10), WINTER["key-guild"]),
        _Group(RESOURCES, mercer if "mercers-guild" in owned else (), 5, WINTER["mercers-guild"],
               has("windmill", 5), WINTER["windmill"]),
    )


# --- the search over the start-player keyple --------------------------------------------------------------------


def _purple_options(h: Holdings) -> list[tuple[int, str, str | tuple[str, Storage | None]]]:
    """What the start-player keyple may stand for: (group, words, extra item)."""
    out: list[tuple[int, str, str | tuple[str, Storage | None]]] = []
    out += [(0, f"one {c} worker", c) for c in WORKERS]
    out += [(1, f"one {s}", s) for s in SKILLS]
    for r in RESOURCES:
        tiles = [t for t in h.storage if _accepts(t, r, h.any_resource, True)]
        tile = max(tiles, key=lambda t: t.per) if tiles else None
        out.append((2, f"one {r}", (r, tile)))
    return out


def _choices(h: Holdings, groups: Sequence[_Group], index: int, extra: str | tuple[str, Storage | None] | None
             ) -> list[_Choice]:
    """The choices of one group, with the start-player keyple's extra item if it is in this group."""
    if index == 0:
        return _worker_choices(h, extra if isinstance(extra, str) else None)
    found = _skill_choices(h, extra if isinstance(extra, str) else None) if index == 1 else \
        _resource_choices(h, extra if isinstance(extra, tuple) else None)
    return [_Choice(name, tuple(piles), groups[index]) for name, piles in found]


def best_score(h: Holdings) -> tuple[int, list[Line]]:
    """The player's best total and its lines; raises ValueError on an unknown key, a repeat or a bad count."""
    _check(h)
    groups = _groups(h)
    plans: list[_Plan] = []
    for index in range(len(groups)):
        plan = _solve(_choices(h, groups, index, None), -1)
        assert plan is not None  # any plan beats -1
        plans.append(plan)
    total = sum(p.points for p in plans)
    purple_use = ""
    if h.purple:
        base = list(plans)
        for index, words, extra in _purple_options(h):
            others = sum(p.points for i, p in enumerate(base) if i != index)
            plan = _solve(_choices(h, groups, index, extra), total - others)
            if plan is not None:
                total, plans, purple_use = others + plan.points, base[:index] + [plan] + base[index + 1:], words
    total += sum(points for _, points in h.fixed) + (12 if "keythedral" in h.winter else 0)
    return total, _lines(h, plans, purple_use)


def _check(h: Holdings) -> None:
    """Raise ValueError on an unknown or repeated key, a negative count, or more than one Sven or Paulo."""
    unknown = [k for k in h.winter if k not in WINTER]
    if unknown:
        raise ValueError(f"unknown winter tile {unknown[0]!r}: expected one of {', '.join(WINTER)}")
    repeated = [k for k, n in Counter(h.winter).items() if n > 1]
    if repeated:
        raise ValueError(f"winter tile {repeated[0]!r} is listed twice: each tile exists once")
    for what, counts, allowed in (("resource", h.resources, RESOURCES), ("skill", h.skills, SKILLS),
                                  ("worker colour", h.workers, (*WORKERS, *WILDS))):
        _check_counts(what, counts, allowed)
    for wild, name in WILDS.items():
        if h.workers.get(wild, 0) > 1:
            raise ValueError(f"there is one {name}: workers[{wild!r}] is {h.workers[wild]}, at most 1")
    names = [t.name for t in h.storage]
    if len(set(names)) != len(names) or any(n in (GOLD, WHITE_WIND, PURPLE, UNSCORED, *WINTER.values())
                                            for n in names):
        raise ValueError(f"storage tile names must be distinct and not a scoring line's label: {names}")
    for tile in h.storage:
        if tile.kind not in ("any", *RESOURCES) or tile.per < 0:
            raise ValueError(f"storage tile {tile.name!r}: kind {tile.kind!r}, {tile.per} VP each is not valid")
        _check_counts(f"resource on the {tile.name}", tile.held, RESOURCES)


def _check_counts(what: str, counts: Mapping[str, int], allowed: Sequence[str]) -> None:
    """Raise ValueError on an unknown kind or a negative count."""
    for kind, n in counts.items():
        if kind not in allowed:
            raise ValueError(f"unknown {what} {kind!r}: expected one of {', '.join(allowed)}")
        if n < 0:
            raise ValueError(f"negative count for {what} {kind!r}: {n}")


# --- the explanation --------------------------------------------------------------------------------------------


def _words(counts: Mapping[str, int], order: Sequence[str]) -> str:
    """'2 iron, 1 gold' in the group's order; a wild keyple by its name."""
    return ", ".join(WILDS[k] if k in WILDS else f"{counts[k]} {k}" for k in order if counts.get(k))


def _wild_words(wild: str, counts: Mapping[str, int], order: Sequence[str], label: str) -> tuple[str, str]:
    """'Paulo + 2 red + 2 green, all as green' for a wild keyple fixed on a tile, and the colour they are read as."""
    colour = "green" if label == WINTER["key-market"] else max(PAIRS[wild], key=lambda c: counts.get(c, 0))
    parts = [WILDS[wild]] + [f"{counts[k]} {k}" for k in order if counts.get(k)]
    return " + ".join(parts) + (f", all as {colour}" if len(parts) > 1 else f" as {colour}"), colour


def _arranged(group: _Group, members: Sequence[Mapping[int, str]]) -> list[dict[int, str]]:
    """The three-item sets, a guild's rearranged so that as few keyples as possible stand in for another colour."""
    if group.triple_label != WINTER["craftsmens-guild"]:
        return [dict(held) for held in members]
    m = len(members)
    cols = [[held[j] for held in members] for j in range(3)]
    if group.triple[0] == group.triple[2]:  # Sven in the guild: its blue and yellow slots take either colour
        pool = cols[0] + cols[2]
        blues, yellows = [k for k in pool if k == "blue"], [k for k in pool if k == "yellow"]
        rest = [k for k in pool if k not in ("blue", "yellow")] + blues[m:] + yellows[m:]
        gap = m - len(blues[:m])
        cols[0], cols[2] = blues[:m] + rest[:gap], yellows[:m] + rest[gap:]
    cols[1].sort(key=("red", "paulo", "green").index)
    return [{j: cols[j][i] for j in range(3)} for i in range(m)]


def _set_words(group: _Group, held: Mapping[int, str]) -> str:
    """One three-item set: its kinds in the group's order; a guild set slot by slot, naming stand-ins."""
    if group.triple_label != WINTER["craftsmens-guild"]:
        return " + ".join(sorted(held.values(), key=group.kinds.index))
    return " + ".join(held[j] if held[j] == r else f"{WILDS.get(held[j], held[j])} as {r}"
                      for j, r in enumerate(WORKERS[:3]))


def _match(group: _Group, units: list[str], m: int) -> tuple[list[tuple[int, int]], list[int]]:
    """The open three-item slots (set i, slot j) and a slot per unit: first those, then the five-item sets."""
    prefilled = {j for j, _ in group.prefilled}
    open_slots = [(i, j) for i in range(m) for j in range(3) if i or j not in prefilled]
    accept = [group.triple[j] for _, j in open_slots] + [frozenset(group.kinds)] * (len(units) - len(open_slots))
    owner: list[int] = [-1] * len(accept)

    def place(u: int, seen: set[int]) -> bool:
        for s, kinds in enumerate(accept):
            if units[u] in kinds and s not in seen:
                seen.add(s)
                if owner[s] < 0 or place(owner[s], seen):
                    owner[s] = u
                    return True
        return False

    for u in range(len(units)):
        if not place(u, set()):
            raise AssertionError("the chosen items do not fill the sets")  # _fill checked Hall's condition
    slot = [0] * len(units)
    for s, u in enumerate(owner):
        slot[u] = s
    return open_slots, slot


def _group_lines(plan: _Plan, owned: set[str], choice_key: str) -> tuple[dict[str, Line], str]:
    """The lines of one group's plan by label, and where the start-player keyple went ('' if not in it)."""
    group = plan.group
    got: dict[str, Counter[str]] = {}
    points: Counter[str] = Counter()
    units: list[str] = []
    purple_unit = -1
    purple_where = ""
    for pile, n in zip(plan.piles, plan.taken, strict=True):
        if pile.origin == PURPLE and n:
            purple_unit = len(units)
        units += [pile.kind] * n
        rest = pile.count - n
        if rest:
            label = pile.where or UNSCORED
            got.setdefault(label, Counter())[pile.kind] += rest
            points[label] += pile.value * rest
            if pile.origin == PURPLE:
                purple_where = label
    wild_at = {label: wild for wild, label, _ in plan.placed}
    for _, label, wild_points in plan.placed:
        got.setdefault(label, Counter())
        points[label] += wild_points
    lines: dict[str, Line] = {}
    open_slots, slot = _match(group, units, plan.sets3)
    cut = len(open_slots)
    if group.triple:
        members: list[dict[int, str]] = [dict(group.prefilled) if i == 0 else {} for i in range(plan.sets3)]
        for u, s in enumerate(slot):
            if s < cut:
                i, j = open_slots[s]
                members[i][j] = units[u]
        sets = Counter(_set_words(group, held) for held in _arranged(group, members))
        detail = ", ".join(f"{n} × {words}" for words, n in sets.items()) or "no set"
        lines[group.triple_label] = Line(group.triple_label, group.triple_value * plan.sets3, detail)
    if group.five_value:
        five = Counter(units[u] for u in range(len(units)) if slot[u] >= cut)
        detail = f"{plan.sets5} × 5 ({_words(five, group.kinds)})" if plan.sets5 else "no set"
        lines[group.five_label] = Line(group.five_label, group.five_value * plan.sets5, detail)
    if purple_unit >= 0:
        purple_where = group.triple_label if slot[purple_unit] < cut else group.five_label
    for label, counts in got.items():
        choice = plan.choice
        if label in wild_at:
            detail, choice = _wild_words(wild_at[label], counts, group.kinds, label)
        else:
            detail = _words(counts, group.kinds)
        if label == WINTER.get(choice_key):
            detail = f"{choice} chosen: {detail}"
        if label in (GOLD, WINTER["jeweller"]) and set(counts) - {"gold"}:
            detail += " (3b: any resource counts as gold)"
        lines[label] = Line(label, points[label], detail)
    if choice_key in owned and WINTER[choice_key] not in lines:
        lines[WINTER[choice_key]] = Line(WINTER[choice_key], 0, "nothing to score")
    return lines, purple_where


def _purple_words(h: Holdings, use: str, where: str) -> str:
    """Where the start-player keyple scores (its points are in that tile's line)."""
    if not use or where == UNSCORED:
        return "adds no points"
    if where in {t.name for t in h.storage}:
        return f"counted as {use}, kept on the {where}"
    if where == GOLD:
        return f"counted as {use}, 1 VP as gold"
    return f"counted as {use}, scored by the {where}"


def _lines(h: Holdings, plans: Sequence[_Plan], purple_use: str) -> list[Line]:
    """Every line: fixed ones, then each owned winter tile, storage tiles, White Wind, gold, the keyple, the rest."""
    owned = set(h.winter)
    by_label: dict[str, Line] = {}
    purple_where = ""
    unscored: list[str] = []
    for plan, key in zip(plans, ("village-hall", "scholar", "watermill"), strict=True):
        lines, where = _group_lines(plan, owned, key)
        purple_where = purple_where or where
        if UNSCORED in lines:
            unscored.append(lines.pop(UNSCORED).detail)
        by_label.update(lines)
    out = [Line(label, points) for label, points in h.fixed]
    for key, name in WINTER.items():
        if key in owned:
            out.append(by_label.get(name, Line(name, 12, "once")) if key == "keythedral"
                       else by_label.get(name, Line(name, 0, "nothing to score")))
    for tile in h.storage:
        line = by_label.get(tile.name)
        out.append(Line(tile.name, line.points, f"{line.detail}, {tile.per} VP each") if line
                   else Line(tile.name, 0, "nothing stored"))
    if WHITE_WIND in by_label:
        out.append(by_label[WHITE_WIND])
    elif h.white_wind:
        out.append(Line(WHITE_WIND, 0, "every worker scores elsewhere" if sum(h.workers.values()) else "no workers"))
    if GOLD in by_label:
        line = by_label[GOLD]
        out.append(Line(GOLD, line.points, f"{line.detail}, 1 VP each"))
    if h.purple:
        out.append(Line(PURPLE, 0, _purple_words(h, purple_use, purple_where)))
    if unscored:
        out.append(Line(UNSCORED, 0, ", ".join(unscored)))
    return out
