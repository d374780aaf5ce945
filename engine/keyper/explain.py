"""Why an action is not legal now: a sentence and the rule it rests on. Used only after legal_actions refused."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
)
from engine.keyper.legal import laydown_spaces, to_act
from engine.keyper.spaces import (
    SpaceRef,
    field_kind,
    keyp_empty,
    keyples_on,
    may_join,
    parse_space,
    space_colour,
    working_colour,
)
from engine.keyper.state import State
from engine.keyper.vocab import a

TURN = "rulebook p.4, A player's turn"
PLAY = "rulebook pp.4-5, 2a Play a keyple"
JOIN = "rulebook p.5, 2b Joiners"
EXISTING = "rulebook p.5, 2c Existing keyples"
LAYDOWN = "rulebook p.6, 3 Lay down a keyple(s)"
KEYPER = "rulebook p.4, 1 Play a keyper"
YIELD = "rulebook p.4, taking what a keyple earns"
BOAT = "rulebook pp.13-14, note 6 Boat tiles"
SUPPLY = "rulebook p.10, Notes on resources"
FAIRS = "rulebook p.8, End of season note 3"
HOUSING = "rulebook p.8, End of season note 4"
NEXT = "rulebook p.9, Start of next season"
BUILD = "rulebook p.13, notes 4-5 Building and upgrading"
RESOURCES = "rulebook p.10, Notes on resources"

_PHASE_OF: dict[type, tuple[str, str]] = {
    PlayKeyper: ("turn", TURN),
    PlayKeyple: ("turn", TURN),
    LayDown: ("turn", TURN),
    Join: ("joiner", JOIN),
    Decline: ("joiner", JOIN),
    Take: ("yields", YIELD),
    Sell: ("yields", BOAT),
    TakeTile: ("yields", YIELD),
    Skip: ("yields", YIELD),
    HoldFair: ("fairs", FAIRS),
    Done: ("fairs", FAIRS),
    Release: ("housing", HOUSING),
    ChooseDisplay: ("choose_display", NEXT),
    Rest: ("rest", NEXT),
    Build: ("yields", BUILD),
    Upgrade: ("yields", BUILD),
    Exchange: ("yields", YIELD),
    Pay: ("pay", RESOURCES),
}


def why_illegal(state: State, seat: int, action: Action, waiting: str) -> tuple[str, str]:
    """Return (reason, rule) for an action legal_actions did not offer."""
    if state.phase == "game_over":
        return "The game is over.", "rulebook p.9, End of game"
    phase, rule = _PHASE_OF[type(action)]
    if seat not in to_act(state):
        return f"It is not your decision now: {waiting}.", rule
    if phase != state.phase:
        return f"That is not what is being decided now: {waiting}.", rule
    specific: Callable[[State, int, Any], tuple[str, str] | None] | None = _SPECIFIC.get(type(action))
    found = specific(state, seat, action) if specific else None
    return found or ("That is not possible at this moment.", rule)


def _keyper(state: State, seat: int, action: PlayKeyper) -> tuple[str, str] | None:
    """Reasons a keyper cannot go to that board."""
    if not state.players[seat].keyper_home:
        return "Your keyper has already been played this season.", KEYPER
    if not 1 <= action.board <= len(state.boards):
        return f"There is no board {action.board}; boards are 1 to {len(state.boards)}.", KEYPER
    if state.boards[action.board - 1].keyper is not None:
        return f"The keyp field of board {action.board} already holds a keyper.", KEYPER
    return None


def _keyple(state: State, seat: int, action: PlayKeyple) -> tuple[str, str] | None:
    """Reasons a keyple cannot go to that space."""
    if state.players[seat].keyp.get(action.colour, 0) == 0:
        return f"You have no {action.colour} keyple in your keyp.", PLAY
    ref = parse_space(action.space)
    if ref is None:
        return f"'{action.space}' names no space: use board.field like 2.pig, or a plot like v3.", PLAY
    if ref.board is None:
        return _plot_problem(state, seat, ref) or _occupancy_problem(state, seat, ref, action)
    kind = field_kind(state, ref.board, ref.name)
    if kind is None:
        return f"Board {ref.board} shows no '{ref.name}' field this season.", PLAY
    if kind.category == "keyp":
        return "Only keypers may be played onto a keyp field.", PLAY
    return _occupancy_problem(state, seat, ref, action)


def _plot_problem(state: State, seat: int, ref: SpaceRef) -> tuple[str, str] | None:
    """Reasons a plot cannot take a keyple."""
    if ref.name not in state.players[seat].plots:
        return f"Plot {ref.name} on your board has no building tile built on it.", PLAY
    return None


def _occupancy_problem(state: State, seat: int, ref: SpaceRef, action: PlayKeyple) -> tuple[str, str] | None:
    """Reasons tied to the keyples already on the space, or the boat."""
    keyples = keyples_on(state, seat, ref)
    if len(keyples) >= 2:
        return f"{ref} already holds two keyples.", PLAY
    if keyples:
        working = working_colour(keyples[0], space_colour(state, ref))
        if not may_join(action.colour, working):
            extra = "" if working != "white" else " (a white keyple on an uncoloured space is joined only by white)"
            return f"Only {a(working)} or white keyple may join the keyple on {ref}{extra}.", EXISTING
        if action.lay and keyples[0].lying:
            return f"The keyple on {ref} is already lying down; it cannot work a third time.", EXISTING
        if action.boat:
            return f"The river on board {ref.board} already has its boat.", BOAT
    elif action.lay:
        return f"{ref} is empty, so there is no existing keyple to lay down.", EXISTING
    elif ref.name == "river" and not action.boat:
        return "Say which boat to put on the river, e.g. 'play blue 1.river boat-2'.", BOAT
    elif action.boat and ref.name != "river":
        return "Only the river takes a boat.", BOAT
    elif action.boat:
        return f"{action.boat} is not one of this season's free boats.", BOAT
    return None


def _laydown(state: State, seat: int, action: LayDown) -> tuple[str, str] | None:
    """Reasons a lay-down is refused."""
    if not keyp_empty(state, seat):
        return "You may lay keyples down only once your keyper and all your keyples have been played.", LAYDOWN
    ref = parse_space(action.space)
    if ref is None:
        return f"'{action.space}' names no space.", LAYDOWN
    exists = ref.board is None or 1 <= ref.board <= len(state.boards)
    standing = sum(not k.lying for k in keyples_on(state, seat, ref)) if exists else 0
    if standing == 0:
        return f"There is no standing keyple on {ref} to lay down.", LAYDOWN
    if ref not in laydown_spaces(state, seat):
        return ("You must first lay down the standing keyples on your own board and your claimed board.",
                LAYDOWN)
    if standing < action.count:
        return f"Only one keyple stands on {ref}.", LAYDOWN
    return None


def _join(state: State, seat: int, action: Join) -> tuple[str, str] | None:
    """Reasons a join is refused."""
    assert state.offer is not None
    if state.players[seat].keyp.get(action.colour, 0) == 0:
        return f"You have no {action.colour} keyple in your keyp.", JOIN
    return f"Only {a(state.offer.colour)} or white keyple may join here.", JOIN


def _take(state: State, seat: int, action: Take) -> tuple[str, str] | None:
    """Reasons a take is refused."""
    step = state.steps[0]
    if action.resource not in step.options:
        return f"This unit offers {' or '.join(step.options) or 'no resource'}, not {action.resource}.", YIELD
    if action.resource in state.boat_sold[seat]:
        return f"You sold {action.resource} to a boat this turn, so you cannot also take it.", BOAT
    return f"The supply has no {action.resource} left.", SUPPLY


def _sell(state: State, seat: int, action: Sell) -> tuple[str, str] | None:
    """Reasons a sale is refused."""
    step = state.steps[0]
    if step.kind != "boat" or action.resource not in step.options:
        return f"Only a boat buys {action.resource}, and only the types it shows.", BOAT
    if action.resource in state.boat_took[seat]:
        return f"You took {action.resource} from a boat this turn, so you cannot also sell it.", BOAT
    return f"You have no {action.resource} to sell.", BOAT


def _tile(state: State, seat: int, action: TakeTile) -> tuple[str, str] | None:
    """Reasons a tile cannot be taken."""
    if state.steps[0].kind != "tile":
        return "This unit is not a country tile.", YIELD
    return f"{action.tile} is not in the display.", "rulebook p.13, note 2 Country tiles"


def _hold(state: State, seat: int, action: HoldFair) -> tuple[str, str] | None:
    """Reasons a fair cannot be held."""
    return (f"You cannot hold {action.fair}{'' if action.points is None else ':' + str(action.points)} now: "
            "it is not yours, not for this season, or you lack what it needs beside the fairs already held.", FAIRS)


_SPECIFIC: dict[type, Callable[[State, int, Any], tuple[str, str] | None]] = {
    PlayKeyper: _keyper,
    PlayKeyple: _keyple,
    LayDown: _laydown,
    Join: _join,
    Take: _take,
    Sell: _sell,
    TakeTile: _tile,
    HoldFair: _hold,
}
