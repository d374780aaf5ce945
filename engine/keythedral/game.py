"""KeythedralGame: the engine contract (engine.core.Game) over the Keythedral modules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import (
    JSON,
    Decision,
    Event,
    Game,
    IllegalAction,
    InvalidAction,
    PlayerScore,
    Rng,
    Scoreboard,
    ScoreLine,
    Verdict,
    check_by_applying,
    clone,
)
from engine.keythedral import apply as apply_mod
from engine.keythedral import decide, explain, flow, playout
from engine.keythedral import supply as sup
from engine.keythedral.actions import Act, act, read
from engine.keythedral.legal import legal, to_act
from engine.keythedral.state import KState
from engine.keythedral.state import from_json as state_from_json
from engine.keythedral.state import to_json as state_to_json
from engine.keythedral.view import view as build_view
from engine.records import to_text
from engine.words import WordsGame, match_words

RULE_END = "rules: The winner"

NEVER_TWICE = frozenset({"worker", "order", "start", "laws"})  # verbs the same seat cannot take twice in a row


class KeythedralGame(WordsGame[KState, Act]):
    """The Keythedral engine: pure functions over KState, named as in engine.core.Game."""

    name = "keythedral"
    min_players = 2
    max_players = 5

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> KState:
        """The opening state, set-up's first field tile drawn; raises ValueError on bad players or options."""
        return flow.setup(players, seed, options)

    def decisions(self, state: KState) -> list[Decision]:
        """Every open decision."""
        return decide.decisions(state)

    def to_act(self, state: KState) -> list[int]:
        """Seats that must decide now."""
        return to_act(state)

    def waiting_for(self, state: KState) -> str:
        """'waiting for Ana to take a phase-3 action'."""
        return decide.waiting_for(state)

    def legal_actions(self, state: KState, seat: int) -> list[Act]:
        """Every action this seat may take now."""
        return legal(state, seat)

    def pending_answers(self, state: KState, seat: int) -> list[Act]:
        """A later bidder may pass ahead of its turn to bid (kept until that turn comes)."""
        return [act("pass")] if seat in decide.later_bidders(state) else []

    def _carry_out(self, state: KState, seat: int, action: Act) -> list[Event]:
        """Apply a legal action in place (engine.words.WordsGame)."""
        return apply_mod.apply(state, seat, action)

    def check(self, state: KState, seat: int, action: Act) -> Verdict:
        """What apply would do; a step that draws or reveals is described, never simulated."""
        return check_by_applying(self, state, seat, action)

    def judge(self, state: KState, seat: int, action: Act, after: KState, events: list[Event]) -> Verdict:
        """The verdict on a legal action tried: what the seat sees happen, or only that something is drawn."""
        rule = explain.RULES.get(action.verb, "ruling T-13")
        if _draws_or_reveals(state, after):
            return Verdict(True, f"'{action}' is legal.", rule, ("Then something hidden is drawn or revealed.",))
        return Verdict(True, f"'{action}' is legal.", rule, tuple(e.text for e in events if e.visible_to(seat)))

    def _require_legal(self, state: KState, seat: int, action: Act) -> None:
        """Raise IllegalAction saying why, when the action is not among the seat's legal actions."""
        options = legal(state, seat)
        if action in options:
            return
        if state.phase == "over":
            raise IllegalAction("The game is over.", RULE_END)
        if seat not in to_act(state):
            raise IllegalAction(f"It is not your decision now: {self.waiting_for(state)}.", "rules: The game")
        reason, rule = explain.explain(state, seat, action)
        few = [str(a) for a in options] if len(options) <= 6 else []
        raise IllegalAction(reason, rule, few)

    # seeing
    def view(self, state: KState, seat: int | None, legal_now: list[Act] | None = None) -> JSON:
        """What this seat may see (None: the public), with its legal actions (legal_now: those, when the caller has
        them)."""
        if seat is None:
            return build_view(state, seat, None)
        moves = [str(a) for a in (legal(state, seat) if legal_now is None else legal_now)]
        return build_view(state, seat, moves)

    def score(self, state: KState, viewer: int | None) -> Scoreboard:
        """Seat values, then the cube-value tie-break; equal on both: a shared place (The winner)."""
        players = []
        for s in range(state.n):
            values = [t[2] for t in state.tiles[s]]
            players.append(PlayerScore(s, state.names[s], (
                ScoreLine("Seats in the Keythedral", sum(values), " + ".join(map(str, values)) or "none"),
            )))
        value = {s: sup.cube_value(state.cubes[s]) for s in range(state.n)}
        ranked = tuple(sorted(players, key=lambda p: (-p.total, -value[p.seat], p.seat)))
        return Scoreboard(ranked, final=self.is_over(state), tie_break=_tie_break(ranked, value))

    def parse(self, state: KState, seat: int, text: str, legal_now: list[Act] | None = None) -> Act:
        """Read notation against the seat's legal actions (legal_now: those, when the caller has them);
        InvalidAction, IllegalAction or AmbiguousAction."""
        action = read(text)
        if not action.words or action.verb not in explain.VERBS:
            raise InvalidAction(f"'{text}' is not a Keythedral action; try `buy 1.2`, `worker M13`, `pass`, or "
                                "see /rules notation.")
        options = legal(state, seat) if legal_now is None else legal_now
        found = match_words(action, options or self.pending_answers(state, seat), text)
        if found is None:
            self._require_legal(state, seat, action)
        return found or action

    def public_notation(self, action: Act) -> str:
        """Every Keythedral action is public once taken (a law card is revealed as it is played)."""
        return str(action)

    # data
    def to_json(self, state: KState) -> JSON:
        """The whole state as JSON-ready data."""
        return state_to_json(state)

    def to_json_text(self, state: KState) -> str:
        """to_json's data as JSON text (what a snapshot stores), written straight from the state."""
        return to_text(state)

    def from_json(self, data: JSON) -> KState:
        """Rebuild a state; raises ValueError on malformed data."""
        return state_from_json(data)

    def is_over(self, state: KState) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def may_repeat(self, action: Act) -> bool:
        """Never twice in a row: a worker on a field (the field is then taken), a work-order number or a start
        colour (each chosen once), opening one's law cards (then the seat picks among them or goes back)."""
        return action.verb not in NEVER_TWICE

    def is_undo_barrier(self, before: KState, after: KState) -> bool:
        """A random draw or a reveal: a field tile drawn, tiles turned up, a law card taken, the generator used."""
        return (before.rng != after.rng or before.drawn != after.drawn
                or len(before.field_stack) != len(after.field_stack)
                or [s["up"] for s in before.mat] != [s["up"] for s in after.mat]
                or before.law_spaces != after.law_spaces or before.hands != after.hands)

    def playout_weights(self, state: KState, seat: int, legal: list[Act]) -> list[float] | None:
        """Play-outs buy seats and keep the cubes the seats on offer need (engine.keythedral.playout)."""
        return playout.weights(state, seat, legal)

    def playout_worth(self, state: KState, seat: int) -> float:
        """Cubes held towards the seats on offer, and houses (engine.keythedral.playout)."""
        return playout.worth(state, seat)

    def resample_hidden(self, state: KState, viewer: int | None, seed: int) -> KState:
        """Redraw what the viewer cannot see: others' law cards, the new-law cards and stack, face-down tiles.

        A function of what the viewer sees and the seed only: each pool is sorted before it is shuffled, so where
        the hidden cards and tiles are now never changes the redraw."""
        new = clone(state)
        rng = Rng.from_seed(seed)
        others = [s for s in range(new.n) if s != viewer]
        pool = list(new.law_deck) + [c for c in new.law_spaces if c is not None]
        pool += [c for s in others for c in new.hands[s]]
        pool.sort()
        rng.shuffle(pool)
        new.law_deck, pool = pool[:len(new.law_deck)], pool[len(new.law_deck):]
        for i, card in enumerate(new.law_spaces):
            if card is not None:
                new.law_spaces[i], pool = pool[0], pool[1:]
        for s in others:
            k = len(new.hands[s])
            new.hands[s], pool = pool[:k], pool[k:]
        new.field_stack.sort()
        rng.shuffle(new.field_stack)
        for stage in sorted(new.unused, key=int):
            hidden = [sp for sp in new.mat if sp["stage"] == int(stage) and not sp["up"] and sp["taken"] is None]
            tiles = sorted([sp["tile"] for sp in hidden] + new.unused[stage])
            rng.shuffle(tiles)
            for sp in hidden:
                sp["tile"] = tiles.pop()
            new.unused[stage] = tiles
        new.rng = Rng(rng.next64()).state
        return new


def _draws_or_reveals(before: KState, after: KState) -> bool:
    """What check may not simulate: a draw or a reveal other than the seat's own law card being played."""
    return (before.rng != after.rng or before.drawn != after.drawn or before.law_spaces != after.law_spaces
            or [s["up"] for s in before.mat] != [s["up"] for s in after.mat])


def _tie_break(ranked: tuple[PlayerScore, ...], value: dict[int, int]) -> str:
    """Sentences for seats tied on points: the cube value decides; equal on both, they share the place."""
    sentences = []
    for total in sorted({p.total for p in ranked}, reverse=True):
        tied = [p for p in ranked if p.total == total]
        if len(tied) < 2:
            continue
        parts = ", ".join(f"{p.name} {value[p.seat]}" for p in tied)
        sentences.append(f"Tied on {total}: cube values (gold 4, glass 3, iron 2, others 1) are {parts}.")
        values = [value[p.seat] for p in tied]
        if len(set(values)) < len(values):
            sentences.append("Players equal on both share the place (The winner).")
    return " ".join(sentences)


GAME = KeythedralGame()

_CHECK: Game[KState, Act] = GAME
"""mypy proves here that KeythedralGame satisfies the engine contract."""
