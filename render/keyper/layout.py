"""Where everything sits on the Keyper table image: the sizes of its parts and the boxes of the player panels."""

from __future__ import annotations

from engine.keyper.components import default
from engine.keyper.view import KeyperView
from render.draw import Box

WIDTH = 1600
MARGIN = 16
GAP = 16
SIZES = ("full", "compact")

CELL = 90  # a country-board field
BOARD_PAD = 10
BOARD_W = 4 * CELL + 2 * BOARD_PAD
BOARD_H = 44 + 4 * CELL + BOARD_PAD
PLOT_W, PLOT_H = 94, 66
PANEL_W = (WIDTH - 2 * MARGIN - GAP) // 2
MARKET_H = 32 + 132 + 16 + 62
PANEL_HEAD = 52 + 10  # the panel's coloured band and the gap under it
LEGEND_H = 118

CHIP_COLS = 7  # tiles to build per row
CHIP_H = 46
CHIP_GAP = 5
BUILD_HEAD = 24


def header_height(view: KeyperView) -> int:
    """Height of the status banner: two lines, plus one for an open joiner offer, payment or pending yield."""
    return 132 if view["offer"] or view["payment"] or view["steps"] else 92


def table_height(players: int, header_h: int, row_h: int) -> int:
    """The whole image's height: banner, boards, market, the panels' rows (none if row_h is 0) and the legend."""
    rows = (players + 1) // 2 if row_h else 0
    return MARGIN + header_h + GAP + BOARD_H + GAP + MARKET_H + GAP + rows * (row_h + GAP) + LEGEND_H + 2 + MARGIN


def panel_boxes(players: int, y: int, row_h: int) -> list[Box]:
    """Each seat's panel, two to a row from y (none when row_h is 0: the compact table)."""
    if not row_h:
        return []
    boxes = []
    for seat in range(players):
        px = MARGIN + (seat % 2) * (PANEL_W + GAP)
        py = y + (seat // 2) * (row_h + GAP)
        boxes.append((px, py, px + PANEL_W, py + row_h))
    return boxes


def panel_height(view: KeyperView) -> int:
    """Height of one player panel (the same for all, so the grid lines up)."""
    return PANEL_HEAD + plots_height() + 14 + 3 * 44 + 12 + to_build_height(view) + 8


def plots_height() -> int:
    """Height of the farm and village plot grids with their headings."""
    board = default().player_board
    return 26 + board.farm_rows * PLOT_H + 12 + 26 + board.village_rows * PLOT_H


def to_build_height(view: KeyperView) -> int:
    """Height of the tiles-to-build area: a heading and enough chip rows for the longest list (two at least)."""
    most = max((len(p["tiles"]) for p in view["players"]), default=0)
    rows = max(2, -(-most // CHIP_COLS))
    return BUILD_HEAD + rows * (CHIP_H + CHIP_GAP) - CHIP_GAP


def panel_parts(box: Box) -> tuple[Box, Box, Box, Box]:
    """A panel's plot grids, the side column beside them, the stores and the tiles to build."""
    x0, y0, x1, y1 = box
    top = y0 + PANEL_HEAD
    bottom = top + plots_height()
    right_x = x0 + 14 + 4 * PLOT_W + 22
    sy = bottom + 14
    return ((x0 + 14, top, right_x, bottom), (right_x, top, x1 - 14, bottom), (x0 + 14, sy, x1 - 14, sy + 3 * 44),
            (x0 + 14, sy + 3 * 44 + 12, x1 - 14, y1 - 8))
