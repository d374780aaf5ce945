"""The Keymelequin module: the boat that carries Sven in spring and Paulo in summer, and the boat that replaces it
for autumn (module sheet "Set up and the Keymelequin tile", rulings F-32 to F-35)."""

from __future__ import annotations

from engine.core import Event
from engine.keyflower.actions import Act, act
from engine.keyflower.components import COMPONENTS
from engine.keyflower.pieces import BOATS, KEYMELEQUIN
from engine.keyflower.state import KfState

BOAT = KEYMELEQUIN
ABOARD = ("sven", "paulo")  # spring, summer


def replaced(state: KfState) -> str:
    """The boat the Keymelequin replaced at set-up ('' when the module is off)."""
    return state.options.keymelequin


def boat_choices(players: int) -> list[str]:
    """The boats the Keymelequin may replace at this player count (those in play; F-35)."""
    return [b.id for b in COMPONENTS.boats if b.min_players <= players]


def replace_at_setup(state: KfState, boat_id: str) -> None:
    """Put the Keymelequin in the place of a boat in play; raises ValueError for a boat not in play (F-35)."""
    choices = boat_choices(state.n)
    if boat_id not in choices:
        needs = "" if boat_id not in BOATS else (f": the {BOATS[boat_id].name} boat is in play from "
                                                 f"{BOATS[boat_id].min_players} players (raise min_players, or "
                                                 "choose another boat)")
        raise ValueError(f"With {state.n} players the Keymelequin can replace {', '.join(choices)}, "
                         f"not '{boat_id}'{needs}.")
    next(b for b in state.boats if b.id == boat_id).id = BOAT


def board(state: KfState) -> None:
    """Sven boards the loaded Keymelequin in spring, Paulo the flipped one in summer."""
    for boat in state.boats:
        if boat.id == BOAT and boat.taken is None and state.season < len(ABOARD):
            keyple = ABOARD[state.season]
            boat.workers[keyple] = boat.workers.get(keyple, 0) + 1


def must_replace(state: KfState, boat_id: str) -> bool:
    """Whether taking this boat now asks for the autumn replacement (the Keymelequin at the end of summer)."""
    return boat_id == BOAT and state.season == 1


def spare_boats(state: KfState) -> list[str]:
    """Boat tiles not in the game: the one replaced at set-up and those unused at this player count (F-34)."""
    in_game = {b.id for b in state.boats}
    return [b.id for b in COMPONENTS.boats if b.id not in in_game]


def replace_actions(state: KfState) -> list[Act]:
    """The boats that may replace the Keymelequin for autumn."""
    return [act("replace", boat_id) for boat_id in spare_boats(state)]


def replace(state: KfState, seat: int, boat_id: str, ev: list[Event]) -> None:
    """The Keymelequin leaves; the chosen boat takes its place for autumn and winter."""
    next(b for b in state.boats if b.id == BOAT).id = boat_id

    state.pending = None
    name = BOATS[boat_id].name

    ev.append(Event(f"{state.names[seat]} replaces the Keymelequin with the {name} boat for autumn.", seat))
