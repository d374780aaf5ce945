"""What Keyflower's end-game scoring rests on: the scoring keys and points of the winter tiles and boats (§9.3,
§9.8), the labels of the lines that are not a tile, and the records a player's score is asked for (Holdings) and
answered with (Line). Texts and lookups read the points here too."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from engine.keyflower import keyples as kp
from engine.keyflower.component_checks import BOAT_KEYS
from engine.keyflower.component_records import RESOURCES as RESOURCES
from engine.keyflower.component_records import SKILLS as SKILLS

WORKERS = kp.COLOURS
WILDS = kp.NAMES  # Keymelequin wild keyple (a Holdings.workers key) -> its name
PAIRS = kp.WILD  # the colours each wild keyple counts as
WINTER = {  # winter scoring key -> printed name (§9.8), in the order the lines are shown
    "keythedral": "Keythedral", "apothecary": "Apothecary", "craftsmens-guild": "Craftsmen's guild",
    "key-market": "Key market", "village-hall": "Village hall", "key-guild": "Key guild", "scholar": "Scholar",
    "scribes": "Scribes", "jeweller": "Jeweller", "mercers-guild": "Mercer's guild", "watermill": "Watermill",
    "windmill": "Windmill",
}
POINTS: dict[str, int] = {  # what a winter tile scores per item or set (§9.8)
    "keythedral": 12, "apothecary": 3, "craftsmens-guild": 3, "key-market": 2, "village-hall": 1, "key-guild": 10,
    "scholar": 3, "scribes": 10, "jeweller": 2, "mercers-guild": 5, "watermill": 1, "windmill": 5,
}
SET_OF_FIVE = 5  # the Apothecary, Key guild and Windmill score per five items of any kinds
GOLD_POINTS = 1  # a gold scoring nowhere else (§8)
WHITE_WIND_POINTS = 1  # per worker no other tile scores (§9.3)
BOAT_POINTS: dict[str, int] = {"flipper": 2, "ianvincible": 5}  # the boats whose points are printed (§9.3)
BOATS = BOAT_KEYS
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
    workers: Mapping[str, int] = field(default_factory=dict)  # behind the screen + placed in own village in winter;
    # besides the colours, "sven" and "paulo" (0 or 1 each) for the Keymelequin module's wild keyples
    purple: bool = False  # holds the start-player keyple: any one resource, skill or worker
    any_resource: bool = False  # owns summer boat 3b: any resource stands in for any other at scoring
    white_wind: bool = False  # owns the White Wind boat
    fixed: tuple[tuple[str, int], ...] = ()  # lines scored elsewhere: tile points, other boats, turn-order tiles
