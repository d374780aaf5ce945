"""The Keythedral state: one mutable record of plain data (labels, lists and dicts) that round-trips through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.records import copy_data, to_data

Json = dict[str, Any]


@dataclass
class KState:
    """A whole game of Keythedral.

    Fields are keyed by label ('M13'); squares by label ('M13+'). Seats hold cubes, law cards and tiles. `windows`
    is a stack of open law windows (the top one is asked); `pending` is a multi-step action under way.
    """

    names: list[str]
    options: dict[str, bool]
    rng: int
    phase: str = "setup"  # setup, workers, harvest, actions, bidding, over
    step: str = "field"
    round: int = 0
    start: int = 0
    # the board
    keythedral: str | None = None
    fields: dict[str, list[Any]] = field(default_factory=dict)  # label -> [terrain, back, tile id]
    field_stack: list[str] = field(default_factory=list)  # tile ids, top first (hidden order)
    drawn: str | None = None  # the field tile being laid in set-up (shown to all, T-6)
    setup_turn: int = 0
    cottages: list[list[Json]] = field(default_factory=list)  # seat -> number-1 -> {"at": square|None, "house"}
    fences: list[Json] = field(default_factory=list)  # {"seat", "square", "field"}
    fences_built: list[int] = field(default_factory=list)
    workers: dict[str, list[int]] = field(default_factory=dict)  # field label -> [seat, cottage number]
    # phase one
    markers: list[list[int]] = field(default_factory=list)  # [number, seat who chose or started it]
    fixed_order: list[int] | None = None  # Work Order's chosen numbers
    queue: list[int] = field(default_factory=list)  # seats still to place for the current number
    sources: list[int] = field(default_factory=list)  # the placing seat's cottages still to send workers
    left: int = 0  # workers still to place from sources[0]
    used: list[list[int]] = field(default_factory=list)  # [seat, cottage] that already worked this round
    nominated: list[list[int]] = field(default_factory=list)  # [seat, cottage, number] by Cottage Number
    broken: list[int] = field(default_factory=list)  # seats whose workers ignore fences this round
    # phase two
    harvest: Json = field(default_factory=dict)  # good, poor: terrain; double: [[seat, field]]; unexpected
    collect_from: int = 0  # how many seats (from the start player) have collected
    # phase three
    turn: int = 0
    passes: int = 0
    procured: list[bool] = field(default_factory=list)
    passed: list[bool] = field(default_factory=list)
    moratorium: int | None = None
    flags: Json = field(default_factory=dict)  # this turn's substitution / sale
    pending: Json | None = None
    # supplies
    cubes: list[dict[str, int]] = field(default_factory=list)
    store: dict[str, int] = field(default_factory=dict)
    craftsmen: dict[str, int] = field(default_factory=dict)
    # the Keythedral mat
    mat: list[Json] = field(default_factory=list)  # {"space", "stage", "tile", "up", "taken", "inc", "dec"}
    unused: dict[str, list[str]] = field(default_factory=dict)  # stage -> surplus tile ids (hidden)
    tiles: list[list[list[Any]]] = field(default_factory=list)  # seat -> [[space, tile id, stage]]
    # law cards
    hands: list[list[int]] = field(default_factory=list)
    law_spaces: list[int | None] = field(default_factory=list)
    law_deck: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    played: list[Json] = field(default_factory=list)  # laws played, waiting on the repeal window
    windows: list[Json] = field(default_factory=list)
    # phase five
    bidding: Json | None = None
    effects: list[str] = field(default_factory=list)
    seq: int = 0  # actions applied so far: decision keys are made from it

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)


def to_json(state: KState) -> Json:
    """The whole state as JSON-ready data."""
    data: Json = to_data(state)
    return data


def from_json(data: Json) -> KState:
    """Rebuild a state; raises ValueError on malformed data."""
    names = {f.name for f in fields(KState)}
    if not isinstance(data, dict) or set(data) - names or "names" not in data:
        raise ValueError("not a Keythedral state")
    try:
        return KState(**copy_data(data))
    except TypeError as exc:
        raise ValueError(f"not a Keythedral state: {exc}") from exc
