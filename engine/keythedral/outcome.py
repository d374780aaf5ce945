"""What a legal action would do (check): sentences in players' words.

outcome() says what a legal action gets, costs and changes, built only from what the acting seat may see (the board,
the mat's face-up tiles, its own cubes and law cards) and, when nothing hidden was drawn, from the state the move
leads to; where the move draws or reveals something hidden (a field tile, face-down tiles turned up, a law card, a
tile drawn blind), it says so and stops.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Event
from engine.keythedral import board, flow, laws, steps, view
from engine.keythedral import supply as sup
from engine.keythedral.actions import Act
from engine.keythedral.board import home
from engine.keythedral.components import COMPONENTS, CRAFTSMEN
from engine.keythedral.legal import SALE_OFF, craft_price
from engine.keythedral.pieces import Use
from engine.keythedral.state import KState


def outcome(before: KState, seat: int, action: Act, after: KState, events: list[Event]) -> tuple[str, ...]:
    """What the move gets, costs and changes, in the seat's knowledge, then what follows it; past a draw or a
    reveal only that something hidden comes (never what)."""
    said = describe(before, seat, action, after)
    hidden = hidden_note(before, after)
    if hidden:
        return (said or "You make this move.", hidden)
    shown = [e for e in events if e.visible_to(seat)]
    start = next((i for i, e in enumerate(shown) if e.seat != seat), len(shown))  # the move's own lines come first
    if said is None:  # a kind of action no describer knows yet: what the seat sees happen
        return tuple(e.text for e in shown) or ("Nothing anyone can see changes yet.",)
    return (said, *(e.text for e in shown[start:]))


def describe(before: KState, seat: int, action: Act, after: KState) -> str | None:
    """The sentence for this kind of action (None for one no describer knows)."""
    if before.pending and action.verb not in ("law", "laws", "back"):
        step = _PENDING_STEPS.get(type(before.pending))
        return step(before, seat, action, after) if step else None
    if before.windows and action.verb == "continue":
        return _continue(before, seat)
    if before.phase == "bidding" and action.verb == "pass":
        return _bid_pass(before, seat)
    found = _DESCRIBE.get(action.verb)
    return found(before, seat, action, after) if found else None


def hidden_note(before: KState, after: KState) -> str | None:
    """What hidden the move draws or reveals, without saying what it is (None: nothing)."""
    notes = []
    if len(after.field_stack) < len(before.field_stack):
        notes.append(f"{after.names[flow.setup_seat(after)]} draws the next field tile, shown to everyone")
    turned = [b.stage for b, a in zip(before.mat, after.mat, strict=True) if a.up and not b.up]
    if turned:
        stage = turned[0]
        notes.append("set-up is complete and the stage-1 tiles are turned face up" if stage == 1 else
                     f"stage {stage - 1} is complete and the stage-{stage} tiles are turned face up")
    pairs = list(zip(before.law_spaces, after.law_spaces, strict=True))
    if any(b is not None and a is None for b, a in pairs):
        notes.append("the face-down law card goes into your hand")
    if any(b is None and a is not None for b, a in pairs):
        notes.append("the workers come home and new law cards are laid face down on the empty new-law spaces")
    if before.rng != after.rng:
        notes.append("an unused tile of that stage is drawn blind to take its place")
    if view.opens_a_screen(before, after):
        notes.append("the game ends and every screen opens for the final score" if after.phase == "over" else
                     "the purchase goes on or fails by what the buyer holds behind their screen")
    return f"Then {'; then '.join(notes)}." if notes else None


def _fields_words(state: KState, square: str) -> str:
    """'the quarry at M13 and the woods at N13' for the placed fields a square reaches."""
    found = board.open_fields(state, square)
    return and_list([f"the {state.fields[f].terrain} at {f}" for f in found]) or "no field yet"


def and_list(words: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}" if words else ""


def _cubes_of(state: KState, square: str) -> str:
    """'black or brown' for the fields a square reaches."""
    colours = sorted({sup.TERRAIN_CUBE[state.fields[f].terrain] for f in board.open_fields(state, square)},
                     key=sup.CUBES.index)
    return " or ".join(colours) or "no"


def _who(state: KState, seat: int, other: int) -> str:
    """'you' or the other seat's name."""
    return "you" if other == seat else state.names[other]


# --- set-up and phase one ------------------------------------------------------------------------------------------


def _field(state: KState, seat: int, action: Act, after: KState) -> str:
    """`field LABEL`: the drawn field tile laid."""
    assert state.drawn is not None
    terrain = flow.field_terrain(state.drawn)
    return (f"You lay the drawn {terrain} field at {action.args[0].upper()}: a worker there brings 1 "
            f"{sup.TERRAIN_CUBE[terrain]} at each harvest. Next you lay one of your cottages.")


def _cottage(state: KState, seat: int, action: Act, after: KState) -> str:
    """`cottage N SQUARE`: a cottage laid in set-up."""
    number, square = int(action.args[0]), action.args[1].upper()
    into = "it" if len(board.open_fields(state, square)) == 1 else "one of them"
    return (f"You lay cottage {number} on {square}, touching {_fields_words(state, square)}: when number {number} "
            f"is played, its worker goes into {into} for 1 {_cubes_of(state, square)}.")


def _order(state: KState, seat: int, action: Act, after: KState) -> str:
    """`order N`: the next work-order number."""
    number = int(action.args[0])
    own = state.cottages[seat][number - 1]
    if not own.at:
        mine = f"you have no cottage {number} on the board"
    elif Use(seat, number) in state.used:
        mine = f"your {home(state, seat, number)} has already worked this round"
    elif not board.free_fields(state, seat, number):
        mine = f"your {home(state, seat, number)} on {own.at} has no free field open to it"
    else:
        sends = "two workers" if own.house else "one worker"
        mine = f"your {home(state, seat, number)} on {own.at} sends {sends}"
    return (f"You choose number {number}: cottages and houses numbered {number} send out their workers, you first "
            f"({mine}).")


def _worker(state: KState, seat: int, action: Act, after: KState) -> str:
    """`worker FIELD`: a worker sent into a field."""
    field = action.args[0].upper()
    number = state.sources[0]
    terrain = state.fields[field].terrain
    more = ""
    if state.left > 1:  # a house's second worker
        placing = after.sources[:1] == [number] and board.free_fields(after, seat, number)
        more = " Then you place its second worker." if placing else " Its second worker stays idle: no other free " \
            "field is open to it."
    return (f"Your worker from {home(state, seat, number)} goes into the {terrain} at {field}: at harvest it "
            f"brings 1 {sup.TERRAIN_CUBE[terrain]}.{more}")


def _idle(state: KState, seat: int, action: Act, after: KState) -> str:
    """`idle`: a cottage with no free field open to it."""
    return (f"Your {home(state, seat, state.sources[0])} sends no worker this round: no free field is open "
            "to it.")


def _laws(state: KState, seat: int, action: Act, after: KState) -> str:
    """`laws`: the hand opened to play a card."""
    held = len(state.hands[seat])
    cards = "law card" if held == 1 else f"{held} law cards"
    return f"You look at your {cards} to play one now; `back` puts {'it' if held == 1 else 'them'} away."


def _back(state: KState, seat: int, action: Act, after: KState) -> str:
    """`back`: the hand closed."""
    return "You put your law cards away without playing one and carry on."


# --- phase three -----------------------------------------------------------------------------------------------


def _buy(state: KState, seat: int, action: Act, after: KState) -> str:
    """`buy SPACE`: a seat of the Keythedral."""
    space = flow.mat_space(state, action.args[0])
    changes = [f"{space.inc} cube{'s' if space.inc > 1 else ''} more (Price Increase)" if space.inc else "",
               f"{space.dec} fewer (Price Decrease)" if space.dec else ""]
    change = "; " + and_list([c for c in changes if c]) if any(changes) else ""
    stage = space.stage
    head = (f"You buy the seat on {space.space}, worth {stage} point{'s' if stage > 1 else ''}, for "
            f"{flow.cost_words(space.tile)}{change}")
    if len(after.windows) > len(state.windows):
        return head + ": first the other law holders may answer it (Price Increase, or a card playable at any time)."
    if isinstance(after.pending, steps.PriceChange):
        return head + ": first you choose the cubes the price changes add or save."
    if isinstance(after.pending, steps.Payment):
        return head + ": under Substitution you then choose the cubes to pay, one at a time."
    return head + "."


def _house(state: KState, seat: int, action: Act, after: KState) -> str:
    """`house N`."""
    number = int(action.args[0])
    return (f"You pay 1 black and 1 brown: your cottage {number} on {state.cottages[seat][number - 1].at} "
            "becomes a house and sends two workers from now on.")


def _fence(state: KState, seat: int, action: Act, after: KState) -> str:
    """`fence SQUARE FIELD`."""
    square, field = action.args[0].upper(), action.args[1].upper()
    owner, number = board.occupant(state)[square]
    whose = "your" if owner == seat else f"{state.names[owner]}'s"
    text = (f"You pay 1 brown and fence {square} off from the {state.fields[field].terrain} at {field} (your fence "
            f"{state.fences_built[seat] + 1} of {COMPONENTS.fences}): {whose} {home(state, owner, number)} can no "
            "longer send a "
            "worker there.")
    if owner == seat and isinstance(after.pending, steps.Relocation):
        text += " It is then cut off from every field, and you must move it."
    return text


def _unfence(state: KState, seat: int, action: Act, after: KState) -> str:
    """`unfence SQUARE FIELD`."""
    square, field = action.args[0].upper(), action.args[1].upper()
    return (f"You pay 2 red: the fence between {square} and {field} comes down for good, and workers from {square} "
            f"may go into {field} again.")


def _craft(state: KState, seat: int, action: Act, after: KState) -> str:
    """`smith`, `glass`, `gold`: a craft cube bought."""
    craftsman = CRAFTSMEN[action.verb]
    colour, printed = craftsman.colour, craftsman.price
    price = craft_price(state, action.verb)
    sale = f" ({printed - price} fewer under Sale)" if price < printed else ""
    refill = (f"; he has none left, so one used {colour} cube goes back to him from the store first, the others "
              "staying there" if state.craftsmen[colour] == 0 else "")
    return (f"You pay {sup.cubes_word(price)} of your choice, one at a time{sale}, for 1 {colour} cube from the "
            f"{craftsman.name}{refill}.")


def _trade(state: KState, seat: int, action: Act, after: KState) -> str:
    """`trade`."""
    return ("You give the trader 2 cubes of your choice, one at a time, then take 1 resource cube of any colour from "
            "the store.")


def _procure(state: KState, seat: int, action: Act, after: KState) -> str:
    """`procure N`."""
    return (f"You pay 1 cube of your choice for the face-down law card on new-law space {action.args[0]}: it goes "
            "into your hand, and you take no more actions this round.")


def _pass(state: KState, seat: int, action: Act, after: KState) -> str:
    """`pass` in phase three."""
    active = sum(not p for p in state.procured)
    if state.passes + 1 >= active:
        return "You pass, and everyone still taking actions has now passed in a row: phase 3 ends."
    return (f"You pass ({state.passes + 1} of {active} in a row): phase 3 ends when everyone still taking actions "
            "passes in a row, and you may act again on a later turn.")


# --- steps of an action under way ---------------------------------------------------------------------------------


def _give(state: KState, seat: int, action: Act, after: KState) -> str:
    """`give COLOUR`: one cube of a payment."""
    p = state.pending
    assert isinstance(p, steps.Payment)
    to = "to the store" if p.to is None else f"to {state.names[p.to]}"
    left = len(p.candidates[0]) - 1
    if left > 0:
        return f"You give 1 {action.args[0]} {to}; {sup.cubes_word(left)} still to give."
    return f"You give 1 {action.args[0]} {to}, completing the payment: {_paid_for(state, p)}."


def _paid_for(state: KState, p: steps.Payment) -> str:
    """What a completed payment brings, in a clause; raises TypeError on a purpose it does not know."""
    purpose = p.purpose
    if isinstance(purpose, steps.CraftPurchase):
        return f"you take 1 {CRAFTSMEN[purpose.verb].colour} cube"
    if isinstance(purpose, steps.TraderTrade):
        return "you take 1 resource cube of your choice from the store"
    if isinstance(purpose, steps.Procurement):
        return "the law card is yours, and you take no more actions this round"
    if isinstance(purpose, steps.SeatPurchase):
        space = flow.mat_space(state, purpose.space)
        return f"you take the seat on {space.space}, worth {space.stage}"
    if isinstance(purpose, steps.BidPayment):
        return "you name the next start player"
    raise TypeError(f"a payment for nothing known: {purpose!r}")


def _take(state: KState, seat: int, action: Act, after: KState) -> str:
    """`take COLOUR`: a resource cube from the store."""
    p = state.pending
    assert isinstance(p, steps.TakeCubes)
    left = p.left - 1
    more = f"; {left} more to take" if left > 0 and after.pending else ""
    if not more and p.purpose == "bargain":
        more = ": your Bargain trade is done, and with it your turn (T-34)"
    return f"You take 1 {action.args[0]} from the store{more}."


def _price(state: KState, seat: int, action: Act, after: KState) -> str:
    """`add COLOUR` / `drop COLOUR` / `withdraw`: a price change of a purchase chosen."""
    p = state.pending
    assert isinstance(p, steps.PriceChange)
    if action.verb == "withdraw":
        return ("You withdraw from the purchase at the raised price: it was no action, your turn goes on, and the "
                "Price Increase stays under the tile.")
    colour = action.args[0]
    cost = list(flow.tile_cost(flow.mat_space(state, p.space).tile)) + p.extra
    for c in [*p.less, *([colour] if action.verb == "drop" else [])]:
        cost.remove(c)
    cost += [colour] if action.verb == "add" else []
    change = f"1 more {colour} (Price Increase)" if action.verb == "add" else f"1 {colour} fewer (Price Decrease)"
    rest = "" if isinstance(after.pending, steps.PriceChange) else f"; you pay {sup.words(cost)}"
    return f"The seat on {p.space} costs {change}{rest}."


def _relocate(state: KState, seat: int, action: Act, after: KState) -> str:
    """`relocate N SQUARE`: a fenced-off cottage moved."""
    p = state.pending
    assert isinstance(p, steps.Relocation)
    number, square = int(action.args[0]), action.args[1].upper()
    return (f"You move your {home(state, seat, number)} from {p.source} to {square}, touching "
            f"{_fields_words(state, square)}.")


def _work_order(state: KState, seat: int, action: Act, after: KState) -> str:
    """`order N` under Work Order."""
    p = state.pending
    assert isinstance(p, steps.WorkOrderChoice)
    chosen = [*p.chosen, int(action.args[0])]
    if len(chosen) < 4:
        return f"Number {action.args[0]} comes {_ordinal(len(chosen))} in this round's work order."
    last = [n for n in range(1, 6) if n not in chosen]
    return (f"Number {action.args[0]} comes fourth and {last[0]} last: this round's work order is "
            f"{', '.join(map(str, chosen + last))}.")


def _ordinal(k: int) -> str:
    """'first' .. 'fifth'."""
    return ("first", "second", "third", "fourth", "fifth")[k - 1]


def _start(state: KState, seat: int, action: Act, after: KState) -> str:
    """`start COLOUR`: the next start player named."""
    named = board.COLOURS.index(action.args[0])
    who = "yourself" if named == seat else state.names[named]
    return f"You name {who} start player for round {state.round + 1}."


# --- windows, bids, law cards ----------------------------------------------------------------------------------


def _continue(state: KState, seat: int) -> str:
    """`continue`: no law card played in a window."""
    top = state.windows[-1]
    last = len(top.answered) + 1 >= len(top.seats)
    if isinstance(top, steps.PurchaseWindow):
        return (f"You let {state.names[top.buyer]}'s purchase of {top.space} go ahead without a law card"
                + ("." if last else "; others may still answer."))
    if isinstance(top, steps.RepealWindow):
        return f"You let {laws.TITLES[top.law]} stand" + ("; it takes effect." if last else
                                                          "; others may still repeal it.")
    if isinstance(top, steps.PhaseWindow):
        return (f"You play no law card at the start of phase {top.phase}"
                + (f"; phase {top.phase} goes on." if last else "; others are still asked."))
    raise TypeError(f"not a law window: {top!r}")


def _bid(state: KState, seat: int, action: Act, after: KState) -> str:
    """`bid K` for the choice of the next start player."""
    assert state.bidding is not None
    k, b = int(action.args[0]), state.names[state.bidding.b]
    return (f"You bid {sup.cubes_word(k)} to name the next start player: if no one bids more, {b} either matches "
            f"last (then {b} pays you {k} and chooses) or you pay {b} {k} and choose.")


def _match(state: KState, seat: int, action: Act, after: KState) -> str:
    """`match`: B takes the highest bid."""
    assert state.bidding is not None
    assert state.bidding.high is not None
    high, k = state.bidding.high.seat, state.bidding.high.amount
    return f"You match {state.names[high]}'s bid: you pay {state.names[high]} {sup.cubes_word(k)} and name the " \
           "next start player."


def _bid_pass(state: KState, seat: int) -> str:
    """`pass` in the bidding."""
    assert state.bidding is not None
    if not state.bidding.b_to_answer():
        return "You pass: you make no bid for the start player this round."
    if state.bidding.high:
        high, k = state.bidding.high.seat, state.bidding.high.amount
        return (f"You pass: {state.names[high]}'s bid stands, so {state.names[high]} pays you "
                f"{sup.cubes_word(k)} and names the next start player.")
    return "You pass: nobody bid, so you name the next start player."


def _law(state: KState, seat: int, action: Act, after: KState) -> str:
    """`law KEY ARGS`: a law card played."""
    key, args = action.args[0], laws.shown_args(action.args[1:])
    title = laws.TITLES[laws.NUMBERS[key]]
    shown = f" ({' '.join(args)})" if args else ""
    text = f"You play {title}{shown}: {_law_effect(state, seat, key, args)}"
    opened = len(after.windows) > len(state.windows) and isinstance(after.windows[-1], steps.RepealWindow)
    return text + (". First the other law holders may repeal it." if opened else ".")


def _law_effect(state: KState, seat: int, key: str, args: list[str]) -> str:
    """What a law card does with these arguments, in a clause."""
    arg = args[0] if args else ""
    named = {c: _who(state, seat, board.COLOURS.index(c)) for c in board.COLOURS[:state.n]}
    if key == "price-increase":
        top = state.windows[-1]
        assert isinstance(top, steps.PurchaseWindow)
        return (f"the seat on {top.space} costs one more cube, of a colour printed on it that "
                f"{state.names[top.buyer]} picks")
    if key == "cottage-number":
        return (f"your {home(state, seat, int(arg))} also works now, under number {flow.current_number(state)}, and "
                "sends nobody when its own number comes")
    if key == "repeal":  # the card waiting in the repeal window, or the one in force while it may be repealed
        return f"{laws.TITLES[state.played[-1].card]} has no effect" if state.played else \
            "the law card just played has no effect"
    if key == "sale":
        verb = arg.lower()
        craftsman = CRAFTSMEN[verb]
        return (f"the {craftsman.name} asks you {sup.cubes_word(craftsman.price - SALE_OFF)} instead of "
                f"{craftsman.price} this turn")
    if key == "downgrade-house":
        found = board.read_cottage(state, arg.lower())
        assert found is not None
        whose = "your" if found[0] == seat else f"{state.names[found[0]]}'s"
        return f"{whose} house {found[1]} is a cottage again and sends one worker"
    if key == "design-change":
        stage = arg.split(".")[0]
        blocked = any(isinstance(w, steps.PurchaseWindow) and w.space == arg for w in state.windows)
        return (f"the tile on {arg} is swapped for an unused stage-{stage} tile drawn blind"
                + ("; the purchase of it is blocked" if blocked else ""))
    words = _LAW_WORDS[key]
    return words.format(arg=arg, second=args[1] if len(args) > 1 else "", who=named.get(arg.lower(), arg))


_LAW_WORDS = {
    "work-order": "you set the order of all five numbers for this round",
    "price-decrease": "the seat on {arg} costs one cube less (a printed colour, never gold) until it is bought",
    "upgrade-cottage": "your cottage {arg} becomes a house for nothing and sends two workers",
    "substitution": ("this turn, other resource colours may pay for a seat's resource cubes, and one craft cube for "
                     "another kind"),
    "craft-bargain": "you give 1 {arg} and take a used {second} cube from the store",
    "unexpected-harvest": "this harvest your workers on {arg} fields bring cubes of any resource colours you pick",
    "broken-fences": "the workers of {who} ignore fences this round",
    "unsafe-fence": "the fence between {arg} and {second} is removed for good",
    "house-moratorium": "nobody but you builds a house this round",
    "double-production": "your worker at {arg} brings twice its cubes this harvest",
    "bargain": ("as your turn's trade, you give the trader 1 {arg} and take two resource cubes of your choice from the "
                "store; then your turn ends"),
    "good-harvest": "every {arg} field yields double this harvest, for everyone",
    "poor-harvest": "every {arg} field yields nothing this harvest, for everyone",
    "start-order": "{who} becomes the start player until phase five",
}

_Describe = Callable[[KState, int, Act, KState], str]
_DESCRIBE: dict[str, _Describe] = {
    "field": _field, "cottage": _cottage, "order": _order, "worker": _worker, "idle": _idle, "laws": _laws,
    "back": _back, "law": _law, "buy": _buy, "house": _house, "fence": _fence, "unfence": _unfence,
    "smith": _craft, "glass": _craft, "gold": _craft, "trade": _trade, "procure": _procure, "pass": _pass,
    "bid": _bid, "match": _match,
}
_PENDING_STEPS: dict[type, _Describe] = {
    steps.Payment: _give, steps.TakeCubes: _take, steps.PriceChange: _price, steps.Relocation: _relocate,
    steps.WorkOrderChoice: _work_order, steps.StartChoice: _start,
}
