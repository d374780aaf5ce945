"""What the Keyflower image tests share to build their tables: views (and states) taken from seeded random play-outs
(engine.playout.random_playout with a step hook), each scenario played once per test run and handed out as fresh
copies, and the `scenario` fixture over a set of them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any, NamedTuple

import pytest

from engine.keyflower.game import GAME
from engine.keyflower.state import KfState
from engine.playout import random_playout

View = dict[str, Any]
Scene = tuple[View, dict[str, Any]]
"""A scenario: the public view and the state (as GAME.to_json writes it)."""


def busiest(names: list[str], seed: int, when: Callable[[KfState], bool],
            options: dict[str, Any] | None = None) -> Scene:
    """The public view (and the state) with the most bids and uses among the turns where `when` holds."""
    best: list[Any] = [None, None, -1]

    def hook(state: KfState, seat: int, action: Any) -> None:
        if state.phase == "turns" and not state.pending and when(state):
            busy = sum(len(p.bids) + len(p.uses) for p in state.places.values())

            if busy > best[2]:
                best[:] = [GAME.view(state, None), GAME.to_json(state), busy]

    random_playout(GAME, names, seed, options=options, on_step=hook)
    assert best[0] is not None
    return best[0], best[1]


def first(names: list[str], seed: int, when: Callable[[KfState], bool],
          options: dict[str, Any] | None = None) -> Scene:
    """The public view (and the state) at the first step of a game where `when` holds."""
    found: list[Scene] = []

    def hook(state: KfState, seat: int, action: Any) -> None:
        if not found and when(state):
            found.append((GAME.view(state, None), GAME.to_json(state)))

    random_playout(GAME, names, seed, options=options, on_step=hook)
    return found[0]


def end(names: list[str], seed: int, options: dict[str, Any] | None = None) -> Scene:
    """The public view (and the state) when a game is over."""
    final, _ = random_playout(GAME, names, seed, options=options)
    return GAME.view(final, None), GAME.to_json(final)


class Scenes(NamedTuple):
    """A set of scenarios: each played once (built), and fresh copies of its view (table) and state (state_of)."""

    built: Callable[[str], Scene]
    table: Callable[[str], View]
    state_of: Callable[[str], KfState]


def scenes(builders: Mapping[str, Callable[[], Scene]]) -> Scenes:
    """The cached builder of a set of scenarios (name -> how to play it) and the readers of its tables."""

    @cache
    def built(name: str) -> Scene:
        """A scenario's view and state, played once per test run."""
        return builders[name]()

    def table(name: str) -> View:
        """A fresh copy of a scenario's public view."""
        return copy.deepcopy(built(name)[0])

    def state_of(name: str) -> KfState:
        """A fresh copy of a scenario's state."""
        return GAME.from_json(copy.deepcopy(built(name)[1]))

    return Scenes(built, table, state_of)


def scenario_fixture(names: Iterable[str]) -> Any:
    """A `scenario` fixture giving each of these scenarios in turn (assign it to `scenario` in a test module)."""

    @pytest.fixture(params=tuple(names))
    def scenario(request: pytest.FixtureRequest) -> str:
        """Each table in turn."""
        return str(request.param)

    return scenario
