"""The view is the typed record engine.keythedral.view.KView: along random games every view the engine builds has
exactly the keys KView and the records inside it declare (a seat's own view adds its law cards and legal actions;
a player's screen adds its cubes, seats and points only where the viewer sees it, ruling T-1)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.keythedral import GAME
from engine.keythedral.state import KState
from engine.keythedral.view import (
    BidView,
    CottageView,
    FenceView,
    FieldView,
    KView,
    MarkerView,
    PlayerView,
    SpaceView,
    TileView,
    Variation,
    WorkerView,
)
from engine.playout import random_playout

OWN = {"laws", "legal"}  # in a seat's own view only
SCREEN = {"cubes", "cube_count", "tiles", "points"}  # behind a player's screen
RECORDS = {"fields": FieldView, "cottages": CottageView, "fences": FenceView, "workers": WorkerView,
           "work_order": MarkerView, "mat": SpaceView, "bids": BidView}


def keys(record: type) -> set[str]:
    """Every key a TypedDict declares, required or not."""
    return set(record.__annotations__)


def check(view: dict[str, Any], own: bool) -> None:
    """The view's keys, and those of the records in it, are the declared ones."""
    assert set(view) == keys(KView) - (set() if own else OWN)
    assert set(view["variation"]) == keys(Variation)
    for name, record in RECORDS.items():
        assert all(set(entry) == keys(record) for entry in view[name]), name
    for player in view["players"]:
        assert set(player) in (keys(PlayerView) - SCREEN, keys(PlayerView))
        assert all(set(tile) == keys(TileView) for tile in player.get("tiles", []))


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {"open_screens": True}), (2, {"no_laws": True})])
def test_every_view_along_a_game_has_the_declared_keys(players: int, options: dict[str, bool]) -> None:
    seen = 0

    def look(state: KState, seat: int, action: object) -> None:
        nonlocal seen
        if seen % 25 == 0:
            check(GAME.view(state, None), own=False)
            check(GAME.view(state, seat), own=True)
        seen += 1

    final, _ = random_playout(GAME, ["Ana", "Ben", "Cleo", "Dev"][:players], 40 + players, options=options,
                              on_step=look)
    check(GAME.view(final, None), own=False)
