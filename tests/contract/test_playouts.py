"""Random play-outs of every registered game, checking the engine contract (engine/core.py) at every step (after the
first DENSE steps of a play-out, at every SPARSE-th step, so that a long game such as Keythedral stays quick)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from bot.games import GameEntry
from engine.core import DECISION_KINDS, Game, IllegalAction, InvalidAction, Playout, clone, replay
from engine.playout import random_playout
from tests.contract.kit import Setup, assert_over, checked, each_game, entries, round_trip, setups

PLAYOUTS = 10  # every player count of a 2-6 game, with its options off and on (kit.setups)


class Invariants:
    """The per-step checks of one play-out, fed by random_playout's on_step hook."""

    def __init__(self, game: Game[Any, Any], seats: int) -> None:
        self.game = game
        self.seats = seats
        self.steps = 0
        self.expected: dict[str, Any] | None = None  # apply()'s result for the previous step
        self.closed: set[tuple[int, str]] = set()
        self.open: set[tuple[int, str]] = set()
        self.optional = 0  # decisions seen with must unset (answers ahead)
        self.refused = 0  # actions tried for a seat not to act, and refused

    def __call__(self, state: Any, seat: int, action: Any) -> None:
        """Check a state about to take (seat, action); remember what apply says the next state is."""
        game = self.game
        self.steps += 1
        if not checked(self.steps):
            self.expected = None
            return
        data = self.check_json(state)
        if self.expected is not None:
            assert data == self.expected, "apply_choice gave another state than apply"
        self.check_decisions(state)
        self.check_notation(state)
        self.check_refusal(state, seat, action)
        self.check_copy_and_worth(state, data)
        after, _ = game.apply(state, seat, action)
        assert game.to_json(state) == data, "apply changed the state it was given"
        self.expected = game.to_json(after)

    def finish(self, state: Any) -> None:
        """Check the final state: over, nobody to decide, and the same as apply's last result."""
        assert_over(self.game, state)
        data = self.check_json(state)
        assert self.expected is None or data == self.expected

    def check_json(self, state: Any) -> Any:
        """JSON round-trip (kit.round_trip); returns the data."""
        return round_trip(self.game, state)

    def check_copy_and_worth(self, state: Any, data: Any) -> None:
        """engine.core.clone copies the state whole (data is its JSON; the stand-in probes actions on such copies);
        every seat's playout_worth is a finite number of points."""
        assert self.game.to_json(clone(state)) == data
        assert all(math.isfinite(self.game.playout_worth(state, s)) for s in range(self.seats))

    def check_decisions(self, state: Any) -> None:
        """Decisions: must seats are to_act in order, each seat once, defaults answerable, nobody stuck."""
        game = self.game
        decisions = game.decisions(state)
        assert decisions and game.to_act(state), "nobody must decide but the game is not over"
        assert [d.seat for d in decisions if d.must] == game.to_act(state)
        assert len({d.seat for d in decisions}) == len(decisions), "a seat has two open decisions"
        for d in decisions:
            assert d.kind in DECISION_KINDS and d.phrase
            answers = game.legal_actions(state, d.seat) if d.must else game.pending_answers(state, d.seat)
            assert answers, f"seat {d.seat}'s decision {d.key} has nothing to answer (must={d.must})"
            if d.default is not None:
                assert game.parse(state, d.seat, d.default) in answers, f"default '{d.default}' is not an answer"
            self.optional += not d.must
        keys = {(d.seat, d.key) for d in decisions}
        assert not keys & self.closed, "a closed decision key opened again"
        self.closed |= self.open - keys
        self.open = keys
        acting = set(game.to_act(state))
        for other in sorted(set(range(self.seats)) - acting):  # out-of-turn plays the rules allow (engine.core)
            for action in game.legal_actions(state, other):
                text = game.format(action)
                assert game.parse(state, other, text) == action, f"out-of-turn '{text}' does not round-trip"
                game.apply(state, other, action)  # accepted, on a copy

    def check_notation(self, state: Any) -> None:
        """Notation round-trip of every legal action (and answer ahead) of every seat with a decision, also when the
        legal actions are handed to parse (as the table does); the seat's view is the same with them handed over."""
        game = self.game
        for d in game.decisions(state):
            answers = game.legal_actions(state, d.seat) if d.must else game.pending_answers(state, d.seat)
            for action in answers:
                text = game.format(action)
                assert game.parse(state, d.seat, text) == action, f"'{text}' does not parse back"
                if d.must:
                    assert game.parse(state, d.seat, text, answers) == action, f"'{text}' among the legal actions"
            if d.must:
                assert game.view(state, d.seat, answers) == game.view(state, d.seat), "the view given the legal list"
                self.check_never_twice(state, d.seat, answers)

    def check_never_twice(self, state: Any, seat: int, legal: list[Any]) -> None:
        """An action the game says may not repeat is not among the seat's legal actions right after it."""
        game = self.game
        for index, action in enumerate(legal):
            if not game.may_repeat(action):
                after = clone(state)
                game.apply_choice(after, seat, legal, index)
                assert action not in game.legal_actions(after, seat), f"'{game.format(action)}' came again"
                assert game.public_notation(action)

    def check_refusal(self, state: Any, seat: int, action: Any) -> None:
        """The action for a seat that has no decision is refused with a reason and a rule, changing nothing."""
        game = self.game
        deciding = {d.seat for d in game.decisions(state)}
        stranger = next((s for s in range(self.seats) if s not in deciding), None)
        if stranger is None:
            return
        before = game.to_json(state)
        with pytest.raises(IllegalAction) as refused:
            game.apply(state, stranger, action)
        assert refused.value.reason and refused.value.rule
        assert game.to_json(state) == before
        self.refused += 1


def run(entry: GameEntry, setup: Setup) -> tuple[Invariants, Any, Playout]:
    """Play one random game under the invariants."""
    checks = Invariants(entry.engine, len(setup.players))
    final, record = random_playout(entry.engine, list(setup.players), setup.seed, options=setup.options,
                                   on_step=checks)
    checks.finish(final)
    return checks, final, record


@each_game()
def test_playouts_keep_the_contract_at_every_step(entry: GameEntry) -> None:
    """contract: at every step of random play-outs, JSON round-trip, notation round-trip, decisions agree with
    to_act (in order, one per seat, defaults answerable), nobody stuck, apply == apply_choice and leaves its
    input alone, a copy is whole and the play-out worth finite, a seat without a decision is refused; the game
    ends, and replaying the record gives the same final state."""
    refused = 0
    for setup in setups(entry, PLAYOUTS):
        checks, final, record = run(entry, setup)
        assert checks.steps == len(record.actions) > 0
        replayed = replay(entry.engine, record)
        assert entry.engine.to_json(replayed) == entry.engine.to_json(final), f"replay differs ({setup})"
        refused += checks.refused
        ANSWERED_AHEAD[entry.id] = ANSWERED_AHEAD.get(entry.id, 0) + checks.optional
    assert refused, "no seat was ever without a decision: the refusal check never ran"


ANSWERED_AHEAD: dict[str, int] = {}


def test_the_answers_ahead_branch_runs_for_some_game() -> None:
    """contract kit: the per-step check of answers given ahead (decisions with must unset) runs for at least one
    registered game; a game need not offer answers ahead (Keyflower does not), but the kit's branch must be tried."""
    for entry in entries():
        if ANSWERED_AHEAD.get(entry.id):
            return
        for setup in setups(entry, 4):
            if len(setup.players) > 2 and run(entry, setup)[0].optional:
                return
    pytest.fail("no registered game ever opened a decision ahead of its turn")


@each_game()
def test_playouts_are_deterministic(entry: GameEntry) -> None:
    """contract: setup and play are deterministic for a seed: the same record and the same final state twice."""
    setup = setups(entry, 1)[0]
    first, second = run(entry, setup), run(entry, setup)
    assert first[2].actions == second[2].actions
    assert entry.engine.to_json(first[1]) == entry.engine.to_json(second[1])


@each_game()
def test_replay_refuses_a_spoilt_record(entry: GameEntry) -> None:
    """contract: replay raises an engine error when a recorded action no longer reads or applies."""
    _, _, record = run(entry, setups(entry, 1)[0])
    seat, text = record.actions[0]
    garbled = Playout(record.players, record.seed, record.options, [(seat, "no such action 42"), *record.actions])
    with pytest.raises(InvalidAction):
        replay(entry.engine, garbled)
    opening = entry.engine.setup(record.players, record.seed, record.options)
    idle = [s for s in range(len(record.players)) if s not in {d.seat for d in entry.engine.decisions(opening)}]
    if idle:
        moved = Playout(record.players, record.seed, record.options, [(idle[0], text), *record.actions[1:]])
        with pytest.raises(IllegalAction):
            replay(entry.engine, moved)
