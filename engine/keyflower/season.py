"""Seasons: the end of a season in the rulebook's order (reference §7), boats picked in turn order, villages
expanded, the next season opened (§3.1), the secret winter choice, and the end of the game after winter."""

from __future__ import annotations

import itertools

from engine.core import Event, Rng
from engine.keyflower import celeste, flow, keymelequin
from engine.keyflower import keyples as kp
from engine.keyflower import places as pl
from engine.keyflower import supply as sup
from engine.keyflower import transport as tr
from engine.keyflower import village as vg
from engine.keyflower.actions import Act, act
from engine.keyflower.components import COMPONENTS
from engine.keyflower.flow import SEASONS, seats_from
from engine.keyflower.pieces import SUMMER_BOAT, tile
from engine.keyflower.state import KfState, Place, ReplaceStep, VillageTile
from engine.keyflower.turns import biddable


def has_start_icon(number: int, players: int) -> bool:
    """Whether the face of turn-order tile `number` used with this many players carries the start icon (F-4)."""
    return any(o.start_icon for o in COMPONENTS.turn_order
               if o.number == number and o.players[0] <= players <= o.players[1])


def advance(state: KfState, ev: list[Event]) -> None:
    """Carry out what needs no choice: a season ends when everyone has passed in succession."""
    if state.phase == "turns" and not state.pending and state.passes >= state.n:
        _end_of_season(state, ev)


def _end_of_season(state: KfState, ev: list[Event]) -> None:
    """Steps 1 to 4 of the end of a season, then the turn-order tiles and boats (step 5)."""
    name = SEASONS[state.season]
    ev.append(Event(f"Everyone has passed: the end of {name}."))
    for loc in biddable(state):  # 1. losing bids come home
        top = pl.highest(state, loc)
        for s, bid in list(pl.peek(state, loc).bids.items()):
            if top is None or s != top[0]:
                sup.add(state.workers[s], bid.keyples())
    for loc in list(state.auction):  # 2. unbid tiles leave; their users go into the bag
        if pl.highest(state, loc) is None:
            _users_to(state, loc, None)
            state.auction.remove(loc)
            ev.append(Event(f"Nobody bid for {tile(loc).name}: it leaves the game."))
    for seat in seats_from(state, state.start):  # 3. winners take their tiles with the workers on them
        for loc in list(state.auction):
            top = pl.highest(state, loc)
            if top and top[0] == seat:
                _users_to(state, loc, seat)
                state.won[seat].append(loc)
                if pl.closed(state, loc):  # the ghost won it for them (F-40)
                    ev.append(Event(f"{state.names[seat]} wins {tile(loc).name}: the ghost won it for them.", seat))
                    celeste.ghost_resolved(state, ev)
                    continue
                group = pl.peek(state, loc).bids[seat].keyples()
                sup.add(state.bag, group)
                ev.append(Event(f"{state.names[seat]} wins {tile(loc).name} with {kp.words(group)}.", seat))
    for seat, village in enumerate(state.villages):  # 4. users of village tiles go to the village's owner
        for placed in village.values():
            _users_to(state, placed.tile, seat)
    state.auction = []
    _turn_order(state, ev)


def _users_to(state: KfState, loc: str, seat: int | None) -> None:
    """Workers used on a tile go behind a seat's screen, or into the bag (seat None)."""
    for use in pl.peek(state, loc).uses:
        sup.add(state.bag if seat is None else state.workers[seat], use.keyples())


def _turn_order(state: KfState, ev: list[Event]) -> None:
    """Step 5: turn-order winners pick in number order, then the others clockwise from the new start player. The
    winning bids for the turn-order tiles and Key Celeste stay beside them until every boat is taken."""
    winners: list[int] = []
    new_start: int | None = None
    for number in state.order_tiles:
        top = pl.highest(state, pl.order_loc(number))
        if top is None:
            continue
        if top[0] not in winners:
            winners.append(top[0])
        if has_start_icon(number, state.n):
            new_start = top[0]
        if state.season == 3:
            state.won[top[0]].append(pl.order_loc(number))
    first = state.start if new_start is None else new_start
    rest = [s for s in seats_from(state, first) if s not in winners]
    state.picking = winners + rest
    if new_start is not None:
        state.start = new_start
        ev.append(Event(f"{state.names[new_start]} won the start-player tile and takes the purple keyple.",
                        new_start))
    state.places = _winning_bids(state, biddable(state))  # the rest of the season's bids and uses are settled
    state.marker_passes = new_start is None
    state.after_boats = True
    state.phase = "boats"
    _skip_empty_picks(state, ev)


def _winning_bids(state: KfState, locs: list[str]) -> dict[str, Place]:
    """The winning bid at each of these locations, alone (the losing bids went home in step 1)."""
    kept: dict[str, Place] = {}
    for loc in locs:
        top = pl.highest(state, loc)
        if top is not None:
            kept[loc] = Place({top[0]: pl.peek(state, loc).bids[top[0]]})
    return kept


def after_pick(state: KfState, ev: list[Event]) -> None:
    """The next boat pick, or the villages once every boat is taken."""
    _skip_empty_picks(state, ev)


def _skip_empty_picks(state: KfState, ev: list[Event]) -> None:
    """When no boat is left to pick, the rest of step 5, then the villages."""
    if not [b for b in state.boats if b.taken is None] or not state.picking:
        _after_boats(state, ev)


def _after_boats(state: KfState, ev: list[Event]) -> None:
    """Step 5 once every boat is taken: the marker passes left if nobody won the start tile (5.a iv); the workers
    bid for the turn-order tiles go into the bag (5.a v); Key Celeste is dealt with last (module sheet, End of the
    season; F-41); summer boat 1a's draw, which waits for every winning bid of the round (F-16); then step 6."""
    if state.marker_passes:
        state.start = (state.start + 1) % state.n
        state.marker_passes = False
    state.picking = []
    if state.after_boats:
        state.after_boats = False
        bids = [bid.keyples() for number in state.order_tiles
                for bid in pl.peek(state, pl.order_loc(number)).bids.values()]
        for group in bids:
            sup.add(state.bag, group)
        if bids:
            ev.append(Event("The workers bid for the turn-order tiles go into the bag."))
        celeste.resolve(state, ev)
        _boat_1a(state, ev)
    state.places = {}
    _begin_placing(state, ev)


def _boat_1a(state: KfState, ev: list[Event]) -> None:
    """Summer boat 1a: its owner, having taken a boat, draws 2 workers from the bag, once every winning bid of the
    round is in it (reference §9.4, F-16, F-17)."""
    for seat in range(state.n):
        if "1a" in tr.powers(state, seat) and any(b.taken == seat for b in state.boats):
            rng = Rng(state.rng)
            drawn = sup.draw(state.bag, rng, 2)
            state.rng = rng.state
            sup.add(state.workers[seat], drawn)
            count = sup.count_words(kp.size(drawn), "worker")
            ev.append(Event(f"{state.names[seat]} draws {count} from the bag (summer boat 1a).", seat))
            if drawn:
                ev.append(Event(f"Behind your screen: {kp.words(drawn)}.", seat, (seat,)))


def boat_actions(state: KfState, seat: int) -> list[Act]:
    """The boats (their contents; in winter the boat tiles) the picking seat may take."""
    return [act("boat", b.id) for b in state.boats if b.taken is None]


def end_step(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """A boat picked, or a tile placed in one's village."""
    if state.phase == "boats":
        _pick_boat(state, seat, action.args[0], ev)
    else:
        _place(state, seat, action.args[0], action.args[1], ev)


def _pick_boat(state: KfState, seat: int, boat_id: str, ev: list[Event]) -> None:
    """Take a boat's contents (spring to autumn) or the boat itself (winter); summer boats 1a/1b add workers."""
    boat = next(b for b in state.boats if b.id == boat_id)
    boat.taken = seat
    state.picking.remove(seat)
    if "1b" in tr.powers(state, seat) and state.greens:  # a green, in plain view (summer boat 1a draws later)
        state.greens -= 1
        sup.add(state.workers[seat], {"green": 1})
        ev.append(Event(f"{state.names[seat]} takes a green worker from the supply (summer boat 1b).", seat))
    name = flow.boat_tile(boat_id).name
    if state.season == 3:
        state.won[seat].append(boat_id)
        ev.append(Event(f"{state.names[seat]} takes the {name} boat into their village.", seat))
    else:
        sup.add(state.workers[seat], boat.workers)
        sup.add(state.skills[seat], boat.skills)
        ev.append(Event(f"{state.names[seat]} takes the {name} boat's {kp.words(boat.workers)} workers and "
                        f"{sup.count_words(sum(boat.skills.values()), 'skill')}.", seat))
        boat.workers, boat.skills = {}, {}
    if keymelequin.must_replace(state, boat_id):  # its taker names the boat for autumn first (F-34)
        state.pending = ReplaceStep(seat)
        return
    _skip_empty_picks(state, ev)


def _begin_placing(state: KfState, ev: list[Event]) -> None:
    """Step 6: everyone places the tiles they won (simultaneous decisions), or the next season begins."""
    state.phase = "place"
    if not any(state.won):
        _next_season(state, ev)


def place_actions(state: KfState, seat: int) -> list[Act]:
    """Where the seat's next won tile may go: touching its village, edges matching (2a: any edges; reference §7)."""
    mine = tr.village(state, seat)
    free = "2a" in tr.powers(state, seat)
    found = []
    for tile_id in state.won[seat]:  # in any order (ruling F-18)
        found += [act("place", tile_id, tr.key_of(p)) for p in vg.placing_spots(mine, tile_id, tr.sides, free)]

    return found


def _place(state: KfState, seat: int, tile_id: str, key: str, ev: list[Event]) -> None:
    """Put a won tile into the village; when everyone has placed, the next season begins."""
    state.won[seat].remove(tile_id)
    state.villages[seat][key] = VillageTile(tile_id)
    ev.append(Event(f"{state.names[seat]} places {tile_id} at {key}.", seat))
    if not any(state.won):
        _next_season(state, ev)


def _next_season(state: KfState, ev: list[Event]) -> None:
    """Open the next season (reference §3.1), or end the game after winter."""
    state.places = {}
    if state.season == 3:
        state.phase = "over"
        ev.append(Event("Winter is over: the game ends."))
        return
    state.season += 1
    rng = Rng(state.rng)
    name = SEASONS[state.season]
    for boat in state.boats:  # every boat is free again: its contents, or in winter the boat itself, are picked
        boat.taken = None

    if state.season == 3:
        state.rng = rng.state
        state.phase = "winter-choice"
        state.winter_choice = [[] for _ in range(state.n)]
        state.winter_played = [[] for _ in range(state.n)]
        ev.append(Event("Winter: everyone secretly chooses the winter tiles they put into play (at least one)."))
        return
    stack = state.summer_stack if state.season == 1 else state.autumn_stack
    count = COMPONENTS.setup[state.n]["per_season"]
    drawn = [stack.pop(0) for _ in range(min(count, len(stack)))]
    state.auction = [_face_up(d, rng) for d in drawn]
    state.rng = rng.state
    _load(state, flow.BOAT_FACE[state.season])

    state.phase, state.turn, state.passes = "turns", state.start, 0
    ev.append(Event(f"{name.title()} begins: {', '.join(tile(t).name for t in state.auction)} are up for auction; "
                    f"{state.names[state.start]} starts."))


def _face_up(tile_id: str, rng: Rng) -> str:
    """A drawn tile's id as it lies: a summer boat shows a random face."""
    if tile_id.startswith(SUMMER_BOAT) and not tile_id[-1].isalpha():
        return tile_id + ("a" if rng.below(2) == 0 else "b")
    return tile_id


def _load(state: KfState, face: str) -> None:
    """Load the boats for the season (never in winter); Paulo boards the Keymelequin in summer."""
    flow.load_boats(state, face)
    keymelequin.board(state)


def winter_actions(state: KfState, seat: int) -> list[Act]:
    """The secret winter choice in one step: any non-empty set of one's winter tiles (reference §3.1)."""
    if state.winter_choice[seat] is None:
        return []
    hand = sorted(state.winter_hand[seat])
    sets = [combo for k in range(1, len(hand) + 1) for combo in itertools.combinations(hand, k)]
    return [act("winter", *combo) for combo in sets]


def choose_winter(state: KfState, seat: int, action: Act, ev: list[Event]) -> None:
    """A seat's winter tiles chosen (secretly); once all have chosen, they are shown together, shuffled."""
    state.winter_played[seat] = list(action.args)
    state.winter_choice[seat] = None
    names = ", ".join(tile(t).name for t in action.args)
    ev.append(Event(f"You put {names} into play.", seat, (seat,)))
    ev.append(Event(f"{state.names[seat]} has chosen their winter tiles.", seat))
    if any(c is not None for c in state.winter_choice):
        return
    for s in range(state.n):  # tiles not chosen leave the game unseen (F-9)
        state.winter_box += [t for t in state.winter_hand[s] if t not in state.winter_played[s]]
        state.winter_hand[s] = []
    counts = ", ".join(f"{state.names[s]} {len(state.winter_played[s])}" for s in range(state.n))
    ev.append(Event(f"The winter choices are shown together: {counts}."))
    _reveal_winter(state, ev)


def _reveal_winter(state: KfState, ev: list[Event]) -> None:
    """Every chosen winter tile goes up for auction, shuffled (reference §3.1). The pile is sorted before the
    shuffle, so the layout depends only on which tiles were put in, never on who put in which (F-9)."""
    rng = Rng(state.rng)
    tiles = sorted(t for played in state.winter_played for t in played)
    rng.shuffle(tiles)
    state.rng = rng.state
    state.auction = tiles
    state.phase, state.turn, state.passes = "turns", state.start, 0
    ev.append(Event(f"Winter tiles up for auction: {', '.join(tile(t).name for t in tiles)}."))
