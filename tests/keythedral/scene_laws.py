"""More Keythedral scenes for the phase-three, law-card and end tests: a small known board, chosen tiles on the mat,
and the phases reached through the engine's own flow.

The board (rows 12..15, columns L..O; the Keythedral on M13+ between the four number-1 fields):

    row 15:  L15 vineyard  M15 lake    N15 farm      O15 woods
    row 14:  L14 farm      M14 woods   N14 quarry    O14 lake
    row 13:  L13 lake      M13 quarry  N13 woods     O13 vineyard
    row 12:  L12 woods     M12 farm    N12 vineyard  O12 quarry

Cottages (seat: number at square): blue (0): 1 L12+, 2 N14+, 3 K11+ (touches only L12);
yellow (1): 1 M12+, 2 L14+, 3 O15+ (touches only O15); grey (2): 1 N12+, 2 M14+, 3 L13+.
Cottages 4 and 5 stay off the board, and the square N13+ stays empty.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Event
from engine.keythedral import GAME, flow
from engine.keythedral import supply as sup
from engine.keythedral.components import COMPONENTS
from engine.keythedral.pieces import Cottage, LaidField, Marker, Worker
from engine.keythedral.state import KState
from tests.keythedral.scene import at_actions, give, play, played_setup

FIELDS = {
    "L15": "vineyard", "M15": "lake", "N15": "farm", "O15": "woods",
    "L14": "farm", "M14": "woods", "N14": "quarry", "O14": "lake",
    "L13": "lake", "M13": "quarry", "N13": "woods", "O13": "vineyard",
    "L12": "woods", "M12": "farm", "N12": "vineyard", "O12": "quarry",
}
COTTAGES = {
    (0, 1): "L12+", (0, 2): "N14+", (0, 3): "K11+",
    (1, 1): "M12+", (1, 2): "L14+", (1, 3): "O15+",
    (2, 1): "N12+", (2, 2): "M14+", (2, 3): "L13+",
}


def table(players: int = 3, seed: int = 1, **options: bool) -> KState:
    """A played set-up whose board is replaced by the small known board above, in round 1 before phase one."""
    state = played_setup(players, seed, **options)
    free = {terrain: [t for t in COMPONENTS.fields if t.terrain == terrain] for terrain in sup.TERRAINS}
    state.fields = {}
    for label, terrain in FIELDS.items():
        tile = free[terrain].pop(0)
        state.fields[label] = LaidField(terrain, tile.back, tile.id)
    for seat in range(state.n):
        for i in range(5):
            state.cottages[seat][i] = Cottage(COTTAGES.get((seat, i + 1)), False)
    return state


def actions_table(players: int = 3, start: int = 0, seed: int = 1, **options: bool) -> KState:
    """The small board at the first turn of phase three."""
    return at_actions(table(players, seed, **options), start)


def options(state: KState, seat: int) -> list[str]:
    """A seat's legal actions as notation, lower case (the engine reads labels in either case)."""
    return [str(a).lower() for a in GAME.legal_actions(state, seat)]


def set_tile(state: KState, space: str, tile: str) -> None:
    """Put a chosen building tile on a mat space, swapping it with wherever that tile was (mat or unused)."""
    target = flow.mat_space(state, space)
    old = target.tile
    for other in state.mat:
        if other.tile == tile:
            other.tile = old
            break
    else:
        pool = state.unused[str(target.stage)]
        pool[pool.index(tile)] = old
    target.tile = tile


def cost(state: KState, space: str) -> tuple[str, ...]:
    """The printed cost of the tile on a space."""
    return flow.tile_cost(flow.mat_space(state, space).tile)


def give_cost(state: KState, seat: int, colours: tuple[str, ...] | list[str]) -> None:
    """Hand a seat exactly the cubes of a cost (crafts from the craftsmen)."""
    for colour in colours:
        give(state, seat, **{colour: 1})


def turn_to(state: KState, seat: int) -> None:
    """In phase three, let the seats before this one pass until it is this seat's turn."""
    while GAME.to_act(state) != [seat]:
        play(state, GAME.to_act(state)[0], "pass")


def buy_as(state: KState, seat: int, space: str) -> list[Event]:
    """The seat (others passing until its turn) is given the exact price of a space and buys it."""
    turn_to(state, seat)
    give_cost(state, seat, cost(state, space))
    return play(state, seat, f"buy {space}")


def buy_all_but_last(state: KState, buyers: Callable[[int], int] = lambda i: i % 3) -> str:
    """Buy every seat of the mat but the last through real purchases; returns the last space's name."""
    spaces = [s.space for s in state.mat]
    for i, space in enumerate(spaces[:-1]):
        buy_as(state, buyers(i), space)
    return str(spaces[-1])


def to_phase_one(state: KState) -> list[Event]:
    """Begin the current round again from phase one, so its law window opens for the holders dealt since."""
    ev: list[Event] = []
    state.round -= 1
    flow.begin_round(state, ev)
    flow.advance(state, ev)
    return ev


def to_harvest(state: KState, workers: dict[str, tuple[int, int]]) -> list[Event]:
    """Phase one just finished with these workers out (field -> (seat, cottage)): phase two begins."""
    ev: list[Event] = []
    state.phase, state.step, state.windows, state.pending = "workers", "order", [], None
    state.markers = [Marker(n, 0) for n in range(1, 6)]
    state.workers = {f: Worker(s, c) for f, (s, c) in workers.items()}
    flow.advance(state, ev)
    return ev


PREFER = ("continue", "pass", "idle")


def quiet_step(state: KState) -> None:
    """Play one quiet choice: continue, pass or idle when offered, else the first legal action."""
    seat = GAME.to_act(state)[0]
    options = [str(a) for a in GAME.legal_actions(state, seat)]
    play(state, seat, next((p for p in PREFER if p in options), options[0]))


def run_while(state: KState, busy: Callable[[KState], bool]) -> None:
    """Play quiet choices while busy(state) holds."""
    for _ in range(2000):
        if not busy(state) or GAME.is_over(state):
            return
        quiet_step(state)
    raise AssertionError("the scene did not settle")
