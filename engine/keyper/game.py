"""Keyper behind the shared engine contract (engine.core.Game)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from engine.core import (
    JSON,
    AmbiguousAction,
    Decision,
    Event,
    Game,
    IllegalAction,
    PlayerScore,
    Scoreboard,
    ScoreLine,
    Verdict,
    check_by_applying,
    clone,
)
from engine.keyper import decisions, flow, hidden, legal, scoring, view
from engine.keyper.actions import Action, LayDown, PlayKeyple, parse_syntax, public_notation
from engine.keyper.apply import apply_in_place, forecast
from engine.keyper.economy import items_words
from engine.keyper.explain import why_illegal
from engine.keyper.spaces import PLOT_IDS, comps
from engine.keyper.state import Payment, State, from_data
from engine.records import to_data, to_text

OPTIONS = {"unlimited_supply": False}
SECRET_OUTCOME = "Then something is drawn at random or revealed: you will see what when it is played."


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

    def decisions(self, state: State) -> list[Decision]:
        """Every open decision: to_act's seats (must), then invitees who may answer ahead (engine.keyper.decisions)."""
        return decisions.decisions(state)

    def to_act(self, state: State) -> list[int]:
        """Seats that must decide now."""
        return legal.to_act(state)

    def waiting_for(self, state: State) -> str:
        """'waiting for Ana to join or decline' style phrase."""
        return decisions.waiting_for(state, [p.name for p in state.players])

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
        return check_by_applying(self, state, seat, action)

    def judge(self, state: State, seat: int, action: Action, after: State, events: list[Event]) -> Verdict:
        """The verdict on a legal action tried: what the seat sees happen, a keyple play's forecast, and nothing
        past a draw or reveal."""
        outcome = [e.text for e in events if e.visible_to(seat)]
        if self.is_undo_barrier(state, after):  # what follows a draw or a reveal must not be told in advance
            outcome = outcome[:1] + [SECRET_OUTCOME]
        elif isinstance(action, PlayKeyple) and state.phase == "turn":
            outcome += [line for line in [forecast(state, seat, action)] if line]
        if after.payment is not None and after.payment.seat == seat and not self.is_undo_barrier(state, after):
            outcome += [_payment_words(after.payment)]
        return Verdict(True, f"'{action}' is legal.", "legal actions", tuple(outcome))

    def parse(self, state: State, seat: int, text: str, legal_now: list[Action] | None = None) -> Action:
        """Read notation, completing a field without a board number when only one board fits (legal_now: the
        seat's legal actions, when the caller has them)."""
        action = parse_syntax(text)
        if not isinstance(action, PlayKeyple | LayDown) or "." in action.space or action.space in PLOT_IDS:
            return action
        options = self.legal_actions(state, seat) if legal_now is None else legal_now
        fits = [a for a in options if type(a) is type(action)
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

    def view(self, state: State, seat: int | None, legal_now: list[Action] | None = None) -> JSON:
        """What a seat may see (None: the public), field by listed field, with its legal actions (legal_now: those,
        when the caller has them); engine.keyper.view's KeyperView, which says what is hidden."""
        return dict(view.view(state, seat, legal_now))

    def score(self, state: State, viewer: int | None) -> Scoreboard:
        """Each player's score with their best allocation, ranked with the rulebook's tie-breaks (p.9).

        Scoring reads only what everyone sees (built tiles, goods, keyples, shipping, fairs held face up, board
        displays shown), never face-down fairs, secret displays, the bag or the stacks: every viewer, None
        included, gets the same scoreboard.
        """
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

    def to_json_text(self, state: State) -> str:
        """to_json's data as JSON text (what a snapshot stores), written straight from the state's records."""
        return to_text(state)

    def from_json(self, data: JSON) -> State:
        """Rebuild a state; raises ValueError on malformed data."""
        try:
            return from_data(State, data)
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a Keyper state: {exc}") from exc

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return state.phase == "game_over"

    def may_repeat(self, action: Action) -> bool:
        """No hint: the table tries each answer to see whether it comes again."""
        return True

    def is_undo_barrier(self, before: State, after: State) -> bool:
        """A tile or boat draw, a fair turned face up, or secret displays revealed: no undo past it."""
        pairs = zip(after.players, before.players, strict=True)
        revealed_fair = any(len(a.hidden_fairs) != len(b.hidden_fairs) for a, b in pairs)
        displays_shown = before.phase == "choose_display" and after.phase != "choose_display"
        return before.rng != after.rng or revealed_fair or displays_shown

    def pending_answers(self, state: State, seat: int) -> list[Action]:
        """Join or decline answers a queued invitee may give before its turn to answer comes."""
        return legal.offer_answers(state, seat)

    def playout_weights(self, state: State, seat: int, legal: list[Action]) -> list[float] | None:
        """Play-outs choose uniformly."""
        return None

    def playout_worth(self, state: State, seat: int) -> float:
        """The projected score says it all."""
        return 0.0

    def resample_hidden(self, state: State, viewer: int | None, seed: int) -> State:
        """A new state the viewer cannot tell from this one, its hidden information redrawn (engine.keyper.hidden)."""
        return hidden.resample_hidden(state, viewer, seed)


GAME = KeyperGame()

_CHECK: Game[State, Action] = GAME
"""mypy proves here that KeyperGame satisfies the engine contract."""


def _payment_words(payment: Payment) -> str:
    """What a build or upgrade still needs: 'Building the Windmill on f3: next you pay 1 log and 1 rock, ...'."""
    tile = comps().tiles.get(payment.tile or "")
    what = f"the {tile.name} on {payment.plot}" if tile else f"the tile on {payment.plot}"
    doing = "Building" if payment.effect == "build" else "Upgrading"
    return f"{doing} {what}: next you pay {items_words(payment.items)}, one item at a time (`pay RESOURCE`)."
