"""The Keythedral table as a PNG: a pure function of the engine's public view (engine.keythedral.view.KView).

``render(view)`` draws a header (round, phase, whom we wait for, start player), the field lattice (octagonal
fields, the Keythedral square, cottages and houses as diamonds, fences, workers), the Keythedral mat with the
work-order track, the Keytown mat, one row per player and a legend; ``render_scoreboard(scoreboard)`` draws the
score breakdown. Only keys of the public view are read, each by name (a key missing from the view is an error, never
a default); ``render`` refuses a private view with ``ValueError``. What stands behind a player's screen (cubes, seats,
points: ruling T-1) is drawn only when the view shows it (the open_screens table option, or the game over);
otherwise the row shows a closed screen, and a mat space whose tile was taken shows only that it is taken.

The parts: render.keythedral.parts (measures, colours, letters, small pieces), .lattice (the fields), .mats (the
Keythedral and Keytown mats), .panels (header, players, legend).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from PIL import Image

from engine.core import Scoreboard
from engine.keythedral.board import COLOURS
from engine.keythedral.view import KView
from render import draw as d
from render.keythedral.lattice import (
    MAX_LATTICE_H,
    Board,
    board_of,
    lattice,
    open_fields,
    open_squares,
    squares_labelled,
)
from render.keythedral.mats import MAT_H, TOWN_H, keythedral_mat, keytown_mat
from render.keythedral.panels import header, header_height, legend, players, players_frame, players_height
from render.keythedral.parts import (
    CUBE_FILL,
    GAP,
    INNER,
    KEYTHEDRAL_FILL,
    LATTICE_W,
    MARGIN,
    PLAYER_FILL,
    RGB,
    TERRAIN_FILL,
    WIDTH,
    field_label,
    parse_label,
    player_fill,
    tag,
)

__all__ = ["CUBE_FILL", "KEYTHEDRAL_FILL", "LATTICE_W", "MAX_LATTICE_H", "PLAYER_FILL", "TERRAIN_FILL", "WIDTH",
           "Board", "check_public", "field_label", "parse_label", "render", "render_scoreboard", "squares_labelled"]

_board = board_of  # the names the render tests read
_open_fields = open_fields
_open_squares = open_squares


def check_public(view: Mapping[str, Any]) -> None:
    """Raise ValueError unless view is the public view: no viewer and no seat's law cards."""
    if view["viewer"] is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    if "laws" in view:
        raise ValueError("render needs the public view: this one shows a seat's law cards")


def render(public_view: Mapping[str, Any]) -> bytes:
    """The table as PNG bytes. Raises ValueError on a private view, KeyError on a view missing a key."""
    return d.to_png(picture(public_view))


def picture(public_view: Mapping[str, Any]) -> Image.Image:
    """The table as a palette image, not encoded (the export packs it itself); raises as render does."""
    check_public(public_view)
    view = cast(KView, public_view)
    board = board_of(view)
    header_h = header_height(view)
    side = board.side
    lattice_h = max(board.height, MAT_H + GAP + TOWN_H) if side else board.height
    middle_h = lattice_h if side else lattice_h + GAP + max(MAT_H, TOWN_H)
    players_h = players_height(view)
    _, draw = d.start(_table(header_h, side, lattice_h, middle_h, players_h))
    colours = draw.colours  # the mats are drawn with the table's palette and pasted as they are
    column = [keythedral_mat(view, colours), keytown_mat(view, colours)]
    y = MARGIN
    header(draw, view, (MARGIN, y, WIDTH - MARGIN, y + header_h))
    y += header_h + GAP
    lattice_w = LATTICE_W if side else INNER
    lattice(draw, view, board, (MARGIN, y, MARGIN + lattice_w, y + lattice_h))
    if side:
        x = MARGIN + LATTICE_W + GAP
        d.paste(draw, column[0], (x, y))
        d.paste(draw, column[1], (x, y + column[0].height + GAP))
    else:
        total = column[0].width + GAP + column[1].width
        x = MARGIN + (INNER - total) // 2
        d.paste(draw, column[0], (x, y + lattice_h + GAP))
        d.paste(draw, column[1], (x + column[0].width + GAP, y + lattice_h + GAP))
    y += middle_h + GAP
    players(draw, view, (MARGIN, y, WIDTH - MARGIN, y + players_h))
    return d.finished(draw)


@d.kept(maxsize=8)
def _table(header_h: int, side: bool, lattice_h: int, middle_h: int, players_h: int) -> d.Base:
    """Everything drawn the same on every table of this layout: the background, the lattice's panel, the player
    table's panel and column titles, the legend. Drawn once per layout; render draws the rest on a copy."""
    key = legend()
    height = MARGIN + header_h + GAP + middle_h + GAP + players_h + GAP + key.height + MARGIN
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN + header_h + GAP
    draw.rounded_rectangle((MARGIN, y, MARGIN + (LATTICE_W if side else INNER), y + lattice_h), radius=14,
                           fill=d.PANEL, outline=d.GRID, width=2)
    y += middle_h + GAP
    players_frame(draw, (MARGIN, y, WIDTH - MARGIN, y + players_h))
    y += players_h + GAP
    d.paste(draw, key, (MARGIN, y))
    return d.base(draw)


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with its colour letter, score lines and total."""
    return d.scoreboard_png(scoreboard, lambda seat: player_fill(COLOURS[seat]), _score_badge)


def _score_badge(draw: d.Pen, xy: tuple[float, float], seat: int, ink: RGB) -> None:
    """The colour letter before a name on the scoreboard."""
    tag(draw, xy, COLOURS[seat], 20, outline=ink)
