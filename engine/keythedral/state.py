"""The Keythedral state: one mutable record of typed parts (engine.keythedral.pieces and .steps) that is stored as the
JSON it has always been stored in.

`to_json` writes a state field by field in declaration order, each part by its own `to_data`; `from_json` reads it
back. A field missing from stored data takes its default (a state stored before the field existed).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, cast

from engine.keythedral.pieces import (
    Acquired,
    Bidding,
    Cottage,
    Fence,
    Flags,
    Harvest,
    Json,
    LaidField,
    Marker,
    Nomination,
    Space,
    Use,
    Worker,
)
from engine.keythedral.steps import LawWindow, Pending, Played, step_from_data, window_from_data
from engine.records import copy_data

__all__ = ["Json", "KState", "field_data", "field_value", "from_json", "to_json"]


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
    fields: dict[str, LaidField] = field(default_factory=dict)
    field_stack: list[str] = field(default_factory=list)  # tile ids, top first (hidden order)
    drawn: str | None = None  # the field tile being laid in set-up (shown to all, T-6)
    setup_turn: int = 0
    cottages: list[list[Cottage]] = field(default_factory=list)  # seat -> number - 1 -> cottage
    fences: list[Fence] = field(default_factory=list)
    fences_built: list[int] = field(default_factory=list)
    workers: dict[str, Worker] = field(default_factory=dict)  # field label -> worker
    # phase one
    markers: list[Marker] = field(default_factory=list)
    fixed_order: list[int] | None = None  # Work Order's chosen numbers
    queue: list[int] = field(default_factory=list)  # seats still to place for the current number
    sources: list[int] = field(default_factory=list)  # the placing seat's cottages still to send workers
    left: int = 0  # workers still to place from sources[0]
    used: list[Use] = field(default_factory=list)
    nominated: list[Nomination] = field(default_factory=list)
    broken: list[int] = field(default_factory=list)  # seats whose workers ignore fences this round
    # phase two
    harvest: Harvest | None = None  # None until the first round begins (stored as {})
    collect_from: int = 0  # how many seats (from the start player) have collected
    # phase three
    turn: int = 0
    passes: int = 0
    procured: list[bool] = field(default_factory=list)
    passed: list[bool] = field(default_factory=list)
    moratorium: int | None = None
    flags: Flags = field(default_factory=lambda: Flags())  # this turn's substitution / sale
    pending: Pending | None = None
    # supplies
    cubes: list[dict[str, int]] = field(default_factory=list)
    store: dict[str, int] = field(default_factory=dict)
    craftsmen: dict[str, int] = field(default_factory=dict)
    # the Keythedral mat
    mat: list[Space] = field(default_factory=list)
    unused: dict[str, list[str]] = field(default_factory=dict)  # stage -> surplus tile ids (hidden)
    tiles: list[list[Acquired]] = field(default_factory=list)  # seat -> seats bought
    # law cards
    hands: list[list[int]] = field(default_factory=list)
    law_spaces: list[int | None] = field(default_factory=list)
    law_deck: list[int] = field(default_factory=list)
    discards: list[int] = field(default_factory=list)
    played: list[Played] = field(default_factory=list)  # laws played, waiting on the repeal window or in force
    windows: list[LawWindow] = field(default_factory=list)
    # phase five
    bidding: Bidding | None = None
    effects: list[str] = field(default_factory=list)
    seq: int = 0  # actions applied so far: decision keys are made from it

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)


# --- the stored form ---------------------------------------------------------------------------------------------

Write = Callable[[Any], Any]
Read = Callable[[Any], Any]


def _optional(read: Read) -> Read:
    """A reader that keeps None."""
    return lambda data: None if data is None else read(data)


def _harvest_data(harvest: Harvest | None) -> Json:
    """The stored harvest: {} before the first round."""
    return {} if harvest is None else harvest.to_data()


_CODECS: dict[str, tuple[Write, Read]] = {
    "fields": (lambda v: {k: f.to_data() for k, f in v.items()}, lambda d: {k: LaidField.from_data(f)
                                                                             for k, f in d.items()}),
    "cottages": (lambda v: [[c.to_data() for c in row] for row in v],
                 lambda d: [[Cottage.from_data(c) for c in row] for row in d]),
    "fences": (lambda v: [f.to_data() for f in v], lambda d: [Fence.from_data(f) for f in d]),
    "workers": (lambda v: {k: w.to_data() for k, w in v.items()}, lambda d: {k: Worker.from_data(w)
                                                                              for k, w in d.items()}),
    "markers": (lambda v: [m.to_data() for m in v], lambda d: [Marker.from_data(m) for m in d]),
    "used": (lambda v: [u.to_data() for u in v], lambda d: [Use.from_data(u) for u in d]),
    "nominated": (lambda v: [m.to_data() for m in v], lambda d: [Nomination.from_data(m) for m in d]),
    "harvest": (_harvest_data, lambda d: Harvest.from_data(d) if d else None),
    "flags": (lambda v: dict(v), lambda d: cast(Flags, dict(d))),  # in the order the laws were played
    "pending": (lambda v: None if v is None else v.to_data(), _optional(step_from_data)),
    "mat": (lambda v: [s.to_data() for s in v], lambda d: [Space.from_data(s) for s in d]),
    "tiles": (lambda v: [[t.to_data() for t in row] for row in v],
              lambda d: [[Acquired.from_data(t) for t in row] for row in d]),
    "played": (lambda v: [p.to_data() for p in v], lambda d: [Played.from_data(p) for p in d]),
    "windows": (lambda v: [w.to_data() for w in v], lambda d: [window_from_data(w) for w in d]),
    "bidding": (lambda v: None if v is None else v.to_data(), _optional(Bidding.from_data)),
}
"""Each field of typed parts: how it is written and read; every other field is plain data, written as a copy."""

_NAMES = tuple(f.name for f in fields(KState))


def field_data(name: str, value: Any) -> Any:
    """One state field's value as stored (fresh data)."""
    codec = _CODECS.get(name)
    return copy_data(value) if codec is None else codec[0](value)


def field_value(name: str, data: Any) -> Any:
    """One state field's value read from its stored data (which it does not share)."""
    codec = _CODECS.get(name)
    return copy_data(data) if codec is None else codec[1](data)


def to_json(state: KState) -> Json:
    """The whole state as JSON-ready data, in the form it is stored in."""
    return {name: field_data(name, getattr(state, name)) for name in _NAMES}


def from_json(data: Json) -> KState:
    """Rebuild a state; raises ValueError on malformed data."""
    if not isinstance(data, dict) or set(data) - set(_NAMES) or "names" not in data:
        raise ValueError("not a Keythedral state")
    try:
        return KState(**{name: field_value(name, value) for name, value in data.items()})
    except (TypeError, KeyError, AttributeError) as exc:
        raise ValueError(f"not a Keythedral state: {exc}") from exc
