"""Carrying out a legal Keyper action on a state, in place (callers check legality and copy first)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.core import Event
from engine.keyper import flow, works
from engine.keyper.actions import (
    Action,
    Build,
    ChooseDisplay,
    Decline,
    Done,
    Exchange,
    HoldFair,
    Join,
    LayDown,
    Pay,
    PlayKeyper,
    PlayKeyple,
    Release,
    Rest,
    Sell,
    Skip,
    Take,
    TakeTile,
    Upgrade,
    public_notation,
)
from engine.keyper.economy import pay_options, stands_for
from engine.keyper.fairs import holdable
from engine.keyper.flow import name
from engine.keyper.spaces import (
    SpaceRef,
    clockwise_from,
    comps,
    field_kind,
    keyples_on,
    matches,
    parse_space,
    put_keyple,
    season_name,
    space_colour,
    working_colour,
)
from engine.keyper.state import HeldFair, Keyple, Offer, Payment, Plot, State, Step
from engine.keyper.vocab import RAW, a, plural


def apply_in_place(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out an action already known to be legal; returns what happened."""
    events: list[Event] = []
    state.last_action = f"{name(state, seat)}: {public_notation(action)}"
    state.last_space = _space_of(state, seat, action) or state.last_space
    _HANDLERS[type(action)](state, seat, action, events)
    return events


def _space_of(state: State, seat: int, action: Action) -> str:
    """The space an action puts a keyper or keyple on, or lays one down on ('' for other actions): a field like
    '2.pig', or a plot with its owner like 'f8@0' (so an image outlines the right player's plot)."""
    if isinstance(action, PlayKeyper):
        return f"{action.board}.keyp"
    if isinstance(action, PlayKeyple | LayDown):
        return action.space if "." in action.space else f"{action.space}@{seat}"
    if isinstance(action, Join) and state.offer is not None:
        return f"{state.offer.board}.{state.offer.field}"
    return ""


def _space(text: str) -> SpaceRef:
    """The space a legal action names."""
    ref = parse_space(text)
    assert ref is not None
    return ref


def describe(state: State, seat: int, ref: SpaceRef) -> str:
    """Words for a space: 'the pig field on board 2' or 'the Brickmaker on plot v3'."""
    if ref.board is None:
        tile = comps().tiles[state.players[seat].plots[ref.name].tile]
        return f"the {tile.name} on plot {ref.name}"
    return f"the {ref.name.replace('_', ' ')} field on board {ref.board}"


def _play_keyper(state: State, seat: int, action: PlayKeyper, events: list[Event]) -> None:
    """Claim a board; lay down the keyp-tile keyples for their resources (rulebook p.4, 1)."""
    player = state.players[seat]
    state.boards[action.board - 1].keyper = seat
    player.keyper_home = False
    events.append(Event(f"{player.name} plays the keyper and claims board {action.board}.", seat))
    gains = comps().keyp_tile.gains
    for i, keyple in enumerate(player.keyp_tile):
        if not keyple.lying:
            player.keyp_tile[i] = keyple.laid_down()
            source = f"{a(keyple.colour)} keyple laid down on the keyp tile"
            state.steps.append(Step(seat, _grant(state), "keyp", list(gains[keyple.colour]), source))
    flow.start_yields(state, events)


def _grant(state: State) -> int:
    """A fresh id for one grant of yield units."""
    state.next_grant += 1
    return state.next_grant


def _unit(state: State, seat: int, ref: SpaceRef) -> tuple[str, list[str]]:
    """What one unit of a space's yield is: (step kind, the resources it may take)."""
    if ref.board is None:
        return "plot", [ref.name, state.players[seat].plots[ref.name].tile]
    kind = field_kind(state, ref.board, ref.name)
    assert kind is not None
    if kind.category == "resource" and kind.resource:
        return "resource", [kind.resource]
    if kind.category == "country_tile":
        return "tile", []
    if kind.category == "river":
        boat = state.boards[ref.board - 1].boat
        assert boat is not None
        return "boat", list(comps().boats[boat].side_for(season_name(state)).resources)
    if kind.category in ("convert", "trade"):
        return "exchange", [kind.name]
    if kind.category in ("build", "discount_build", "upgrade"):
        return kind.category, []
    return "other", []


def queue_yield(state: State, ref: SpaceRef, shares: list[tuple[int, int]], events: list[Event]) -> None:
    """Queue the units each (seat, count) earns on a space, alternating seats unit by unit (p.10, p.13)."""
    kind, options = _unit(state, shares[0][0], ref)
    source = describe(state, shares[0][0], ref)
    what = unit_word(kind, options)
    per_seat = []
    for seat, n in shares:
        if kind == "boat":
            n += _boat_bonuses(state, seat, events)
        grant = _grant(state)
        per_seat.append([Step(seat, grant, kind, list(options), source) for _ in range(n)])
        events.append(Event(f"{name(state, seat)} earns {plural(what, n)} from {source}.", seat))
    state.steps.extend(_interleave(per_seat, snake=kind == "tile"))


def built(state: State, seat: int, tile: str) -> bool | None:
    """None if the seat has no such tile in play (overbuilt tiles do not count), else whether it is upgraded."""
    for plot in state.players[seat].plots.values():
        if plot.tile == tile:
            return plot.upgraded
    return None


def _boat_bonuses(state: State, seat: int, events: list[Event]) -> int:
    """The seafarer's shipping points for using a boat, and the upgraded merchant's extra boat action (p.17-18)."""
    seafarer = built(state, seat, "seafarer")
    if seafarer is not None:
        points = 2 if seafarer else 1
        state.players[seat].shipping += points
        events.append(Event(f"{name(state, seat)}'s seafarer scores {points} shipping point(s).", seat))
    return 1 if built(state, seat, "merchant") else 0


def forecast(state: State, seat: int, action: PlayKeyple) -> str | None:
    """For a keyple going into an empty board field: what it earns alone and what each earns with a joiner."""
    ref = _space(action.space)
    if ref.board is None or keyples_on(state, seat, ref):
        return None
    border = space_colour(state, ref)
    bonus = int(matches(working_colour(Keyple(action.colour), border), border))
    kind, options = _unit(state, seat, ref) if ref.name != "river" else ("boat", [])
    what = unit_word(kind, options)
    return f"Alone it earns {plural(what, 1 + bonus)}; with a joiner, {plural(what, 2 + bonus)} each."


def unit_word(kind: str, options: list[str]) -> str:
    """What one unit of a yield is called in the log."""
    if kind == "resource" and options:
        return options[0]
    return {"tile": "country tile", "boat": "boat action"}.get(kind, "action")


def _interleave(per_seat: list[list[Step]], snake: bool) -> list[Step]:
    """Alternate units between seats, active first; country tiles go 1st and 4th to the active seat (p.13)."""
    order: list[Step] = []
    rounds = max(len(units) for units in per_seat)
    for r in range(rounds):
        seats = per_seat if not (snake and r % 2) else list(reversed(per_seat))
        order += [units[r] for units in seats if r < len(units)]
    return order


def _play_keyple(state: State, seat: int, action: PlayKeyple, events: list[Event]) -> None:
    """Place a keyple on an empty space (inviting joiners) or beside an existing keyple (p.4-5, 2a-2c)."""
    ref = _space(action.space)
    player = state.players[seat]
    player.keyp[action.colour] -= 1
    existing = list(keyples_on(state, seat, ref))
    if action.build:
        _build_by_keyple(state, seat, action, ref, events)
        return
    if action.boat and ref.board is not None:
        state.boards[ref.board - 1].boat = action.boat
    put_keyple(state, seat, ref, Keyple(action.colour))
    where = describe(state, seat, ref) + (f" with {action.boat}" if action.boat else "")
    if not existing:
        events.append(Event(f"{player.name} plays {a(action.colour)} keyple onto {where}.", seat))
        _invite_or_resolve(state, seat, ref, events)
        return
    border = space_colour(state, ref)
    working = working_colour(existing[0], border)  # a joiner works in the first keyple's colour (p.6, K-36)
    bonus = int(matches(working, border))
    lying_already = existing[0].lying
    if action.lay:
        keyples_on(state, seat, ref)[0] = existing[0].laid_down()
    units = (2 if action.lay else 1) + bonus
    laid = " and lays the existing keyple down" if action.lay else ""
    laid += " beside a keyple already lying down, which works no more" if lying_already else ""
    as_colour = f"; the white keyple works as {working}, like the keyple it joins" if (
        action.colour == "white" and working != "white") else ""
    events.append(Event(f"{player.name} plays {a(action.colour)} keyple onto {where}{laid}{as_colour}.", seat))
    queue_yield(state, ref, [(seat, units)], events)
    flow.start_yields(state, events)


def _build_by_keyple(state: State, seat: int, action: PlayKeyple, ref: SpaceRef, events: list[Event]) -> None:
    """Place a tile on a plot, over any tile there, with a keyple on it: the keyple's one action builds it (p.13
    note 4 v, K-27). A keyple already on the old tile goes onto the new one, beside this one (p.16)."""
    assert action.build is not None
    beside = ", beside the keyple on the old tile, which moves onto the new one" if keyples_on(state, seat, ref) else ""
    put_keyple(state, seat, ref, Keyple(action.colour))
    events.append(Event(f"{name(state, seat)} plays {a(action.colour)} keyple onto plot {ref.name} to build "
                        f"there{beside}.", seat))
    items = works.build_cost(state.players[seat], Build(action.build, ref.name), "printed")
    state.payment = Payment(seat, items, "build", ref.name, action.build)
    _settle_payment(state, events)


def _invite_or_resolve(state: State, seat: int, ref: SpaceRef, events: list[Event]) -> None:
    """Invite the players who could join, clockwise; with nobody to ask, resolve alone (p.5, 2b)."""
    if ref.board is None:
        _resolve_alone(state, seat, ref, events)
        return
    working = working_colour(keyples_on(state, seat, ref)[0], space_colour(state, ref))
    asked = [s for s in clockwise_from(state, seat)
             if state.players[s].keyp.get(working, 0) > 0 or state.players[s].keyp.get("white", 0) > 0]
    if not asked:
        _resolve_alone(state, seat, ref, events)
        return
    state.offer = Offer(ref.board, ref.name, working, asked)
    state.phase = "joiner"
    names = ", ".join(name(state, s) for s in asked)
    who = "only a white keyple" if working == "white" else f"{a(working)} or white keyple"
    events.append(Event(f"Joiners invited in this order: {names} ({who} may join)."))


def _resolve_alone(state: State, seat: int, ref: SpaceRef, events: list[Event]) -> None:
    """A keyple with no joiner: 1 unit, 2 with a colour match (p.4)."""
    border = space_colour(state, ref)
    bonus = int(matches(working_colour(keyples_on(state, seat, ref)[0], border), border))
    queue_yield(state, ref, [(seat, 1 + bonus)], events)
    flow.start_yields(state, events)


def _offer_ref(state: State) -> SpaceRef:
    """The field of the open joiner offer."""
    assert state.offer is not None
    return SpaceRef(state.offer.board, state.offer.field)


def _join(state: State, seat: int, action: Join, events: list[Event]) -> None:
    """The invited seat joins: both keyples earn 2 units, 3 with a colour match (p.5, 2b; p.7, 4)."""
    ref = _offer_ref(state)
    state.players[seat].keyp[action.colour] -= 1
    put_keyple(state, seat, ref, Keyple(action.colour))
    assert state.offer is not None
    units = 2 + int(matches(state.offer.colour, space_colour(state, ref)))
    events.append(Event(f"{name(state, seat)} joins with {a(action.colour)} keyple.", seat))
    state.offer = None
    queue_yield(state, ref, [(state.active, units), (seat, units)], events)
    flow.start_yields(state, events)


def _decline(state: State, seat: int, action: Decline, events: list[Event]) -> None:
    """The invited seat declines; the next is asked, or the keyple works alone."""
    assert state.offer is not None
    events.append(Event(f"{name(state, seat)} declines to join.", seat))
    state.offer.index += 1
    if state.offer.index >= len(state.offer.candidates):
        ref = _offer_ref(state)
        state.offer = None
        _resolve_alone(state, state.active, ref, events)


def _lay_down(state: State, seat: int, action: LayDown, events: list[Event]) -> None:
    """Lay down one keyple (1 unit, 2 with a match) or two (2, 3 with a match) (p.6, 3)."""
    ref = _space(action.space)
    keyples = keyples_on(state, seat, ref)
    standing = [i for i, k in enumerate(keyples) if not k.lying][: action.count]
    for i in standing:
        keyples[i] = keyples[i].laid_down()
    border = space_colour(state, ref)
    units = action.count + int(matches(working_colour(keyples[0], border), border))
    events.append(Event(f"{name(state, seat)} lays down {plural('keyple', action.count)} on "
                        f"{describe(state, seat, ref)}.", seat))
    queue_yield(state, ref, [(seat, units)], events)
    flow.start_yields(state, events)


def _take(state: State, seat: int, action: Take, events: list[Event]) -> None:
    """Take one unit of a resource from the supply."""
    step = state.steps.pop(0)
    gain(state, seat, action.resource, 1)
    if step.kind == "boat":
        state.boat_took[seat].append(action.resource)
    events.append(Event(f"{name(state, seat)} takes {plural(action.resource, 1)}.", seat))
    flow.start_yields(state, events)


def gain(state: State, seat: int, resource: str, count: int) -> None:
    """Move resources from the supply to a player (the supply is not counted when unlimited)."""
    if not state.options.get("unlimited_supply"):
        state.supply[resource] -= count
    goods = state.players[seat].goods
    goods[resource] = goods.get(resource, 0) + count


def _sell(state: State, seat: int, action: Sell, events: list[Event]) -> None:
    """Sell one resource to the boat for 2 shipping points (p.14 note 6)."""
    step = state.steps.pop(0)
    gain(state, seat, action.resource, -1)
    sold_as = stands_for(action.resource, step.options) or action.resource
    state.boat_sold[seat].append(sold_as)  # a brick sold as clay counts as clay sold (K-10, K-22)
    points = 2 + _agent_bonus(state, seat)
    state.players[seat].shipping += points
    standing_in = f" as {sold_as}" if sold_as != action.resource else ""
    events.append(Event(f"{name(state, seat)} sells {plural(action.resource, 1)}{standing_in} to the boat for "
                        f"{points} points.", seat))
    flow.start_yields(state, events)


def _agent_bonus(state: State, seat: int) -> int:
    """The shipping agent's extra point: for every second sale in a turn, or every sale when upgraded (p.17)."""
    agent = built(state, seat, "shipping_agent")
    if agent is None:
        return 0
    return 1 if agent or len(state.boat_sold[seat]) % 2 == 0 else 0


def _take_tile(state: State, seat: int, action: TakeTile, events: list[Event]) -> None:
    """Take a country tile or winter fair from the display (p.13 note 2)."""
    state.steps.pop(0)
    state.display.remove(action.tile)
    player = state.players[seat]
    (player.winter_fairs if action.tile in comps().fairs else player.tiles).append(action.tile)
    events.append(Event(f"{player.name} takes {_tile_name(action.tile)} from the display.", seat))
    flow.start_yields(state, events)


def _tile_name(tile: str) -> str:
    """Words for a country tile or winter fair."""
    return f"the winter fair {tile}" if tile in comps().fairs else f"the {comps().tiles[tile].name}"


def _skip(state: State, seat: int, action: Skip, events: list[Event]) -> None:
    """Give up the rest of the current yield."""
    grant = state.steps[0].grant
    dropped = [s for s in state.steps if s.grant == grant]
    state.steps = [s for s in state.steps if s.grant != grant]
    events.append(Event(f"{name(state, seat)} skips {plural('unit', len(dropped))} from {dropped[0].source}.", seat))
    flow.start_yields(state, events)


def _exchange(state: State, seat: int, action: Exchange, events: list[Event]) -> None:
    """Give resources to the supply and take others: convert fields, trades and converting tiles."""
    step = state.steps.pop(0)
    if step.kind == "plot" and _upgraded_tile(state, seat, step.options[0]) == "trading_post":
        other = "trade_finished" if action.get[0] in RAW else "trade_raw"  # a brick may be traded as clay (K-22)
        state.steps.insert(0, Step(seat, _grant(state), "exchange", [other], step.source))
    for resource in action.give:
        gain(state, seat, resource, -1)
    for resource in action.get:
        gain(state, seat, resource, 1)
    given = ", ".join(plural(r, n) for r, n in Counter(action.give).items())
    got = ", ".join(plural(r, n) for r, n in Counter(action.get).items())
    events.append(Event(f"{name(state, seat)} exchanges {given} for {got}.", seat))
    flow.start_yields(state, events)


def _upgraded_tile(state: State, seat: int, plot_id: str) -> str | None:
    """The tile on a plot if it is upgraded."""
    plot = state.players[seat].plots[plot_id]
    return plot.tile if plot.upgraded else None


def _rules_of(state: State, seat: int) -> tuple[str, str]:
    """The build and upgrade rules of the unit being spent."""
    step = state.steps[0]
    if step.kind == "plot":
        return works.tile_rules(state, seat, step.options[0])
    return ("discount" if step.kind == "discount_build" else "printed"), "normal"


def _build(state: State, seat: int, action: Build, events: list[Event]) -> None:
    """Start paying for a build (p.13 note 4)."""
    rule = _rules_of(state, seat)[0]
    state.steps.pop(0)
    items = works.build_cost(state.players[seat], action, rule)
    state.payment = Payment(seat, items, "build", action.plot, action.tile)
    _settle_payment(state, events)


def _upgrade(state: State, seat: int, action: Upgrade, events: list[Event]) -> None:
    """Start paying for an upgrade (p.13 note 5)."""
    rule = _rules_of(state, seat)[1]
    if state.steps[0].kind == "plot" and action.plot == state.steps[0].options[0]:
        rule = "normal"
    state.steps.pop(0)
    state.payment = Payment(seat, works.upgrade_cost(state.players[seat], action.plot, rule), "upgrade", action.plot)
    _settle_payment(state, events)


def _pay(state: State, seat: int, action: Pay, events: list[Event]) -> None:
    """Pay one item of the cost."""
    assert state.payment is not None
    state.payment.items.pop(0)
    gain(state, seat, action.resource, -1)
    events.append(Event(f"{name(state, seat)} pays {plural(action.resource, 1)}.", seat))
    _settle_payment(state, events)


def _settle_payment(state: State, events: list[Event]) -> None:
    """Pay items that have one possible payment; when all is paid, build or upgrade and carry on."""
    payment = state.payment
    assert payment is not None
    goods = state.players[payment.seat].goods
    while payment.items and len(options := pay_options(goods, payment.items)) == 1:
        payment.items.pop(0)
        gain(state, payment.seat, options[0], -1)
        events.append(Event(f"{name(state, payment.seat)} pays {plural(options[0], 1)}.", payment.seat))
    if payment.items:
        state.phase = "pay"
        return
    state.payment = None
    _finish_work(state, payment, events)
    flow.start_yields(state, events)


def _finish_work(state: State, payment: Payment, events: list[Event]) -> None:
    """Put a paid tile on its plot (over any tile there), or turn a paid tile to its upgraded side."""
    player = state.players[payment.seat]
    if payment.effect == "upgrade":
        player.plots[payment.plot] = replace(player.plots[payment.plot], upgraded=True)
        tile_name = comps().tiles[player.plots[payment.plot].tile].name
        events.append(Event(f"{player.name} upgrades the {tile_name} on plot {payment.plot}.", payment.seat))
        return
    assert payment.tile is not None
    player.tiles.remove(payment.tile)
    old = player.plots.get(payment.plot)
    player.plots[payment.plot] = Plot(payment.tile, under=old.tile if old else None)
    over = f", over the {comps().tiles[old.tile].name}" if old else ""
    events.append(Event(f"{player.name} builds the {comps().tiles[payment.tile].name} on plot {payment.plot}{over}.",
                        payment.seat))


def _hold_fair(state: State, seat: int, action: HoldFair, events: list[Event]) -> None:
    """Hold a fair: show its resources (they are kept) and put it on the season's fairground (p.8 note 3)."""
    player = state.players[seat]
    fair = comps().fairs[action.fair]
    side = fair.sides[0] if action.points is None else next(s for s in fair.sides if s.points == action.points)
    (player.winter_fairs if fair.kind == "winter" else player.hidden_fairs).remove(action.fair)
    player.fairground.setdefault(season_name(state), []).append(HeldFair(action.fair, side.points))
    shown = ", ".join(plural(r, n) for r, n in side.requires.items())
    events.append(Event(f"{player.name} holds the fair {action.fair} showing {shown}: {side.points} points.", seat))
    if not holdable(state, seat):
        _fairs_done(state, seat, events)


def _done(state: State, seat: int, action: Done, events: list[Event]) -> None:
    """Finish with fairs this season."""
    _fairs_done(state, seat, events)


def _fairs_done(state: State, seat: int, events: list[Event]) -> None:
    """Take the seat off the fair list; when all are done, continue the end of the season."""
    state.waiting.remove(seat)
    if not state.waiting:
        flow.after_fairs(state, events)


def _release(state: State, seat: int, action: Release, events: list[Event]) -> None:
    """Let one animal go; then settle what remains (p.8 note 4)."""
    flow.release(state, seat, action.animal, 1, events)
    flow.settle_housing(state, seat, events)
    if not state.waiting:
        flow.after_housing(state, events)


def _choose_display(state: State, seat: int, action: ChooseDisplay, events: list[Event]) -> None:
    """Record a hidden display choice; reveal all when everyone has chosen (p.9 note 3)."""
    state.players[seat].chosen_display = action.display
    state.waiting.remove(seat)
    events.append(Event(f"{name(state, seat)} has chosen a display.", seat))
    if not state.waiting:
        flow.after_displays(state, events)


def _rest(state: State, seat: int, action: Rest, events: list[Event]) -> None:
    """Stand one excess keyple on the keyp tile (p.9 note 4)."""
    flow.rest(state, seat, action.colour, 1, events)
    flow.settle_rest(state, seat, events)
    if not state.waiting:
        flow.start_season(state, events)


_HANDLERS: dict[type, Callable[[State, int, Any, list[Event]], None]] = {
    PlayKeyper: _play_keyper,
    PlayKeyple: _play_keyple,
    LayDown: _lay_down,
    Join: _join,
    Decline: _decline,
    Take: _take,
    Sell: _sell,
    TakeTile: _take_tile,
    Skip: _skip,
    HoldFair: _hold_fair,
    Done: _done,
    Release: _release,
    ChooseDisplay: _choose_display,
    Rest: _rest,
    Exchange: _exchange,
    Build: _build,
    Upgrade: _upgrade,
    Pay: _pay,
}
