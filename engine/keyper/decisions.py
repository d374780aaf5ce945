"""Keyper's open decisions: who must or may decide now, of what kind, under which key (engine.core.Decision).

Keys name one decision instance; none is ever reused in a game, and a key stays the same while its decision is
open across other seats' actions (a transport asks once per (seat, key)):

- ``turn:{season}:{turn}`` - the active seat's turn; ``state.turn`` counts turns over the whole game (it is
  never reset), so season is only there for the reader.
- ``yields:{season}:{turn}:{next_grant}.{steps}`` - one unit of a yield. Every action in a turn takes at least
  one unit off ``state.steps`` or, for a trading post, swaps one for a unit of a fresh grant (raising
  ``next_grant``), so the pair never repeats within a turn: each unit is its own decision.
- ``pay:{season}:{turn}:{next_grant}.{steps}.{items}`` - one item of a cost; a new payment in the same turn
  comes only after a unit was spent, and each payment's items only shrink.
- ``joiner:{season}:{turn}:{board}.{field}`` - one joiner invitation (at most one per turn); the asked invitee
  and every later invitee share it.
- ``fairs:{season}``, ``housing:{season}``, ``display:{season}``, ``rest:{season}`` - the simultaneous choices
  at the end or start of a season, each made at most once per season; a seat keeps its key across its own
  several actions (holding one fair after another) until it is done.
"""

from __future__ import annotations

from engine.core import REACTION, SIMULTANEOUS, TURN, Decision
from engine.keyper.legal import offer_answers, to_act
from engine.keyper.state import State

PHRASES = {
    "turn": "take a turn",
    "joiner": "join or decline",
    "yields": "choose what to take",
    "pay": "choose how to pay",
    "fairs": "hold fairs",
    "housing": "choose which animals to let go",
    "choose_display": "choose a board display",
    "rest": "rest excess keyples on the keyp tile",
}

TURN_PHASES = ("turn", "joiner", "yields", "pay")
"""The phases inside the active player's turn: the play, the joiner offer it opens, the yields it earns and the
payments they make."""

DECLINE = "decline"

# phase: (kind, default, public_choices). Fair and display choices name face-down fairs and secret displays.
_KINDS: dict[str, tuple[str, str | None, bool]] = {
    "turn": (TURN, None, True),
    "yields": (TURN, None, True),
    "pay": (TURN, None, True),
    "joiner": (REACTION, DECLINE, True),
    "fairs": (SIMULTANEOUS, None, False),
    "choose_display": (SIMULTANEOUS, None, False),
    "housing": (SIMULTANEOUS, None, True),
    "rest": (SIMULTANEOUS, None, True),
}


def decisions(state: State) -> list[Decision]:
    """Every open decision: the seats that must decide (to_act's order), then invitees who may answer ahead."""
    if state.phase not in _KINDS:
        return []
    kind, default, public = _KINDS[state.phase]
    key, phrase = decision_key(state), PHRASES[state.phase]
    due = to_act(state)
    ahead = [s for s in _later_invitees(state) if s not in due and offer_answers(state, s)]
    return [Decision(s, kind, key, phrase, True, default, public) for s in due] + [
        Decision(s, kind, key, phrase, False, default, public) for s in ahead
    ]


def _later_invitees(state: State) -> list[int]:
    """Invitees of the open joiner offer queued behind the one asked now, in priority order."""
    offer = state.offer
    if state.phase != "joiner" or offer is None:
        return []
    return offer.candidates[offer.index + 1:]


def decision_key(state: State) -> str:
    """The key of the decision open in this phase (see the module docstring); raises KeyError in game_over."""
    season, turn, phase = state.season, state.turn, state.phase
    if phase == "turn":
        return f"turn:{season}:{turn}"
    progress = f"{state.next_grant}.{len(state.steps)}"
    if phase == "yields":
        return f"yields:{season}:{turn}:{progress}"
    if phase == "pay":
        return f"pay:{season}:{turn}:{progress}.{len(state.payment.items) if state.payment else 0}"
    if phase == "joiner" and state.offer is not None:
        return f"joiner:{season}:{turn}:{state.offer.board}.{state.offer.field}"
    return f"{_SEASONAL[phase]}:{season}"


_SEASONAL = {"fairs": "fairs", "housing": "housing", "choose_display": "display", "rest": "rest"}


def waiting_for(state: State, names: list[str]) -> str:
    """'waiting for Ana and Ben to hold fairs': the seats that must decide and what they are to do."""
    if state.phase == "game_over":
        return "waiting for nobody: the game is over"
    people = [names[s] for s in to_act(state)]
    who = " and ".join([", ".join(people[:-1]), people[-1]]) if len(people) > 1 else "".join(people)
    return f"waiting for {who} to {PHRASES[state.phase]}"
