"""The Keyper table as a PNG: a pure function of the engine's public view (engine.keyper.view.KeyperView).

``render(view)`` draws the status banner (header), every country board in play (boards), the country-tile display
and the season's boats (market), then one panel per player (panels, holdings) and the legend;
``render_scoreboard(scoreboard)`` draws the score breakdown. layout says where each part sits. Only public
information is read; ``render`` refuses a private view with ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from engine.core import Scoreboard
from engine.keyper.components import default
from engine.keyper.view import KeyperView, as_view
from render import draw as d
from render.keyper.boards import boards
from render.keyper.header import header, last_space, parse_highlight
from render.keyper.layout import (
    BOARD_H,
    GAP,
    MARGIN,
    MARKET_H,
    SIZES,
    WIDTH,
    header_height,
    panel_boxes,
    panel_height,
    table_height,
)
from render.keyper.legend import legend
from render.keyper.market import market
from render.keyper.panels import panel_frame, player_panel


def check_public(view: KeyperView) -> None:
    """Raise ValueError unless view is the engine's public view (no viewer, no hidden fairs, rng or bag order)."""
    if view["viewer"] is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    if "rng" in view:
        raise ValueError("render needs the public view: this one carries the random generator")
    if isinstance(view["bag"], list) or isinstance(view["stacks"], list):
        raise ValueError("render needs the public view: this one shows the bag's contents")
    for player in view["players"]:
        if isinstance(player["hidden_fairs"], list) or isinstance(player["chosen_display"], str):
            raise ValueError(f"render needs the public view: {player['name']}'s hidden choices are visible")


def render(public_view: Mapping[str, Any], *, highlight: str | None = None, size: str = "full") -> bytes:
    """The table as PNG bytes; size 'full' (everything) or 'compact' (no player panels).

    highlight names a space to outline as the last action: '2.pig' on board 2, a plot like 'v3' of the
    active player, or 'v3@1' (seat 1's plot v3); by default the view's last_space is outlined. Raises ValueError
    on a private view, one that is no Keyper view, an unknown size or a highlight naming no space.
    """
    return d.to_png(picture(public_view, highlight=highlight, size=size))


def picture(public_view: Mapping[str, Any], *, highlight: str | None = None, size: str = "full") -> Image.Image:
    """The table as a palette image, not encoded (the export packs it itself); as render, which raises the same."""
    view = as_view(public_view)
    check_public(view)
    if size not in SIZES:
        raise ValueError(f"unknown size '{size}'; known: {', '.join(SIZES)}")
    mark = parse_highlight(view, highlight) if highlight is not None else last_space(view)
    comps = default()
    players = len(view["players"])
    header_h = header_height(view)
    row_h = panel_height(view) if size == "full" else 0
    _, draw = d.start(_table(players, header_h, row_h))
    y = MARGIN
    header(draw, view, y)
    y += header_h + GAP
    boards(draw, view, comps, y, mark)
    y += BOARD_H + GAP
    market(draw, view, comps, y)
    y += MARKET_H + GAP
    for seat, box in enumerate(panel_boxes(players, y, row_h)):
        player_panel(draw, view, comps, seat, box, mark)
    return d.finished(draw)


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with their score lines and total."""
    return d.scoreboard_png(scoreboard, d.player_fill)


@d.kept(maxsize=8)
def _table(players: int, header_h: int, row_h: int) -> d.Base:
    """Everything drawn the same on every table of this layout (player panels row_h tall, none if 0): the
    background, the banner's frame, the headings, each panel's frame, band, plot grids, fixed labels and store
    icons, and the legend. Drawn once per layout; render draws the rest on a copy."""
    rows = (players + 1) // 2 if row_h else 0
    _, draw = d.canvas(WIDTH, table_height(players, header_h, row_h))
    y = MARGIN
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + header_h), radius=14, fill=d.PANEL, outline=d.GRID,
                           width=2)
    d.text(draw, (MARGIN + 16, y + 68), "Last action:", 22, d.MUTED, anchor="lm")
    y += header_h + GAP + BOARD_H + GAP
    d.text(draw, (MARGIN, y + 14), "Country tiles on display", 24, bold=True, anchor="lm")
    d.text(draw, (MARGIN, y + 32 + 132 + 16 + 31), "Boats", 24, bold=True, anchor="lm")
    y += MARKET_H + GAP
    for seat, box in enumerate(panel_boxes(players, y, row_h)):
        panel_frame(draw, seat, box)
    y += rows * (row_h + GAP)
    d.paste(draw, legend(), (MARGIN, y))
    return d.base(draw)
