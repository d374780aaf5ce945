"""The pieces of a Keythedral table as typed records: fields, cottages, fences, workers, markers, the mat's spaces, the
seats bought, the harvest's laws and the bidding.

Each record writes itself as the JSON the state has always been stored in (`to_data`, fresh data every time) and
reads itself back from it (`from_data`): the small ones as the list of their fields (a field is `[terrain, back, tile
id]`) or as an object of them (ListForm, DictForm).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Self, TypedDict

Json = dict[str, Any]


class ListForm:
    """A record of plain values stored as the list of its fields, in order."""

    def to_data(self) -> list[Any]:
        """The stored form."""
        return list(vars(self).values())

    @classmethod
    def from_data(cls, data: Any) -> Self:
        """Read the stored form; raises TypeError on a list of another length."""
        return cls(*data)


class DictForm:
    """A record of plain values stored as an object with its fields' names, in order."""

    def to_data(self) -> Json:
        """The stored form."""
        return dict(vars(self))

    @classmethod
    def from_data(cls, data: Any) -> Self:
        """Read the stored form; raises TypeError on other names."""
        return cls(**data)


@dataclass(frozen=True)
class LaidField(ListForm):
    """A field tile laid on the board: its terrain, the number on its back and its tile id (`[terrain, back, id]`)."""

    terrain: str
    back: int
    tile: str


@dataclass(frozen=True)
class Cottage(DictForm):
    """One of a seat's numbered cottages: the square it stands on (None: not laid yet) and whether it is a house."""

    at: str | None
    house: bool


@dataclass(frozen=True)
class Fence(DictForm):
    """A fence its builder put on the edge between a square and one of its fields."""

    seat: int
    square: str
    field: str


@dataclass(frozen=True)
class Worker(ListForm):
    """A worker in a field: its seat and the number of the cottage or house it came from (`[seat, number]`)."""

    seat: int
    cottage: int


@dataclass(frozen=True)
class Marker(ListForm):
    """A work-order marker: the number it stands on and the seat that chose it, or started it under Work Order
    (`[number, seat]`)."""

    number: int
    seat: int


@dataclass(frozen=True)
class Use(ListForm):
    """A seat's cottage or house that has sent its workers this round (`[seat, number]`)."""

    seat: int
    cottage: int


@dataclass(frozen=True)
class Nomination(ListForm):
    """Cottage Number: a seat's cottage working under the number then being placed (`[seat, cottage, number]`)."""

    seat: int
    cottage: int
    number: int


@dataclass(frozen=True)
class Doubled(ListForm):
    """Double Production: a seat's worker in this field takes twice the cubes (`[seat, field]`)."""

    seat: int
    field: str


@dataclass(frozen=True)
class Chosen(ListForm):
    """Unexpected Harvest: a seat picks the colours its workers on this terrain bring (`[seat, terrain]`)."""

    seat: int
    terrain: str


@dataclass
class Harvest:
    """This round's harvest laws: the terrain of Good and of Poor Harvest, the doubled workers, the chosen terrains."""

    good: str | None = None
    poor: str | None = None
    double: list[Doubled] = field(default_factory=list)
    unexpected: list[Chosen] = field(default_factory=list)

    def to_data(self) -> Json:
        """The stored form."""
        return {"good": self.good, "poor": self.poor, "double": [d.to_data() for d in self.double],
                "unexpected": [c.to_data() for c in self.unexpected]}

    @staticmethod
    def from_data(data: Any) -> Harvest:
        """Read the stored form."""
        return Harvest(data["good"], data["poor"], [Doubled.from_data(d) for d in data["double"]],
                       [Chosen.from_data(c) for c in data["unexpected"]])


@dataclass
class Space(DictForm):
    """A building space of the Keythedral mat ('2.3'): its stage, the tile on it, face up or not, who took it, and the
    Price Increase and Price Decrease cards lying under it."""

    space: str
    stage: int
    tile: str
    up: bool
    taken: int | None = None
    inc: int = 0
    dec: int = 0


@dataclass(frozen=True)
class Acquired(ListForm):
    """A seat of the Keythedral behind its buyer's screen: its space, tile and stage (`[space, tile, stage]`)."""

    space: str
    tile: str
    stage: int


@dataclass(frozen=True)
class Bid(ListForm):
    """A seat's bid for the choice of the next start player; amount None is a pass (`[seat, amount]`)."""

    seat: int
    amount: int | None


@dataclass(frozen=True)
class HighBid(ListForm):
    """The highest bid so far: who made it and how many cubes (`[seat, amount]`)."""

    seat: int
    amount: int


@dataclass
class Bidding:
    """Phase five: B (who holds the start-player marker), the order the others bid in, how many have bid, the highest
    bid, every bid and pass in order, and whether B matched."""

    b: int
    order: list[int]
    idx: int = 0
    high: HighBid | None = None
    bids: list[Bid] = field(default_factory=list)
    matched: bool = False  # stored only once B has matched

    def to_data(self) -> Json:
        """The stored form."""
        data: Json = {"b": self.b, "order": list(self.order), "idx": self.idx,
                      "high": None if self.high is None else self.high.to_data(),
                      "bids": [bid.to_data() for bid in self.bids]}
        if self.matched:
            data["matched"] = True
        return data

    @staticmethod
    def from_data(data: Any) -> Bidding:
        """Read the stored form."""
        high = data["high"]
        return Bidding(data["b"], list(data["order"]), data["idx"], None if high is None else HighBid.from_data(high),
                       [Bid.from_data(b) for b in data["bids"]], bool(data.get("matched", False)))

    def next_bidder(self) -> int:
        """Who bids now: the next seat in the bidding order, then B."""
        return self.order[self.idx] if self.idx < len(self.order) else self.b

    def b_to_answer(self) -> bool:
        """Whether every other seat has bid or passed, so B matches or passes now."""
        return self.idx >= len(self.order)


class Flags(TypedDict, total=False):
    """This turn's laws: Substitution played, and the craftsman a Sale is for ('glass' or 'gold'); stored as played."""

    substitution: bool
    sale: str
