"""Read a Keyper data pack (a folder of TOML files), build the component records and check every rule.

Reading happens in three stages, and each stage lists every problem it finds before giving up:
parse the files, build the typed records (skipping malformed entries), then check the records against
the rulebook's counts and the constraints documented in docs/components.md (engine.keyper.checks).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.datacheck import TomlEntry, is_int
from engine.keyper import vocab
from engine.keyper.checks import GRID, check
from engine.keyper.components import (
    Boat,
    BoatSide,
    BuildingTile,
    ComponentError,
    Components,
    Display,
    Fair,
    FairSide,
    Field,
    FieldKind,
    KeypTile,
    PlayerBoard,
    by_season,
)

Table = dict[str, Any]

FILES: tuple[str, ...] = ("fields", "displays", "tiles", "fairs", "boats", "keyp_tile", "game")
PROVENANCE = re.compile(r"^(rulebook p\.\d+|reference|reconstructed)")

# --- Reading typed values from TOML tables -----------------------------------------------------------


class _Entry(TomlEntry):
    """Typed access to one TOML table of Keyper's data (engine.datacheck.TomlEntry)."""

    def opt_text(self, key: str) -> str | None:
        """An optional string; None when absent."""
        value = self.get(key, lambda v: isinstance(v, str), "a string", None, True)
        return None if value is None else str(value)

    def flag(self, key: str) -> bool:
        """A required true/false value."""
        return bool(self.get(key, lambda v: isinstance(v, bool), "true or false", False, False))

    def texts(self, key: str, optional: bool = False) -> tuple[str, ...]:
        """A list of strings."""
        value = self.get(key, _is_text_list, "a list of strings", [], optional)
        return tuple(str(v) for v in value)

    def counts(self, key: str, optional: bool = False) -> dict[str, int]:
        """A table of name -> integer."""
        value = self.get(key, _is_count_table, "a table of name = integer", {}, optional)
        return {str(k): int(v) for k, v in value.items()}

    def tables(self, key: str) -> list[object]:
        """A required list of tables (entries are checked by whoever reads them)."""
        return list(self.get(key, lambda v: isinstance(v, list), "a list of tables", [], False))

    def provenance(self) -> str:
        """The entry's provenance, which must say where its values come from."""
        text = self.text("provenance")
        if "provenance" in self.table and not PROVENANCE.match(text):
            self.note(f"provenance {text!r} must start with 'rulebook p.N', 'reference' or 'reconstructed'")
        return text


def _is_text_list(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_count_table(value: object) -> bool:
    return isinstance(value, dict) and all(is_int(v) for v in value.values())


def _entries(doc: Table, file: str, problems: list[str]) -> Iterable[tuple[str, _Entry]]:
    """Each top-level table of a file as (key, entry)."""
    for key, table in doc.items():
        yield key, _Entry(f"{file}.toml [{key}]", table, problems)


# --- Stage 1: parse the files ------------------------------------------------------------------------


def _read_files(path: Path) -> tuple[dict[str, Table], list[str]]:
    """Parse every data file; returns the documents and the problems (missing files, TOML errors)."""
    docs: dict[str, Table] = {}
    problems: list[str] = []
    if not path.is_dir():
        return docs, [f"{path}: not a folder"]
    for name in FILES:
        file = path / f"{name}.toml"
        try:
            docs[name] = tomllib.loads(file.read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{name}.toml: missing from {path}")
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            problems.append(f"{name}.toml: not valid TOML ({exc})")
    return docs, problems


# --- Stage 2: build the records ----------------------------------------------------------------------


def _field_kinds(doc: Table, problems: list[str]) -> dict[str, FieldKind]:
    """fields.toml: one table per field kind."""
    kinds: dict[str, FieldKind] = {}
    for name, e in _entries(doc, "fields", problems):
        e.only("category", "colour", "resource", "provenance")
        colour, resource = e.opt_text("colour"), e.opt_text("resource")
        kind = FieldKind(name, e.text("category"), colour, resource, e.provenance())
        if e.ok:
            kinds[name] = kind
    return kinds


def _grid_fields(e: _Entry) -> tuple[Field, ...]:
    """Turn a display's 4x4 grid of kind names into fields: one per kind, with the cells it covers."""
    rows = e.table.get("grid")
    if not isinstance(rows, list) or len(rows) != GRID or not all(_is_text_list(r) for r in rows):
        e.note(f"'grid' must be a list of {GRID} rows of field kind names")
        return ()
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        if len(row) != GRID:
            e.note(f"grid row {r + 1} has {len(row)} cells, expected {GRID}")
        for c, kind in enumerate(row[:GRID]):
            cells.setdefault(kind, []).append((r, c))
    return tuple(Field(kind, kind, tuple(cs)) for kind, cs in cells.items())


def _displays(doc: Table, problems: list[str]) -> tuple[Display, ...]:
    """displays.toml: one table per display, its fields given as a grid."""
    displays: list[Display] = []
    for display_id, e in _entries(doc, "displays", problems):
        e.only("seasons", "number", "grid", "provenance")
        d = Display(display_id, e.texts("seasons"), e.integer("number"), _grid_fields(e), e.provenance())
        if e.ok:
            displays.append(d)
    return tuple(sorted(displays, key=_display_order))


def _display_order(d: Display) -> tuple[int, int, str]:
    first = min((vocab.SEASONS.index(s) for s in d.seasons if s in vocab.SEASONS), default=len(vocab.SEASONS))
    return first, d.number, d.id


def _tiles(doc: Table, problems: list[str]) -> dict[str, BuildingTile]:
    """tiles.toml: one table per building tile."""
    tiles: dict[str, BuildingTile] = {}
    for tile_id, e in _entries(doc, "tiles", problems):
        e.only("name", "origin", "area", "spring", "activated", "cost", "houses", "provenance")
        tile = BuildingTile(
            id=tile_id,
            name=e.text("name"),
            origin=e.text("origin"),
            area=e.text("area"),
            spring=e.flag("spring"),
            activated=e.flag("activated"),
            cost=e.counts("cost"),
            houses=e.texts("houses", optional=True),
            provenance=e.provenance(),
        )
        if e.ok:
            tiles[tile_id] = tile
    return tiles


def _fair_side(e: _Entry, n: int, table: object) -> FairSide:
    s = _Entry(f"{e.where} side {n}", table, e.problems)
    s.only("seasons", "requires", "points")
    return FairSide(s.texts("seasons"), s.counts("requires"), s.integer("points"))


def _fairs(doc: Table, problems: list[str]) -> dict[str, Fair]:
    """fairs.toml: one table per fair tile, with a list of sides."""
    fairs: dict[str, Fair] = {}
    for fair_id, e in _entries(doc, "fairs", problems):
        e.only("kind", "sides", "provenance")
        sides = tuple(_fair_side(e, n, t) for n, t in enumerate(e.tables("sides"), 1))
        fair = Fair(fair_id, e.text("kind"), sides, e.provenance())
        if e.ok:
            fairs[fair_id] = fair
    return fairs


def _boat_side(e: _Entry, n: int, table: object) -> BoatSide:
    s = _Entry(f"{e.where} side {n}", table, e.problems)
    s.only("seasons", "resources")
    resources = s.texts("resources")
    if len(resources) != 2:
        s.note(f"'resources' must name exactly 2 resource types, not {len(resources)}")
        resources = ("", "")
    return BoatSide(s.texts("seasons"), (resources[0], resources[1]))


def _boats(doc: Table, problems: list[str]) -> dict[str, Boat]:
    """boats.toml: one table per boat tile, with a list of sides."""
    boats: dict[str, Boat] = {}
    for boat_id, e in _entries(doc, "boats", problems):
        e.only("sides", "provenance")
        sides = tuple(_boat_side(e, n, t) for n, t in enumerate(e.tables("sides"), 1))
        boat = Boat(boat_id, sides, e.provenance())
        if e.ok:
            boats[boat_id] = boat
    return boats


def _keyp_tile(doc: Table, problems: list[str]) -> KeypTile:
    """keyp_tile.toml: a provenance and a [gains] table of colour -> resources."""
    e = _Entry("keyp_tile.toml", doc, problems)
    e.only("gains", "provenance")
    if "gains" not in e.table:
        e.note("missing [gains]")
    g = _Entry("keyp_tile.toml [gains]", e.table.get("gains", {}), problems)
    return KeypTile({colour: g.texts(colour) for colour in g.table}, e.provenance())


def _section(doc: Table, key: str, problems: list[str]) -> tuple[_Entry, str]:
    """One [section] of game.toml and its provenance (each section carries its own)."""
    if key not in doc:
        problems.append(f"game.toml: missing [{key}]")
    e = _Entry(f"game.toml [{key}]", doc.get(key, {}), problems)
    return e, e.provenance()


def _player_board(doc: Table, problems: list[str]) -> PlayerBoard:
    e, provenance = _section(doc, "player_board", problems)
    e.only("farm_rows", "farm_cols", "village_rows", "village_cols", "provenance")
    return PlayerBoard(
        e.integer("farm_rows"), e.integer("farm_cols"), e.integer("village_rows"), e.integer("village_cols"),
        provenance,
    )


def _game_counts(doc: Table, key: str, problems: list[str]) -> dict[str, int]:
    e, _ = _section(doc, key, problems)
    e.only("counts", "provenance")
    return e.counts("counts")


def _pool(doc: Table, problems: list[str]) -> tuple[str, ...]:
    e, _ = _section(doc, "two_player_pool", problems)
    e.only("colours", "provenance")
    return e.texts("colours")


def _build(docs: dict[str, Table], problems: list[str]) -> Components:
    """Stage 2: every record, skipping malformed entries (whose problems are listed)."""
    game = docs["game"]
    for key in game:
        if key not in ("supply", "keyples", "starting_keyples", "two_player_pool", "starting_goods",
                       "player_board"):
            problems.append(f"game.toml: unknown section [{key}]")
    components = Components(
        field_kinds=_field_kinds(docs["fields"], problems),
        displays=_displays(docs["displays"], problems),
        tiles=_tiles(docs["tiles"], problems),
        fairs=_fairs(docs["fairs"], problems),
        boats=_boats(docs["boats"], problems),
        keyp_tile=_keyp_tile(docs["keyp_tile"], problems),
        player_board=_player_board(game, problems),
        supply=_game_counts(game, "supply", problems),
        keyples=_game_counts(game, "keyples", problems),
        starting_keyples=_game_counts(game, "starting_keyples", problems),
        two_player_pool=_pool(game, problems),
        starting_goods=_game_counts(game, "starting_goods", problems),
    )
    components.displays_by_season.update(by_season(components.displays))
    return components


# --- All three stages -------------------------------------------------------------------------------


def load_pack(path: Path) -> Components:
    """Read, build and check the data pack in a folder; raises ComponentError listing every problem."""
    docs, problems = _read_files(Path(path))
    if problems:
        raise ComponentError(problems)
    components = _build(docs, problems)
    problems += check(components, {name: list(doc) for name, doc in docs.items()})
    if problems:
        raise ComponentError(problems)
    return components
