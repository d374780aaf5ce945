"""Keyper game state: plain mutable records that serialise to JSON and back without loss."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Keyple:
    """A keyple standing or lying on a space; once played it belongs to no one. Never changed: laying it down puts a
    lying keyple in its place (laid_down), so copies of a state share their keyples."""

    colour: str
    lying: bool = False

    def laid_down(self) -> Keyple:
        """The same keyple lying down."""
        return Keyple(self.colour, lying=True)


@dataclass
class Board:
    """A country board on the table: its display, the keyper claiming it, the boat and keyples on it."""

    number: int
    display: str
    keyper: int | None = None
    boat: str | None = None
    spaces: dict[str, list[Keyple]] = field(default_factory=dict)


@dataclass(frozen=True)
class Plot:
    """A built plot on a player board; under is the overbuilt tile, if any. Never changed: upgrading puts an upgraded
    plot in its place, so copies of a state share their plots."""

    tile: str
    upgraded: bool = False
    under: str | None = None


@dataclass(frozen=True)
class HeldFair:
    """A fair held at the end of a season, with the points of the side shown (never changed: shared by copies)."""

    fair: str
    points: int


@dataclass
class Player:
    """Everything one seat owns."""

    name: str
    keyp: dict[str, int]
    goods: dict[str, int]
    tiles: list[str]
    hidden_fairs: list[str]
    keyper_home: bool = True
    keyp_tile: list[Keyple] = field(default_factory=list)
    winter_fairs: list[str] = field(default_factory=list)
    fairground: dict[str, list[HeldFair]] = field(default_factory=dict)
    plots: dict[str, Plot] = field(default_factory=dict)
    plot_keyples: dict[str, list[Keyple]] = field(default_factory=dict)
    shipping: int = 0
    board: int | None = None
    chosen_display: str | None = None


@dataclass
class Step:
    """One unit of a yield, decided by its seat: take a resource, a tile, or a boat action."""

    seat: int
    grant: int
    kind: str  # "resource", "keyp", "tile", "boat" or "other"
    options: list[str]
    source: str


@dataclass
class Offer:
    """A joiner invitation: the field, the working colour to match, and who is asked in priority order."""

    board: int
    field: str
    colour: str
    candidates: list[int]
    index: int = 0


@dataclass
class Payment:
    """A build or upgrade being paid for, item by item."""

    seat: int
    items: list[str]
    effect: str  # "build" or "upgrade"
    plot: str
    tile: str | None = None


@dataclass
class State:
    """A whole game of Keyper."""

    players: list[Player]
    options: dict[str, Any]
    season: int
    phase: str
    active: int
    start_player: int
    boards: list[Board]
    display: list[str]
    bag: list[str]
    discard: list[str]
    stacks: list[str]
    boats: list[str]
    supply: dict[str, int]
    rng: int
    offer: Offer | None = None
    payment: Payment | None = None
    steps: list[Step] = field(default_factory=list)
    next_grant: int = 0
    final_queue: list[int] | None = None
    waiting: list[int] = field(default_factory=list)
    last_from_keyp: int | None = None
    boat_took: list[list[str]] = field(default_factory=list)
    boat_sold: list[list[str]] = field(default_factory=list)
    turn: int = 1
    last_action: str = ""
    last_space: str = ""  # where the last keyper or keyple went or was laid down ('2.pig', or seat 0's plot 'v3@0')


_PLAIN = (str, int, float, bool, type(None))


def from_data(cls: type[T], data: Any) -> T:
    """Rebuild a record of type cls from engine.records.to_data's output; raises ValueError on a mismatch."""
    convert = _converter(typing.cast(Any, cls))
    result: T = convert(data)
    return result


Converter = Callable[[Any], Any]


@functools.cache
def _converter(tp: Any) -> Converter:
    """The function turning data into the annotated type tp, made once per type from its shape."""
    if tp in _PLAIN or tp is Any:
        return _same
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is list:
        if args[0] in _PLAIN:
            return list
        item = _converter(args[0])
        return lambda data: [item(x) for x in data]
    if origin is dict:
        if args[1] in _PLAIN:
            return dict
        value = _converter(args[1])
        return lambda data: {k: value(v) for k, v in data.items()}
    if origin in (typing.Union, types.UnionType):
        option = _converter(next(a for a in args if a is not type(None)))
        return lambda data: None if data is None else option(data)
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _record_converter(tp)
    return _same


def _record_converter(cls: type) -> Converter:
    """The converter of a record class: each field by its own converter."""

    def record(data: Any) -> Any:
        if not isinstance(data, dict):
            raise ValueError(f"expected an object for {cls.__name__}")
        return cls(**{name: convert(data[name]) for name, convert in _field_converters(cls) if name in data})

    return record


@functools.cache
def _field_converters(cls: type) -> list[tuple[str, Converter]]:
    """A record class's fields with their converters (made at the first use, so that records may refer to each
    other)."""
    hints = typing.get_type_hints(cls)
    return [(f.name, _converter(hints[f.name])) for f in dataclasses.fields(cls)]


def _same(data: Any) -> Any:
    """Data that needs no converting."""
    return data
