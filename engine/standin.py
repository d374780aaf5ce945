"""The stand-in: a sensible legal move for a seat, chosen from what that seat may see only.

It plays for a seat whose clock ran out, for a computer seat, or at `keywood play --computer N`. The method is
flat Monte-Carlo over sampled worlds: the hidden information is drawn again with `game.resample_hidden(state, seat,
seed)` (a function of what the seat sees and the seed alone, checked by the contract kit), each candidate action is
tried in such worlds, the game is played on (to its end, or until the other seats have taken `Budget.depth`
actions, and then judged by each seat's own projected score and `playout_worth` in that world), and the candidate
with the best mean result for the seat is chosen. The real state's hidden information is never read: the worlds would
be the same whatever it was.

Play-outs follow the game's play-out weights, but a share of their steps (`Budget.greedy`) is one-step greedy: the
acting seat takes the best, by its immediate projected score, of a few actions drawn by those weights, so that the
simulated opponents resemble real ones. Candidates are the best legal actions by the seat's immediate projected
score (screened in a world the seat can see) plus a few drawn by the play-out weights; that immediate gain is also
added to a candidate's mean result (`Budget.prior`: by default a point now is worth 0.05 of a win), since the few
short play-outs a decision can afford are noisy and immediate points decide much of these games.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.core import EngineError, Game, Rng, clone
from engine.playout import MAX_STEPS, weighted

SCREENED = 400  # legal actions whose immediate projected score is looked at when there are many
WIN = 1.0  # a win is worth this much; the score margin only separates equal chances (MARGIN per point)
MARGIN = 0.002
OWN_STEPS = 4  # a play-out cut short after depth actions of the others stops anyway after this many times depth


@dataclass(frozen=True)
class Budget:
    """How much thinking one decision gets.

    playouts: play-outs at most; seconds: seconds at most (None: play-outs alone decide, as tests want);
    candidates: how many candidate actions are tried when there are more; depth: how many actions of the other
    seats a play-out runs before it is judged by value() (None: to the end of the game); greedy: the share of
    play-out steps that are one-step greedy (the best of `sample` actions drawn by the play-out weights, by the
    acting seat's projected score) rather than drawn by the weights; prior: the weight, in MARGIN units per point,
    of a candidate's immediate projected gain added to its mean play-out result; screened: how many legal actions
    are ranked by their immediate projected score when there are more than `candidates`.
    """

    playouts: int = 64
    seconds: float | None = 0.2
    candidates: int = 8
    depth: int | None = 12
    greedy: float = 0.5
    sample: int = 3
    prior: float = 25.0
    screened: int = SCREENED


def choose(game: Game[Any, Any], state: Any, seat: int, *, seed: int, budget: Budget = Budget()) -> Any:
    """The stand-in's action for the seat; raises ValueError when the seat has no legal action.

    With a time budget the clock is strict: screening stops at half of it, a play-out still running at the deadline
    is dropped, and candidates are tried best-first by their immediate gain, so that a busy machine gets a
    greedier choice rather than a late one (with no play-out finished, the best immediate gain is chosen)."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    if len(legal) == 1:
        return legal[0]
    start = time.perf_counter()
    deadline = None if budget.seconds is None else start + budget.seconds  # screening counts too
    rng = Rng.from_seed(seed)
    screen_until = None if budget.seconds is None else start + budget.seconds / 2
    candidates, gains = _candidates(game, state, seat, legal, budget, rng, screen_until)
    order = sorted(range(len(candidates)), key=lambda i: (-gains[i], i))  # best immediate gain first
    totals = [0.0] * len(candidates)
    tries = [0] * len(candidates)
    for k in range(max(budget.playouts, len(candidates))):
        if deadline is not None and time.perf_counter() > deadline:
            break
        i = order[k % len(candidates)]
        world = game.resample_hidden(state, seat, rng.next64() >> 1)
        value = _try(game, world, seat, candidates[i], rng, budget, deadline)
        if value is not None:
            totals[i] += value
            tries[i] += 1
    if not any(tries):
        return candidates[order[0]]
    means = [totals[i] / tries[i] + budget.prior * MARGIN * gains[i] if tries[i] else float("-inf")
             for i in range(len(candidates))]
    # Candidates the play-outs cannot tell apart (in Keyflower, many decisions early in a season) go to the first
    # listed: the engines list moves that do something before passing. Drawn by the play-out weights (a device to
    # end play-outs: Keyflower's pass weighs 6), the stand-in passed 15 times in a 70-decision Keyflower game and
    # won 2 of 8 against random seats; drawn uniformly, 5 of 10; first-listed, 7 to 8 of 10 (seeds 101-110).
    return candidates[max(range(len(candidates)), key=lambda i: (means[i], gains[i]))]  # max keeps the first


def _candidates(game: Game[Any, Any], state: Any, seat: int, legal: list[Any], budget: Budget, rng: Rng,
                until: float | None = None) -> tuple[list[Any], list[float]]:
    """Up to `budget.candidates` legal actions (all when few) and the seat's immediate gain for each: the best by
    that gain among a sample of `budget.screened` drawn by the play-out weights, and a quarter of them drawn by
    those weights alone. Past `until` (a perf_counter time), no more actions are screened."""
    world = game.resample_hidden(state, seat, rng.next64() >> 1)  # judged in a world the seat can see, not the real
    base = _judged(game, world, seat)
    weights = list(game.playout_weights(state, seat, legal) or [1.0] * len(legal))
    options = game.legal_actions(world, seat)
    if options != legal:  # only when a game's legal actions hang on hidden information: probe by value, not index
        options = []

    def gain(i: int) -> float:
        if options:
            return projected(game, world, seat, options, i, _judged) - base
        return _applied(game, world, seat, legal[i]) - base

    if len(legal) <= budget.candidates:
        return list(legal), [gain(i) for i in range(len(legal))]
    pool = list(range(len(legal)))
    drawn: list[int] = []
    while pool and len(drawn) < max(budget.screened, budget.candidates):
        j = weighted([weights[p] for p in pool], rng)
        drawn.append(pool.pop(j))
    gains: dict[int, float] = {}
    for i in drawn:
        if until is not None and len(gains) >= budget.candidates and time.perf_counter() > until:
            break
        gains[i] = gain(i)
    drawn = list(gains)
    keep = budget.candidates - budget.candidates // 4
    best = sorted(drawn, key=lambda i: -gains[i])[:keep]
    rest = [i for i in drawn if i not in best][:budget.candidates - len(best)]
    chosen = sorted(best + rest)
    return [legal[i] for i in chosen], [gains[i] for i in chosen]


def _own(game: Game[Any, Any], state: Any, seat: int) -> float:
    """The seat's projected total as it sees it."""
    return float(next(p.total for p in game.score(state, seat).players if p.seat == seat))


def _own_totals(game: Game[Any, Any], state: Any) -> dict[int, float]:
    """Every seat's projected total as that seat sees it (a game may hide a seat's points from the others)."""
    first = game.score(state, 0)
    return {0: float(next(p.total for p in first.players if p.seat == 0))} | {
        s: _own(game, state, s) for s in range(1, len(first.players))}


def _judged(game: Game[Any, Any], state: Any, seat: int) -> float:
    """The seat's projected total and what its position is worth beyond it (the stand-in's measure)."""
    return _own(game, state, seat) + game.playout_worth(state, seat)


def projected(game: Game[Any, Any], state: Any, seat: int, options: list[Any], index: int,
              measure: Callable[[Game[Any, Any], Any, int], float] = _own) -> float:
    """The seat's projected total (or another measure) right after options[index], where options is
    legal_actions(state, seat) for this very state: a copy takes the action without checking it again. The
    projected total is the one-step greedy player's measure."""
    after = clone(state)
    try:
        game.apply_choice(after, seat, options, index)
    except EngineError:
        return float("-inf")
    return measure(game, after, seat)


def _applied(game: Game[Any, Any], state: Any, seat: int, action: Any) -> float:
    """The stand-in's measure right after the action, checked as apply checks it (-inf when illegal)."""
    try:
        after, _ = game.apply(state, seat, action)
    except EngineError:
        return float("-inf")
    return _judged(game, after, seat)


def _step(game: Game[Any, Any], world: Any, rng: Rng, budget: Budget) -> int:
    """One play-out step: a seat to act, and its action drawn by the play-out weights or, for a `greedy` share of
    steps, the best by its projected score of `sample` so drawn; returns the seat that acted."""
    seats = game.to_act(world)
    if not seats:
        raise RuntimeError("nobody can act but the game is not over")
    who = seats[rng.below(len(seats))]
    options = game.legal_actions(world, who)
    if not options:
        raise RuntimeError(f"seat {who} must act but has no legal action")
    weights = game.playout_weights(world, who, options) or [1.0] * len(options)
    index = weighted(weights, rng)
    if len(options) > 1 and budget.greedy > 0 and rng.below(1 << 20) < budget.greedy * (1 << 20):
        drawn = {index} | {weighted(weights, rng) for _ in range(budget.sample - 1)}
        if len(drawn) > 1:
            index = max(sorted(drawn), key=lambda j: projected(game, world, who, options, j, _judged))
    game.apply_choice(world, who, options, index)
    return who


def _try(game: Game[Any, Any], world: Any, seat: int, action: Any, rng: Rng, budget: Budget,
         deadline: float | None = None) -> float | None:
    """The seat's result when it plays `action` in this world and the game is played on (to its end, or until the
    other seats have taken `budget.depth` actions, and then judged by value()); None when the action does not
    apply or the deadline (a perf_counter time) passes first.

    Only the other seats' actions count towards the depth: counting the seat's own would reward stalling, since a
    candidate that spends the play-out's actions on a menu and back (Keythedral's `laws`, `back`) leaves the
    others fewer actions to gain in before the judging. The seat's own actions are capped at OWN_STEPS per depth."""
    try:
        game.apply_in_place(world, seat, action)
    except EngineError:
        return None
    others = 0
    for step in range(MAX_STEPS):
        cut = budget.depth is not None and (others >= budget.depth or step >= OWN_STEPS * budget.depth)
        if game.is_over(world) or cut:
            return value(game, world, seat)
        if deadline is not None and time.perf_counter() > deadline:
            return None
        others += _step(game, world, rng, budget) != seat
    return None


def value(game: Game[Any, Any], state: Any, seat: int) -> float:
    """A game's worth to a seat by the score (final; or each seat's own projection, as that seat sees it in this
    sampled world, with its playout_worth added): WIN shared among those with the top total, plus MARGIN per point
    ahead of (or behind) the best other seat."""
    if game.is_over(state):
        totals: dict[int, float] = {p.seat: p.total for p in game.score(state, None).players}
    else:
        totals = {s: t + game.playout_worth(state, s) for s, t in _own_totals(game, state).items()}
    best = max(totals.values())
    others = max((t for s, t in totals.items() if s != seat), default=totals[seat])
    top = [s for s, t in totals.items() if t == best]
    return (WIN / len(top) if seat in top else 0.0) + MARGIN * (totals[seat] - others)
