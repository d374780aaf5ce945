"""The stand-in: a sensible legal move for a seat, chosen from what that seat may see only.

It plays for a seat whose clock ran out, for a computer seat, or at `keywood play --computer N`. The method is
flat Monte-Carlo over sampled worlds: the hidden information is drawn again with `game.resample_hidden(state, seat,
seed)` (a function of what the seat sees and the seed alone, checked by the contract kit), each candidate action is
tried in such worlds, the game is played out to its end with the game's own play-out policy, and the candidate with
the best mean result for the seat is chosen. The real state's hidden information is never read: the worlds would
be the same whatever it was.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from engine.core import EngineError, Game, Rng
from engine.playout import MAX_STEPS, pick, weighted

SCREENED = 40  # legal actions whose immediate projected score is looked at when there are many
WIN = 1.0  # a win is worth this much; the score margin only separates equal chances (MARGIN per point)
MARGIN = 0.002


@dataclass(frozen=True)
class Budget:
    """How much thinking one decision gets: play-outs at most, seconds at most (None: play-outs alone decide, as
    tests want), how many candidate actions are tried when there are more, and how many actions a play-out runs
    before it is judged by the public projected score (None: to the end of the game)."""

    playouts: int = 64
    seconds: float | None = 0.25
    candidates: int = 8
    depth: int | None = None


def choose(game: Game[Any, Any], state: Any, seat: int, *, seed: int, budget: Budget = Budget()) -> Any:
    """The stand-in's action for the seat; raises ValueError when the seat has no legal action."""
    legal = game.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal action")
    if len(legal) == 1:
        return legal[0]
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds  # screening counts too
    rng = Rng.from_seed(seed)
    candidates = _candidates(game, state, seat, legal, budget.candidates, rng)
    totals = [0.0] * len(candidates)
    tries = [0] * len(candidates)
    for k in range(max(budget.playouts, len(candidates))):
        if k >= len(candidates) and deadline is not None and time.perf_counter() > deadline:
            break
        i = k % len(candidates)
        world = game.resample_hidden(state, seat, rng.next64() >> 1)
        value = _try(game, world, seat, candidates[i], rng, budget.depth)
        if value is not None:
            totals[i] += value
            tries[i] += 1
    means = [totals[i] / tries[i] if tries[i] else float("-inf") for i in range(len(candidates))]
    return candidates[max(range(len(candidates)), key=lambda i: (means[i], -i))]


def _candidates(game: Game[Any, Any], state: Any, seat: int, legal: list[Any], most: int, rng: Rng) -> list[Any]:
    """Up to `most` legal actions (all when few): half the best by the seat's immediate projected score among a
    sample of SCREENED, the rest drawn by the game's play-out weights."""
    if len(legal) <= most:
        return list(legal)
    weights = list(game.playout_weights(state, seat, legal) or [1.0] * len(legal))
    pool = list(range(len(legal)))
    drawn: list[int] = []
    while pool and len(drawn) < SCREENED:
        j = weighted([weights[p] for p in pool], rng)
        drawn.append(pool.pop(j))
    world = game.resample_hidden(state, seat, rng.next64() >> 1)  # judged in a world the seat can see, not the real
    gains = {i: _projected(game, world, seat, legal[i]) for i in drawn}
    best = sorted(drawn, key=lambda i: -gains[i])[:most // 2]
    rest = [i for i in drawn if i not in best][:most - len(best)]
    return [legal[i] for i in sorted(best + rest)]


def _projected(game: Game[Any, Any], state: Any, seat: int, action: Any) -> float:
    """The seat's public projected total right after the action (the one-step greedy player's measure)."""
    try:
        after, _ = game.apply(state, seat, action)
    except EngineError:
        return float("-inf")
    return float(next(p.total for p in game.score(after, None).players if p.seat == seat))


def _try(game: Game[Any, Any], world: Any, seat: int, action: Any, rng: Rng, depth: int | None = None
         ) -> float | None:
    """The seat's result when it plays `action` in this world and the game is played out (to its end, or for
    `depth` actions and then judged by the public projected score); None when the action does not apply there."""
    try:
        game.apply_in_place(world, seat, action)
    except EngineError:
        return None
    for step in range(MAX_STEPS):
        if game.is_over(world) or (depth is not None and step >= depth):
            return value(game, world, seat)
        who, options, index = pick(game, world, rng)
        game.apply_choice(world, who, options, index)
    return None


def value(game: Game[Any, Any], state: Any, seat: int) -> float:
    """A game's worth to a seat by its public score (final, or projected): WIN shared among those with the top
    total, plus MARGIN per point ahead of (or behind) the best other seat."""
    totals = {p.seat: p.total for p in game.score(state, None).players}
    best = max(totals.values())
    others = max((t for s, t in totals.items() if s != seat), default=totals[seat])
    top = [s for s, t in totals.items() if t == best]
    return (WIN / len(top) if seat in top else 0.0) + MARGIN * (totals[seat] - others)
