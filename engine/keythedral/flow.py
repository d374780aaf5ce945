"""The order of play: set-up, the five phases of a round, law windows, stage reveals and the end.

`advance` does everything that needs nobody's choice and stops at the next decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event, Rng
from engine.keythedral import board
from engine.keythedral import supply as sup
from engine.keythedral.components import BUILDINGS, COMPONENTS, FIELD_TILES, Components
from engine.keythedral.pieces import Bidding, Chosen, Cottage, Doubled, Harvest, LaidField, Marker, Space, Use
from engine.keythedral.state import KState
from engine.keythedral.steps import LawWindow, PhaseWindow, PurchaseWindow, RepealWindow, TakeCubes

OPTIONS = {"no_laws": False, "open_tiles": False, "open_screens": False}  # open_screens: ruling T-1
START_FIELDS = {"M13": "quarry", "N14": "quarry", "N13": "woods", "M14": "woods"}
TWO_PLAYER_FIELDS = {"M13": "quarry", "N13": "woods"}


def setup(players: Sequence[str], seed: int, options: Mapping[str, Any] | None,
          comps: Components = COMPONENTS) -> KState:
    """The opening state (Preparation; Set up); raises ValueError on a bad player count or option."""
    opts = dict(OPTIONS)
    for key, value in (options or {}).items():
        if key not in OPTIONS:
            raise ValueError(f"Unknown Keythedral option '{key}'; known: {', '.join(OPTIONS)}.")
        opts[key] = bool(value)
    n = len(players)
    if not 2 <= n <= 5:
        raise ValueError(f"Keythedral needs 2 to 5 players, not {n}.")
    rng = Rng.from_seed(seed)
    state = KState(names=list(players), options=opts, rng=0)
    _lay_start_fields(state, comps, rng)
    _fill_mat(state, comps, rng)
    laws = [] if opts["no_laws"] else [law.number for law in comps.laws]
    rng.shuffle(laws)
    spaces = 0 if opts["no_laws"] else 1 if n == 2 else 2
    state.law_spaces = [laws.pop(0) for _ in range(spaces)]
    state.law_deck = laws
    state.cottages = [[Cottage(None, False) for _ in range(comps.cottages)] for _ in range(n)]
    state.fences_built = [0] * n
    state.cubes = [{c: 0 for c in sup.CUBES} for _ in range(n)]
    state.store = {c: comps.resource_supply.get(c, 0) for c in sup.CUBES}
    state.craftsmen = dict(comps.craft_supply)
    state.tiles = [[] for _ in range(n)]
    state.hands = [[] for _ in range(n)]
    state.procured, state.passed = [False] * n, [False] * n
    state.rng = rng.state
    state.drawn = state.field_stack.pop(0)
    return state


def _lay_start_fields(state: KState, comps: Components, rng: Rng) -> None:
    """The Keythedral tile and the number-1 fields (two in variation one), and the shuffled stack of the rest."""
    n = state.n
    start = TWO_PLAYER_FIELDS if n == 2 else START_FIELDS
    ones = [t for t in comps.fields if t.back == 1]
    for label, terrain in start.items():
        tile = next(t for t in ones if t.terrain == terrain)
        ones.remove(tile)
        state.fields[label] = LaidField(tile.terrain, tile.back, tile.id)
    state.keythedral = None if n == 2 else "M13+"
    stack = [t.id for t in comps.fields if 1 < t.back <= (2 if n == 2 else n)]
    rng.shuffle(stack)
    state.field_stack = stack


def _fill_mat(state: KState, comps: Components, rng: Rng) -> None:
    """Face-down building tiles on the mat's spaces by stage, the rest set aside unseen."""
    for stage, slots in sorted(comps.mat_slots.items()):
        ids = [b.id for b in comps.buildings if b.stage == stage]
        rng.shuffle(ids)
        for k in range(slots):
            up = state.options["open_tiles"]
            state.mat.append(Space(f"{stage}.{k + 1}", stage, ids[k], up))
        state.unused[str(stage)] = ids[slots:]


def holders(state: KState, but: int | None = None) -> list[int]:
    """Seats holding at least one law card (a public count), clockwise from the start player."""
    order = [(state.start + k) % state.n for k in range(state.n)]
    return [s for s in order if state.hands[s] and s != but]


def window_key(state: KState, kind: str) -> str:
    """The decision key of a law window opened now: 'purchase:3:57'."""
    return f"{kind}:{state.round}:{state.seq}"


def open_phase_window(state: KState, phase: int) -> None:
    """Push the window at the start of a phase, asking every law holder (nothing when none holds a card)."""
    seats = holders(state)
    if seats:
        state.windows.append(PhaseWindow(seats, [], window_key(state, PhaseWindow.KIND), phase))


def asked_again(state: KState, window: LawWindow) -> list[int]:
    """Who a window asks once a law took effect: every holder, but never the buyer of a purchase (T-13, T-40)."""
    if isinstance(window, PurchaseWindow):
        return holders(state, but=window.buyer)
    if isinstance(window, PhaseWindow | RepealWindow):
        return holders(state)
    raise TypeError(f"not a law window: {window!r}")


def reopen(state: KState) -> None:
    """After a law took effect, every holder the window below asks is asked again, under a new key (T-40)."""
    if state.windows:
        top = state.windows[-1]
        top.seats = asked_again(state, top)
        top.answered = []
        top.key = f"{window_key(state, top.KIND)}:again"


def advance(state: KState, ev: list[Event]) -> None:
    """Carry out everything automatic until someone must decide (or the game is over)."""
    while state.phase != "over" and not state.pending and not state.windows:
        if not _step(state, ev):
            return


def _step(state: KState, ev: list[Event]) -> bool:
    """One automatic step; False when the current step waits for a decision."""
    phase, step = state.phase, state.step
    if phase == "setup":
        return False
    if phase == "workers":
        return _workers_step(state, ev)
    if phase == "harvest":
        _collect(state, ev)
        return True
    if phase == "actions":
        if step == "begin":
            state.turn, state.passes, state.step = state.start, 0, "turn"
            state.flags = {}
            return True
        active = [s for s in range(state.n) if not state.procured[s]]
        if not active or state.passes >= len(active):
            _end_actions(state, ev)
            return True
        return False
    if phase == "bidding":
        if step == "begin":
            _begin_bidding(state, ev)
            return True
        return False
    return False


# --- set-up ---------------------------------------------------------------------------------------------------

def setup_seat(state: KState) -> int:
    """Whose set-up turn it is (clockwise from the start player)."""
    return (state.start + state.setup_turn) % state.n


def after_setup_cottage(state: KState, ev: list[Event]) -> None:
    """Next set-up turn, or the first round once everyone has laid five fields and five cottages."""
    state.setup_turn += 1
    if state.field_stack:
        state.step, state.drawn = "field", state.field_stack.pop(0)
        terrain = field_terrain(state.drawn)
        ev.append(Event(f"{state.names[setup_seat(state)]} draws a {terrain} field tile to lay.", setup_seat(state)))
        return
    state.drawn = None
    for space in state.mat:
        if space.stage == 1:
            space.up = True
    ev.append(Event("Set-up is complete. The four stage-1 building tiles are turned face up: "
                    + costs_text(stage_spaces(state, 1))))
    begin_round(state, ev)


def field_terrain(tile_id: str) -> str:
    """The terrain of a field tile; raises KeyError for an unknown tile."""
    return FIELD_TILES[tile_id].terrain


def tile_cost(tile_id: str) -> tuple[str, ...]:
    """The printed cube cost of a building tile; raises KeyError for an unknown tile."""
    return BUILDINGS[tile_id].cost


def stage_spaces(state: KState, stage: int) -> list[Space]:
    """The mat's spaces of one stage."""
    return [s for s in state.mat if s.stage == stage]


def mat_space(state: KState, name: str) -> Space:
    """A mat space by its name ('2.3'); raises StopIteration for a name the mat does not have."""
    return next(s for s in state.mat if s.space == name)


# --- the round ------------------------------------------------------------------------------------------------

def begin_round(state: KState, ev: list[Event]) -> None:
    """Start a round at phase one (its law window first)."""
    state.round += 1
    state.phase, state.step = "workers", "order"
    state.markers, state.fixed_order, state.used, state.nominated, state.broken = [], None, [], [], []
    state.harvest = Harvest()
    state.moratorium, state.effects = None, []
    state.procured, state.passed = [False] * state.n, [False] * state.n
    ev.append(Event(f"Round {state.round} begins. {state.names[state.start]} is the start player."))
    open_phase_window(state, 1)


def chooser(state: KState) -> int:
    """The seat choosing (or, under Work Order, starting) the next work-order number."""
    return (state.start + len(state.markers)) % state.n


def _workers_step(state: KState, ev: list[Event]) -> bool:
    """Phase one: the next number (chosen by a player, or from Work Order's list), then each seat's placements."""
    if state.step == "order":
        if len(state.markers) == 5:
            _begin_harvest(state, ev)
            return True
        if state.fixed_order:
            begin_number(state, state.fixed_order[len(state.markers)], ev)
            return True
        return False
    return _placement_step(state, ev)


def begin_number(state: KState, number: int, ev: list[Event]) -> None:
    """Put the next marker on a number; the seat that took it places first, then clockwise (Phase one)."""
    first = chooser(state)
    state.markers.append(Marker(number, first))
    ev.append(Event(f"Work order {len(state.markers)}: cottages and houses numbered {number} send out their "
                    f"workers, {state.names[first]} first.", first))
    state.queue = [(first + k) % state.n for k in range(state.n)]
    state.step = "worker"
    _load_sources(state)


def current_number(state: KState) -> int | None:
    """The work-order number whose workers are being placed."""
    return state.markers[-1].number if state.markers and state.phase == "workers" and state.step == "worker" else None


def _load_sources(state: KState) -> None:
    """The placing seat's cottage with the current number (unless it already worked under Cottage Number)."""
    number = current_number(state)
    state.sources, state.left = [], 0
    if not state.queue or number is None:
        return
    seat = state.queue[0]
    if Use(seat, number) not in state.used and state.cottages[seat][number - 1].at:
        state.sources = [number]
        state.left = workers_of(state, seat, number)


def workers_of(state: KState, seat: int, number: int) -> int:
    """Workers a cottage (one) or a house (two) sends out."""
    return 2 if state.cottages[seat][number - 1].house else 1


def must_ask_placement(state: KState) -> bool:
    """Whether the placing seat decides now: a free field, or law cards to play before its cottage goes idle."""
    seat, number = state.queue[0], state.sources[0]
    if state.left <= 0:
        return False
    if board.free_fields(state, seat, number):
        return True
    return bool(state.hands[seat]) and state.left == workers_of(state, seat, number)


def _placement_step(state: KState, ev: list[Event]) -> bool:
    """Walk the queue of seats placing for the current number, idling cottages with nowhere to go."""
    if not state.queue:
        state.step = "order"
        return True
    seat = state.queue[0]
    if state.sources:
        if must_ask_placement(state):
            return False
        number = state.sources[0]
        if state.left > 0:
            what = "worker is" if state.left == 1 else "workers are"
            ev.append(Event(f"{state.names[seat]}'s {what} idle: cottage {number} has no free field open to it.",
                            seat))
        finish_source(state)
        return True
    state.queue.pop(0)
    _load_sources(state)
    return True


def finish_source(state: KState) -> None:
    """The current cottage has sent its workers: note it worked this round, move to the next one."""
    seat, number = state.queue[0], state.sources.pop(0)
    if Use(seat, number) not in state.used:
        state.used.append(Use(seat, number))
    state.left = workers_of(state, seat, state.sources[0]) if state.sources else 0


def _begin_harvest(state: KState, ev: list[Event]) -> None:
    """Phase two begins: its law window, then collection from the start player."""
    state.phase, state.step, state.collect_from = "harvest", "collect", 0
    ev.append(Event("Phase 2: the workers collect their cubes."))
    open_phase_window(state, 2)


def harvest_amount(state: KState, seat: int, field: str) -> int:
    """Cubes one worker earns in a field, after Good/Poor Harvest and Double Production (ruling T-19)."""
    terrain = state.fields[field].terrain
    harvest = state.harvest or Harvest()
    if harvest.poor == terrain:
        return 0
    amount = 2 if harvest.good == terrain else 1
    return amount * 2 if Doubled(seat, field) in harvest.double else amount


def _collect(state: KState, ev: list[Event]) -> None:
    """Each seat in turn from the start player takes its cubes; an exhausted colour yields nothing (Phase two)."""
    while state.collect_from < state.n:
        seat = (state.start + state.collect_from) % state.n
        state.collect_from += 1
        got: list[str] = []
        lost: list[str] = []
        choose = 0
        chosen = state.harvest.unexpected if state.harvest else []
        for field in sorted(f for f, w in state.workers.items() if w.seat == seat):
            terrain = state.fields[field].terrain
            amount = harvest_amount(state, seat, field)
            if Chosen(seat, terrain) in chosen:
                choose += amount
                continue
            colour = sup.TERRAIN_CUBE[terrain]
            taken = sup.take(state, seat, colour, amount)
            got += [colour] * taken
            lost += [colour] * (amount - taken)
        text = f"{state.names[seat]} collects {sup.words(got)}"
        if lost:
            text += f"; the store has run out, so {sup.words(lost)} is lost"
        ev.append(Event(text + ".", seat))
        if choose and not any(state.store[c] for c in sup.RESOURCES):
            ev.append(Event(f"The store is empty: {state.names[seat]}'s chosen cubes are lost.", seat))
        elif choose:
            state.pending = TakeCubes(seat, choose, "harvest")
            return
    _begin_actions(state, ev)


def _begin_actions(state: KState, ev: list[Event]) -> None:
    """Phase three begins: its law window, then turns from the start player."""
    state.phase, state.step = "actions", "begin"
    ev.append(Event("Phase 3: spend cubes, one action per turn, until everyone still active passes in a row."))
    open_phase_window(state, 3)


def next_turn(state: KState) -> None:
    """Phase three passes clockwise to the next seat that has not procured a law card."""
    state.flags = {}
    for k in range(1, state.n + 1):
        seat = (state.turn + k) % state.n
        if not state.procured[seat]:
            state.turn = seat
            return


def after_action(state: KState, ev: list[Event]) -> None:
    """An action (not a pass) ends the turn and restarts the count of passes."""
    state.passes = 0
    next_turn(state)


def open_take(state: KState, seat: int, k: int, purpose: str, ev: list[Event]) -> None:
    """The seat chooses k resource cubes from the store (nothing when the store has none)."""
    if any(state.store[c] for c in sup.RESOURCES):
        state.pending = TakeCubes(seat, k, purpose)
        return
    ev.append(Event("The store holds no resource cube to give.", seat))
    state.pending = TakeCubes(seat, 0, purpose)
    finish_take(state, ev)


def finish_take(state: KState, ev: list[Event]) -> None:
    """Choices of cubes are done: a trade ends the turn, Bargain's too, which is the turn's trade (T-34); a harvest
    goes on."""
    pending = state.pending
    assert isinstance(pending, TakeCubes)
    state.pending = None
    if pending.purpose in ("trade", "bargain"):
        state.passed[pending.seat] = False
        after_action(state, ev)


def _end_actions(state: KState, ev: list[Event]) -> None:
    """Phase four (retrieve workers, refill the new-law spaces) and the start of phase five."""
    state.workers, state.markers = {}, []
    refilled = 0
    for i, card in enumerate(state.law_spaces):
        if card is None and state.law_deck:
            state.law_spaces[i] = state.law_deck.pop(0)
            refilled += 1
    text = "Phase 4: the workers come home"
    if refilled:
        text += f"; {refilled} new law card{'s' if refilled > 1 else ''} laid face down"
    ev.append(Event(text + "."))
    state.phase, state.step = "bidding", "begin"
    open_phase_window(state, 5)


def _begin_bidding(state: KState, ev: list[Event]) -> None:
    """Phase five: A hands the start-player marker to B; bids run from B's left round to A, B last."""
    a = state.start
    b = (a + 1) % state.n
    state.start = b
    order = [(b + 1 + k) % state.n for k in range(state.n - 1)]
    state.bidding = Bidding(b, order)
    state.step = "bid"
    ev.append(Event(f"Phase 5: {state.names[a]} hands the start-player marker to {state.names[b]}. Bids for the "
                    f"choice of the next start player begin with {state.names[order[0]]}; "
                    f"{state.names[b]} bids last and wins by matching. Anyone may pass ahead of their turn (`pass`)."))


def bidder(state: KState) -> int:
    """Who bids now: the next seat in the bidding order, then B."""
    assert state.bidding is not None
    return state.bidding.next_bidder()


def reveal_stage(state: KState, stage: int, ev: list[Event]) -> None:
    """Turn the next stage's tiles face up once the last tile of a stage is taken."""
    spaces = stage_spaces(state, stage)
    for s in spaces:
        s.up = True
    ev.append(Event(f"Stage {stage - 1} is complete. The stage-{stage} tiles are turned face up: "
                    + costs_text(spaces)))


def costs_text(spaces: list[Space]) -> str:
    """'1.1 costs 1 black, 1 brown†; ...' with a note when a cost is Keywood's reconstruction (docs/components.md)."""
    text = "; ".join(f"{s.space} costs {cost_words(s.tile)}" for s in spaces) + "."
    if any(BUILDINGS[s.tile].provenance == "reconstructed" for s in spaces):
        text += " († reconstructed: the printed cost is not public; see the rules on components.)"
    return text


def cost_words(tile_id: str) -> str:
    """A tile's cost in words, marked † when reconstructed."""
    return sup.words(tile_cost(tile_id)) + ("†" if BUILDINGS[tile_id].provenance == "reconstructed" else "")


def current_stage(state: KState) -> int:
    """The lowest stage with an untaken space (6 when the Keythedral is finished)."""
    return min((s.stage for s in state.mat if s.taken is None), default=6)
