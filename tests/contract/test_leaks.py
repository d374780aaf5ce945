"""The leak test: what everyone is shown must not change when the hidden information is redrawn.

At states sampled along random play-outs, s2 = resample_hidden(s, None, seed) is a state the public cannot tell
from s. Everything public is compared between the two: the public view, the projected score, the table image,
the open decisions and the choices shown to everyone (buttons), and the public events of the same next action.
A seat's own view is compared the same way against resample_hidden(s, seat, seed).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games import GameEntry
from engine.core import Game, Rng
from engine.playout import random_playout
from tests.contract.kit import Setup, copy_state, each_game, secret_open, setups

PLAYOUTS = 6
SAMPLE_EVERY = 7
RESAMPLES = 2
CHECKS = 6  # actions checked per sampled state and seat
IMAGES = 4  # images compared per game (rendering a big table costs tens of milliseconds)


def sampled(entry: GameEntry) -> list[tuple[Setup, Any]]:
    """Copies of states along a few play-outs: every SAMPLE_EVERY-th, all with a secret choice open, and the end."""
    game = entry.engine
    found: list[tuple[Setup, Any]] = []
    for setup in setups(entry, PLAYOUTS, first_seed=501):
        steps = 0

        def keep(state: Any, seat: int, action: Any, setup: Setup = setup) -> None:
            nonlocal steps
            if steps % SAMPLE_EVERY == 0 or secret_open(game, state):
                found.append((setup, copy_state(game, state)))
            steps += 1

        final, _ = random_playout(game, list(setup.players), setup.seed, options=setup.options, on_step=keep)
        found.append((setup, copy_state(game, final)))
    return found


_SAMPLES: dict[str, list[tuple[Setup, Any]]] = {}


def samples(entry: GameEntry) -> list[tuple[Setup, Any]]:
    """The sampled states of a game, computed once per test session (no test changes a sample)."""
    if entry.id not in _SAMPLES:
        _SAMPLES[entry.id] = sampled(entry)
    return _SAMPLES[entry.id]


def resamples(game: Game[Any, Any], state: Any, viewer: int | None) -> list[Any]:
    """A few redraws of what the viewer cannot see; the original state must stay as it was."""
    before = game.to_json(state)
    found = [game.resample_hidden(state, viewer, seed) for seed in range(1, RESAMPLES + 1)]
    assert game.to_json(state) == before, "resample_hidden changed the state it was given"
    return found


def public_buttons(game: Game[Any, Any], state: Any) -> list[tuple[int, str, list[str]]]:
    """(seat, key, formatted answers) of every decision whose choices may be shown to everyone."""
    found = []
    for d in game.decisions(state):
        if d.public_choices:
            answers = game.legal_actions(state, d.seat) if d.must else game.pending_answers(state, d.seat)
            found.append((d.seat, d.key, [game.format(a) for a in answers]))
    return found


def shared_action(game: Game[Any, Any], s: Any, s2: Any, rng: Rng) -> tuple[int, Any] | None:
    """A (seat, action) legal in both states, the seat being one of s's seats to act; None when there is none."""
    seats = game.to_act(s)
    for k in range(len(seats)):
        seat = seats[(k + rng.below(len(seats))) % len(seats)]
        there = game.legal_actions(s2, seat)
        both = [a for a in game.legal_actions(s, seat) if a in there]
        if both:
            return seat, both[rng.below(len(both))]
    return None


@each_game()
def test_public_views_scores_and_decisions_ignore_hidden_information(entry: GameEntry) -> None:
    """contract (leak test): for s2 = resample_hidden(s, None, seed), the public view, the public projected score,
    the open decisions, waiting_for and the public choices (buttons) are the same as for s."""
    game = entry.engine
    for setup, s in samples(entry):
        for s2 in resamples(game, s, None):
            where = f"{setup}, at {game.waiting_for(s)}"
            assert game.view(s2, None) == game.view(s, None), f"public view differs: {where}"
            assert game.score(s2, None) == game.score(s, None), f"public score differs: {where}"
            assert game.decisions(s2) == game.decisions(s), f"decisions differ: {where}"
            assert game.waiting_for(s2) == game.waiting_for(s)
            assert game.is_over(s2) == game.is_over(s)
            assert public_buttons(game, s2) == public_buttons(game, s), f"public choices differ: {where}"


@each_game()
def test_public_events_of_the_same_action_ignore_hidden_information(entry: GameEntry) -> None:
    """contract (leak test): the same action applied to s and to s2 = resample_hidden(s, None, seed) gives the same
    public events and the same public view after, unless it draws or reveals (is_undo_barrier)."""
    game = entry.engine
    rng = Rng.from_seed(7)
    compared = 0
    for setup, s in samples(entry):
        if game.is_over(s):
            continue
        for s2 in resamples(game, s, None):
            found = shared_action(game, s, s2, rng)
            if found is None:
                continue
            seat, action = found
            after, events = game.apply(s, seat, action)
            after2, events2 = game.apply(s2, seat, action)
            if game.is_undo_barrier(s, after) or game.is_undo_barrier(s2, after2):
                continue
            text = game.format(action)
            assert [e.text for e in events2 if e.public] == [e.text for e in events if e.public], \
                f"public events of '{text}' by seat {seat} differ ({setup})"
            assert game.view(after2, None) == game.view(after, None), f"public view after '{text}' differs ({setup})"
            compared += 1
    assert compared, "no action was ever compared: the public-events check went untested"


@each_game()
def test_secret_choices_look_the_same_to_everyone(entry: GameEntry) -> None:
    """contract (leak test for secret choices): for a decision whose choice is secret (Decision.is_secret),
    every choice of the seat gives the same public events, public notation and public view after, unless it
    reveals or draws (is_undo_barrier)."""
    game = entry.engine
    compared = 0
    for setup, s in samples(entry):
        for d in [d for d in game.decisions(s) if d.must and d.is_secret]:
            seen: set[str] = set()
            for action in game.legal_actions(s, d.seat)[:CHECKS]:
                after, events = game.apply(s, d.seat, action)
                if game.is_undo_barrier(s, after):
                    continue
                public = json.dumps([game.public_notation(action), [e.text for e in events if e.public],
                                     game.view(after, None)], sort_keys=True)
                seen.add(public)
                compared += 1
            assert len(seen) <= 1, f"seat {d.seat}'s secret choices differ in public ({d.key}, {setup})"
    assert compared, "no secret choice was ever compared"


@each_game()
def test_public_images_ignore_hidden_information(entry: GameEntry) -> None:
    """contract (leak test): the entry's renderer draws the same PNG bytes for s and s2 = resample_hidden(s, None),
    at a few sampled states (secret choices open first)."""
    if entry.render is None:
        pytest.skip(f"{entry.id} has no renderer")
    game = entry.engine
    states = [s for _, s in samples(entry)]
    picked = ([s for s in states if secret_open(game, s)][:IMAGES // 2] + states[::max(1, len(states) // IMAGES)])
    for s in picked[:IMAGES]:
        s2 = resamples(game, s, None)[0]
        assert entry.render(game.view(s2, None)) == entry.render(game.view(s, None))


@each_game()
def test_renderer_refuses_a_seats_view(entry: GameEntry) -> None:
    """contract (render): the renderer takes the public view only and refuses a seat's view with ValueError."""
    if entry.render is None:
        pytest.skip(f"{entry.id} has no renderer")
    game = entry.engine
    _, s = samples(entry)[0]
    with pytest.raises(ValueError):
        entry.render(game.view(s, 0))


@each_game()
def test_resample_hidden_redraws_something_hidden(entry: GameEntry) -> None:
    """contract (the leak test can fail): resample_hidden changes the state, and at least once per game it changes
    something a seat sees privately (so a view leaking that would be caught above)."""
    game = entry.engine
    changed = private = 0
    for setup, s in samples(entry):
        for s2 in resamples(game, s, None):
            changed += game.to_json(s2) != game.to_json(s)
            private += any(game.view(s2, seat) != game.view(s, seat) for seat in range(len(setup.players)))
    assert changed, "resample_hidden never changed anything"
    assert private, "resample_hidden never changed anything a seat sees privately"


@each_game()
def test_a_seats_view_and_score_ignore_what_it_cannot_see(entry: GameEntry) -> None:
    """contract (leak test for a seat): for s2 = resample_hidden(s, seat, seed), the seat's own view and its
    projected score are the same as in s, for every seat."""
    game = entry.engine
    for setup, s in samples(entry):
        for seat in range(len(setup.players)):
            for s2 in resamples(game, s, seat):
                where = f"seat {seat}, {setup}"
                assert game.view(s2, seat) == game.view(s, seat), f"seat's view differs: {where}"
                assert game.score(s2, seat) == game.score(s, seat), f"seat's score differs: {where}"


@each_game()
def test_check_tells_a_seat_nothing_it_cannot_see(entry: GameEntry) -> None:
    """contract (leak test for `/check`): check(s, seat, a) == check(s2, seat, a) for s2 = resample_hidden(s, seat,
    seed) and every action a of a seat to act legal in both: the verdict never shows others' secrets or a draw."""
    game = entry.engine
    checked = 0
    for setup, s in samples(entry):
        for seat in game.to_act(s):
            for s2 in resamples(game, s, seat)[:1]:
                there = game.legal_actions(s2, seat)
                both = [a for a in game.legal_actions(s, seat) if a in there]
                for action in both[::max(1, len(both) // CHECKS)]:
                    verdict, verdict2 = game.check(s, seat, action), game.check(s2, seat, action)
                    assert verdict.legal
                    assert verdict2 == verdict, f"check of '{game.format(action)}' by seat {seat} differs ({setup})"
                    checked += 1
    assert checked


@each_game()
def test_judging_a_tried_action_says_what_check_says(entry: GameEntry) -> None:
    """contract (judge): the table's trial move (a copy, then apply_choice) judged gives check's verdict, so a joiner's
    'what each answer does' is the same whether the table tried the answer for its buttons or not."""
    game = entry.engine
    judged = 0
    for _setup, s in samples(entry):
        for seat in game.to_act(s):
            options = game.legal_actions(s, seat)
            for index in range(0, len(options), max(1, len(options) // CHECKS)):
                after = copy_state(game, s)
                events = game.apply_choice(after, seat, options, index)
                assert game.judge(s, seat, options[index], after, events) == game.check(s, seat, options[index])
                judged += 1
    assert judged
