"""Why an action is refused, in players' words: explain() gives a refusal's reason and the rule it rests on.

What a legal action would do (check) is engine.keythedral.outcome.
"""

from __future__ import annotations

from engine.keythedral import decide, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.actions import Act
from engine.keythedral.components import COMPONENTS, CRAFTSMEN
from engine.keythedral.legal import legal
from engine.keythedral.lookup import LAW_BY_KEY
from engine.keythedral.state import KState

RULES = {
    "field": "rules: Set up (field tiles); ruling T-4",
    "cottage": "rules: Set up (cottage tiles); ruling T-5",
    "order": "rules: Phase one",
    "worker": "rules: Phase one; ruling T-8",
    "idle": "rules: Phase one; ruling T-8",
    "buy": "rules: Phase three, action one",
    "house": "rules: Phase three, action two",
    "fence": "rules: Phase three, action three; ruling T-9",
    "unfence": "rules: Phase three, action three",
    "smith": "rules: Phase three, action four",
    "glass": "rules: Phase three, action four",
    "gold": "rules: Phase three, action four",
    "trade": "rules: Phase three, action five",
    "procure": "rules: Phase three, action six",
    "pass": "rules: Phase three",
    "give": "rules: Phase three",
    "take": "rules: Phase three, action five",
    "add": "rules: Appendix, law card 2 (Price Increase)",
    "drop": "rules: Appendix, law card 3 (Price Decrease)",
    "relocate": "rules: Phase three, action three; ruling T-10",
    "bid": "rules: Phase five; ruling T-24",
    "match": "rules: Phase five",
    "start": "rules: Phase five",
    "continue": "ruling T-13",
    "laws": "ruling T-13",
    "back": "ruling T-13",
    "withdraw": "rules: Appendix, law card 2 (Price Increase); ruling T-31",
}
VERBS = frozenset(RULES) | {"law"}


def explain(state: KState, seat: int, action: Act) -> tuple[str, str]:
    """A sentence saying why this action is not legal now, and the rule (the action is known to be illegal)."""
    verb = action.verb
    rule = RULES.get(verb, "ruling T-13")
    if verb == "law":
        return _explain_law(state, seat, action)
    now = {a.verb for a in legal(state, seat)} | _step_verbs(state)
    if verb not in now:
        step = sorted(now)[0] if now else "continue"
        return f"Now is the time to {phase_words(state)}; '{action}' does not fit here.", RULES.get(step, rule)
    if state.pending and verb not in ("give", "take", "add", "drop", "relocate", "order", "start"):
        return f"First finish what is under way: {phase_words(state)}.", rule
    if verb in ("buy",) and action.args:
        return _explain_buy(state, seat, action.args[0]), rule
    if verb == "house":
        if state.moratorium not in (None, seat):
            return "House Moratorium is in force: only its player may build houses this round.", laws.rule(12)
        return "A house needs 1 black and 1 brown cube, and one of your cottages (not already a house).", rule
    if verb == "fence":
        if state.fences_built[seat] >= COMPONENTS.fences:
            return "You have laid all three of your fences.", rule
        return ("A fence costs 1 brown cube and goes between a square holding a cottage or house and a placed "
                "field, where no fence stands yet."), rule
    if verb == "unfence":
        return "Taking down a fence costs 2 red cubes, and there must be a fence on that edge.", rule
    if verb in sup.CRAFTSMEN:
        craftsman = CRAFTSMEN[verb]
        return (f"The craftsman has no {craftsman.colour} cube left, or you hold fewer than {craftsman.price} "
                "cubes."), rule
    if verb == "trade":
        return "The trader wants 2 cubes: you hold fewer.", rule
    if verb == "procure":
        return "There must be a law card on that space, and you need a cube to pay for it.", rule
    if verb == "field":
        return "The field must go on a free lattice point next to a field or a cottage.", rule
    if verb == "cottage":
        return "A cottage goes on an empty square next to at least one field (not the Keythedral's).", rule
    if verb == "worker":
        return ("A worker goes into a field touching the cottage or house whose number is being played, with no "
                "fence between and no worker in it yet."), rule
    if verb == "order":
        chosen = ", ".join(str(m.number) for m in state.markers) or "none yet"
        return f"Choose a number from 1 to 5 not chosen yet this round (chosen: {chosen}).", rule
    if verb == "bid":
        return "A bid must beat the highest bid so far and you cannot bid more cubes than you hold.", rule
    if verb == "match":
        return "Only the player holding the start-player marker matches, last, and needs that many cubes.", rule
    return f"'{action}' is not possible now: {phase_words(state)}.", rule


_TURN_VERBS = frozenset({"buy", "house", "fence", "unfence", "smith", "glass", "gold", "trade", "procure", "pass"})
_SETUP_VERBS = frozenset({"field", "cottage"})
_BID_VERBS = frozenset({"bid", "match", "pass"})


def _step_verbs(state: KState) -> frozenset[str]:
    """The verbs the current step is about, possible now or not (a phase-3 turn is about buying, even when the
    seat cannot pay)."""
    if state.pending or state.windows:
        return frozenset()
    return {"actions": _TURN_VERBS, "setup": _SETUP_VERBS, "bidding": _BID_VERBS}.get(state.phase, frozenset())


def _explain_buy(state: KState, seat: int, space: str) -> str:
    """Why a purchase is refused."""
    found = [s for s in state.mat if s.space == space]
    if not found:
        return f"There is no space {space} on the Keythedral mat; spaces are named 1.1 to 5.2."
    target = found[0]
    if target.taken is not None:
        return f"The seat on {space} is already taken by {state.names[target.taken]}."
    if target.stage != flow.current_stage(state):
        return f"Stage {flow.current_stage(state)} is being built: its seats must all be taken first."
    cost = sup.words(flow.tile_cost(target.tile))
    return f"You cannot pay the seat on {space}: it costs {cost}."


def _explain_law(state: KState, seat: int, action: Act) -> tuple[str, str]:
    """Why a law card cannot be played."""
    key = action.args[0] if action.args else ""
    if key not in laws.NUMBERS:
        return f"There is no law card '{key}'.", "rules: Appendix"
    number = laws.NUMBERS[key]
    if number not in state.hands[seat]:
        return f"You do not hold {laws.TITLES[number]}.", laws.rule(number)
    return (f"{laws.TITLES[number]} cannot be played like that now: it is played {LAW_BY_KEY[key].when}.",
            laws.rule(number))


def phase_words(state: KState) -> str:
    """What the game is waiting for, in words (without names)."""
    return decide.phrase(state)
