"""The table image's colours and letters cover exactly the engine's names (render.keythedral.parts): every player
colour, cube and terrain the engine can put in a view has its own fill and letter, and nothing else does."""

from __future__ import annotations

from engine.keythedral.board import COLOURS
from engine.keythedral.components import CUBE_ORDER, MATERIAL, TERRAINS
from render.keythedral import parts


def test_every_player_colour_has_a_fill_and_a_letter() -> None:
    assert set(parts.PLAYER_FILL) == set(parts.PLAYER_LETTER) == set(COLOURS)
    assert len(set(parts.PLAYER_LETTER.values())) == len(COLOURS)


def test_every_cube_has_a_fill_a_letter_and_a_name() -> None:
    assert set(parts.CUBE_FILL) == set(parts.CUBE_LETTER) == set(parts.CUBE_NAME) == set(CUBE_ORDER)
    assert len(set(parts.CUBE_LETTER.values())) == len(CUBE_ORDER)
    assert {c: n for c, n in parts.CUBE_NAME.items() if n != MATERIAL[c]} == {"purple": "glass"}


def test_every_terrain_has_a_fill_and_a_letter() -> None:
    assert set(parts.TERRAIN_FILL) == set(parts.TERRAIN_LETTER) == set(TERRAINS)
    assert len(set(parts.TERRAIN_LETTER.values())) == len(TERRAINS)
