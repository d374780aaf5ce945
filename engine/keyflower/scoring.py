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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import NamedTuple

WORKERS = ("blue", "red", "yellow", "green")
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
    workers: Mapping[str, int] = field(default_factory=dict)  # behind the screen + placed in own village in winter
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


@dataclass(frozen=True)
class _Plan:
    """The best plan found for one group."""

    points: int
    choice: str
    piles: tuple[_Pile, ...]
    sets3: int
    sets5: int
    taken: tuple[int, ...]  # per pile, how many go to the set tiles


@cache
def _masks(group: _Group) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Per kind subset (bitmask): how many triple slots accept one of its kinds; per kind: the subsets holding it."""
    n = len(group.kinds)
    slots = tuple(sum(1 for accept in group.triple if any(group.kinds[i] in accept for i in range(n) if s >> i & 1))
                  for s in range(1 << n))
    holding = tuple(tuple(s for s in range(1, 1 << n) if s >> k & 1) for k in range(n))
    return slots, holding


def _fill(group: _Group, piles: Sequence[_Pile], order: Sequence[int], m: int, w: int) -> tuple[int, ...] | None:
    """The cheapest items filling m three-item sets and w five-item sets, per pile; None when they cannot."""
    slots, holding = _masks(group)
    index = {k: i for i, k in enumerate(group.kinds)}
    used = [0] * len(slots)
    need, got = 3 * m + 5 * w, 0
    taken = [0] * len(piles)
    for i in order:
        if got == need:
            break
        masks = holding[index[piles[i].kind]]
        room = min(slots[s] * m + 5 * w - used[s] for s in masks)  # Hall's condition on every set of kinds
        x = min(piles[i].count, room)
        if x > 0:
            taken[i] = x
            got += x
            for s in masks:
                used[s] += x
    return tuple(taken) if got == need else None


def _best_sets(group: _Group, piles: Sequence[_Pile], floor: int) -> tuple[int, int, int, tuple[int, ...]] | None:
    """(points, m, w, taken) of the best plan scoring more than floor, or None: branch and bound over (m, w)."""
    total = sum(p.count for p in piles)
    single = sum(p.value * p.count for p in piles)
    order = sorted(range(len(piles)), key=lambda i: (piles[i].value, piles[i].origin != PURPLE))
    cheapest = [0]
    for i in order:
        for _ in range(piles[i].count):
            cheapest.append(cheapest[-1] + piles[i].value)
    most3 = min([total // 3] + [sum(p.count for p in piles if p.kind in accept) for accept in group.triple]) \
        if group.triple else 0
    most5 = total // 5 if group.five_value else 0
    bounds = sorted(((single + group.triple_value * m + group.five_value * w - cheapest[3 * m + 5 * w], m, w)
                     for m in range(most3 + 1) for w in range(min(most5, (total - 3 * m) // 5) + 1)),
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


def _solve(group: _Group, choices: Iterable[tuple[str, list[_Pile]]], floor: int) -> _Plan | None:
    """The best plan over the group's choices scoring more than floor, or None."""
    best: _Plan | None = None
    for choice, piles in choices:
        found = _best_sets(group, piles, floor)
        if found is not None:
            points, m, w, taken = found
            floor, best = points, _Plan(points, choice, tuple(piles), m, w, taken)
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


def _worker_choices(h: Holdings, extra: str | None) -> list[tuple[str, list[_Pile]]]:
    """Workers under each Village hall colour worth trying."""
    owned = set(h.winter)
    counts = Counter({c: n for c, n in h.workers.items() if n})
    present = [c for c in WORKERS if counts[c] or c == extra]
    colours = (present or ["blue"]) if "village-hall" in owned else [""]
    out = []
    for choice in colours:
        def options(colour: str, choice: str = choice) -> list[tuple[int, str]]:
            return [(2 if "key-market" in owned and colour == "green" else 0, WINTER["key-market"]),
                    (1 if choice == colour else 0, WINTER["village-hall"]),
                    (1 if h.white_wind else 0, WHITE_WIND)]
        piles = [_pile(c, counts[c], "", options(c)) for c in WORKERS if counts[c]]
        if extra:
            piles.append(_pile(extra, 1, PURPLE, options(extra)))
        out.append((choice, piles))
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
    """The worker, skill and resource groups with the set tiles this player owns."""
    owned = set(h.winter)

    def has(key: str, value: int) -> int:
        return value if key in owned else 0

    any_res = frozenset(RESOURCES)
    mercer = tuple(any_res if h.any_resource else frozenset({r, "gold"}) for r in RESOURCES[1:])
    return (
        _Group(WORKERS, tuple(frozenset({c}) for c in WORKERS[:3]) if "craftsmens-guild" in owned else (), 3,
               WINTER["craftsmens-guild"], has("apothecary", 3), WINTER["apothecary"]),
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


def _choices(h: Holdings, index: int, extra: str | tuple[str, Storage | None] | None
             ) -> list[tuple[str, list[_Pile]]]:
    """The choices of one group, with the start-player keyple's extra item if it is in this group."""
    if index == 0:
        return _worker_choices(h, extra if isinstance(extra, str) else None)
    if index == 1:
        return _skill_choices(h, extra if isinstance(extra, str) else None)
    return _resource_choices(h, extra if isinstance(extra, tuple) else None)


def best_score(h: Holdings) -> tuple[int, list[Line]]:
    """The player's best total and its lines; raises ValueError on an unknown key, a repeat or a negative count."""
    _check(h)
    groups = _groups(h)
    plans: list[_Plan] = []
    for index, group in enumerate(groups):
        plan = _solve(group, _choices(h, index, None), -1)
        assert plan is not None  # any plan beats -1
        plans.append(plan)
    total = sum(p.points for p in plans)
    purple_use = ""
    if h.purple:
        base = list(plans)
        for index, words, extra in _purple_options(h):
            others = sum(p.points for i, p in enumerate(base) if i != index)
            plan = _solve(groups[index], _choices(h, index, extra), total - others)
            if plan is not None:
                total, plans, purple_use = others + plan.points, base[:index] + [plan] + base[index + 1:], words
    total += sum(points for _, points in h.fixed) + (12 if "keythedral" in h.winter else 0)
    return total, _lines(h, groups, plans, purple_use)


def _check(h: Holdings) -> None:
    """Raise ValueError on an unknown or repeated key, or a negative count."""
    unknown = [k for k in h.winter if k not in WINTER]
    if unknown:
        raise ValueError(f"unknown winter tile {unknown[0]!r}: expected one of {', '.join(WINTER)}")
    repeated = [k for k, n in Counter(h.winter).items() if n > 1]
    if repeated:
        raise ValueError(f"winter tile {repeated[0]!r} is listed twice: each tile exists once")
    for what, counts, allowed in (("resource", h.resources, RESOURCES), ("skill", h.skills, SKILLS),
                                  ("worker colour", h.workers, WORKERS)):
        _check_counts(what, counts, allowed)
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
    """'2 iron, 1 gold' in the group's order."""
    return ", ".join(f"{counts[k]} {k}" for k in order if counts.get(k))


def _match(group: _Group, units: list[str], m: int) -> list[int]:
    """A slot per unit: 0..3m-1 the three-item sets (slot j of set i is 3i + j), then the five-item sets."""
    accept = [group.triple[j % 3] for j in range(3 * m)] + [frozenset(group.kinds)] * (len(units) - 3 * m)
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
    return slot


def _group_lines(group: _Group, plan: _Plan, owned: set[str], choice_key: str) -> tuple[dict[str, Line], str]:
    """The lines of one group's plan by label, and where the start-player keyple went ('' if not in it)."""
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
    lines: dict[str, Line] = {}
    slot = _match(group, units, plan.sets3)
    if group.triple:
        sets: Counter[tuple[str, ...]] = Counter()
        for i in range(plan.sets3):
            members = [units[u] for u in range(len(units)) if slot[u] // 3 == i and slot[u] < 3 * plan.sets3]
            sets[tuple(sorted(members, key=group.kinds.index))] += 1
        detail = ", ".join(f"{n} × {' + '.join(kinds)}" for kinds, n in sets.items()) or "no set"
        lines[group.triple_label] = Line(group.triple_label, group.triple_value * plan.sets3, detail)
    if group.five_value:
        five = Counter(units[u] for u in range(len(units)) if slot[u] >= 3 * plan.sets3)
        detail = f"{plan.sets5} × 5 ({_words(five, group.kinds)})" if plan.sets5 else "no set"
        lines[group.five_label] = Line(group.five_label, group.five_value * plan.sets5, detail)
    if purple_unit >= 0:
        purple_where = group.triple_label if slot[purple_unit] < 3 * plan.sets3 else group.five_label
    for label, counts in got.items():
        detail = _words(counts, group.kinds)
        if label == WINTER.get(choice_key):
            detail = f"{plan.choice} chosen: {detail}"
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


def _lines(h: Holdings, groups: Sequence[_Group], plans: Sequence[_Plan], purple_use: str) -> list[Line]:
    """Every line: fixed ones, then each owned winter tile, storage tiles, White Wind, gold, the keyple, the rest."""
    owned = set(h.winter)
    by_label: dict[str, Line] = {}
    purple_where = ""
    unscored: list[str] = []
    for group, plan, key in zip(groups, plans, ("village-hall", "scholar", "watermill"), strict=True):
        lines, where = _group_lines(group, plan, owned, key)
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
