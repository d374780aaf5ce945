"""Who decides now and every action they may take: the single source of truth for validation and play-outs."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

from engine.keythedral import board, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.actions import Act, act
from engine.keythedral.components import COMPONENTS, CRAFTSMEN
from engine.keythedral.pieces import Space, Use
from engine.keythedral.state import KState
from engine.keythedral.steps import (
    LawWindow,
    OpenHand,
    Payment,
    Pending,
    PhaseWindow,
    PriceChange,
    PurchaseWindow,
    Relocation,
    RepealWindow,
    StartChoice,
    TakeCubes,
    WorkOrderChoice,
)

HOUSE_COST = ("black", "brown")  # rules: Phase three, action two
FENCE_COST = ("brown",)  # action three
UNFENCE_COST = ("red", "red")
TRADE_PRICE = 2  # any cubes the trader takes for a resource cube (action five)
PROCURE_PRICE = 1  # any cube the law master takes for a law card (action six)
SALE_OFF = 2  # cubes fewer the Sale law takes off a craftsman's price (law card 16)
SALE_CRAFTSMEN = ("glass", "gold")  # the craftsmen a Sale may be for
NUMBERS = range(1, COMPONENTS.cottages + 1)  # the work-order numbers, one per cottage


def to_act(state: KState) -> list[int]:
    """Seats that must decide now, in the order they are asked."""
    if state.phase == "over":
        return []
    if state.pending:
        return [state.pending.seat]
    if state.windows:
        top = state.windows[-1]
        return [s for s in top.seats if s not in top.answered]
    if state.phase == "setup":
        return [flow.setup_seat(state)]
    if state.phase == "workers":
        return [flow.chooser(state)] if state.step == "order" else [state.queue[0]]
    if state.phase == "actions":
        return [state.turn]
    if state.phase == "bidding":
        return [flow.bidder(state)]
    return []


def legal(state: KState, seat: int) -> list[Act]:
    """Every action this seat may take now: its decision's, or the law cards it may play out of turn (T-13)."""
    if seat not in to_act(state):
        return interjections(state, seat)
    if state.pending:
        return _pending_actions(state, state.pending)
    if state.windows:
        allowed = _window_laws(state.windows[-1])
        return [act("continue"), *law_plays(state, seat, allowed)]
    if state.phase == "setup":
        return _setup_actions(state, seat)
    if state.phase == "workers":
        return _worker_actions(state, seat)
    if state.phase == "actions":
        return turn_actions(state, seat) + open_hand(state, seat)
    return _bid_actions(state, seat)


def interjections(state: KState, seat: int) -> list[Act]:
    """The law cards a seat nobody is asking may play now, out of turn (ruling T-13): the cards of any moment of this
    phase, and Repeal (T-15); never in the middle of an action under way, nor while a card just played waits to see
    whether it is repealed. Nobody is asked for these, so no decision opens for them."""
    if state.phase not in laws.DURING or (state.pending and not isinstance(state.pending, OpenHand)):
        return []
    if laws.repeal_window(state) is not None:
        return []
    return law_plays(state, seat, laws.DURING[state.phase])


def open_hand(state: KState, seat: int) -> list[Act]:
    """`laws`: look at one's law cards to play one now, offered whenever one holds any (a public count, T-1)."""
    return [act("laws")] if state.hands[seat] and not state.options.get("no_laws") else []


def _window_laws(window: LawWindow) -> frozenset[str]:
    """The law cards a window admits; raises TypeError on a window of no known kind."""
    if isinstance(window, RepealWindow):
        return laws.REPEAL
    if isinstance(window, PurchaseWindow):
        return laws.PURCHASE
    if isinstance(window, PhaseWindow):
        return laws.PHASE_START[window.phase]
    raise TypeError(f"not a law window: {window!r}")


def _setup_actions(state: KState, seat: int) -> list[Act]:
    """Lay the drawn field, or one of one's cottages (Set up)."""
    if state.step == "field":
        return [act("field", spot) for spot in board.field_spots(state)]
    numbers = [i + 1 for i, c in enumerate(state.cottages[seat]) if c.at is None]
    squares = board.cottage_squares(state)
    return [act("cottage", n, sq) for n in numbers for sq in squares]


def _worker_actions(state: KState, seat: int) -> list[Act]:
    """Choose the next work-order number, or place a worker (Phase one)."""
    if state.step == "order":
        chosen = {m.number for m in state.markers}
        return [act("order", n) for n in NUMBERS if n not in chosen]
    spots = board.free_fields(state, seat, state.sources[0])
    moves = [act("worker", f) for f in spots] or [act("idle")]
    return moves + open_hand(state, seat)


def _pending_actions(state: KState, pending: Pending) -> list[Act]:
    """The steps of an action under way; raises TypeError on a kind it does not know."""
    seat = pending.seat
    if isinstance(pending, Payment):
        cubes = state.cubes[seat]
        options = {c for slots in pending.candidates for c in sup.give_options(cubes, slots)}
        return [act("give", c) for c in sup.CUBES if c in options]
    if isinstance(pending, TakeCubes):
        return [act("take", c) for c in sup.RESOURCES if state.store[c] > 0]
    if isinstance(pending, PriceChange):
        withdraw = [act("withdraw")] if pending.raised else []
        return [act(pending.choice, c) for c in price_choices(state, pending)] + withdraw
    if isinstance(pending, OpenHand):
        allowed = laws.PLACEMENT if state.phase == "workers" else laws.OWN_TURN
        return law_plays(state, seat, allowed) + [act("back")]
    if isinstance(pending, Relocation):
        return [act("relocate", pending.number, sq) for sq in board.relocation_squares(state)]
    if isinstance(pending, WorkOrderChoice):
        return [act("order", n) for n in NUMBERS if n not in pending.chosen]
    if isinstance(pending, StartChoice):
        return [act("start", board.COLOURS[s]) for s in range(state.n)]
    raise TypeError(f"not a Keythedral step under way: {pending!r}")


def _bid_actions(state: KState, seat: int) -> list[Act]:
    """One bid each, every bid higher; B bids last and wins by matching (Phase five)."""
    assert state.bidding is not None
    high = state.bidding.high
    held = sup.count(state.cubes[seat])
    if seat == state.bidding.b and state.bidding.b_to_answer():
        return [act("pass")] + ([act("match")] if high and held >= high.amount else [])
    floor = high.amount + 1 if high else 1
    return [act("pass")] + [act("bid", k) for k in range(floor, held + 1)]


# --- phase three -------------------------------------------------------------------------------------------------

def craft_price(state: KState, verb: str) -> int:
    """Cubes a craftsman asks, two fewer under this turn's Sale (ruling T-27)."""
    price = CRAFTSMEN[verb].price
    if state.flags.get("sale") == verb:
        price -= SALE_OFF
    return max(price, 0)


def turn_actions(state: KState, seat: int) -> list[Act]:
    """The actions of a phase-three turn (Phase three, actions one to seven)."""
    cubes = state.cubes[seat]
    held = sup.count(cubes)
    found = [act("buy", s.space) for s in buyable(state) if can_buy(state, seat, s)]
    if state.moratorium in (None, seat) and all(cubes[c] >= 1 for c in HOUSE_COST):
        found += [act("house", i + 1) for i, c in enumerate(state.cottages[seat]) if c.at and not c.house]
    for verb, craftsman in CRAFTSMEN.items():
        if sup.craft_available(state, craftsman.colour) and held >= craft_price(state, verb):
            found.append(act(verb))
    if held >= TRADE_PRICE:
        found.append(act("trade"))
    if held >= PROCURE_PRICE:
        found += [act("procure", i + 1) for i, card in enumerate(state.law_spaces) if card is not None]
    found.append(act("pass"))
    if state.fences_built[seat] < COMPONENTS.fences and cubes["brown"] >= 1:
        found += [act("fence", sq, f) for sq, f in board.fence_edges(state)]
    if cubes["red"] >= 2:
        found += [act("unfence", f.square, f.field) for f in state.fences]
    return found


def buyable(state: KState) -> list[Space]:
    """The untaken spaces of the stage being built (its tiles face up)."""
    stage = flow.current_stage(state)
    return [s for s in state.mat if s.stage == stage and s.taken is None and s.up]


def price_slot_sets(cost: list[str], substitution: bool) -> list[sup.Slots]:
    """The ways to pay a cost: each a list of slots; Substitution widens them (ruling T-20)."""
    if not substitution:
        return [sup.fixed_slots(cost)]
    resources = [list(sup.RESOURCES) for c in cost if c in sup.RESOURCES]
    crafts = [c for c in cost if c in sup.CRAFTS]
    if not crafts:
        return [resources]
    return [resources + [[c] for c in crafts[:i]] + [list(sup.CRAFTS)] + [[c] for c in crafts[i + 1:]]
            for i in range(len(crafts))]


def final_costs(state: KState, space: Space) -> list[list[str]]:
    """Every cost a buyer may end up paying: each price increase adds a colour shown, a decrease drops one."""
    return _remaining(list(flow.tile_cost(space.tile)), space.tile, space.inc, space.dec)


def can_buy(state: KState, seat: int, space: Space) -> bool:
    """Whether the seat can pay this tile in some allowed way (Phase three, action one)."""
    sub = bool(state.flags.get("substitution"))
    if not (sub or space.inc or space.dec):
        held = state.cubes[seat]
        return all(held.get(c, 0) >= k for c, k in _counted(space.tile).items())
    return any(sup.feasible(state.cubes[seat], slots) for cost in final_costs(state, space)
               for slots in price_slot_sets(cost, sub))


@cache
def _counted(tile: str) -> dict[str, int]:
    """A tile's printed cost as counts per colour."""
    return dict(Counter(flow.tile_cost(tile)))


def price_choices(state: KState, pending: PriceChange) -> list[str]:
    """The colours the buyer may add (Price Increase) or drop (Price Decrease) and still pay."""
    tile = flow.mat_space(state, pending.space).tile
    cost = list(flow.tile_cost(tile)) + pending.extra
    for c in pending.less:
        cost.remove(c)
    shown = sorted(set(flow.tile_cost(tile)), key=sup.CUBES.index)
    sub = bool(state.flags.get("substitution"))
    adding = pending.choice == "add"
    found = []
    for colour in shown:
        if not adding and colour == "yellow":
            continue
        trial = cost + [colour] if adding else [c for c in cost]
        if not adding:
            if colour not in trial:
                continue
            trial.remove(colour)
        inc, dec = pending.add - adding, pending.drop - (not adding)
        if any(sup.feasible(state.cubes[pending.seat], slots)
               for more in _remaining(trial, tile, inc, dec) for slots in price_slot_sets(more, sub)):
            found.append(colour)
    return found


def _remaining(cost: list[str], tile: str, inc: int, dec: int) -> list[list[str]]:
    """Costs still possible after some choices: the remaining increases (inc) and decreases (dec) of a tile's price
    applied to cost."""
    shown = sorted(set(flow.tile_cost(tile)), key=sup.CUBES.index)
    found = []
    for extra in itertools.product(shown, repeat=max(inc, 0)):
        drops: list[str | None] = [c for c in shown if c != "yellow" and c in cost] if dec > 0 else [None]
        for drop in drops:
            final = cost + list(extra)
            if drop:
                final.remove(drop)
            found.append(final)
    return found


# --- law cards ---------------------------------------------------------------------------------------------------

def law_plays(state: KState, seat: int, allowed: frozenset[str]) -> list[Act]:
    """The law cards this seat may play now, with their arguments (ruling T-13)."""
    if state.options.get("no_laws"):
        return []
    found = []
    for card in sorted(state.hands[seat]):
        key = laws.KEYS[card]
        if key in allowed:
            found += [act("law", key, *args) for args in law_args(state, seat, key)]
    return found


def law_args(state: KState, seat: int, key: str) -> list[tuple[object, ...]]:
    """Every argument list a law card may be played with now (empty: not playable now)."""
    cubes = state.cubes[seat]
    up = [s.space for s in buyable(state)]
    own = [(i + 1, c) for i, c in enumerate(state.cottages[seat]) if c.at]
    if key in ("work-order",):
        return [()] if state.phase == "workers" and not state.markers and state.fixed_order is None else []
    if key == "repeal":
        return [()] if laws.repealable(state, seat) else []
    if key in ("price-increase", "house-moratorium"):
        return [()] if key != "house-moratorium" or state.moratorium is None else []
    if key == "substitution":
        return [] if state.flags.get("substitution") else [()]
    if key == "price-decrease":
        return [(s,) for s in up]
    if key == "upgrade-cottage":
        return [(n,) for n, c in own if not c.house] if state.moratorium in (None, seat) else []
    if key == "cottage-number":
        return _cottage_number_args(state, seat)
    if key == "craft-bargain":
        return [(r, c) for r in sup.RESOURCES if cubes[r] for c in sup.CRAFTS if state.store[c]]
    if key in ("unexpected-harvest",):
        mine = {state.fields[f].terrain for f, w in state.workers.items() if w.seat == seat}
        return [(t,) for t in sup.TERRAINS if t in mine]
    if key == "double-production":
        return [(f,) for f in sorted(state.workers) if state.workers[f].seat == seat]
    if key in ("good-harvest", "poor-harvest"):
        harvest = state.harvest
        named = None if harvest is None else harvest.good if key == "good-harvest" else harvest.poor
        return [(t,) for t in sup.TERRAINS] if named is None else []
    if key == "broken-fences":
        return [(board.COLOURS[s],) for s in range(state.n) if s not in state.broken]
    if key == "unsafe-fence":
        return [(f.square, f.field) for f in state.fences]
    if key == "design-change":
        return [(s,) for s in up if state.unused[str(s.split(".")[0])]]
    if key == "bargain":
        return [(r,) for r in sup.RESOURCES if cubes[r]]
    if key == "sale":
        return [] if state.flags.get("sale") else [(v,) for v in SALE_CRAFTSMEN
                                                   if sup.craft_available(state, CRAFTSMEN[v].colour)]
    if key == "downgrade-house":
        return [(board.cottage_name(state, s, i + 1),) for s in range(state.n)
                for i, c in enumerate(state.cottages[s]) if c.at and c.house]
    if key == "start-order":
        return [(board.COLOURS[s],) for s in range(state.n) if s != state.start]
    return []


def _cottage_number_args(state: KState, seat: int) -> list[tuple[object, ...]]:
    """Cottages of this seat whose number is still to come this round (Cottage Number, ruling T-28)."""
    number = flow.current_number(state)
    if number is None or not state.queue or state.queue[0] != seat:
        return []
    chosen = {m.number for m in state.markers}
    return [(i + 1,) for i, c in enumerate(state.cottages[seat])
            if c.at and i + 1 not in chosen and Use(seat, i + 1) not in state.used and i + 1 not in state.sources]
