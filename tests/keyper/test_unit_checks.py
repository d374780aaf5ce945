"""Ruling K-9: a unit of a yield that nothing can be taken for is lost at once. The engine asks whether anything can
be taken (legal.can_take, stopping at the first thing found) rather than listing everything; this checks that the
answer is always the listing's."""

from __future__ import annotations

import pytest

from engine.keyper import GAME
from engine.keyper.legal import can_take, step_takes
from engine.keyper.state import State, Step
from engine.keyper.works import exchange_rules
from engine.playout import random_playout

# Every kind of unit a yield queues; an exchange unit names the field or tile it converts with.
EXCHANGES = ["convert_clay", "convert_log", "convert_rock", "trade_raw", "trade_finished", "brickmaker", "carpenter",
             "stonemason", "scrapyard", "alchemist", "jewel_cutter", "gem_dealer", "windmill", "hop_field",
             "livestock_market", "copse", "key_market", "trading_post"]
KINDS = [("build", []), ("discount_build", []), ("upgrade", [])] + [("exchange", [kind]) for kind in EXCHANGES]


def states(seed: int, every: int) -> list[State]:
    """Every `every`-th state of a seeded random game."""
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], seed)
    state = GAME.setup(record.players, record.seed, record.options)
    found = []
    for k, (seat, text) in enumerate(record.actions):
        if k % every == 0:
            found.append(state)
        state = GAME.apply(state, seat, GAME.parse(state, seat, text))[0]
    return found


def test_every_exchange_kind_has_rules() -> None:
    """The kinds checked below are the ones the engine knows (a renamed kind would make the check vacuous)."""
    assert all(exchange_rules(kind, False) for kind in EXCHANGES)


@pytest.mark.parametrize("seed", [3, 11])
def test_can_take_is_whether_the_listing_has_anything(seed: int) -> None:
    """For states across a game, every seat and every kind of work unit (and the units actually queued), can_take
    says yes exactly when step_takes lists something."""
    checked = {True: 0, False: 0}
    for state in states(seed, every=4):
        steps = list(state.steps) + [Step(seat, 0, kind, options, "check") for seat in range(len(state.players))
                                     for kind, options in KINDS]
        for step in steps:
            listed = bool(step_takes(state, step))
            assert can_take(state, step) == listed, (step, GAME.to_json(state))
            checked[listed] += 1
    assert checked[True] > 50 and checked[False] > 50  # both answers were put to the test
