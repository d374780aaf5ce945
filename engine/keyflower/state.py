"""The Keyflower state: one mutable record of plain data that round-trips through JSON.

Villages are keyed by "q/r" (axial hex coordinates, the home tile at "0/0"). A location (a village tile, a tile up
for auction, a turn-order tile) holds this season's bids and users in `places`, keyed by the tile's id.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.records import copy_data, to_data

Json = dict[str, Any]


@dataclass
class KfState:
    """A whole game of Keyflower, with the Keymelequin and Key Celeste modules when chosen."""

    names: list[str]
    options: dict[str, Any]  # "keymelequin": the boat it replaced ("" when off), "key_celeste": bool
    rng: int
    season: int = 0  # 0 spring, 1 summer, 2 autumn, 3 winter
    phase: str = "turns"  # winter-choice, turns, boats, place, over
    start: int = 0
    turn: int = 0
    passes: int = 0
    seq: int = 0
    # supplies (the bag's colours and the skill pile are hidden; their sizes are public)
    bag: dict[str, int] = field(default_factory=dict)
    greens: int = 0
    skill_pile: dict[str, int] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)
    # behind each screen (hidden)
    workers: list[dict[str, int]] = field(default_factory=list)
    skills: list[dict[str, int]] = field(default_factory=list)
    winter_hand: list[list[str]] = field(default_factory=list)
    winter_choice: list[list[str] | None] = field(default_factory=list)  # while choosing; None when done
    winter_played: list[list[str]] = field(default_factory=list)  # each seat's chosen winter tiles (hidden)
    winter_box: list[str] = field(default_factory=list)  # winter tiles dealt to nobody (out of the game, unseen)
    # the table (public)
    villages: list[dict[str, Json]] = field(default_factory=list)  # "q/r" -> {tile, up, res, stored}
    auction: list[str] = field(default_factory=list)  # this season's tiles up for auction
    order_tiles: list[int] = field(default_factory=list)  # turn-order tiles in use (numbers)
    places: dict[str, Json] = field(default_factory=dict)  # location -> {"bids": {seat: [colour, n]}, "uses": [...]}
    boats: list[Json] = field(default_factory=list)  # {"id", "workers": {colour: n}, "skills": n, "taken": seat}
    summer_stack: list[str] = field(default_factory=list)  # hidden order
    autumn_stack: list[str] = field(default_factory=list)  # hidden order
    faces: dict[str, str] = field(default_factory=dict)  # summer boat tile -> the face drawn ("1a")
    # end of season
    won: list[list[str]] = field(default_factory=list)  # tiles each seat places in its village
    picking: list[int] = field(default_factory=list)  # seats still to pick a boat, in order
    marker_passes: bool = False  # nobody won the start-player tile: the marker passes left after the boats
    after_boats: bool = False  # the turn-order bids, Key Celeste and boat 1a's draw still follow the boats (False in
    # a state stored before they moved there, which had settled them when the boats began)
    pending: Json | None = None
    # Key Celeste (public, F-38): who owns the ghost, where it was played this season, whether it left the game
    ghost_holder: int | None = None
    ghost_at: str | None = None
    ghost_out: bool = False
    celeste_out: bool = False  # the Key Celeste tile left the table (won in winter, or nobody bid then)

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)


def to_json(state: KfState) -> Json:
    """The whole state as JSON-ready data."""
    data: Json = to_data(state)
    return data


def from_json(data: Json) -> KfState:
    """Rebuild a state; raises ValueError on malformed data."""
    names = {f.name for f in fields(KfState)}
    if not isinstance(data, dict) or set(data) - names or "names" not in data:
        raise ValueError("not a Keyflower state")
    try:
        return KfState(**copy_data(data))
    except TypeError as exc:
        raise ValueError(f"not a Keyflower state: {exc}") from exc
