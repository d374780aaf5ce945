"""KeyflowerGame: the engine contract (engine.core.Game) over the Keyflower modules (work in progress, issue 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

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
from engine.keyflower import celeste, explain, final, flow, keymelequin
from engine.keyflower.actions import Act, read
from engine.keyflower.legal import legal, to_act
from engine.keyflower.refusals import why_not
from engine.keyflower.state import KfState
from engine.keyflower.state import from_json as state_from_json
from engine.keyflower.state import to_json as state_to_json
from engine.keyflower.turns import mix_group, needed
from engine.records import to_text
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
    min_players = 2
    max_players = 6

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
        key = f"{state.pending['kind'] if state.pending else state.phase}:{state.seq}"
        public = state.phase == "boats" and (not state.pending or state.pending["kind"] == "replace")
        # a turn's options show what is behind the screen, but the move made is played on the table
        return [Decision(s, TURN, key, what, True, None, public, secret=False) for s in seats]

    def _phrase(self, state: KfState) -> str:
        """What is being decided, as everyone may read it (a count says what for; the colour or the keyples taken
        from behind the screen stay there until the workers are placed, F-7)."""
        p = state.pending
        if p and p["kind"] == "count":
            what = "top up the moved group" if "from" in p else f"{p['what']} on {p['loc']}"
            return f"say how many workers to {what}"
        if p and p["kind"] == "mix":  # a group built one worker at a time: where, how many in all
            need = needed(state, int(p["seat"]), p["loc"], p.get("what", "use"))
            where = f"{'bid on' if p.get('what') == 'bid' else 'use of'} {p['loc']}"
            return f"add workers to the {where} ({need} or more in all)"
        return PHRASES[p["kind"]] if p else PHRASES.get(state.phase, "decide")

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
        """What this seat may see (None: the public): everything on the table; a seat adds its screen and its legal
        actions (legal_now: those, when the caller has them)."""
        data: JSON = {
            "game": "keyflower", "viewer": seat, "names": list(state.names), "season": flow.SEASONS[state.season],
            "phase": state.phase, "start_player": state.start, "to_act": to_act(state),
            "waiting_for": self.waiting_for(state), "villages": clone(state.villages),
            "auction": list(state.auction), "order_tiles": list(state.order_tiles),
            "places": {loc: {"bids": dict(p["bids"]), "uses": [list(u) for u in p["uses"]]}
                       | ({"ghost": p["ghost"]} if "ghost" in p else {}) for loc, p in sorted(state.places.items())},
            "boats": clone(state.boats), "bag": sum(state.bag.values()), "greens": state.greens,
            "skill_pile": sum(state.skill_pile.values()), "supply": dict(state.supply),
            "screens": [sum(w.values()) for w in state.workers], "skills_held": [sum(k.values()) for k in state.skills],
            "winter_in_hand": [len(h) for h in state.winter_hand], "won": [list(w) for w in state.won],
            "stacks": {"summer": len(state.summer_stack), "autumn": len(state.autumn_stack)},
            "passes": state.passes, "picking": list(state.picking), "pending": _pending_view(state, seat),
            "modules": {"keymelequin": keymelequin.replaced(state), "key_celeste": celeste.chosen(state)},
        }
        if celeste.chosen(state):  # who owns the ghost is public (F-38)
            data["ghost"] = {"holder": state.ghost_holder, "played": state.ghost_at, "gone": state.ghost_out}
            data["celeste"] = {"on_table": celeste.on_table(state), "face": "winter" if state.season == 3 else
                               "seasons"}
        if state.phase == "over":  # every screen is opened for the final count
            data["screens_opened"] = [{"workers": dict(w), "skills": dict(k)}
                                      for w, k in zip(state.workers, state.skills, strict=True)]
        if seat is not None:
            data["workers"] = dict(state.workers[seat])
            data["skills"] = dict(state.skills[seat])
            data["winter_hand"] = list(state.winter_hand[seat])
            data["winter_played"] = list(state.winter_played[seat]) if state.winter_played else []
            data["legal"] = [str(a) for a in (legal(state, seat) if legal_now is None else legal_now)]
        return data

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
        return state_to_json(state)

    def to_json_text(self, state: KfState) -> str:
        """to_json's data as JSON text (what a snapshot stores), written straight from the state."""
        return to_text(state)

    def from_json(self, data: JSON) -> KfState:
        """Rebuild a state; raises ValueError on malformed data."""
        return state_from_json(data)

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


def _pending_view(state: KfState, viewer: int | None) -> JSON | None:
    """An action under way, as the viewer may see it: for everyone a transport's steps and upgrades left, a count
    asked, where; the colour only of a moved group, which is on the table. Its owner also sees the colour chosen
    and the keyples gathered so far, still behind the screen (F-7)."""
    p = state.pending
    if not p:
        return None
    shown: JSON = {k: p[k] for k in ("kind", "seat", "what", "loc", "steps", "upgrades", "left", "from") if k in p}
    if "colour" in p and ("from" in p or viewer == p["seat"]):
        shown["colour"] = p["colour"]
    if p["kind"] == "mix" and viewer == p["seat"]:
        shown["group"] = mix_group(state, p)
    return shown


def _face_points(placed: JSON) -> int:
    """The points a village tile's face shows (0 for boats and turn-order tiles, scored at the end)."""
    if not flow.is_tile(placed["tile"]):
        return 0
    t = flow.tile(placed["tile"])
    return (t.back if placed["up"] and t.back is not None else t.front).points


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
