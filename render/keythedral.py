"""The Keythedral table as a PNG: a pure function of the engine's public view.

``render(view)`` draws a header (round, phase, whom we wait for, start player), the field lattice (octagonal
fields, the Keythedral square, cottages and houses as diamonds, fences, workers), the Keythedral mat with the
work-order track, the Keytown mat, one row per player and a legend; ``render_scoreboard(scoreboard)`` draws the
score breakdown. Only keys of the public view (kt-spec.md) are read; ``render`` refuses a private view with
``ValueError``. What stands behind a player's screen (cubes, seats, points: ruling T-1) is drawn only when the view
shows it (the open_screens table option, or the game over); otherwise the row shows a closed screen, and a mat
space whose tile was taken shows only that it is taken.

Every colour has a letter beside it for colour-blind players: terrains Q W L F V (with a pattern each), players
B Y Gy G R, cubes K Br B G R W P Y.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.core import Scoreboard
from render import draw as d

View = Mapping[str, Any]
Box = tuple[int, int, int, int]
Pos = tuple[int, int]
RGB = d.RGB

WIDTH = 1440
MARGIN = 16
GAP = 14
INNER = WIDTH - 2 * MARGIN
COLUMN_W = 600  # the mats' column, right of the lattice
LATTICE_W = INNER - GAP - COLUMN_W
PAD = 12
AXIS = 30  # the strip of column letters and row numbers round the lattice
MAX_PITCH = 120  # a field's cell, in pixels
MAX_LATTICE_H = 1100  # a tall, narrow lattice gets smaller cells rather than a very tall image
MIN_SIDE_PITCH = 70  # below this the lattice takes the whole width and the mats go underneath it
MIN_PITCH = 36
CUT = 0.35  # how much of a cell's side each cut corner of an octagon takes (the cottage gaps' half-diagonal)
LAST_COLUMN = 25  # the lattice runs A1..Z26

# --- Colours and letters ----------------------------------------------------------------------------------

PLAYER_COLOURS = ("blue", "yellow", "grey", "green", "red")
PLAYER_FILL: dict[str, RGB] = {
    "blue": (36, 96, 214),
    "yellow": (250, 204, 20),
    "grey": (128, 128, 132),
    "green": (24, 146, 66),
    "red": (214, 38, 44),
}
PLAYER_LETTER = {"blue": "B", "yellow": "Y", "grey": "Gy", "green": "G", "red": "R"}

CUBE_ORDER = ("black", "brown", "blue", "green", "red", "white", "purple", "yellow")
CUBE_FILL: dict[str, RGB] = {
    "black": (34, 34, 36),
    "brown": (128, 78, 38),
    "blue": (40, 104, 210),
    "green": (40, 150, 60),
    "red": (204, 36, 40),
    "white": (252, 252, 250),
    "purple": (132, 62, 176),
    "yellow": (246, 202, 30),
}
CUBE_LETTER = {"black": "K", "brown": "Br", "blue": "B", "green": "G", "red": "R", "white": "W", "purple": "P",
               "yellow": "Y"}
CUBE_NAME = {"black": "stone", "brown": "timber", "blue": "water", "green": "food", "red": "wine",
             "white": "ironwork", "purple": "glass", "yellow": "gold"}

TERRAINS = ("quarry", "woods", "lake", "farm", "vineyard")
TERRAIN_FILL: dict[str, RGB] = {
    "quarry": (172, 174, 180),
    "woods": (184, 138, 92),
    "lake": (128, 180, 230),
    "farm": (156, 208, 116),
    "vineyard": (222, 128, 134),
}
TERRAIN_LETTER = {"quarry": "Q", "woods": "W", "lake": "L", "farm": "F", "vineyard": "V"}
TERRAIN_CUBE = {"quarry": "black", "woods": "brown", "lake": "blue", "farm": "green", "vineyard": "red"}

KEYTHEDRAL_FILL: RGB = (112, 52, 150)
FACE_DOWN: RGB = (104, 92, 80)
CURRENT_ROW: RGB = (255, 244, 200)
WOOD: RGB = (226, 190, 140)
SLOT_FILL: RGB = (238, 233, 222)
SLOT_INK: RGB = (126, 120, 108)
PRICE_UP: RGB = (255, 214, 170)
PRICE_DOWN: RGB = (186, 226, 250)
REC_MARK = "rec."

PHASE_LABEL = {
    "setup": "Set-up: lay fields and cottages",
    "workers": "Phase 1: place workers",
    "harvest": "Phase 2: collect cubes",
    "actions": "Phase 3: spend cubes",
    "bidding": "Phase 5: start player",
    "over": "Game over",
}
MAT_SLOTS = {1: 4, 2: 4, 3: 4, 4: 3, 5: 2}
CRAFTSMEN = (("white", "Blacksmith", 2), ("purple", "Glassmaker", 3), ("yellow", "Goldsmith", 4))
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}


def player_fill(colour: str, seat: int = 0) -> RGB:
    """A player colour's fill (unknown names fall back on the seat's colour)."""
    return PLAYER_FILL.get(colour, PLAYER_FILL[PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]])


def player_letter(colour: str) -> str:
    """A player colour's letter."""
    return PLAYER_LETTER.get(colour, colour[:1].upper() or "?")


# --- The guard -----------------------------------------------------------------------------------------


def check_public(view: View) -> None:
    """Raise ValueError unless view is the public view: no viewer and no seat's law cards."""
    if view.get("viewer") is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    if isinstance(view.get("laws"), list):
        raise ValueError("render needs the public view: this one shows a seat's law cards")


# --- Labels --------------------------------------------------------------------------------------------


def parse_label(text: str) -> Pos:
    """A field label 'M13' or square label 'M13+' as lattice (x, y): M13 is (12, 12)."""
    body = text.strip().upper().removesuffix("+")
    if len(body) < 2 or not "A" <= body[0] <= "Z" or not body[1:].isdigit():
        raise ValueError(f"'{text}' is not a field or square label like M13 or M13+")
    return ord(body[0]) - ord("A"), int(body[1:]) - 1


def field_label(x: int, y: int) -> str:
    """The label of the field at (x, y)."""
    return f"{chr(ord('A') + x)}{y + 1}"


def _seat_colour(view: View, seat: int) -> str:
    """A seat's colour name."""
    colours = view.get("colours") or []
    return str(colours[seat]) if 0 <= seat < len(colours) else PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _name(view: View, seat: int) -> str:
    """A seat's name."""
    names = view.get("names") or []
    return str(names[seat]) if 0 <= seat < len(names) else f"seat {seat + 1}"


# --- Entry points --------------------------------------------------------------------------------------


def render(public_view: View) -> bytes:
    """The table as PNG bytes. Raises ValueError on a private view."""
    check_public(public_view)
    view = public_view
    board = _board(view)
    header_h = _header_height(view)
    side = board.side
    lattice_h = max(board.height, MAT_H + GAP + TOWN_H) if side else board.height
    middle_h = lattice_h if side else lattice_h + GAP + max(MAT_H, TOWN_H)
    players_h = _players_height(view)
    _, draw = d.start(_table(header_h, side, lattice_h, middle_h, players_h))
    colours = draw.colours  # the mats are drawn with the table's palette and pasted as they are
    column = [_keythedral_mat(view, colours), _keytown_mat(view, colours)]
    y = MARGIN
    _header(draw, view, (MARGIN, y, WIDTH - MARGIN, y + header_h))
    y += header_h + GAP
    lattice_w = LATTICE_W if side else INNER
    _lattice(draw, view, board, (MARGIN, y, MARGIN + lattice_w, y + lattice_h))
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
    _players(draw, view, (MARGIN, y, WIDTH - MARGIN, y + players_h))
    return d.to_png(d.finished(draw))


@d.kept(maxsize=8)
def _table(header_h: int, side: bool, lattice_h: int, middle_h: int, players_h: int) -> d.Base:
    """Everything drawn the same on every table of this layout: the background, the lattice's panel, the player
    table's panel and column titles, the legend. Drawn once per layout; render draws the rest on a copy."""
    legend = _legend()
    height = MARGIN + header_h + GAP + middle_h + GAP + players_h + GAP + legend.height + MARGIN
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN + header_h + GAP
    draw.rounded_rectangle((MARGIN, y, MARGIN + (LATTICE_W if side else INNER), y + lattice_h), radius=14,
                           fill=d.PANEL, outline=d.GRID, width=2)
    y += middle_h + GAP
    _players_frame(draw, (MARGIN, y, WIDTH - MARGIN, y + players_h))
    y += players_h + GAP
    d.paste(draw, legend, (MARGIN, y))
    return d.base(draw)


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with its colour letter, score lines and total."""
    return d.scoreboard_png(scoreboard, lambda seat: player_fill(_colour_of(seat)), _score_badge)


def _colour_of(seat: int) -> str:
    """A seat's player colour."""
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _score_badge(draw: d.Pen, xy: tuple[float, float], seat: int, ink: RGB) -> None:
    """The colour letter before a name on the scoreboard."""
    _tag(draw, xy, _colour_of(seat), 20, outline=ink)


# --- Small pieces ----------------------------------------------------------------------------------------


def _tag(draw: d.Pen, xy: tuple[float, float], colour: str, size: int = 16, *,
         outline: RGB = d.INK) -> int:
    """A player colour's swatch with its letter; xy is the top-left corner; returns the width."""
    fill = player_fill(colour)
    label = player_letter(colour)
    w = max(size + 10, d.text_width(label, size, True) + 10)
    h = size + 8
    x, y = xy
    draw.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=fill, outline=outline, width=2)
    d.text(draw, (x + w / 2, y + h / 2), label, size, d.ink_on(fill), bold=True, anchor="mm")
    return int(w)


def _cube(draw: d.Pen, cx: float, cy: float, colour: str, side: int = 22, *, faded: bool = False) -> None:
    """A cube: a rounded square in the cube's colour with its letter."""
    fill = CUBE_FILL.get(colour, d.FAINT)
    if faded:
        fill = d.lighter(fill, 0.7)
    r = side / 2
    draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=4, fill=fill,
                           outline=d.FAINT if faded else d.INK, width=1 if faded else 2)
    letter = CUBE_LETTER.get(colour, colour[:1].upper())
    size = max(11, int(side * (0.62 if len(letter) == 1 else 0.55)))
    d.text(draw, (cx, cy + 1), letter, size, d.ink_on(fill), bold=True, anchor="mm")


def _diamond(cx: float, cy: float, h: float) -> list[tuple[float, float]]:
    """A square turned 45 degrees, h from its centre to each corner."""
    return [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]


def _octagon(x: float, y: float, size: float, cut: float, inset: float = 0) -> list[tuple[float, float]]:
    """An octagon in the cell at (x, y): a square of side size with its corners cut cut along each side."""
    a, b = x + inset, y + inset
    e, f = x + size - inset, y + size - inset
    return [(x + cut, b), (x + size - cut, b), (e, y + cut), (e, y + size - cut), (x + size - cut, f),
            (x + cut, f), (a, y + size - cut), (a, y + cut)]


def _ordinal_pill(draw: d.Pen, xy: tuple[float, float], marker: int, size: int = 15) -> int:
    """A work-order marker: a wooden cylinder seen from the side, with 1st..5th; xy is its left middle."""
    return d.pill(draw, xy, ORDINAL.get(marker, str(marker)), size, WOOD, ink=d.INK, outline=d.darker(WOOD, 0.55),
                  pad=6)


# --- The lattice ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Board:
    """What the lattice shows and where: positions, the crop (inclusive) and the cell pitch."""

    fields: dict[Pos, str]
    squares: dict[Pos, Mapping[str, Any]]  # cottages and houses on the lattice, by square
    keythedral: Pos | None
    x0: int
    y0: int
    x1: int
    y1: int
    pitch: int
    side: bool  # beside the mats (else across the whole width, the mats below)

    @property
    def cols(self) -> int:
        """Columns of fields in the crop."""
        return self.x1 - self.x0 + 1

    @property
    def rows(self) -> int:
        """Rows of fields in the crop."""
        return self.y1 - self.y0 + 1

    @property
    def height(self) -> int:
        """The lattice panel's height."""
        return 2 * PAD + AXIS + self.rows * self.pitch + 8

    def width(self) -> int:
        """The lattice's drawn width (axis strip and cells)."""
        return AXIS + self.cols * self.pitch


def _board(view: View) -> Board:
    """Read the lattice from the view and choose the crop and the pitch."""
    fields: dict[Pos, str] = {}
    for f in view.get("fields") or []:
        fields[(int(f["x"]), int(f["y"]))] = str(f["terrain"])
    squares: dict[Pos, Mapping[str, Any]] = {}
    for c in view.get("cottages") or []:
        if c.get("at"):
            squares[parse_label(str(c["at"]))] = c
    k = view.get("keythedral")
    keythedral = parse_label(str(k)) if k else None
    xs: list[int] = []
    ys: list[int] = []
    for x, y in fields:  # a placed field and the ring of slots round it
        xs += [x - 1, x + 1]
        ys += [y - 1, y + 1]
    for x, y in [*squares, *([keythedral] if keythedral else [])]:  # a square and the four slots it touches
        xs += [x, x + 1]
        ys += [y, y + 1]
    if not xs:
        xs, ys = [11, 14], [11, 14]
    x0, x1 = max(0, min(xs)), min(LAST_COLUMN, max(xs))
    y0, y1 = max(0, min(ys)), min(LAST_COLUMN, max(ys))
    cols, rows = x1 - x0 + 1, y1 - y0 + 1
    tallest = MAX_LATTICE_H // rows
    pitch = min(MAX_PITCH, tallest, (LATTICE_W - 2 * PAD - AXIS) // cols)
    side = pitch >= MIN_SIDE_PITCH or pitch == tallest  # else too wide beside the mats: take the whole width
    if not side:
        pitch = min(MAX_PITCH, tallest, (INNER - 2 * PAD - AXIS) // cols)
    pitch = max(MIN_PITCH, pitch)
    return Board(fields, squares, keythedral, x0, y0, x1, y1, pitch, side)


def _open_fields(board: Board) -> list[Pos]:
    """Empty field slots in the crop that touch a placed field or a placed square (where a field could go)."""
    touched: set[Pos] = set()
    for x, y in board.fields:
        touched.update({(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)})
    for x, y in [*board.squares, *([board.keythedral] if board.keythedral else [])]:
        touched.update({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)})
    return sorted(p for p in touched if p not in board.fields and board.x0 <= p[0] <= board.x1
                  and board.y0 <= p[1] <= board.y1)


def _open_squares(board: Board) -> list[Pos]:
    """Empty square slots in the crop touching at least one placed field (where a cottage could go)."""
    found = []
    for sx in range(board.x0, board.x1):
        for sy in range(board.y0, board.y1):
            if (sx, sy) in board.squares or (sx, sy) == board.keythedral:
                continue
            if any(p in board.fields for p in ((sx, sy), (sx + 1, sy), (sx, sy + 1), (sx + 1, sy + 1))):
                found.append((sx, sy))
    return found


@d.kept(maxsize=32)
def _field_tile(terrain: str, pitch: int) -> tuple[d.Layer, Image.Image]:
    """A placed field's octagon (fill, pattern, outline, terrain letter) and its mask; drawn once per pitch."""
    cut = round(pitch * CUT)
    fill = TERRAIN_FILL.get(terrain, d.FAINT)
    _, draw = d.canvas(pitch, pitch, fill)
    _pattern(draw, terrain, pitch, d.darker(fill, 0.8))
    mask = Image.new("L", (pitch, pitch), 0)
    points = _octagon(0, 0, pitch, cut, 1.5)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    draw.line([*points, points[0]], fill=d.darker(fill, 0.55), width=2)
    letter = TERRAIN_LETTER.get(terrain, "?")
    d.text(draw, (pitch / 2, pitch * 0.8), letter, max(12, int(pitch * 0.17)), d.darker(fill, 0.35), bold=True,
           anchor="mm")
    return d.layer(draw), mask


def _pattern(draw: d.Pen, terrain: str, pitch: int, ink: RGB) -> None:
    """A terrain's texture, so that fields differ by more than colour: stones, trees, waves, furrows, grapes."""
    step = max(10, pitch // 6)
    if terrain == "quarry":
        for row, y in enumerate(range(step // 2, pitch, step)):
            for x in range((row % 2) * step // 2, pitch, step):
                draw.rectangle((x + 2, y - 3, x + step - 3, y + 3), outline=ink, width=1)
    elif terrain == "woods":
        for row, y in enumerate(range(step // 2, pitch, step)):
            for x in range((row % 2) * step // 2 + 2, pitch, step):
                draw.polygon([(x + step / 2 - 1, y - 4), (x + step - 3, y + 4), (x + 1, y + 4)], outline=ink)
    elif terrain == "lake":
        for y in range(step // 2, pitch, step):
            points = [(x, y + (2 if (x // 5) % 2 else -2)) for x in range(0, pitch + 5, 5)]
            draw.line(points, fill=ink, width=1)
    elif terrain == "farm":
        for x in range(-pitch, pitch, step):
            draw.line((x, pitch, x + pitch, 0), fill=ink, width=1)
    elif terrain == "vineyard":
        for row, y in enumerate(range(step // 2, pitch, step)):
            for x in range((row % 2) * step // 2 + step // 2, pitch, step):
                draw.ellipse((x - 2, y - 2, x + 2, y + 2), outline=ink, width=1)


@d.kept(maxsize=8)
def _open_field_tile(pitch: int) -> tuple[d.Layer, Image.Image]:
    """An empty field slot: a faint octagon outline and its mask."""
    cut = round(pitch * CUT)
    _, draw = d.canvas(pitch, pitch, SLOT_FILL)
    mask = Image.new("L", (pitch, pitch), 0)
    points = _octagon(0, 0, pitch, cut, 3)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    draw.line([*points, points[0]], fill=d.FAINT, width=2)
    return d.layer(draw), mask


@dataclass(frozen=True)
class Ground:
    """What a lattice's ground (_ground) depends on: the fields, which squares are taken, the crop, the pitch and
    whether empty squares are labelled."""

    fields: tuple[tuple[Pos, str], ...]
    taken: tuple[Pos, ...]  # squares with a cottage, a house or the Keythedral
    keythedral: Pos | None
    crop: tuple[int, int, int, int]
    pitch: int
    labelled: bool

    @staticmethod
    def of(view: View, board: Board) -> Ground:
        """The ground of a view's lattice."""
        return Ground(tuple(sorted(board.fields.items())), tuple(sorted(board.squares)), board.keythedral,
                      (board.x0, board.y0, board.x1, board.y1), board.pitch, squares_labelled(view))

    def board(self) -> Board:
        """A board with this ground (its squares hold no pieces: the ground draws none)."""
        return Board(dict(self.fields), {pos: {} for pos in self.taken}, self.keythedral, *self.crop, self.pitch,
                     True)


def _lattice(draw: d.Pen, view: View, board: Board, box: Box) -> None:
    """On the lattice's panel (the table's base): its ground (axes, open slots, fields; drawn once per Ground),
    then the Keythedral, cottages, fences and workers."""
    x0, y0, x1, y1 = box
    p = board.pitch
    left = x0 + (x1 - x0 - board.width()) // 2 + AXIS
    top = y0 + PAD + AXIS + max(0, (y1 - y0 - board.height) // 2)
    px, py = (left - AXIS) % 2, (top - AXIS) % 2  # the ground is drawn at this parity: Pillow rounds halves to even
    d.paste(draw, _ground(Ground.of(view, board), px, py), (left - AXIS - px, top - AXIS - py))

    def cell(x: int, y: int) -> tuple[int, int]:
        return left + (x - board.x0) * p, top + (board.y1 - y) * p

    def corner(sx: int, sy: int) -> tuple[float, float]:
        return left + (sx - board.x0 + 1) * p, top + (board.y1 - sy) * p

    half = round(p * CUT) - 2
    if board.keythedral:
        qx, qy = corner(*board.keythedral)
        _keythedral_piece(draw, qx, qy, half)
    current = view.get("current_number")
    for (sx, sy), cottage in board.squares.items():
        qx, qy = corner(sx, sy)
        lit = view.get("phase") == "workers" and current is not None and cottage.get("number") == current
        _cottage(draw, qx, qy, half, cottage, lit)
    for fence in view.get("fences") or []:
        sx, sy = parse_label(str(fence["square"]))
        fx, fy = parse_label(str(fence["field"]))
        qx, qy = corner(sx, sy)
        _fence(draw, qx, qy, half, (1 if fx > sx else -1, -1 if fy > sy else 1), str(fence.get("colour", "")),
               int(fence.get("seat", 0)))
    radius = max(9, int(p * 0.18))
    for worker in view.get("workers") or []:
        x, y = parse_label(str(worker["field"]))
        cx, cy = cell(x, y)
        _worker(draw, cx + p / 2, cy + p * 0.5, radius, str(worker.get("colour", "")), int(worker.get("seat", 0)))


@d.kept(maxsize=16)
def _ground(ground: Ground, px: int, py: int) -> d.Layer:
    """A lattice's ground on the panel's colour, its axis strip's corner at (px, py): column letters and row
    numbers, the open field slots, the fields with their labels, the open squares (labelled in set-up)."""
    board = ground.board()
    p = board.pitch
    left, top = px + AXIS, py + AXIS
    _, draw = d.canvas(left + board.cols * p + 1, top + board.rows * p + 1, d.PANEL)

    def cell(x: int, y: int) -> tuple[int, int]:
        return left + (x - board.x0) * p, top + (board.y1 - y) * p

    axis_size = max(12, min(17, p // 6))
    for x in range(board.x0, board.x1 + 1):
        d.text(draw, (left + (x - board.x0) * p + p / 2, top - AXIS / 2), chr(ord("A") + x), axis_size, d.MUTED,
               bold=True, anchor="mm")
    for y in range(board.y0, board.y1 + 1):
        d.text(draw, (left - AXIS / 2, top + (board.y1 - y) * p + p / 2), str(y + 1), axis_size, d.MUTED, bold=True,
               anchor="mm")
    label_size = max(11, min(17, int(p * 0.16)))
    slot_size = max(11, min(16, int(p * 0.15)))
    tile, mask = _open_field_tile(p)
    for x, y in _open_fields(board):
        cx, cy = cell(x, y)
        d.paste(draw, tile, (cx, cy), mask)
        d.text(draw, (cx + p / 2, cy + p / 2), field_label(x, y), slot_size, SLOT_INK, anchor="mm")
    for (x, y), terrain in board.fields.items():
        if not (board.x0 <= x <= board.x1 and board.y0 <= y <= board.y1):
            continue
        cx, cy = cell(x, y)
        ftile, fmask = _field_tile(terrain, p)
        d.paste(draw, ftile, (cx, cy), fmask)
        d.text(draw, (cx + p / 2, cy + p * 0.2), field_label(x, y), label_size, d.INK, bold=True, anchor="mm")
    half = round(p * CUT) - 2
    for sx, sy in _open_squares(board):
        qx, qy = left + (sx - board.x0 + 1) * p, top + (board.y1 - sy) * p
        draw.polygon(_diamond(qx, qy, half - 2), fill=SLOT_FILL, outline=d.FAINT, width=1)
        if ground.labelled:
            size = slot_size - 1
            label = field_label(sx, sy) + "+"
            if d.text_width(label, size) > 1.3 * half:
                size = max(11, size - 2)
            d.text(draw, (qx, qy), label, size, SLOT_INK, anchor="mm")
    return d.layer(draw)


def squares_labelled(view: View) -> bool:
    """Whether empty square slots carry their labels: while cottages are laid (set-up) or one is relocated."""
    return view.get("phase") == "setup" or view.get("step") == "relocate"


def _keythedral_piece(draw: d.Pen, cx: float, cy: float, half: float) -> None:
    """The Keythedral tile: a purple diamond with a white spire and K."""
    d.shape(draw, _diamond(cx, cy, half + 1), KEYTHEDRAL_FILL, d.INK, width=2)
    s = half * 0.42
    draw.polygon([(cx, cy - s * 1.35), (cx + s * 0.55, cy - s * 0.35), (cx - s * 0.55, cy - s * 0.35)],
                 fill=(255, 255, 255))
    d.text(draw, (cx, cy + s * 0.45), "K", max(12, int(half * 0.5)), (255, 255, 255), bold=True, anchor="mm")


def _cottage(draw: d.Pen, cx: float, cy: float, half: float, cottage: Mapping[str, Any],
             lit: bool) -> None:
    """A cottage (player colour, thin outline) or a house (darker, double outline, 'H'), with letter and number."""
    colour = str(cottage.get("colour", ""))
    fill = player_fill(colour, int(cottage.get("seat", 0)))
    house = bool(cottage.get("house"))
    if lit:
        d.outline(draw, _diamond(cx, cy, half + 5), d.HIGHLIGHT, 4)
    label = f"{player_letter(colour)}{cottage.get('number', '?')}"
    size = max(11, min(17, int(half * 0.5)))
    if house:
        body = d.darker(fill, 0.62)
        d.shape(draw, _diamond(cx, cy, half), body, d.INK, width=3)
        d.outline(draw, _diamond(cx, cy, half - 5), (255, 255, 255), 2)
        d.text(draw, (cx, cy - size * 0.5), label, size, d.ink_on(body), bold=True, anchor="mm")
        d.text(draw, (cx, cy + size * 0.62), "H", size, d.ink_on(body), bold=True, anchor="mm")
    else:
        d.shape(draw, _diamond(cx, cy, half - 2), fill, d.INK, width=2)
        d.text(draw, (cx, cy), label, size, d.ink_on(fill), bold=True, anchor="mm")


def _fence(draw: d.Pen, cx: float, cy: float, half: float, towards: tuple[int, int], colour: str,
           seat: int) -> None:
    """A fence: a thick bar in its builder's colour along the square's side facing the field (pushed a little onto
    the field's cut edge), with the colour's letter on a disc in its middle. towards: (+-1, +-1) in image axes."""
    fill = player_fill(colour, seat)
    dx, dy = towards
    push = half * 0.14
    ax, ay = cx + dx * (half + push), cy + dy * push
    bx, by = cx + dx * push, cy + dy * (half + push)
    ex, ey = (bx - ax) * 0.12, (by - ay) * 0.12
    a, b = (ax - ex, ay - ey), (bx + ex, by + ey)
    width = max(8, int(half * 0.45))
    draw.line([a, b], fill=d.INK, width=width + 4)
    draw.line([a, b], fill=fill, width=width)
    mx, my = (ax + bx) / 2 + dx * half * 0.06, (ay + by) / 2 + dy * half * 0.06
    r = max(9, int(half * 0.42))
    draw.ellipse((mx - r, my - r, mx + r, my + r), fill=fill, outline=d.INK, width=2)
    letter = player_letter(colour)
    d.text(draw, (mx, my), letter, max(11, int(r * (1.25 if len(letter) == 1 else 1.05))), d.ink_on(fill),
           bold=True, anchor="mm")


def _worker(draw: d.Pen, cx: float, cy: float, r: int, colour: str, seat: int) -> None:
    """A worker: a disc in the player's colour with a white ring and the colour's letter."""
    fill = player_fill(colour, seat)
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=d.INK)
    draw.ellipse((cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1), fill=(255, 255, 255))
    draw.ellipse((cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2), fill=fill)
    letter = player_letter(colour)
    d.text(draw, (cx, cy), letter, max(11, int(r * (1.0 if len(letter) == 1 else 0.85))), d.ink_on(fill), bold=True,
           anchor="mm")


# --- Header --------------------------------------------------------------------------------------------


def _header_lines(view: View) -> list[tuple[str, str]]:
    """The header's extra lines as (title, text): the drawn field, what is pending, effects in force, variations."""
    lines: list[tuple[str, str]] = []
    pending = view.get("pending")
    if pending:
        lines.append(("In progress:", str(pending)))
    effects = [str(e) for e in view.get("effects") or []]
    if effects:
        lines.append(("In force:", "; ".join(effects)))
    variation = view.get("variation") or {}
    flags = [label for key, label in (("two_player", "two players (variation one: no Keythedral tile, one new law)"),
                                      ("no_laws", "no law cards"), ("open_tiles", "building tiles face up"))
             if variation.get(key)]
    if flags:
        lines.append(("Variations:", ", ".join(flags)))
    return lines


def _header_height(view: View) -> int:
    """Height of the header: the status line, the waiting line(s), the extra lines."""
    waiting = d.wrap(_waiting(view), 22, INNER - 32, bold=True)[:2]
    extra = len(_header_lines(view)) + (1 if view.get("phase") == "setup" else 0)
    return 58 + 30 * len(waiting) + 28 * extra + 10


def _waiting(view: View) -> str:
    """The engine's waiting sentence, capitalised."""
    text = str(view.get("waiting_for") or "")
    return text[:1].upper() + text[1:]


def _header(draw: d.Pen, view: View, box: Box) -> None:
    """Round, phase, step and start player; whom we wait for; the drawn field; pending payment, effects."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    x = x0 + 14
    cy = y0 + 28
    x += d.pill(draw, (x, cy), "KEYTHEDRAL", 22, KEYTHEDRAL_FILL, pad=10) + 10
    x += d.pill(draw, (x, cy), f"Round {view.get('round', 1)}", 22, d.INK, pad=10) + 10
    phase = str(view.get("phase", ""))
    x += d.pill(draw, (x, cy), PHASE_LABEL.get(phase, phase), 20, d.lighter(d.INK, 0.85), pad=10) + 10
    step = str(view.get("step") or "")
    if step:
        x += d.text(draw, (x, cy), f"step: {step}", 16, d.MUTED, anchor="lm") + 10
    right = x1 - 14
    start = view.get("start_player")
    if isinstance(start, int):
        colour = _seat_colour(view, start)
        name = d.ellipsize(_name(view, start), 20, 220, bold=True)
        right -= d.text_width(name, 20, True)
        d.text(draw, (right, cy), name, 20, bold=True, anchor="lm")
        right -= 6 + max(26, d.text_width(player_letter(colour), 16, True) + 10)
        _tag(draw, (right, cy - 12), colour, 16)
        right -= 8 + d.text_width("Start player", 18)
        d.text(draw, (right, cy), "Start player", 18, d.MUTED, anchor="lm")
    y = y0 + 58
    for line in d.wrap(_waiting(view), 22, x1 - x0 - 32, bold=True)[:2]:
        d.text(draw, (x0 + 16, y + 14), line, 22, d.INK, bold=True, anchor="lm")
        y += 30
    if phase == "setup":
        xx = x0 + 16
        drawn = view.get("drawn_field")
        xx += d.text(draw, (xx, y + 13), "Field to lay:", 18, d.OFFER, bold=True, anchor="lm") + 10
        if drawn:
            terrain = str(drawn.get("terrain", ""))
            ftile, fmask = _field_tile(terrain, 40)
            d.paste(draw, ftile, (xx, y - 7), fmask)
            xx += 48
            text = f"{terrain} (back {drawn.get('back', '?')})"
        else:
            text = "none drawn"
        xx += d.text(draw, (xx, y + 13), text, 18, anchor="lm") + 24
        d.text(draw, (xx, y + 13), f"Field stack: {view.get('field_stack', 0)} face down", 18, d.MUTED, anchor="lm")
        y += 28
    for title, text in _header_lines(view):
        w = d.text(draw, (x0 + 16, y + 13), title, 18, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x0 + 16 + w, y + 13), d.ellipsize(text, 18, x1 - x0 - 40 - w), 18, anchor="lm")
        y += 28


# --- The Keythedral mat ----------------------------------------------------------------------------------

CARD_H = 84
CARD_GAP = 6
MAT_GUTTER = 50
TITLE_H = 42
ORDER_H = 86
NOTE_H = 26
MAT_H = TITLE_H + 5 * (CARD_H + CARD_GAP) + NOTE_H + ORDER_H + 8  # the Keythedral mat's height


def _keythedral_mat(view: View, colours: d.Palette) -> d.Layer:
    """The mat: 17 building spaces by stage, the cost legend line and the work-order track."""
    w, h = COLUMN_W, MAT_H
    _, draw = d.canvas(w, h, d.BACKGROUND, colours)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    d.text(draw, (14, TITLE_H / 2 + 2), "KEYTHEDRAL MAT", 20, bold=True, anchor="lm")
    stage = view.get("stage")
    if isinstance(stage, int):
        label = f"building stage {stage}" if stage <= len(MAT_SLOTS) else "Keythedral complete"
        d.pill(draw, (w - 14, TITLE_H / 2 + 2), label, 16, d.INK, pad=8, anchor="r")
    by_stage: dict[int, list[Mapping[str, Any]]] = {}
    for entry in view.get("mat") or []:
        by_stage.setdefault(int(entry["stage"]), []).append(entry)
    y = TITLE_H
    for s in range(1, 6):
        entries = sorted(by_stage.get(s, []), key=lambda e: _slot(str(e.get("space", ""))))
        if s == stage:
            draw.rounded_rectangle((6, y - 3, w - 7, y + CARD_H + 3), radius=8, fill=CURRENT_ROW)
        draw.ellipse((10, y + 10, 10 + 36, y + 46), fill=d.INK)
        d.text(draw, (28, y + 28), str(s), 22, (255, 255, 255), bold=True, anchor="mm")
        d.text(draw, (28, y + 64), f"{s} pt{'s' if s > 1 else ''}", 14, d.MUTED, anchor="mm")
        n = max(len(entries), MAT_SLOTS.get(s, 1))
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
    return int(slot) if slot.isdigit() else 0


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
    def of(view: View, entry: Mapping[str, Any]) -> MatCard:
        """A mat entry of the view as a card."""
        taken = entry.get("taken_by")
        taker = (_seat_colour(view, taken), taken, _name(view, taken)) if isinstance(taken, int) else None
        cost = entry.get("cost")
        return MatCard(str(entry.get("space", "")), bool(entry.get("taken")) or taker is not None, taker,
                       bool(entry.get("face_up")), str(entry.get("stage", "?")),
                       bool(entry.get("reconstructed")), int(entry.get("price_change") or 0),
                       None if cost is None else tuple(str(c) for c in cost))


def _mat_card(draw: d.Pen, view: View, entry: Mapping[str, Any], box: Box) -> None:
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
        fill = player_fill(colour, seat)
        draw.rounded_rectangle(box, radius=8, fill=d.lighter(fill, 0.55), outline=d.darker(fill, 0.7), width=3)
        d.text(draw, (x0 + 8, y0 + 15), space, 16, d.INK, bold=True, anchor="lm")
        d.text(draw, (x1 - 8, y0 + 15), "taken", 14, d.INK, anchor="rm")
        tw = _tag(draw, (x0 + 8, y0 + 38), colour, 16)
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
    counts: dict[str, int] = {}
    for colour in cost:
        counts[colour] = counts.get(colour, 0) + 1
    order = [c for c in CUBE_ORDER if c in counts] + sorted(c for c in counts if c not in CUBE_ORDER)
    groups = [(c, str(counts[c])) for c in order]
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
            _cube(draw, x + 12, y, colour, 24)
            d.text(draw, (x + 26, y), n, 16, d.INK, bold=True, anchor="lm")
            x += widths[i]
        y += row_h


def _work_order(draw: d.Pen, view: View, box: Box) -> None:
    """The five cottage numbers at the foot of the mat and the work-order markers on them, with who placed each."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (x0 + 10, y0 + 14), "WORK ORDER", 16, bold=True, anchor="lm")
    d.text(draw, (x0 + 130, y0 + 14), "(marker on the cottage number; who chose it)", 14, d.MUTED, anchor="lm")
    markers = {int(m["number"]): m for m in view.get("work_order") or [] if m.get("number") is not None}
    current = view.get("current_number")
    slot_w = (x1 - x0 - 16) // 5
    cy = y0 + 56
    for i in range(5):
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
            mx += _ordinal_pill(draw, (mx, cy - 12), int(marker.get("marker", 0)), 15) + 4
            seat = marker.get("seat")
            if isinstance(seat, int):
                _tag(draw, (mx - 44, cy + 2), _seat_colour(view, seat), 14)


# --- The Keytown mat -------------------------------------------------------------------------------------

KT_TITLE_H = 38
TOWN_H = KT_TITLE_H + 84 + 8 + 104 + 8 + 64 + 10  # the Keytown mat's height


def _keytown_mat(view: View, colours: d.Palette) -> d.Layer:
    """Keytown: the craftsmen's cubes, the chapter house (new-law spaces, law stack, laws played) and the store."""
    w, h = COLUMN_W, TOWN_H
    _, draw = d.canvas(w, h, d.BACKGROUND, colours)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    d.text(draw, (14, KT_TITLE_H / 2 + 2), "KEYTOWN MAT", 20, bold=True, anchor="lm")
    craftsmen = view.get("craftsmen") or {}
    y = KT_TITLE_H
    bw = (w - 24 - 2 * 8) // 3
    for i, (colour, name, price) in enumerate(CRAFTSMEN):
        bx = 12 + i * (bw + 8)
        draw.rounded_rectangle((bx, y, bx + bw, y + 84), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
        d.text(draw, (bx + 10, y + 16), name, 17, bold=True, anchor="lm")
        d.text(draw, (bx + 10, y + 36), f"{CUBE_NAME[colour]} for {price} cubes", 14, d.MUTED, anchor="lm")
        n = int(craftsmen.get(colour, 0))
        _cube(draw, bx + 24, y + 62, colour, 26, faded=n == 0)
        d.text(draw, (bx + 44, y + 62), f"{n} left", 20, d.INK if n else d.MUTED, bold=True, anchor="lm")
    y += 84 + 8
    draw.rounded_rectangle((12, y, w - 12, y + 104), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (22, y + 16), "CHAPTER HOUSE", 17, bold=True, anchor="lm")
    d.text(draw, (22, y + 40), "new laws", 14, d.MUTED, anchor="lm")
    x = 22
    for i, card in enumerate(view.get("law_spaces") or []):
        cx = x + i * 62
        cbox = (cx, y + 52, cx + 54, y + 98)
        if card:
            draw.rounded_rectangle(cbox, radius=6, fill=KEYTHEDRAL_FILL, outline=d.INK, width=2)
            d.text(draw, (cx + 27, y + 75), "LAW", 15, (255, 255, 255), bold=True, anchor="mm")
        else:
            d.dashed_rectangle(draw, cbox, d.FAINT, width=2, dash=5)
            d.text(draw, (cx + 27, y + 75), "empty", 14, d.MUTED, anchor="mm")
    sx = 22 + 2 * 62 + 10
    stack = int(view.get("law_stack") or 0)
    for k in range(3 if stack else 0):
        draw.rounded_rectangle((sx + 6 - 3 * k, y + 46 + 3 * k, sx + 60 - 3 * k, y + 92 + 3 * k), radius=6,
                               fill=d.darker(KEYTHEDRAL_FILL, 0.8), outline=d.INK, width=1)
    d.text(draw, (sx + 30, y + 72), str(stack), 20, (255, 255, 255) if stack else d.MUTED, bold=True, anchor="mm")
    d.text(draw, (sx + 30, y + 40), "stack", 14, d.MUTED, anchor="mm")
    lx = sx + 80
    played = [str(t) for t in view.get("laws_played") or []]
    d.text(draw, (lx, y + 16), f"Laws played ({len(played)})", 16, bold=True, anchor="lm")
    lines = d.wrap(", ".join(played) if played else "none yet", 15, w - 24 - lx)
    if len(lines) > 3:
        lines = lines[:3]
        lines[-1] = d.ellipsize(lines[-1] + " ...", 15, w - 24 - lx)
    for i, line in enumerate(lines):
        d.text(draw, (lx, y + 40 + 20 * i), line, 15, d.INK if played else d.MUTED, anchor="lm")
    y += 104 + 8
    store = view.get("store") or {}
    draw.rounded_rectangle((12, y, w - 12, y + 64), radius=10, fill=(255, 255, 255), outline=d.FAINT, width=1)
    d.text(draw, (22, y + 16), "STORE", 17, bold=True, anchor="lm")
    d.text(draw, (22, y + 42), "cubes", 14, d.MUTED, anchor="lm")
    cw = (w - 24 - 96) // 8
    for i, colour in enumerate(CUBE_ORDER):
        n = int(store.get(colour, 0))
        cx = 96 + i * cw
        _cube(draw, cx + 12, y + 24, colour, 24, faded=n == 0)
        d.text(draw, (cx + 28, y + 24), str(n), 18, d.INK if n else d.MUTED, bold=bool(n), anchor="lm")
        d.text(draw, (cx + 2, y + 50), CUBE_NAME[colour], 14, d.MUTED, anchor="lm")
    return d.layer(draw)


# --- Players -------------------------------------------------------------------------------------------

ROW_H = 66
HEAD_H = 30
COLS = {"player": 10, "cubes": 330, "points": 830, "tiles": 910, "laws": 1170, "fences": 1255, "houses": 1345}


def _players_height(view: View) -> int:
    """Height of the player table."""
    return HEAD_H + ROW_H * len(view.get("players") or []) + 10


def _players_frame(draw: d.Pen, box: Box) -> None:
    """The player table's panel and column titles."""
    x0, y0, _, _ = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    heads = {"player": "Player", "cubes": "Cubes held", "points": "Points", "tiles": "Tiles taken (space)",
             "laws": "Laws held", "fences": "Fences left", "houses": "Houses"}
    for key, title in heads.items():
        d.text(draw, (x0 + COLS[key], y0 + HEAD_H / 2 + 2), title, 14, d.MUTED, bold=True, anchor="lm")


def _players(draw: d.Pen, view: View, box: Box) -> None:
    """In the player table's frame: one row per player, swatch and name with status, cubes held by colour,
    points, tiles, laws, fences, houses."""
    x0, y0, x1, _ = box
    fences_left = list(view.get("fences_left") or [])
    houses: dict[int, int] = {}
    unlaid: dict[int, list[int]] = {}
    for c in view.get("cottages") or []:
        seat = int(c.get("seat", 0))
        if c.get("house"):
            houses[seat] = houses.get(seat, 0) + 1
        if not c.get("at"):
            unlaid.setdefault(seat, []).append(int(c.get("number", 0)))
    bids = {int(b["seat"]): b.get("bid") for b in view.get("bids") or [] if "seat" in b}
    to_act = set(view.get("to_act") or [])
    for i, player in enumerate(view.get("players") or []):
        seat = int(player.get("seat", i))
        colour = str(player.get("colour") or _seat_colour(view, seat))
        fill = player_fill(colour, seat)
        ry = y0 + HEAD_H + i * ROW_H
        if seat in to_act:
            draw.rounded_rectangle((x0 + 4, ry + 2, x1 - 4, ry + ROW_H - 2), radius=10, fill=d.lighter(fill, 0.85),
                                   outline=fill, width=4)
        elif i:
            draw.line((x0 + 10, ry, x1 - 10, ry), fill=d.FAINT, width=1)
        bx = x0 + COLS["player"]
        draw.rounded_rectangle((bx, ry + 11, bx + 44, ry + 55), radius=8, fill=fill, outline=d.INK, width=2)
        d.text(draw, (bx + 22, ry + 33), player_letter(colour), 20, d.ink_on(fill), bold=True, anchor="mm")
        nx = bx + 54
        d.text(draw, (nx, ry + 20), d.ellipsize(str(player.get("name", "")), 21, 260, bold=True), 21, bold=True,
               anchor="lm")
        badges: list[tuple[str, RGB, RGB]] = []
        if seat in to_act:
            badges.append(("TO ACT", d.HIGHLIGHT, (255, 255, 255)))
        if seat == view.get("start_player"):
            badges.append(("START", d.INK, (255, 255, 255)))
        if player.get("procured"):
            badges.append(("PROCURED LAW", KEYTHEDRAL_FILL, (255, 255, 255)))
        if player.get("passed"):
            badges.append(("PASSED", (255, 255, 255), d.INK))
        if view.get("phase") == "bidding" and seat in bids:
            bid = bids[seat]
            badges.append((f"bid {bid}" if bid is not None else "no bid", (255, 255, 255), d.INK))
        if unlaid.get(seat) and view.get("phase") == "setup":
            badges.append(("to lay: " + " ".join(str(n) for n in sorted(unlaid[seat])), (255, 255, 255), d.INK))
        px = nx
        for label, bfill, ink in badges:
            w = d.pill_width(label, 14, pad=6)
            if px + w > x0 + COLS["cubes"] - 8:
                break
            px += d.pill(draw, (px, ry + 47), label, 14, bfill, ink=ink, outline=d.INK, pad=6) + 5
        if "cubes" in player:
            _screen_contents(draw, player, x0, ry)
        else:
            _closed_screen(draw, (x0 + COLS["cubes"], ry + 12, x0 + COLS["laws"] - 10, ry + ROW_H - 12), fill)
        d.text(draw, (x0 + COLS["laws"] + 24, ry + 33), str(player.get("laws_held", 0)), 24, bold=True, anchor="mm")
        left = fences_left[seat] if seat < len(fences_left) else 0
        fx = x0 + COLS["fences"]
        draw.line((fx + 2, ry + 42, fx + 22, ry + 24), fill=d.INK, width=9)
        draw.line((fx + 2, ry + 42, fx + 22, ry + 24), fill=fill, width=5)
        d.text(draw, (fx + 30, ry + 33), str(left), 24, bold=True, anchor="lm")
        d.text(draw, (x0 + COLS["houses"] + 22, ry + 33), str(houses.get(seat, 0)), 24, bold=True, anchor="mm")


def _screen_contents(draw: d.Pen, player: Mapping[str, Any], x0: int, ry: int) -> None:
    """What stands behind a player's screen, when the view shows it: cubes by colour, points, tiles by space."""
    cubes = player.get("cubes") or {}
    for k, cube in enumerate(CUBE_ORDER):
        n = int(cubes.get(cube, 0))
        cx = x0 + COLS["cubes"] + k * 60
        _cube(draw, cx + 12, ry + 33, cube, 24, faded=n == 0)
        d.text(draw, (cx + 28, ry + 33), str(n), 20, d.INK if n else d.FAINT, bold=bool(n), anchor="lm")
    d.text(draw, (x0 + COLS["points"] + 20, ry + 33), str(player.get("points", 0)), 28, bold=True, anchor="mm")
    _tiles(draw, list(player.get("tiles") or []), (x0 + COLS["tiles"], ry + 6, x0 + COLS["laws"] - 10,
                                                    ry + ROW_H - 6))


def _closed_screen(draw: d.Pen, box: Box, fill: RGB) -> None:
    """A player's screen seen from the table: its cubes, points and tiles are not shown (ruling T-1)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=d.lighter(fill, 0.8), outline=d.darker(fill, 0.8), width=2)
    d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "cubes, points and tiles behind the screen", 16, d.INK, anchor="mm")


def _tiles(draw: d.Pen, tiles: Sequence[Mapping[str, Any]], box: Box) -> None:
    """A player's building tiles as chips with their space, tinted by stage, wrapping to a second line."""
    x0, y0, x1, y1 = box
    if not tiles:
        d.text(draw, (x0, (y0 + y1) / 2), "none", 15, d.MUTED, anchor="lm")
        return
    chip_w, chip_h = 40, 24
    per_row = max(1, (x1 - x0 + 4) // (chip_w + 4))
    rows = 1 if len(tiles) <= per_row else 2
    ys = [(y0 + y1) / 2 - chip_h / 2] if rows == 1 else [y0 + 1, y1 - chip_h - 1]
    shown = tiles[: per_row * 2]
    for k, tile in enumerate(shown):
        stage = int(tile.get("stage", 0))
        tx = x0 + (k % per_row) * (chip_w + 4)
        ty = ys[min(k // per_row, rows - 1)]
        fill = d.lighter(KEYTHEDRAL_FILL, 0.85 - 0.12 * max(0, min(5, stage) - 1))
        if len(tiles) > len(shown) and k == len(shown) - 1:
            draw.rounded_rectangle((tx, ty, tx + chip_w, ty + chip_h), radius=5, fill=d.PANEL, outline=d.GRID)
            d.text(draw, (tx + chip_w / 2, ty + chip_h / 2), f"+{len(tiles) - k}", 14, bold=True, anchor="mm")
            break
        draw.rounded_rectangle((tx, ty, tx + chip_w, ty + chip_h), radius=5, fill=fill, outline=d.INK, width=1)
        d.text(draw, (tx + chip_w / 2, ty + chip_h / 2), str(tile.get("space", stage)), 15, d.ink_on(fill), bold=True,
               anchor="mm")


# --- Legend --------------------------------------------------------------------------------------------


@d.kept(maxsize=1)
def _legend() -> d.Layer:
    """Terrain letters and patterns, player letters, pieces, cube letters (drawn once)."""
    w = INNER
    h = 4 * 34 + 14
    _, draw = d.canvas(w + 1, h + 1)
    draw.rounded_rectangle((0, 0, w, h), radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    y = 24
    x = 14 + d.text(draw, (14, y), "Fields", 17, bold=True, anchor="lm") + 14
    for terrain in TERRAINS:
        tile, mask = _field_tile(terrain, 44)
        d.paste(draw, tile, (x, y - 22), mask)
        x += 50
        cube = TERRAIN_CUBE[terrain]
        x += d.text(draw, (x, y), f"{terrain}: {cube} {CUBE_NAME[cube]}", 16, anchor="lm") + 22
    y += 34
    x = 14 + d.text(draw, (14, y), "Players", 17, bold=True, anchor="lm") + 14
    for colour in PLAYER_COLOURS:
        x += _tag(draw, (x, y - 12), colour, 16) + 6
        x += d.text(draw, (x, y), colour, 16, anchor="lm") + 16
    x += 10
    blue = {"colour": "blue", "seat": 0, "number": 3}
    _cottage(draw, x + 20, y, 20, blue, False)
    x += 46 + d.text(draw, (x + 46, y), "cottage 3", 16, anchor="lm") + 16
    _cottage(draw, x + 20, y, 20, blue | {"house": True}, False)
    x += 46 + d.text(draw, (x + 46, y), "house 3", 16, anchor="lm") + 16
    _worker(draw, x + 14, y, 12, "blue", 0)
    x += 34 + d.text(draw, (x + 34, y), "worker", 16, anchor="lm") + 16
    _fence(draw, x + 4, y - 10, 24, (1, 1), "blue", 0)
    x += 40 + d.text(draw, (x + 40, y), "fence", 16, anchor="lm") + 16
    _keythedral_piece(draw, x + 20, y, 17)
    x += 44 + d.text(draw, (x + 44, y), "Keythedral", 16, anchor="lm")
    y += 34
    x = 14 + d.text(draw, (14, y), "Cubes", 17, bold=True, anchor="lm") + 14
    for colour in CUBE_ORDER:
        _cube(draw, x + 11, y, colour, 22)
        x += 28 + d.text(draw, (x + 28, y), f"{colour} {CUBE_NAME[colour]}", 16, anchor="lm") + 18
    y += 34
    x = 14
    x += d.text(draw, (x, y), "Lattice:", 17, bold=True, anchor="lm") + 10
    note = ("field M13 is column M, row 13; square M13+ lies between M13, N13, M14 and N14; faint slots are "
            "empty places; a magenta ring marks the cottage number now placing workers")
    d.text(draw, (x, y), d.ellipsize(note, 16, w - x - 14), 16, anchor="lm")
    return d.layer(draw)
