"""The Keyflower table as a PNG, panel by panel: header, auction, boats, players, legend; and the scoreboard."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from engine.core import Scoreboard
from engine.keyflower.view import as_view
from render import draw as d
from render.keyflower.auction import auction, auction_height, header, header_height
from render.keyflower.boats import boats, boats_height
from render.keyflower.legend import legend, legend_height
from render.keyflower.look import GAP, INNER, MARGIN, RGB, SEAT_FILL, WIDTH
from render.keyflower.players import player, player_rows
from render.keyflower.reading import check_public


def render(public_view: Mapping[str, Any]) -> bytes:
    """The table as PNG bytes. Raises ValueError on a seat's (private) view, KeyError on a view missing a key."""
    return d.to_png(picture(public_view))


def picture(public_view: Mapping[str, Any]) -> Image.Image:
    """The table as a palette image, not encoded (the export packs it itself); raises as render does."""
    check_public(public_view)
    view = as_view(public_view)
    header_h = header_height(view)
    auction_h = auction_height(view)
    boats_h = boats_height(view)
    rows = player_rows(view)
    players_h = sum(h for _, h in rows) + GAP * max(0, len(rows) - 1)
    legend_h = legend_height(view)
    parts = [header_h, auction_h, boats_h, players_h, legend_h]
    height = 2 * MARGIN + sum(parts) + GAP * (sum(1 for p in parts if p) - 1)
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN
    header(draw, view, (MARGIN, y, WIDTH - MARGIN, y + header_h))
    y += header_h + GAP
    if auction_h:
        auction(draw, view, (MARGIN, y, WIDTH - MARGIN, y + auction_h))
        y += auction_h + GAP
    if boats_h:
        boats(draw, view, (MARGIN, y, WIDTH - MARGIN, y + boats_h))
        y += boats_h + GAP
    for panels, row_h in rows:
        x = MARGIN
        spare = (INNER - sum(p.width for p in panels) - GAP * (len(panels) - 1)) // len(panels)
        for panel in panels:
            w = panel.width + spare
            player(draw, view, panel, (x, y, x + w, y + row_h))
            x += w + GAP
        y += row_h + GAP
    legend(draw, view, (MARGIN, y, WIDTH - MARGIN, y + legend_h))
    return d.finished(draw)


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with its numbered disc, score lines and total."""
    return d.scoreboard_png(scoreboard, lambda seat: SEAT_FILL, _score_badge)


def _score_badge(draw: d.Pen, xy: tuple[float, float], seat: int, ink: RGB) -> None:
    """The player's number before a name on the scoreboard."""
    x, y = xy
    draw.ellipse((x, y, x + 32, y + 32), fill=(255, 255, 255), outline=ink, width=2)
    d.text(draw, (x + 16, y + 16), str(seat + 1), 20, SEAT_FILL, bold=True, anchor="mm")
