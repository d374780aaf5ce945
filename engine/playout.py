"""Random play-outs of any engine: the fuzzer's and the benchmark's driver."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import Decision, Game, Playout, Rng

MAX_STEPS = 20_000

StepHook = Callable[[Any, int, Any], None]


def random_playout(
    game: Game[Any, Any],
    players: list[str],
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    choice_seed: int | None = None,
    on_step: StepHook | None = None,
) -> tuple[Any, Playout]:
    """Play a whole game choosing uniformly among legal actions; returns the final state and the record.

    on_step(state, seat, action) is called before each action is applied. Raises RuntimeError when the
    game reaches a state where nobody can act, or runs past MAX_STEPS.
    """
    record = Playout(list(players), seed, dict(options or {}))
    state = game.setup(players, seed, options)
    chooser = Rng.from_seed(seed if choice_seed is None else choice_seed)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return state, record
        seat, legal, index = pick(game, state, chooser)
        action = legal[index]
        if on_step:
            on_step(state, seat, action)
        record.actions.append((seat, game.format(action)))
        game.apply_choice(state, seat, legal, index)
    raise RuntimeError(f"game did not end within {MAX_STEPS} actions")


def pick(game: Game[Any, Any], state: Any, chooser: Rng) -> tuple[int, list[Any], int]:
    """Choose a seat among those to act and the index of one of its legal actions; RuntimeError on a dead end."""
    seats = game.to_act(state)
    if not seats:
        raise RuntimeError("nobody can act but the game is not over")
    seat = seats[chooser.below(len(seats))]
    options = game.legal_actions(state, seat)
    if not options:
        raise RuntimeError(f"seat {seat} must act but has no legal action ({game.waiting_for(state)})")
    weights = game.playout_weights(state, seat, options)
    if weights is None:
        return seat, options, chooser.below(len(options))
    return seat, options, weighted(weights, chooser)


def weighted(weights: list[float], chooser: Rng) -> int:
    """An index drawn with probability proportional to its weight (the first if all weights are zero)."""
    total = sum(weights)
    if total <= 0:
        return 0
    point = chooser.below(1 << 53) / float(1 << 53) * total
    for i, w in enumerate(weights):
        point -= w
        if point < 0:
            return i
    return len(weights) - 1


def forced_move(game: Game[Any, Any], state: Any, *, decisions: list[Decision] | None = None,
                legal: Callable[[int], list[Any]] | None = None) -> tuple[int, Any] | None:
    """The move a table makes by itself: (seat, action) when one decision alone is open, play waits for it, its
    choices are public, and it has exactly one legal answer; None otherwise. decisions and legal may be given
    when the caller already has them for this state."""
    found = game.decisions(state) if decisions is None else decisions
    if len(found) != 1 or not found[0].must or not found[0].public_choices:
        return None
    actions = legal(found[0].seat) if legal is not None else game.legal_actions(state, found[0].seat)
    return (found[0].seat, actions[0]) if len(actions) == 1 else None


def chosen_moves(game: Game[Any, Any], record: Playout) -> list[tuple[int, str]]:
    """A record's (seat, notation) without the forced moves a table plays by itself: what players would type.

    Raises EngineError if an action of the record does not apply."""
    state = game.setup(record.players, record.seed, record.options)
    chosen = []
    for seat, text in record.actions:
        action = game.parse(state, seat, text)
        if forced_move(game, state) is None:
            chosen.append((seat, text))
        game.apply_in_place(state, seat, action)
    return chosen
