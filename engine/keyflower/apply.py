"""Carrying out a legal action: what changes, and the events that say so."""

from __future__ import annotations

from engine.core import Event, Rng
from engine.keyflower import places as pl
from engine.keyflower import season
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act
from engine.keyflower.flow import tile
from engine.keyflower.state import Json, KfState
from engine.keyflower.turns import face_of, output_place, owner_of


def apply(state: KfState, seat: int, action: Act) -> list[Event]:
    """Apply a legal action in place and say what happened; the caller has checked legality."""
    ev: list[Event] = []
    state.seq += 1
    verb, args = action.verb, action.args
    if state.pending:
        _pending_step(state, seat, action, ev)
    elif state.phase == "winter-choice":
        season.choose_winter(state, seat, action, ev)
    elif state.phase in ("boats", "place"):
        season.end_step(state, seat, action, ev)
    elif verb == "pass":
        state.passes += 1
        ev.append(Event(f"{state.names[seat]} passes.", seat))
        _next_turn(state)
    elif verb in ("bid", "use"):
        state.pending = {"kind": "count", "seat": seat, "what": verb, "loc": args[0], "colour": args[1]}
    else:  # move SOURCE bid|use TARGET
        bid = pl.bid_of(state, args[0], seat)
        assert bid is not None
        state.pending = {"kind": "count", "seat": seat, "what": args[1], "loc": args[2], "colour": bid[0],
                         "from": args[0], "carried": bid[1]}
    season.advance(state, ev)
    return ev


def _next_turn(state: KfState) -> None:
    """Play passes clockwise; the season ends when every player has passed in succession (reference §3.2)."""
    state.turn = (state.turn + 1) % state.n


def _acted(state: KfState) -> None:
    """A turn that did something: the count of passes starts again."""
    state.passes = 0
    _next_turn(state)


def _pending_step(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """One step of an action under way."""
    pending = state.pending
    assert pending is not None
    kind = pending["kind"]
    if kind == "count":
        state.pending = None
        _place_workers(state, pending, int(action.args[0]), ev)
    elif kind == "pay":
        _pay_step(state, pending, action.args[0], ev)
    elif kind == "take":
        state.supply[action.args[0]] -= 1
        sup.add(_resources_at(state, seat, pending["to"]), {action.args[0]: 1})
        pending["left"] -= 1
        ev.append(Event(f"{state.names[seat]} takes 1 {action.args[0]}.", seat))
        if pending["left"] <= 0 or not _any_choice(state):
            state.pending = None
            _acted(state)
    else:
        tr.step(state, seat, action, ev)
        if state.pending is None:
            _acted(state)


def _place_workers(state: KfState, pending: Json, count: int, ev: list[Event]) -> None:
    """Put the counted workers (and a moved group) on their location as a bid or a use."""
    seat, loc, colour = pending["seat"], pending["loc"], pending["colour"]
    name = state.names[seat]
    sup.take(state.workers[seat], {colour: count} if count else {})
    total = count
    if "from" in pending:
        source = pl.entry(state, pending["from"])
        total += source["bids"].pop(str(seat))[1]
        ev.append(Event(f"{name} moves an outbid group of {pending['carried']} {colour} from {pending['from']}.",
                        seat))
    laid_flat = pl.colour_of(state, loc) not in (None, colour)  # summer boat 4a or 4b breaking the colour
    place = pl.entry(state, loc)
    if pending["what"] == "bid":
        mine = place["bids"].get(str(seat), [colour, 0, laid_flat])
        place["bids"][str(seat)] = [colour, mine[1] + total, pl.flat(mine, 2)]
        ev.append(Event(f"{name} bids {mine[1] + total} {colour} on {loc}.", seat))
        _acted(state)
        return
    place["uses"].append([seat, colour, total, laid_flat])
    ev.append(Event(f"{name} uses {loc} with {total} {colour}.", seat))
    face = face_of(state, loc)
    assert face is not None
    needs = [(k, n) for k, n in face.pay.items() if k in ("any", "skill")]
    fixed = {k: n for k, n in face.pay.items() if k not in ("any", "skill")}
    _pay_fixed(state, seat, fixed, ev)
    if needs:
        key, n = needs[0]
        state.pending = {"kind": "pay", "seat": seat, "loc": loc, "pay": key, "left": n, "paid": {}}
        return
    _produce(state, seat, loc, {}, ev)


def _pay_fixed(state: KfState, seat: int, fixed: dict[str, int], ev: list[Event]) -> None:
    """A use's extra payment that needs no choice: named worker colours into the bag, named skills to the pile."""
    for key, n in fixed.items():
        if key in sup.WORKER_COLOURS:
            sup.take(state.workers[seat], {key: n})
            sup.add(state.bag, {key: n})
        else:
            sup.take(state.skills[seat], {key: n})
            sup.add(state.skill_pile, {key: n})
    if fixed:
        ev.append(Event(f"{state.names[seat]} pays {sup.words(fixed)}.", seat))


def _pay_step(state: KfState, pending: Json, what: str, ev: list[Event]) -> None:
    """The payer chooses which worker or skill to give; it is returned only after the use's draw."""
    seat = pending["seat"]
    pool = state.workers[seat] if pending["pay"] == "any" else state.skills[seat]
    sup.take(pool, {what: 1})
    sup.add(pending["paid"], {what: 1})
    pending["left"] -= 1
    if pending["left"] <= 0:
        state.pending = None
        ev.append(Event(f"{state.names[seat]} hands in {sup.words(pending['paid'])}.", seat))
        _produce(state, seat, pending["loc"], pending["paid"], ev)


def _produce(state: KfState, seat: int, loc: str, handed_in: dict[str, int], ev: list[Event]) -> None:
    """The use's output: resources where they belong, workers and skills behind the screen; transport opens its
    steps; a choice of resources asks which (reference §5, §9)."""
    face = face_of(state, loc)
    assert face is not None
    if face.kind == "transport":
        tr.begin(state, seat, face, ev)
        _return(state, handed_in)
        return
    rng = Rng(state.rng)
    to = output_place(state, seat, loc)
    got: dict[str, int] = {}
    for key, n in face.gain.items():
        if key in sup.RESOURCES:
            k = min(n, state.supply.get(key, 0))
            state.supply[key] = state.supply.get(key, 0) - k
            sup.add(_resources_at(state, seat, to), {key: k})
            sup.add(got, {key: k})
        elif key == "worker":
            drawn = sup.draw(state.bag, rng, n)
            sup.add(state.workers[seat], drawn)
            sup.add(got, {"worker": sum(drawn.values())})
        elif key == "green":
            k = min(n, state.greens)
            state.greens -= k
            sup.add(state.workers[seat], {"green": k})
            sup.add(got, {"green": k})
        elif key == "skill":
            drawn = sup.draw(state.skill_pile, rng, n)
            sup.add(state.skills[seat], drawn)
            sup.add(got, {"skill": sum(drawn.values())})
    state.rng = rng.state
    _return(state, handed_in)
    where = "on its tile" if to != "0/0" or (owner_of(state, loc) or (None, ""))[1] == "0/0" else "on the home tile"
    ev.append(Event(f"{state.names[seat]} gains {sup.words(got)} ({where}).", seat))
    choice = face.gain.get("choice", 0)
    if choice and _any_choice(state):
        state.pending = {"kind": "take", "seat": seat, "left": choice, "to": to}
        return
    _acted(state)


def _return(state: KfState, handed_in: dict[str, int]) -> None:
    """Workers and skills handed in go back to the bag and the pile after the draw (Tavern, Hiring fair)."""
    for key, n in handed_in.items():
        sup.add(state.bag if key in sup.WORKER_COLOURS else state.skill_pile, {key: n})


def _any_choice(state: KfState) -> bool:
    """Whether the supply still holds wood, stone or iron for a choice."""
    return any(state.supply.get(k, 0) for k in ("wood", "stone", "iron"))


def _resources_at(state: KfState, seat: int, pos: str) -> dict[str, int]:
    """The resources lying on one of a seat's village tiles."""
    res: dict[str, int] = state.villages[seat][pos]["res"]
    return res


__all__ = ["apply", "tile"]
