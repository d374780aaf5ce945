"""The Keyflower table's player panels: each player's number, name and badges, public counts, tiles still to place
and the village as flat-topped hexes with roads, water, resources and workers; while villages grow, the places
where the won tiles may go."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.keyflower import village as vg
from engine.keyflower.components import SKILLS
from engine.keyflower.pieces import KEY_CELESTE, powers_of
from engine.keyflower.view import KfView, VillageTileView
from render import draw as d
from render.keyflower.chips import ghost_icon, keyple_icon, pill, seat_disc, worker_pill
from render.keyflower.hexes import HexText, centre, hex_corners, hex_text, hex_tile
from render.keyflower.look import (
    GAP,
    INFO_ROW_H,
    INNER,
    KEYPLE_FILL,
    MIN_VILLAGE_R,
    PAD,
    PANEL_HEAD_H,
    PANEL_MIN_W,
    SLOT_INK,
    SQRT3,
    TO_ACT_FILL,
    VILLAGE_R,
    Box,
)
from render.keyflower.reading import (
    Pos,
    edge_of,
    effect_of,
    ghost_of,
    kind_order,
    name_of,
    opened_screen,
    sides_of,
    title_of,
    uses_at,
    village_of,
)


@dataclass(frozen=True)
class Panel:
    """One player's panel: its seat, the hex size, the village's placed and open positions, and its size."""

    seat: int
    r: float
    placed: dict[Pos, VillageTileView]
    slots: tuple[Pos, ...]
    width: int
    height: int
    info_rows: int


def open_slots(view: KfView, seat: int, placed: dict[Pos, VillageTileView]) -> tuple[Pos, ...]:
    """Where the seat's won tiles may go, while villages grow (edges matching; summer boat 2a: anywhere)."""
    won = view["won"][seat]
    if view["phase"] != "place" or not won or not placed:
        return ()
    village = {p: vg.Placed(v["tile"], v["up"]) for p, v in placed.items()}
    free = "2a" in powers_of([*(v["tile"] for v in placed.values()), *won])
    spots: set[Pos] = set()
    for tile_id in won:
        spots.update(vg.placing_spots(village, tile_id, sides_of, free))
    return tuple(sorted(spots))


def _extent(positions: Sequence[Pos], r: float) -> tuple[float, float, float, float]:
    """The pixel box (left, top, right, bottom) of hexes at these positions, relative to the home tile's centre."""
    xs = [centre(p, r)[0] for p in positions]
    ys = [centre(p, r)[1] for p in positions]
    return min(xs) - r, min(ys) - r * SQRT3 / 2, max(xs) + r, max(ys) + r * SQRT3 / 2


def _info_rows(view: KfView, seat: int) -> int:
    """Rows of facts under a panel's name: the screen, and (when any) the tiles to place, the opened screen."""
    return 1 + bool(view["won"][seat]) + (opened_screen(view, seat) is not None)


def _panel(view: KfView, seat: int) -> Panel:
    """Measure one player's panel at the largest hex size (up to VILLAGE_R) that fits the width."""
    placed = village_of(view, seat)
    slots = open_slots(view, seat, placed)
    positions = [*placed, *slots] or [(0, 0)]
    r = float(VILLAGE_R)
    left, top, right, bottom = _extent(positions, r)
    if right - left + 2 * PAD > INNER:
        r = max(MIN_VILLAGE_R, r * (INNER - 2 * PAD) / (right - left))
        left, top, right, bottom = _extent(positions, r)
    rows = _info_rows(view, seat)
    width = max(PANEL_MIN_W, int(right - left) + 2 * PAD)
    height = PANEL_HEAD_H + rows * INFO_ROW_H + 8 + int(bottom - top) + PAD
    return Panel(seat, r, placed, slots, width, height, rows)


def player_rows(view: KfView) -> list[tuple[list[Panel], int]]:
    """The panels in seat order, packed into rows of the image's width; each row with its height."""
    rows: list[tuple[list[Panel], int]] = []
    current: list[Panel] = []
    for seat in range(len(view["names"])):
        panel = _panel(view, seat)
        if current and sum(p.width for p in current) + GAP * len(current) + panel.width > INNER:
            rows.append((current, max(p.height for p in current)))
            current = []
        current.append(panel)
    if current:
        rows.append((current, max(p.height for p in current)))
    return rows


def player(draw: d.Pen, view: KfView, panel: Panel, box: Box) -> None:
    """A player's panel: number, name and badges; the public counts; tiles to place; the village."""
    x0, y0, x1, y1 = box
    seat = panel.seat
    to_act = seat in view["to_act"]
    draw.rounded_rectangle(box, radius=14, fill=TO_ACT_FILL if to_act else d.PANEL,
                           outline=d.HIGHLIGHT if to_act else d.GRID, width=4 if to_act else 2)
    cy = y0 + PANEL_HEAD_H / 2 + 2
    seat_disc(draw, x0 + PAD + 15, cy, seat, 15)
    x = x0 + PAD + 38
    name_room = x1 - x - 230
    x += d.text(draw, (x, cy), d.ellipsize(name_of(view, seat), 22, max(80, name_room), bold=True), 22, bold=True,
                anchor="lm") + 10
    if to_act:
        x += pill(draw, x, cy, "TO ACT", d.HIGHLIGHT, (255, 255, 255)) + 6
    if view["start_player"] == seat:
        keyple_icon(draw, x + 12, cy, 30, "purple")
        x += 28 + pill(draw, x + 28, cy, "START", KEYPLE_FILL["purple"], (255, 255, 255)) + 6
    ghost = ghost_of(view)
    if ghost is not None and ghost.held == seat:  # who holds the ghost is public (F-38)
        ghost_icon(draw, x + 12, cy, 30)
        x += 28 + pill(draw, x + 28, cy, "GHOST", (96, 100, 116), (255, 255, 255)) + 6
    edge = vg.EDGE_NAMES[edge_of(seat, len(view["names"]))]
    d.text(draw, (x1 - PAD, cy), f"bids on edge {edge}", 15, d.MUTED, anchor="rm")
    _facts(draw, view, seat, (x0, y0 + PANEL_HEAD_H + INFO_ROW_H / 2, x1))
    top = y0 + PANEL_HEAD_H + panel.info_rows * INFO_ROW_H + 8
    _village_hexes(draw, view, panel, (x0, top, x1, y1 - PAD))


def _facts(draw: d.Pen, view: KfView, seat: int, where: tuple[float, float, float]) -> None:
    """The rows under a panel's name: the screen's public counts, the opened screen, the tiles won to place."""
    x0, y, x1 = where
    screens, skills, winter = view["screens"][seat], view["skills_held"][seat], view["winter_in_hand"][seat]
    facts = [("Screen", f"{screens} worker{'' if screens == 1 else 's'}, {skills} skill{'' if skills == 1 else 's'}"),
             ("Winter tiles in hand", str(winter))]
    x = x0 + PAD
    for label, value in facts:
        x += d.text(draw, (x, y), label, 16, d.MUTED, anchor="lm") + 6
        x += d.text(draw, (x, y), value, 17, bold=True, anchor="lm") + 20
    y += INFO_ROW_H
    opened = opened_screen(view, seat)
    if opened is not None:
        x = x0 + PAD + d.text(draw, (x0 + PAD, y), "Opened:", 16, d.MUTED, anchor="lm") + 8
        workers = opened["workers"]
        for colour in kind_order(workers):
            if workers.get(colour, 0):
                x += worker_pill(draw, x, y, colour, workers[colour]) + 4
        held = opened["skills"]
        words = ", ".join(f"{k} {held[k]}" for k in SKILLS if held.get(k, 0))
        d.text(draw, (x + 8, y), d.ellipsize(words or "no skills", 16, max(40, int(x1 - x - 20))), 16,
               anchor="lm")
        y += INFO_ROW_H
    won = view["won"][seat]
    if won:
        x = x0 + PAD + d.text(draw, (x0 + PAD, y), "Won, to place:", 16, d.MUTED, anchor="lm") + 8
        text = ", ".join(title_of(t) for t in won)
        d.text(draw, (x, y), d.ellipsize(text, 17, int(x1 - PAD - x), bold=True), 17, bold=True, anchor="lm")


def _village_hexes(draw: d.Pen, view: KfView, panel: Panel, box: Box) -> None:
    """A village centred in the box: open places (dashed, with their coordinates) and placed tiles."""
    x0, y0, x1, y1 = box
    r = panel.r
    positions = [*panel.placed, *panel.slots] or [(0, 0)]
    left, top, right, _ = _extent(positions, r)
    ox = (x0 + x1) / 2 - (left + right) / 2
    oy = y0 - top
    for pos in panel.slots:
        cx, cy = centre(pos, r)
        corners = hex_corners(ox + cx, oy + cy, r - 3)
        for k in range(6):
            (ax, ay), (bx, by) = corners[k], corners[(k + 1) % 6]
            for t in range(0, 10, 2):
                draw.line((ax + (bx - ax) * t / 10, ay + (by - ay) * t / 10, ax + (bx - ax) * (t + 1) / 10,
                           ay + (by - ay) * (t + 1) / 10), fill=SLOT_INK, width=2)
        d.text(draw, (ox + cx, oy + cy), vg.key_of(pos), 16, SLOT_INK, bold=True, anchor="mm")
    tiles = sorted(panel.placed.items(), key=lambda kv: (kv[0][1], kv[0][0]))
    for pos, placed in tiles:
        cx, cy = centre(pos, r)
        hex_tile(draw, ox + cx, oy + cy, r, placed["tile"], placed["up"], title_of(placed["tile"]))
    ghost = ghost_of(view)
    with_ghost = ghost is not None and ghost.held == panel.seat  # Key Celeste scores more with its owner's ghost
    for pos, placed in tiles:
        cx, cy = centre(pos, r)
        tile_id, up = placed["tile"], placed["up"]
        body = HexText(effect_of(tile_id, up), res=placed["res"], stored=placed["stored"], uses=uses_at(view, tile_id),
                       footer=vg.key_of(pos), up=up, ghost_icon=with_ghost and tile_id == KEY_CELESTE)
        hex_text(draw, ox + cx, oy + cy, r, body)
