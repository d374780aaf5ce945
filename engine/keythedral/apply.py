"""Carrying out a legal action: what changes and the events that say so."""

from __future__ import annotations

from engine.core import Event
from engine.keythedral import board, effects, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.actions import Act
from engine.keythedral.components import CRAFTSMEN, FIELD_TILES
from engine.keythedral.legal import (
    FENCE_COST,
    HOUSE_COST,
    PROCURE_PRICE,
    TRADE_PRICE,
    UNFENCE_COST,
    can_buy,
    craft_price,
    price_slot_sets,
)
from engine.keythedral.lookup import LAW_BY_KEY
from engine.keythedral.pieces import Acquired, Bid, Fence, HighBid, LaidField, Space, Worker
from engine.keythedral.state import KState
from engine.keythedral.steps import (
    BidPayment,
    CraftPurchase,
    OpenHand,
    Payment,
    PhaseWindow,
    Played,
    PriceChange,
    Procurement,
    PurchaseWindow,
    Purpose,
    Relocation,
    RepealWindow,
    SeatPurchase,
    StartChoice,
    TakeCubes,
    TraderTrade,
    WorkOrderChoice,
)


def apply(state: KState, seat: int, action: Act) -> list[Event]:
    """Apply a legal action in place and say what happened; the caller has checked legality. Raises TypeError or
    ValueError on an action of no kind the current step knows (a legal action never is)."""
    ev: list[Event] = []
    state.seq += 1
    verb = action.verb
    if verb == "law":
        state.pending = None
        play_law(state, seat, action.args[0], action.args[1:], ev)
    elif verb == "laws":
        state.pending = OpenHand(seat)
    elif verb == "back":
        state.pending = None
    elif state.pending:
        _pending_step(state, seat, action, ev)
    elif verb == "continue":
        _answer_window(state, seat, ev)
    elif state.phase == "setup":
        _setup(state, seat, action, ev)
    elif state.phase == "workers":
        _workers(state, seat, action, ev)
    elif state.phase == "actions":
        _turn(state, seat, action, ev)
    elif state.phase == "bidding":
        _bid(state, seat, action, ev)
    else:
        raise ValueError(f"'{action}' has no step to apply to in phase {state.phase}")
    flow.advance(state, ev)
    if state.pending and state.pending.opened is None:
        state.pending.opened = state.seq
    _time_for_repeal(state, verb)
    return ev


TALK = frozenset({"continue", "laws", "back", "law", "buy", "withdraw"})  # steps that leave a repeal's time running


def _time_for_repeal(state: KState, verb: str) -> None:
    """Keep the last card played open to Repeal until the next player starts their turn, or until a step of play
    uses what it did (ruling T-15): a card whose effect is still being carried out (a work order being set, cubes
    being taken) starts its time once that is done."""
    card = laws.in_force(state)
    if card is None:
        return
    if card.moment is None:
        if not state.pending:
            assert card.before is not None
            card.moment, card.before = laws.moment(state), effects.changed(state, card.before)
        return
    if verb not in TALK or laws.moment(state) != card.moment:
        state.played.remove(card)


def _name(state: KState, seat: int) -> str:
    """A seat's name."""
    return state.names[seat]


# --- set-up and phase one ----------------------------------------------------------------------------------------

def _setup(state: KState, seat: int, action: Act, ev: list[Event]) -> None:
    """Lay the drawn field tile, then a cottage (Set up); raises ValueError on another verb."""
    if action.verb == "field":
        assert state.drawn is not None
        tile = FIELD_TILES[state.drawn]
        state.fields[action.args[0].upper()] = LaidField(tile.terrain, tile.back, tile.id)
        state.drawn, state.step = None, "cottage"
        ev.append(Event(f"{_name(state, seat)} lays a {tile.terrain} field at {action.args[0].upper()}.", seat))
        return
    if action.verb != "cottage":
        raise ValueError(f"'{action}' is no set-up step")
    number, square = int(action.args[0]), action.args[1].upper()
    board.lay_cottage(state, seat, number, square)
    ev.append(Event(f"{_name(state, seat)} lays cottage {number} at {square}.", seat))
    flow.after_setup_cottage(state, ev)


def _workers(state: KState, seat: int, action: Act, ev: list[Event]) -> None:
    """Choose a work-order number, place a worker or leave the cottage idle (Phase one); raises ValueError on
    another verb."""
    if action.verb == "order":
        flow.begin_number(state, int(action.args[0]), ev)
        return
    number = state.sources[0]
    if action.verb == "idle":
        ev.append(Event(f"{_name(state, seat)}'s cottage {number} stays idle.", seat))
        state.left = 0
    elif action.verb == "worker":
        field = action.args[0].upper()
        state.workers[field] = Worker(seat, number)
        state.left -= 1
        ev.append(Event(f"{_name(state, seat)} sends a worker from {board.home(state, seat, number)} to the "
                        f"{state.fields[field].terrain} at {field}.", seat))
    else:
        raise ValueError(f"'{action}' is no phase-one step")
    if state.left > 0 and not board.free_fields(state, seat, number):
        ev.append(Event(f"{_name(state, seat)}'s second worker from house {number} is idle: no other free field is "
                        "open to it.", seat))
        state.left = 0
    if state.left <= 0:
        flow.finish_source(state)


# --- phase three ---------------------------------------------------------------------------------------------------

def _turn(state: KState, seat: int, action: Act, ev: list[Event]) -> None:
    """One phase-three action (Phase three, actions one to seven); raises ValueError on another verb."""
    verb, args = action.verb, action.args
    name = _name(state, seat)
    if verb == "pass":
        state.passes += 1
        state.passed[seat] = True
        ev.append(Event(f"{name} passes.", seat))
        flow.next_turn(state)
        return
    state.passed[seat] = False
    if verb == "buy":
        _declare_purchase(state, seat, args[0], ev)
    elif verb == "house":
        sup.pay(state, seat, HOUSE_COST)
        board.make_house(state, seat, int(args[0]), True)
        ev.append(Event(f"{name} pays 1 black and 1 brown and turns cottage {args[0]} into a house.", seat))
        flow.after_action(state, ev)
    elif verb == "fence":
        _fence(state, seat, args[0].upper(), args[1].upper(), ev)
    elif verb == "unfence":
        sup.pay(state, seat, UNFENCE_COST)
        board.remove_fence(state, args[0].upper(), args[1].upper())
        ev.append(Event(f"{name} pays 2 red: the fence between {args[0].upper()} and {args[1].upper()} is taken "
                        "down for good.", seat))
        flow.after_action(state, ev)
    elif verb in CRAFTSMEN:
        price = craft_price(state, verb)
        _start_give(state, seat, price, CraftPurchase(verb))
        craftsman = CRAFTSMEN[verb]
        ev.append(Event(f"{name} buys from the {craftsman.name} ({craftsman.colour}) for {sup.cubes_word(price)}.",
                        seat))
        if price == 0:
            _finish_give(state, ev)
    elif verb == "trade":
        _start_give(state, seat, TRADE_PRICE, TraderTrade())
        ev.append(Event(f"{name} trades with the trader: 2 cubes for 1 resource cube.", seat))
    elif verb == "procure":
        _start_give(state, seat, PROCURE_PRICE, Procurement(int(args[0])))
        ev.append(Event(f"{name} procures the law card on new-law space {args[0]} for 1 cube.", seat))
    else:
        raise ValueError(f"'{action}' is no phase-three action")


def _start_give(state: KState, seat: int, k: int, purpose: Purpose, to: int | None = None,
                candidates: list[sup.Slots] | None = None) -> None:
    """Open a payment made cube by cube."""
    state.pending = Payment(seat, candidates or [sup.any_slots(k)], [], to, purpose)


def _fence(state: KState, seat: int, square: str, field: str, ev: list[Event]) -> None:
    """Build a fence; a cottage fenced off from every field must move (Phase three, action three)."""
    sup.pay(state, seat, FENCE_COST)
    state.fences.append(Fence(seat, square, field))
    state.fences_built[seat] += 1
    ev.append(Event(f"{_name(state, seat)} pays 1 brown and fences {square} off from {field}.", seat))
    owner = board.occupant(state).get(square)
    if owner and board.fenced_off(state, square) and board.relocation_squares(state):
        o_seat, number = owner
        state.pending = Relocation(o_seat, number, square, seat)
        ev.append(Event(f"{_name(state, o_seat)}'s {board.home(state, o_seat, number)} is fenced off from every field "
                        "and must move.", o_seat))
        return
    flow.after_action(state, ev)


def _declare_purchase(state: KState, seat: int, space: str, ev: list[Event]) -> None:
    """Declare a purchase: the other law holders may answer before it goes ahead (ruling T-13)."""
    ev.append(Event(f"{_name(state, seat)} wants to buy the seat on space {space}.", seat))
    others = flow.holders(state, but=seat)
    if others:
        state.windows.append(PurchaseWindow(others, [], flow.window_key(state, PurchaseWindow.KIND), seat, space))
        return
    _complete_purchase(state, seat, space, ev)


def _complete_purchase(state: KState, seat: int, space_name: str, ev: list[Event]) -> None:
    """Go ahead with a declared purchase: choose the price changes, pay, take the tile; or find it blocked."""
    space = flow.mat_space(state, space_name)
    if not can_buy(state, seat, space):
        ev.append(Event(f"{_name(state, seat)} cannot pay the new price of {space_name}: the purchase does not "
                        "happen and was no action; it is still their turn (ruling T-29).", seat))
        return
    _next_price_choice(state, PriceChange(seat, space_name, space.inc, space.dec, [], [], space.inc > 0), ev)


def _next_price_choice(state: KState, pending: PriceChange, ev: list[Event]) -> None:
    """Ask for the next price change, or pay once none is left."""
    if pending.add > 0 or pending.drop > 0:
        pending.choice = "add" if pending.add > 0 else "drop"
        state.pending = pending
        return
    state.pending = None
    seat, space = pending.seat, flow.mat_space(state, pending.space)
    cost = list(flow.tile_cost(space.tile)) + pending.extra
    for c in pending.less:
        cost.remove(c)
    if state.flags.get("substitution"):
        sets = [s for s in price_slot_sets(cost, True) if sup.feasible(state.cubes[seat], s)]
        _start_give(state, seat, 0, SeatPurchase(space.space), candidates=sets)
        return
    sup.pay(state, seat, cost)
    _take_tile(state, seat, space, cost, ev)


def _take_tile(state: KState, seat: int, space: Space, paid: list[str], ev: list[Event]) -> None:
    """The seat takes the tile; a finished stage turns the next one up; the last tile ends the game."""
    space.taken = seat
    state.tiles[seat].append(Acquired(space.space, space.tile, space.stage))
    space.inc = space.dec = 0
    ev.append(Event(f"{_name(state, seat)} pays {sup.words(paid)} and takes the seat on {space.space}, worth "
                    f"{space.stage}.", seat))
    stage = space.stage
    if all(s.taken is not None for s in flow.stage_spaces(state, stage)):
        if stage == 5:
            state.phase, state.step, state.pending, state.windows = "over", "over", None, []
            ev.append(Event("The last seat of the Keythedral is taken: the game is over."))
            return
        flow.reveal_stage(state, stage + 1, ev)
    flow.after_action(state, ev)


# --- multi-step actions ----------------------------------------------------------------------------------------

def _pending_step(state: KState, seat: int, action: Act, ev: list[Event]) -> None:
    """One step of the action under way; raises TypeError for a kind that takes no steps here (an open hand of law
    cards is answered by `law` or `back`, which apply handles first)."""
    pending = state.pending
    if isinstance(pending, Payment):
        _give(state, seat, pending, action.args[0], ev)
    elif isinstance(pending, TakeCubes):
        _take(state, seat, pending, action.args[0], ev)
    elif isinstance(pending, PriceChange):
        _price_step(state, seat, pending, action, ev)
    elif isinstance(pending, Relocation):
        _relocate(state, pending, action.args[1].upper(), ev)
    elif isinstance(pending, WorkOrderChoice):
        _work_order_step(state, seat, pending, int(action.args[0]), ev)
    elif isinstance(pending, StartChoice):
        _choose_start(state, seat, action.args[0], ev)
    else:
        raise TypeError(f"no step of an action under way applies to {pending!r}")


def _give(state: KState, seat: int, pending: Payment, colour: str, ev: list[Event]) -> None:
    """One cube of a payment given; the last one completes it."""
    after = [_after_give(state.cubes[seat], s, colour) for s in pending.candidates]
    pending.candidates = [s for s in after if s is not None]
    sup.pay(state, seat, [colour], pending.to)
    pending.given.append(colour)
    if pending.candidates[0]:
        left = len(pending.candidates[0])
        ev.append(Event(f"{_name(state, seat)} gives 1 {colour}; {sup.cubes_word(left)} still to give.", seat))
    else:
        _finish_give(state, ev)


def _after_give(cubes: dict[str, int], slots: sup.Slots, colour: str) -> sup.Slots | None:
    """The slots left once a colour has been given (cubes are before the gift); None if it cannot go there."""
    i = sup.take_slot(cubes, slots, colour)
    return None if i is None else slots[:i] + slots[i + 1:]


def _finish_give(state: KState, ev: list[Event]) -> None:
    """A payment is complete: deliver what was paid for; raises TypeError on a purpose it does not know."""
    pending = state.pending
    assert isinstance(pending, Payment)
    state.pending = None
    seat, purpose, given = pending.seat, pending.purpose, pending.given
    name = _name(state, seat)
    if isinstance(purpose, CraftPurchase):
        colour = CRAFTSMEN[purpose.verb].colour
        refilled = sup.take_craft(state, seat, colour)
        note = f" (a used {colour} cube went back to the craftsman first, T-11)" if refilled else ""
        ev.append(Event(f"{name} gives {sup.words(given)} and takes 1 {colour}{note}.", seat))
        state.flags.pop("sale", None)
        flow.after_action(state, ev)
    elif isinstance(purpose, TraderTrade):
        ev.append(Event(f"{name} gives the trader {sup.words(given)}.", seat))
        flow.open_take(state, seat, 1, "trade", ev)
    elif isinstance(purpose, Procurement):
        _procure(state, seat, purpose.space - 1, given, ev)
    elif isinstance(purpose, SeatPurchase):
        _take_tile(state, seat, flow.mat_space(state, purpose.space), given, ev)
    elif isinstance(purpose, BidPayment):
        assert pending.to is not None
        ev.append(Event(f"{name} pays {sup.words(given)} to {_name(state, pending.to)}.", seat))
        state.pending = StartChoice(purpose.chooser)
    else:
        raise TypeError(f"a payment for nothing known: {purpose!r}")


def _procure(state: KState, seat: int, space: int, given: list[str], ev: list[Event]) -> None:
    """The law card on a new-law space goes into the seat's hand; it takes no more turns this round."""
    card = state.law_spaces[space]
    assert card is not None
    state.law_spaces[space] = None
    state.hands[seat].append(card)
    state.procured[seat] = True
    name = _name(state, seat)
    ev.append(Event(f"{name} gives {sup.words(given)} and takes a law card; no more actions for them this "
                    "round.", seat))
    ev.append(Event(f"Your new law card: {laws.TITLES[card]} (play it {LAW_BY_KEY[laws.KEYS[card]].when}).", seat,
                    (seat,)))
    flow.after_action(state, ev)


def _take(state: KState, seat: int, pending: TakeCubes, colour: str, ev: list[Event]) -> None:
    """One resource cube chosen from the store."""
    sup.take(state, seat, colour)
    pending.left -= 1
    ev.append(Event(f"{_name(state, seat)} takes 1 {colour} from the store.", seat))
    if pending.left <= 0 or not any(state.store[c] for c in sup.RESOURCES):
        flow.finish_take(state, ev)


def _price_step(state: KState, seat: int, pending: PriceChange, action: Act, ev: list[Event]) -> None:
    """A price change chosen (`add COLOUR`, `drop COLOUR`), or the purchase at a raised price withdrawn."""
    if action.verb == "withdraw":
        state.pending = None
        ev.append(Event(f"{_name(state, seat)} withdraws from the purchase at the raised price: no action was used "
                        "and the Price Increase stays under the tile (ruling T-31).", seat))
        return
    if pending.choice == "add":
        pending.extra.append(action.args[0])
        pending.add -= 1
    else:
        pending.less.append(action.args[0])
        pending.drop -= 1
    _next_price_choice(state, pending, ev)


def _relocate(state: KState, pending: Relocation, square: str, ev: list[Event]) -> None:
    """The owner moves the fenced-off cottage or house to a new square (ruling T-10)."""
    seat, number = pending.seat, pending.number
    board.lay_cottage(state, seat, number, square)
    state.pending = None
    ev.append(Event(f"{_name(state, seat)} moves {board.home(state, seat, number)} from {pending.source} to {square}.",
                    seat))
    flow.after_action(state, ev)


def _work_order_step(state: KState, seat: int, pending: WorkOrderChoice, number: int, ev: list[Event]) -> None:
    """Work Order: the next number of this round's order; the fourth fixes the fifth (T-22)."""
    pending.chosen.append(number)
    if len(pending.chosen) < 4:
        ev.append(Event(f"{_name(state, seat)}'s work order so far: {', '.join(map(str, pending.chosen))}.", seat))
    if len(pending.chosen) == 4:
        pending.chosen += [n for n in range(1, 6) if n not in pending.chosen]
    if len(pending.chosen) == 5:
        state.fixed_order, state.pending = list(pending.chosen), None
        ev.append(Event(f"{_name(state, seat)} sets this round's work order: "
                        f"{', '.join(map(str, state.fixed_order))}.", seat))
        flow.reopen(state)


# --- windows and phase five ------------------------------------------------------------------------------------

def _answer_window(state: KState, seat: int, ev: list[Event]) -> None:
    """A seat plays nothing now; when everyone asked has answered, the window closes."""
    top = state.windows[-1]
    top.answered.append(seat)
    if len(top.answered) < len(top.seats):
        return
    _close_window(state, ev)


def _close_window(state: KState, ev: list[Event]) -> None:
    """The top window closes: a played law takes effect, or a declared purchase goes ahead; raises TypeError on a
    window of no known kind."""
    top = state.windows.pop()
    if isinstance(top, RepealWindow):
        _resolve(state, ev)
    elif isinstance(top, PurchaseWindow):
        _complete_purchase(state, top.buyer, top.space, ev)
    elif not isinstance(top, PhaseWindow):
        raise TypeError(f"not a law window: {top!r}")


def _bid(state: KState, seat: int, action: Act, ev: list[Event]) -> None:
    """A bid, a pass or B's match; after B, the winner pays and chooses the start player (Phase five); raises
    ValueError on another verb."""
    bidding = state.bidding
    assert bidding is not None
    name = _name(state, seat)
    if action.verb == "bid":
        amount = int(action.args[0])
        bidding.high = HighBid(seat, amount)
        bidding.bids.append(Bid(seat, amount))
        ev.append(Event(f"{name} bids {sup.cubes_word(amount)}.", seat))
    elif action.verb == "match":
        assert bidding.high is not None
        bidding.matched = True
        bidding.bids.append(Bid(seat, bidding.high.amount))
        ev.append(Event(f"{name} matches the bid of {bidding.high.amount}.", seat))
    elif action.verb == "pass":
        bidding.bids.append(Bid(seat, None))
        ev.append(Event(f"{name} passes.", seat))
    else:
        raise ValueError(f"'{action}' is no bid")
    bidding.idx += 1
    if bidding.idx <= len(bidding.order):
        return
    b, high = bidding.b, bidding.high
    if not high:
        ev.append(Event(f"Nobody bid: {_name(state, b)} chooses the next start player.", b))
        state.pending = StartChoice(b)
        return
    payer, payee = (b, high.seat) if bidding.matched else (high.seat, b)
    ev.append(Event(f"{_name(state, payer)} wins the bidding and pays {sup.cubes_word(high.amount)} to "
                    f"{_name(state, payee)}.", payer))
    _start_give(state, payer, high.amount, BidPayment(payer), to=payee)


def _choose_start(state: KState, seat: int, colour: str, ev: list[Event]) -> None:
    """The winner names the next start player; the next round begins."""
    state.pending = None
    state.start = board.COLOURS.index(colour)
    state.bidding = None
    ev.append(Event(f"{_name(state, seat)} names {_name(state, state.start)} start player.", seat))
    flow.begin_round(state, ev)


# --- law cards -----------------------------------------------------------------------------------------------

def play_law(state: KState, seat: int, key: str, args: tuple[str, ...], ev: list[Event]) -> None:
    """Play a law card: it is revealed; the others may repeal it before it takes effect (ruling T-13, T-15)."""
    number = laws.NUMBERS[key]
    state.hands[seat].remove(number)
    shown = f" ({' '.join(laws.shown_args(args))})" if args else ""
    ev.append(Event(f"{_name(state, seat)} plays the law card {laws.TITLES[number]}{shown}.", seat))
    if key == "repeal":
        _repeal(state, seat, number, ev)
        return
    state.played = [p for p in state.played if not p.acted]  # the card before is no longer "just played"
    state.played.append(Played(seat, number, list(args)))
    others = flow.holders(state, but=seat)
    if others:
        state.windows.append(RepealWindow(others, [], flow.window_key(state, RepealWindow.KIND), number))
        return
    _resolve(state, ev)


def _repeal(state: KState, seat: int, number: int, ev: list[Event]) -> None:
    """Repeal Law: a card still waiting in its repeal window never acts; one that acted is undone (ruling T-15)."""
    waiting = laws.repeal_window(state) is not None
    target = state.played.pop() if waiting else laws.in_force(state)
    assert target is not None
    state.discards += [target.card, number] if waiting else [number]
    title = laws.TITLES[target.card]
    if waiting:
        state.windows.pop()
        ev.append(Event(f"{title} is repealed and has no effect (ruling T-15).", seat))
    else:
        assert target.before is not None
        state.played.remove(target)
        ev.append(Event(f"{title} is repealed: what it did is undone (ruling T-15).", seat))
        ev += [Event(text, seat) for text in effects.undo(state, target.before)]
        if "turn" in target.before.table:
            ev.append(Event(f"It is {_name(state, state.turn)}'s turn again: the trade made with the card is undone, "
                            "so no action was taken (ruling T-34).", seat))
    _after_law(state, ev)


def _resolve(state: KState, ev: list[Event]) -> None:
    """The law on top of the played pile takes effect, and stays open to Repeal for a while (ruling T-15)."""
    entry = state.played.pop()
    seat, number = entry.seat, entry.card
    state.discards.append(number)
    before = effects.snapshot(state, seat)
    text = effects.EFFECTS[laws.KEYS[number]](state, seat, entry.args, ev)
    if text:
        state.effects.append(text)
    entry.before, entry.moment = before, None
    state.played.append(entry)
    if not state.pending:
        entry.moment, entry.before = laws.moment(state), effects.changed(state, before)
    _after_law(state, ev)


def _after_law(state: KState, ev: list[Event]) -> None:
    """The window under the law's moment asks its holders again, or closes when none is left (a purchase blocked
    by Design Change closes at once)."""
    if not state.windows:
        return
    top = state.windows[-1]
    if isinstance(top, PurchaseWindow) and top.blocked:
        state.windows.pop()
        return
    flow.reopen(state)
    if not top.seats:
        _close_window(state, ev)
