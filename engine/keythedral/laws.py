"""Law cards: their keys, when each may be played (rulings T-13, T-15, T-18) and which arguments each takes."""

from __future__ import annotations

from engine.keythedral.components import COMPONENTS
from engine.keythedral.state import KState
from engine.keythedral.steps import Moment, PhaseWindow, Played, RepealWindow

KEYS = {law.number: law.key for law in COMPONENTS.laws}  # engine/keythedral/data/laws.toml
NUMBERS = {key: number for number, key in KEYS.items()}
TITLES = {law.number: law.title for law in COMPONENTS.laws}

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


def shown_args(args: tuple[str, ...] | list[str]) -> list[str]:
    """A law card's arguments as written in its announcement: labels, spaces and cottages in capitals ('M13',
    '2.3', 'BLUE3'), words as they are."""
    return [a.upper() if a[-1:].isdigit() or a.endswith("+") else a for a in args]


def in_force(state: KState) -> Played | None:
    """The last law card played, once it has taken effect, while it may still be repealed (T-15); else None."""
    return next((p for p in state.played if p.acted), None)


def moment(state: KState) -> Moment:
    """Where play stands, as the time for a repeal counts it (T-15): this changes when the next player starts their
    turn (a phase's opening window closes, a seat is taken and the next turn begins, a phase or round ends); the
    steps of play that also end that time (a worker placed, a number chosen, a bid, an action) end it in apply."""
    return Moment(state.round, state.phase, state.step, any(isinstance(w, PhaseWindow) for w in state.windows),
                  sum(len(t) for t in state.tiles))


def repeal_window(state: KState) -> RepealWindow | None:
    """The repeal window on top, asked now, if there is one."""
    top = state.windows[-1] if state.windows else None
    return top if isinstance(top, RepealWindow) else None


def repealable(state: KState, seat: int) -> Played | None:
    """The card this seat may repeal now: the one waiting in the repeal window it is asked in, or the last card
    another player played, while its time lasts (T-15); None when there is none."""
    window = repeal_window(state)
    if window is not None:
        return state.played[-1] if seat in window.seats else None
    card = in_force(state)
    return card if card and card.moment is not None and card.seat != seat else None
