"""Keyper component data: typed records loaded from the TOML data pack in engine/keyper/data/."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from engine.datacheck import ComponentError as ComponentError  # the family's error, re-exported here
from engine.keyper.vocab import SEASONS

DATA_DIR = Path(str(resources.files("engine.keyper") / "data"))  # package data: shipped in the wheel


@dataclass(frozen=True)
class FieldKind:
    """A type of field on a country board (rulebook p.12)."""

    name: str  # "pig", "clay", "country_tile", "convert_clay", "trade_raw", "build", "river", "keyp", ...
    category: str  # one of vocab.FIELD_CATEGORIES
    colour: str | None  # border colour (vocab.FIELD_COLOURS) or None for an uncoloured field
    resource: str | None  # resource fields: what they give; convert fields: the raw material converted
    provenance: str


@dataclass(frozen=True)
class Field:
    """One field of a display: its id (unique in the display), its kind and the grid cells it covers."""

    id: str
    kind: str
    cells: tuple[tuple[int, int], ...]  # (row, col), 0..3; the river covers two cells


@dataclass(frozen=True)
class Display:
    """One way of folding a country board: 15 fields including the keyp field and the river."""

    id: str  # e.g. "spring-1", "summer-3", "autumn-winter-2"
    seasons: tuple[str, ...]
    number: int  # 1..4; at setup board k shows spring display k
    fields: tuple[Field, ...]
    provenance: str

    def field(self, field_id: str) -> Field:
        """Return the field with this id; raises KeyError."""
        for f in self.fields:
            if f.id == field_id:
                return f
        raise KeyError(field_id)


@dataclass(frozen=True)
class BuildingTile:
    """A home or country building tile (rulebook pp.15-19)."""

    id: str  # snake_case, e.g. "cow_shed"
    name: str  # "Cow shed"
    origin: str  # "home" or "country"
    area: str  # "farm" or "village"
    spring: bool  # country tiles with the spring icon go into the bag at setup
    activated: bool  # needs a keyple on it to act
    cost: dict[str, int]  # build cost in resources or resource groups
    houses: tuple[str, ...]  # animals the tile can house (farm tiles), at most 4 in all
    provenance: str


@dataclass(frozen=True)
class FairSide:
    """One face of a fair tile: the seasons it may be held in, what it needs, what it scores."""

    seasons: tuple[str, ...]
    requires: dict[str, int]
    points: int


@dataclass(frozen=True)
class Fair:
    """A fair tile: spring/summer/autumn fairs have one side, winter fairs two (rulebook p.14)."""

    id: str  # "spring-1" ... "winter-8"
    kind: str  # "spring", "summer", "autumn" or "winter"
    sides: tuple[FairSide, ...]
    provenance: str


@dataclass(frozen=True)
class BoatSide:
    """One face of a boat tile: the seasons it shows and its two resource types."""

    seasons: tuple[str, ...]
    resources: tuple[str, str]


@dataclass(frozen=True)
class Boat:
    """A boat tile (rulebook pp.13-14)."""

    id: str  # "boat-1" ... "boat-6"
    sides: tuple[BoatSide, ...]
    provenance: str

    def side_for(self, season: str) -> BoatSide:
        """Return the side shown in this season; raises KeyError."""
        for side in self.sides:
            if season in side.seasons:
                return side
        raise KeyError(season)


@dataclass(frozen=True)
class KeypTile:
    """What a keyple laid down from the keyp tile may take, by keyple colour (rulebook p.4)."""

    gains: dict[str, tuple[str, ...]]
    provenance: str


@dataclass(frozen=True)
class PlayerBoard:
    """The plot grids of a player board (rulebook p.10)."""

    farm_rows: int
    farm_cols: int
    village_rows: int
    village_cols: int
    provenance: str


@dataclass(frozen=True)
class Components:
    """Every component of one Keyper data pack."""

    field_kinds: dict[str, FieldKind]
    displays: tuple[Display, ...]
    tiles: dict[str, BuildingTile]
    fairs: dict[str, Fair]
    boats: dict[str, Boat]
    keyp_tile: KeypTile
    player_board: PlayerBoard
    supply: dict[str, int]  # how many of each resource the game has
    keyples: dict[str, int]  # how many keyples of each colour the game has
    starting_keyples: dict[str, int]  # each player's team at setup
    two_player_pool: tuple[str, ...]  # colours the two-player ninth keyple is drawn from
    starting_goods: dict[str, int]
    displays_by_season: dict[str, tuple[Display, ...]] = field(default_factory=dict)

    def display(self, display_id: str) -> Display:
        """Return the display with this id; raises KeyError."""
        for d in self.displays:
            if d.id == display_id:
                return d
        raise KeyError(display_id)


def by_season(displays: Iterable[Display]) -> dict[str, tuple[Display, ...]]:
    """Season -> the displays that may be shown in it, in display order."""
    return {s: tuple(d for d in displays if s in d.seasons) for s in SEASONS}


def load(path: Path | None = None) -> Components:
    """Load and validate a data pack folder; raises ComponentError listing every problem."""
    from engine.keyper import loader

    return loader.load_pack(path or DATA_DIR)


@cache
def default() -> Components:
    """Return the bundled data pack (loaded once)."""
    return load(DATA_DIR)
