"""Why an action is not legal now: a sentence and the rule it rests on. Used only after legal_actions refused.

Every refusal says what is wrong or missing: the resource a player lacks, the colour a space wants, the
season a fair belongs to. The generic sentence at the end of why_illegal is a last resort that the tests in
tests/keyper/test_refusals.py keep from being reached.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.keyper import explain_turn as turn
from engine.keyper import explain_units as units
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
from engine.keyper.legal import to_act
from engine.keyper.rulerefs import BOAT, BUILD, FAIRS, HOUSING, JOIN, NEXT, RESOURCES, TURN, YIELD
from engine.keyper.state import State

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

# Why an action of a phase cannot be taken while the table is deciding something else.
_NOT_NOW = {
    "turn": "Playing a keyper or a keyple, or laying keyples down, is what a player does on their own turn, and no "
            "turn is being played now",
    "joiner": "There is no invitation to join open now",
    "yields": "There is no earned unit to spend now (take, sell, tile, exchange, build, upgrade and skip spend "
              "the units a keyple earns)",
    "pay": "There is no build or upgrade being paid for now",
    "fairs": "Fairs are held only at the end of a season, after the last lay-down turns",
    "housing": "Animals are let go only when they are housed at the end of a season, and only when not all fit",
    "choose_display": "Board displays are chosen only at the start of a season",
    "rest": "Keyples rest on the keyp tile only at the start of a season, when a player has more than the team "
            "limit",
}


def why_illegal(state: State, seat: int, action: Action, waiting: str) -> tuple[str, str]:
    """Return (reason, rule) for an action legal_actions did not offer."""
    if state.phase == "game_over":
        return "The game is over: no more actions are taken.", "rulebook p.9, End of game"
    phase, rule = _PHASE_OF[type(action)]
    if seat not in to_act(state):
        return f"It is not your decision now: {waiting}.", rule
    if phase != state.phase:
        return f"{_NOT_NOW[phase]}: {waiting}.", rule
    specific: Callable[[State, int, Any], tuple[str, str] | None] | None = _SPECIFIC.get(type(action))
    found = specific(state, seat, action) if specific else None
    return found or (f"'{action}' is not one of your choices now: {waiting}.", rule)


_SPECIFIC: dict[type, Callable[[State, int, Any], tuple[str, str] | None]] = {
    PlayKeyper: turn.keyper,
    PlayKeyple: turn.keyple,
    LayDown: turn.laydown,
    Join: turn.join,
    Take: units.take,
    Sell: units.sell,
    TakeTile: units.tile,
    Build: units.build,
    Upgrade: units.upgrade,
    Exchange: units.exchange,
    Pay: units.pay,
    HoldFair: turn.hold,
    Release: turn.release,
    ChooseDisplay: turn.display,
    Rest: turn.rest,
}
