"""KeyflowerGame: the engine contract (engine.core.Game) over the Keyflower modules (work in progress, issue 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from engine.core import (
    JSON,
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
    clone,
)
from engine.keyflower import apply as apply_mod
from engine.keyflower import explain, final, flow
from engine.keyflower import view as kf_view
from engine.keyflower.actions import Act, read
from engine.keyflower.component_records import PLAYER_COUNTS
from engine.keyflower.legal import legal, to_act
from engine.keyflower.pieces import shown_face
from engine.keyflower.refusals import why_not
from engine.keyflower.state import CountStep, KfState, MixStep, ReplaceStep, VillageTile
from engine.keyflower.turns import needed
from engine.words import WordsGame, match_words, waiting_phrase

SKILL_KINDS = frozenset({"anvil", "pick", "saw"})
VERBS = frozenset({"bid", "use", "move", "pass", "count", "pay", "take", "carry", "upgrade", "done", "boat", "place",
                   "winter", "join", "add", "ghost", "replace"})
PHRASES = {"turns": "take a turn", "winter-choice": "choose winter tiles", "boats": "pick a boat",
           "place": "place new tiles in the village", "count": "say how many workers", "pay": "choose what to hand in",
           "take": "choose a resource", "transport": "move resources and upgrade",
           "mix": "add workers to the group one at a time", "replace": "choose the boat that replaces the Keymelequin"}


class KeyflowerGame(WordsGame[KfState, Act]):
    """The Keyflower engine (base game)."""

    name = "keyflower"
    min_players = PLAYER_COUNTS[0]
    max_players = PLAYER_COUNTS[-1]

    def setup(self, players: Sequence[str], seed: int, options: Mapping[str, Any] | None = None) -> KfState:
        """The opening state; raises ValueError on bad players or options."""
        return flow.setup(players, seed, options)

    def decisions(self, state: KfState) -> list[Decision]:
        """Every open decision (winter choices and village placing are simultaneous)."""
        seats = to_act(state)
        what = self._phrase(state)
        if state.phase in ("winter-choice", "place") and not state.pending:
            key = f"{state.phase}:{state.season}"
            return [Decision(s, SIMULTANEOUS, key, what, True, None, state.phase == "place") for s in seats]
        # each step of a turn is its own decision: its private choices come by DM with buttons, step by step
        key = f"{state.pending.kind if state.pending else state.phase}:{state.seq}"
        public = state.phase == "boats" and (not state.pending or isinstance(state.pending, ReplaceStep))
        # a turn's options show what is behind the screen, but the move made is played on the table
        return [Decision(s, TURN, key, what, True, None, public, secret=False) for s in seats]

    def _phrase(self, state: KfState) -> str:
        """What is being decided, as everyone may read it (a count says what for; the colour or the keyples taken
        from behind the screen stay there until the workers are placed, F-7)."""
        p = state.pending
        if isinstance(p, CountStep):
            what = "top up the moved group" if p.moved else f"{p.what} on {p.loc}"
            return f"say how many workers to {what}"
        if isinstance(p, MixStep):  # a group built one worker at a time: where, how many in all
            need = needed(state, p.seat, p.loc, p.what)
            where = f"{'bid on' if p.what == 'bid' else 'use of'} {p.loc}"
            return f"add workers to the {where} ({need} or more in all)"
        return PHRASES[p.kind] if p else PHRASES.get(state.phase, "decide")

    def to_act(self, state: KfState) -> list[int]:
        """Seats that must decide now."""
        return to_act(state)

    def waiting_for(self, state: KfState) -> str:
        """'waiting for Ana to take a turn'."""
        return waiting_phrase(state.names, to_act(state), self._phrase(state))

    def legal_actions(self, state: KfState, seat: int) -> list[Act]:
        """Every action this seat may take now."""
        return legal(state, seat)

    def pending_answers(self, state: KfState, seat: int) -> list[Act]:
        """No answers ahead in Keyflower."""
        return []

    def _carry_out(self, state: KfState, seat: int, action: Act) -> list[Event]:
        """Apply a legal action in place (engine.words.WordsGame)."""
        return apply_mod.apply(state, seat, action)

    def check(self, state: KfState, seat: int, action: Act) -> Verdict:
        """What apply would do; a draw is described, never simulated."""
        return check_by_applying(self, state, seat, action)

    def judge(self, state: KfState, seat: int, action: Act, after: KfState, events: list[Event]) -> Verdict:
        """The verdict on a legal action tried: what the move gets, costs and changes, in the seat's knowledge, and
        what follows; past a draw or a reveal only that something hidden comes (engine.keyflower.explain)."""
        rule = explain.RULES.get(action.verb, "reference")
        return Verdict(True, f"'{action}' is legal.", rule, explain.outcome(state, seat, action, after, events))

    def _require_legal(self, state: KfState, seat: int, action: Act) -> None:
        """Raise IllegalAction when the action is not among the seat's legal actions."""
        options = legal(state, seat)
        if action in options:
            return
        if state.phase == "over":
            raise IllegalAction("The game is over.", "reference §8")
        if seat not in to_act(state):
            raise IllegalAction(f"It is not your decision now: {self.waiting_for(state)}.", "reference §3.2")
        few = [str(a) for a in options] if len(options) <= 6 else []
        reason = why_not(state, seat, action) if state.phase == "turns" else None
        if reason is not None:
            raise IllegalAction(f"'{action}' is not possible: {reason[0]}", reason[1], few)
        rule = {"boats": "reference §7 step 5", "place": "reference §7 step 6", "winter-choice": "reference §3.1"}
        raise IllegalAction(f"'{action}' is not possible now: {self._phrase(state)}.",
                            rule.get(state.phase, "reference §3.2"), few)

    def view(self, state: KfState, seat: int | None, legal_now: list[Act] | None = None) -> JSON:
        """What this seat may see (None: the public; engine.keyflower.view.KfView): everything on the table; a seat
        adds its screen and its legal actions (legal_now: those, when the caller has them)."""
        shown = [] if seat is None else [str(a) for a in (legal(state, seat) if legal_now is None else legal_now)]
        return cast(JSON, kf_view.build(state, seat, self.waiting_for(state), to_act(state), shown))

    def score(self, state: KfState, viewer: int | None) -> Scoreboard:
        """The final score (every screen is opened at the end); during the game, the tile points on the table
        (what is behind the screens stays out of a projection)."""
        if self.is_over(state):
            return final.scoreboard(state, True)
        players = []
        for s in range(state.n):
            points = sum(_face_points(p) for p in state.villages[s].values())
            players.append(PlayerScore(s, state.names[s], (ScoreLine("Tile points so far", points),)))
        ranked = tuple(sorted(players, key=lambda p: (-p.total, p.seat)))
        return Scoreboard(ranked, final=False)

    def parse(self, state: KfState, seat: int, text: str, legal_now: list[Act] | None = None) -> Act:
        """Read notation against the seat's legal actions (legal_now: those, when the caller has them)."""
        action = read(text)
        if not action.words or action.verb not in VERBS:
            raise InvalidAction(f"'{text}' is not a Keyflower action; try `bid alehouse red`, `use keywood blue`, "
                                "`pass`.")
        found = match_words(action, legal(state, seat) if legal_now is None else legal_now, text)
        if found is None:
            self._require_legal(state, seat, action)
        return found or action

    def public_notation(self, action: Act) -> str:
        """The step as the table sees it: a winter tile chosen stays secret until revealed; the colour (or Sven,
        Paulo, a mix) a bid or use starts with, and the keyples added to a group, stay behind the screen until
        the workers are placed, which the events then tell; a skill handed in goes face down (F-7)."""
        if action.verb == "winter":  # shown when all have chosen
            return "winter (secret)"
        if action.verb == "pay" and action.args[0] in SKILL_KINDS:  # a skill goes face down (F-7)
            return "pay (a skill)"
        if action.verb in ("bid", "use") and len(action.args) > 1:  # the workers are still in the player's hand
            return f"{action.verb} {action.args[0]}"
        if action.verb == "add":  # a keyple added to a group still being built behind the screen
            return "add (secret)"
        return str(action)

    def to_json(self, state: KfState) -> JSON:
        """The whole state as JSON-ready data."""
        return state.to_json()

    def to_json_text(self, state: KfState) -> str:
        """to_json's data as JSON text (what a snapshot stores)."""
        return state.to_text()

    def from_json(self, data: JSON) -> KfState:
        """Rebuild a state; raises ValueError on malformed data."""
        return KfState.from_json(data)

    def is_over(self, state: KfState) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def is_undo_barrier(self, before: KfState, after: KfState) -> bool:
        """A draw from the bag or the pile, or a reveal (winter tiles shown, screens opened at the end)."""
        return before.rng != after.rng or before.auction != after.auction or before.phase != after.phase == "over"

    def playout_weights(self, state: KfState, seat: int, legal_now: list[Act]) -> list[float] | None:
        """Play-outs pass now and then so that seasons end; otherwise uniform over verbs."""
        return [6.0 if a.verb == "pass" else 0.5 if a.verb == "move" else 1.0 for a in legal_now]

    def playout_worth(self, state: KfState, seat: int) -> float:
        """Nothing beyond the projected score. Counting half the points of each tile a seat's bid leads was tried:
        the stand-in then won 62 of 80 games against random seats instead of 69 (docs/benchmarks.md)."""
        return 0.0

    def resample_hidden(self, state: KfState, viewer: int | None, seed: int) -> KfState:
        """Redraw what the viewer cannot see, keeping every count: the colours in the bag and behind the other
        screens, the skills in the pile and behind them, the others' winter tiles, the stacks' order.

        A function of what the viewer sees and the seed only: each pool is sorted before it is shuffled, so where
        the hidden workers, skills and tiles are now never changes the redraw."""
        new = clone(state)
        rng = Rng.from_seed(seed)
        others = [s for s in range(new.n) if s != viewer and new.phase != "over"]  # the end opens the screens
        _redeal([new.bag] + [new.workers[s] for s in others], rng)
        _redeal([new.skill_pile] + [new.skills[s] for s in others], rng)
        lists = [new.winter_box] + [new.winter_hand[s] for s in others]
        pool = sorted(t for group in lists for t in group)
        rng.shuffle(pool)
        for group in lists:
            group[:], pool = pool[:len(group)], pool[len(group):]
        for s in others:  # a choice in progress is taken from the (redrawn) hand
            if (chosen := new.winter_choice[s]) is not None:
                chosen[:] = new.winter_hand[s][:len(chosen)]
            elif new.phase == "winter-choice":  # a choice made but unseen: which tiles, and how many, is redrawn
                hand = new.winter_hand[s]
                new.winter_played[s] = hand[:1 + rng.below(len(hand))] if hand else []
        new.summer_stack.sort()
        rng.shuffle(new.summer_stack)
        new.autumn_stack.sort()
        rng.shuffle(new.autumn_stack)
        new.rng = Rng(rng.next64()).state
        return new


def _face_points(placed: VillageTile) -> int:
    """The points a village tile's face shows (0 for boats and turn-order tiles, scored at the end)."""
    if not flow.is_tile(placed.tile):
        return 0
    t = flow.tile(placed.tile)
    return shown_face(t, placed.up).points



def _redeal(pools: list[dict[str, int]], rng: Rng) -> None:
    """Shuffle the items of several counted pools among them, each keeping its size; the items are sorted first,
    so the result depends on the pools' sizes, their combined items and rng only, not on which pool holds what."""
    items = sorted(key for pool in pools for key, k in pool.items() for _ in range(k))
    sizes = [sum(pool.values()) for pool in pools]
    rng.shuffle(items)
    for pool, size in zip(pools, sizes, strict=True):
        pool.clear()
        for key in items[:size]:
            pool[key] = pool.get(key, 0) + 1
        items = items[size:]


GAME = KeyflowerGame()

_CHECK: Game[KfState, Act] = GAME
"""mypy proves here that KeyflowerGame satisfies the engine contract."""
