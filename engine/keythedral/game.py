"""KeythedralGame: the engine contract (engine.core.Game) over the Keythedral modules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, cast

import orjson

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
from engine.keythedral.legal import can_buy, legal, price_choices, to_act
from engine.keythedral.outcome import and_list, outcome
from engine.keythedral.pieces import Acquired
from engine.keythedral.state import KState
from engine.keythedral.state import from_json as state_from_json
from engine.keythedral.state import to_json as state_to_json
from engine.keythedral.steps import Payment, PriceChange, PurchaseWindow
from engine.keythedral.view import opens_a_screen, screened, screens_open
from engine.keythedral.view import view as build_view
from engine.words import WordsGame, match_words

RULE_END = "rules: The winner"

NEVER_TWICE = frozenset({"worker", "order", "start", "laws"})  # verbs the same seat cannot take twice in a row
DEALS = 40  # random deals of the hidden cubes tried before the fallback that keeps every promise (resample_hidden)


class KeythedralGame(WordsGame[KState, Act]):
    """The Keythedral engine: pure functions over KState, named as in engine.core.Game."""

    name = "keythedral"
    min_players = 2
    max_players = 5

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> KState:
        """The opening state, set-up's first field tile drawn; raises ValueError on bad players or options."""
        return flow.setup(players, seed, options)

    def decisions(self, state: KState) -> list[Decision]:
        """Every open decision; one whose choices hang on the seat's screen is offered to that seat alone (T-1)."""
        return screened(state, decide.decisions(state))

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
        """The verdict on a legal action tried: what the move gets, costs and changes, in the seat's knowledge, and
        what follows; past a draw or a reveal only that something hidden comes (engine.keythedral.explain)."""
        rule = explain.RULES.get(action.verb, "ruling T-13")
        return Verdict(True, f"'{action}' is legal.", rule, outcome(state, seat, action, after, events))

    def _require_legal(self, state: KState, seat: int, action: Act) -> None:
        """Raise IllegalAction saying why, when the action is not among the seat's legal actions."""
        options = legal(state, seat)
        if action in options:
            return
        if state.phase == "over":
            raise IllegalAction("The game is over.", RULE_END)
        if seat not in to_act(state) and action.verb != "law":  # a law card out of turn gets explain's reason
            raise IllegalAction(f"It is not your decision now: {self.waiting_for(state)}.", "rules: The game")
        reason, rule = explain.explain(state, seat, action)
        few = [str(a) for a in options] if len(options) <= 6 else []
        raise IllegalAction(reason, rule, few)

    # seeing
    def view(self, state: KState, seat: int | None, legal_now: list[Act] | None = None) -> JSON:
        """What this seat may see (None: the public), with its legal actions (legal_now: those, when the caller has
        them)."""
        moves = None if seat is None else [str(a) for a in (legal(state, seat) if legal_now is None else legal_now)]
        return cast(JSON, build_view(state, seat, moves))  # a KView is a dict: the contract's JSON

    def score(self, state: KState, viewer: int | None) -> Scoreboard:
        """Seat values, then the cube-value tie-break; equal on both: a shared place (The winner). Before the end
        the seats behind a screen the viewer cannot see count nothing, in seat order (ruling T-1)."""
        players = [PlayerScore(s, state.names[s], (_seats_line(state, s),)) for s in range(state.n)]
        if not screens_open(state):
            hidden = [p.name for p in players if p.seat != viewer]
            shown = tuple(p if p.seat == viewer else PlayerScore(p.seat, p.name, ()) for p in players)
            return Scoreboard(shown, final=False, tie_break=f"Behind their screens until the end: the seats of "
                                                            f"{and_list(hidden)}.")
        value = {s: sup.cube_value(state.cubes[s]) for s in range(state.n)}
        ranked = tuple(sorted(players, key=lambda p: (-p.total, -value[p.seat], p.seat)))
        return Scoreboard(ranked, final=self.is_over(state), tie_break=_tie_break(ranked, value))

    def parse(self, state: KState, seat: int, text: str, legal_now: list[Act] | None = None) -> Act:
        """Read notation against the seat's legal actions (legal_now: those, when the caller has them);
        InvalidAction, IllegalAction or AmbiguousAction."""
        action = read(text)
        if not action.words or action.verb not in explain.VERBS:
            raise InvalidAction(f"'{text}' is not a Keythedral action; try `buy 1.2`, `worker M13`, "
                                "`pass`.")
        options = legal(state, seat) if legal_now is None else legal_now
        found = match_words(action, [*options, *self.pending_answers(state, seat)], text)
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
        """to_json's data as JSON text (what a snapshot stores)."""
        return orjson.dumps(state_to_json(state)).decode()

    def from_json(self, data: JSON) -> KState:
        """Rebuild a state; raises ValueError on malformed data. A state stored before an option existed takes the
        option's default (as a replay of its log would)."""
        state = state_from_json(data)
        state.options = {**flow.OPTIONS, **state.options}
        return state

    def is_over(self, state: KState) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def may_repeat(self, action: Act) -> bool:
        """Never twice in a row: a worker on a field (the field is then taken), a work-order number or a start
        colour (each chosen once), opening one's law cards (then the seat picks among them or goes back)."""
        return action.verb not in NEVER_TWICE

    def is_undo_barrier(self, before: KState, after: KState) -> bool:
        """A random draw or a reveal: a field tile drawn, tiles turned up, a law card taken, the generator used, what
        a screen hid shown (view.opens_a_screen)."""
        return (before.rng != after.rng or before.drawn != after.drawn
                or len(before.field_stack) != len(after.field_stack)
                or [s.up for s in before.mat] != [s.up for s in after.mat]
                or before.law_spaces != after.law_spaces or before.hands != after.hands
                or opens_a_screen(before, after))

    def playout_weights(self, state: KState, seat: int, legal: list[Act]) -> list[float] | None:
        """Play-outs buy seats and keep the cubes the seats on offer need (engine.keythedral.playout)."""
        return playout.weights(state, seat, legal)

    def playout_worth(self, state: KState, seat: int) -> float:
        """Cubes held towards the seats on offer, and houses (engine.keythedral.playout)."""
        return playout.worth(state, seat)

    def resample_hidden(self, state: KState, viewer: int | None, seed: int) -> KState:
        """Redraw what the viewer cannot see: others' law cards, the new-law cards and stack, face-down tiles, and
        what stands behind the other screens (T-1): their cubes and the seats they acquired, dealt again among them.

        A function of what the viewer sees and the seed only: each pool is sorted before it is shuffled or dealt, so
        where the hidden cards, tiles and cubes are now never changes the redraw."""
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
            hidden = [sp for sp in new.mat if sp.stage == int(stage) and not sp.up and sp.taken is None]
            tiles = sorted([sp.tile for sp in hidden] + new.unused[stage])
            rng.shuffle(tiles)
            for sp in hidden:
                sp.tile = tiles.pop()
            new.unused[stage] = tiles
        if not screens_open(new) and len(others) > 1:
            _deal_seats(new, others, rng)
            _deal_cubes(new, others, rng)
        new.rng = Rng(rng.next64()).state
        return new


def _seats_line(state: KState, seat: int) -> ScoreLine:
    """'Seats in the Keythedral: 1 + 2 + 2'."""
    values = [t.stage for t in state.tiles[seat]]
    return ScoreLine("Seats in the Keythedral", sum(values), " + ".join(map(str, values)) or "none")


# --- what stands behind the other screens, dealt again (resample_hidden) -------------------------------------

def _deal_seats(state: KState, seats: list[int], rng: Rng) -> None:
    """The seats these players acquired, in space order, each dealt to one of them at random."""
    pool: list[Acquired] = sorted((t for s in seats for t in state.tiles[s]), key=lambda t: t.space)
    for s in seats:
        state.tiles[s] = []
    for tile in pool:
        seat = seats[rng.below(len(seats))]
        state.tiles[seat].append(tile)
        flow.mat_space(state, tile.space).taken = seat


def _deal_cubes(state: KState, seats: list[int], rng: Rng) -> None:
    """These players' cubes pooled and dealt again at random among them until each can still pay what the public
    saw it commit to (_promises_kept); after DEALS tries, a deal made to keep those promises (_promised_deal)."""
    pool = [c for c in sup.CUBES for _ in range(sum(state.cubes[s][c] for s in seats))]
    for _ in range(DEALS):
        hands: dict[int, Counter[str]] = {s: Counter() for s in seats}
        for colour in pool:
            hands[seats[rng.below(len(seats))]][colour] += 1
        _hand_out(state, hands)
        if _promises_kept(state, seats):
            return
    _hand_out(state, _promised_deal(state, pool, seats))


def _hand_out(state: KState, hands: Mapping[int, Counter[str]]) -> None:
    """Put these cubes behind these screens."""
    for seat, cubes in hands.items():
        state.cubes[seat] = {c: cubes[c] for c in sup.CUBES}


def _payer(state: KState, seats: list[int]) -> int | None:
    """The hidden seat the public saw start a payment or a purchase still under way, if any."""
    pending = state.pending
    if isinstance(pending, Payment | PriceChange) and pending.seat in seats:
        return pending.seat
    return next((w.buyer for w in state.windows if isinstance(w, PurchaseWindow) and w.buyer in seats), None)


def _bid_floors(state: KState, seats: list[int]) -> list[tuple[int, int]]:
    """(seat, bid) of each hidden seat that bid, while the bidding runs: it holds at least that many cubes."""
    if state.phase != "bidding" or not state.bidding or state.pending:
        return []
    return [(b.seat, b.amount) for b in state.bidding.bids if b.amount is not None and b.seat in seats]


def _promises_kept(state: KState, seats: list[int]) -> bool:
    """Whether the hidden seats can still pay what the public saw them commit to: a payment or a price choice under
    way, a purchase declared (at its price before any law of its window raised it), a bid."""
    pending, payer = state.pending, _payer(state, seats)
    if pending and payer is not None and payer == pending.seat:
        if isinstance(pending, Payment):
            return any(sup.feasible(state.cubes[payer], slots) for slots in pending.candidates)
        if isinstance(pending, PriceChange):
            return bool(price_choices(state, pending))
        raise TypeError(f"no payment under way: {pending!r}")
    for window in (w for w in state.windows if isinstance(w, PurchaseWindow) and w.buyer in seats):
        space = flow.mat_space(state, window.space)
        if not window.blocked and not can_buy(state, window.buyer, replace(space, inc=0)):
            return False
    return all(sup.count(state.cubes[s]) >= k for s, k in _bid_floors(state, seats))


def _promised_deal(state: KState, pool: list[str], seats: list[int]) -> dict[int, Counter[str]]:
    """A deal that keeps every promise: each bidder gets as many cubes as it bid, the payer or buyer all the rest
    (it held part of the pool and could pay, so the whole rest pays too)."""
    hands: dict[int, Counter[str]] = {s: Counter() for s in seats}
    rest = list(pool)
    for seat, k in _bid_floors(state, seats):
        hands[seat].update(rest[:k])
        rest = rest[k:]
    payer = _payer(state, seats)
    hands[seats[0] if payer is None else payer].update(rest)
    return hands


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
