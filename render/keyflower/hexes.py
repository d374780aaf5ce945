"""The Keyflower table's hexes: a piece's flat-topped hex with its kind's colour, its roads and water and its title
(drawn once per look and place, d.kept), and what lies on it: the effect, resources, the workers using it, a footer."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image

from engine.keyflower.components import RESOURCES
from render import draw as d
from render.keyflower.chips import (
    ghost_icon,
    keyple_icon,
    resource_chip,
    resource_chip_width,
    seat_disc,
    worker_pill,
    worker_pill_width,
)
from render.keyflower.look import KIND_FILL, ROAD, ROAD_EDGE, SQRT3, WATER
from render.keyflower.reading import Pos, Using, edges_of, kind_of


def hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A flat-topped hex's corners, from the east one clockwise (screen y grows downwards)."""
    return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k))) for k in range(6)]


def edge_points(cx: float, cy: float, r: float, edge: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of edge 0 N .. 5 NW."""
    corners = hex_corners(cx, cy, r)
    return corners[(4 + edge) % 6], corners[(5 + edge) % 6]


def centre(pos: Pos, r: float) -> tuple[float, float]:
    """A village position's centre relative to the home tile's (axial, flat-topped)."""
    q, s = pos
    return 1.5 * r * q, SQRT3 * r * (s + q / 2)


def half_width(r: float, dy: float) -> float:
    """Half the width of a flat-topped hex at dy from its centre."""
    return max(0.0, r - abs(dy) / SQRT3)


def band_width(r: float) -> int:
    """The thickness of a road or water band along an edge."""
    return max(6, int(r * 0.12))


def hex_tile(draw: d.Pen, cx: float, cy: float, r: float, tile_id: str, up: bool, title: str) -> None:
    """A piece's hex and title (_hex_face: drawn once per look and place), pasted through its shape."""
    face, mask, corner = _hex_face(tile_id, up, r, title, cx, cy)
    d.paste(draw, face, corner, mask)


@d.kept(maxsize=256)
def _hex_face(tile_id: str, up: bool, r: float, title: str, cx: float,
              cy: float) -> tuple[d.Layer, Image.Image, tuple[int, int]]:
    """A piece's hex (_hex_base) with its title, centred on (cx, cy) of the table: the layer, the mask of the pixels
    it covers and where it goes. Drawn with the table's coordinates (d.canvas's origin), so in the same pixels."""
    ox, oy = 2 * math.floor((cx - r - 4) / 2), 2 * math.floor((cy - r - 4) / 2)
    size = (math.ceil(cx + r + 4) - ox + 1, math.ceil(cy + r + 4) - oy + 1)
    _, draw = d.canvas(*size, d.PANEL, origin=(ox, oy))
    _hex_base(draw, cx, cy, r, tile_id, up)
    _hex_title(draw, cx, cy, r, title)
    mask, shape = d.stencil(*size, (ox, oy))
    corners = hex_corners(cx, cy, r)
    shape.polygon(corners, fill=255)
    shape.line([*corners, corners[0]], fill=255, width=2, joint="curve")
    return d.layer(draw), mask, (ox, oy)


def _hex_base(draw: d.Pen, cx: float, cy: float, r: float, tile_id: str, up: bool) -> None:
    """A piece's hex: its kind's fill, a band along every road edge (tan with dark dashes) and water edge (blue),
    the outline (double when upgraded)."""
    fill = KIND_FILL[kind_of(tile_id)]
    if up:
        fill = d.darker(fill, 0.88)
    corners = hex_corners(cx, cy, r)
    draw.polygon(corners, fill=fill)
    roads, water = edges_of(tile_id)
    band = band_width(r)
    for e in water:
        (ax, ay), (bx, by) = edge_points(cx, cy, r - band / 2 - 1, e)
        draw.line((ax, ay, bx, by), fill=WATER, width=band)
    for e in roads:
        (ax, ay), (bx, by) = edge_points(cx, cy, r - band / 2 - 1, e)
        draw.line((ax, ay, bx, by), fill=ROAD, width=band)
        for k in range(1, 8, 2):
            t0, t1 = k / 9, (k + 1) / 9
            draw.line((ax + (bx - ax) * t0, ay + (by - ay) * t0, ax + (bx - ax) * t1, ay + (by - ay) * t1),
                      fill=ROAD_EDGE, width=2)
    draw.line([*corners, corners[0]], fill=d.INK, width=2, joint="curve")
    if up:
        inner = hex_corners(cx, cy, r - band - 3)
        draw.line([*inner, inner[0]], fill=d.INK, width=2, joint="curve")


@dataclass(frozen=True)
class HexText:
    """What goes inside a hex besides its face (base and title): effect, resources, uses and a footer."""

    effect: str = ""
    res: Mapping[str, int] | None = None
    stored: Mapping[str, int] | None = None
    uses: Sequence[Using] = ()
    footer: str = ""
    up: bool = False
    start_icon: bool = False
    ghost_icon: bool = False  # Key Celeste's ghost stands on the piece (in the footer's row)


def _rows_of(widths: Sequence[int], room: float, gap: int = 4) -> list[list[int]]:
    """Indices packed into rows no wider than room (at least one item a row)."""
    rows: list[list[int]] = [[]]
    used = 0.0
    for i, w in enumerate(widths):
        if rows[-1] and used + gap + w > room:
            rows.append([])
            used = 0.0
        used += (gap if rows[-1] else 0) + w
        rows[-1].append(i)
    return rows if rows[0] else []


def _title_lines(title: str, r: float) -> tuple[int, list[str]]:
    """A hex's title: one line (17 down to 14 px) across the middle of the title zone, else two lines narrow
    enough for its top, else ellipsized."""
    band = band_width(r)
    one = 2 * half_width(r, r * 0.5) - 2 * band - 4
    two = 2 * half_width(r, r * 0.72) - 2 * band
    for size in (16, 15, 14):
        if d.text_width(title, size, True) <= one:
            return size, [title]
        lines = d.wrap(title, size, int(two), bold=True)
        if len(lines) == 2 and all(d.text_width(x, size, True) <= one for x in lines):
            return size, lines
    lines = d.wrap(title, 14, int(two), bold=True)
    return 14, [lines[0], d.ellipsize(" ".join(lines[1:]), 14, int(one), bold=True)] if len(lines) > 1 else lines


Token = tuple[str, Any]  # ("res", (kind, count, stored)) or ("use", (seat, [(colour, count, flat), ...]))


def _tokens(body: HexText) -> list[Token]:
    """What lies on a tile: resource counters by kind (those stored apart), then the uses, a seat's uses in a row
    merged behind one disc."""
    res = {k: int(v) for k, v in (body.res or {}).items() if int(v)}
    stored = {k: min(int(v), res.get(k, 0)) for k, v in (body.stored or {}).items() if int(v)}
    tokens: list[Token] = []
    for kind in [*RESOURCES, *sorted(k for k in res if k not in RESOURCES)]:
        n, s = res.get(kind, 0), stored.get(kind, 0)
        if n - s:
            tokens.append(("res", (kind, n - s, False)))
        if s:
            tokens.append(("res", (kind, s, True)))
    for seat, parts, flat in body.uses:
        pills = [(kind, n, flat) for kind, n in parts]
        last = tokens[-1] if tokens else None
        if last is not None and last[0] == "use" and last[1][0] == seat:
            last[1][1].extend(pills)
        else:
            tokens.append(("use", (seat, pills)))
    return tokens


def _token_width(token: Token) -> int:
    """The width a token takes."""
    kind, data = token
    if kind == "res":
        return resource_chip_width(data[0], data[1], stored=data[2])
    disc = 24 if data[0] is not None else 0
    return disc + sum(worker_pill_width(c, n) for c, n, _ in data[1]) + 3 * (len(data[1]) - 1)


def _fitted(tokens: Sequence[Token], room: float) -> list[Token]:
    """The tokens, a use too wide for the room (a group with Sven or Paulo, or many uses) broken into pieces that
    fit: the first behind the player's disc, the rest going on without it."""
    out: list[Token] = []
    for token in tokens:
        kind, data = token
        if kind != "use" or _token_width(token) <= room or len(data[1]) < 2:
            out.append(token)
            continue
        seat: int | None = data[0]
        piece: list[Any] = []
        for pill in data[1]:
            if piece and _token_width(("use", (seat, [*piece, pill]))) > room:
                out.append(("use", (seat, piece)))
                seat, piece = None, []
            piece.append(pill)
        out.append(("use", (seat, piece)))
    return out


def _token(draw: d.Pen, x: float, cy: float, token: Token) -> None:
    """Draw a token with its left edge at x (a use's continuation has no disc)."""
    kind, data = token
    if kind == "res":
        resource_chip(draw, x + (3 if data[2] else 0), cy, data[0], data[1], data[2])
        return
    if data[0] is not None:
        seat_disc(draw, x + 11, cy, data[0])
        x += 24
    for colour, n, flat in data[1]:
        x += worker_pill(draw, x, cy, colour, n, flat) + 3


def _hex_title(draw: d.Pen, cx: float, cy: float, r: float, title: str) -> None:
    """A hex's title, at the top."""
    size, lines = _title_lines(title, r)
    line_h = d.line_height(size)
    ty = cy - r * 0.48 - line_h * len(lines) / 2
    for line in lines:
        d.text(draw, (cx, ty + line_h / 2), line, size, d.INK, bold=True, anchor="mm")
        ty += line_h


def hex_text(draw: d.Pen, cx: float, cy: float, r: float, body: HexText) -> None:
    """Under the title (on the hex's face): resources, uses and as much of the effect as fits in the middle; the
    footer (UP, coordinates) at the bottom."""
    band = band_width(r)
    has_footer = bool(body.footer or body.up or body.ghost_icon)
    body_top = cy - r * 0.20
    room = 2 * half_width(r, r * 0.3) - 2 * band - 6
    tokens = _fitted(_tokens(body), room)
    widths = [_token_width(t) for t in tokens]
    rows = _rows_of(widths, room, 5)
    row_h = 24
    needed = row_h * len(rows)
    footer_y = cy + r * 0.86 * 0.80 - 2
    body_bottom = footer_y - 11 if has_footer else cy + r * 0.66
    if has_footer and needed > body_bottom - body_top:  # what lies on the tile comes first
        has_footer = False
        body_bottom = cy + r * 0.66
    free = body_bottom - body_top - needed
    y = body_top + max(0.0, free / 2)
    icon = r * 0.28 if body.start_icon else 0.0
    if body.start_icon:
        keyple_icon(draw, cx - r * 0.56, cy + r * 0.1, 30, "purple")
    if body.effect and free >= d.line_height(14):
        ew = 2 * half_width(r, r * 0.35) - 2 * band - 8 - icon
        keep = min(3, int(free // d.line_height(14)))
        esize, elines = d.fit(body.effect, int(ew), keep * d.line_height(14), 15, 14)
        if elines and elines[-1].endswith("...") and tokens:
            elines = []  # a cut effect gives way to what lies on the tile
        eh = len(elines) * d.line_height(esize)
        y = body_top + max(0.0, (free - eh) / 2)
        for line in elines:
            d.text(draw, (cx + icon / 2, y), line, esize, (64, 60, 54), anchor="ma")
            y += d.line_height(esize)
        y += 2
    for row in rows:
        x = cx - (sum(widths[i] for i in row) + 5 * (len(row) - 1)) / 2
        for i in row:
            _token(draw, x, y + row_h / 2, tokens[i])
            x += widths[i] + 5
        y += row_h
    if has_footer:
        up_w = d.pill_width("UP", 14, pad=5) if body.up else 0
        text_w = d.text_width(body.footer, 14) if body.footer else 0
        ghost_w = 18 if body.ghost_icon else 0
        total = ghost_w + up_w + text_w + (4 if up_w and text_w else 0) + (4 if ghost_w and up_w + text_w else 0)
        x = cx - total / 2
        if body.ghost_icon:
            ghost_icon(draw, x + ghost_w / 2, footer_y - 1, 22)
            x += ghost_w + 4
        if body.up:
            x += d.pill(draw, (x, footer_y), "UP", 14, d.INK, ink=(255, 255, 255), pad=5) + 4
        if body.footer:
            d.text(draw, (x, footer_y), body.footer, 14, (60, 56, 50), anchor="lm")


# --- Entry points --------------------------------------------------------------------------------------
