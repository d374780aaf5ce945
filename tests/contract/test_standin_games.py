"""Whole games of every registered game in which every seat is played by the stand-in (engine/standin.py).

Issue "Keep games moving": "stand-in full games for every game and player count in the contract kit". For each
registered game and each player count it allows (the all-options-on variant at the smallest count, so that the
modules are played too; kit.setups' rule), the stand-in chooses every action with a small deterministic budget
(seconds=None: play-outs alone decide). At every step the choice is a legal action of the seat that must act and it
applies; the state survives a JSON round-trip (at every step of the first kit.DENSE, then every kit.SPARSE-th, as
in test_playouts.py, and at the end); the game ends within engine.playout.MAX_STEPS actions with a
valid final scoreboard; the recorded (seat, action) list replays from the seed to the very same final state; and
the same seed gives the same game twice.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.games import GameEntry
from engine import standin
from engine.core import Playout, replay
from engine.playout import MAX_STEPS
from tests.contract.kit import Setup, assert_over, assert_scoreboard, checked, entries, round_trip, setups

# The stand-in's thinking per decision: as little as keeps the whole file quick (Keyper's moves and Keythedral's
# long games are costly), and deterministic (seconds=None).
QUICK = standin.Budget(playouts=1, seconds=None, candidates=1, depth=0, screened=1)
SEED_STEP = 1_000_003  # the stand-in's seed at a step: setup seed * SEED_STEP + actions so far (as the table does)


def standin_setups(entry: GameEntry) -> list[Setup]:
    """One game per player count (kit.setups, options off), but every option on at the smallest count."""
    both = setups(entry, 2 * (entry.max_players - entry.min_players + 1))
    return [both[1], *both[2::2]]


def cases() -> list[Any]:
    """(entry, setup) of every registered game and player count, with ids like 'keyper-3p' or 'keyper-2p-options'."""
    found = []
    for entry in entries():
        for k, setup in enumerate(standin_setups(entry)):
            found.append(pytest.param(entry, setup, id=f"{entry.id}-{len(setup.players)}p{'-options' * (k == 0)}"))
    return found


def play(entry: GameEntry, setup: Setup) -> tuple[Any, Playout]:
    """A whole game with the stand-in at every seat, every choice checked (and, at kit.checked steps, the JSON)."""
    game, quick = entry.engine, QUICK
    record = Playout(list(setup.players), setup.seed, dict(setup.options))
    state = game.setup(list(setup.players), setup.seed, setup.options)
    for step in range(MAX_STEPS):
        if checked(step + 1):
            round_trip(game, state)
        if game.is_over(state):
            round_trip(game, state)
            return state, record
        seats = game.to_act(state)
        assert seats, f"nobody can act but the game is not over ({setup}, step {step})"
        action = standin.choose(game, state, seats[0], seed=setup.seed * SEED_STEP + step, budget=quick)
        assert action in game.legal_actions(state, seats[0]), f"not a legal action: {game.format(action)}"
        record.actions.append((seats[0], game.format(action)))
        game.apply_in_place(state, seats[0], action)
    pytest.fail(f"the stand-ins' game did not end within {MAX_STEPS} actions ({setup})")


PLAYED: dict[tuple[str, int], tuple[Any, Playout]] = {}  # (game id, seed): the to_json of the end, and the record


@pytest.mark.parametrize(("entry", "setup"), cases())
def test_a_whole_game_of_stand_ins(entry: GameEntry, setup: Setup) -> None:
    """contract (the stand-in, issue "Keep games moving"): every choice is legal for the seat that must act and
    applies, every state survives a JSON round-trip, the game ends within MAX_STEPS with a valid final scoreboard,
    and the record replays from the seed to the same final state."""
    game = entry.engine
    final, record = play(entry, setup)
    assert_over(game, final)
    assert_scoreboard(game.score(final, None), setup.players)
    assert game.to_json(replay(game, record)) == game.to_json(final), f"replay differs ({setup})"
    PLAYED[(entry.id, setup.seed)] = (game.to_json(final), record)


def test_stand_in_games_are_deterministic() -> None:
    """contract (the stand-in): the same seed gives the same game twice, for the default game at its smallest
    count with its options on (the game the matrix above plays, when it ran, stands for the first time)."""
    entry = entries()[0]
    setup = standin_setups(entry)[0]
    first = PLAYED.get((entry.id, setup.seed))
    if first is None:
        final, record = play(entry, setup)
        first = (entry.engine.to_json(final), record)
    final, record = play(entry, setup)
    assert record.actions == first[1].actions
    assert entry.engine.to_json(final) == first[0]
