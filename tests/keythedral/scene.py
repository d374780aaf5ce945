"""Building Keythedral test scenes: a finished set-up, cubes and law cards handed out, a phase reached.

Scenes are made by playing real actions through the engine where that is cheap (set-up) and by setting the few
fields a rule under test reads otherwise; every rule test then plays the actions it is about through GAME.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event
from engine.keythedral import GAME, laws
from engine.keythedral.state import KState

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli")


def played_setup(players: int = 3, seed: int = 1, **options: Any) -> KState:
    """A game whose set-up has been played (each seat taking its first legal choice), waiting in round 1."""
    state = GAME.setup(list(NAMES[:players]), seed, options)
    while state.phase == "setup":
        seat = GAME.to_act(state)[0]
        GAME.apply_in_place(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def give(state: KState, seat: int, **cubes: int) -> None:
    """Hand a seat cubes from the store (or from nowhere for crafts); raises AssertionError if the store lacks them."""
    for colour, k in cubes.items():
        if colour in ("white", "purple", "yellow"):
            state.craftsmen[colour] -= k
        else:
            state.store[colour] -= k
        assert state.store[colour] >= 0 and state.craftsmen.get(colour, 0) >= 0
        state.cubes[seat][colour] += k


def deal_law(state: KState, seat: int, key: str) -> None:
    """Put a law card into a seat's hand, taken from the stack or a new-law space."""
    number = laws.NUMBERS[key]
    if number in state.law_deck:
        state.law_deck.remove(number)
    elif number in state.law_spaces:
        state.law_spaces[state.law_spaces.index(number)] = state.law_deck.pop(0) if state.law_deck else None
    else:
        raise AssertionError(f"{key} is not in the stack or on a space")
    state.hands[seat].append(number)


def play(state: KState, seat: int, text: str) -> list[Event]:
    """Parse and apply one action in place."""
    return GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))


def legal(state: KState, seat: int) -> list[str]:
    """A seat's legal actions as notation, lower case (the notation writes labels in capitals, `worker M13`)."""
    return [str(a).lower() for a in GAME.legal_actions(state, seat)]


def at_actions(state: KState, start: int = 0) -> KState:
    """Jump to the first turn of phase three with this start player (no workers out, no windows)."""
    state.phase, state.step, state.start, state.turn = "actions", "turn", start, start
    state.windows, state.pending, state.passes, state.workers = [], None, 0, {}
    return state


def texts(events: list[Event]) -> str:
    """All event texts in one string (for `in` checks)."""
    return " | ".join(e.text for e in events)
