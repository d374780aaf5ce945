"""Palette canvases: every image is drawn as palette indices, one byte a pixel (an "L" image whose values are indices
until finished() writes the palette in): a quarter of the bytes of RGB to fill, no colour quantisation at the end, and
flat fills keep their exact colours. Anti-aliased text is laid in SHADES coverage steps, each step an exact blend of
the ink and the colour beneath it. Parts drawn once are kept as Layers (and a table's fixed parts as a Base) and
pasted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import _lru_cache_wrapper, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

from PIL import Image, ImageDraw, ImagePalette

from render.draw.colours import BACKGROUND, RGB

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore, ImagingDraw

Box = tuple[int, int, int, int]

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
        blit(self, (left, top, left + tile.size[0], top + tile.size[1]), tile.point(colours, None), mask)


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
    blit(draw, box, part.image.im if same else part.image.im.point(lut, None), None if mask is None else mask.im)


SAME = list(range(256))  # the lookup table that changes nothing


def blit(draw: Pen, box: Box, tile: ImagingCore, mask: ImagingCore | None) -> None:
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
