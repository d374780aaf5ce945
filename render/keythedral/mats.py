"""The two mats of the Keythedral table: the Keythedral mat (its building spaces by stage, the price laws under them
and the work-order track) and the Keytown mat (the craftsmen, the chapter house's new laws, the store).

The number of spaces per stage, the craftsmen and their prices are the engine's (engine.keythedral.components).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from engine.keythedral.components import COMPONENTS, CRAFTS, CRAFTSMAN_OF, CUBE_ORDER
from engine.keythedral.view import KView, SpaceView
from render import draw as d
from render.keythedral.parts import (
    COLUMN_W,
    CUBE_NAME,
    CURRENT_ROW,
    FACE_DOWN,
    KEYTHEDRAL_FILL,
    PRICE_DOWN,
    PRICE_UP,
    REC_MARK,
    SLOT_INK,
    Box,
    cube,
    ordinal_pill,
    player_fill,
    seat_colour,
    tag,
)

CARD_H = 84
CARD_GAP = 6
MAT_GUTTER = 50
TITLE_H = 42
ORDER_H = 86
NOTE_H = 26
STAGES = len(COMPONENTS.mat_slots)
MAT_H = TITLE_H + STAGES * (CARD_H + CARD_GAP) + NOTE_H + ORDER_H + 8  # the Keythedral mat's height


def keythedral_mat(view: KView, colours: d.Palette) -> d.Layer:
    """The mat: 17 building spaces by stage, the cost legend line and the work-order track."""
    w, h = COLUMN_W, MAT_H
    _, draw = d.canvas(w, h, d.BACKGROUND, colours)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    d.text(draw, (14, TITLE_H / 2 + 2), "KEYTHEDRAL MAT", 20, bold=True, anchor="lm")
    stage = view["stage"]
    label = f"building stage {stage}" if stage <= STAGES else "Keythedral complete"
    d.pill(draw, (w - 14, TITLE_H / 2 + 2), label, 16, d.INK, pad=8, anchor="r")
    by_stage: dict[int, list[SpaceView]] = {}
    for entry in view["mat"]:
        by_stage.setdefault(entry["stage"], []).append(entry)
    y = TITLE_H
    for s in sorted(COMPONENTS.mat_slots):
        entries = sorted(by_stage.get(s, []), key=lambda e: _slot(e["space"]))
        if s == stage:
            draw.rounded_rectangle((6, y - 3, w - 7, y + CARD_H + 3), radius=8, fill=CURRENT_ROW)
        draw.ellipse((10, y + 10, 10 + 36, y + 46), fill=d.INK)
        d.text(draw, (28, y + 28), str(s), 22, (255, 255, 255), bold=True, anchor="mm")
        d.text(draw, (28, y + 64), f"{s} pt{'s' if s > 1 else ''}", 14, d.MUTED, anchor="mm")
        n = max(len(entries), COMPONENTS.mat_slots[s])
        avail = w - MAT_GUTTER - 12
        cw = (avail - (n - 1) * CARD_GAP) // n
        for i, entry in enumerate(entries):
            cx = MAT_GUTTER + i * (cw + CARD_GAP)
            _mat_card(draw, view, entry, (cx, y, cx + cw, y + CARD_H))
        y += CARD_H + CARD_GAP
    x = 14
    x += d.pill(draw, (x, y + 12), REC_MARK, 14, (255, 255, 255), ink=d.HIGHLIGHT, outline=d.HIGHLIGHT, pad=5) + 6
    x += d.text(draw, (x, y + 12), "cost reconstructed, not printed data", 14, d.INK, anchor="lm") + 14
    x += d.pill(draw, (x, y + 12), "+1", 14, PRICE_UP, ink=d.INK, outline=d.INK, pad=5) + 4
    x += d.pill(draw, (x, y + 12), "-1", 14, PRICE_DOWN, ink=d.INK, outline=d.INK, pad=5) + 6
    d.text(draw, (x, y + 12), "price law under the tile", 14, d.INK, anchor="lm")
    y += NOTE_H
    _work_order(draw, view, (8, y, w - 8, y + ORDER_H))
    return d.layer(draw)


def _slot(space: str) -> int:
    """The slot number of a mat space '2.3'."""
    _, _, slot = space.partition(".")
    return int(slot)


@dataclass(frozen=True)
class MatCard:
    """What a building space shows: its label, whether it was taken and by whom when that shows (colour, seat,
    name), face up or down, its stage, and its cost with the reconstructed mark and the price law under it."""

    space: str
    taken: bool
    taker: tuple[str, int, str] | None
    face_up: bool
    stage: str
    reconstructed: bool
    price_change: int
    cost: tuple[str, ...] | None

    @staticmethod
    def of(view: KView, entry: SpaceView) -> MatCard:
        """A mat entry of the view as a card."""
        taken = entry["taken_by"]
        taker = None if taken is None else (seat_colour(view, taken), taken, view["names"][taken])
        cost = entry["cost"]
        return MatCard(entry["space"], entry["taken"] or taker is not None, taker, entry["face_up"],
                       str(entry["stage"]), entry["reconstructed"], entry["price_change"],
                       None if cost is None else tuple(cost))


def _mat_card(draw: d.Pen, view: KView, entry: SpaceView, box: Box) -> None:
    """A building space (_mat_card_face: drawn once per look and place), pasted through its rounded shape."""
    face, mask = _mat_card_face(MatCard.of(view, entry), box)
    d.paste(draw, face, (box[0], box[1]), mask)


@d.kept(maxsize=128)
def _mat_card_face(card: MatCard, box: Box) -> tuple[d.Layer, Image.Image]:
    """A building space drawn in box with the mat's coordinates (_card_look), and the mask of its shape."""
    size = (box[2] - box[0] + 1, box[3] - box[1] + 1)
    _, draw = d.canvas(*size, d.PANEL, origin=(box[0], box[1]))
    _card_look(draw, card, box)
    mask, shape = d.stencil(*size, (box[0], box[1]))
    shape.rounded_rectangle(box, radius=8, fill=255)
    return d.layer(draw), mask


def _card_look(draw: d.Pen, card: MatCard, box: Box) -> None:
    """A building space: face down (its stage only), face up (cost, price change, reconstructed mark) or taken."""
    x0, y0, x1, y1 = box
    space = card.space
    if card.taker is not None:
        colour, seat, name = card.taker
        fill = player_fill(colour)
        draw.rounded_rectangle(box, radius=8, fill=d.lighter(fill, 0.55), outline=d.darker(fill, 0.7), width=3)
        d.text(draw, (x0 + 8, y0 + 15), space, 16, d.INK, bold=True, anchor="lm")
        d.text(draw, (x1 - 8, y0 + 15), "taken", 14, d.INK, anchor="rm")
        tw = tag(draw, (x0 + 8, y0 + 38), colour, 16)
        d.text(draw, (x0 + 14 + tw, y0 + 50), d.ellipsize(name, 17, x1 - x0 - 24 - tw, bold=True), 17,
               d.INK, bold=True, anchor="lm")
        return
    if card.taken:
        d.dashed_rectangle(draw, box, SLOT_INK, width=2, dash=6)
        d.text(draw, (x0 + 8, y0 + 15), space, 16, SLOT_INK, bold=True, anchor="lm")
        d.text(draw, ((x0 + x1) / 2, y0 + 44), "taken", 17, SLOT_INK, bold=True, anchor="mm")
        d.text(draw, ((x0 + x1) / 2, y0 + 64), "behind a screen", 14, d.MUTED, anchor="mm")
        return
    if not card.face_up:
        draw.rounded_rectangle(box, radius=8, fill=FACE_DOWN, outline=d.darker(FACE_DOWN, 0.6), width=2)
        d.text(draw, (x0 + 8, y0 + 15), space, 14, d.lighter(FACE_DOWN, 0.5), anchor="lm")
        d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2 + 6), card.stage, 32, (255, 255, 255), bold=True, anchor="mm")
        return
    draw.rounded_rectangle(box, radius=8, fill=(255, 255, 255), outline=d.GRID, width=2)
    d.text(draw, (x0 + 8, y0 + 15), space, 16, d.INK, bold=True, anchor="lm")
    right = x1 - 6
    if card.reconstructed:
        right -= d.pill(draw, (right, y0 + 15), REC_MARK, 14, (255, 255, 255), ink=d.HIGHLIGHT,
                        outline=d.HIGHLIGHT, pad=5, anchor="r") + 4
    change = card.price_change
    if change:
        fill = PRICE_UP if change > 0 else PRICE_DOWN
        d.pill(draw, (right, y0 + 15), f"{change:+d}", 14, fill, ink=d.INK, outline=d.INK, pad=5, anchor="r")
    if card.cost is None:
        d.text(draw, ((x0 + x1) / 2, y0 + 52), "cost unknown", 14, d.MUTED, anchor="mm")
        return
    _cost(draw, list(card.cost), (x0 + 4, y0 + 30, x1 - 2, y1 - 2))


def _cost(draw: d.Pen, cost: Sequence[str], box: Box) -> None:
    """A cost as groups of 'cube + count', in cube order, wrapped into the box's rows."""
    x0, y0, x1, y1 = box
    groups = [(c, str(cost.count(c))) for c in CUBE_ORDER if c in cost]
    widths = [24 + 2 + d.text_width(n, 16, True) + 4 for _, n in groups]
    rows: list[list[int]] = [[]]
    used = 0
    for i, w in enumerate(widths):
        if rows[-1] and used + w > x1 - x0:
            rows.append([])
            used = 0
        rows[-1].append(i)
        used += w
    row_h = 26
    y = y0 + max(0, (y1 - y0 - row_h * len(rows)) // 2) + row_h / 2
    for row in rows:
        x = x0 + max(0, (x1 - x0 - sum(widths[i] for i in row)) // 2)
        for i in row:
            colour, n = groups[i]
            cube(draw, x + 12, y, colour, 24)
            d.text(draw, (x + 26, y), n, 16, d.INK, bold=True, anchor="lm")
            x += widths[i]
        y += row_h


def _work_order(draw: d.Pen, view: KView, box: Box) -> None:
    """The five cottage numbers at the foot of the mat and the work-order markers on them, with who placed each."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (x0 + 10, y0 + 14), "WORK ORDER", 16, bold=True, anchor="lm")
    d.text(draw, (x0 + 130, y0 + 14), "(marker on the cottage number; who chose it)", 14, d.MUTED, anchor="lm")
    markers = {m["number"]: m for m in view["work_order"]}
    current = view["current_number"]
    numbers = COMPONENTS.cottages
    slot_w = (x1 - x0 - 16) // numbers
    cy = y0 + 56
    for i in range(numbers):
        number = i + 1
        sx = x0 + 8 + i * slot_w
        ccx = sx + 22
        if number == current:
            draw.ellipse((ccx - 23, cy - 23, ccx + 23, cy + 23), outline=d.HIGHLIGHT, width=4)
        draw.ellipse((ccx - 18, cy - 18, ccx + 18, cy + 18), fill=d.PANEL, outline=d.INK, width=2)
        d.text(draw, (ccx, cy), str(number), 20, bold=True, anchor="mm")
        marker = markers.get(number)
        if marker is not None:
            mx = sx + 46
            mx += ordinal_pill(draw, (mx, cy - 12), marker["marker"], 15) + 4
            tag(draw, (mx - 44, cy + 2), seat_colour(view, marker["seat"]), 14)


# --- The Keytown mat -------------------------------------------------------------------------------------

KT_TITLE_H = 38
TOWN_H = KT_TITLE_H + 84 + 8 + 104 + 8 + 64 + 10  # the Keytown mat's height


def keytown_mat(view: KView, colours: d.Palette) -> d.Layer:
    """Keytown: the craftsmen's cubes, the chapter house (new-law spaces, law stack, laws played) and the store."""
    w, h = COLUMN_W, TOWN_H
    _, draw = d.canvas(w, h, d.BACKGROUND, colours)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    d.text(draw, (14, KT_TITLE_H / 2 + 2), "KEYTOWN MAT", 20, bold=True, anchor="lm")
    y = KT_TITLE_H
    _craftsmen(draw, view, y, w)
    y += 84 + 8
    _chapter_house(draw, view, y, w)
    y += 104 + 8
    _store(draw, view, y, w)
    return d.layer(draw)


def _craftsmen(draw: d.Pen, view: KView, y: int, w: int) -> None:
    """The three craftsmen: what each sells, for how many cubes, and how many he has left."""
    bw = (w - 24 - 2 * 8) // 3
    for i, colour in enumerate(CRAFTS):
        craftsman = CRAFTSMAN_OF[colour]
        bx = 12 + i * (bw + 8)
        draw.rounded_rectangle((bx, y, bx + bw, y + 84), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
        d.text(draw, (bx + 10, y + 16), craftsman.name.capitalize(), 17, bold=True, anchor="lm")
        d.text(draw, (bx + 10, y + 36), f"{CUBE_NAME[colour]} for {craftsman.price} cubes", 14, d.MUTED, anchor="lm")
        n = view["craftsmen"][colour]
        cube(draw, bx + 24, y + 62, colour, 26, faded=n == 0)
        d.text(draw, (bx + 44, y + 62), f"{n} left", 20, d.INK if n else d.MUTED, bold=True, anchor="lm")


def _chapter_house(draw: d.Pen, view: KView, y: int, w: int) -> None:
    """The new-law spaces, the law stack and the laws played."""
    draw.rounded_rectangle((12, y, w - 12, y + 104), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (22, y + 16), "CHAPTER HOUSE", 17, bold=True, anchor="lm")
    d.text(draw, (22, y + 40), "new laws", 14, d.MUTED, anchor="lm")
    x = 22
    for i, card in enumerate(view["law_spaces"]):
        cx = x + i * 62
        cbox = (cx, y + 52, cx + 54, y + 98)
        if card:
            draw.rounded_rectangle(cbox, radius=6, fill=KEYTHEDRAL_FILL, outline=d.INK, width=2)
            d.text(draw, (cx + 27, y + 75), "LAW", 15, (255, 255, 255), bold=True, anchor="mm")
        else:
            d.dashed_rectangle(draw, cbox, d.FAINT, width=2, dash=5)
            d.text(draw, (cx + 27, y + 75), "empty", 14, d.MUTED, anchor="mm")
    sx = 22 + 2 * 62 + 10
    stack = view["law_stack"]
    for k in range(3 if stack else 0):
        draw.rounded_rectangle((sx + 6 - 3 * k, y + 46 + 3 * k, sx + 60 - 3 * k, y + 92 + 3 * k), radius=6,
                               fill=d.darker(KEYTHEDRAL_FILL, 0.8), outline=d.INK, width=1)
    d.text(draw, (sx + 30, y + 72), str(stack), 20, (255, 255, 255) if stack else d.MUTED, bold=True, anchor="mm")
    d.text(draw, (sx + 30, y + 40), "stack", 14, d.MUTED, anchor="mm")
    lx = sx + 80
    played = view["laws_played"]
    d.text(draw, (lx, y + 16), f"Laws played ({len(played)})", 16, bold=True, anchor="lm")
    lines = d.wrap(", ".join(played) if played else "none yet", 15, w - 24 - lx)
    if len(lines) > 3:
        lines = lines[:3]
        lines[-1] = d.ellipsize(lines[-1] + " ...", 15, w - 24 - lx)
    for i, line in enumerate(lines):
        d.text(draw, (lx, y + 40 + 20 * i), line, 15, d.INK if played else d.MUTED, anchor="lm")


def _store(draw: d.Pen, view: KView, y: int, w: int) -> None:
    """The store's cubes by colour."""
    store = view["store"]
    draw.rounded_rectangle((12, y, w - 12, y + 64), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (22, y + 16), "STORE", 17, bold=True, anchor="lm")
    d.text(draw, (22, y + 42), "cubes", 14, d.MUTED, anchor="lm")
    cw = (w - 24 - 96) // len(CUBE_ORDER)
    for i, colour in enumerate(CUBE_ORDER):
        n = store[colour]
        cx = 96 + i * cw
        cube(draw, cx + 12, y + 24, colour, 24, faded=n == 0)
        d.text(draw, (cx + 28, y + 24), str(n), 18, d.INK if n else d.MUTED, bold=bool(n), anchor="lm")
        d.text(draw, (cx + 2, y + 50), CUBE_NAME[colour], 14, d.MUTED, anchor="lm")
