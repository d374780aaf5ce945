"""Step 2 of loading Keyflower's component data: the records checked against the counts and constraints the
sources fix (shared/reference/keyflower-base-and-modules.md; docs/components.md, "Keyflower", lists them), every
problem as a sentence. The values below are the reference's, written down to check the data files against (a data
folder with the real tiles typed in is checked the same way)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping

from engine.datacheck import duplicates, exact_counts
from engine.keyflower.component_records import (
    COST_KEYS,
    EDGES,
    FACE_KINDS,
    GAIN_KEYS,
    PAY_KEYS,
    PLAYER_COUNTS,
    PROVENANCES,
    SEASONS,
    STORE_KINDS,
    TILE_KINDS,
    Components,
    Face,
    Tile,
)

# --- What the sources fix (validate checks these) ------------------------------------------------------

# Tiles of each kind (reference section 1; the 4 summer boats have two faces each, one record per face).
TILE_COUNTS: dict[str, int] = {"home": 6, "spring": 12, "summer": 8, "autumn": 12, "winter": 12, "summerboat": 8}
# Roads per tile kind (reference section 7: home, autumn, winter and summer boats confirmed; spring, summer inferred).
ROAD_COUNTS: dict[str, int] = {"home": 5, "spring": 4, "summer": 3, "autumn": 2, "winter": 1, "summerboat": 0}
WINTER_KEYS: tuple[str, ...] = (
    "apothecary", "craftsmens-guild", "jeweller", "key-guild", "keythedral", "key-market",
    "mercers-guild", "scholar", "scribes", "village-hall", "watermill", "windmill",
)
# The season tiles by name (reference sections 9.5-9.8: rulebook and one names list; the ids are ours).
SEASON_TILES: dict[str, tuple[str, ...]] = {
    "spring": ("alehouse", "apprentice-hall", "gold-mine", "key-mine", "keystone-quarry", "keywood", "miner",
               "quarryman", "woodcutter", "peddler", "stable", "workshop"),
    "summer": ("brewer", "carpenter", "mason", "smelter", "farrier", "hiring-fair", "store", "tavern"),
    "autumn": ("barn", "blacksmith", "stone-yard", "timber-yard", "inn", "fair", "wainwright", "forge", "goldsmith",
               "sawmill", "sculptor", "well"),
    "winter": WINTER_KEYS,
}
HOME_IDS: tuple[str, ...] = tuple(f"home-{n}" for n in range(1, 7))
SUMMER_BOAT_IDS: tuple[str, ...] = tuple(f"summerboat-{n}{face}" for n in range(1, 5) for face in "ab")
# Reference section 6: the home tiles, Stable, Farrier and Wainwright are the transport/upgrade tiles.
TRANSPORT_TILES: frozenset[str] = frozenset((*HOME_IDS, "stable", "farrier", "wainwright"))
# Reference section 9.7: what each storage tile scores.
STORE_TILES: dict[str, str] = {"barn": "any", "blacksmith": "iron", "stone-yard": "stone", "timber-yard": "wood"}
# Reference section 9.7: points only, no production.
POINTS_TILES: frozenset[str] = frozenset(("forge", "goldsmith", "sawmill", "sculptor", "well"))
# Reference sections 2 and 9.3: each boat's player-count mark; the boat id is also its winter scoring key.
BOAT_MIN_PLAYERS: dict[str, int] = {
    "keyflower": 2, "sea-bastion": 2, "sea-breese": 3, "flipper": 4, "ianvincible": 5, "white-wind": 6,
}
BOAT_KEYS: tuple[str, ...] = tuple(BOAT_MIN_PLAYERS)
TURN_ORDER_NUMBERS: tuple[int, ...] = (1, 2, 3, 4)
# Reference section 1 (rulebook contents).
BAG: dict[str, int] = {"blue": 40, "red": 40, "yellow": 40}
GREENS = 20
SKILL_SUPPLY: dict[str, int] = {"anvil": 16, "pick": 16, "saw": 16}
RESOURCE_SUPPLY: dict[str, int] = {"gold": 48, "iron": 24, "stone": 24, "wood": 24}
# Reference section 2 (rulebook set-up).
SETUP: dict[int, dict[str, int]] = {
    2: {"home": 2, "boats": 2, "turn_order": 1, "per_season": 6, "winter_dealt": 3},
    3: {"home": 3, "boats": 3, "turn_order": 2, "per_season": 7, "winter_dealt": 3},
    4: {"home": 4, "boats": 4, "turn_order": 3, "per_season": 8, "winter_dealt": 3},
    5: {"home": 5, "boats": 5, "turn_order": 4, "per_season": 9, "winter_dealt": 2},
    6: {"home": 6, "boats": 6, "turn_order": 4, "per_season": 10, "winter_dealt": 2},
}


def validate(c: Components) -> list[str]:
    """Return every broken count or constraint as a sentence; [] when the components are sound. Raises nothing."""
    return _check_tiles(c) + _check_boats(c) + _check_turn_order(c) + _check_game(c) + _check_modules(c)


def _check_modules(c: Components) -> list[str]:
    """The Key Celeste tile's edges are sound and it has a river side to join a chain (module sheet: a boat)."""
    tile = c.key_celeste
    out = _edges("modules.toml [key-celeste]", tile.roads, tile.water)
    if not tile.water:
        out.append("modules.toml [key-celeste]: the tile counts as a boat, so it needs a river side (water).")
    return out


def _provenance(where: str, provenance: str) -> list[str]:
    """A sentence when the provenance is not one of the two words."""
    if provenance in PROVENANCES:
        return []
    return [f"{where}: provenance {provenance!r} must be one of {', '.join(PROVENANCES)}."]


def _edges(where: str, roads: tuple[int, ...], water: tuple[int, ...]) -> list[str]:
    """Edges are 0..5, none listed twice, none both road and water."""
    out: list[str] = []
    for what, edges in (("roads", roads), ("water", water)):
        bad = sorted({e for e in edges if e not in EDGES})
        if bad:
            out.append(f"{where}: {what} edges {bad} must be 0..5 (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW).")
        twice = sorted(e for e, n in Counter(edges).items() if n > 1)
        if twice:
            out.append(f"{where}: {what} edges {twice} are listed twice.")
    both = sorted(set(roads) & set(water))
    if both:
        out.append(f"{where}: edges {both} cannot be both road and water.")
    return out


def _keys(where: str, table: Mapping[str, int], allowed: tuple[str, ...], what: str) -> list[str]:
    """A sentence per key of a pay, gain or cost table that the schema does not know."""
    return [f"{where}: {what} {k!r} is not one of {', '.join(allowed)}." for k in table if k not in allowed]


# What each face kind may carry besides its kind and fixed points (kf-spec Face).
_FACE_FIELDS: dict[str, frozenset[str]] = {
    "produce": frozenset({"pay", "gain"}),
    "transport": frozenset({"transport", "upgrades"}),
    "store": frozenset({"store", "per"}),
    "points": frozenset(),
    "winter": frozenset({"scoring"}),
    "none": frozenset(),
}
_FACE_VALUES: dict[str, Callable[[Face], object]] = {
    "pay": lambda f: f.pay, "gain": lambda f: f.gain, "transport": lambda f: f.transport,
    "upgrades": lambda f: f.upgrades, "store": lambda f: f.store, "per": lambda f: f.per,
    "scoring": lambda f: f.scoring,
}


def _face(where: str, f: Face) -> list[str]:
    """One face on its own: a known kind, only the fields its kind uses, and those filled in sensibly."""
    if f.kind not in FACE_KINDS:
        return [f"{where}: face kind {f.kind!r} is not one of {', '.join(FACE_KINDS)}."]
    out: list[str] = []
    for name, value in _FACE_VALUES.items():
        if name not in _FACE_FIELDS[f.kind] and value(f):
            out.append(f"{where}: a {f.kind} face has no {name!r}.")
    out += _keys(where, f.pay, PAY_KEYS, "pay") + _keys(where, f.gain, GAIN_KEYS, "gain")
    if f.kind == "produce" and not f.gain:
        out.append(f"{where}: a produce face gains something ('gain' is empty).")
    if f.kind == "transport" and (f.transport < 1 or f.upgrades < 1):
        out.append(f"{where}: a transport face moves at least 1 resource-step and upgrades at least 1 tile "
                   "(reference section 6).")
    if f.kind == "store" and (f.store not in STORE_KINDS or f.per < 1):
        out.append(f"{where}: a store face names what it stores ({', '.join(STORE_KINDS)}) and scores at least "
                   "1 VP per resource ('per').")
    if f.kind == "winter" and f.scoring not in WINTER_KEYS:
        out.append(f"{where}: scoring key {f.scoring!r} is not one the scoring module knows "
                   f"({', '.join(WINTER_KEYS)}).")
    return out


def _tile(t: Tile) -> list[str]:
    """One tile: kind, edges and their counts, water, number, faces and the upgrade cost."""
    where = f"tiles.toml [{t.id}]"
    if t.kind not in TILE_KINDS:
        return [f"{where}: kind {t.kind!r} is not one of {', '.join(TILE_KINDS)}."]
    out = _provenance(where, t.provenance) + _edges(where, t.roads, t.water)
    if len(t.roads) != ROAD_COUNTS[t.kind]:
        out.append(f"{where}: a {t.kind} tile has {ROAD_COUNTS[t.kind]} roads, not {len(t.roads)} "
                   "(reference section 7).")
    if t.kind == "home" and len(t.water) != 1:
        out.append(f"{where}: a home tile has one water side, not {len(t.water)} (reference sections 7, 9.1).")
    elif t.kind == "summerboat" and not t.water:
        out.append(f"{where}: a summer boat has river sides; Sea Breese links boats by river (reference 9.3).")
    elif t.kind in SEASONS and t.water:
        out.append(f"{where}: only home tiles and boats have water sides; other tiles block the river "
                   "(reference section 7).")
    if t.kind not in ("home", "summerboat") and t.number != 0:
        out.append(f"{where}: only home tiles and summer boats are numbered; set number 0 or leave it out.")
    out += _face(f"{where} front", t.front)
    if t.back is not None:
        out += _face(f"{where} back", t.back)
    if t.kind in ("winter", "summerboat"):
        if t.back is not None or t.upgrade:
            out.append(f"{where}: {t.kind} tiles cannot be upgraded: no back and no upgrade cost "
                       "(reference sections 6, 9.4, 9.8).")
    elif t.back is None:
        out.append(f"{where}: every {t.kind} tile can be upgraded, so it needs a back (reference section 6).")
    elif not t.upgrade:
        out.append(f"{where}: an upgradable tile needs an upgrade cost.")
    out += _keys(where, t.upgrade, COST_KEYS, "upgrade cost")
    out += _tile_kinds(where, t)
    return out


def _tile_kinds(where: str, t: Tile) -> list[str]:
    """Face kinds the tile's kind and name call for (reference sections 6, 9.4, 9.7, 9.8)."""
    faces = [t.front] if t.back is None else [t.front, t.back]
    kinds = {f.kind for f in faces}
    expected = ("winter" if t.kind == "winter" else "none" if t.kind == "summerboat"
                else "transport" if t.id in TRANSPORT_TILES or t.kind == "home"
                else "store" if t.id in STORE_TILES else "points" if t.id in POINTS_TILES else None)
    if expected is not None and kinds != {expected}:
        return [f"{where}: its faces must be {expected} faces, not {', '.join(sorted(kinds))} "
                "(reference sections 6, 9)."]
    out: list[str] = []
    if expected is None and kinds & {"transport", "store", "winter", "none"}:
        out.append(f"{where}: only the home tiles, Stable, Farrier and Wainwright transport, only the Barn and the "
                   "three yards store, only winter tiles score by key, and only summer boats have no use "
                   "(reference sections 6, 9).")
    if t.back is not None and t.back.kind != t.front.kind:
        out.append(f"{where}: both faces must be of one kind, not {t.front.kind} and {t.back.kind}.")
    if t.id in STORE_TILES and any(f.store != STORE_TILES[t.id] for f in faces):
        out.append(f"{where}: the {t.name or t.id} stores {STORE_TILES[t.id]} (reference section 9.7).")
    return out


def _check_tiles(c: Components) -> list[str]:
    """Village tiles: ids, each tile, counts per kind, the known names, numbers and the winter scoring keys."""
    out = duplicates("tiles.toml", [t.id for t in c.tiles])
    boat_ids = {b.id for b in c.boats}
    out += [f"tiles.toml [{t.id}]: the id also names a boat; ids must be unique." for t in c.tiles if t.id in boat_ids]
    for t in c.tiles:
        out += _tile(t)
    kinds = Counter(t.kind for t in c.tiles)
    for kind, n in TILE_COUNTS.items():
        if kinds[kind] != n:
            out.append(f"tiles.toml: there are {kinds[kind]} {kind} tiles; the game has {n} (reference section 1"
                       + ("; 4 summer boats with two faces each)." if kind == "summerboat" else ")."))
    ids = {kind: [t.id for t in c.tiles if t.kind == kind] for kind in TILE_KINDS}
    known = {**SEASON_TILES, "home": HOME_IDS, "summerboat": SUMMER_BOAT_IDS}
    for kind in TILE_KINDS:
        missing = [i for i in known[kind] if i not in ids[kind]]
        unknown = [i for i in ids[kind] if i not in known[kind]]
        if missing or unknown:
            out.append(f"tiles.toml: the {kind} tiles are {', '.join(known[kind])}"
                       + (f"; missing {', '.join(missing)}" if missing else "")
                       + (f"; unknown {', '.join(unknown)}" if unknown else "") + " (reference section 9).")
    homes = Counter(t.number for t in c.tiles if t.kind == "home")
    if sorted(homes.elements()) != list(range(1, 7)):
        out.append(f"tiles.toml: the home tiles are numbered 1-6 once each, not {sorted(homes.elements())} "
                   "(reference section 9.1).")
    for t in c.tiles:
        if t.kind == "summerboat" and t.id in SUMMER_BOAT_IDS and t.number != int(t.id[11]):
            out.append(f"tiles.toml [{t.id}]: a face of summer boat {t.id[11]} has number {t.id[11]}, "
                       f"not {t.number}.")
    keys = Counter(f.scoring for t in c.tiles if t.kind == "winter" for f in [t.front])
    for key in WINTER_KEYS:
        if keys[key] != 1:
            out.append(f"tiles.toml: the winter scoring key {key!r} appears {keys[key]} times; each of the 12 "
                       "winter tiles scores its own way (reference section 9.8).")
    return out


def _check_boats(c: Components) -> list[str]:
    """Boats: the six known ones, their player-count marks, scoring keys, contents and river sides."""
    out = duplicates("boats.toml", [b.id for b in c.boats])
    if len(c.boats) != len(BOAT_KEYS):
        out.append(f"boats.toml: there are {len(c.boats)} boats; the game has {len(BOAT_KEYS)} "
                   "(reference section 1).")
    for b in c.boats:
        where = f"boats.toml [{b.id}]"
        out += _provenance(where, b.provenance) + _edges(where, b.roads, b.water)
        if b.id not in BOAT_MIN_PLAYERS:
            out.append(f"{where}: not a boat of the game ({', '.join(BOAT_KEYS)}).")
        elif b.min_players != BOAT_MIN_PLAYERS[b.id]:
            out.append(f"{where}: the {b.name or b.id} is marked {BOAT_MIN_PLAYERS[b.id]}+, not {b.min_players}+ "
                       "(reference sections 2, 9.3).")
        if b.scoring not in BOAT_KEYS:
            out.append(f"{where}: scoring key {b.scoring!r} is not one the scoring module knows "
                       f"({', '.join(BOAT_KEYS)}).")
        elif b.scoring != b.id:
            out.append(f"{where}: a boat scores by its own key {b.id!r}, not {b.scoring!r} (reference section 9.3).")
        if b.workers_a + b.skills_a == 0 or b.workers_b + b.skills_b == 0:
            out.append(f"{where}: each face carries some keyples or skills (reference section 9.3).")
        if not b.water:
            out.append(f"{where}: a boat has river sides; Sea Breese links boats by river (reference 9.3).")
    missing = [k for k in BOAT_KEYS if k not in {b.id for b in c.boats}]
    if missing:
        out.append(f"boats.toml: missing {', '.join(missing)} (reference section 9.3).")
    return out


def _check_turn_order(c: Components) -> list[str]:
    """Turn-order faces: numbers 1-4, at most two faces a tile, and for every player count the set-up's tiles
    1..k, one face each, with the start icon on tile k only (reference sections 2, 9.2, 13)."""
    out: list[str] = []
    for t in c.turn_order:
        where = f"turn_order.toml [tile {t.number}, {t.players[0]}-{t.players[1]} players]"
        out += _provenance(where, t.provenance) + _edges(where, t.roads, t.water)
        if t.number not in TURN_ORDER_NUMBERS:
            out.append(f"{where}: turn-order tiles are numbered 1-4, not {t.number} (reference section 1).")
        lo, hi = t.players
        if not PLAYER_COUNTS[0] <= lo <= hi <= PLAYER_COUNTS[-1]:
            out.append(f"{where}: players must be [lowest, highest] within 2-6.")
    faces = Counter(t.number for t in c.turn_order)
    for number, n in faces.items():
        if n > 2:
            out.append(f"turn_order.toml: tile {number} has {n} faces; a tile has two sides.")
    for count in PLAYER_COUNTS:
        used = [t for t in c.turn_order if t.players[0] <= count <= t.players[1]]
        k = SETUP[count]["turn_order"]
        numbers = sorted(t.number for t in used)
        if numbers != list(range(1, k + 1)):
            out.append(f"turn_order.toml: {count} players put up faces of tiles {numbers}; they use tiles "
                       f"{list(range(1, k + 1))}, one face each (reference section 2).")
            continue
        icons = [t.number for t in used if t.start_icon]
        if icons != [k]:
            out.append(f"turn_order.toml: with {count} players the start icon shows on tiles {icons}; it is on "
                       f"the highest-numbered tile in use, {k}, alone (reference sections 9.2, 13).")
    return out


def _check_game(c: Components) -> list[str]:
    """Supplies and the set-up table match the rulebook; the components cover every player count's set-up."""
    source = "reference section 1"
    out = exact_counts("game.toml [supply] bag", c.bag, BAG, source)
    out += exact_counts("game.toml [supply] greens", {"greens": c.greens}, {"greens": GREENS}, source)
    out += exact_counts("game.toml [supply] skills", c.skills, SKILL_SUPPLY, source)
    out += exact_counts("game.toml [supply] resources", c.resources, RESOURCE_SUPPLY, source)
    out += [f"game.toml [setup]: {n} players is not a player count (2-6)." for n in c.setup if n not in SETUP]
    for n, expected in SETUP.items():
        if n not in c.setup:
            out.append(f"game.toml [setup]: {n} players is missing (reference section 2).")
        else:
            out += exact_counts(f"game.toml [setup] {n}", c.setup[n], expected, "reference section 2")
    kinds = Counter(t.kind for t in c.tiles)
    for n, row in c.setup.items():
        boats = sum(1 for b in c.boats if b.min_players <= n)
        if boats != row.get("boats"):
            out.append(f"game.toml [setup] {n}: {boats} boats are marked for {n} players, but the set-up uses "
                       f"{row.get('boats')} (reference section 2: one boat per player).")
        if row.get("home", 0) > kinds["home"]:
            out.append(f"game.toml [setup] {n}: {row['home']} home tiles needed, {kinds['home']} exist.")
        for season in ("spring", "summer", "autumn"):
            have = kinds[season] + (kinds["summerboat"] // 2 if season == "summer" else 0)
            if row.get("per_season", 0) > have:
                out.append(f"game.toml [setup] {n}: {row['per_season']} {season} tiles laid out, {have} exist.")
        if row.get("winter_dealt", 0) * n > kinds["winter"]:
            out.append(f"game.toml [setup] {n}: {row['winter_dealt']} winter tiles each for {n} players, "
                       f"{kinds['winter']} exist.")
    return out
