"""Keythedral's open decisions (engine.core.Decision) and what each is about.

Keys: a law window keeps the key it was opened with (`phase:3:41`, `purchase:3:57`, `repeal:3:58`) until it closes,
and gets a new one when everyone is asked again after a law took effect; an action under way (paying cube by cube,
choosing cubes, a work order) keeps the key it opened with (`give:90`); every other decision is one seat's next step
and is keyed by the step and the number of actions applied so far (`turn:88`), so no key is reused.
"""

from __future__ import annotations

from engine.core import REACTION, SIMULTANEOUS, TURN, Decision
from engine.keythedral import laws
from engine.keythedral.flow import field_terrain
from engine.keythedral.legal import to_act
from engine.keythedral.state import KState
from engine.keythedral.steps import OpenHand, PhaseWindow, PriceChange, PurchaseWindow, RepealWindow
from engine.words import waiting_phrase

_PENDING = {
    "give": "choose the cubes to pay",
    "take": "choose a cube to take",
    "relocate": "move a fenced-off cottage",
    "work-order": "set this round's work order",
    "start": "name the next start player",
    "laws": "choose a law card to play, or go back",
}
_STEPS = {
    "field": "lay the drawn field tile",  # with its terrain, see phrase()
    "cottage": "lay a cottage",
    "order": "choose the next work-order number",
    "worker": "place a worker",
    "turn": "take a phase-3 action",
    "bid": "bid or pass for the start player",
}


def phrase(state: KState) -> str:
    """What is being decided now, without the seat's name."""
    if state.phase == "over":
        return "nothing: the game is over"
    if state.pending:
        if isinstance(state.pending, PriceChange):
            return "choose the extra cube" if state.pending.choice == "add" else "choose the cube to save"
        return _PENDING[state.pending.KIND]
    if state.windows:
        return _window_phrase(state)
    if state.phase == "bidding" and state.bidding and state.bidding.b_to_answer():
        return "match the highest bid or pass"
    if state.phase == "setup" and state.step == "field" and state.drawn:
        return f"lay the drawn {field_terrain(state.drawn)} field tile"
    return _STEPS.get(state.step, "decide")


def _window_phrase(state: KState) -> str:
    """What the top law window asks; raises TypeError on a window of no known kind."""
    top = state.windows[-1]
    if isinstance(top, RepealWindow):
        return f"repeal {laws.TITLES[top.law]} or let it stand"
    if isinstance(top, PurchaseWindow):
        return f"answer {state.names[top.buyer]}'s purchase of {top.space} with a law card, or continue"
    if isinstance(top, PhaseWindow):
        return f"play a law card at the start of phase {top.phase}, or continue"
    raise TypeError(f"not a law window: {top!r}")


def decisions(state: KState) -> list[Decision]:
    """Every open decision: law windows ask several seats at once, everything else one seat."""
    seats = to_act(state)
    what = phrase(state)
    if state.windows and not state.pending:
        top = state.windows[-1]
        kind = SIMULTANEOUS if isinstance(top, PhaseWindow) else REACTION
        return [Decision(s, kind, top.key, what, True, "continue", False) for s in seats]
    if state.phase == "bidding" and not state.pending:
        key = f"bid:{state.round}"
        ahead = later_bidders(state)
        return [Decision(s, TURN, key, what, True, None, True) for s in seats] + [
            Decision(s, TURN, key, "bid or pass for the start player", False, None, True) for s in ahead]
    return [Decision(s, TURN, _key(state), what, True, None, public_choices(state, s)) for s in seats]


def _key(state: KState) -> str:
    """One key per decision: a multi-step action keeps the key it opened with, so its holder is asked once (no law
    window can interrupt it); every other step is keyed by the number of actions applied so far."""
    if state.pending:
        opened = state.seq if state.pending.opened is None else state.pending.opened
        return f"{state.pending.KIND}:{opened}"
    return f"{state.step}:{state.seq}"


def later_bidders(state: KState) -> list[int]:
    """Seats whose bid is still to come after the one bidding now: they may pass ahead (phase five)."""
    if state.phase != "bidding" or state.pending or state.windows or not state.bidding:
        return []
    order = state.bidding.order + [state.bidding.b]
    return order[state.bidding.idx + 1:]


def public_choices(state: KState, seat: int) -> bool:
    """Choices may be shown to all except the law cards one could play (a turn offers only `laws`, T-1)."""
    return not isinstance(state.pending, OpenHand)


def waiting_for(state: KState) -> str:
    """'waiting for Ana and Ben to play a law card ...'."""
    return waiting_phrase(state.names, to_act(state), phrase(state))
