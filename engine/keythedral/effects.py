"""What each law card does once it takes effect (rules: Appendix; rulings T-13 to T-29).

Each effect changes the state in place, adds its events, and returns a line for the round's list of effects in
force (or None when it is done at once).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Event, Rng
from engine.keythedral import board, flow
from engine.keythedral import supply as sup
from engine.keythedral.pieces import Chosen, Doubled, Harvest, Nomination
from engine.keythedral.state import KState, field_data, field_value
from engine.keythedral.steps import PurchaseWindow, Snapshot, WorkOrderChoice
from engine.records import copy_data

Effect = Callable[[KState, int, list[str], list[Event]], str | None]


def _name(state: KState, seat: int) -> str:
    """A seat's name."""
    return state.names[seat]


def _work_order(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """The player sets the order of all five numbers this round (T-22)."""
    state.pending = WorkOrderChoice(seat, [])
    return f"Work Order: {_name(state, seat)} sets this round's order of numbers"


def _price_increase(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """The tile being bought costs one more cube of a type it shows."""
    window = state.windows[-1]
    assert isinstance(window, PurchaseWindow)
    space = flow.mat_space(state, window.space)
    space.inc += 1
    ev.append(Event(f"Space {space.space} now costs one cube more, of a type the tile shows.", seat))
    return None


def _price_decrease(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A tile costs one cube less (not gold) until it is bought."""
    space = flow.mat_space(state, args[0])
    space.dec += 1
    ev.append(Event(f"Space {space.space} now costs one cube less (not gold).", seat))
    return None


def _upgrade(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """One's own cottage becomes a house for free (T-18)."""
    board.make_house(state, seat, int(args[0]), True)
    ev.append(Event(f"{_name(state, seat)}'s cottage {args[0]} becomes a house at no cost.", seat))
    return None


def _substitution(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """This turn's purchase may swap resource types and one craft type (T-20)."""
    state.flags["substitution"] = True
    return f"Substitution: {_name(state, seat)} may pay other cube types for a seat this turn"


def _cottage_number(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A cottage whose number is still to come works now instead (T-28)."""
    number = int(args[0])
    state.sources.append(number)
    if len(state.sources) == 1:
        state.left = flow.workers_of(state, seat, number)
    current = flow.current_number(state)
    state.nominated.append(Nomination(seat, number, current or 0))
    return f"Cottage Number: {_name(state, seat)}'s cottage {number} counts as number {current} this round"


def _craft_bargain(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """One resource cube buys a used craft cube from the store."""
    resource, craft = args
    sup.pay(state, seat, [resource])
    state.store[craft] -= 1
    state.cubes[seat][craft] += 1
    ev.append(Event(f"{_name(state, seat)} gives 1 {resource} and takes a used {craft} cube from the store.", seat))
    return None


def _unexpected(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """The player picks the colours of one field type's harvest (T-23)."""
    _harvest_of(state).unexpected.append(Chosen(seat, args[0]))
    return f"Unexpected Harvest: {_name(state, seat)} chooses the cubes from their {args[0]} workers"


def _broken(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """One player's workers ignore fences this round (T-17)."""
    target = board.COLOURS.index(args[0])
    state.broken.append(target)
    return f"Broken Fences: {_name(state, target)}'s workers ignore fences this round"


def _unsafe(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A fence is taken out of the game."""
    square, field = args[0].upper(), args[1].upper()
    board.remove_fence(state, square, field)
    ev.append(Event(f"The fence between {square} and {field} is declared unsafe and removed for good.", seat))
    return None


def _moratorium(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """Nobody else builds a house this round (T-21)."""
    state.moratorium = seat
    return f"House Moratorium: only {_name(state, seat)} may build houses this round"


def _design_change(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A face-up tile is swapped for a random unused one of its stage; a purchase of it is blocked (T-16)."""
    space = flow.mat_space(state, args[0])
    pool = state.unused[str(space.stage)]
    rng = Rng(state.rng)
    new = pool.pop(rng.below(len(pool)))
    state.rng = rng.state
    pool.append(space.tile)
    space.tile, space.inc, space.dec = new, 0, 0
    ev.append(Event(f"The tile on {space.space} is replaced: it now costs {flow.cost_words(new)}.",
                    seat))
    below = [w for w in state.windows if isinstance(w, PurchaseWindow) and w.space == space.space]
    for window in below:
        window.blocked = True
        ev.append(Event(f"{_name(state, window.buyer)}'s purchase is blocked; it was no action and it is still "
                        "their turn.", window.buyer))
    return None


def _double(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """One's worker in one field takes twice the cubes (T-19)."""
    _harvest_of(state).double.append(Doubled(seat, args[0].upper()))
    return f"Double Production: {_name(state, seat)}'s worker at {args[0].upper()} produces double"


def _bargain(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """One resource cube for two of any type (T-27)."""
    sup.pay(state, seat, [args[0]])
    ev.append(Event(f"{_name(state, seat)} gives the trader 1 {args[0]} for two resource cubes.", seat))
    flow.open_take(state, seat, 2, "bargain", ev)
    return None


def _sale(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """The glassmaker or goldsmith asks two cubes fewer this turn (T-27)."""
    state.flags["sale"] = args[0]
    return f"Sale: the {'goldsmith' if args[0] == 'gold' else 'glassmaker'} asks {_name(state, seat)} two cubes fewer"


def _downgrade(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A house becomes a cottage again (T-18)."""
    found = board.read_cottage(state, args[0])
    assert found is not None
    owner, number = found
    board.make_house(state, owner, number, False)
    ev.append(Event(f"{_name(state, owner)}'s house {number} is a cottage again.", seat))
    return None


def _harvest(kind: str) -> Effect:
    """Good or Poor Harvest: every field of a type yields double, or nothing (T-19)."""

    def effect(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
        harvest = _harvest_of(state)
        if kind == "good":
            harvest.good = args[0]
        else:
            harvest.poor = args[0]
        return f"{kind.title()} Harvest: every {args[0]} yields {'double' if kind == 'good' else 'nothing'}"

    return effect


def _start_order(state: KState, seat: int, args: list[str], ev: list[Event]) -> str | None:
    """A new start player until the next bidding."""
    state.start = board.COLOURS.index(args[0])
    ev.append(Event(f"{_name(state, state.start)} is now the start player.", seat))
    return None


EFFECTS: dict[str, Effect] = {
    "work-order": _work_order, "price-increase": _price_increase, "price-decrease": _price_decrease,
    "upgrade-cottage": _upgrade, "substitution": _substitution, "cottage-number": _cottage_number,
    "craft-bargain": _craft_bargain, "unexpected-harvest": _unexpected, "broken-fences": _broken,
    "unsafe-fence": _unsafe, "house-moratorium": _moratorium, "design-change": _design_change,
    "double-production": _double, "bargain": _bargain, "sale": _sale, "downgrade-house": _downgrade,
    "good-harvest": _harvest("good"), "poor-harvest": _harvest("poor"), "start-order": _start_order,
}


# --- Repeal Law: undoing a card that has acted (ruling T-15) -----------------------------------------------------

UNDONE = ("store", "cottages", "fences", "flags", "harvest", "broken", "moratorium", "start", "fixed_order",
          "sources", "left", "nominated", "effects", "turn", "passes", "passed")
"""What a card's effect may change besides the seats on offer and its player's cubes: all of it in the open (never
the generator: a tile drawn blind stays drawn). The turn is among it: Bargain's trade is the turn's action (T-34),
so a repeal of it gives the turn back (T-15)."""


def snapshot(state: KState, seat: int) -> Snapshot:
    """What a card played by this seat may change, as it is before the card acts: the open table, the seats on
    offer (the untaken face-up spaces) and the player's own cubes; nothing hidden from the others."""
    table = {name: field_data(name, getattr(state, name)) for name in UNDONE}
    offer = [(i, copy_data(sp)) for i, sp in enumerate(state.mat) if sp.up and sp.taken is None]
    return Snapshot(table, offer, {str(seat): dict(state.cubes[seat])})


def changed(state: KState, before: Snapshot) -> Snapshot:
    """The part of a snapshot the card did change, which is all a repeal puts back; its player's cubes are kept as
    what the card moved (in the open), not as what they hold."""
    kept = {name: old for name, old in before.table.items() if old != field_data(name, getattr(state, name))}
    spaces = [(i, old) for i, old in before.mat or [] if old != state.mat[i]]
    moved = {seat: {c: k - held[c] for c, k in state.cubes[int(seat)].items() if k != held[c]}
             for seat, held in (before.cubes or {}).items() if held != state.cubes[int(seat)]}
    return Snapshot(kept, spaces or None, moved or None)


def undo(state: KState, before: Snapshot) -> list[str]:
    """Put back what a card changed (as `changed` kept it): a tile it drew goes back among the unused ones of its
    stage; returns lines saying what a player would look for."""
    said = []
    for i, old in before.mat or []:
        now = state.mat[i]
        if old.tile != now.tile:
            pool = state.unused[str(now.stage)]
            pool[pool.index(old.tile)] = now.tile
            said.append(f"Space {old.space} has its old tile back: it costs {flow.cost_words(old.tile)}.")
        state.mat[i] = copy_data(old)
    for seat, moved in (before.cubes or {}).items():
        held = state.cubes[int(seat)]
        for colour, k in moved.items():
            held[colour] = max(held[colour] - k, 0)  # exact at a table; a stand-in's redrawn screen may differ
    if "start" in before.table:
        said.append(f"{_name(state, before.table['start'])} is the start player again.")
    for name, old in before.table.items():
        setattr(state, name, field_value(name, old))
    return said


def _harvest_of(state: KState) -> Harvest:
    """This round's harvest laws; raises ValueError before the first round, when no harvest law can be played."""
    if state.harvest is None:
        raise ValueError("no round has begun: there is no harvest for a law to change")
    return state.harvest
