"""Kept parts (render/draw.py's d.kept caches: each game's table base, board faces, cards, chips, field tiles, legends)
must change speed, never pixels: a table drawn with every cache warm from other tables is byte for byte the table
drawn with every cache cleared (d.forget()), whatever was drawn before it.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from typing import Any

import pytest

from render import draw as d
from render import keyflower, keyper, keythedral
from tests.render.golden_images import GOLDEN

Render = Callable[[], bytes]


def stored(name: str) -> dict[str, Any]:
    """A golden input."""
    data: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def keyper_tables() -> list[Render]:
    """Keyper's golden tables and copies changed in ways a game changes between two images."""
    offer = stored("autumn_4p_offer")
    view = offer["view"]
    acting = copy.deepcopy(view) | {"to_act": [0], "active": 0, "offer": None}  # a lower banner, another panel
    built = copy.deepcopy(view)
    built["players"][2]["plots"]["f3"] = {"tile": "stable", "under": None, "upgraded": False}
    built["players"][2]["goods"] = {"gold": 3, "cow": 1}
    built["players"][1]["tiles"] += ["stable"] * 12  # a third row of chips: taller panels
    setup = stored("setup_2p")
    return [
        lambda: keyper.render(view, highlight=offer["highlight"]),
        lambda: keyper.render(setup["view"], highlight=setup["highlight"]),
        lambda: keyper.render(acting),
        lambda: keyper.render(built, highlight="f3@2"),
        lambda: keyper.render(view, highlight="v6@0", size="compact"),
        lambda: keyper.render(built, highlight="v2@1"),
    ]


def keythedral_tables() -> list[Render]:
    """Keythedral's golden tables and copies changed in ways a game changes between two images."""
    views = [stored(f"keythedral_{name}") for name in ("midgame_4p", "setup_4p", "end_5p", "2p_workers")]
    later = copy.deepcopy(views[0])
    later["workers"] = later["workers"][1:]
    later["to_act"] = [2]
    cubes = dict.fromkeys(("black", "brown", "blue", "green", "red", "white", "purple", "yellow"), 0)
    later["players"][0].update(cubes=cubes | {"black": 4}, cube_count=4, tiles=[], points=0)  # a screen opened
    return [functools.partial(keythedral.render, view) for view in [*views, later]]


def keyflower_tables() -> list[Render]:
    """Keyflower's golden tables and copies changed in ways a game changes between two images."""
    names = ("autumn_4p", "spring_3p", "winter_6p", "end_4p", "modules_spring_4p", "modules_summer_4p")
    views = [stored(f"keyflower_{name}") for name in names]
    later = copy.deepcopy(views[0])
    later["to_act"] = [(later["to_act"] or [0])[0] + 1]
    later["start_player"] = (int(later.get("start_player") or 0) + 1) % 4
    return [functools.partial(keyflower.render, view) for view in [*views, later]]


TABLES = {"keyper": keyper_tables, "keythedral": keythedral_tables, "keyflower": keyflower_tables}


@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_table_drawn_from_kept_parts_is_the_table_drawn_afresh(game: str) -> None:
    tables = TABLES[game]()
    fresh = []
    for draw in tables:
        d.forget()
        fresh.append(draw())
    assert len(set(fresh)) == len(fresh)  # every change shows
    warm = [draw() for draw in tables]  # each after the ones before it, every cache kept
    backwards = [draw() for draw in reversed(tables)]
    again = [draw() for draw in tables]
    assert warm == fresh
    assert backwards[::-1] == fresh
    assert again == fresh


def test_forget_clears_every_kept_part() -> None:
    keyper_tables()[0]()
    keythedral_tables()[0]()
    keyflower_tables()[0]()
    assert any(cached.cache_info().currsize for cached in d.KEPT)
    d.forget()
    assert not any(cached.cache_info().currsize for cached in d.KEPT)


@pytest.mark.parametrize("module", [keyper, keythedral, keyflower])
def test_every_cache_of_drawn_parts_is_kept_where_forget_reaches_it(module: Any) -> None:
    """(A cache of Layers or Bases outside d.KEPT would escape the fresh drawing above.)"""
    for name, value in vars(module).items():
        returns = getattr(getattr(value, "__wrapped__", None), "__annotations__", {}).get("return", "")
        if hasattr(value, "cache_info") and ("Layer" in str(returns) or "Base" in str(returns)):
            assert value in d.KEPT, name
