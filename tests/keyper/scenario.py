"""Building Keyper positions for rule tests: a seeded table adjusted by hand, then driven through the engine.

The helpers only arrange the pieces (keyples in a keyp, keyples on fields and plots, claimed boards,
goods); every test then moves through GAME.parse and GAME.apply, so what is checked is the engine's
real behaviour, not these helpers.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Event
from engine.keyper import GAME
from engine.keyper.actions import Action
from engine.keyper.components import default
from engine.keyper.state import Keyple, Plot, State
from engine.keyper.vocab import SEASONS

COLOURS = ("blue", "orange", "green", "brown", "black", "grey", "white")


def table(players: int = 3, seed: int = 1, *, active: int = 0, season: int = 0,
          options: dict[str, object] | None = None) -> State:
    """A seeded game at the start of a season's play with a chosen active (and start) seat.

    season > 0 moves the table to a later season as if the earlier ones had passed quietly: boards
    show that season's displays, fairs of earlier seasons are gone and the bag holds every tile.
    """
    state = GAME.setup([f"P{i}" for i in range(players)], seed, options)
    state.active = state.start_player = active
    if season:
        comps = default()
        state.season = season
        shown = comps.displays_by_season[SEASONS[season]]
        for board in state.boards:
            board.display = shown[board.number - 1].id
        for player in state.players:
            player.hidden_fairs = [f for f in player.hidden_fairs if SEASONS.index(comps.fairs[f].kind) >= season]
        state.bag = sorted(state.bag + state.stacks)
        state.stacks = []
    return state


def give(state: State, seat: int, **colours: int) -> State:
    """Leave exactly these keyples in the seat's keyp (every other colour at zero)."""
    state.players[seat].keyp = {c: colours.get(c, 0) for c in COLOURS}
    return state


def claim(state: State, seat: int, board: int) -> State:
    """Put the seat's keyper on a board's keyp field, as if played on an earlier turn."""
    state.players[seat].keyper_home = False
    state.boards[board - 1].keyper = seat
    return state


def claim_all(state: State) -> State:
    """Every seat has played its keyper: seat s claims board s + 1."""
    for seat in range(len(state.players)):
        claim(state, seat, seat + 1)
    return state


def keyples(*spec: str | Keyple) -> list[Keyple]:
    """Keyples from colour names; 'green/lying' is a keyple already laid down."""
    made = []
    for item in spec:
        if isinstance(item, Keyple):
            made.append(item)
        else:
            colour, _, how = item.partition("/")
            made.append(Keyple(colour, lying=how == "lying"))
    return made


def place(state: State, board: int, field: str, *spec: str | Keyple) -> State:
    """Put keyples on a field of a board (the field must be on the board's display)."""
    display = default().display(state.boards[board - 1].display)
    display.field(field)  # KeyError when the display has no such field
    state.boards[board - 1].spaces[field] = keyples(*spec)
    return state


def build(state: State, seat: int, plot: str, tile: str, *spec: str | Keyple) -> State:
    """Give the seat a built tile on a plot, optionally with keyples already on it."""
    player = state.players[seat]
    if tile in player.tiles:
        player.tiles.remove(tile)
    player.plots[plot] = Plot(tile)
    if spec:
        player.plot_keyples[plot] = keyples(*spec)
    return state


def goods(state: State, seat: int, **resources: int) -> State:
    """Set some of the seat's goods, moving the difference from or to the general supply."""
    mine = state.players[seat].goods
    for resource, count in resources.items():
        delta = count - mine.get(resource, 0)
        state.supply[resource] = state.supply.get(resource, 0) - delta
        mine[resource] = count
    return state


def play(state: State, seat: int, text: str) -> tuple[State, list[Event]]:
    """Read notation for a seat and apply it; raises what parse or apply raise."""
    return GAME.apply(state, seat, GAME.parse(state, seat, text))


def run(state: State, moves: Iterable[tuple[int, str]]) -> tuple[State, list[Event]]:
    """Apply (seat, notation) moves in order; returns the last state and every event."""
    events: list[Event] = []
    for seat, text in moves:
        state, more = play(state, seat, text)
        events += more
    return state, events


def legal(state: State, seat: int | None = None) -> list[str]:
    """The notation of every legal action of a seat (default: the first seat to act)."""
    if seat is None:
        seat = GAME.to_act(state)[0]
    return [str(a) for a in GAME.legal_actions(state, seat)]


def actions(state: State, seat: int) -> list[Action]:
    """The seat's legal actions as records."""
    return GAME.legal_actions(state, seat)


def pending(state: State) -> list[tuple[int, tuple[str, ...]]]:
    """The queued yield units in order: (seat, what the unit may be taken as)."""
    return [(step.seat, tuple(step.options)) for step in state.steps]


def take_all(state: State, prefer: str | None = None) -> tuple[State, list[Event]]:
    """Resolve every queued yield unit, taking `prefer` when offered, else the first take offered."""
    events: list[Event] = []
    while state.phase == "yields":
        seat = GAME.to_act(state)[0]
        options = legal(state, seat)
        wanted = f"take {prefer}" if prefer else None
        choice = wanted if wanted in options else next(o for o in options if o != "skip")
        state, more = play(state, seat, choice)
        events += more
    return state, events


def texts(events: Iterable[Event]) -> list[str]:
    """The words of events."""
    return [e.text for e in events]


def have(state: State, seat: int, resource: str) -> int:
    """How many of a resource a seat holds."""
    return state.players[seat].goods.get(resource, 0)


def last_keyple(state: State, seat: int, colour: str = "grey") -> State:
    """Everyone's keyper is out (seat s on board s + 1) and only `seat` still has one keyple, and is to act."""
    claim_all(state)
    for other in range(len(state.players)):
        give(state, other)
    give(state, seat, **{colour: 1})
    state.active = seat
    return state


def finish_turns(state: State) -> tuple[State, list[Event]]:
    """Play on until the season's turns are over: skip yields, lay down the first offer, decline joins."""
    events: list[Event] = []
    while state.phase in ("turn", "yields", "joiner"):
        seat = GAME.to_act(state)[0]
        options = legal(state, seat)
        choice = "skip" if "skip" in options else "decline" if "decline" in options else options[0]
        state, more = play(state, seat, choice)
        events += more
    return state, events


def choose_displays(state: State, choices: dict[int, str] | None = None) -> tuple[State, list[Event]]:
    """Everyone waiting picks a display: the given one, or the first offered."""
    events: list[Event] = []
    choices = choices or {}
    while state.phase == "choose_display":
        seat = GAME.to_act(state)[0]
        state, more = play(state, seat, "display " + choices.get(seat, legal(state, seat)[0].split()[1]))
        events += more
    return state, events


def end_season(state: State, seat: int = 0, colour: str = "grey") -> tuple[State, list[Event]]:
    """Bring the season's play to its end: only `seat` still holds a keyple, plays it onto the wheat field of
    its own claimed board (so it comes back to it), skips the yield, and the final lay-down turns follow.
    Stops at the first end-of-season decision (fairs, housing, display choice, rest) or game over."""
    last_keyple(state, seat, colour)
    state, events = play(state, seat, f"play {colour} {seat + 1}.wheat")
    state, more = finish_turns(state)
    return state, events + more
