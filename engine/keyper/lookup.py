"""Keyper components described by name (the rules lookup): building tiles, fair tiles, boats and board displays.

`describe(name)` answers a tile id or printed name (`alchemist`, "Farmer's cottage"), a fair (`summer-3`,
`winter-2`), a boat (`boat-4`) or a display (`display spring-1`), case-insensitively and with spaces, hyphens
and underscores alike; anything else gives None, so the rules sections get their turn. `names()` lists what
it knows, for autocomplete. Every description stays under DISCORD_SAFE characters and says which of its
values the data pack had to reconstruct (provenance in engine/keyper/data/*.toml).

The tiles' effects and points are written here in Keywood's own words from what the engine does (rulebook
pp.15-19 and the rulings in docs/rulings.md); their numbers come from engine.keyper.scoring, so the text
cannot drift from the score. The formatting helpers (items, reconstructed, field_label, ...) are shared with
engine/keyper/texts.py.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

from engine.keyper import scoring
from engine.keyper.components import Boat, BuildingTile, Components, Display, Fair, FairSide, default
from engine.keyper.vocab import plural

DISCORD_SAFE = 1800
DAGGER = "†"

GROUP_LABEL = {
    "any_raw": "any raw material",
    "any_finished": "any finished good",
    "any_gem": "any gem",
    "three_raw": "any raw material (not wheat)",
    "three_finished": "any finished good (not wheat)",
}
"""How the cost group keys read; the white 'any' icons also take wheat for raw materials and goods (p.10)."""

FIELD_YIELD = {
    "convert_clay": "clay→brick",
    "convert_log": "log→wood",
    "convert_rock": "rock→stone",
    "trade_raw": "trade raw",
    "trade_finished": "trade finished",
    "country_tile": "country tile",
    "discount_build": "discount build",
}
"""Short field labels that say what the field gives; a resource field is named by its resource."""

FIELD_MEANS = {
    "keyp": "keypers only; the keyper claims the board",
    "river": "take from the boat or sell to it",
    "country_tile": "take a country tile or winter fair from the display",
    "convert_clay": "turn clay into brick",
    "convert_log": "turn logs into wood",
    "convert_rock": "turn rock into stone",
    "trade_raw": "hand in 1 raw material, get 2 others",
    "trade_finished": "hand in 1 finished good, get 2 others",
    "build": "build a tile at its printed cost",
    "discount_build": "build a tile for one item less",
    "upgrade": "upgrade a built tile",
}

RULEBOOK_PAGES = {"home": "rulebook p.15", "spring": "rulebook pp.16-17", "later": "rulebook pp.17-19"}

# --- Shared wording ----------------------------------------------------------------------------------------


def reconstructed(provenance: str) -> bool:
    """Whether a data entry's provenance says its values were reconstructed for the pack (docs/components.md)."""
    return provenance.strip().lower().startswith("reconstructed")


def source_note(provenance: str) -> str:
    """The provenance as a footnote: '† Reconstructed for Keywood's data pack: ...' or 'Source: rulebook p.8: ...'."""
    if not reconstructed(provenance):
        return f"Source: {provenance.strip()}"
    rest = provenance.partition(":")[2].strip()
    return f"{DAGGER} Reconstructed for Keywood's data pack" + (f": {rest}" if rest else "")


def item(name: str, count: int) -> str:
    """'clay', '2 logs', 'any raw material', '2 × any gem'."""
    if name in GROUP_LABEL:
        return GROUP_LABEL[name] if count == 1 else f"{count} × {GROUP_LABEL[name]}"
    return name.replace("_", " ") if count == 1 else plural(name, count)


def items(counts: Mapping[str, int], joiner: str = ", ") -> str:
    """Counts as words, in the data's order: 'log, rock', '2 sheep, clay, wood'; 'nothing' when empty."""
    return joiner.join(item(k, n) for k, n in counts.items() if n) or "nothing"


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def field_label(kind: str) -> str:
    """A field kind as a short label that says what it yields."""
    return FIELD_YIELD.get(kind, kind.replace("_", " "))


def seasons_text(seasons: tuple[str, ...]) -> str:
    """('summer', 'autumn') as 'summer or autumn'."""
    return " or ".join(seasons)


def side_text(side: FairSide) -> str:
    """A fair side: 'end of summer or autumn: 2 cows, wheat, brick → 4 pts'."""
    return f"end of {seasons_text(side.seasons)}: {items(side.requires)} → {side.points} pts"


# --- Names -------------------------------------------------------------------------------------------------


def _key(name: str) -> str:
    """A name folded for matching: lower case, apostrophes dropped, spaces, hyphens and underscores alike."""
    folded = name.strip().lower().replace("'", "").replace("’", "")
    return re.sub(r"[\s_\-]+", " ", folded)


@cache
def _index() -> dict[str, tuple[str, str]]:
    """Folded name -> (kind, id) for every component described."""
    comps = default()
    found: dict[str, tuple[str, str]] = {}
    for display in comps.displays:
        found[_key(f"display {display.id}")] = ("display", display.id)
    for boat in comps.boats:
        found[_key(boat)] = ("boat", boat)
    for fair in comps.fairs:
        found[_key(fair)] = ("fair", fair)
        found[_key(f"fair {fair}")] = ("fair", fair)
    for tile in comps.tiles.values():
        found[_key(tile.id)] = ("tile", tile.id)
        found[_key(tile.name)] = ("tile", tile.id)
    return found


@cache
def _names() -> tuple[str, ...]:
    """Every name offered for autocomplete: tile names, fairs, boats, then displays."""
    comps = default()
    tiles = sorted(t.name for t in comps.tiles.values())
    return (tuple(tiles) + tuple(comps.fairs) + tuple(comps.boats)
            + tuple(f"display {d.id}" for d in comps.displays))


def names() -> list[str]:
    """Every component name describe() answers (one spelling each), for autocomplete."""
    return list(_names())


def describe(name: str) -> str | None:
    """A component described for chat (under DISCORD_SAFE characters), or None when the name is no component."""
    found = _index().get(_key(name))
    if found is None:
        return None
    kind, ident = found
    comps = default()
    if kind == "tile":
        text = tile_text(comps.tiles[ident])
    elif kind == "fair":
        text = fair_text(comps.fairs[ident], comps)
    elif kind == "boat":
        text = boat_text(comps.boats[ident])
    else:
        text = display_text(comps.display(ident), comps)
    return text if len(text) <= DISCORD_SAFE else text[: DISCORD_SAFE - 1] + "…"


# --- Building tiles ----------------------------------------------------------------------------------------

# What a tile does besides scoring, plain side and upgraded side (rulebook pp.15-19 and the rulings named).
ACTIONS: dict[str, tuple[str, str]] = {
    "brickmaker": ("Turns 1 clay into 1 brick.", "Turns 1 clay into 2 bricks."),
    "carpenter": ("Turns 1 log into 1 wood.", "Turns 1 log into 2 wood."),
    "stonemason": ("Turns 1 rock into 1 stone.", "Turns 1 rock into 2 stone."),
    "scrapyard": ("Turns 2 raw materials (any mix) into 1 finished good of any kind.",
                  "Turns 1 raw material into 1 finished good of any kind."),
    "alchemist": ("Turns 2 raw materials (any mix) into 1 gem of any kind.",
                  "Turns 1 raw material into 1 gem of any kind."),
    "builder": ("Builds any of your tiles for 1 finished good instead of its cost (wheat may not pay, K-24).",
                "Builds any of your tiles, or upgrades one, for 1 finished good or wheat."),
    "building_plot": ("The plot to its right may be built on at no cost (a build action is still needed; K-32).",
                      "The plots to its right, above and below may be built on at no cost."),
    "farm_labourer": ("Builds a farm tile at no cost.", "Builds or upgrades a farm tile at no cost."),
    "gem_dealer": ("Turns 1 gem into 1 gem of another kind.", "Turns 1 gem into 2 gems of any kinds."),
    "hop_field": ("Turns 1 wheat into 1 animal of any kind.", "Turns 1 wheat into 2 animals of any kinds."),
    "jewel_cutter": ("Turns 1 stone into 1 gem of any kind.", "Turns 1 stone into 2 gems of any kinds."),
    "livestock_market": ("Turns 1 animal into 1 animal of another kind.",
                         "Turns 1 animal into 2 animals of any kinds."),
    "copse": ("Turns 1 wood into 1 chicken, deer, goat or boar.",
              "Turns 1 wood into 2 of chicken, deer, goat, boar."),
    "windmill": ("Turns 1 raw material into 2 wheat.", "Turns 1 raw material into 2 wheat (K-35)."),
    "trading_post": ("Trades 1 raw material for 2 others, or 1 finished good for 2 others (never wheat).",
                     "Makes both trades, one after the other (K-26)."),
    "key_market": ("Turns 2 of raw materials, finished goods, gems and wheat into 1 of them.",
                   "Turns 1 of raw materials, finished goods, gems and wheat into 1 other."),
    "seafarer": ("Each time your keyple goes onto a boat (joining or laying down counts once): 1 shipping point "
                 "(K-25).", "The same, 2 shipping points each time."),
    "shipping_agent": ("1 extra shipping point for every second resource you sell to a boat in a turn (K-25).",
                       "1 extra shipping point for every resource you sell to a boat."),
    "merchant": ("", "One extra boat action each time you use a boat (K-25)."),
}

# Tiles whose points come from a count on the player's board, plain side and upgraded side.
COUNTED: dict[str, tuple[str, str]] = {
    "barn": ("1 point per farm tile you built, the barn included.", "2 points per upgraded farm tile."),
    "boarding_house": ("2 points per village tile just left or right of it (K-29).",
                       "2 points per village tile beside it on any side."),
    "drainage": ("1 point, plus 1 per village tile anywhere on its diagonals (K-29).",
                 "2 points, plus 2 per village tile on its diagonals."),
    "pavements": ("1 point, plus 1 per village tile anywhere in its row and column (K-29).",
                  "2 points, plus 2 per village tile in its row and column."),
    "statue": ("1 point per home village tile you built.", "2 points per upgraded home village tile."),
    "thatcher": ("1 point per 2 village tiles you built, the thatcher included.",
                 "1 point per upgraded village tile."),
    "village_hall": ("6 points if all 12 village plots are built.", "12 points if all 12 village plots are built."),
    "oast_house": ("4 points if all 8 farm plots are built.", "8 points if all 8 farm plots are built."),
    "dock": ("6 points if your shipping track reaches 20.", "12 points if it reaches 30 (and none below 30)."),
    "entertainer": ("1 point per season in which you held a fair.", "2 points per season in which you held a fair."),
}


def _points(n: int) -> str:
    """'1 point', '3 points'."""
    return f"{n} point{'' if n == 1 else 's'}"


def _scoring(tile_id: str, up: bool) -> str:
    """What a tile scores at the end on one side, from engine.keyper.scoring's tables; '' when nothing."""
    side = int(up)
    if tile_id in scoring.FLAT:
        flat = scoring.FLAT[tile_id][side]
        return f"{_points(flat)} at the end." if flat else ""
    if tile_id in scoring.ONE_ANIMAL:
        animal, plain, upgraded = scoring.ONE_ANIMAL[tile_id]
        return f"{_points(upgraded if up else plain)} per {animal} here at the end."
    if tile_id in scoring.MIXED_ANIMALS:
        return f"{_points(2 if up else 1)} per kind of animal here at the end."
    if tile_id in scoring.KEYPLE_TILES:
        colour = scoring.KEYPLE_TILES[tile_id]
        return (f"{_points(2 if up else 1)} per {colour} keyple you have at the end, 4 at most "
                f"(white keyples count as any colour).")
    if tile_id in scoring.BOARD_TILES:
        colour, plain, upgraded = scoring.BOARD_TILES[tile_id]
        return f"{_points(upgraded if up else plain)} per {colour}-bordered field of the board you claim in winter."
    if tile_id in scoring.GEM_SETS:
        gems = scoring.GEM_SETS[tile_id][side]
        return f"{_points(6 if up else 4)} per {'+'.join(gems)} set given to it, 4 sets at most."
    if tile_id in scoring.YARDS:
        return f"{_points(2 if up else 1)} per {scoring.YARDS[tile_id]} you have at the end, 4 at most."
    if tile_id == "prospector":
        return f"{_points(2 if up else 1)} per gem given to it at the end, 4 at most."
    if tile_id == "windmill":
        return "2 points per wheat given to it at the end, 4 at most." if up else ""
    if tile_id == "scrap_dealer":
        return (f"{_points(2 if up else 1)} per 2 raw materials, finished goods, wheat or gems given to it, "
                "8 at most.")
    if tile_id in COUNTED:
        return COUNTED[tile_id][side]
    return ""


def _houses(tile: BuildingTile) -> str:
    """Which animals a farm tile houses, or ''."""
    if not tile.houses:
        return ""
    if len(tile.houses) >= 8:
        return "Houses any 4 animals."
    if len(tile.houses) == 1:
        return f"Houses up to 4 {plural(tile.houses[0], 2).split(' ', 1)[1]}."
    return f"Houses any 4 of {', '.join(tile.houses)}."


def tile_side(tile: BuildingTile, up: bool) -> str:
    """One side of a tile in a sentence or three."""
    action = ACTIONS.get(tile.id, ("", ""))[int(up)]
    parts = [p for p in (_houses(tile), action, _scoring(tile.id, up)) if p]
    if not _scoring(tile.id, up):
        parts.append("No points.")
    return " ".join(parts)


def _pages(tile: BuildingTile) -> str:
    """Where the rulebook describes a tile."""
    return RULEBOOK_PAGES["home" if tile.origin == "home" else "spring" if tile.spring else "later"]


def tile_text(tile: BuildingTile) -> str:
    """A building tile: kind, costs, both sides, and which values were reconstructed."""
    origin = "home tile" if tile.origin == "home" else "country tile" + (" (spring)" if tile.spring else "")
    activated = " A keyple must stand on it for it to act." if tile.activated else ""
    mark = DAGGER if reconstructed(tile.provenance) else ""
    upgrade = "1 raw material or wheat" if tile.area == "farm" else "1 finished good or wheat"
    lines = [
        f"**{tile.name}** (`{tile.id}`): {origin}, {tile.area}.{activated}",
        f"Build cost: {items(tile.cost, ' + ')}{mark}. Upgrade: {upgrade} (rulebook p.13).",
        f"Plain side: {tile_side(tile, False)}",
        f"Upgraded side: {tile_side(tile, True)}",
    ]
    if any(k in GROUP_LABEL for k in tile.cost):
        lines.append("Wheat may pay an 'any raw material' or 'any finished good' item; a finished good may pay "
                     "for its own raw material (p.10).")
    lines.append(f"{source_note(tile.provenance)}. Effects and points: {_pages(tile)}.")
    return "\n".join(lines)


# --- Fairs, boats, displays --------------------------------------------------------------------------------


def fair_text(fair: Fair, comps: Components) -> str:
    """A fair tile: the side(s), when each may be held, what it needs and scores."""
    mark = DAGGER if reconstructed(fair.provenance) else ""
    one = len(fair.sides) == 1
    lines = [f"**Fair {fair.id}**{mark}: {fair.kind} fair, {'one side' if one else 'two sides'}."]
    for i, side in enumerate(fair.sides, start=1):
        lines.append(f"{'Side' if one else f'Side {i}'}: held at the {side_text(side)}.")
    lines.append("A finished good may stand in for its raw material. Items shown at one fair cannot be shown at "
                 "another in the same season (rulebook p.8).")
    if fair.id.startswith(("spring-", "summer-", "autumn-")) and any(d.id == fair.id for d in comps.displays):
        lines.append(f"(The board display of the same name: `display {fair.id}`.)")
    lines.append(f"{source_note(fair.provenance)}.")
    return "\n".join(lines)


def boat_text(boat: Boat) -> str:
    """A boat tile: the resources each side carries and the seasons it shows."""
    mark = DAGGER if reconstructed(boat.provenance) else ""
    lines = [f"**{boat_name(boat.id)}** (`{boat.id}`){mark}"]
    for side in boat.sides:
        lines.append(f"{' and '.join(side.seasons).capitalize()} side: {', '.join(side.resources)}.")
    lines.append("A keyple on the river with this boat takes one of these resources or sells one to it for "
                 "shipping points (rulebook pp.13-14).")
    lines.append(f"{source_note(boat.provenance)}.")
    return "\n".join(lines)


def display_text(display: Display, comps: Components) -> str:
    """A board display: its grid row by row, then its fields by border colour and what each gives."""
    mark = DAGGER if reconstructed(display.provenance) else ""
    cells: dict[tuple[int, int], str] = {}
    for f in display.fields:
        for cell in f.cells:
            cells[cell] = field_label(f.kind)
    lines = [f"**Display {display.id}**{mark}: {' and '.join(display.seasons)}, number {display.number}."]
    for row in range(4):
        lines.append(f"Row {row + 1}: " + " | ".join(cells.get((row, col), "-") for col in range(4)))
    lines.append("Fields by border colour: " + colour_groups(display, comps) + ".")
    kinds = dict.fromkeys(f.kind for f in display.fields if f.kind in FIELD_MEANS)
    lines.append("; ".join(f"{field_label(k)} = {FIELD_MEANS[k]}" for k in kinds) + ".")
    lines.append(f"{source_note(display.provenance)}. {capitalise(colour_sources(comps))}.")
    return "\n".join(lines)


def colour_groups(display: Display, comps: Components, extra: Mapping[str, str] | None = None) -> str:
    """'orange: clay, build; green: wheat, pig; ...; plain: country tile' (the keyp field left out unless occupied).

    extra adds text after a field's label (keyples standing on it, the boat), keyed by field id.
    """
    groups: dict[str, list[str]] = {}
    for f in display.fields:
        if f.kind == "keyp" and f.id not in (extra or {}):
            continue
        colour = comps.field_kinds[f.kind].colour or "plain"
        label = field_label(f.kind) + (extra or {}).get(f.id, "")
        groups.setdefault(colour, []).append(label)
    order = ["orange", "green", "brown", "black", "grey", "blue", "plain"]
    return "; ".join(f"{c}: {', '.join(groups[c])}" for c in order if c in groups)


def colour_sources(comps: Components) -> str:
    """Which field colours are reconstructed, in a phrase: 'field colours are reconstructed except pig, ...'."""
    coloured = [k for k in comps.field_kinds.values() if k.colour]
    confirmed = [field_label(k.name) for k in coloured if not reconstructed(k.provenance)]
    if not confirmed:
        return "field colours are reconstructed"
    if len(confirmed) == len(coloured):
        return "field colours from the rulebook"
    return f"field colours are reconstructed except {and_list(confirmed)} (rulebook)"


def reconstructed_values(comps: Components, layouts: bool, cargo: bool) -> list[str]:
    """What the data pack reconstructed, in words: 'board layouts' (when layouts), 'boat cargo' (when cargo) and
    the field colours not from the rulebook ('field colours except pig, build, upgrade and river'), if any."""
    what = [w for w, shown in (("board layouts", layouts), ("boat cargo", cargo)) if shown]
    colours = colour_sources(comps)
    if colours != "field colours from the rulebook":
        what.append(colours.replace("field colours are reconstructed", "field colours").replace(" (rulebook)", ""))
    return what


def boat_name(boat_id: str) -> str:
    """A boat as printed: 'boat-4' is 'Boat 4'."""
    return boat_id.replace("boat-", "Boat ")


def and_list(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
