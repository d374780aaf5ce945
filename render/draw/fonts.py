"""Text: Pillow's bundled font (laid out with the basic engine, so glyph placement does not depend on whether libraqm
is installed), measured, laid on a palette canvas in coverage steps, wrapped, shortened and fitted into boxes."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.draw.canvas import SHADES, Box, Glyph, Pen, blit
from render.draw.colours import INK, RGB

if TYPE_CHECKING:
    pass


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
    blit(draw, (x0 - ox, y0 - oy, x1 - ox, y1 - oy), solid.im, glyph.inked)


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
        blit(draw, box, draw.colours.tile(glyph, low, ink), glyph.inked)
        return
    for index, count in enumerate(under.histogram()):
        if count:
            here = under.point(_only(index), None).chop_darker(glyph.inked)
            blit(draw, box, glyph.steps.point(draw.colours.ramp(index, ink), None), here)


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
