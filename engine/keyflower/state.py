"""The Keyflower state: typed records that write, and read back, exactly the JSON form a stored game has.

Villages are keyed by "q/r" (axial hex coordinates, the home tile at "0/0"). A location (a village tile, a tile up
for auction, a turn-order tile, Key Celeste) holds this season's bids and uses in `places`, keyed by the tile's id.
Each record's `to_json` gives its part of the stored JSON and `from_json` reads it back (raising ValueError, KeyError
or TypeError on malformed data, which `KfState.from_json` reports as ValueError); in that JSON a bid is the list
[colour, count, flat] (with its keyples fourth when they are not one plain colour) and a use [seat, colour, count,
flat] (the keyples fifth).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Literal, cast

import orjson

from engine.core import json_text

Json = dict[str, Any]
Phase = Literal["winter-choice", "turns", "boats", "place", "over"]
PHASES: tuple[Phase, ...] = ("winter-choice", "turns", "boats", "place", "over")


def _counts(data: Mapping[str, Any]) -> dict[str, int]:
    """Counted things ({"blue": 2}) read from JSON data."""
    return {str(k): int(v) for k, v in data.items()}


@dataclass(frozen=True)
class Options:
    """The modules chosen: the boat the Keymelequin replaced ('' when it is not played) and Key Celeste."""

    keymelequin: str = ""
    key_celeste: bool = False

    def to_json(self) -> Json:
        """{"keymelequin": ..., "key_celeste": ...}."""
        return {"keymelequin": self.keymelequin, "key_celeste": self.key_celeste}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Options:
        """The options as stored (a missing one is off)."""
        return cls(str(data.get("keymelequin") or ""), bool(data.get("key_celeste")))


@dataclass
class VillageTile:
    """A tile in a village: its id, whether it is flipped to its back, the resources on it, and those of them moved
    onto it as a storage tile."""

    tile: str
    up: bool = False
    res: dict[str, int] = field(default_factory=dict)
    stored: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> Json:
        """{"tile", "up", "res", "stored"}."""
        return {"tile": self.tile, "up": self.up, "res": dict(self.res), "stored": dict(self.stored)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> VillageTile:
        """A village tile as stored or shown."""
        return cls(str(data["tile"]), bool(data["up"]), _counts(data["res"]), _counts(data["stored"]))


@dataclass
class BoatInPlay:
    """A boat on the table: its id, the workers and skills loaded on it, and the seat that took it this season."""

    id: str
    workers: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    taken: int | None = None

    def to_json(self) -> Json:
        """{"id", "workers", "skills", "taken"}."""
        return {"id": self.id, "workers": dict(self.workers), "skills": dict(self.skills), "taken": self.taken}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BoatInPlay:
        """A boat as stored or shown."""
        taken = data["taken"]
        return cls(str(data["id"]), _counts(data["workers"]), _counts(data["skills"]),
                   None if taken is None else int(taken))


@dataclass(frozen=True)
class Bid:
    """A seat's bid at a location: its colour (or, for a group with Sven or Paulo, the colours it may count as:
    'blue/yellow'), its workers, whether it lies flat (summer boat 4a), and its keyples by kind when they are not
    all of one plain colour (else None)."""

    label: str
    count: int
    flat: bool = False
    group: Mapping[str, int] | None = None

    def keyples(self) -> dict[str, int]:
        """The bid's keyples by kind ({} for a bid of none)."""
        if self.group is not None:
            return dict(self.group)
        return {self.label: self.count} if self.count else {}

    def to_json(self) -> list[Any]:
        """[colour, count, flat], or [label, count, flat, group]."""
        found: list[Any] = [self.label, self.count, self.flat]
        return found if self.group is None else [*found, dict(self.group)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Bid:
        """A bid as stored or shown."""
        group = _counts(data[3]) if len(data) > 3 else None
        return cls(str(data[0]), int(data[1]), len(data) > 2 and bool(data[2]), group)


@dataclass(frozen=True)
class Use:
    """A use of a tile this season: its seat, colour (or label: 'blue/yellow' with Sven or Paulo, 'mixed' for summer
    boat 4b's use of several colours), workers, whether it lies flat, and its keyples by kind when not one plain
    colour (else None)."""

    seat: int
    label: str
    count: int
    flat: bool = False
    group: Mapping[str, int] | None = None

    def keyples(self) -> dict[str, int]:
        """The use's keyples by kind."""
        return dict(self.group) if self.group is not None else {self.label: self.count}

    def to_json(self) -> list[Any]:
        """[seat, colour, count, flat], or [seat, label, count, flat, group]."""
        found: list[Any] = [self.seat, self.label, self.count, self.flat]
        return found if self.group is None else [*found, dict(self.group)]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Use:
        """A use as stored or shown."""
        group = _counts(data[4]) if len(data) > 4 else None
        return cls(int(data[0]), str(data[1]), int(data[2]), len(data) > 3 and bool(data[3]), group)


@dataclass
class Place:
    """A location's bids (by seat) and uses this season; wild: a group with Sven or Paulo stands here (the general
    colour rules apply); ghost: the seat the Key Celeste ghost, having replaced the winning bid, wins the tile for."""

    bids: dict[int, Bid] = field(default_factory=dict)
    uses: list[Use] = field(default_factory=list)
    wild: bool = False
    ghost: int | None = None

    def to_json(self, public: bool = False) -> Json:
        """{"bids": {seat: bid}, "uses": [...]}, then "wild": true when set (not in the public view) and "ghost"."""
        found: Json = {"bids": {str(s): b.to_json() for s, b in self.bids.items()},
                       "uses": [u.to_json() for u in self.uses]}
        if self.wild and not public:
            found["wild"] = True
        if self.ghost is not None:
            found["ghost"] = self.ghost
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any], public: bool = False) -> Place:
        """A location as stored, or (public) as the public view shows it, without the wild mark."""
        ghost = data["ghost"] if "ghost" in data else None
        return cls({int(s): Bid.from_json(b) for s, b in data["bids"].items()},
                   [Use.from_json(u) for u in data["uses"]], not public and "wild" in data and bool(data["wild"]),
                   None if ghost is None else int(ghost))



# --- Actions under way: the steps of a bid, a use, a payment, a transport, a boat's replacement ---------------------


@dataclass
class Moved:
    """An outbid group being moved (reference §4): the location it comes from, its workers, and the other outbid
    groups joined to it on the way."""

    source: str
    carried: int
    joined: list[str] = field(default_factory=list)

    def sources(self) -> list[str]:
        """Every location the moved workers come from."""
        return [self.source, *self.joined]

    def to_json(self) -> Json:
        """{"from", "carried"} and "joined" once a group has joined."""
        found: Json = {"from": self.source, "carried": self.carried}
        if self.joined:
            found["joined"] = self.joined
        return found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Moved | None:
        """The moved group of a step's JSON (None when it moves none)."""
        if "from" not in data:
            return None
        return cls(str(data["from"]), int(data["carried"]), [str(x) for x in data.get("joined", [])])


@dataclass
class CountStep:
    """A bid or use of one colour waiting for its count (`count N`), maybe of a moved group topped up."""

    kind: ClassVar[str] = "count"
    seat: int
    what: str  # "bid" or "use"
    loc: str
    colour: str
    moved: Moved | None = None

    def to_json(self) -> Json:
        """{"kind": "count", "seat", "what", "loc", "colour"} and the moved group."""
        found: Json = {"kind": self.kind, "seat": self.seat, "what": self.what, "loc": self.loc,
                       "colour": self.colour}
        return found | self.moved.to_json() if self.moved else found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CountStep:
        """The step as stored."""
        return cls(int(data["seat"]), str(data["what"]), str(data["loc"]), str(data["colour"]),
                   Moved.from_json(data))


@dataclass
class MixStep:
    """A group built one keyple at a time (`add KIND [N]`, then `done`): Sven or Paulo with his pair, or summer boat
    4b's use of several colours; added: the keyples taken from the screen so far."""

    kind: ClassVar[str] = "mix"
    seat: int
    what: str  # "bid" or "use"
    loc: str
    added: dict[str, int] = field(default_factory=dict)
    moved: Moved | None = None

    def to_json(self) -> Json:
        """{"kind": "mix", "seat", "what", "loc", "added"} and the moved group."""
        found: Json = {"kind": self.kind, "seat": self.seat, "what": self.what, "loc": self.loc, "added": self.added}
        return found | self.moved.to_json() if self.moved else found

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MixStep:
        """The step as stored."""
        return cls(int(data["seat"]), str(data["what"]), str(data["loc"]), _counts(data["added"]),
                   Moved.from_json(data))


@dataclass
class PayStep:
    """A use's extra payment chosen item by item (`pay KIND`): which worker or skill it asks for ('any', 'skill' or
    a colour its wild keyple may pay), how many are left, and what was handed in so far."""

    kind: ClassVar[str] = "pay"
    seat: int
    loc: str
    pay: str
    left: int
    paid: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> Json:
        """{"kind": "pay", "seat", "loc", "pay", "left", "paid"}."""
        return {"kind": self.kind, "seat": self.seat, "loc": self.loc, "pay": self.pay, "left": self.left,
                "paid": self.paid}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PayStep:
        """The step as stored."""
        return cls(int(data["seat"]), str(data["loc"]), str(data["pay"]), int(data["left"]), _counts(data["paid"]))


@dataclass
class TakeStep:
    """Resources of one's choice taken from the supply one at a time (`take KIND`) onto the village tile at `to`."""

    kind: ClassVar[str] = "take"
    seat: int
    left: int
    to: str

    def to_json(self) -> Json:
        """{"kind": "take", "seat", "left", "to"}."""
        return {"kind": self.kind, "seat": self.seat, "left": self.left, "to": self.to}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TakeStep:
        """The step as stored."""
        return cls(int(data["seat"]), int(data["left"]), str(data["to"]))


@dataclass
class TransportStep:
    """A transport use under way (`carry`, `upgrade`, `done`): the resource-steps and upgrades left."""

    kind: ClassVar[str] = "transport"
    seat: int
    steps: int
    upgrades: int

    def to_json(self) -> Json:
        """{"kind": "transport", "seat", "steps", "upgrades"}."""
        return {"kind": self.kind, "seat": self.seat, "steps": self.steps, "upgrades": self.upgrades}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TransportStep:
        """The step as stored."""
        return cls(int(data["seat"]), int(data["steps"]), int(data["upgrades"]))


@dataclass
class ReplaceStep:
    """The Keymelequin's taker naming the boat that replaces it for autumn (`replace BOAT`)."""

    kind: ClassVar[str] = "replace"
    seat: int

    def to_json(self) -> Json:
        """{"kind": "replace", "seat"}."""
        return {"kind": self.kind, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReplaceStep:
        """The step as stored."""
        return cls(int(data["seat"]))


Pending = CountStep | MixStep | PayStep | TakeStep | TransportStep | ReplaceStep
GroupStep = CountStep | MixStep
_STEPS: dict[str, Callable[[Mapping[str, Any]], Pending]] = {
    step.kind: step.from_json for step in (CountStep, MixStep, PayStep, TakeStep, TransportStep, ReplaceStep)}


def pending_from_json(data: Mapping[str, Any] | None) -> Pending | None:
    """The action under way as stored (None: none); raises ValueError for an unknown kind."""
    if data is None:
        return None
    kind = str(data["kind"])
    if kind not in _STEPS:
        raise ValueError(f"unknown kind of step under way: {kind!r}")
    return _STEPS[kind](data)


@dataclass
class KfState:
    """A whole game of Keyflower, with the Keymelequin and Key Celeste modules when chosen."""

    names: list[str]
    options: Options
    rng: int
    season: int = 0  # 0 spring, 1 summer, 2 autumn, 3 winter
    phase: Phase = "turns"
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
    villages: list[dict[str, VillageTile]] = field(default_factory=list)  # "q/r" -> the tile there
    auction: list[str] = field(default_factory=list)  # this season's tiles up for auction
    order_tiles: list[int] = field(default_factory=list)  # turn-order tiles in use (numbers)
    places: dict[str, Place] = field(default_factory=dict)  # location -> its bids and uses this season
    boats: list[BoatInPlay] = field(default_factory=list)
    summer_stack: list[str] = field(default_factory=list)  # hidden order
    autumn_stack: list[str] = field(default_factory=list)  # hidden order
    faces: dict[str, str] = field(default_factory=dict)  # never filled: kept for the stored JSON's shape
    # end of season
    won: list[list[str]] = field(default_factory=list)  # tiles each seat places in its village
    picking: list[int] = field(default_factory=list)  # seats still to pick a boat, in order
    marker_passes: bool = False  # nobody won the start-player tile: the marker passes left after the boats
    after_boats: bool = False  # the turn-order bids, Key Celeste and boat 1a's draw still follow the boats (False in
    # a state stored before they moved there, which had settled them when the boats began)
    pending: Pending | None = None
    # Key Celeste (public, F-38): who owns the ghost, where it was played this season, whether it left the game
    ghost_holder: int | None = None
    ghost_at: str | None = None
    ghost_out: bool = False
    celeste_out: bool = False  # the Key Celeste tile left the table (won in winter, or nobody bid then)

    @property
    def n(self) -> int:
        """The number of players."""
        return len(self.names)

    def to_text(self) -> str:
        """The state's JSON text, fields in their order, as a snapshot stores it."""
        return json_text({f.name: _WRITE.get(f.name, _same)(getattr(self, f.name)) for f in _FIELDS})

    def to_json(self) -> Json:
        """The whole state as JSON-ready data."""
        data: Json = orjson.loads(self.to_text())
        return data

    @classmethod
    def from_json(cls, data: Json) -> KfState:
        """Rebuild a state from its JSON data (fields left out keep their defaults); raises ValueError on malformed
        data."""
        names = {f.name for f in _FIELDS}
        if not isinstance(data, dict) or set(data) - names or "names" not in data:
            raise ValueError("not a Keyflower state")
        try:
            copied: Json = orjson.loads(orjson.dumps(data))
            state = cls(**{key: _READ.get(key, _same)(value) for key, value in copied.items()})
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, orjson.JSONEncodeError) as exc:
            raise ValueError(f"not a Keyflower state: {exc!r}") from exc
        if state.phase not in PHASES:
            raise ValueError(f"not a Keyflower state: phase {state.phase!r}")
        return state


def _same(value: Any) -> Any:
    """A field whose JSON is its value."""
    return value


_FIELDS = fields(KfState)
_WRITE: dict[str, Callable[[Any], Any]] = {
    "options": lambda o: o.to_json(),
    "villages": lambda vs: [{key: t.to_json() for key, t in v.items()} for v in vs],
    "places": lambda ps: {loc: p.to_json() for loc, p in ps.items()},
    "boats": lambda bs: [b.to_json() for b in bs],
    "pending": lambda p: None if p is None else p.to_json(),
}
_READ: dict[str, Callable[[Any], Any]] = {
    "options": Options.from_json,
    "villages": lambda vs: [{str(key): VillageTile.from_json(t) for key, t in v.items()} for v in vs],
    "places": lambda ps: {str(loc): Place.from_json(p) for loc, p in ps.items()},
    "boats": lambda bs: [BoatInPlay.from_json(b) for b in bs],
    "pending": pending_from_json,
    "phase": lambda phase: cast(Phase, str(phase)),
}


def to_json(state: KfState) -> Json:
    """The whole state as JSON-ready data."""
    return state.to_json()


def from_json(data: Json) -> KfState:
    """Rebuild a state; raises ValueError on malformed data."""
    return KfState.from_json(data)
