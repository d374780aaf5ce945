"""Shared drawing helpers: the palette, Pillow's bundled font, text fitting, pills, pieces and resource icons.

Everything here is deterministic and needs no files: the only font is the one Pillow ships
(``ImageFont.load_default(size=...)``), laid out with the basic engine so glyph placement does not depend
on whether libraqm is installed. Images are drawn as palette indices (``canvas``, ``Pen``) and encoded as they
are (``finished``, ``to_png``); parts drawn once are kept as ``Layer``s and pasted (``layer``, ``paste``).
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import _lru_cache_wrapper, cache, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImagePalette

from engine.core import Scoreboard

try:
    from isal import isal_zlib
except ImportError:  # pragma: no cover - a platform without isal's wheels: the standard library's zlib
    isal_zlib = None  # type: ignore[assignment]  # checked before each use

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore, ImagingDraw

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

# --- Palette -------------------------------------------------------------------------------------------

BACKGROUND: RGB = (246, 241, 230)
PANEL: RGB = (255, 252, 245)
INK: RGB = (28, 28, 30)
MUTED: RGB = (112, 108, 100)
FAINT: RGB = (200, 194, 182)
GRID: RGB = (150, 144, 132)
HIGHLIGHT: RGB = (226, 0, 122)  # magenta: the last action's space, distinct from every keyple and player colour
OFFER: RGB = (0, 102, 204)
WATER: RGB = (120, 178, 222)
WATER_DARK: RGB = (62, 120, 176)
HULL: RGB = (122, 78, 44)

# Keyple and field-border colours, with the letter printed on them for colour-blind players.
KEYPLE_FILL: dict[str, RGB] = {
    "blue": (126, 200, 240),  # light-blue boat people
    "orange": (244, 137, 36),
    "green": (146, 208, 96),  # light-green farmers
    "brown": (132, 84, 44),
    "black": (30, 30, 30),
    "grey": (150, 150, 150),
    "white": (255, 255, 255),  # generalists
}
COLOUR_LETTER: dict[str, str] = {
    "blue": "B",
    "orange": "O",
    "green": "G",
    "brown": "Br",
    "black": "K",
    "grey": "Gy",
    "white": "W",
}
COLOUR_NAME: dict[str, str] = {
    "blue": "light blue (boat people)",
    "orange": "orange",
    "green": "light green (farmers)",
    "brown": "brown",
    "black": "black",
    "grey": "grey",
    "white": "white (generalists)",
}

# Four fixed player colours by seat, chosen away from every keyple colour.
PLAYER_FILL: tuple[RGB, ...] = ((200, 30, 45), (246, 196, 0), (120, 70, 180), (0, 128, 128))
PLAYER_NAME: tuple[str, ...] = ("red", "yellow", "purple", "teal")

RESOURCE_FILL: dict[str, RGB] = {
    "clay": (214, 110, 50),
    "log": (120, 78, 40),
    "rock": (140, 140, 140),
    "brick": (170, 50, 40),
    "wood": (206, 164, 100),
    "stone": (84, 100, 118),
    "wheat": (234, 196, 60),
    "chicken": (250, 250, 245),
    "cow": (60, 60, 60),
    "deer": (176, 100, 50),
    "goat": (216, 204, 166),
    "horse": (100, 60, 30),
    "pig": (244, 160, 180),
    "sheep": (236, 236, 220),
    "boar": (80, 60, 50),
    "emerald": (40, 190, 100),
    "gold": (240, 190, 20),
    "ruby": (200, 30, 60),
    "sapphire": (40, 80, 200),
}
AREA_FILL: dict[str, RGB] = {"farm": (96, 150, 60), "village": (170, 80, 60)}
SEASON_FILL: dict[str, RGB] = {
    "spring": (96, 170, 80),
    "summer": (226, 160, 20),
    "autumn": (190, 90, 40),
    "winter": (80, 130, 190),
}


def player_fill(seat: int) -> RGB:
    """The fixed colour of a seat."""
    return PLAYER_FILL[seat % len(PLAYER_FILL)]


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on a fill."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def darker(fill: RGB, factor: float = 0.6) -> RGB:
    """A darker shade of a colour."""
    return (int(fill[0] * factor), int(fill[1] * factor), int(fill[2] * factor))


def lighter(fill: RGB, amount: float = 0.6) -> RGB:
    """A colour mixed towards white."""
    return (
        int(fill[0] + (255 - fill[0]) * amount),
        int(fill[1] + (255 - fill[1]) * amount),
        int(fill[2] + (255 - fill[2]) * amount),
    )


# --- Palette canvases ----------------------------------------------------------------------------------
#
# Every image is drawn as palette indices, one byte a pixel (an "L" image whose values are indices until
# finished() writes the palette in): a quarter of the bytes of RGB to fill, no colour quantisation at the end,
# and flat fills keep their exact colours. Anti-aliased text is laid in SHADES coverage steps, each step an
# exact blend of the ink and the colour beneath it.

SHADES = 4  # coverage steps of anti-aliased text (0 is no ink): 1/4, 1/2, 3/4 and full
TEXT_RESERVE = 40  # palette entries text blends leave to flat colours; past that a blend takes the nearest colour


class Palette(ImagePalette.ImagePalette):
    """One image's colours: each RGB colour gets the next index when first used; past 256, the nearest one there.

    An ImagePalette so that ImageDraw takes it as its palette and asks it for every RGB fill and outline.
    """

    def __init__(self) -> None:
        super().__init__("RGB")
        self.index: dict[RGB, int] = {}
        self.rgb: list[RGB] = []
        self._ramps: dict[tuple[int, RGB], list[int]] = {}
        self._tables: dict[tuple[tuple[RGB, ...], frozenset[int]], list[int]] = {}
        self._cells: dict[tuple[int, int, int], list[int]] = {}
        self._boxes: dict[tuple[int, int, int], int] = {}
        self._tiles: dict[tuple[Glyph, int, RGB], ImagingCore] = {}
        self.blended: set[int] = set()  # entries that came in as text blends and are used for nothing else

    def copy(self) -> Palette:
        """An independent copy: the same colours at the same indices, and the same cached blends and text tiles."""
        other = Palette()
        other.index, other.rgb = dict(self.index), list(self.rgb)
        other._ramps, other._tables = dict(self._ramps), dict(self._tables)
        other._cells = {cell: list(indices) for cell, indices in self._cells.items()}
        other._boxes, other._tiles = dict(self._boxes), dict(self._tiles)
        other.blended = set(self.blended)
        return other

    def getcolor(self, color: tuple[float, ...], image: Image.Image | None = None) -> int:
        """The index of an RGB colour, added if new (what ImageDraw asks for every fill and outline)."""
        found = self.index.get(color)  # type: ignore[arg-type]  # an RGB tuple as given, mostly
        if found is None:
            rgb = (int(color[0]), int(color[1]), int(color[2]))
            found = self.index.get(rgb)
            if found is None:
                return self._add(rgb, 256)
        self.blended.discard(found)  # a blend's colour used as a flat colour too
        return found

    def _add(self, rgb: RGB, limit: int) -> int:
        """A new entry for rgb while the palette holds fewer than limit colours, else the nearest colour's index."""
        if len(self.rgb) >= limit:
            return self.nearest(rgb)
        self.index[rgb] = len(self.rgb)
        self.rgb.append(rgb)
        self._cells.setdefault(_cell(rgb), []).append(self.index[rgb])
        self._boxes.setdefault(_box(rgb), self.index[rgb])
        return self.index[rgb]

    def nearest(self, rgb: RGB) -> int:
        """The index of the colour nearest rgb (squared RGB distance; the first of equals).

        Colours in the 27 grid cells round rgb's are looked at first: one nearer than a cell's side is the nearest
        of all, since every colour outside them is at least a side away."""
        cr, cg, cb = _cell(rgb)
        near = [i for dr in (-1, 0, 1) for dg in (-1, 0, 1) for db in (-1, 0, 1)
                for i in self._cells.get((cr + dr, cg + dg, cb + db), ())]
        candidates = near or range(len(self.rgb))
        best = min(candidates, key=lambda i: (_distance(self.rgb[i], rgb), i))
        if _distance(self.rgb[best], rgb) < CELL * CELL:
            return best
        return min(range(len(self.rgb)), key=lambda i: (_distance(self.rgb[i], rgb), i))

    def table(self, colours: tuple[RGB, ...], blended: frozenset[int] = frozenset()) -> list[int]:
        """A 256-entry lookup table from another image's indices (standing for colours) to this palette's; those
        of its text blends (blended) are taken as this palette's own blends are (_blend)."""
        key = (colours, blended)
        found = self._tables.get(key)
        if found is None:
            found = [self._blend(rgb) if i in blended else self.getcolor(rgb) for i, rgb in enumerate(colours)]
            found = self._tables[key] = found + [0] * (256 - len(found))
        return found

    def tile(self, glyph: Glyph, under: int, ink: RGB) -> ImagingCore:
        """A line of text in ink over colour index under, as indices (kept: a table repeats many labels)."""
        key = (glyph, under, ink)
        found = self._tiles.get(key)
        if found is None:
            found = self._tiles[key] = glyph.steps.point(self.ramp(under, ink), None)
        return found

    def ramp(self, under: int, ink: RGB) -> list[int]:
        """A lookup table from coverage step (0 to SHADES) to the index of ink laid over colour index under at
        that coverage; the blends between keep clear of the reserve (TEXT_RESERVE)."""
        key = (under, ink)
        found = self._ramps.get(key)
        if found is None:
            steps = [self._blend(blend(self.rgb[under], ink, step / SHADES)) for step in range(1, SHADES)]
            found = self._ramps[key] = [under, *steps, self.getcolor(ink), *[0] * (255 - SHADES)]
        return found

    def _blend(self, rgb: RGB) -> int:
        """The index for a text blend: the colour itself, else one already in its box (BLEND_BOX), else a new entry
        short of the reserve, else the nearest colour."""
        found = self.index.get(rgb)
        if found is None:
            found = self._boxes.get(_box(rgb))
        if found is None:
            found = self._add(rgb, 256 - TEXT_RESERVE)
            if self.rgb[found] == rgb:  # a new entry, not the nearest colour
                self.blended.add(found)
        return found


CELL = 32  # the side of the colour grid Palette.nearest looks in first
BLEND_BOX = 8  # a text blend takes a colour already in its 8x8x8 box of RGB (at most 7 off a channel, on edge pixels)


def _cell(rgb: RGB) -> tuple[int, int, int]:
    """The grid cell of a colour."""
    return rgb[0] // CELL, rgb[1] // CELL, rgb[2] // CELL


def _box(rgb: RGB) -> tuple[int, int, int]:
    """The blend box of a colour."""
    return rgb[0] // BLEND_BOX, rgb[1] // BLEND_BOX, rgb[2] // BLEND_BOX


def _distance(a: RGB, b: RGB) -> int:
    """The squared distance between two colours."""
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


class Pen(ImageDraw.ImageDraw):
    """An ImageDraw on an index image that takes RGB colours, giving each its own palette entry (see Palette).

    With an origin, the image stands for the part of a larger one from that corner on: the pen takes the larger
    image's coordinates (see _Moved). Not for thick polygon outlines (Pillow masks them unmoved; use outline)."""

    def __init__(self, image: Image.Image, colours: Palette | None = None, origin: tuple[int, int] = (0, 0)) -> None:
        super().__init__(image)
        self.image = image
        self.colours = Palette() if colours is None else colours
        self.palette = self.colours
        self.origin = origin
        if origin != (0, 0):
            self.draw = cast("ImagingDraw", _Moved(self.draw, origin))

    def rounded_rectangle(self, xy: Any, radius: float = 0, fill: Any = None, outline: Any = None, width: int = 1, *,
                          corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        """Pillow's rounded rectangle, the same pixels; a small one is stamped from a cache of its shape (Pillow
        draws each from up to fourteen pieces, tens of microseconds a time, and a table has hundreds)."""
        box = tuple(xy) if len(xy) == 4 else ()
        if not box or min(box) < 0 or (box[2] - box[0]) * (box[3] - box[1]) > STAMP_AREA:
            return super().rounded_rectangle(xy, radius, fill, outline, width, corners=corners)
        ink, fill_ink = self._getink(outline, fill)
        # An even shift keeps Pillow's round() the same; the margin holds what a thin shape's outline spills.
        margin = 2 * width + 2
        left, top = 2 * int(box[0] // 2) - margin, 2 * int(box[1] // 2) - margin
        shape = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)
        outlined = ink is not None and ink != fill_ink and width != 0
        tile, mask = _rounded_shape(shape, radius, fill_ink is not None, outlined, width, corners, margin)
        colours = [0, fill_ink or 0, ink or 0, *[0] * 253]
        left, top = left - self.origin[0], top - self.origin[1]
        _blit(self, (left, top, left + tile.size[0], top + tile.size[1]), tile.point(colours, None), mask)


class _Moved:
    """Pillow's drawing core for a canvas with an origin: the coordinates of every draw_ call are moved by minus
    the origin. A whole number apart, the moved coordinates are exact, and Pillow rasterises them as it would the
    larger image's (where a part is drawn at a shift of its own, coordinates close to a whole number can round
    the other way: Keyflower's hex edges did)."""

    def __init__(self, core: ImagingDraw, origin: tuple[int, int]) -> None:
        self.core = core
        self.origin = origin

    def __getattr__(self, name: str) -> Any:
        """The core's attribute; a drawing call's coordinates (its first argument, see MOVED) moved."""
        found = getattr(self.core, name)
        if name not in MOVED:
            return found
        return lambda xy, *args: found(_moved(xy, self.origin), *args)


MOVED = {"draw_arc", "draw_bitmap", "draw_chord", "draw_ellipse", "draw_lines", "draw_pieslice", "draw_points",
         "draw_polygon", "draw_rectangle"}  # the core's calls whose first argument is coordinates


def _moved(xy: Any, origin: tuple[int, int]) -> list[Any]:
    """Coordinates (pairs or a flat list) less the origin."""
    ox, oy = origin
    if isinstance(xy[0], (tuple, list)):
        return [(x - ox, y - oy) for x, y in xy]
    return [v - (oy if i % 2 else ox) for i, v in enumerate(xy)]


STAMP_AREA = 40_000  # rounded rectangles up to this many pixels are stamped (bigger ones are mostly fill)


@lru_cache(maxsize=4096)
def _rounded_shape(box: tuple[float, float, float, float], radius: float, filled: bool, outlined: bool, width: int,
                   corners: tuple[bool, bool, bool, bool] | None, margin: int) -> tuple[ImagingCore, ImagingCore]:
    """A rounded rectangle drawn by Pillow as 1 (fill) and 2 (outline) on 0, with a margin, and where it drew (255)."""
    shape = Image.new("L", (int(box[2]) + margin + 2, int(box[3]) + margin + 2), 0)
    ImageDraw.Draw(shape).rounded_rectangle(box, radius, 1 if filled else None, 2 if outlined else None, width,
                                            corners=corners)
    return shape.im, shape.point([0] + [255] * 255).im


@dataclass(frozen=True)
class Layer:
    """A drawn part to paste into other canvases: its index image and the colours its indices stand for."""

    image: Image.Image
    colours: tuple[RGB, ...]
    blended: frozenset[int] = frozenset()  # the indices of its text blends (see Palette.table)

    @property
    def width(self) -> int:
        """The layer's width in pixels."""
        return self.image.width

    @property
    def height(self) -> int:
        """The layer's height in pixels."""
        return self.image.height


@dataclass(frozen=True)
class Base:
    """A table's fixed parts, drawn once: the index image and the palette drawn with; each table starts from copies
    of both (start), so nothing drawn on one table reaches the next."""

    image: Image.Image
    colours: Palette


def base(draw: Pen) -> Base:
    """What a pen has drawn, kept as the start of later tables (draw nothing more with that pen)."""
    return Base(draw.image, draw.colours)


def start(kept: Base) -> tuple[Image.Image, Pen]:
    """A new table from a base: a copy of its image and of its palette (and the palette's cached text tiles)."""
    image = kept.image.copy()
    return image, Pen(image, kept.colours.copy())


KEPT: list[_lru_cache_wrapper[Any]] = []  # the caches of drawn parts (layers, bases), for forget()
Part = TypeVar("Part")


def kept(maxsize: int | None = 32) -> Callable[[Callable[..., Part]], _lru_cache_wrapper[Part]]:
    """lru_cache for a function drawing a part (a Layer, a Base) from its arguments alone, listed for forget()."""

    def wrap(function: Callable[..., Part]) -> _lru_cache_wrapper[Part]:
        cached = lru_cache(maxsize=maxsize)(function)
        KEPT.append(cached)
        return cached

    return wrap


def forget() -> None:
    """Clear every cache of drawn parts: the next table is drawn afresh (tests compare it with the cached path)."""
    for cached in KEPT:
        cached.cache_clear()


def blend(back: RGB, ink: RGB, amount: float) -> RGB:
    """ink laid over back at a coverage of amount (0..1), rounded."""
    return (
        round(back[0] + (ink[0] - back[0]) * amount),
        round(back[1] + (ink[1] - back[1]) * amount),
        round(back[2] + (ink[2] - back[2]) * amount),
    )


def canvas(width: int, height: int, fill: RGB = BACKGROUND, colours: Palette | None = None,
           origin: tuple[int, int] = (0, 0)) -> tuple[Image.Image, Pen]:
    """A new index image filled with fill, and the pen that draws on it: with its own palette, or with colours
    (layers drawn with the palette of the canvas they go into are pasted as they are); with an origin, the part of
    a larger image from that corner on, drawn with its coordinates (see Pen)."""
    palette = Palette() if colours is None else colours
    image = Image.new("L", (width, height), palette.getcolor(fill))
    return image, Pen(image, palette, origin)


def stencil(width: int, height: int, origin: tuple[int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """An empty mask for a layer drawn with an origin (see canvas), and a plain ImageDraw on it that takes the same
    coordinates: draw a layer's shapes on it in 255 to paste the layer through them alone."""
    mask = Image.new("L", (width, height), 0)
    pen = ImageDraw.Draw(mask)
    pen.draw = cast("ImagingDraw", _Moved(pen.draw, origin))
    return mask, pen


def layer(draw: Pen) -> Layer:
    """What a pen has drawn, to paste elsewhere (see paste)."""
    return Layer(draw.image, tuple(draw.colours.rgb), frozenset(draw.colours.blended))


def paste(draw: Pen, part: Layer, xy: tuple[int, int], mask: Image.Image | None = None) -> None:
    """Paste a layer at xy (through a mask, as Image.paste), taking its colours into the pen's palette."""
    x, y = xy[0] - draw.origin[0], xy[1] - draw.origin[1]
    box = (x, y, x + part.width, y + part.height)
    lut = draw.colours.table(part.colours, part.blended)
    same = lut[: len(part.colours)] == SAME[: len(part.colours)]  # drawn with this palette
    _blit(draw, box, part.image.im if same else part.image.im.point(lut, None), None if mask is None else mask.im)


SAME = list(range(256))  # the lookup table that changes nothing


def _blit(draw: Pen, box: Box, tile: ImagingCore, mask: ImagingCore | None) -> None:
    """Copy tile's indices into the pen's image at box (the image's own coordinates), through mask if given.

    Text and layers go through Pillow's core image calls (crop, point, paste) rather than the Image methods
    wrapping them: the wrappers cost several microseconds each, and a table lays some 400 lines of text.
    """
    if mask is None:
        draw.im.paste(tile, box)
    else:
        draw.im.paste(tile, box, mask)


def finished(draw: Pen) -> Image.Image:
    """The pen's image as a palette ("P") image, its palette written in: ready to encode. Draw nothing after."""
    draw.image.putpalette(bytes(c for rgb in draw.colours.rgb for c in rgb))
    return draw.image


# --- Fonts and text ------------------------------------------------------------------------------------


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's bundled scalable font at a pixel size, with basic (deterministic) layout."""
    base = ImageFont.load_default(size=size)
    if not isinstance(base, ImageFont.FreeTypeFont):  # pragma: no cover - Pillow built without FreeType
        raise RuntimeError("Pillow needs FreeType support to render Keywood images")
    return base.font_variant(layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=16384)
def text_width(text: str, size: int, bold: bool = False) -> int:
    """The advance width of a line of text in pixels."""
    return int(font(size).getlength(text)) + (1 if bold else 0)


@lru_cache(maxsize=8192)
def _mask(line: str, size: int, bold: bool) -> Image.Image:
    """The antialiased coverage of a line of text, rendered once and reused; bold is two copies a pixel apart."""
    face = font(size)
    left, top, right, bottom = (int(v) for v in face.getbbox(line, anchor="la"))
    mask = Image.new("L", (max(1, right - left + (1 if bold else 0)), max(1, bottom - top)), 0)
    pen = ImageDraw.Draw(mask)
    pen.text((-left, -top), line, fill=255, font=face, anchor="la")
    if bold:
        shifted = Image.new("L", mask.size, 0)
        ImageDraw.Draw(shifted).text((1 - left, -top), line, fill=255, font=face, anchor="la")
        mask = ImageChops.lighter(mask, shifted)
    return mask


@lru_cache(maxsize=16384)
def _offset(line: str, size: int, anchor: str) -> tuple[int, int]:
    """Where a line's ink starts relative to its anchor point."""
    left, top, _, _ = font(size).getbbox(line, anchor=anchor)
    return int(left), int(top)


def text(
    draw: Pen,
    xy: tuple[float, float],
    line: str,
    size: int,
    fill: RGB = INK,
    *,
    bold: bool = False,
    anchor: str = "la",
) -> int:
    """Draw one line of text at xy with a Pillow anchor ('la', 'mm', 'rm', ...); returns its width.

    Bold is the same glyphs drawn twice a pixel apart. Rendered lines are cached, so repeated labels cost
    one paste.
    """
    if not line:
        return 0
    glyph = _glyph(line, size, bold, anchor)
    x = int(round(xy[0])) + glyph.dx - draw.origin[0]
    y = int(round(xy[1])) + glyph.dy - draw.origin[1]
    _lay(draw, (x, y, x + glyph.width, y + glyph.height), glyph, fill)
    return glyph.advance


def text_bounds(xy: tuple[float, float], line: str, size: int, *, bold: bool = False, anchor: str = "la") -> Box:
    """The box (left, top, right, bottom; right and bottom excluded) a line of text drawn at xy takes."""
    glyph = _glyph(line, size, bold, anchor)
    x, y = int(round(xy[0])) + glyph.dx, int(round(xy[1])) + glyph.dy
    return x, y, x + glyph.width, y + glyph.height


def clear_text(draw: Pen, xy: tuple[float, float], line: str, size: int, back: RGB, *, bold: bool = False,
               anchor: str = "la") -> None:
    """Paint back over every pixel a line of text drawn at xy inked: a kept part's text gone, as if never drawn,
    when back is the one colour that lay beneath it (the rest of its box is left as it is)."""
    glyph = _glyph(line, size, bold, anchor)
    x0, y0, x1, y1 = text_bounds(xy, line, size, bold=bold, anchor=anchor)
    ox, oy = draw.origin
    solid = Image.new("L", (glyph.width, glyph.height), draw.colours.getcolor(back))
    _blit(draw, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), solid.im, glyph.inked)


@dataclass(frozen=True, eq=False)
class Glyph:
    """A line of text ready to lay: its coverage in SHADES steps (each pixel's step, 0 to SHADES), where it has any
    ink, its size, where its ink starts from the anchor point, and its advance width. Cached, so compared by
    identity (a cheap key for Palette.tile)."""

    steps: ImagingCore
    inked: ImagingCore
    width: int
    height: int
    dx: int
    dy: int
    advance: int


@lru_cache(maxsize=16384)
def _glyph(line: str, size: int, bold: bool, anchor: str) -> Glyph:
    """A line's coverage rounded to the nearest step (see SHADES), placed for an anchor."""
    steps = _mask(line, size, bold).point([round(v * SHADES / 255) for v in range(256)])
    inked = steps.point([0] + [255] * 255)
    dx, dy = _offset(line, size, anchor)
    return Glyph(steps.im, inked.im, steps.width, steps.height, dx, dy, text_width(line, size, bold))


def _lay(draw: Pen, box: Box, glyph: Glyph, ink: RGB) -> None:
    """Lay a line's steps in box (the image's coordinates) over what lies beneath: ink blended with each colour
    under it, step by step."""
    under = draw.im.crop(box)
    low, high = under.getextrema()
    if low == high:  # one colour beneath: the common case
        _blit(draw, box, draw.colours.tile(glyph, low, ink), glyph.inked)
        return
    for index, count in enumerate(under.histogram()):
        if count:
            here = under.point(_only(index), None).chop_darker(glyph.inked)
            _blit(draw, box, glyph.steps.point(draw.colours.ramp(index, ink), None), here)


@lru_cache(maxsize=256)
def _only(index: int) -> list[int]:
    """A lookup table that keeps one value (as 255) and clears every other."""
    return [255 if i == index else 0 for i in range(256)]


def wrap(line: str, size: int, width: int, *, bold: bool = False) -> list[str]:
    """Break text into lines no wider than width, breaking only between words (a long word stays whole)."""
    lines: list[str] = []
    current = ""
    for word in line.split():
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size, bold) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def ellipsize(line: str, size: int, width: int, *, bold: bool = False) -> str:
    """Shorten a line with '...' until it fits width."""
    if text_width(line, size, bold) <= width:
        return line
    while line and text_width(line + "...", size, bold) > width:
        line = line[:-1]
    return line.rstrip() + "..."


@lru_cache(maxsize=4096)
def fit(line: str, width: int, height: int, max_size: int, min_size: int, bold: bool = False) -> tuple[int, list[str]]:
    """The largest size in [min_size, max_size] at which the text wraps into the box, and its lines.

    At min_size the text is cut to the lines that fit, the last one ellipsized.
    """
    for size in range(max_size, min_size - 1, -1):
        lines = wrap(line, size, width, bold=bold)
        if len(lines) * line_height(size) <= height and all(text_width(x, size, bold) <= width for x in lines):
            return size, lines
    lines = wrap(line, min_size, width, bold=bold)
    keep = max(1, height // line_height(min_size))
    cut = lines[:keep]
    last = " ".join(lines[keep - 1 :]) if len(lines) > keep else cut[-1]
    cut[-1] = ellipsize(last, min_size, width, bold=bold)
    return min_size, cut


def line_height(size: int) -> int:
    """The distance between baselines of wrapped lines."""
    return int(size * 1.12) + 1


def text_box(
    draw: Pen,
    box: tuple[int, int, int, int],
    line: str,
    max_size: int,
    min_size: int,
    fill: RGB = INK,
    *,
    bold: bool = False,
    align: str = "center",
    valign: str = "middle",
) -> int:
    """Draw text fitted into a box (x0, y0, x1, y1), centred or left-aligned; returns the size used."""
    x0, y0, x1, y1 = box
    size, lines = fit(line, x1 - x0, y1 - y0, max_size, min_size, bold)
    total = len(lines) * line_height(size)
    y = y0 + {"top": 0, "middle": (y1 - y0 - total) // 2, "bottom": y1 - y0 - total}[valign]
    for ln in lines:
        if align == "center":
            text(draw, ((x0 + x1) / 2, y), ln, size, fill, bold=bold, anchor="ma")
        else:
            text(draw, (x0, y), ln, size, fill, bold=bold, anchor="la")
        y += line_height(size)
    return size


def pill(
    draw: Pen,
    xy: tuple[float, float],
    label: str,
    size: int,
    fill: RGB,
    *,
    ink: RGB | None = None,
    outline: RGB | None = None,
    bold: bool = True,
    pad: int = 8,
    anchor: str = "l",
) -> int:
    """A rounded label; xy is its left (anchor 'l'), centre ('m') or right ('r') edge at mid-height.

    Returns the pill's width.
    """
    w = text_width(label, size, bold) + 2 * pad
    h = size + pad
    x, y = xy
    x0 = {"l": x, "m": x - w / 2, "r": x - w}[anchor]
    draw.rounded_rectangle((x0, y - h / 2, x0 + w, y + h / 2), radius=h // 2, fill=fill, outline=outline, width=2)
    text(draw, (x0 + w / 2, y), label, size, ink or ink_on(fill), bold=bold, anchor="mm")
    return w


def pill_width(label: str, size: int, *, bold: bool = True, pad: int = 8) -> int:
    """The width pill() would draw."""
    return text_width(label, size, bold) + 2 * pad


def colour_tag(draw: Pen, xy: tuple[float, float], colour: str, size: int = 13) -> int:
    """A keyple colour's swatch with its letter (B, O, G, Br, K, Gy, W); xy is the top-left corner."""
    fill = KEYPLE_FILL[colour]
    label = COLOUR_LETTER[colour]
    w = max(size + 8, text_width(label, size, True) + 8)
    h = size + 6
    x, y = xy
    draw.rounded_rectangle((x, y, x + w, y + h), radius=4, fill=fill, outline=INK, width=1)
    text(draw, (x + w / 2, y + h / 2), label, size, ink_on(fill), bold=True, anchor="mm")
    return w


def dashed_rectangle(
    draw: Pen, box: tuple[int, int, int, int], fill: RGB, width: int = 3, dash: int = 10
) -> None:
    """A rectangle outline drawn in dashes."""
    x0, y0, x1, y1 = box
    for x in range(x0, x1, dash * 2):
        draw.line((x, y0, min(x + dash, x1), y0), fill=fill, width=width)
        draw.line((x, y1, min(x + dash, x1), y1), fill=fill, width=width)
    for y in range(y0, y1, dash * 2):
        draw.line((x0, y, x0, min(y + dash, y1)), fill=fill, width=width)
        draw.line((x1, y, x1, min(y + dash, y1)), fill=fill, width=width)


def shape(
    draw: Pen, points: Sequence[tuple[float, float]], fill: RGB, edge: RGB, width: int = 2
) -> None:
    """A filled polygon with an outline; thick outlines are drawn as a closed line.

    (Pillow's own thick polygon outline allocates a mask the size of the whole image on every call.)
    """
    draw.polygon(list(points), fill=fill, outline=edge, width=1)
    if width > 1:
        draw.line([*points, points[0]], fill=edge, width=width, joint="curve")


def outline(draw: Pen, points: Sequence[tuple[float, float]], edge: RGB, width: int) -> None:
    """A polygon's outline width pixels thick inside its edge, as Pillow draws it, on a crop just round it.

    (Pillow masks the whole image for a thick polygon outline; on the crop the mask is the polygon's size.)
    """
    ox, oy = draw.origin
    left = max(ox, int(min(x for x, _ in points)) - 2)
    top = max(oy, int(min(y for _, y in points)) - 2)
    right = min(ox + draw.image.width, int(max(x for x, _ in points)) + 3)
    bottom = min(oy + draw.image.height, int(max(y for _, y in points)) + 3)
    if right <= left or bottom <= top:
        return
    part = draw.image.crop((left - ox, top - oy, right - ox, bottom - oy))
    Pen(part, draw.colours).polygon([(x - left, y - top) for x, y in points], outline=edge, width=width)
    draw.image.paste(part, (left - ox, top - oy))


# --- Pieces --------------------------------------------------------------------------------------------


def _meeple(cx: float, cy: float, h: float) -> tuple[list[tuple[float, float]], tuple[float, float, float]]:
    """An upright keyple's body polygon and head circle (centre x, centre y, radius), centred on (cx, cy)."""
    top = cy - h / 2
    r = h * 0.19
    head = (cx, top + r, r)
    w = h * 0.8
    neck = top + 2 * r - 1
    bottom = cy + h / 2
    body = [
        (cx - w * 0.2, neck),
        (cx + w * 0.2, neck),
        (cx + w * 0.5, neck + h * 0.14),
        (cx + w * 0.5, neck + h * 0.26),
        (cx + w * 0.32, neck + h * 0.3),
        (cx + w * 0.42, bottom),
        (cx - w * 0.42, bottom),
        (cx - w * 0.32, neck + h * 0.3),
        (cx - w * 0.5, neck + h * 0.26),
        (cx - w * 0.5, neck + h * 0.14),
    ]
    return body, head


def keyple(
    draw: Pen, cx: float, cy: float, h: float, colour: str, *, lying: bool = False, letter: bool = True
) -> None:
    """A keyple centred on (cx, cy), h pixels tall standing, with its colour letter; lying ones lie on their side."""
    fill = KEYPLE_FILL[colour]
    edge = INK
    body, (hx, hy, r) = _meeple(cx, cy, h)
    if lying:  # a quarter turn about the centre: the head points left
        body = [(cx + (y - cy), cy - (x - cx)) for x, y in body]
        hx, hy = cx + (hy - cy), cy - (hx - cx)
    shape(draw, body, fill, edge)
    draw.ellipse((hx - r, hy - r, hx + r, hy + r), fill=fill, outline=edge, width=2)
    if letter:
        label = COLOUR_LETTER[colour]
        size = max(10, int(h * (0.36 if len(label) == 1 else 0.32)))
        lx, ly = (cx + h * 0.14, cy) if lying else (cx, cy + h * 0.17)
        text(draw, (lx, ly), label, size, ink_on(fill), bold=True, anchor="mm")


def keyple_width(h: float, lying: bool) -> float:
    """The horizontal room a keyple of height h takes."""
    return h if lying else h * 0.8


def keyper(draw: Pen, cx: float, cy: float, h: float, seat: int, initial: str) -> None:
    """A player's keyper: a tall crowned piece in the player's colour with the player's initial."""
    fill = player_fill(seat)
    w = h * 0.62
    top = cy - h / 2
    crown = top + h * 0.28
    shape(
        draw,
        [
            (cx - w * 0.5, cy + h / 2),
            (cx - w * 0.34, crown),
            (cx - w * 0.5, top + h * 0.06),
            (cx - w * 0.2, top + h * 0.18),
            (cx, top),
            (cx + w * 0.2, top + h * 0.18),
            (cx + w * 0.5, top + h * 0.06),
            (cx + w * 0.34, crown),
            (cx + w * 0.5, cy + h / 2),
        ],
        fill,
        INK,
    )
    text(draw, (cx, cy + h * 0.12), initial, max(10, int(h * 0.34)), ink_on(fill), bold=True, anchor="mm")


def resource_icon(
    draw: Pen, cx: float, cy: float, r: float, resource: str, *, fill: RGB | None = None
) -> None:
    """A resource's icon: raw a cube, finished a striped block, wheat a sheaf, an animal a disc, a gem a diamond.

    fill overrides the resource's colour (white draws the printed tiles' "any of this kind" icon).
    """
    fill = fill or RESOURCE_FILL.get(resource, FAINT)
    edge = INK
    if resource in ("clay", "log", "rock"):
        draw.rounded_rectangle((cx - r, cy - r, cx + r, cy + r), radius=max(1, r / 4), fill=fill, outline=edge, width=1)
    elif resource in ("brick", "wood", "stone"):
        draw.rectangle((cx - r, cy - r * 0.75, cx + r, cy + r * 0.75), fill=fill, outline=edge, width=1)
        draw.line((cx - r, cy, cx + r, cy), fill=darker(fill), width=1)
    elif resource == "wheat":
        draw.ellipse((cx - r * 0.55, cy - r, cx + r * 0.55, cy + r), fill=fill, outline=edge, width=1)
        draw.line((cx, cy - r * 0.7, cx, cy + r * 0.9), fill=darker(fill), width=1)
    elif resource in ("emerald", "gold", "ruby", "sapphire"):
        draw.polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)], fill=fill, outline=edge, width=1)
    else:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=1)


# --- Output --------------------------------------------------------------------------------------------


PNG_LEVEL = 2  # zlib level: 1-3 take about as long here (2 about 1 ms less than 3 for 7% more bytes); 4+ twice as long
PNG_MEMORY = 5  # zlib memLevel: a smaller hash table than Pillow's (9) stays in the CPU's cache, a third faster
ISAL_LEVEL = 1  # ISA-L's level 1: a 4-player table deflated in about 2.3 ms where zlib takes 13, to the same size
PNG_BAND = 64  # rows encoded at a time (100 KiB or so: under glibc's first mmap threshold)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def to_png(image: Image.Image) -> bytes:
    """Encode as a PNG of at most 256 colours: a palette image as it is, any other quantised first."""
    indexed = image if image.mode == "P" else _quantised(image)
    palette = bytes(indexed.getpalette() or [])[: 256 * 3]
    if len(palette) // 3 <= 16 or "transparency" in indexed.info:  # Pillow packs such images 1-4 bits a pixel
        out = io.BytesIO()
        indexed.save(out, format="PNG", compress_level=PNG_LEVEL)
        return out.getvalue()
    return _palette_png(indexed, palette)


def _palette_png(image: Image.Image, palette: bytes) -> bytes:
    """An 8-bit palette PNG written here rather than by Pillow, whose zlib settings (memLevel 9) cannot be set:
    rows unfiltered, as Pillow writes palette images, deflated at PNG_LEVEL with memLevel PNG_MEMORY."""
    width, height = image.size
    deflate = _deflater()
    # Rows padded with one zero byte at their end: a zero before the first row makes that padding each next
    # row's filter byte (0, none), and the last row's padding is left off. A band of rows at a time, so that no
    # copy of the whole image is made (a large transient allocation makes the next table's memory fault anew).
    data = [deflate.compress(b"\0")]
    for top in range(0, height, PNG_BAND):
        rows = image.crop((0, top, width, min(height, top + PNG_BAND))).tobytes("raw", "P", width + 1)
        data.append(deflate.compress(memoryview(rows)[:-1] if top + PNG_BAND >= height else rows))
    data.append(deflate.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((PNG_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", palette), _chunk(b"IDAT", b"".join(data)),
                     _chunk(b"IEND", b"")))


def _deflater() -> Any:
    """A deflate stream for PNG data: Intel's ISA-L (the isal package, a dependency: five times quicker than the
    system's zlib here, and half of a table's time was zlib's), or the standard library's zlib where isal is not
    installed (a platform without its wheels). Both write the standard deflate format; only speed and size differ."""
    if isal_zlib is not None:
        return isal_zlib.compressobj(ISAL_LEVEL)
    return zlib.compressobj(PNG_LEVEL, zlib.DEFLATED, 15, PNG_MEMORY)


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _quantised(image: Image.Image) -> Image.Image:
    """An RGB image as 256 colours: the palette from every fourth pixel each way, each pixel its nearest colour."""
    sample = image.resize((max(1, image.width // 4), max(1, image.height // 4)), Image.Resampling.NEAREST)
    palette = sample.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def spread(count: int, start: float, end: float) -> Sequence[float]:
    """Centres of count equal slots between start and end."""
    step = (end - start) / max(1, count)
    return [start + step * (i + 0.5) for i in range(count)]


Badge = Callable[[Pen, tuple[float, float], int, RGB], None]


def scoreboard_png(scoreboard: Scoreboard, fill_of: Callable[[int], RGB], badge: Badge | None = None) -> bytes:
    """A scoreboard as PNG bytes: players best first, each in its seat's colour (fill_of) with an optional badge
    (badge(draw, top_left, seat, ink), e.g. a colour letter) before the name, its score lines and total."""
    width = 1000
    col = (width - 56 * 2) // 2
    row_heights = [72 + 30 * max(1, (len(p.lines) + 1) // 2) + 12 for p in scoreboard.players]
    tie_lines = wrap("Tie-break: " + scoreboard.tie_break, 20, width - 2 * 28) if scoreboard.tie_break else []
    height = 28 + 56 + sum(h + 14 for h in row_heights) + 30 * len(tie_lines) + 28
    image, draw = canvas(width, height)
    text(draw, (28, 28), "Final score" if scoreboard.final else "Score so far", 38, bold=True)
    y = 28 + 60
    for rank, (player, row_h) in enumerate(zip(scoreboard.players, row_heights, strict=True), start=1):
        fill = fill_of(player.seat)
        ink = ink_on(fill)
        draw.rounded_rectangle((28, y, width - 28, y + row_h), radius=12, fill=PANEL, outline=GRID, width=2)
        draw.rounded_rectangle((28, y, width - 28, y + 56), radius=12, fill=fill, corners=(True, True, False, False))
        text(draw, (48, y + 28), f"{rank}.", 30, ink, bold=True, anchor="lm")
        if badge is not None:
            badge(draw, (92, y + 12), player.seat, ink)
        name_x = 100 if badge is None else 144
        text(draw, (name_x, y + 28), ellipsize(player.name, 30, 500, bold=True), 30, ink, bold=True, anchor="lm")
        points = f"{player.total} point{'' if player.total == 1 else 's'}"
        text(draw, (width - 48, y + 28), points, 30, ink, bold=True, anchor="rm")
        for i, score in enumerate(player.lines):
            lx, ly = 56 + (i % 2) * col, y + 72 + 30 * (i // 2)
            text(draw, (lx, ly), ellipsize(score.label, 20, col - 80), 20, INK)
            text(draw, (lx + col - 24, ly), str(score.points), 20, INK, bold=True, anchor="ra")
        if not player.lines:
            text(draw, (56, y + 72), "no points yet", 20, MUTED)
        y += row_h + 14
    for line in tie_lines:
        text(draw, (28, y), line, 20, MUTED)
        y += 30
    return to_png(finished(draw))
