"""The stand-in (engine/standin.py): a legal, deterministic choice for every registered game, made from what its
seat may see only (issue "Keep games moving": its choice does not change when only hidden information changes)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GameEntry
from engine import standin
from engine.core import Rng
from engine.playout import pick
from tests.contract.kit import each_game

QUICK = standin.Budget(playouts=12, seconds=None, candidates=4)  # deterministic: play-outs alone decide (depth,
# greedy steps and prior as by default)


def states(entry: GameEntry, steps: tuple[int, ...] = (0, 7, 31)) -> list[Any]:
    """States of a seeded 3-player random game after the given numbers of actions (fewer if it ends first)."""
    game = entry.engine
    players = ["Ana", "Ben", "Cleo", "Dev"][:max(entry.min_players, min(3, entry.max_players))]
    state = game.setup(players, 11, None)
    chooser = Rng.from_seed(5)
    found = []
    for k in range(max(steps) + 1):
        if game.is_over(state):
            break
        if k in steps:
            found.append(game.from_json(game.to_json(state)))
        seat, options, index = pick(game, state, chooser)
        game.apply_choice(state, seat, options, index)
    return found


def deciding(entry: GameEntry, state: Any) -> int:
    """A seat that must decide now."""
    return int(entry.engine.to_act(state)[0])


@each_game()
def test_the_stand_in_plays_a_legal_action(entry: GameEntry) -> None:
    """Whatever the state, the stand-in's choice is one of the seat's legal actions."""
    for state in states(entry):
        seat = deciding(entry, state)
        assert standin.choose(entry.engine, state, seat, seed=3, budget=QUICK) in entry.engine.legal_actions(
            state, seat)


@each_game()
def test_the_same_seed_gives_the_same_choice(entry: GameEntry) -> None:
    """With a play-out budget (no clock), the choice is a function of the state and the seed."""
    state = states(entry)[-1]
    seat = deciding(entry, state)
    first = standin.choose(entry.engine, state, seat, seed=9, budget=QUICK)
    assert standin.choose(entry.engine, state, seat, seed=9, budget=QUICK) == first


@each_game()
def test_the_choice_ignores_what_the_seat_cannot_see(entry: GameEntry) -> None:
    """Issue "Keep games moving": redraw everything hidden from the deciding seat (others' hands, the bag, the
    stacks); the stand-in chooses exactly the same, since it samples its worlds from what it sees."""
    game = entry.engine
    for state in states(entry):
        seat = deciding(entry, state)
        choice = standin.choose(game, state, seat, seed=17, budget=QUICK)
        for k in (1, 2):
            other = game.resample_hidden(state, seat, 1000 + k)
            assert standin.choose(game, other, seat, seed=17, budget=QUICK) == choice, (entry.id, k)


@each_game()
def test_a_finished_game_is_worth_a_win_shared_and_the_margin(entry: GameEntry) -> None:
    """value(): WIN for the top total (shared on a tie) plus MARGIN per point ahead of the best other seat."""
    game = entry.engine
    state = states(entry, (0,))[0]
    chooser = Rng.from_seed(2)
    while not game.is_over(state):
        seat, options, index = pick(game, state, chooser)
        game.apply_choice(state, seat, options, index)
    totals = {p.seat: p.total for p in game.score(state, None).players}
    best = max(totals.values())
    for seat, total in totals.items():
        others = max(t for s, t in totals.items() if s != seat)
        won = standin.WIN / sum(1 for t in totals.values() if t == best) if total == best else 0.0
        assert standin.value(game, state, seat) == pytest.approx(won + standin.MARGIN * (total - others))


def test_a_seat_with_nothing_to_do_is_refused() -> None:
    """choose() raises ValueError for a seat that has no decision now."""
    from bot import games

    entry = games.get("keyflower")
    state = states(entry, (0,))[0]
    idle = next(s for s in range(3) if s not in entry.engine.to_act(state))
    with pytest.raises(ValueError, match="has no legal action"):
        standin.choose(entry.engine, state, idle, seed=1, budget=QUICK)


@each_game()
def test_a_shallow_budget_judges_by_the_projected_score(entry: GameEntry) -> None:
    """Budget.depth: play-outs stop after that many actions and are judged by the public projected score; the
    choice is still legal, and value() reads a game in progress by its projection and each seat's playout_worth."""
    game = entry.engine
    state = states(entry)[-1]
    seat = deciding(entry, state)
    shallow = standin.Budget(playouts=8, seconds=None, candidates=4, depth=5)
    assert standin.choose(game, state, seat, seed=4, budget=shallow) in game.legal_actions(state, seat)
    totals = {p.seat: p.total + game.playout_worth(state, p.seat) for p in game.score(state, None).players}
    others = max(t for s, t in totals.items() if s != seat)
    top = [s for s, t in totals.items() if t == max(totals.values())]
    won = standin.WIN / len(top) if seat in top else 0.0
    assert standin.value(game, state, seat) == pytest.approx(won + standin.MARGIN * (totals[seat] - others))


@each_game()
def test_no_time_left_still_gives_a_legal_action(entry: GameEntry) -> None:
    """A strict clock: with no time at all, no play-out runs and the best immediate gain is chosen; still legal."""
    game = entry.engine
    for state in states(entry):
        seat = deciding(entry, state)
        hurried = standin.Budget(seconds=0.0)
        assert standin.choose(game, state, seat, seed=6, budget=hurried) in game.legal_actions(state, seat)


@each_game()
def test_flat_random_play_outs_to_the_end_still_work(entry: GameEntry) -> None:
    """Budget(depth=None, greedy=0.0, prior=0.0) is the first stand-in: play-outs to the end by the play-out
    weights alone; deterministic and blind to what is hidden like the default."""
    game = entry.engine
    plain = standin.Budget(playouts=3, seconds=None, candidates=3, depth=None, greedy=0.0, prior=0.0)
    state = states(entry)[-1]
    seat = deciding(entry, state)
    choice = standin.choose(game, state, seat, seed=8, budget=plain)
    assert choice in game.legal_actions(state, seat)
    assert standin.choose(game, game.resample_hidden(state, seat, 77), seat, seed=8, budget=plain) == choice
