"""Keyflower's component records and their vocabulary: faces, village tiles, boats, turn-order tiles, the Key Celeste
tile and the whole set (engine.keyflower.components loads them from the data files; component_checks validates them).
Edges are numbered 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW; tiles never rotate, so every road and water side is data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

PROVENANCES: tuple[str, ...] = ("reference", "reconstructed")
KEYMELEQUIN = "keymelequin"  # the Keymelequin module's boat
KEY_CELESTE = "key-celeste"  # the Key Celeste module's tile

Cost = Mapping[str, int]

# --- Vocabulary (kf-spec "Vocabulary" and "Component data") ----------------------------------------------

SEASONS: tuple[str, ...] = ("spring", "summer", "autumn", "winter")
TILE_KINDS: tuple[str, ...] = ("home", *SEASONS, "summerboat")
FACE_KINDS: tuple[str, ...] = ("produce", "transport", "store", "points", "winter", "none")
RESOURCES: tuple[str, ...] = ("gold", "iron", "stone", "wood")
SKILLS: tuple[str, ...] = ("anvil", "pick", "saw")
BAG_COLOURS: tuple[str, ...] = ("blue", "red", "yellow")  # in the bag; green starts beside it
PAY_KEYS: tuple[str, ...] = (*BAG_COLOURS, "any", *SKILLS, "skill")
GAIN_KEYS: tuple[str, ...] = (*RESOURCES, "worker", "green", "skill", "choice")
COST_KEYS: tuple[str, ...] = (*RESOURCES, *SKILLS, "resource", "skill")
STORE_KINDS: tuple[str, ...] = ("any", *RESOURCES)
EDGES = range(6)
PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4, 5, 6)
START_WORKERS = 8  # each player draws this many workers from the bag at the start (reference §2)
SETUP_KEYS: tuple[str, ...] = ("home", "boats", "turn_order", "per_season", "winter_dealt")
TURN_ORDER_KEY = re.compile(r"^([0-9]+)([ab]?)$")


@dataclass(frozen=True)
class Face:
    """One side of a village tile: what a use of it does, and what it scores at the end."""

    kind: str  # produce | transport | store | points | winter | none
    pay: Mapping[str, int] = field(default_factory=dict)  # extra input per use (PAY_KEYS)
    gain: Mapping[str, int] = field(default_factory=dict)  # output per use (GAIN_KEYS)
    transport: int = 0  # transport tiles: resource-steps per use
    upgrades: int = 0  # transport tiles: tiles the user may upgrade per use
    store: str | None = None  # storage tiles: "any" or the resource that scores there
    per: int = 0  # storage tiles: VP per stored resource
    points: int = 0  # fixed VP of this face at the end
    scoring: str | None = None  # winter tiles: the scoring module's key


@dataclass(frozen=True)
class Tile:
    """A village tile (for summer boats: one face of one); its edges keep their orientation."""

    id: str
    name: str
    kind: str  # home | spring | summer | autumn | winter | summerboat
    roads: tuple[int, ...]
    water: tuple[int, ...]
    front: Face
    back: Face | None  # None: cannot be upgraded (winter tiles, summer boats)
    upgrade: Cost  # the cost of flipping front -> back ({} when not upgradable)
    number: int  # home tiles 1-6, summer boats 1-4 (both faces), 0 otherwise
    provenance: str


@dataclass(frozen=True)
class Boat:
    """A boat tile: face "a" serves spring and autumn, face "b" summer and winter (with the winter scoring)."""

    id: str
    name: str
    min_players: int
    workers_a: int
    skills_a: int
    workers_b: int
    skills_b: int
    scoring: str
    roads: tuple[int, ...]
    water: tuple[int, ...]
    provenance: str


@dataclass(frozen=True)
class TurnOrderTile:
    """One face of a turn-order tile: the player counts that put it up, and whether it shows the start icon."""

    number: int
    players: tuple[int, int]
    start_icon: bool
    roads: tuple[int, ...]
    water: tuple[int, ...]
    provenance: str


@dataclass(frozen=True)
class CelesteTile:
    """The Key Celeste tile (module Key Celeste): its points at the end, more with the ghost, and its edges."""

    name: str
    points: int
    ghost_points: int
    roads: tuple[int, ...]
    water: tuple[int, ...]
    provenance: str


@dataclass(frozen=True)
class Components:
    """Every Keyflower component the engine needs."""

    tiles: tuple[Tile, ...]
    boats: tuple[Boat, ...]
    turn_order: tuple[TurnOrderTile, ...]
    bag: Mapping[str, int]
    greens: int
    skills: Mapping[str, int]
    resources: Mapping[str, int]
    setup: Mapping[int, Mapping[str, int]]
    keymelequin: Boat  # the Keymelequin boat (module): face a spring, face b summer; never in a village
    key_celeste: CelesteTile
