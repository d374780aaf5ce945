"""Keyflower component data: typed records loaded from the TOML files in engine/keyflower/data/.

Loading happens in two steps, and each lists every problem it finds before giving up: read the five files
(tiles, boats, turn_order, game, modules) into records (types and schema), then `validate` the records against the
counts and constraints in shared/reference/keyflower-base-and-modules.md (docs/components.md, "Keyflower", lists them).
Edges are numbered 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW; tiles never rotate, so every road and water side is data.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from engine.datacheck import ComponentError as ComponentError  # the family's error, re-exported here
from engine.datacheck import TomlEntry, data_folder, is_int, read_toml_files
from engine.keyflower.component_checks import BOAT_KEYS as BOAT_KEYS
from engine.keyflower.component_checks import WINTER_KEYS as WINTER_KEYS
from engine.keyflower.component_checks import validate as validate
from engine.keyflower.component_records import COST_KEYS as COST_KEYS
from engine.keyflower.component_records import FACE_KINDS as FACE_KINDS
from engine.keyflower.component_records import GAIN_KEYS as GAIN_KEYS
from engine.keyflower.component_records import KEY_CELESTE, KEYMELEQUIN, PLAYER_COUNTS, SETUP_KEYS, TURN_ORDER_KEY
from engine.keyflower.component_records import PAY_KEYS as PAY_KEYS
from engine.keyflower.component_records import PROVENANCES as PROVENANCES
from engine.keyflower.component_records import RESOURCES as RESOURCES
from engine.keyflower.component_records import SEASONS as SEASONS
from engine.keyflower.component_records import SKILLS as SKILLS
from engine.keyflower.component_records import START_WORKERS as START_WORKERS
from engine.keyflower.component_records import TILE_KINDS as TILE_KINDS
from engine.keyflower.component_records import Boat as Boat
from engine.keyflower.component_records import CelesteTile as CelesteTile
from engine.keyflower.component_records import Components as Components
from engine.keyflower.component_records import Cost as Cost
from engine.keyflower.component_records import Face as Face
from engine.keyflower.component_records import Tile as Tile
from engine.keyflower.component_records import TurnOrderTile as TurnOrderTile

DATA_DIR = Path(str(resources.files("engine.keyflower") / "data"))  # package data: shipped in the wheel
FILES: tuple[str, ...] = ("tiles", "boats", "turn_order", "game", "modules")


# --- Reading typed values from TOML tables -----------------------------------------------------------


class _Entry(TomlEntry):
    """Typed access to one TOML table of Keyflower's data (engine.datacheck.TomlEntry)."""

    def counts(self, key: str, optional: bool = False) -> dict[str, int]:
        """Return a table of name = positive integer ({} when missing or wrong)."""
        value = self.get(key, _is_count_table, "a table of name = whole number of at least 1", {}, optional)
        return {str(k): int(v) for k, v in value.items()}

    def count(self, key: str, optional: bool = False) -> int:
        """Return a whole number of at least 0 (0 when missing or wrong)."""
        return int(self.get(key, _is_whole, "a whole number", 0, optional))

    def edges(self, key: str, optional: bool = False) -> tuple[int, ...]:
        """Return a list of edge numbers as a tuple (() when missing or wrong; the range is validate's job)."""
        value = self.get(key, _is_int_list, "a list of edge numbers", [], optional)
        return tuple(int(v) for v in value)

    def optional_text(self, key: str) -> str | None:
        """Return an optional string (None when absent or wrong)."""
        value = self.get(key, lambda v: isinstance(v, str), "a string", None, optional=True)
        return None if value is None else str(value)

    def flag(self, key: str) -> bool:
        """Return a required boolean (False when missing or wrong)."""
        return bool(self.get(key, lambda v: isinstance(v, bool), "true or false", False))

    def face(self, key: str, optional: bool = False) -> Face | None:
        """Return the face under key (None when absent and optional, or not a table)."""
        if key not in self.table:
            if not optional:
                self.note(f"missing {key!r}")
            return None
        e = _Entry(f"{self.where} {key}", self.table[key], self.problems)
        if not e.ok:
            return None
        e.only("kind", "pay", "gain", "transport", "upgrades", "store", "per", "points", "scoring")
        return Face(kind=e.text("kind"), pay=e.counts("pay", True), gain=e.counts("gain", True),
                    transport=e.count("transport", True), upgrades=e.count("upgrades", True),
                    store=e.optional_text("store"), per=e.count("per", True), points=e.count("points", True),
                    scoring=e.optional_text("scoring"))

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


def _is_whole(value: object) -> bool:
    """True for an integer of at least 0 (booleans refused)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_pair(value: object) -> bool:
    """True for a list of exactly two integers."""
    return isinstance(value, list) and len(value) == 2 and _is_int_list(value)


def _is_int_list(value: object) -> bool:
    """True for a list of integers (booleans refused)."""
    return isinstance(value, list) and all(is_int(v) for v in value)


# --- Step 1: files to records ---------------------------------------------------------------------------


def _tiles(doc: dict[str, Any], problems: list[str]) -> tuple[Tile, ...]:
    """tiles.toml: one [id] table per tile (per face for summer boats), in file order."""
    out: list[Tile] = []
    for key, table in doc.items():
        e = _Entry(f"tiles.toml [{key}]", table, problems)
        e.only("name", "kind", "number", "roads", "water", "upgrade", "front", "back", "provenance", "note")
        front = e.face("front")
        out.append(Tile(id=key, name=e.text("name"), kind=e.text("kind"), roads=e.edges("roads"),
                        water=e.edges("water", True), front=front if front is not None else Face(kind=""),
                        back=e.face("back", True), upgrade=e.counts("upgrade", True),
                        number=e.count("number", True), provenance=e.provenance()))
    return tuple(out)


def _boats(doc: dict[str, Any], problems: list[str]) -> tuple[Boat, ...]:
    """boats.toml: one [id] table per boat, in file order."""
    out: list[Boat] = []
    for key, table in doc.items():
        e = _Entry(f"boats.toml [{key}]", table, problems)
        e.only("name", "min_players", "workers_a", "skills_a", "workers_b", "skills_b", "scoring", "roads", "water",
               "provenance", "note")
        out.append(Boat(id=key, name=e.text("name"), min_players=e.integer("min_players"),
                        workers_a=e.count("workers_a"), skills_a=e.count("skills_a"),
                        workers_b=e.count("workers_b"), skills_b=e.count("skills_b"), scoring=e.text("scoring"),
                        roads=e.edges("roads"), water=e.edges("water"), provenance=e.provenance()))
    return tuple(out)


def _turn_order(doc: dict[str, Any], problems: list[str]) -> tuple[TurnOrderTile, ...]:
    """turn_order.toml: one table per face keyed <number><face>; sorted by number, then player range."""
    out: list[TurnOrderTile] = []
    for key, table in doc.items():
        e = _Entry(f"turn_order.toml [{key}]", table, problems)
        e.only("number", "players", "start_icon", "roads", "water", "provenance", "note")
        number = e.integer("number")
        players = e.get("players", _is_pair, "a pair [lowest, highest] of player counts", [0, 0])
        match = TURN_ORDER_KEY.match(key)
        if "number" in e.table and (not match or int(match.group(1)) != number):
            e.note(f"the key must be the tile's number {number} with an optional face letter (e.g. '{number}a')")
        out.append(TurnOrderTile(number=number, players=(int(players[0]), int(players[1])),
                                 start_icon=e.flag("start_icon"), roads=e.edges("roads"),
                                 water=e.edges("water", True), provenance=e.provenance()))
    return tuple(sorted(out, key=lambda t: (t.number, t.players)))


def _modules(doc: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """modules.toml: [keymelequin] and [key-celeste]; returns the Components keyword arguments they give."""
    for key in doc:
        if key not in (KEYMELEQUIN, KEY_CELESTE):
            problems.append(f"modules.toml: unknown section [{key}] (expected keymelequin, key-celeste)")
    boat = _Entry(f"modules.toml [{KEYMELEQUIN}]", doc.get(KEYMELEQUIN, {}), problems)
    boat.only("name", "workers_a", "skills_a", "workers_b", "skills_b", "provenance", "note")
    tile = _Entry(f"modules.toml [{KEY_CELESTE}]", doc.get(KEY_CELESTE, {}), problems)
    tile.only("name", "points", "ghost_points", "roads", "water", "provenance", "note")
    return {
        "keymelequin": Boat(id=KEYMELEQUIN, name=boat.text("name"), min_players=PLAYER_COUNTS[0],
                            workers_a=boat.count("workers_a"), skills_a=boat.count("skills_a"),
                            workers_b=boat.count("workers_b"), skills_b=boat.count("skills_b"), scoring="",
                            roads=(), water=(), provenance=boat.provenance()),
        "key_celeste": CelesteTile(name=tile.text("name"), points=tile.count("points"),
                                   ghost_points=tile.count("ghost_points"), roads=tile.edges("roads"),
                                   water=tile.edges("water"), provenance=tile.provenance()),
    }


def _game(doc: dict[str, Any], problems: list[str]) -> dict[str, Any]:
    """game.toml: [supply] and [setup]; returns the Components keyword arguments they give."""
    sections = {"supply": ("bag", "greens", "skills", "resources"), "setup": tuple(map(str, PLAYER_COUNTS))}
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
    supply = entries["supply"]
    setup: dict[int, dict[str, int]] = {}
    for count, table in entries["setup"].table.items():
        if count not in sections["setup"]:
            continue  # provenance and note, or a key only() has reported
        row = _Entry(f"game.toml [setup] {count}", table, problems)
        if row.ok:
            row.only(*SETUP_KEYS)
            setup[int(count)] = {key: row.count(key) for key in SETUP_KEYS}
    return {
        "bag": supply.counts("bag"),
        "greens": supply.count("greens"),
        "skills": supply.counts("skills"),
        "resources": supply.counts("resources"),
        "setup": setup,
    }


def load(path: Path | None = None) -> Components:
    """Load and validate the data folder (default: the packaged data); raises ComponentError listing every problem."""
    docs, problems = read_toml_files(data_folder(Path(path) if path is not None else DATA_DIR, "tiles.toml"), FILES)
    if problems:
        raise ComponentError(problems)
    components = Components(
        tiles=_tiles(docs["tiles"], problems),
        boats=_boats(docs["boats"], problems),
        turn_order=_turn_order(docs["turn_order"], problems),
        **_game(docs["game"], problems),
        **_modules(docs["modules"], problems),
    )
    if problems:
        raise ComponentError(problems)
    problems = validate(components)
    if problems:
        raise ComponentError(problems)
    return components


COMPONENTS: Components = load()
