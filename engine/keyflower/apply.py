"""Carrying out a legal action: what changes, and the events that say so."""

from __future__ import annotations

from typing import assert_never

from engine.core import Event, Rng
from engine.keyflower import celeste, keymelequin, season
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower.actions import Act, act
from engine.keyflower.state import (
    CountStep,
    GroupStep,
    KfState,
    MixStep,
    Moved,
    PayStep,
    ReplaceStep,
    TakeStep,
    TransportStep,
)
from engine.keyflower.turns import face_of, mix_group, output_place, sources


def apply(state: KfState, seat: int, action: Act) -> list[Event]:
    """Apply a legal action in place and say what happened; the caller has checked legality. Raises ValueError
    for a verb no step of the game takes."""
    ev: list[Event] = []
    state.seq += 1
    if state.pending:
        _pending_step(state, seat, action, ev)
    elif state.phase == "winter-choice":
        season.choose_winter(state, seat, action, ev)
    elif state.phase in ("boats", "place"):
        season.end_step(state, seat, action, ev)
    else:
        _turn(state, seat, action, ev)
    season.advance(state, ev)
    return ev


def _turn(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """A turn: pass, play the ghost, or start a bid, a use or the move of an outbid group (reference §3.2)."""
    verb, args = action.verb, action.args
    if verb == "pass":
        state.passes += 1
        ev.append(Event(f"{state.names[seat]} passes.", seat))
        _next_turn(state)
    elif verb == "ghost":
        celeste.play_ghost(state, seat, args[0], ev)
        _acted(state)
    elif verb in ("bid", "use") and (args[1] == "mixed" or args[1] in kp.WILD):
        mix = state.pending = MixStep(seat, verb, args[0])
        if args[1] in kp.WILD:  # Sven or Paulo goes first; his pair's colours follow one at a time
            _mix_step(state, mix, act("add", args[1]), ev)
    elif verb in ("bid", "use"):
        state.pending = CountStep(seat, verb, args[0], args[1])
    elif verb == "move":  # move SOURCE bid|use TARGET
        bid = pl.peek(state, args[0]).bids[seat]
        moved = Moved(args[0], bid.count)
        if kp.wilds_in(bid.keyples()):  # a group with Sven or Paulo is topped up one worker at a time
            state.pending = MixStep(seat, args[1], args[2], moved=moved)
        else:
            state.pending = CountStep(seat, args[1], args[2], bid.label, moved)
    else:
        raise ValueError(f"'{action}' is no turn of Keyflower")


def _next_turn(state: KfState) -> None:
    """Play passes clockwise; the season ends when every player has passed in succession (reference §3.2)."""
    state.turn = (state.turn + 1) % state.n


def _acted(state: KfState) -> None:
    """A turn that did something: the count of passes starts again."""
    state.passes = 0
    _next_turn(state)


def _pending_step(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """One step of an action under way, by its kind; raises AssertionError for an unknown kind."""
    pending = state.pending
    assert pending is not None
    if isinstance(pending, CountStep | MixStep) and action.verb == "join":
        _join(state, seat, pending, action.args[0])
        return
    match pending:
        case CountStep():
            state.pending = None
            _place_workers(state, pending, int(action.args[0]), ev)
        case MixStep():
            _mix_step(state, pending, action, ev)
        case PayStep():
            _pay_step(state, pending, action.args[0], ev)
        case TakeStep():
            _take_step(state, pending, action.args[0], ev)
        case ReplaceStep():
            keymelequin.replace(state, seat, action.args[0], ev)
            season.after_pick(state, ev)
        case TransportStep():
            tr.step(state, pending, action, ev)
            if state.pending is None:
                _acted(state)
        case _:
            assert_never(pending)


def _join(state: KfState, seat: int, pending: GroupStep, source: str) -> None:
    """Another outbid group joins the moved one (reference §4)."""
    bid = pl.bid_of(state, source, seat)
    assert bid is not None and pending.moved is not None
    pending.moved.joined.append(source)
    pending.moved.carried += bid[1]


def _take_step(state: KfState, pending: TakeStep, kind: str, ev: list[Event]) -> None:
    """A resource of one's choice from the supply; the use ends when none is left to take."""
    seat = pending.seat
    state.supply[kind] -= 1
    sup.add(_resources_at(state, seat, pending.to), {kind: 1})
    pending.left -= 1
    ev.append(Event(f"{state.names[seat]} takes 1 {kind}.", seat))
    if pending.left <= 0 or not _any_choice(state):
        state.pending = None
        _acted(state)


def _place_workers(state: KfState, pending: CountStep, count: int, ev: list[Event]) -> None:
    """Put the counted workers (and a moved group) on their location as a bid or a use."""
    colour = pending.colour
    sup.take(state.workers[pending.seat], {colour: count} if count else {})
    _place_group(state, pending, {colour: count} if count else {}, ev)


def _place_group(state: KfState, pending: GroupStep, group: dict[str, int], ev: list[Event]) -> None:
    """Put a group already off the screen, with any outbid groups carried along, on its location; a group that
    breaks the tile's colour lies flat (summer boats 4a, 4b)."""
    seat, loc = pending.seat, pending.loc
    name = state.names[seat]
    moved = sources(pending)
    carried = kp.merged(*(pl.entry(state, src).bids.pop(seat).keyples() for src in moved))
    for src in moved:
        pl.recheck_wild(pl.entry(state, src))
    whole = kp.merged(group, carried)
    if moved:
        ev.append(Event(f"{name} moves outbid workers ({kp.words(carried)}) from {' and '.join(moved)}.", seat))
    lying = not pl.group_fits(state, seat, loc, whole, pending.what)
    place = pl.entry(state, loc)
    if kp.wilds_in(whole):
        place.wild = True  # Sven or Paulo stands here: the general colour rules apply
    if pending.what == "bid":
        mine = pl.own_bid(state, loc, seat, "bid")
        before, flat = (mine.keyples(), mine.flat) if mine is not None else ({}, lying)
        bid = place.bids[seat] = pl.bid_entry(kp.merged(before, whole), flat)
        shown = f"{bid.count} {bid.label}" if bid.group is None else \
            f"{bid.count} ({kp.words(bid.group)}, as {bid.label})"
        ev.append(Event(f"{name} bids {shown} on {loc}.", seat))
        _acted(state)
        return
    place.uses.append(pl.use_entry(seat, whole, lying))
    plain = len(whole) == 1 and next(iter(whole)) in kp.COLOURS
    shown = f"{kp.size(whole)} {next(iter(whole))}" if plain else kp.words(whole)
    note = " (mixed colours, summer boat 4b)" if lying and not plain else ""
    ev.append(Event(f"{name} uses {loc} with {shown}{note}.", seat))
    _pay_and_produce(state, seat, loc, ev)


def _pay_and_produce(state: KfState, seat: int, loc: str, ev: list[Event]) -> None:
    """A use's extra payment (asking which, when it may be any worker or skill), then its output."""
    face = face_of(state, loc)
    assert face is not None
    screen = state.workers[seat]
    chosen = [k for k in face.pay if k in ("any", "skill") or (k in kp.COLOURS and screen.get(kp.PAIR_OF[k]))]
    needs = [(k, face.pay[k]) for k in chosen]  # which worker or skill is the payer's choice (F-31)
    fixed = {k: n for k, n in face.pay.items() if k not in chosen}
    _pay_fixed(state, seat, fixed, ev)
    if needs:
        key, n = needs[0]
        state.pending = PayStep(seat, loc, key, n)
        return
    _produce(state, seat, loc, {}, ev)


def _mix_step(state: KfState, pending: MixStep, action: Act, ev: list[Event]) -> None:
    """A group built a colour at a time (`add KIND [N]`); `done` places it."""
    if action.verb == "add":
        more = {action.args[0]: int(action.args[1]) if len(action.args) > 1 else 1}
        sup.take(state.workers[pending.seat], more)
        sup.add(pending.added, more)
        full = pending.what == "use" and pl.used(state, pending.loc) + kp.size(
            mix_group(state, pending)) >= pl.MAX_WORKERS
        if not full:  # a use that fills the tile's six is placed at once; otherwise the player says `done`, as
            return  # placing at once when the screen runs dry would tell the table what is behind it
    state.pending = None
    _place_group(state, pending, dict(pending.added), ev)


def _pay_fixed(state: KfState, seat: int, fixed: dict[str, int], ev: list[Event]) -> None:
    """A use's extra payment that needs no choice: named worker colours into the bag, named skills to the pile."""
    for key, n in fixed.items():
        if key in kp.COLOURS:
            sup.take(state.workers[seat], {key: n})
            sup.add(state.bag, {key: n})
        else:
            sup.take(state.skills[seat], {key: n})
            sup.add(state.skill_pile, {key: n})
    if fixed:
        ev.append(Event(f"{state.names[seat]} pays {sup.words(fixed)}.", seat))


def _pay_step(state: KfState, pending: PayStep, what: str, ev: list[Event]) -> None:
    """The payer chooses which worker or skill to give; it is returned only after the use's draw."""
    seat = pending.seat
    pool = state.skills[seat] if pending.pay == "skill" else state.workers[seat]
    sup.take(pool, {what: 1})
    sup.add(pending.paid, {what: 1})
    pending.left -= 1
    if pending.left <= 0:
        state.pending = None
        paid = pending.paid
        if pending.pay != "skill":  # a worker goes into the bag in plain view
            ev.append(Event(f"{state.names[seat]} hands in {kp.words(paid)}.", seat))
        else:  # a skill goes face down onto the pile: its kind stays hidden (F-7)
            ev.append(Event(f"You hand in {sup.words(paid)}.", seat, (seat,)))
            ev.append(Event(f"{state.names[seat]} hands in {sup.count_words(sum(paid.values()), 'skill')}.", seat))
        _produce(state, seat, pending.loc, pending.paid, ev)


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
    resources: dict[str, int] = {}
    hidden: dict[str, int] = {}
    drawn_workers = drawn_skills = 0
    for key, n in face.gain.items():
        if key in sup.RESOURCES:
            k = min(n, state.supply.get(key, 0))
            state.supply[key] = state.supply.get(key, 0) - k
            sup.add(_resources_at(state, seat, to), {key: k})
            sup.add(resources, {key: k})
        elif key == "worker":
            drawn = sup.draw(state.bag, rng, n)
            sup.add(state.workers[seat], drawn)
            sup.add(hidden, drawn)
            drawn_workers += sum(drawn.values())
        elif key == "green":
            k = min(n, state.greens)
            state.greens -= k
            sup.add(state.workers[seat], {"green": k})
            sup.add(hidden, {"green": k})
            drawn_workers += k
        elif key == "skill":
            drawn = sup.draw(state.skill_pile, rng, n)
            sup.add(state.skills[seat], drawn)
            sup.add(hidden, drawn)
            drawn_skills += sum(drawn.values())
    state.rng = rng.state
    _return(state, handed_in)
    _say_gains(state, seat, to, resources, face.gain.get("green", 0), drawn_workers, drawn_skills, hidden, ev)
    choice = face.gain.get("choice", 0)
    if choice and _any_choice(state):
        state.pending = TakeStep(seat, choice, to)
        return
    _acted(state)


def _say_gains(state: KfState, seat: int, to: str, resources: dict[str, int], greens: int, workers: int,
               skills: int, hidden: dict[str, int], ev: list[Event]) -> None:
    """What a use gave: resources where they lie; workers and skills behind the screen, their colours and kinds
    told to the player alone (a green from the supply is seen by all)."""
    name, parts = state.names[seat], []
    if resources:
        where = state.villages[seat][to].tile
        parts.append(f"{sup.words(resources)} on {where}")
    if workers:
        parts.append(f"{sup.count_words(workers, 'worker')}" + (" (green)" if greens and workers == greens else ""))
    if skills:
        parts.append(sup.count_words(skills, "skill"))
    ev.append(Event(f"{name} gains {', '.join(parts) or 'nothing'}.", seat))
    if workers or skills:
        ev.append(Event(f"Behind your screen: {sup.words(hidden)}.", seat, (seat,)))


def _return(state: KfState, handed_in: dict[str, int]) -> None:
    """Workers and skills handed in go back to the bag and the pile after the draw (Tavern, Hiring fair)."""
    for key, n in handed_in.items():
        sup.add(state.bag if key in kp.KINDS else state.skill_pile, {key: n})


def _any_choice(state: KfState) -> bool:
    """Whether the supply still holds wood, stone or iron for a choice."""
    return any(state.supply.get(k, 0) for k in sup.CHOICE)



def _resources_at(state: KfState, seat: int, pos: str) -> dict[str, int]:
    """The resources lying on one of a seat's village tiles."""
    return state.villages[seat][pos].res


