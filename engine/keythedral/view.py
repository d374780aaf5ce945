"""What a seat may see: built by listing what is shown (ruling T-1), never by deleting what is hidden.

Behind a player's screen lie their cubes, their law cards and the building tiles they acquired: only that player sees
them, unless the table chose `open_screens` or the game is over (then cubes and tiles are shown to all; law cards
stay secret until played). The public sees the board, the mats, the store and what each move did in the open.

`KView` and the records inside it type the view: the engine builds it, the chat texts (engine.keythedral.texts) and
the table image (render.keythedral) read it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NotRequired, TypedDict

from engine.core import Decision
from engine.keythedral import board, decide, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.components import BUILDINGS, COMPONENTS, FIELD_TILES
from engine.keythedral.legal import to_act
from engine.keythedral.pieces import Cottage, LaidField, Space
from engine.keythedral.state import KState
from engine.keythedral.steps import Payment, PriceChange, PurchaseWindow, TakeCubes


class Variation(TypedDict):
    """The variations in play: two players (variation one), no law cards (two), every tile face up (three)."""

    two_player: bool
    no_laws: bool
    open_tiles: bool


class FieldView(TypedDict):
    """A field tile on the board: its label, lattice point, terrain and back number."""

    at: str
    x: int
    y: int
    terrain: str
    back: int


class DrawnField(TypedDict):
    """The field tile being laid in set-up (T-6)."""

    terrain: str
    back: int


class CottageView(TypedDict):
    """A cottage or house of a seat, on the board (at a square, at a lattice point) or still to be laid (None)."""

    seat: int
    colour: str
    number: int
    at: str | None
    x: int | None
    y: int | None
    house: bool


class FenceView(TypedDict):
    """A fence between a square and a field, in its builder's colour."""

    seat: int
    colour: str
    square: str
    field: str


class WorkerView(TypedDict):
    """A worker in a field, from its seat's cottage of that number."""

    seat: int
    colour: str
    field: str
    cottage: int


class MarkerView(TypedDict):
    """A work-order marker (1st to 5th) on a cottage number, and the seat that chose it."""

    marker: int
    number: int
    seat: int


class SpaceView(TypedDict):
    """A building space of the mat: the tile and its cost while it lies face up (or to those who see its buyer's
    screen), whether it was taken and by whom (only to those), and the price laws under it."""

    space: str
    stage: int
    face_up: bool
    tile: str | None
    cost: list[str] | None
    reconstructed: bool
    taken: bool
    taken_by: int | None
    price_change: int


class TileView(TypedDict):
    """A seat of the Keythedral a player bought."""

    space: str
    stage: int


class PlayerView(TypedDict):
    """A player: law cards held (a count) and whether they procured or passed; what stands behind their screen only
    where the viewer sees it (T-1)."""

    seat: int
    name: str
    colour: str
    laws_held: int
    procured: bool
    passed: bool
    cubes: NotRequired[dict[str, int]]
    cube_count: NotRequired[int]
    tiles: NotRequired[list[TileView]]
    points: NotRequired[int]


class BidView(TypedDict):
    """A bid of phase five (None: a pass)."""

    seat: int
    bid: int | None


class KView(TypedDict):
    """What a seat (viewer None: the public) sees of a Keythedral table; laws and legal: in a seat's own view."""

    game: str
    viewer: int | None
    names: list[str]
    colours: list[str]
    round: int
    variation: Variation
    open_screens: bool
    phase: str
    step: str
    start_player: int
    to_act: list[int]
    waiting_for: str
    keythedral: str | None
    fields: list[FieldView]
    drawn_field: DrawnField | None
    field_stack: int
    cottages: list[CottageView]
    fences: list[FenceView]
    fences_left: list[int]
    workers: list[WorkerView]
    work_order: list[MarkerView]
    current_number: int | None
    mat: list[SpaceView]
    stage: int
    craftsmen: dict[str, int]
    store: dict[str, int]
    law_spaces: list[bool]
    law_stack: int
    laws_played: list[str]
    players: list[PlayerView]
    bids: list[BidView]
    effects: list[str]
    pending: str | None
    laws: NotRequired[list[str]]
    legal: NotRequired[list[str]]


def view(state: KState, seat: int | None, legal: list[str] | None = None) -> KView:
    """The public view, plus the seat's own screen (cubes, tiles, law cards) and legal actions when seat is given."""
    data = KView(
        game="keythedral", viewer=seat, names=list(state.names),
        colours=[board.COLOURS[s] for s in range(state.n)], round=state.round,
        variation=Variation(two_player=state.n == 2, no_laws=bool(state.options.get("no_laws")),
                            open_tiles=bool(state.options.get("open_tiles"))),
        open_screens=bool(state.options.get("open_screens")),
        phase=state.phase, step=_step(state), start_player=state.start,
        to_act=to_act(state), waiting_for=decide.waiting_for(state),
        keythedral=state.keythedral,
        fields=[_field(label, row) for label, row in sorted(state.fields.items(), key=lambda i: board.point(i[0]))],
        drawn_field=_drawn(state), field_stack=len(state.field_stack),
        cottages=[_cottage(s, i, c) for s in range(state.n) for i, c in enumerate(state.cottages[s])],
        fences=[FenceView(seat=f.seat, colour=board.COLOURS[f.seat], square=f.square, field=f.field)
                for f in state.fences],
        fences_left=[COMPONENTS.fences - b for b in state.fences_built],
        workers=[WorkerView(seat=w.seat, colour=board.COLOURS[w.seat], field=f, cottage=w.cottage)
                 for f, w in sorted(state.workers.items())],
        work_order=[MarkerView(marker=i + 1, number=m.number, seat=m.seat) for i, m in enumerate(state.markers)],
        current_number=flow.current_number(state),
        mat=[_space(state, s, seat) for s in state.mat], stage=flow.current_stage(state),
        craftsmen=dict(state.craftsmen), store={c: state.store.get(c, 0) for c in sup.CUBES},
        law_spaces=[card is not None for card in state.law_spaces], law_stack=len(state.law_deck),
        laws_played=[laws.TITLES[c] for c in state.discards],
        players=[_player(state, s, sees_screen(state, seat, s)) for s in range(state.n)],
        bids=_bids(state), effects=list(state.effects), pending=_pending(state),
    )
    if seat is not None:
        data["laws"] = [laws.TITLES[c] for c in sorted(state.hands[seat])]
        data["legal"] = list(legal or [])
    return data


def _step(state: KState) -> str:
    """The sub-step's machine word."""
    if state.pending:
        return state.pending.KIND
    if state.windows:
        return f"{state.windows[-1].KIND}-window"
    return state.step


def _field(label: str, row: LaidField) -> FieldView:
    """A placed field tile."""
    x, y = board.point(label)
    return FieldView(at=label, x=x, y=y, terrain=row.terrain, back=row.back)


def _drawn(state: KState) -> DrawnField | None:
    """The field tile being laid in set-up, shown to all (T-6)."""
    if state.drawn is None:
        return None
    tile = FIELD_TILES[state.drawn]
    return DrawnField(terrain=tile.terrain, back=tile.back)


def _cottage(seat: int, index: int, c: Cottage) -> CottageView:
    """A cottage or house, on the board or still to be laid."""
    x, y = board.point(c.at) if c.at else (None, None)
    return CottageView(seat=seat, colour=board.COLOURS[seat], number=index + 1, at=c.at, x=x, y=y, house=c.house)


def screens_open(state: KState) -> bool:
    """Whether every screen's cubes and tiles are shown to all: the `open_screens` table option, or the game is over
    and the seats are counted (ruling T-1)."""
    return bool(state.options.get("open_screens")) or state.phase == "over"


def sees_screen(state: KState, viewer: int | None, seat: int) -> bool:
    """Whether the viewer (None: the public) sees the cubes and tiles behind this seat's screen (T-1)."""
    return viewer == seat or screens_open(state)


def _space(state: KState, space: Space, viewer: int | None) -> SpaceView:
    """A mat space: its tile's cost while it lies face up on the mat; once taken, the tile is behind its buyer's
    screen, and who has it and what it cost show only to those who see that screen (T-1)."""
    taken = space.taken
    owner = taken if taken is not None and sees_screen(state, viewer, taken) else None
    shown = (space.up and taken is None) or owner is not None
    tile = BUILDINGS.get(space.tile) if shown else None
    return SpaceView(space=space.space, stage=space.stage, face_up=space.up,
                     tile=tile.id if tile else None, cost=list(tile.cost) if tile else None,
                     reconstructed=bool(tile and tile.provenance == "reconstructed"), taken=taken is not None,
                     taken_by=owner, price_change=space.inc - space.dec)


def _player(state: KState, seat: int, screen: bool) -> PlayerView:
    """A player as the viewer sees them: how many law cards they hold and whether they procured or passed; their
    cubes, seats and points only when the viewer sees behind their screen (T-1)."""
    entry = PlayerView(seat=seat, name=state.names[seat], colour=board.COLOURS[seat],
                       laws_held=len(state.hands[seat]), procured=state.procured[seat], passed=state.passed[seat])
    if screen:
        cubes = {c: state.cubes[seat].get(c, 0) for c in sup.CUBES}
        entry["cubes"] = cubes
        entry["cube_count"] = sup.count(cubes)
        entry["tiles"] = [TileView(space=t.space, stage=t.stage) for t in state.tiles[seat]]
        entry["points"] = sum(t.stage for t in state.tiles[seat])
    return entry


def opens_a_screen(before: KState, after: KState) -> bool:
    """Whether a move shows what a screen hid (T-1): the game ends and the screens open for the score; or a purchase
    goes on at a price a law raised in its window, which shows whether the buyer can pay it (ruling T-29)."""
    if after.phase == "over" != before.phase:
        return True
    still = {(w.buyer, w.space) for w in after.windows if isinstance(w, PurchaseWindow)}
    gone = [w for w in before.windows if isinstance(w, PurchaseWindow) and (w.buyer, w.space) not in still]
    return any(flow.mat_space(after, w.space).inc > 0 for w in gone)


SCREENED_STEPS = (Payment, PriceChange)  # steps under way whose choices are the payer's cubes


def choices_behind_screen(state: KState) -> bool:
    """Whether the seat to act now chooses among things its screen hides (T-1): a phase-3 turn (what its cubes
    afford), a payment or a price change (which cubes it holds), a bid (how many cubes it holds)."""
    if screens_open(state):
        return False
    if state.pending:
        return isinstance(state.pending, SCREENED_STEPS)
    return not state.windows and state.phase in ("actions", "bidding")


def screened(state: KState, found: list[Decision]) -> list[Decision]:
    """The decisions with the choices of a seat that must act now made private when they hang on its screen: they
    go to that seat alone, and the choice made is public once made (T-1)."""
    if not choices_behind_screen(state):
        return found
    return [replace(d, public_choices=False, secret=False) if d.must else d for d in found]


def _bids(state: KState) -> list[BidView]:
    """Every bid and pass so far this phase five, in order (None: a pass; B's match shows the amount matched)."""
    if not state.bidding:
        return []
    return [BidView(seat=b.seat, bid=b.amount) for b in state.bidding.bids]


def _pending(state: KState) -> str | None:
    """An action under way, in words."""
    p = state.pending
    if not p:
        return None
    name = state.names[p.seat]
    if isinstance(p, Payment):
        return f"{name} is paying ({p.purpose.word}): {sup.words(p.given)} given so far"
    if isinstance(p, TakeCubes):
        return f"{name} chooses {p.left} cube(s) from the store"
    return f"{name}: {decide.phrase(state)}"

