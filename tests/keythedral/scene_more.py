"""More Keythedral scene helpers: a board laid out by hand, scripted set-ups, driving a round to a phase.

A hand-laid board keeps the centre fields the engine laid and replaces the rest by the fields and cottages a test
names; cottages the test does not name stay off the board (they send no workers), so each test sees only the
pieces its rule is about. Every rule test then plays the actions it checks through GAME.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from engine.core import Event
from engine.keythedral import GAME, board
from engine.keythedral.flow import START_FIELDS, TWO_PLAYER_FIELDS
from engine.keythedral.pieces import Cottage, Fence, LaidField
from engine.keythedral.state import KState
from tests.keythedral.scene import NAMES, at_actions, play, played_setup

# Terrain -> a field tile id of that terrain, to fill the [terrain, back, id] rows of hand-laid fields.
_TILE = {"quarry": ("f2-1", 2), "woods": ("f2-3", 2), "lake": ("f2-5", 2), "farm": ("f2-7", 2),
         "vineyard": ("f2-9", 2)}


def hand_board(players: int, fields: dict[str, str], cottages: dict[tuple[int, int], str],
               houses: Iterable[tuple[int, int]] = (), start: int = 0, seed: int = 1) -> KState:
    """Round 1, waiting for the start player's first work-order choice, on a board laid by hand.

    fields: label -> terrain, added to the centre fields; cottages: (seat, number) -> square; houses: which of
    those are houses. Nobody holds a law card, so no law window opens.
    """
    state = played_setup(players, seed)
    centre = TWO_PLAYER_FIELDS if players == 2 else START_FIELDS
    kept = {label: row for label, row in state.fields.items() if label in centre}
    for label, terrain in fields.items():
        tile, back = _TILE[terrain]
        kept[label.upper()] = LaidField(terrain, back, tile)
    state.fields = kept
    state.cottages = [[Cottage(None, False) for _ in row] for row in state.cottages]
    for (seat, number), square in cottages.items():
        board.lay_cottage(state, seat, number, square.upper())
    for seat, number in houses:
        board.make_house(state, seat, number, True)
    state.start = start
    state.fences, state.workers, state.markers = [], {}, []
    assert state.phase == "workers" and state.step == "order" and not state.windows
    return state


def fence(state: KState, seat: int, square: str, field: str) -> None:
    """A fence standing on an edge (as if built in an earlier round)."""
    state.fences.append(Fence(seat, square.upper(), field.upper()))
    state.fences_built[seat] += 1


def first_choice(state: KState, until: Callable[[KState], bool], limit: int = 2000) -> list[Event]:
    """Apply each deciding seat's first legal action until the predicate holds; returns the events."""
    events: list[Event] = []
    for _ in range(limit):
        if until(state):
            return events
        seat = GAME.to_act(state)[0]
        events += GAME.apply_in_place(state, seat, GAME.legal_actions(state, seat)[0])
    raise AssertionError("the predicate never held")


def scripted_setup(players: int, pick: Callable[[KState, int, list[str]], str], seed: int = 1,
                   **options: bool) -> tuple[KState, list[tuple[int, str]]]:
    """Play the whole set-up, each choice made by pick(state, seat, legal); returns the state and the moves."""
    state = GAME.setup(list(NAMES[:players]), seed, options)
    moves: list[tuple[int, str]] = []
    while state.phase == "setup":
        seat = GAME.to_act(state)[0]
        options_now = [str(a) for a in GAME.legal_actions(state, seat)]
        text = pick(state, seat, options_now)
        play(state, seat, text)
        moves.append((seat, text))
    return state, moves


def to_bidding(state: KState, start: int = 0) -> KState:
    """From any round state, jump to phase three with this start player; everyone passes into phase five."""
    at_actions(state, start)
    while state.phase == "actions":
        play(state, GAME.to_act(state)[0], "pass")
    assert state.phase == "bidding" and state.step == "bid", (state.phase, state.step)
    return state
