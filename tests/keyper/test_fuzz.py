"""Seeded random play-outs of whole Keyper games, checking invariants at every step.

Run more games with `python -m pytest tests/keyper/test_fuzz.py --fuzz-games 3000`.
A failure prints the seed and the action list as a ready-made playthrough.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine.core import Playout, replay
from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import State
from engine.playout import random_playout


def keyple_census(state: State) -> Counter[str]:
    """Every keyple in the game by colour, wherever it stands."""
    census: Counter[str] = Counter()
    for p in state.players:
        census.update({c: n for c, n in p.keyp.items()})
        census.update(k.colour for k in p.keyp_tile)
        census.update(k.colour for ks in p.plot_keyples.values() for k in ks)
    census.update(k.colour for b in state.boards for ks in b.spaces.values() for k in ks)
    return +census


def resource_census(state: State) -> Counter[str]:
    """Supply plus every player's goods, by resource."""
    total: Counter[str] = Counter(state.supply)
    for p in state.players:
        total.update(p.goods)
    return total


def tile_places(state: State) -> Counter[str]:
    """How many places each country tile or winter fair is in (each must be in exactly one, or the box)."""
    places: Counter[str] = Counter(state.display + state.bag + state.discard + state.stacks)
    for p in state.players:
        places.update(p.tiles + p.winter_fairs)
        places.update(plot.tile for plot in p.plots.values())
        places.update(plot.under for plot in p.plots.values() if plot.under)
        places.update(h.fair for held in p.fairground.values() for h in held)
    home = {t.id for t in default().tiles.values() if t.origin == "home"}
    return Counter({t: n for t, n in places.items() if t not in home})


class Checker:
    """Invariants checked before every action of one game."""

    def __init__(self, state: State) -> None:
        self.keyples = keyple_census(state)
        self.resources = Counter(default().supply)
        self.steps = 0

    def __call__(self, state: State, seat: int, action: Any) -> None:
        self.steps += 1
        assert keyple_census(state) == self.keyples, "a keyple appeared or vanished"
        if not state.options.get("unlimited_supply"):
            assert all(n >= 0 for n in state.supply.values()), "the supply went negative"
            assert resource_census(state) == self.resources, "resources were created or destroyed"
        assert all(n >= 0 for p in state.players for n in list(p.goods.values()) + list(p.keyp.values()))
        assert all(n <= 1 for n in tile_places(state).values()), "a tile is in two places"
        assert GAME.to_act(state), "nobody can act before the end"
        assert GAME.waiting_for(state).startswith("waiting for ")
        assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state, "JSON round trip differs"
        assert GAME.parse(state, seat, GAME.format(action)) == action, "notation does not round-trip"
        if self.steps % 25 == 0:
            assert GAME.view(state, None)["legal"] == []
            for legal in GAME.legal_actions(state, seat):
                assert GAME.parse(state, seat, str(legal)) == legal


def play_checked(players: int, seed: int, options: dict[str, Any] | None = None) -> tuple[State, Playout]:
    """Play one checked random game; on failure, report the seed and the actions so far."""
    names = [f"P{i + 1}" for i in range(players)]
    checker: Checker | None = None
    record = Playout(names, seed, dict(options or {}))

    def hook(state: State, seat: int, action: Any) -> None:
        nonlocal checker
        checker = checker or Checker(state)
        checker(state, seat, action)
        record.actions.append((seat, str(action)))

    try:
        return random_playout(GAME, names, seed, options=options, on_step=hook)
    except Exception as exc:  # re-raised with the playthrough attached
        raise AssertionError(
            f"fuzz failure: players={players} seed={seed} options={options}\nactions={record.actions}"
        ) from exc


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_every_invariant(players: int, fuzz_games: int, fuzz_seed: int) -> None:
    """Full random games of 2, 3 and 4 players end, keeping every invariant; the log replays to the state."""
    share = fuzz_games // 3 + (1 if players <= fuzz_games % 3 else 0)
    for k in range(share):
        seed = fuzz_seed + 1000 * players + k
        options = {"unlimited_supply": True} if k % 10 == 9 else None
        final, record = play_checked(players, seed, options)
        assert GAME.is_over(final)
        assert replay(GAME, record) == final, f"replay differs: players={players} seed={seed}"


def test_same_seed_same_game() -> None:
    """Setup and play are deterministic for a seed (the generator lives in the state)."""
    a, ra = random_playout(GAME, ["A", "B", "C"], 77)
    b, rb = random_playout(GAME, ["A", "B", "C"], 77)
    assert ra.actions == rb.actions and a == b
    c, rc = random_playout(GAME, ["A", "B", "C"], 78)
    assert rc.actions != ra.actions
