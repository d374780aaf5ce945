"""The field lattice of the Keythedral table: octagonal fields, the Keythedral square, cottages and houses as
diamonds, fences and workers, cropped to what is placed plus one ring of open slots, with column letters and row
numbers round it."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.keythedral.view import CottageView, KView
from render import draw as d
from render.keythedral.parts import (
    INNER,
    LATTICE_W,
    RGB,
    SLOT_FILL,
    SLOT_INK,
    TERRAIN_FILL,
    TERRAIN_LETTER,
    Box,
    Pos,
    cottage_piece,
    diamond,
    fence_piece,
    field_label,
    keythedral_piece,
    octagon,
    parse_label,
    worker_piece,
)

PAD = 12
AXIS = 30  # the strip of column letters and row numbers round the lattice
MAX_PITCH = 120  # a field's cell, in pixels
MAX_LATTICE_H = 1100  # a tall, narrow lattice gets smaller cells rather than a very tall image
MIN_SIDE_PITCH = 70  # below this the lattice takes the whole width and the mats go underneath it
MIN_PITCH = 36
CUT = 0.35  # how much of a cell's side each cut corner of an octagon takes (the cottage gaps' half-diagonal)
LAST_COLUMN = 25  # the lattice runs A1..Z26


@dataclass(frozen=True)
class Board:
    """What the lattice shows and where: positions, the crop (inclusive) and the cell pitch."""

    fields: dict[Pos, str]
    taken: frozenset[Pos]  # squares holding a cottage or a house
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


def board_of(view: KView) -> Board:
    """Read the lattice from the view and choose the crop and the pitch."""
    fields = {(f["x"], f["y"]): f["terrain"] for f in view["fields"]}
    taken = frozenset(parse_label(at) for at in (c["at"] for c in view["cottages"]) if at)
    k = view["keythedral"]
    keythedral = parse_label(k) if k else None
    xs: list[int] = []
    ys: list[int] = []
    for x, y in fields:  # a placed field and the ring of slots round it
        xs += [x - 1, x + 1]
        ys += [y - 1, y + 1]
    for x, y in [*taken, *([keythedral] if keythedral else [])]:  # a square and the four slots it touches
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
    return Board(fields, taken, keythedral, x0, y0, x1, y1, pitch, side)


def open_fields(board: Board) -> list[Pos]:
    """Empty field slots in the crop that touch a placed field or a placed square (where a field could go)."""
    touched: set[Pos] = set()
    for x, y in board.fields:
        touched.update({(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)})
    for x, y in [*board.taken, *([board.keythedral] if board.keythedral else [])]:
        touched.update({(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)})
    return sorted(p for p in touched if p not in board.fields and board.x0 <= p[0] <= board.x1
                  and board.y0 <= p[1] <= board.y1)


def open_squares(board: Board) -> list[Pos]:
    """Empty square slots in the crop touching at least one placed field (where a cottage could go)."""
    found = []
    for sx in range(board.x0, board.x1):
        for sy in range(board.y0, board.y1):
            if (sx, sy) in board.taken or (sx, sy) == board.keythedral:
                continue
            if any(p in board.fields for p in ((sx, sy), (sx + 1, sy), (sx, sy + 1), (sx + 1, sy + 1))):
                found.append((sx, sy))
    return found


@d.kept(maxsize=32)
def field_tile(terrain: str, pitch: int) -> tuple[d.Layer, Image.Image]:
    """A placed field's octagon (fill, pattern, outline, terrain letter) and its mask; drawn once per pitch."""
    cut = round(pitch * CUT)
    fill = TERRAIN_FILL[terrain]
    _, draw = d.canvas(pitch, pitch, fill)
    _pattern(draw, terrain, pitch, d.darker(fill, 0.8))
    mask = Image.new("L", (pitch, pitch), 0)
    points = octagon(0, 0, pitch, cut, 1.5)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    draw.line([*points, points[0]], fill=d.darker(fill, 0.55), width=2)
    d.text(draw, (pitch / 2, pitch * 0.8), TERRAIN_LETTER[terrain], max(12, int(pitch * 0.17)), d.darker(fill, 0.35),
           bold=True, anchor="mm")
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
    else:
        raise ValueError(f"no pattern for the terrain {terrain!r}")


@d.kept(maxsize=8)
def _open_field_tile(pitch: int) -> tuple[d.Layer, Image.Image]:
    """An empty field slot: a faint octagon outline and its mask."""
    cut = round(pitch * CUT)
    _, draw = d.canvas(pitch, pitch, SLOT_FILL)
    mask = Image.new("L", (pitch, pitch), 0)
    points = octagon(0, 0, pitch, cut, 3)
    ImageDraw.Draw(mask).polygon(points, fill=255)
    draw.line([*points, points[0]], fill=d.FAINT, width=2)
    return d.layer(draw), mask


@dataclass(frozen=True)
class Ground:
    """What a lattice's ground (_ground) depends on: the fields, which squares are taken, the crop, the pitch and
    whether empty squares are labelled."""

    fields: tuple[tuple[Pos, str], ...]
    taken: tuple[Pos, ...]  # squares with a cottage or a house
    keythedral: Pos | None
    crop: tuple[int, int, int, int]
    pitch: int
    labelled: bool

    @staticmethod
    def of(view: KView, board: Board) -> Ground:
        """The ground of a view's lattice."""
        return Ground(tuple(sorted(board.fields.items())), tuple(sorted(board.taken)), board.keythedral,
                      (board.x0, board.y0, board.x1, board.y1), board.pitch, squares_labelled(view))

    def board(self) -> Board:
        """A board with this ground."""
        return Board(dict(self.fields), frozenset(self.taken), self.keythedral, *self.crop, self.pitch, True)


def lattice(draw: d.Pen, view: KView, board: Board, box: Box) -> None:
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
        keythedral_piece(draw, qx, qy, half)
    for (sx, sy), cottage in _cottages(view).items():
        qx, qy = corner(sx, sy)
        lit = view["phase"] == "workers" and cottage["number"] == view["current_number"]
        cottage_piece(draw, qx, qy, half, cottage["colour"], cottage["number"], cottage["house"], lit)
    for fence in view["fences"]:
        sx, sy = parse_label(fence["square"])
        fx, fy = parse_label(fence["field"])
        qx, qy = corner(sx, sy)
        fence_piece(draw, qx, qy, half, (1 if fx > sx else -1, -1 if fy > sy else 1), fence["colour"])
    radius = max(9, int(p * 0.18))
    for worker in view["workers"]:
        x, y = parse_label(worker["field"])
        cx, cy = cell(x, y)
        worker_piece(draw, cx + p / 2, cy + p * 0.5, radius, worker["colour"])


def _cottages(view: KView) -> dict[Pos, CottageView]:
    """The cottages and houses on the lattice, by square (one drawn per square, the last of the view's list)."""
    return {parse_label(at): c for c in view["cottages"] if (at := c["at"])}


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
    for x, y in open_fields(board):
        cx, cy = cell(x, y)
        d.paste(draw, tile, (cx, cy), mask)
        d.text(draw, (cx + p / 2, cy + p / 2), field_label(x, y), slot_size, SLOT_INK, anchor="mm")
    for (x, y), terrain in board.fields.items():
        if not (board.x0 <= x <= board.x1 and board.y0 <= y <= board.y1):
            continue
        cx, cy = cell(x, y)
        ftile, fmask = field_tile(terrain, p)
        d.paste(draw, ftile, (cx, cy), fmask)
        d.text(draw, (cx + p / 2, cy + p * 0.2), field_label(x, y), label_size, d.INK, bold=True, anchor="mm")
    half = round(p * CUT) - 2
    for sx, sy in open_squares(board):
        qx, qy = left + (sx - board.x0 + 1) * p, top + (board.y1 - sy) * p
        draw.polygon(diamond(qx, qy, half - 2), fill=SLOT_FILL, outline=d.FAINT, width=1)
        if ground.labelled:
            size = slot_size - 1
            label = field_label(sx, sy) + "+"
            if d.text_width(label, size) > 1.3 * half:
                size = max(11, size - 2)
            d.text(draw, (qx, qy), label, size, SLOT_INK, anchor="mm")
    return d.layer(draw)


def squares_labelled(view: KView) -> bool:
    """Whether empty square slots carry their labels: while cottages are laid (set-up) or one is relocated."""
    return view["phase"] == "setup" or view["step"] == "relocate"
