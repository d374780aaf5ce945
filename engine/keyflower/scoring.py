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
from collections.abc import Mapping, Sequence

from engine.keyflower.allocation import Plan, choices, groups_of, purple_options, solve
from engine.keyflower.holdings import BOAT_POINTS
from engine.keyflower.holdings import BOATS as BOATS
from engine.keyflower.holdings import GOLD as GOLD
from engine.keyflower.holdings import PAIRS as PAIRS
from engine.keyflower.holdings import POINTS as POINTS
from engine.keyflower.holdings import PURPLE as PURPLE
from engine.keyflower.holdings import RESOURCES as RESOURCES
from engine.keyflower.holdings import SKILLS as SKILLS
from engine.keyflower.holdings import UNSCORED as UNSCORED
from engine.keyflower.holdings import WHITE_WIND as WHITE_WIND
from engine.keyflower.holdings import WILDS as WILDS
from engine.keyflower.holdings import WINTER as WINTER
from engine.keyflower.holdings import WORKERS as WORKERS
from engine.keyflower.holdings import Holdings as Holdings
from engine.keyflower.holdings import Line as Line
from engine.keyflower.holdings import Storage as Storage
from engine.keyflower.score_lines import lines_of


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
              "sea-breese": river_points, **BOAT_POINTS}

    if key not in points:
        raise ValueError(f"unknown boat {key!r}: expected one of {', '.join(BOATS)}")
    return points[key]



def best_score(h: Holdings) -> tuple[int, list[Line]]:
    """The player's best total and its lines; raises ValueError on an unknown key, a repeat or a bad count."""
    _check(h)
    groups = groups_of(h)
    plans: list[Plan] = []
    for index in range(len(groups)):
        plan = solve(choices(h, groups, index, None), -1)
        assert plan is not None  # any plan beats -1
        plans.append(plan)
    total = sum(p.points for p in plans)
    purple_use = ""
    if h.purple:
        base = list(plans)
        for index, words, extra in purple_options(h):
            others = sum(p.points for i, p in enumerate(base) if i != index)
            plan = solve(choices(h, groups, index, extra), total - others)
            if plan is not None:
                total, plans, purple_use = others + plan.points, base[:index] + [plan] + base[index + 1:], words
    total += sum(points for _, points in h.fixed) + (POINTS["keythedral"] if "keythedral" in h.winter else 0)
    return total, lines_of(h, plans, purple_use)


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
