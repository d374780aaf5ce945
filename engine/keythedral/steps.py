"""What is under way at a Keythedral table, as typed records: an action taken in several steps (a payment cube by cube,
cubes chosen from the store, a price changed by law, a cottage moved, a work order set, a start player named, a
hand of law cards opened), the law windows that ask several players at once, and the law cards played.

Each kind writes itself as the JSON the state has always been stored in, with its `kind` word first; `step_from_data`
and `window_from_data` read one back and raise ValueError on a kind they do not know.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.keythedral.components import CRAFTSMEN
from engine.keythedral.pieces import Json, Space
from engine.records import copy_data

Slots = list[list[str]]  # a payment: one slot per cube still to give, each the colours it accepts

# --- what a payment is for -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CraftPurchase:
    """A craft cube bought from the craftsman named by his verb ('smith', 'glass', 'gold')."""

    verb: str

    @property
    def word(self) -> str:
        """What the payment is for, in one word."""
        return self.verb

    def to_data(self) -> Json:
        """The stored form."""
        return {"for": self.word}


@dataclass(frozen=True)
class TraderTrade:
    """Two cubes given the trader for a resource cube (Phase three, action five)."""

    word: ClassVar[str] = "trade"

    def to_data(self) -> Json:
        """The stored form."""
        return {"for": self.word}


@dataclass(frozen=True)
class Procurement:
    """The face-down law card on a new-law space (1 or 2) bought from the law master."""

    space: int
    word: ClassVar[str] = "procure"

    def to_data(self) -> Json:
        """The stored form."""
        return {"for": self.word, "space": self.space}


@dataclass(frozen=True)
class SeatPurchase:
    """A seat of the Keythedral bought under Substitution, paid cube by cube."""

    space: str
    word: ClassVar[str] = "buy"

    def to_data(self) -> Json:
        """The stored form."""
        return {"for": self.word, "space": self.space}


@dataclass(frozen=True)
class BidPayment:
    """The winning bid paid to the other seat; then the chooser names the next start player."""

    chooser: int
    word: ClassVar[str] = "bid"

    def to_data(self) -> Json:
        """The stored form."""
        return {"for": self.word, "chooser": self.chooser}


Purpose = CraftPurchase | TraderTrade | Procurement | SeatPurchase | BidPayment


def purpose_from_data(data: Any) -> Purpose:
    """Read what a stored payment is for; raises ValueError on an unknown purpose."""
    word = data["for"]
    if word in CRAFTSMEN:
        return CraftPurchase(word)
    if word == "trade":
        return TraderTrade()
    if word == "procure":
        return Procurement(data["space"])
    if word == "buy":
        return SeatPurchase(data["space"])
    if word == "bid":
        return BidPayment(data["chooser"])
    raise ValueError(f"not a Keythedral payment: {word!r}")


# --- actions under way -----------------------------------------------------------------------------------------


@dataclass
class Step:
    """An action under way: the seat deciding its steps, and the number of actions applied when it opened (its
    decision's key; None until the action that opened it is done)."""

    KIND: ClassVar[str] = ""
    seat: int
    opened: int | None = field(default=None, kw_only=True)

    def to_data(self) -> Json:
        """The stored form: the kind, the seat, the kind's own fields, then when it opened."""
        data: Json = {"kind": self.KIND, "seat": self.seat, **self.own_data()}
        if self.opened is not None:
            data["opened"] = self.opened
        return data

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {}


@dataclass
class OpenHand(Step):
    """`laws`: a seat looks at its law cards to play one now, or goes `back`."""

    KIND: ClassVar[str] = "laws"


@dataclass
class Payment(Step):
    """Cubes given one at a time: the ways still open to finish the payment (each a list of slots), what was given,
    to whom (None: the store) and what it pays for."""

    KIND: ClassVar[str] = "give"
    candidates: list[Slots]
    given: list[str]
    to: int | None
    purpose: Purpose

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"candidates": copy_data(self.candidates), "given": list(self.given), "to": self.to,
                **self.purpose.to_data()}


@dataclass
class TakeCubes(Step):
    """Resource cubes chosen from the store one at a time: how many are left to take and what for ('trade', 'bargain'
    or 'harvest')."""

    KIND: ClassVar[str] = "take"
    left: int
    purpose: str

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"left": self.left, "for": self.purpose}


@dataclass
class PriceChange(Step):
    """A purchase whose price laws change: the increases still to choose (add) and decreases (drop), the colours added
    and saved so far, whether a Price Increase raised it (then the buyer may withdraw), and which is asked now."""

    KIND: ClassVar[str] = "price"
    space: str
    add: int
    drop: int
    extra: list[str]
    less: list[str]
    raised: bool
    choice: str = "add"  # 'add' or 'drop'

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"space": self.space, "add": self.add, "drop": self.drop, "extra": list(self.extra),
                "less": list(self.less), "raised": self.raised, "choice": self.choice}


@dataclass
class Relocation(Step):
    """A cottage or house fenced off from every field that its owner must move (T-10); then is who built the fence."""

    KIND: ClassVar[str] = "relocate"
    number: int
    source: str
    then: int

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"number": self.number, "from": self.source, "then": self.then}


@dataclass
class WorkOrderChoice(Step):
    """Work Order: the numbers chosen so far for this round's order (T-22)."""

    KIND: ClassVar[str] = "work-order"
    chosen: list[int]

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"chosen": list(self.chosen)}


@dataclass
class StartChoice(Step):
    """Phase five's winner names the next start player."""

    KIND: ClassVar[str] = "start"


Pending = OpenHand | Payment | TakeCubes | PriceChange | Relocation | WorkOrderChoice | StartChoice


def step_from_data(data: Any) -> Pending:
    """Read a stored action under way; raises ValueError on an unknown kind."""
    kind, seat, opened = data["kind"], data["seat"], data.get("opened")
    if kind == "laws":
        return OpenHand(seat, opened=opened)
    if kind == "give":
        return Payment(seat, copy_data(data["candidates"]), list(data["given"]), data["to"],
                       purpose_from_data(data), opened=opened)
    if kind == "take":
        return TakeCubes(seat, data["left"], data["for"], opened=opened)
    if kind == "price":
        return PriceChange(seat, data["space"], data["add"], data["drop"], list(data["extra"]), list(data["less"]),
                           data["raised"], data["choice"], opened=opened)
    if kind == "relocate":
        return Relocation(seat, data["number"], data["from"], data["then"], opened=opened)
    if kind == "work-order":
        return WorkOrderChoice(seat, list(data["chosen"]), opened=opened)
    if kind == "start":
        return StartChoice(seat, opened=opened)
    raise ValueError(f"not a Keythedral step under way: {kind!r}")


# --- law windows -----------------------------------------------------------------------------------------------


@dataclass
class Window:
    """A law window: the seats it asks, those that answered, and its decision key."""

    KIND: ClassVar[str] = ""
    seats: list[int]
    answered: list[int]
    key: str

    def to_data(self) -> Json:
        """The stored form: the kind, the seats asked and answered, the key, then the kind's own fields."""
        return {"kind": self.KIND, "seats": list(self.seats), "answered": list(self.answered), "key": self.key,
                **self.own_data()}

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {}


@dataclass
class PhaseWindow(Window):
    """The window at the start of a phase (1, 2, 3 or 5)."""

    KIND: ClassVar[str] = "phase"
    phase: int

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"phase": self.phase}


@dataclass
class PurchaseWindow(Window):
    """A declared purchase the other law holders may answer (T-13); blocked once Design Change swapped its tile."""

    KIND: ClassVar[str] = "purchase"
    buyer: int
    space: str
    blocked: bool = False  # stored only once blocked

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        data: Json = {"buyer": self.buyer, "space": self.space}
        if self.blocked:
            data["blocked"] = True
        return data


@dataclass
class RepealWindow(Window):
    """A law card just played, waiting while the others may repeal it before it acts (T-15)."""

    KIND: ClassVar[str] = "repeal"
    law: int

    def own_data(self) -> Json:
        """The fields this kind adds, as stored."""
        return {"law": self.law}


LawWindow = PhaseWindow | PurchaseWindow | RepealWindow


def window_from_data(data: Any) -> LawWindow:
    """Read a stored law window; raises ValueError on an unknown kind."""
    kind, seats, answered, key = data["kind"], list(data["seats"]), list(data["answered"]), data["key"]
    if kind == "phase":
        return PhaseWindow(seats, answered, key, data["phase"])
    if kind == "purchase":
        return PurchaseWindow(seats, answered, key, data["buyer"], data["space"], bool(data.get("blocked", False)))
    if kind == "repeal":
        return RepealWindow(seats, answered, key, data["law"])
    raise ValueError(f"not a Keythedral law window: {kind!r}")


# --- law cards played ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Moment:
    """Where play stands, as the time for a repeal counts it (T-15): round, phase, step, whether a phase's window is
    open, and how many seats have been bought (`[round, phase, step, window, seats]`)."""

    round: int
    phase: str
    step: str
    phase_window: bool
    seats_bought: int

    def to_data(self) -> list[Any]:
        """The stored form."""
        return [self.round, self.phase, self.step, self.phase_window, self.seats_bought]

    @staticmethod
    def from_data(data: Any) -> Moment:
        """Read the stored form."""
        round_, phase, step, window, bought = data
        return Moment(round_, phase, step, window, bought)


@dataclass
class Snapshot:
    """What a law card may change, as it was before it acted (or, once it has acted, the part it did change): open
    state fields as their stored data (by field name), the seats on offer by their index on the mat, and its player's
    cubes (held before it acted; once it has acted, the cubes it moved), by seat. mat and cubes are None when left
    out (nothing of theirs changed)."""

    table: Json
    mat: list[tuple[int, Space]] | None
    cubes: dict[str, dict[str, int]] | None

    def to_data(self) -> Json:
        """The stored form: the fields, then "mat" and "cubes" when kept."""
        data: Json = copy_data(self.table)
        if self.mat is not None:
            data["mat"] = [[i, space.to_data()] for i, space in self.mat]
        if self.cubes is not None:
            data["cubes"] = copy_data(self.cubes)
        return data

    @staticmethod
    def from_data(data: Any) -> Snapshot:
        """Read the stored form."""
        table = {name: copy_data(value) for name, value in data.items() if name not in ("mat", "cubes")}
        mat = None if "mat" not in data else [(i, Space.from_data(space)) for i, space in data["mat"]]
        cubes = copy_data(data["cubes"]) if "cubes" in data else None
        return Snapshot(table, mat, cubes)


@dataclass
class Played:
    """A law card played: by whom, its number and arguments; once it has acted, what it may change as it was before
    (before) and when its time for a repeal began (moment: None while its effect is still being carried out)."""

    seat: int
    card: int
    args: list[str]
    before: Snapshot | None = None
    moment: Moment | None = None

    def to_data(self) -> Json:
        """The stored form; before and moment only once the card has acted."""
        data: Json = {"seat": self.seat, "card": self.card, "args": list(self.args)}
        if self.before is not None:
            data["before"] = self.before.to_data()
            data["moment"] = None if self.moment is None else self.moment.to_data()
        return data

    @staticmethod
    def from_data(data: Any) -> Played:
        """Read the stored form."""
        before, moment = data.get("before"), data.get("moment")
        return Played(data["seat"], data["card"], list(data["args"]),
                      None if before is None else Snapshot.from_data(before),
                      None if moment is None else Moment.from_data(moment))

    @property
    def acted(self) -> bool:
        """Whether the card has taken effect (it may then be repealed until its time runs out)."""
        return self.before is not None
