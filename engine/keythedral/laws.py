"""Law cards: their keys, when each may be played (rulings T-13, T-15, T-18) and which arguments each takes."""

from __future__ import annotations

from typing import Any

from engine.keythedral.state import Json, KState

KEYS = {
    1: "work-order", 2: "price-increase", 3: "price-decrease", 4: "upgrade-cottage", 5: "substitution",
    6: "cottage-number", 7: "craft-bargain", 8: "unexpected-harvest", 9: "broken-fences", 10: "repeal",
    11: "unsafe-fence", 12: "house-moratorium", 13: "design-change", 14: "double-production", 15: "bargain",
    16: "sale", 17: "downgrade-house", 18: "good-harvest", 19: "poor-harvest", 20: "start-order",
}
NUMBERS = {key: number for number, key in KEYS.items()}
TITLES = {
    1: "Work Order", 2: "Price Increase", 3: "Price Decrease", 4: "Upgrade Cottage", 5: "Substitution",
    6: "Cottage Number", 7: "Craft Bargain", 8: "Unexpected Harvest", 9: "Broken Fences", 10: "Repeal Law",
    11: "Unsafe Fence", 12: "House Moratorium", 13: "Design Change", 14: "Double Production", 15: "Bargain",
    16: "Sale", 17: "Downgrade House", 18: "Good Harvest", 19: "Poor Harvest", 20: "Start Order",
}

ANY_TIME = frozenset({"craft-bargain", "unsafe-fence", "design-change"})
REPEAL = frozenset({"repeal"})  # offered wherever a card may be played; its arguments say whether a card is there
DURING = {  # what a holder may play at any moment of a phase, asked or not (T-13): out of turn too
    "workers": ANY_TIME | {"broken-fences", "house-moratorium"} | REPEAL,
    "harvest": ANY_TIME | {"house-moratorium"} | REPEAL,
    "actions": ANY_TIME | REPEAL,
    "bidding": ANY_TIME | REPEAL,
}
PHASE_START = {
    1: frozenset({"work-order", "start-order"}) | DURING["workers"],
    2: frozenset({"unexpected-harvest", "double-production", "good-harvest", "poor-harvest",
                  "start-order"}) | DURING["harvest"],
    3: frozenset({"house-moratorium", "start-order"}) | DURING["actions"],
    5: frozenset({"start-order"}) | DURING["bidding"],
}
PURCHASE = frozenset({"price-increase"}) | DURING["actions"]
PLACEMENT = frozenset({"cottage-number"}) | DURING["workers"]
OWN_TURN = frozenset({"price-decrease", "upgrade-cottage", "substitution", "bargain", "sale",
                      "downgrade-house"}) | DURING["actions"]

RULE = "rules: Appendix, law card {number} ({title}); ruling T-13"


def rule(number: int) -> str:
    """The rule reference of a law card."""
    return RULE.format(number=number, title=TITLES[number])


def in_force(state: KState) -> Json | None:
    """The last law card played, once it has taken effect, while it may still be repealed (T-15); else None."""
    return next((p for p in state.played if "before" in p), None)


def moment(state: KState) -> list[Any]:
    """Where play stands, as the time for a repeal counts it (T-15): this changes when the next player starts their
    turn (a phase's opening window closes, a seat is taken and the next turn begins, a phase or round ends); the
    steps of play that also end that time (a worker placed, a number chosen, a bid, an action) end it in apply."""
    return [state.round, state.phase, state.step, any(w["kind"] == "phase" for w in state.windows),
            sum(len(t) for t in state.tiles)]


def repealable(state: KState, seat: int) -> Json | None:
    """The card this seat may repeal now: the one waiting in the repeal window it is asked in, or the last card
    another player played, while its time lasts (T-15); None when there is none."""
    if state.windows and state.windows[-1]["kind"] == "repeal":
        return state.played[-1] if seat in state.windows[-1]["seats"] else None
    card = in_force(state)
    return card if card and card["moment"] is not None and card["seat"] != seat else None
