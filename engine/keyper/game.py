"""Keyper behind the shared engine contract (engine.core.Game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import (
    JSON,
    AmbiguousAction,
    Event,
    IllegalAction,
    PlayerScore,
    Scoreboard,
    ScoreLine,
    Verdict,
)
from engine.keyper import flow, legal, scoring
from engine.keyper.actions import Action, LayDown, PlayKeyple, parse_syntax, public_notation
from engine.keyper.apply import apply_in_place, forecast
from engine.keyper.explain import why_illegal
from engine.keyper.spaces import PLOT_IDS, season_name
from engine.keyper.state import State, clone, from_data, to_data

OPTIONS = {"unlimited_supply": False}

_WAITING = {
    "turn": "{names} to take a turn",
    "joiner": "{names} to join or decline",
    "yields": "{names} to choose what to take",
    "pay": "{names} to choose how to pay",
    "fairs": "{names} to hold fairs",
    "housing": "{names} to choose which animals to let go",
    "choose_display": "{names} to choose a board display",
    "rest": "{names} to rest excess keyples on the keyp tile",
    "game_over": "nobody: the game is over",
}


class KeyperGame:
    """The Keyper engine: pure functions over State, named as in engine.core.Game."""

    name = "keyper"
    min_players = 2
    max_players = 4

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> State:
        """Return the opening state; raises ValueError on a bad player count or an unknown option."""
        opts = dict(OPTIONS)
        for key, value in (options or {}).items():
            if key not in OPTIONS:
                raise ValueError(f"Unknown Keyper option '{key}'; known: {', '.join(OPTIONS)}.")
            opts[key] = value
        return flow.setup(players, seed, opts)

    def to_act(self, state: State) -> list[int]:
        """Seats that must decide now."""
        return legal.to_act(state)

    def waiting_for(self, state: State) -> str:
        """'waiting for Ana to join or decline' style phrase."""
        people = [state.players[s].name for s in self.to_act(state)]
        names = " and ".join([", ".join(people[:-1]), people[-1]]) if len(people) > 1 else "".join(people)
        return "waiting for " + _WAITING[state.phase].format(names=names)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every action this seat may take now."""
        return legal.legal_actions(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Return the next state and events; raises IllegalAction and leaves state untouched."""
        self._require_legal(state, seat, action)
        new = clone(state)
        return new, apply_in_place(new, seat, action)

    def apply_in_place(self, state: State, seat: int, action: Action) -> list[Event]:
        """Like apply but mutating state (for play-outs); raises IllegalAction before changing anything."""
        self._require_legal(state, seat, action)
        return apply_in_place(state, seat, action)

    def apply_choice(self, state: State, seat: int, options: list[Action], index: int) -> list[Event]:
        """Apply options[index] in place, where options is legal_actions(state, seat) for this very state."""
        return apply_in_place(state, seat, options[index])

    def _require_legal(self, state: State, seat: int, action: Action) -> None:
        """Raise IllegalAction with the reason when the action is not among the seat's legal actions."""
        options = legal.legal_actions(state, seat)
        if action not in options:
            reason, rule = why_illegal(state, seat, action, self.waiting_for(state))
            raise IllegalAction(reason, rule, [str(a) for a in options[:5]] if len(options) <= 5 else [])

    def check(self, state: State, seat: int, action: Action) -> Verdict:
        """What apply would do, without doing it."""
        try:
            _, events = self.apply(state, seat, action)
        except IllegalAction as exc:
            return Verdict(False, exc.reason, exc.rule)
        outcome = [e.text for e in events]
        if isinstance(action, PlayKeyple) and state.phase == "turn":
            outcome += [line for line in [forecast(state, seat, action)] if line]
        return Verdict(True, f"'{action}' is legal.", "legal actions", tuple(outcome))

    def parse(self, state: State, seat: int, text: str) -> Action:
        """Read notation, completing a field without a board number when only one board fits."""
        action = parse_syntax(text)
        if not isinstance(action, PlayKeyple | LayDown) or "." in action.space or action.space in PLOT_IDS:
            return action
        fits = [a for a in self.legal_actions(state, seat) if type(a) is type(action)
                and a.space.split(".")[-1] == action.space and replace(a, space=action.space) == action]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            raise AmbiguousAction(text, [str(a) for a in fits])
        return action

    def format(self, action: Action) -> str:
        """The canonical notation of an action."""
        return str(action)

    def public_notation(self, action: Action) -> str:
        """The notation as everyone may see it (a secret display choice is not named)."""
        return public_notation(action)

    def view(self, state: State, seat: int | None) -> JSON:
        """What a seat may see; None gives the public view. Hidden: others' fairs, the bag, pending choices."""
        data: JSON = to_data(state)
        del data["rng"]
        data["bag"] = len(state.bag)
        data["stacks"] = len(state.stacks)
        for i, player in enumerate(data["players"]):
            if i != seat:
                player["hidden_fairs"] = len(state.players[i].hidden_fairs)
                player["chosen_display"] = state.players[i].chosen_display is not None
        data["season_name"] = season_name(state)
        data["to_act"] = self.to_act(state)
        data["waiting_for"] = self.waiting_for(state)
        data["viewer"] = seat
        data["legal"] = [str(a) for a in self.legal_actions(state, seat)] if seat is not None else []
        return data

    def score(self, state: State) -> Scoreboard:
        """Each player's score with their best allocation, ranked with the rulebook's tie-breaks (p.9)."""
        scores = []
        for seat, player in enumerate(state.players):
            lines = scoring.score_lines(scoring.player_board(state, seat))
            scores.append(PlayerScore(seat, player.name, tuple(ScoreLine(ln.label, ln.points, ln.allocated)
                                                               for ln in lines)))
        keys = {s.seat: (s.total, scoring.tie_break_key(state.players[s.seat].goods)) for s in scores}
        ranked = sorted(scores, key=lambda s: keys[s.seat], reverse=True)
        return Scoreboard(tuple(ranked), final=state.phase == "game_over",
                          tie_break=scoring.explain_tie(ranked, {s: k[1] for s, k in keys.items()}))

    def to_json(self, state: State) -> JSON:
        """The whole state as JSON-ready data."""
        data: JSON = to_data(state)
        return data

    def from_json(self, data: JSON) -> State:
        """Rebuild a state; raises ValueError on malformed data."""
        try:
            return from_data(State, data)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Keyper state: {exc}") from exc

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return state.phase == "game_over"

    def is_undo_barrier(self, before: State, after: State) -> bool:
        """A tile or boat draw, a fair turned face up, or secret displays revealed: no undo past it."""
        pairs = zip(after.players, before.players, strict=True)
        revealed_fair = any(len(a.hidden_fairs) != len(b.hidden_fairs) for a, b in pairs)
        displays_shown = before.phase == "choose_display" and after.phase != "choose_display"
        return before.rng != after.rng or revealed_fair or displays_shown

    def pending_answers(self, state: State, seat: int) -> list[Action]:
        """Join or decline answers a queued invitee may give before its turn to answer comes."""
        return legal.offer_answers(state, seat)


GAME = KeyperGame()
