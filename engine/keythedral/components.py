"""Keythedral component data: typed records loaded from the TOML files in engine/keythedral/data/.

Loading happens in two steps, and each lists every problem it finds before giving up: read the four files
into records (types and schema), then `validate` the records against the rulebook's counts and the
constraints in shared/reference/keythedral-components.md (docs/components.md, "Keythedral", lists them).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from engine.datacheck import ComponentError as ComponentError  # the family's error, re-exported here
from engine.datacheck import TomlEntry, data_folder, duplicates, exact_counts, is_int, read_toml_files

DATA_DIR = Path(str(resources.files("engine.keythedral") / "data"))  # package data: shipped in the wheel
FILES: tuple[str, ...] = ("fields", "buildings", "laws", "game")

CUBE_ORDER: tuple[str, ...] = ("black", "brown", "blue", "green", "red", "white", "purple", "yellow")
RESOURCES: tuple[str, ...] = CUBE_ORDER[:5]
CRAFTS: tuple[str, ...] = CUBE_ORDER[5:]
TERRAINS: dict[str, str] = {"quarry": "black", "woods": "brown", "lake": "blue", "farm": "green", "vineyard": "red"}
MATERIAL: dict[str, str] = {  # what each cube stands for
    "black": "stone", "brown": "timber", "blue": "water", "green": "food", "red": "wine", "white": "ironwork",
    "purple": "stained glass", "yellow": "gold",
}
PROVENANCES: tuple[str, ...] = ("rulebook", "reference", "reconstructed")


@dataclass(frozen=True)
class Craftsman:
    """A craftsman of Keytown: the action word that buys from him, the craft cube he sells and the cubes he asks
    (rules: Phase three, action four), his name and his workshop."""

    verb: str
    colour: str
    price: int
    name: str
    place: str


CRAFTSMEN: dict[str, Craftsman] = {c.verb: c for c in (
    Craftsman("smith", "white", 2, "blacksmith", "forge"),
    Craftsman("glass", "purple", 3, "glassmaker", "glassworks"),
    Craftsman("gold", "yellow", 4, "goldsmith", "workshop"),
)}
CRAFTSMAN_OF: dict[str, Craftsman] = {c.colour: c for c in CRAFTSMEN.values()}  # by the colour he sells

# --- What the sources fix (validate checks these) ------------------------------------------------------

FIELD_COUNT = 29  # rulebook contents
TERRAIN_COUNTS: dict[str, int] = {"quarry": 6, "woods": 8, "lake": 5, "farm": 5, "vineyard": 5}  # rulebook contents
BACK_COUNTS: dict[int, int] = {1: 4, 2: 10, 3: 5, 4: 5, 5: 5}  # reference section 3 (WDE)
BACK_ONE: dict[str, int] = {"quarry": 2, "woods": 2}  # rulebook set-up and variation one
BUILDING_COUNT = 34  # rulebook contents
STAGE_COUNTS: dict[int, int] = {1: 6, 2: 8, 3: 8, 4: 6, 5: 6}  # reference section 4 (WDE reading)
# Colours a stage's tiles may ask for: rulebook phase three, action one, and the box hints (reference section 4).
STAGE_COLOURS: dict[int, frozenset[str]] = {
    1: frozenset({"black", "brown", "blue", "green"}),
    2: frozenset({"black", "brown", "blue", "green"}),
    3: frozenset({"brown", "blue", "green", "red", "white"}),
    4: frozenset({"blue", "green", "red", "white", "purple", "yellow"}),
    5: frozenset({"blue", "green", "red", "white", "purple", "yellow"}),
}
# Colours some tile of the stage must ask for (same sources: stone and timber early, food and water throughout).
STAGE_NEEDS: dict[int, tuple[str, ...]] = {
    1: ("black", "brown", "blue", "green"),
    2: ("black", "brown", "blue", "green"),
    3: ("brown", "blue", "green"),
    4: ("blue", "green"),
    5: ("blue", "green"),
}
RESOURCE_SUPPLY: dict[str, int] = {"black": 20, "brown": 20, "blue": 15, "green": 15, "red": 15}  # rulebook
CRAFT_SUPPLY: dict[str, int] = {"white": 10, "purple": 10, "yellow": 10}  # rulebook contents
MAT_SLOTS: dict[int, int] = {1: 4, 2: 4, 3: 4, 4: 3, 5: 2}  # rulebook phase three, action one
PLAYER_PIECES: dict[str, int] = {"cottages": 5, "fences": 3, "workers": 10}  # rulebook preparation
LAWS: tuple[tuple[int, str, str], ...] = (  # rulebook appendix: reference number and title; keys are ours
    (1, "work-order", "Work Order"),
    (2, "price-increase", "Price Increase"),
    (3, "price-decrease", "Price Decrease"),
    (4, "upgrade-cottage", "Upgrade Cottage"),
    (5, "substitution", "Substitution"),
    (6, "cottage-number", "Cottage Number"),
    (7, "craft-bargain", "Craft Bargain"),
    (8, "unexpected-harvest", "Unexpected Harvest"),
    (9, "broken-fences", "Broken Fences"),
    (10, "repeal", "Repeal Law"),
    (11, "unsafe-fence", "Unsafe Fence"),
    (12, "house-moratorium", "House Moratorium"),
    (13, "design-change", "Design Change"),
    (14, "double-production", "Double Production"),
    (15, "bargain", "Bargain"),
    (16, "sale", "Sale"),
    (17, "downgrade-house", "Downgrade House"),
    (18, "good-harvest", "Good Harvest"),
    (19, "poor-harvest", "Poor Harvest"),
    (20, "start-order", "Start Order"),
)
BUILDING_ID = re.compile(r"^b(\d+)-(\d+)$")


@dataclass(frozen=True)
class FieldTile:
    """An octagonal field tile: its terrain and the number on its back."""

    id: str
    terrain: str
    back: int
    provenance: str


@dataclass(frozen=True)
class BuildingTile:
    """A building tile (seat): its stage, which is also its points, and its cube cost."""

    id: str
    stage: int
    cost: tuple[str, ...]  # cube colours sorted by CUBE_ORDER, repeats allowed
    provenance: str


@dataclass(frozen=True)
class LawCard:
    """A law card: its reference number, the key players type and its title."""

    number: int
    key: str
    title: str
    provenance: str


@dataclass(frozen=True)
class Components:
    """Every Keythedral component the engine needs."""

    fields: tuple[FieldTile, ...]
    buildings: tuple[BuildingTile, ...]
    laws: tuple[LawCard, ...]
    resource_supply: Mapping[str, int]
    craft_supply: Mapping[str, int]
    mat_slots: Mapping[int, int]
    cottages: int = 5
    fences: int = 3
    workers: int = 10


# --- Reading typed values from TOML tables -----------------------------------------------------------


class _Entry(TomlEntry):
    """Typed access to one TOML table of Keythedral's data (engine.datacheck.TomlEntry)."""

    def counts(self, key: str) -> dict[str, int]:
        """Return a required table of name = positive integer ({} when missing or wrong)."""
        value = self.get(key, _is_count_table, "a table of name = whole number of at least 1", {})
        return {str(k): int(v) for k, v in value.items()}

    def provenance(self) -> str:
        """Return the provenance; a reconstructed entry must also carry a non-empty note."""
        text = self.text("provenance")
        if "provenance" in self.table and text not in PROVENANCES:
            self.note(f"provenance {text!r} must be one of {', '.join(PROVENANCES)}")
        if text == "reconstructed":
            note = self.table.get("note")
            if not isinstance(note, str) or not note.strip():
                self.note("a reconstructed entry needs a short 'note' saying how it was made up")
        elif "note" in self.table and not isinstance(self.table["note"], str):
            self.note(f"'note' must be a string, not {self.table['note']!r}")
        return text


def _is_count_table(value: object) -> bool:
    """True for a table whose values are integers of at least 1."""
    return isinstance(value, dict) and all(is_int(v) and v >= 1 for v in value.values())


def _cube_rank(colour: str) -> int:
    """Position of a colour in CUBE_ORDER; unknown colours sort last."""
    return CUBE_ORDER.index(colour) if colour in CUBE_ORDER else len(CUBE_ORDER)


# --- Step 1: files to records ---------------------------------------------------------------------------


def _fields(doc: dict[str, Any], problems: list[str]) -> tuple[FieldTile, ...]:
    """fields.toml: one [id] table per field tile."""
    out: list[FieldTile] = []
    for key, table in doc.items():
        e = _Entry(f"fields.toml [{key}]", table, problems)
        e.only("terrain", "back", "provenance", "note")
        out.append(FieldTile(id=key, terrain=e.text("terrain"), back=e.integer("back"), provenance=e.provenance()))
    return tuple(out)


def _buildings(doc: dict[str, Any], problems: list[str]) -> tuple[BuildingTile, ...]:
    """buildings.toml: one [id] table per building tile; the cost table becomes a sorted tuple of colours."""
    out: list[BuildingTile] = []
    for key, table in doc.items():
        e = _Entry(f"buildings.toml [{key}]", table, problems)
        e.only("stage", "cost", "provenance", "note")
        counts = e.counts("cost")
        cost = tuple(c for c in sorted(counts, key=_cube_rank) for _ in range(counts[c]))
        out.append(BuildingTile(id=key, stage=e.integer("stage"), cost=cost, provenance=e.provenance()))
    return tuple(out)


def _laws(doc: dict[str, Any], problems: list[str]) -> tuple[LawCard, ...]:
    """laws.toml: one [key] table per law card, sorted by number."""
    out: list[LawCard] = []
    for key, table in doc.items():
        e = _Entry(f"laws.toml [{key}]", table, problems)
        e.only("number", "title", "provenance", "note")
        out.append(LawCard(number=e.integer("number"), key=key, title=e.text("title"), provenance=e.provenance()))
    return tuple(sorted(out, key=lambda law: law.number))


def _game(doc: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """game.toml: [supply], [mat] and [player]; returns the Components keyword arguments they give."""
    sections = {"supply": ("resources", "crafts"), "mat": ("slots",), "player": tuple(PLAYER_PIECES)}
    entries: dict[str, _Entry] = {}
    for section, keys in sections.items():
        if section not in doc:
            problems.append(f"game.toml: missing section [{section}]")
            entries[section] = _Entry(f"game.toml [{section}]", {}, [])  # its missing keys are not news
            continue
        e = entries[section] = _Entry(f"game.toml [{section}]", doc[section], problems)
        e.only(*keys, "provenance", "note")
        e.provenance()
    for section in doc:
        if section not in sections:
            problems.append(f"game.toml: unknown section [{section}] (expected {', '.join(sections)})")
    slots: dict[int, int] = {}
    for stage, n in entries["mat"].counts("slots").items():
        if stage.isdigit():
            slots[int(stage)] = n
        else:
            entries["mat"].note(f"slot key {stage!r} must be a stage number 1..5")
    player = entries["player"]
    return {
        "resource_supply": entries["supply"].counts("resources"),
        "craft_supply": entries["supply"].counts("crafts"),
        "mat_slots": slots,
        **{piece: player.integer(piece) for piece in PLAYER_PIECES},
    }


def load(path: Path | None = None) -> Components:
    """Load and validate the data folder (default: the packaged data); raises ComponentError listing every problem."""
    docs, problems = read_toml_files(data_folder(Path(path) if path is not None else DATA_DIR, "fields.toml"), FILES)
    if problems:
        raise ComponentError(problems)
    components = Components(
        fields=_fields(docs["fields"], problems),
        buildings=_buildings(docs["buildings"], problems),
        laws=_laws(docs["laws"], problems),
        **_game(docs["game"], problems),
    )
    if problems:
        raise ComponentError(problems)
    problems = validate(components)
    if problems:
        raise ComponentError(problems)
    return components


# --- Step 2: the known constraints ----------------------------------------------------------------------


def validate(c: Components) -> list[str]:
    """Return every broken count or constraint as a sentence; [] when the components are sound. Raises nothing."""
    return _check_fields(c) + _check_buildings(c) + _check_laws(c) + _check_game(c)


def _provenances(what: str, records: Iterable[FieldTile | BuildingTile | LawCard]) -> list[str]:
    """One sentence per record whose provenance is not one of the three words."""
    out: list[str] = []
    for r in records:
        if r.provenance not in PROVENANCES:
            name = r.key if isinstance(r, LawCard) else r.id
            out.append(f"{what} [{name}]: provenance {r.provenance!r} must be one of {', '.join(PROVENANCES)}.")
    return out


def _check_fields(c: Components) -> list[str]:
    """Field tiles: count, ids, terrains, backs, terrain totals and the four #1 tiles."""
    out = duplicates("fields.toml", [f.id for f in c.fields]) + _provenances("fields.toml", c.fields)
    if len(c.fields) != FIELD_COUNT:
        out.append(f"fields.toml: there are {len(c.fields)} field tiles; the game has {FIELD_COUNT} "
                   "(rulebook contents).")
    for f in c.fields:
        if f.terrain not in TERRAINS:
            out.append(f"fields.toml [{f.id}]: terrain {f.terrain!r} is not one of {', '.join(TERRAINS)}.")
        if f.back not in BACK_COUNTS:
            out.append(f"fields.toml [{f.id}]: back number {f.back} must be 1..5 (a player count).")
    terrains = Counter(f.terrain for f in c.fields)
    for terrain, n in TERRAIN_COUNTS.items():
        if terrains[terrain] != n:
            out.append(f"fields.toml: there are {terrains[terrain]} {terrain} tiles; the game has {n} "
                       "(rulebook contents).")
    backs = Counter(f.back for f in c.fields)
    for back, n in BACK_COUNTS.items():
        if backs[back] != n:
            out.append(f"fields.toml: {backs[back]} tiles have back number {back}; the game has {n} "
                       "(reference section 3, which the player-count arithmetic confirms).")
    ones = Counter(f.terrain for f in c.fields if f.back == 1)
    if ones != Counter(BACK_ONE):
        found = ", ".join(f"{n} {t}" for t, n in sorted(ones.items())) or "none"
        out.append(f"fields.toml: the #1 tiles must be 2 quarries and 2 woods (rulebook set-up), not {found}.")
    return out


def _check_buildings(c: Components) -> list[str]:
    """Building tiles: count, ids, stages, colours allowed per stage, crafts, gold, supply and cost per point."""
    out = duplicates("buildings.toml", [b.id for b in c.buildings]) + _provenances("buildings.toml", c.buildings)
    if len(c.buildings) != BUILDING_COUNT:
        out.append(f"buildings.toml: there are {len(c.buildings)} building tiles; the game has {BUILDING_COUNT} "
                   "(rulebook contents).")
    for b in c.buildings:
        out += _tile_problems(b, {**c.resource_supply, **c.craft_supply})
    stages = {s: [b for b in c.buildings if b.stage == s] for s in STAGE_COUNTS}
    for s, n in STAGE_COUNTS.items():
        if len(stages[s]) != n:
            out.append(f"buildings.toml: stage {s} has {len(stages[s])} tiles; the game has {n} "
                       "(reference section 4).")
        if len(stages[s]) < c.mat_slots.get(s, 0):
            out.append(f"buildings.toml: stage {s} has {len(stages[s])} tiles for {c.mat_slots[s]} mat spaces.")
        used = {colour for b in stages[s] for colour in b.cost}
        for colour in STAGE_NEEDS[s]:
            if stages[s] and colour not in used:
                out.append(f"buildings.toml: no stage-{s} tile asks for {colour}; the rulebook's stage {s} "
                           "needs it (phase three, action one; reference section 4).")
    later = [b for b in c.buildings if b.stage in (4, 5)]
    if later and not any("yellow" in b.cost for b in later):
        out.append("buildings.toml: no stage-4 or stage-5 tile asks for yellow (gold); the Price Decrease law "
                   "implies some do (reference section 4).")
    return out + _cost_per_point(stages)


def _tile_problems(b: BuildingTile, supply: Mapping[str, int]) -> list[str]:
    """One tile: id matches stage, stage 1..5, known colours in order, colours its stage allows, supply."""
    where = f"buildings.toml [{b.id}]"
    out: list[str] = []
    match = BUILDING_ID.match(b.id)
    if b.stage not in STAGE_COUNTS:
        out.append(f"{where}: stage {b.stage} must be 1..5.")
    elif not match or int(match.group(1)) != b.stage:
        out.append(f"{where}: a stage-{b.stage} tile's id must look like 'b{b.stage}-N'.")
    if not b.cost:
        out.append(f"{where}: the cost is empty; every tile costs cubes.")
    unknown = sorted({colour for colour in b.cost if colour not in CUBE_ORDER})
    if unknown:
        out.append(f"{where}: {', '.join(map(repr, unknown))} is not a cube colour ({', '.join(CUBE_ORDER)}).")
    if list(b.cost) != sorted(b.cost, key=_cube_rank):
        out.append(f"{where}: the cost must list colours in the order {', '.join(CUBE_ORDER)}.")
    if b.stage in STAGE_COLOURS:
        wrong = [colour for colour in CUBE_ORDER if colour in b.cost and colour not in STAGE_COLOURS[b.stage]]
        if wrong:
            allowed = ", ".join(colour for colour in CUBE_ORDER if colour in STAGE_COLOURS[b.stage])
            out.append(f"{where}: a stage-{b.stage} tile cannot ask for {', '.join(wrong)}; stage {b.stage} uses "
                       f"only {allowed} (rulebook phase three, action one; reference section 4).")
    if b.stage == 5 and not any(colour in CRAFTS for colour in b.cost):
        out.append(f"{where}: every stage-5 tile asks for at least one craft cube (reference section 4).")
    for colour, n in Counter(b.cost).items():
        if colour in supply and n > supply[colour]:
            out.append(f"{where}: asks for {n} {colour} cubes but the game has only {supply[colour]}, "
                       "so nobody could ever buy it.")
    return out


def _cost_per_point(stages: Mapping[int, list[BuildingTile]]) -> list[str]:
    """The average printed cubes per seat point must fall from each stage to the next (reference section 4)."""
    out: list[str] = []
    rate = {s: sum(len(b.cost) for b in tiles) / len(tiles) / s for s, tiles in stages.items() if tiles}
    for s in sorted(rate):
        if s - 1 in rate and rate[s] >= rate[s - 1]:
            out.append(f"buildings.toml: stage {s} costs {rate[s]:.2f} cubes per seat point on average, not less "
                       f"than stage {s - 1}'s {rate[s - 1]:.2f}; the cost per point falls with each stage "
                       "(reference section 4).")
    return out


def _check_laws(c: Components) -> list[str]:
    """Law cards: 20 of them, numbers 1..20 once each, with the known keys and titles."""
    out = duplicates("laws.toml", [law.key for law in c.laws]) + _provenances("laws.toml", c.laws)
    if len(c.laws) != len(LAWS):
        out.append(f"laws.toml: there are {len(c.laws)} law cards; the game has {len(LAWS)} (rulebook contents).")
    numbers = Counter(law.number for law in c.laws)
    known = {n: (key, title) for n, key, title in LAWS}
    for n in known:
        if numbers[n] != 1:
            out.append(f"laws.toml: law number {n} appears {numbers[n]} times; each of 1..20 appears once "
                       "(rulebook appendix).")
    for law in c.laws:
        if law.number not in known:
            out.append(f"laws.toml [{law.key}]: number {law.number} must be 1..20 (rulebook appendix).")
            continue
        key, title = known[law.number]
        if law.key != key:
            out.append(f"laws.toml [{law.key}]: law {law.number} has the key {key!r}, which the engine and the "
                       "players' notation use.")
        if law.title != title:
            out.append(f"laws.toml [{law.key}]: law {law.number} is titled {title!r}, not {law.title!r} "
                       "(rulebook appendix).")
    return out


def _check_game(c: Components) -> list[str]:
    """Supplies, mat spaces and each player's pieces match the rulebook."""
    out = exact_counts("game.toml [supply] resources", c.resource_supply, RESOURCE_SUPPLY, "rulebook contents")
    out += exact_counts("game.toml [supply] crafts", c.craft_supply, CRAFT_SUPPLY, "rulebook contents")
    out += exact_counts("game.toml [mat] slots", c.mat_slots, MAT_SLOTS, "rulebook phase three, action one")
    pieces = {"cottages": c.cottages, "fences": c.fences, "workers": c.workers}
    out += exact_counts("game.toml [player]", pieces, PLAYER_PIECES, "rulebook preparation")
    return out


COMPONENTS: Components = load()
FIELD_TILES: dict[str, FieldTile] = {t.id: t for t in COMPONENTS.fields}
BUILDINGS: dict[str, BuildingTile] = {b.id: b for b in COMPONENTS.buildings}
