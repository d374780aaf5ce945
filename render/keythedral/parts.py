"""The Keythedral table's measures, colours and letters, and the small pieces drawn everywhere on it: player tags,
cubes, cottages and houses, fences, workers and the Keythedral tile.

Every colour has a letter beside it for colour-blind players: terrains Q W L F V (with a pattern each), players
B Y Gy G R, cubes K Br B G R W P Y. The colours are the picture's own; the names of players' colours, cubes,
terrains and what each cube stands for come from the engine.
"""

from __future__ import annotations

from engine.keythedral.components import MATERIAL
from engine.keythedral.texts import ORDINALS
from engine.keythedral.view import KView
from render import draw as d

Box = tuple[int, int, int, int]
Pos = tuple[int, int]
RGB = d.RGB

WIDTH = 1440
MARGIN = 16
GAP = 14
INNER = WIDTH - 2 * MARGIN
COLUMN_W = 600  # the mats' column, right of the lattice
LATTICE_W = INNER - GAP - COLUMN_W

# --- Colours and letters ----------------------------------------------------------------------------------

PLAYER_FILL: dict[str, RGB] = {
    "blue": (36, 96, 214),
    "yellow": (250, 204, 20),
    "grey": (128, 128, 132),
    "green": (24, 146, 66),
    "red": (214, 38, 44),
}
PLAYER_LETTER = {"blue": "B", "yellow": "Y", "grey": "Gy", "green": "G", "red": "R"}

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
CUBE_NAME = {**MATERIAL, "purple": "glass"}  # the picture's short words ("stained glass" does not fit)

TERRAIN_FILL: dict[str, RGB] = {
    "quarry": (172, 174, 180),
    "woods": (184, 138, 92),
    "lake": (128, 180, 230),
    "farm": (156, 208, 116),
    "vineyard": (222, 128, 134),
}
TERRAIN_LETTER = {"quarry": "Q", "woods": "W", "lake": "L", "farm": "F", "vineyard": "V"}

KEYTHEDRAL_FILL: RGB = (112, 52, 150)
FACE_DOWN: RGB = (104, 92, 80)
CURRENT_ROW: RGB = (255, 244, 200)
WOOD: RGB = (226, 190, 140)
SLOT_FILL: RGB = (238, 233, 222)
SLOT_INK: RGB = (126, 120, 108)
PRICE_UP: RGB = (255, 214, 170)
PRICE_DOWN: RGB = (186, 226, 250)
REC_MARK = "rec."


def player_fill(colour: str) -> RGB:
    """A player colour's fill."""
    return PLAYER_FILL[colour]


def player_letter(colour: str) -> str:
    """A player colour's letter."""
    return PLAYER_LETTER[colour]


def seat_colour(view: KView, seat: int) -> str:
    """A seat's colour name."""
    return view["colours"][seat]


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


# --- Small pieces ----------------------------------------------------------------------------------------


def tag(draw: d.Pen, xy: tuple[float, float], colour: str, size: int = 16, *,
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


def cube(draw: d.Pen, cx: float, cy: float, colour: str, side: int = 22, *, faded: bool = False) -> None:
    """A cube: a rounded square in the cube's colour with its letter."""
    fill = CUBE_FILL[colour]
    if faded:
        fill = d.lighter(fill, 0.7)
    r = side / 2
    draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=4, fill=fill,
                           outline=d.FAINT if faded else d.INK, width=1 if faded else 2)
    letter = CUBE_LETTER[colour]
    size = max(11, int(side * (0.62 if len(letter) == 1 else 0.55)))
    d.text(draw, (cx, cy + 1), letter, size, d.ink_on(fill), bold=True, anchor="mm")


def diamond(cx: float, cy: float, h: float) -> list[tuple[float, float]]:
    """A square turned 45 degrees, h from its centre to each corner."""
    return [(cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy)]


def octagon(x: float, y: float, size: float, cut: float, inset: float = 0) -> list[tuple[float, float]]:
    """An octagon in the cell at (x, y): a square of side size with its corners cut cut along each side."""
    a, b = x + inset, y + inset
    e, f = x + size - inset, y + size - inset
    return [(x + cut, b), (x + size - cut, b), (e, y + cut), (e, y + size - cut), (x + size - cut, f),
            (x + cut, f), (a, y + size - cut), (a, y + cut)]


def ordinal_pill(draw: d.Pen, xy: tuple[float, float], marker: int, size: int = 15) -> int:
    """A work-order marker: a wooden cylinder seen from the side, with 1st..5th; xy is its left middle."""
    return d.pill(draw, xy, ORDINALS[marker], size, WOOD, ink=d.INK, outline=d.darker(WOOD, 0.55), pad=6)


def keythedral_piece(draw: d.Pen, cx: float, cy: float, half: float) -> None:
    """The Keythedral tile: a purple diamond with a white spire and K."""
    d.shape(draw, diamond(cx, cy, half + 1), KEYTHEDRAL_FILL, d.INK, width=2)
    s = half * 0.42
    draw.polygon([(cx, cy - s * 1.35), (cx + s * 0.55, cy - s * 0.35), (cx - s * 0.55, cy - s * 0.35)],
                 fill=(255, 255, 255))
    d.text(draw, (cx, cy + s * 0.45), "K", max(12, int(half * 0.5)), (255, 255, 255), bold=True, anchor="mm")


def cottage_piece(draw: d.Pen, cx: float, cy: float, half: float, colour: str, number: int, house: bool,
                  lit: bool) -> None:
    """A cottage (player colour, thin outline) or a house (darker, double outline, 'H'), with letter and number;
    lit rings it while its number places workers."""
    fill = player_fill(colour)
    if lit:
        d.outline(draw, diamond(cx, cy, half + 5), d.HIGHLIGHT, 4)
    label = f"{player_letter(colour)}{number}"
    size = max(11, min(17, int(half * 0.5)))
    if house:
        body = d.darker(fill, 0.62)
        d.shape(draw, diamond(cx, cy, half), body, d.INK, width=3)
        d.outline(draw, diamond(cx, cy, half - 5), (255, 255, 255), 2)
        d.text(draw, (cx, cy - size * 0.5), label, size, d.ink_on(body), bold=True, anchor="mm")
        d.text(draw, (cx, cy + size * 0.62), "H", size, d.ink_on(body), bold=True, anchor="mm")
    else:
        d.shape(draw, diamond(cx, cy, half - 2), fill, d.INK, width=2)
        d.text(draw, (cx, cy), label, size, d.ink_on(fill), bold=True, anchor="mm")


def fence_piece(draw: d.Pen, cx: float, cy: float, half: float, towards: tuple[int, int], colour: str) -> None:
    """A fence: a thick bar in its builder's colour along the square's side facing the field (pushed a little onto
    the field's cut edge), with the colour's letter on a disc in its middle. towards: (+-1, +-1) in image axes."""
    fill = player_fill(colour)
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


def worker_piece(draw: d.Pen, cx: float, cy: float, r: int, colour: str) -> None:
    """A worker: a disc in the player's colour with a white ring and the colour's letter."""
    fill = player_fill(colour)
    draw.ellipse((cx - r - 3, cy - r - 3, cx + r + 3, cy + r + 3), fill=d.INK)
    draw.ellipse((cx - r - 1, cy - r - 1, cx + r + 1, cy + r + 1), fill=(255, 255, 255))
    draw.ellipse((cx - r + 2, cy - r + 2, cx + r - 2, cy + r - 2), fill=fill)
    letter = player_letter(colour)
    d.text(draw, (cx, cy), letter, max(11, int(r * (1.0 if len(letter) == 1 else 0.85))), d.ink_on(fill), bold=True,
           anchor="mm")
