"""Keyper's flow: setup, turn order, the end of a season and the start of the next (rulebook pp.2-9)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event, Rng
from engine.keyper import housing
from engine.keyper.fairs import holdable
from engine.keyper.legal import can_take, laydowns, releasable
from engine.keyper.spaces import comps, keyp_empty, season_name
from engine.keyper.state import Board, Keyple, Player, State
from engine.keyper.vocab import SEASONS, plural

Settle = Callable[[State, int, list[Event]], None]
NextStep = Callable[[State, list[Event]], None]

DISPLAY_SIZE = 8
BOATS_PER_SEASON = 4


def team_limit(state: State) -> int:
    """How many keyples a player keeps at the start of a season: 8, or 9 with two players (p.9 note 4)."""
    return 9 if len(state.players) == 2 else 8


def setup(names: Sequence[str], seed: int, options: Mapping[str, Any]) -> State:
    """Lay out a new game for 2-4 players (rulebook pp.2-3); raises ValueError on a bad player count."""
    if not 2 <= len(names) <= 4:
        raise ValueError("Keyper is for 2 to 4 players.")
    c = comps()
    rng = Rng.from_seed(seed)
    supply = dict(c.supply)
    players = [_new_player(name, c.starting_keyples, c.starting_goods, supply) for name in names]
    if len(names) == 2:
        pool = list(c.two_player_pool)
        rng.shuffle(pool)
        for player, colour in zip(players, pool, strict=False):
            player.keyp[colour] = player.keyp.get(colour, 0) + 1
    _deal_fairs(players, rng)
    spring = {d.number: d.id for d in c.displays_by_season["spring"]}
    country = [t for t in c.tiles.values() if t.origin == "country"]
    state = State(
        players=players,
        options=dict(options),
        season=0,
        phase="turn",
        active=rng.below(len(names)),
        start_player=0,
        boards=[Board(number=k, display=spring[k]) for k in range(1, len(names) + 1)],
        display=[],
        bag=sorted(t.id for t in country if t.spring),
        discard=[],
        stacks=sorted([t.id for t in country if not t.spring] + [f for f in c.fairs if c.fairs[f].kind == "winter"]),
        boats=[],
        supply=supply,
        rng=rng.state,
        boat_took=[[] for _ in names],
        boat_sold=[[] for _ in names],
    )
    state.start_player = state.active
    refill_display(state)
    deal_boats(state)
    return state


def _new_player(name: str, team: Mapping[str, int], goods: Mapping[str, int], supply: dict[str, int]) -> Player:
    """A player at setup: keyper, team, starting goods and the 12 home tiles (p.2-3, notes 6-12)."""
    for resource, n in goods.items():
        supply[resource] -= n
    home = [t.id for t in comps().tiles.values() if t.origin == "home"]
    return Player(name=name, keyp=dict(team), goods=dict(goods), tiles=home, hidden_fairs=[])


def _deal_fairs(players: list[Player], rng: Rng) -> None:
    """Deal each player one spring, one summer and one autumn fair face down (p.3 note 13)."""
    for season in SEASONS[:3]:
        stack = sorted(f.id for f in comps().fairs.values() if f.kind == season)
        rng.shuffle(stack)
        for player in players:
            player.hidden_fairs.append(stack.pop())


def draw(state: State, items: list[str]) -> str:
    """Take a random item out of a list, advancing the state's generator; raises ValueError if empty."""
    rng = Rng(state.rng)
    item = items.pop(rng.below(len(items)))
    state.rng = rng.state
    return item


def refill_display(state: State) -> None:
    """Fill the country-tile display up to 8 from the bag, refilling the bag when it runs dry (p.13 note 2)."""
    while len(state.display) < DISPLAY_SIZE:
        if not state.bag:
            source = state.stacks if state.season == 0 and state.stacks else state.discard
            if not source:
                return
            state.bag.extend(source)
            source.clear()
            state.bag.sort()
        state.display.append(draw(state, state.bag))


def deal_boats(state: State) -> None:
    """Choose 4 of the 6 boats at random for the season (p.2 note 4, p.9 note 2)."""
    pool = sorted(comps().boats)
    state.boats = sorted(draw(state, pool) for _ in range(BOATS_PER_SEASON))


def begin_turn(state: State, events: list[Event]) -> None:
    """Start the active seat's turn, passing it at once when it has nothing it could lay down (p.6)."""
    state.phase = "turn"
    for _ in range(len(state.players) + 1):
        if not keyp_empty(state, state.active) or laydowns(state, state.active):
            return
        events.append(Event(f"{name(state, state.active)} has no keyple to lay down and passes.", state.active))
        if not advance(state, events):
            return
    raise AssertionError("no seat can act")  # pragma: no cover - guarded by the fuzzer


def name(state: State, seat: int) -> str:
    """A seat's player name."""
    return state.players[seat].name


def end_turn(state: State, events: list[Event]) -> None:
    """Close the active turn and start the next one, or the end of the season."""
    state.steps.clear()
    state.offer = None
    for memo in state.boat_took + state.boat_sold:
        memo.clear()
    state.turn += 1
    season = state.season
    if advance(state, events):
        begin_turn(state, events)
        if state.phase == "turn" and state.season == season:  # not after the season's last action (p.13)
            refill_display(state)


def advance(state: State, events: list[Event]) -> bool:
    """Move play to the next seat; False when the season ended instead (p.8 note 1)."""
    if state.final_queue is None and all(keyp_empty(state, s) for s in range(len(state.players))):
        state.last_from_keyp = state.active
        n = len(state.players)
        state.final_queue = [(state.active + i) % n for i in range(1, n)]
        events.append(Event("Every keyper and keyple has been played: each other player has one last lay-down turn."))
    elif state.final_queue is not None:
        state.final_queue.pop(0)
    if state.final_queue is None:
        state.active = (state.active + 1) % len(state.players)
        return True
    if state.final_queue:
        state.active = state.final_queue[0]
        return True
    end_season(state, events)
    return False


def start_yields(state: State, events: list[Event]) -> None:
    """Let the seats decide the queued yield units, dropping units nothing can be taken for."""
    while state.steps and not can_take(state, state.steps[0]):
        step = state.steps.pop(0)
        why = ("nothing is left to take" if step.kind in ("resource", "keyp", "tile", "boat")
               else "there is nothing it can build, upgrade, pay for or exchange now")
        events.append(Event(f"{name(state, step.seat)}'s unit from {step.source} is lost: {why}.", step.seat))
    if state.steps:
        state.phase = "yields"
    else:
        end_turn(state, events)


def end_season(state: State, events: list[Event]) -> None:
    """Run the end of the season in the rulebook's order, stopping where players must decide (p.8)."""
    events.append(Event(f"The {season_name(state)} season ends."))
    state.final_queue = None
    state.waiting = [s for s in range(len(state.players)) if _has_fair_choice(state, s)]
    state.phase = "fairs"
    if not state.waiting:
        after_fairs(state, events)


def _has_fair_choice(state: State, seat: int) -> bool:
    """Whether the seat could hold any fair now."""
    return bool(holdable(state, seat))


def after_fairs(state: State, events: list[Event]) -> None:
    """Discard the fairs that can no longer be held, then house animals (p.8 notes 3-4)."""
    season = season_name(state)
    for player in state.players:
        player.hidden_fairs = [f for f in player.hidden_fairs if comps().fairs[f].kind != season]
        if season == "winter":
            player.winter_fairs.clear()
    _simultaneous(state, "housing", settle_housing, after_housing, events)


def _simultaneous(state: State, phase: str, settle: Settle, then: NextStep, events: list[Event]) -> None:
    """Open a phase that every seat settles at once; go straight on when nobody has a choice to make."""
    state.phase = phase
    state.waiting = []
    for seat in range(len(state.players)):
        settle(state, seat, events)
    if not state.waiting:
        then(state, events)


def settle_housing(state: State, seat: int, events: list[Event]) -> None:
    """Let animals go that no best housing keeps; leave the seat waiting if a real choice remains."""
    player = state.players[seat]
    counts = housing.animal_counts(player)
    tiles = housing.housing_tiles(player)
    if sum(counts.values()) == housing.housable(counts, tiles):
        _stop_waiting(state, seat)
        return
    options = releasable(state, seat)
    keep_most = housing.may_keep(counts, tiles)
    keep_least = housing.must_keep(counts, tiles)
    if all(keep_most[a] == keep_least[a] for a in options):
        for animal in options:
            release(state, seat, animal, counts[animal] - keep_least[animal], events)
        _stop_waiting(state, seat)
    elif seat not in state.waiting:
        state.waiting.append(seat)


def _stop_waiting(state: State, seat: int) -> None:
    """Take a seat off the waiting list."""
    if seat in state.waiting:
        state.waiting.remove(seat)


def release(state: State, seat: int, animal: str, count: int, events: list[Event]) -> None:
    """Return animals that cannot be housed to the supply."""
    state.players[seat].goods[animal] -= count
    state.supply[animal] = state.supply.get(animal, 0) + count
    verb = "wanders" if count == 1 else "wander"
    events.append(Event(f"{name(state, seat)}'s {plural(animal, count)} {verb} off: no room on the farm.", seat))


def after_housing(state: State, events: list[Event]) -> None:
    """Retrieve keypers and keyples; end the game after winter, else prepare the next season (p.8 note 5 - p.9)."""
    _retrieve(state)
    if season_name(state) == "winter":
        state.phase = "game_over"
        state.waiting = []
        events.append(Event("The game is over."))
        return
    state.discard.extend(state.display)
    state.display.clear()
    if state.season == 0:
        state.bag.extend(state.stacks)
        state.stacks.clear()
        state.bag.sort()
    state.season += 1
    refill_display(state)
    deal_boats(state)
    for board in state.boards:
        board.boat = None
    state.phase = "choose_display"
    state.waiting = list(range(len(state.players)))
    events.append(Event(f"The {season_name(state)} season begins: everyone chooses a display for their board."))


def _retrieve(state: State) -> None:
    """Each player takes back the keyper, the claimed board and every keyple on it and on their own board."""
    for seat, player in enumerate(state.players):
        for keyple in player.keyp_tile + [k for ks in player.plot_keyples.values() for k in ks]:
            player.keyp[keyple.colour] = player.keyp.get(keyple.colour, 0) + 1
        player.keyp_tile.clear()
        player.plot_keyples.clear()
        player.keyper_home = True
        for board in state.boards:
            if board.keyper == seat:
                for keyple in (k for ks in board.spaces.values() for k in ks):
                    player.keyp[keyple.colour] = player.keyp.get(keyple.colour, 0) + 1
                player.board = board.number
    for board in state.boards:
        board.spaces.clear()
        board.keyper = None
    state.last_space = ""


def after_displays(state: State, events: list[Event]) -> None:
    """Reveal the chosen displays, then send excess keyples to the keyp tile (p.9 notes 3-4)."""
    for player in state.players:
        assert player.board is not None and player.chosen_display is not None
        state.boards[player.board - 1].display = player.chosen_display
        events.append(Event(f"{player.name} shows board {player.board} as {player.chosen_display}."))
        player.chosen_display = None
    _simultaneous(state, "rest", settle_rest, start_season, events)


def settle_rest(state: State, seat: int, events: list[Event]) -> None:
    """Rest excess keyples when there is no choice of colour; leave the seat waiting otherwise."""
    player = state.players[seat]
    excess = sum(player.keyp.values()) - team_limit(state)
    colours = [c for c, n in player.keyp.items() if n > 0]
    if excess > 0 and len(colours) == 1:
        rest(state, seat, colours[0], excess, events)
        excess = 0
    if excess > 0 and seat not in state.waiting:
        state.waiting.append(seat)
    elif excess <= 0:
        _stop_waiting(state, seat)


def rest(state: State, seat: int, colour: str, count: int, events: list[Event]) -> None:
    """Stand keyples of one colour on the seat's keyp tile."""
    player = state.players[seat]
    player.keyp[colour] -= count
    player.keyp_tile.extend(Keyple(colour) for _ in range(count))
    events.append(Event(f"{name(state, seat)} rests {plural(colour + ' keyple', count)} on the keyp tile.", seat))


def start_season(state: State, events: list[Event]) -> None:
    """The player who played last from the keyp starts the new season (p.9 note 5)."""
    state.waiting = []
    assert state.last_from_keyp is not None
    state.active = state.start_player = state.last_from_keyp
    state.last_from_keyp = None
    events.append(Event(f"{name(state, state.active)} starts the {season_name(state)} season."))
    begin_turn(state, events)

