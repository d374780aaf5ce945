"""Check a built Keyper data pack against the rulebook: the counts it fixes and the constraints documented in
docs/components.md. Each check lists every problem it finds (engine.keyper.loader raises them all together)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping

from engine.keyper import vocab
from engine.keyper.components import (
    Boat,
    BuildingTile,
    Components,
    Display,
    Fair,
    FairSide,
    FieldKind,
    KeypTile,
    PlayerBoard,
    by_season,
)

GRID = 4
PLAYERS_MAX = 4
TEAM_SIZE = 8

# --- What the rulebook fixes (the engine relies on these names) -------------------------------------

CONVERTS: dict[str, str] = {"convert_clay": "clay", "convert_log": "log", "convert_rock": "rock"}
FIELD_KINDS: dict[str, str] = {
    **{r: "resource" for r in vocab.RAW + (vocab.WHEAT,) + vocab.ANIMALS + vocab.GEMS},
    "country_tile": "country_tile",
    **{k: "convert" for k in CONVERTS},
    "trade_raw": "trade",
    "trade_finished": "trade",
    "build": "build",
    "discount_build": "discount_build",
    "upgrade": "upgrade",
    "river": "river",
    "keyp": "keyp",
}
# Border colours the rulebook states in words (pp.5, 12, 13).
CONFIRMED_COLOURS: dict[str, str | None] = {
    "pig": "green", "build": "orange", "upgrade": "grey", "river": "blue", "country_tile": None, "keyp": None,
}
UNCOLOURED_CATEGORIES = ("keyp", "country_tile", "discount_build")
# The most fields of one border colour a winter display may show, from the scoring tiles' maxima.
WINTER_COLOUR_MAX: dict[str, tuple[int, str]] = {
    "green": (3, "farmer's cottage 3/9"),
    "orange": (2, "kiln 4/8"),
    "brown": (3, "log cabin 3/9"),
    "black": (4, "mine 4/8"),
    "grey": (3, "open pit 3/9"),
}

HOME_TILES: dict[str, str] = {
    **{t: "farm" for t in ("cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock")},
    **{t: "village" for t in ("brickmaker", "carpenter", "stonemason", "scrapyard", "drainage", "pavements")},
}
COUNTRY_TILES: tuple[str, ...] = (
    "alchemist", "barn", "boarding_house", "builder", "building_plot", "cluck_cluck_chicken_house", "dock",
    "farm_labourer", "gem_dealer", "goat_pen", "hop_field", "jewel_cutter", "livestock_market", "oast_house",
    "seafarer", "shipping_agent", "statue", "thatcher", "trading_post", "village_hall", "windmill",
    "boatman", "bracelet_maker", "bricklayer", "brickyard", "copse", "emporium", "entertainer", "farmer",
    "farmers_cottage", "game_wardens_cottage", "gem_merchant", "goldsmith", "hunters_lodge", "jeweller",
    "key_market", "kiln", "log_cabin", "lumberjack", "merchant", "mine", "open_pit", "prospector",
    "quarryman", "ring_maker", "scrap_dealer", "stoneyard", "timberyard",
)
COUNTRY_COUNTS = {"farm": 12, "village": 36, "spring": 21}
# Which animals each tile may house (rulebook pp.15-19); every other tile houses none.
HOUSES: dict[str, tuple[str, ...]] = {
    "cow_shed": ("cow",),
    "pig_sty": ("pig",),
    "sheep_shelter": ("sheep",),
    "stable": ("horse",),
    "farmyard": ("cow", "horse", "pig", "sheep"),
    "paddock": ("chicken", "deer", "goat", "boar"),
    "cluck_cluck_chicken_house": ("chicken",),
    "goat_pen": ("goat",),
    "game_wardens_cottage": ("deer",),
    "hunters_lodge": ("boar",),
    "hop_field": vocab.ANIMALS,
    "livestock_market": vocab.ANIMALS,
    "copse": ("chicken", "deer", "goat", "boar"),
}
CONFIRMED_AREAS = {"barn": "farm", "thatcher": "village"}  # both named in their own scoring text
COST_GROUPS: tuple[str, ...] = ("any_raw", "any_finished", "any_gem", "three_raw", "three_finished")

FAIR_COUNTS = {"spring": 6, "summer": 6, "autumn": 6, "winter": 8}
WINTER_SIDES: tuple[tuple[tuple[str, ...], int], ...] = ((("summer", "autumn"), 4), (("autumn", "winter"), 6))
EXAMPLE_FAIR: tuple[dict[str, int], int] = ({"sheep": 1, "rock": 1}, 2)  # rulebook p.8
BOAT_COUNT = 6
DISPLAYS_PER_SEASON = 4

# --- Stage 3: check the records ----------------------------------------------------------------------


def _exact_set(where: str, found: Iterable[str], expected: Iterable[str]) -> list[str]:
    """Problems for names missing from, or unexpected in, a collection."""
    have, want = set(found), set(expected)
    out = [f"{where}: missing {name!r}" for name in sorted(want - have)]
    return out + [f"{where}: unexpected {name!r}" for name in sorted(have - want)]


def check_field_kinds(kinds: Mapping[str, FieldKind], names: Iterable[str] | None = None) -> list[str]:
    """The 27 field kinds, their categories, resources and border colours (names: every kind declared)."""
    out = _exact_set("fields.toml", kinds if names is None else names, FIELD_KINDS)
    for k in kinds.values():
        out += [f"fields.toml [{k.name}]: {p}" for p in _field_kind_problems(k)]
    return out


def _field_kind_problems(k: FieldKind) -> list[str]:
    out: list[str] = []
    category = FIELD_KINDS.get(k.name)
    if category and k.category != category:
        out.append(f"category must be {category!r}, not {k.category!r}")
    want_resource = k.name if category == "resource" else CONVERTS.get(k.name)
    if category and k.resource != want_resource:
        out.append(f"resource must be {want_resource!r}, not {k.resource!r}")
    if k.colour is not None and k.colour not in vocab.FIELD_COLOURS:
        out.append(f"colour {k.colour!r} is not one of {', '.join(vocab.FIELD_COLOURS)}")
    if k.name in CONFIRMED_COLOURS and k.colour != CONFIRMED_COLOURS[k.name]:
        out.append(f"the rulebook gives this field the colour {CONFIRMED_COLOURS[k.name]!r}, "
                   f"not {k.colour!r}")
    elif category in UNCOLOURED_CATEGORIES and k.colour is not None:
        out.append("this kind of field has no colour bonus, so it has no border colour")
    elif category and category not in UNCOLOURED_CATEGORIES and k.colour is None:
        out.append("this kind of field has a colour bonus (rulebook p.12), so it needs a border colour")
    return out


def _adjacent(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


def _display_shape(d: Display, kinds: Iterable[str]) -> list[str]:
    """One display: 15 fields on the 4x4 grid, one keyp touching a two-cell river, no kind twice."""
    out: list[str] = []
    cells = [c for f in d.fields for c in f.cells]
    if len(cells) != GRID * GRID:
        out.append(f"covers {len(cells)} cells, expected {GRID * GRID}")
    known = set(kinds)
    out += [f"unknown field kind {f.kind!r}" for f in d.fields if f.kind not in known]
    for f in d.fields:
        size = 2 if f.kind == "river" else 1
        if len(f.cells) != size:
            out.append(f"{f.kind!r} covers {len(f.cells)} cells; a field kind may appear once, "
                       f"covering {size} cell{'s' if size > 1 else ''}")
    ids = {f.id for f in d.fields}
    out += [f"has no {k} field" for k in ("keyp", "river") if k not in ids]
    if len(d.fields) != 15:
        out.append(f"has {len(d.fields)} fields, expected 15")
    if "keyp" in ids and "river" in ids:
        river = d.field("river").cells
        if len(river) == 2 and not _adjacent(*river):
            out.append("the two river cells are not side by side")
        if not any(_adjacent(d.field("keyp").cells[0], c) for c in river):
            out.append("the keyp field does not touch the river")
    return out


def _display_meta(d: Display) -> list[str]:
    out: list[str] = []
    if d.id != "-".join(d.seasons) + f"-{d.number}":
        out.append(f"id must be its seasons and number joined by '-', e.g. {'-'.join(d.seasons)}-{d.number}")
    if not 1 <= d.number <= DISPLAYS_PER_SEASON:
        out.append(f"number {d.number} is not 1..{DISPLAYS_PER_SEASON}")
    if not d.seasons or len(set(d.seasons)) != len(d.seasons):
        out.append("seasons must list at least one season, none twice")
    out += [f"unknown season {s!r}" for s in d.seasons if s not in vocab.SEASONS]
    return out


def check_displays(
    displays: tuple[Display, ...],
    kinds: Mapping[str, FieldKind],
    names: Iterable[str] | None = None,
    ids: Iterable[str] | None = None,
) -> list[str]:
    """Every display's shape, four numbered displays per season, every kind used, winter colour maxima.

    names: every field kind declared; ids: every display declared (a malformed one is not counted again).
    """
    out: list[str] = []
    known = set(kinds if names is None else names)
    for d in displays:
        out += [f"displays.toml [{d.id}]: {p}" for p in _display_meta(d) + _display_shape(d, known)]
    if ids is not None and set(ids) - {d.id for d in displays}:
        return out
    for season, shown in by_season(displays).items():
        numbers = sorted(d.number for d in shown)
        if numbers != list(range(1, DISPLAYS_PER_SEASON + 1)):
            out.append(f"displays.toml: {season} must have displays numbered 1..{DISPLAYS_PER_SEASON} "
                       f"once each, found {numbers}")
    used = {f.kind for d in displays for f in d.fields}
    out += [f"displays.toml: field kind {k!r} appears in no display" for k in kinds if k not in used]
    return out + _winter_colours(displays, kinds) + _season_rules(displays, kinds)


def colour_count(d: Display, kinds: Mapping[str, FieldKind], colour: str) -> int:
    """How many fields of a display have this border colour (the river excluded)."""
    coloured = (f for f in d.fields if f.kind != "river" and f.kind in kinds)
    return sum(1 for f in coloured if kinds[f.kind].colour == colour)


def _winter_colours(displays: tuple[Display, ...], kinds: Mapping[str, FieldKind]) -> list[str]:
    """The scoring tiles' maxima: over the winter displays, the most fields of each colour is exact."""
    out: list[str] = []
    winter = [d for d in displays if "winter" in d.seasons]
    for colour, (limit, tile) in WINTER_COLOUR_MAX.items():
        best = max((colour_count(d, kinds, colour) for d in winter), default=0)
        if best != limit:
            out.append(f"displays.toml: the best winter display has {best} {colour}-bordered fields; "
                       f"the {tile} maximum needs exactly {limit}")
    return out


def seasons_with(displays: Iterable[Display], test: Callable[[str], bool]) -> set[str]:
    """The seasons in which some display has a field whose kind passes the test."""
    return {s for d in displays for s in d.seasons if any(test(f.kind) for f in d.fields)}


def _season_rules(displays: tuple[Display, ...], kinds: Mapping[str, FieldKind]) -> list[str]:
    """Counted absences the rulebook states (which seasons is not stated)."""
    out: list[str] = []
    for label, test, count, page in (
        ("convert fields", lambda k: k in CONVERTS, 2, "p.10"),
        ("gem fields", lambda k: k in vocab.GEMS, 2, "p.11"),
        ("chicken fields", lambda k: k == "chicken", 3, "p.11"),
    ):
        found = sorted(seasons_with(displays, test), key=vocab.SEASONS.index)
        if len(found) != count:
            out.append(f"displays.toml: {label} must be available in exactly {count} seasons "
                       f"(rulebook {page}), found {found}")
    return out


def check_tiles(tiles: Mapping[str, BuildingTile], names: Iterable[str] | None = None) -> list[str]:
    """Home and country tiles: the rulebook's names, areas, counts, animals; costs well formed."""
    declared = set(tiles if names is None else names)
    out = _exact_set("tiles.toml", declared, tuple(HOME_TILES) + COUNTRY_TILES)
    for t in tiles.values():
        out += [f"tiles.toml [{t.id}]: {p}" for p in _tile_problems(t)]
    if declared - set(tiles):
        return out  # a malformed tile is already reported; counting without it would mislead
    country = [t for t in tiles.values() if t.origin == "country"]
    found = {
        "farm": sum(t.area == "farm" for t in country),
        "village": sum(t.area == "village" for t in country),
        "spring": sum(t.spring for t in country),
    }
    for what, want in COUNTRY_COUNTS.items():
        if found[what] != want:
            out.append(f"tiles.toml: {found[what]} {what} country tiles, the rulebook (p.3) has {want}")
    return out


def tile_id(name: str) -> str:
    """The id a tile name gives: lower case, apostrophes dropped, spaces as underscores."""
    return re.sub(r"[’']", "", name).lower().replace(" ", "_")


def _tile_problems(t: BuildingTile) -> list[str]:
    out: list[str] = []
    if tile_id(t.name) != t.id:
        out.append(f"name {t.name!r} does not match the id (expected the id {tile_id(t.name)!r})")
    want_origin = "home" if t.id in HOME_TILES else "country"
    if t.origin != want_origin:
        out.append(f"origin must be {want_origin!r}, not {t.origin!r}")
    want_area = HOME_TILES.get(t.id) or CONFIRMED_AREAS.get(t.id) or ("farm" if t.houses else None)
    if t.area not in vocab.AREAS or (want_area and t.area != want_area):
        out.append(f"area must be {want_area or 'farm or village'!r}, not {t.area!r}"
                   + (" (only farm tiles house animals)" if t.houses else ""))
    if t.origin == "home" and t.spring:
        out.append("home tiles never go into the bag, so spring must be false")
    if tuple(sorted(t.houses)) != tuple(sorted(HOUSES.get(t.id, ()))):
        out.append(f"houses must be {list(HOUSES.get(t.id, ()))}, not {list(t.houses)}")
    return out + _cost_problems(t.cost)


def _cost_problems(cost: Mapping[str, int]) -> list[str]:
    out = [] if cost else ["cost must not be empty"]
    for key, count in cost.items():
        if key not in vocab.RESOURCES and key not in COST_GROUPS:
            out.append(f"cost key {key!r} is not a resource or one of {', '.join(COST_GROUPS)}")
        if count < 1:
            out.append(f"cost of {key!r} must be at least 1, not {count}")
    return out


def first_offered(c: Components) -> dict[str, int]:
    """Resource -> index of the first season it can be had: from a field, a convert field or the start."""
    first = {r: 0 for r in c.starting_goods}
    for d in c.displays:
        when = min((vocab.SEASONS.index(s) for s in d.seasons if s in vocab.SEASONS), default=None)
        for f in d.fields:
            kind = c.field_kinds.get(f.kind)
            got = _field_gives(kind) if kind else None
            if when is not None and got is not None:
                first[got] = min(first.get(got, when), when)
    return first


def _field_gives(kind: FieldKind) -> str | None:
    if kind.category == "resource":
        return kind.resource
    if kind.category == "convert" and kind.resource:
        return vocab.FINISHED_OF_RAW.get(kind.resource)
    return None


def check_fairs(
    fairs: Mapping[str, Fair], first: Mapping[str, int], names: Iterable[str] | None = None
) -> list[str]:
    """26 fairs: ids, sides and points per kind, the printed example, requirements that can be met."""
    want = [f"{k}-{n}" for k, count in FAIR_COUNTS.items() for n in range(1, count + 1)]
    out = _exact_set("fairs.toml", fairs if names is None else names, want)
    for f in fairs.values():
        out += [f"fairs.toml [{f.id}]: {p}" for p in _fair_problems(f, first)]
    example = [f.id for f in fairs.values() if f.kind == "spring"
               and any((s.requires, s.points) == EXAMPLE_FAIR for s in f.sides)]
    if not example:
        out.append("fairs.toml: no spring fair asks for 1 sheep and 1 rock for 2 points "
                   "(the rulebook p.8 example)")
    return out


def _fair_problems(f: Fair, first: Mapping[str, int]) -> list[str]:
    out: list[str] = []
    if f.kind not in FAIR_COUNTS or not f.id.startswith(f"{f.kind}-"):
        out.append(f"kind {f.kind!r} does not match the id")
    if f.kind == "winter":
        shape = tuple((s.seasons, s.points) for s in f.sides)
        if shape != WINTER_SIDES:
            out.append("a winter fair has side 1 for summer/autumn worth 4 "
                       "and side 2 for autumn/winter worth 6")
        elif not any(r in vocab.GEMS for r in f.sides[1].requires):
            out.append("the autumn/winter side must ask for gems (its gems are shown on the other side)")
    elif len(f.sides) != 1 or f.sides[0].seasons != (f.kind,):
        out.append(f"a {f.kind} fair has one side, held in {f.kind} only")
    for n, side in enumerate(f.sides, 1):
        out += [f"side {n}: {p}" for p in _requirement_problems(side, first)]
    return out


def _requirement_problems(side: FairSide, first: Mapping[str, int]) -> list[str]:
    out = [] if side.requires else ["requires nothing"]
    out += [] if side.points > 0 else [f"points must be positive, not {side.points}"]
    latest = max((vocab.SEASONS.index(s) for s in side.seasons if s in vocab.SEASONS), default=-1)
    out += [f"unknown season {s!r}" for s in side.seasons if s not in vocab.SEASONS]
    for r, count in side.requires.items():
        if r not in vocab.RESOURCES:
            out.append(f"{r!r} is not a specific resource name")
        elif count < 1:
            out.append(f"count of {r!r} must be at least 1")
        elif first.get(r, len(vocab.SEASONS)) > latest >= 0:
            out.append(f"asks for {r}, which no field offers by {vocab.SEASONS[latest]} "
                       "and no player starts with")
    return out


def check_boats(boats: Mapping[str, Boat], names: Iterable[str] | None = None) -> list[str]:
    """Six boats; each shows every season on exactly one side and two different resources per side."""
    want = [f"boat-{n}" for n in range(1, BOAT_COUNT + 1)]
    out = _exact_set("boats.toml", boats if names is None else names, want)
    for b in boats.values():
        seasons = sorted(s for side in b.sides for s in side.seasons)
        if seasons != sorted(vocab.SEASONS):
            out.append(f"boats.toml [{b.id}]: its sides must show each season exactly once, found {seasons}")
        if len(b.sides) != 2:
            out.append(f"boats.toml [{b.id}]: a boat has 2 sides, not {len(b.sides)}")
        for n, side in enumerate(b.sides, 1):
            bad = [r for r in side.resources if r not in vocab.RESOURCES]
            out += [f"boats.toml [{b.id}] side {n}: unknown resource {r!r}" for r in bad]
            if side.resources[0] == side.resources[1]:
                out.append(f"boats.toml [{b.id}] side {n}: the two resource types must differ")
    return out


def check_keyp_tile(tile: KeypTile) -> list[str]:
    """Every keyple colour gains at least one known resource."""
    out = _exact_set("keyp_tile.toml [gains]", tile.gains, vocab.COLOURS)
    for colour, gains in tile.gains.items():
        if not gains:
            out.append(f"keyp_tile.toml [gains]: {colour} gains nothing")
        bad = [r for r in gains if r not in vocab.RESOURCES]
        out += [f"keyp_tile.toml [gains]: {colour}: unknown resource {r!r}" for r in bad]
    return out


def check_game(c: Components) -> list[str]:
    """Supply, keyples, starting team and goods, two-player pool, player board grids."""
    out = _exact_set("game.toml [supply]", c.supply, vocab.RESOURCES)
    out += _exact_set("game.toml [keyples]", c.keyples, vocab.COLOURS)
    out += _unknown("game.toml [starting_keyples]", c.starting_keyples, vocab.COLOURS)
    out += _unknown("game.toml [starting_goods]", c.starting_goods, vocab.RESOURCES)
    out += _unknown("game.toml [two_player_pool]", c.two_player_pool, vocab.FIELD_COLOURS)
    for where, table in (("supply", c.supply), ("keyples", c.keyples), ("starting_goods", c.starting_goods)):
        out += [f"game.toml [{where}]: {k} must be at least 1" for k, n in table.items() if n < 1]
    if sum(c.starting_keyples.values()) != TEAM_SIZE:
        out.append(f"game.toml [starting_keyples]: a team has {TEAM_SIZE} keyples, "
                   f"not {sum(c.starting_keyples.values())}")
    return out + _game_totals(c) + check_player_board(c.player_board)


def _unknown(where: str, names: Iterable[str], allowed: tuple[str, ...]) -> list[str]:
    return [f"{where}: unknown name {n!r}" for n in names if n not in allowed]


def _game_totals(c: Components) -> list[str]:
    """Four starting teams (two teams plus the pool with two players) and four sets of goods must fit."""
    out: list[str] = []
    for colour in vocab.COLOURS:
        team = c.starting_keyples.get(colour, 0)
        need = max(PLAYERS_MAX * team, 2 * team + c.two_player_pool.count(colour))
        if need > c.keyples.get(colour, 0):
            have = c.keyples.get(colour, 0)
            out.append(f"game.toml: setup needs {need} {colour} keyples, the game has {have}")
    if len(set(c.two_player_pool)) != len(c.two_player_pool) or len(c.two_player_pool) < 2:
        out.append("game.toml [two_player_pool]: needs at least 2 different colours (one for each player)")
    for r, n in c.starting_goods.items():
        if PLAYERS_MAX * n > c.supply.get(r, 0):
            out.append(f"game.toml: {PLAYERS_MAX} players start with {PLAYERS_MAX * n} {r}, "
                       f"the supply has {c.supply.get(r, 0)}")
    return out


def _max_line(rows: int, cols: int, steps: tuple[tuple[int, int], ...]) -> int:
    """The most other plots reachable from one plot along the given directions (gaps allowed)."""
    best = 0
    for r in range(rows):
        for c in range(cols):
            seen = 0
            for dr, dc in steps:
                k = 1
                while 0 <= r + k * dr < rows and 0 <= c + k * dc < cols:
                    seen, k = seen + 1, k + 1
            best = max(best, seen)
    return best


def check_player_board(b: PlayerBoard) -> list[str]:
    """Plot counts (p.10) and the village shape that the pavements (max 6) and drainage (max 5) imply."""
    out: list[str] = []
    if b.farm_rows * b.farm_cols != vocab.FARM_PLOTS:
        out.append(f"game.toml [player_board]: the farm has {vocab.FARM_PLOTS} plots, "
                   f"not {b.farm_rows}x{b.farm_cols}")
    if b.village_rows * b.village_cols != vocab.VILLAGE_PLOTS:
        out.append(f"game.toml [player_board]: the village has {vocab.VILLAGE_PLOTS} plots, "
                   f"not {b.village_rows}x{b.village_cols}")
        return out
    straight = _max_line(b.village_rows, b.village_cols, ((0, 1), (0, -1), (1, 0), (-1, 0)))
    diagonal = _max_line(b.village_rows, b.village_cols, ((1, 1), (1, -1), (-1, 1), (-1, -1)))
    if (straight, diagonal) != (5, 4):
        out.append(f"game.toml [player_board]: a {b.village_rows}x{b.village_cols} village gives pavements "
                   f"max {1 + straight} and drainage max {1 + diagonal}; the rulebook (p.15) says 6 and 5")
    return out


def check(c: Components, declared: Mapping[str, Iterable[str]] | None = None) -> list[str]:
    """Every problem with a built pack (empty when it is sound).

    declared: file -> every entry name in it, malformed ones included, so that an entry already
    reported as malformed is not reported again as missing.
    """
    names = dict(declared or {})
    return (
        check_field_kinds(c.field_kinds, names.get("fields"))
        + check_displays(c.displays, c.field_kinds, names.get("fields"), names.get("displays"))
        + check_tiles(c.tiles, names.get("tiles"))
        + check_fairs(c.fairs, first_offered(c), names.get("fairs"))
        + check_boats(c.boats, names.get("boats"))
        + check_keyp_tile(c.keyp_tile)
        + check_game(c)
    )
