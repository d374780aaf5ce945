"""Tokens: a tiny card game behind the engine contract, with a hidden hand, a simultaneous secret pick, a turn and
a reaction window; it exists to prove that nothing in bot/ assumes Keyper.

Rules in short (tests/toygame/rules.md): each seat holds three cards (1-9, two copies of each in the deck). Every
round all seats pick a card in secret; the picks are revealed together and the highest wins (ties: the lowest
seat), scoring its value. The winner then takes the top card of the deck or passes; after a take, each other seat
in clockwise order may object (the winner loses a point, the window ends) or allow. Three rounds (two when fast).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from engine.core import (
    JSON,
    REACTION,
    SIMULTANEOUS,
    TURN,
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
    json_text,
)

CARDS = tuple(range(1, 10))
COPIES = 2
HAND = 3
OPTIONS: dict[str, Any] = {"fast": False}
PHRASES = {"pick": "pick a card", "draw": "take a card or pass", "react": "object or allow"}
RULE_SETUP, RULE_PICK, RULE_DRAW, RULE_END = (f"Tokens rules §{n}" for n in range(1, 5))


@dataclass(frozen=True)
class Pick:
    """Play one card of the hand as this round's secret pick."""

    card: int


@dataclass(frozen=True)
class Take:
    """The round's winner draws the top card of the deck."""


@dataclass(frozen=True)
class Pass:
    """The round's winner draws nothing."""


@dataclass(frozen=True)
class Object:
    """Object to the winner's draw: the winner loses a point and the window ends."""


@dataclass(frozen=True)
class Allow:
    """Let the winner's draw stand."""


Action = Pick | Take | Pass | Object | Allow
_WORDS: dict[str, Action] = {"take": Take(), "pass": Pass(), "object": Object(), "allow": Allow()}


@dataclass
class TokensState:
    """A whole game of Tokens; mutable, plain data (deck[0] is the top card)."""

    names: list[str]
    rng: int
    rounds: int
    round: int
    phase: str  # pick, draw, react, over
    deck: list[int]
    hands: list[list[int]]
    picks: list[int | None]
    revealed: list[list[int]]  # every finished round's picks, by seat
    won: list[list[int]]  # the values each seat scored by winning rounds
    objections: list[int]  # points each seat lost to objections
    winner: int | None = None
    order: list[int] | None = None  # the reaction window's seats, clockwise from the winner
    asked: int = 0  # index in order of the seat answering now


class TokensGame:
    """The Tokens engine: pure functions over TokensState, named as in engine.core.Game."""

    name = "tokens"
    min_players = 2
    max_players = 3

    # setup and flow
    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> TokensState:
        """Shuffle the deck and deal three cards each; raises ValueError on a bad player count or option."""
        opts = dict(OPTIONS)
        for key, value in (options or {}).items():
            if key not in OPTIONS:
                raise ValueError(f"Unknown Tokens option '{key}'; known: {', '.join(OPTIONS)}.")
            opts[key] = value
        if not self.min_players <= len(players) <= self.max_players:
            raise ValueError(f"Tokens needs {self.min_players}-{self.max_players} players, not {len(players)}.")
        rng = Rng.from_seed(seed)
        deck = [card for card in CARDS for _ in range(COPIES)]
        rng.shuffle(deck)
        n = len(players)
        hands = [deck[HAND * s: HAND * (s + 1)] for s in range(n)]
        return TokensState(names=list(players), rng=rng.state, rounds=2 if opts["fast"] else 3, round=1,
                           phase="pick", deck=deck[HAND * n:], hands=hands, picks=[None] * n, revealed=[],
                           won=[[] for _ in range(n)], objections=[0] * n)

    def decisions(self, state: TokensState) -> list[Decision]:
        """The seats to pick (simultaneous), the winner's draw (turn) or the reaction window's seats."""
        phase, key = state.phase, f"{state.phase}:{state.round}"
        if phase == "pick":
            return [Decision(s, SIMULTANEOUS, key, PHRASES[phase]) for s in self.to_act(state)]
        if phase == "draw" and state.winner is not None:
            return [Decision(state.winner, TURN, key, PHRASES[phase], public_choices=True)]
        if phase == "react" and state.order is not None:
            return [Decision(s, REACTION, key, PHRASES[phase], must=i == state.asked, default="allow",
                             public_choices=True) for i, s in enumerate(state.order) if i >= state.asked]
        return []

    def to_act(self, state: TokensState) -> list[int]:
        """Seats that must decide now: the seats yet to pick, the winner, or the seat asked to react."""
        if state.phase == "pick":
            return [s for s, pick in enumerate(state.picks) if pick is None]
        if state.phase == "draw" and state.winner is not None:
            return [state.winner]
        if state.phase == "react" and state.order is not None:
            return [state.order[state.asked]]
        return []

    def waiting_for(self, state: TokensState) -> str:
        """'waiting for Ana and Ben to pick a card'."""
        people = [state.names[s] for s in self.to_act(state)]
        if not people:
            return "waiting for nobody: the game is over"
        who = people[0] if len(people) == 1 else ", ".join(people[:-1]) + " and " + people[-1]
        return f"waiting for {who} to {PHRASES[state.phase]}"

    def legal_actions(self, state: TokensState, seat: int) -> list[Action]:
        """Every action this seat may take now."""
        if seat not in self.to_act(state):
            return []
        if state.phase == "pick":
            return [Pick(card) for card in sorted(set(state.hands[seat]))]
        if state.phase == "draw":
            return [Take(), Pass()] if state.deck else [Pass()]
        return [Object(), Allow()]

    def pending_answers(self, state: TokensState, seat: int) -> list[Action]:
        """A later seat of the reaction window may object or allow ahead of its turn to answer."""
        later = state.order[state.asked + 1:] if state.phase == "react" and state.order else []
        return [Object(), Allow()] if seat in later else []

    def apply(self, state: TokensState, seat: int, action: Action) -> tuple[TokensState, list[Event]]:
        """Return the next state and what happened; raises IllegalAction, leaving state untouched."""
        self._require_legal(state, seat, action)
        new = copy.deepcopy(state)
        return new, _apply(new, seat, action)

    def apply_in_place(self, state: TokensState, seat: int, action: Action) -> list[Event]:
        """Like apply, changing state itself; raises IllegalAction before changing it."""
        self._require_legal(state, seat, action)
        return _apply(state, seat, action)

    def apply_choice(self, state: TokensState, seat: int, options: list[Action], index: int) -> list[Event]:
        """Apply options[index] in place (options being this seat's legal actions now)."""
        return _apply(state, seat, options[index])

    def check(self, state: TokensState, seat: int, action: Action) -> Verdict:
        """What apply would do; a draw or reveal is described, never simulated (it would show hidden cards)."""
        return check_by_applying(self, state, seat, action)

    def judge(self, state: TokensState, seat: int, action: Action, after: TokensState,
              events: list[Event]) -> Verdict:
        """The verdict on a legal action tried: what the seat sees happen, or only that a card is drawn or revealed."""
        rule = RULE_PICK if isinstance(action, Pick) else RULE_DRAW
        if self.is_undo_barrier(state, after):
            hidden = "the picks are revealed" if isinstance(action, Pick) else "you draw the top card"
            return Verdict(True, f"'{self.format(action)}' is legal.", rule, (f"Then {hidden}.",))
        return Verdict(True, f"'{self.format(action)}' is legal.", rule,
                       tuple(e.text for e in events if e.visible_to(seat)))

    def _require_legal(self, state: TokensState, seat: int, action: Action) -> None:
        """Raise IllegalAction saying why, when the action is not among the seat's legal actions."""
        legal = self.legal_actions(state, seat)
        if action in legal:
            return
        alternatives = [self.format(a) for a in legal]
        if state.phase == "over":
            raise IllegalAction("The game is over.", RULE_END)
        if seat not in self.to_act(state):
            early = " (you may answer ahead; it counts when your turn comes)" if self.pending_answers(state, seat) \
                else ""
            raise IllegalAction(f"It is not your decision now: {self.waiting_for(state)}{early}.",
                                {"pick": RULE_PICK}.get(state.phase, RULE_DRAW))
        if isinstance(action, Pick) and state.phase == "pick":
            hand = ", ".join(map(str, sorted(state.hands[seat])))
            raise IllegalAction(f"You hold no {action.card}; your hand is {hand}.", RULE_PICK, alternatives)
        if isinstance(action, Take) and state.phase == "draw":
            raise IllegalAction("The deck is empty: there is nothing to take.", RULE_DRAW, alternatives)
        raise IllegalAction(f"Now is the time to {PHRASES[state.phase]}.",
                            RULE_PICK if state.phase == "pick" else RULE_DRAW, alternatives)

    # seeing
    def view(self, state: TokensState, seat: int | None, legal_now: list[Action] | None = None) -> JSON:
        """The listed public fields; a seat also sees its hand, its own pending pick and its legal actions."""
        data: JSON = {
            "game": "tokens", "viewer": seat, "names": list(state.names), "round": state.round,
            "rounds": state.rounds, "phase": state.phase, "points": [_points(state, s) for s in _seats(state)],
            "revealed": [list(picks) for picks in state.revealed], "hand_sizes": [len(h) for h in state.hands],
            "deck_size": len(state.deck), "picked": [p is not None for p in state.picks], "winner": state.winner,
            "reacting": self.to_act(state)[0] if state.phase == "react" else None,
            "to_act": self.to_act(state), "waiting_for": self.waiting_for(state),
        }
        if seat is not None:
            data["hand"] = sorted(state.hands[seat])
            data["pick"] = state.picks[seat]
            data["legal"] = [self.format(a) for a in (self.legal_actions(state, seat) if legal_now is None
                                                      else legal_now)]
        return data

    def score(self, state: TokensState, viewer: int | None) -> Scoreboard:
        """Points per seat (all public: the viewer changes nothing), ranked; ties go to the earlier seat."""
        players = [PlayerScore(s, state.names[s], (
            ScoreLine("Rounds won", sum(state.won[s]), ", ".join(map(str, state.won[s]))),
            ScoreLine("Objections", -state.objections[s]),
        )) for s in _seats(state)]
        ranked = tuple(sorted(players, key=lambda p: (-p.total, p.seat)))
        return Scoreboard(ranked, final=self.is_over(state), tie_break=_tie_break(ranked))

    def parse(self, state: TokensState, seat: int, text: str, legal_now: list[Action] | None = None) -> Action:
        """Read `pick 7`, `take`, `pass`, `object` or `allow` (legal_now is not needed); InvalidAction if unreadable,
        IllegalAction if not now."""
        words = text.strip().lower()
        match = re.fullmatch(r"pick\s+(\d+)", words)
        action = Pick(int(match.group(1))) if match else _WORDS.get(words)
        if action is None:
            raise InvalidAction(f"'{text}' is not a Tokens action; write pick 7, take, pass, object or allow.")
        if action not in self.pending_answers(state, seat):
            self._require_legal(state, seat, action)
        return action

    def format(self, action: Action) -> str:
        """The canonical notation: `pick 7`, `take`, `pass`, `object`, `allow`."""
        if isinstance(action, Pick):
            return f"pick {action.card}"
        return type(action).__name__.lower()

    def public_notation(self, action: Action) -> str:
        """A pick is secret until revealed: `pick (secret)`."""
        return "pick (secret)" if isinstance(action, Pick) else self.format(action)

    # data
    def to_json(self, state: TokensState) -> JSON:
        """The whole state as JSON-ready data."""
        return asdict(state)

    def to_json_text(self, state: TokensState) -> str:
        """to_json's data as JSON text (what a snapshot stores)."""
        return json_text(self.to_json(state))

    def from_json(self, data: JSON) -> TokensState:
        """Rebuild a state; raises ValueError on malformed data."""
        names = {f.name for f in fields(TokensState)}
        if not isinstance(data, dict) or set(data) - names:
            raise ValueError("not a Tokens state")
        try:
            return TokensState(**copy.deepcopy(data))
        except TypeError as exc:
            raise ValueError(f"not a Tokens state: {exc}") from exc

    def is_over(self, state: TokensState) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def may_repeat(self, action: Action) -> bool:
        """No hint: the table tries each answer to see whether it comes again."""
        return True

    def is_undo_barrier(self, before: TokensState, after: TokensState) -> bool:
        """A draw (the deck changed) or a reveal (a round's picks shown)."""
        return before.deck != after.deck or len(before.revealed) != len(after.revealed) or before.rng != after.rng

    def playout_weights(self, state: TokensState, seat: int, legal: list[Action]) -> list[float] | None:
        """Play-outs choose uniformly."""
        return None

    def playout_worth(self, state: TokensState, seat: int) -> float:
        """The projected score says it all."""
        return 0.0

    def resample_hidden(self, state: TokensState, viewer: int | None, seed: int) -> TokensState:
        """Redeal the cards the viewer cannot see (deck, others' hands and unrevealed picks), keeping every count."""
        new = copy.deepcopy(state)
        rng = Rng.from_seed(seed)
        others = [s for s in _seats(state) if s != viewer]
        pool = list(new.deck) + [c for s in others for c in new.hands[s]]
        pool += [p for s in others if (p := new.picks[s]) is not None]
        pool.sort()  # a function of what the viewer sees: not of where the hidden cards happen to be
        rng.shuffle(pool)
        new.deck, pool = pool[:len(new.deck)], pool[len(new.deck):]
        for s in others:
            size = len(new.hands[s])
            new.hands[s], pool = pool[:size], pool[size:]
            if new.picks[s] is not None:
                new.picks[s], pool = pool[0], pool[1:]
        new.rng = Rng(rng.next64()).state
        return new


def _seats(state: TokensState) -> range:
    """Every seat number."""
    return range(len(state.names))


def _points(state: TokensState, seat: int) -> int:
    """A seat's points so far."""
    return sum(state.won[seat]) - state.objections[seat]


def _tie_break(ranked: tuple[PlayerScore, ...]) -> str:
    """A sentence for each group of seats tied on points ('' when nobody ties)."""
    sentences = []
    for total in sorted({p.total for p in ranked}, reverse=True):
        tied = [p.name for p in ranked if p.total == total]
        if len(tied) > 1:
            sentences.append(f"{' and '.join(tied)} tie on {total}; the earlier seat ranks first ({RULE_END}).")
    return " ".join(sentences)


def _apply(state: TokensState, seat: int, action: Action) -> list[Event]:
    """Carry out a legal action in place and say what happened."""
    name = state.names[seat]
    if isinstance(action, Pick):
        state.hands[seat].remove(action.card)
        state.picks[seat] = action.card
        events = [Event(f"You pick {action.card}.", seat, (seat,)), Event(f"{name} has picked a card.", seat)]
        return events + (_reveal(state) if all(p is not None for p in state.picks) else [])
    if isinstance(action, Take):
        card = state.deck.pop(0)
        state.hands[seat].append(card)
        events = [Event(f"You draw a {card}.", seat, (seat,)), Event(f"{name} draws a card.", seat)]
        order = [(seat + k) % len(state.names) for k in range(1, len(state.names))]
        state.phase, state.order, state.asked = "react", order, 0
        return events
    if isinstance(action, Pass):
        return [Event(f"{name} passes.", seat), *_next_round(state)]
    winner = state.winner
    assert winner is not None
    if isinstance(action, Object):
        state.objections[winner] += 1
        return [Event(f"{name} objects: {state.names[winner]} loses a point.", seat), *_next_round(state)]
    assert state.order is not None
    state.asked += 1
    if state.asked < len(state.order):
        return [Event(f"{name} allows.", seat)]
    return [Event(f"{name} allows.", seat), Event("Nobody objects.", winner), *_next_round(state)]


def _reveal(state: TokensState) -> list[Event]:
    """Show every pick, score the round's winner (ties: the lowest seat) and open the winner's draw."""
    picks = [p for p in state.picks if p is not None]
    winner = picks.index(max(picks))
    state.revealed.append(picks)
    state.won[winner].append(picks[winner])
    state.picks = [None] * len(state.names)
    state.phase, state.winner = "draw", winner
    shown = ", ".join(f"{n} {p}" for n, p in zip(state.names, picks, strict=True))
    name = state.names[winner]
    return [Event(f"Round {state.round} picks: {shown}. {name} wins the round and scores {picks[winner]}.", winner)]


def _next_round(state: TokensState) -> list[Event]:
    """Close the round: the game ends after the last round or when a hand is empty, else the next round begins."""
    state.winner, state.order, state.asked = None, None, 0
    if state.round >= state.rounds or not all(state.hands):
        state.phase = "over"
        return [Event("The game is over.")]
    state.round += 1
    state.phase = "pick"
    return [Event(f"Round {state.round}: everyone picks a card in secret.")]


GAME = TokensGame()

_CHECK: Game[TokensState, Action] = GAME
"""mypy proves here that TokensGame satisfies the engine contract."""
