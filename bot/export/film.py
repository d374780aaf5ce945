"""A game's table images packed for the replay page, one step at a time, in bounded memory.

Every image is mapped exactly onto one palette shared by the game's images (its colours in the order first seen;
should an image bring more colours than the 256 fit, a new palette begins with a whole image). A step then
stores only the TILE squares that changed since the image before (looked for only where the renderer says it drew,
when it says so), grouped into rectangles; a rectangle whose pixels were stored before (a player's panel lit again,
a screen opened and closed) points at the stored copy, a new one goes into the current sheet, on the first shelf
(a band of rows) with room for it. A full sheet is encoded and handed to the caller at once, so only the image
shown, the open sheet and a small index of stored rectangles are kept, whatever the length of the game.

A frame is a dict: "n": [w, h] starts a new canvas of that size; "s": [w, h, top, source, target] resizes the
canvas (the top rows kept, the rest moved to the bottom edge, as the page's script does it); "r" is a flat list of
rectangles [x, y, w, h, sheet, sx, sy, ...] copied from a sheet at (sx, sy) to the canvas at (x, y).
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson
from PIL import Image, ImageChops

TILE = 16  # a change is stored as squares this many pixels wide
SHEET_WIDTH = 2048  # a sheet's shelves are this wide (or as wide as a wider rectangle)
SHEET_HEIGHT = 2048  # a sheet of new rectangles is encoded once its shelves reach this many rows
PNG_LEVEL = 6  # zlib level of the sheets: level 9 saves 7 % of their bytes for five times the time
RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
MASK = [0] + [255] * 255  # a difference of indices: any is a change
SAME = list(range(256))  # a palette table that changes nothing: the image already has the shared indices
CHANGED_RUN = re.compile(b"[^\\x00]+")


class PaletteFull(Exception):
    """The shared palette has no room left for an image's new colours."""


class Palette:
    """The colours of a game's images, each with one index of the shared palette, in the order first seen."""

    def __init__(self) -> None:
        self.colours: list[RGB] = []
        self._index: dict[RGB, int] = {}

    def table(self, image: Image.Image) -> list[int]:
        """The shared indices of a palette image's own indices, its new colours added; raises PaletteFull (adding
        none) when they do not all fit in 256."""
        own = image.getpalette() or []
        colours: list[RGB] = [(own[k], own[k + 1], own[k + 2]) for k in range(0, min(len(own), 768) - 2, 3)]
        new = {c for c in colours if c not in self._index}
        if len(self.colours) + len(new) > 256:
            raise PaletteFull(f"{len(new)} new colours, room for {256 - len(self.colours)}")
        for colour in sorted(new, key=colours.index):
            self._index[colour] = len(self.colours)
            self.colours.append(colour)
        return [self._index[c] for c in colours] + [0] * (256 - len(colours))

    def flat(self) -> list[int]:
        """The palette as Pillow's putpalette takes it."""
        return [c for rgb in self.colours for c in rgb]


def indexed(data: bytes | Image.Image, palette: Palette) -> Image.Image:
    """An image (encoded, or already one) as a palette image whose indices are the shared palette's (its own
    palette left as it was: only the indices count until a sheet is encoded); one of over 256 colours is
    quantised."""
    image: Image.Image = data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))
    if image.mode != "P":
        rgb = image.convert("RGB")
        image = rgb.quantize(256, dither=Image.Dither.NONE) if rgb.getcolors(256) is None else _exact(rgb)
    table = palette.table(image)
    used = len(image.getpalette() or []) // 3
    return image if table[:used] == SAME[:used] else image.point(table)


def _exact(rgb: Image.Image) -> Image.Image:
    """An RGB image of at most 256 colours as a palette image of exactly its colours (pixel by pixel, slow: the
    games' renderers draw palette images, only a stand-in draws RGB)."""
    raw = rgb.tobytes()
    index: dict[bytes, int] = {}
    for k in range(0, len(raw), 3):
        index.setdefault(raw[k:k + 3], len(index))
    image = Image.frombytes("P", rgb.size, bytes(index[raw[k:k + 3]] for k in range(0, len(raw), 3)))
    image.putpalette(b"".join(index))
    return image


@dataclass
class Film:
    """Packs a game's images one at a time: frames kept here, full sheets handed to `sheet` (which numbers them)."""

    sheet: Callable[[bytes], None]
    palette: Palette = field(default_factory=Palette)
    frames: list[bytes] = field(default_factory=list)  # each frame as JSON
    steps: list[int] = field(default_factory=list)
    sheets: int = 0
    _shown: Image.Image | None = None
    _stored: dict[bytes, tuple[int, int, int]] = field(default_factory=dict)  # pixels' digest -> (sheet, x, y)
    _open: list[tuple[Image.Image, int, int]] = field(default_factory=list)  # the open sheet's rectangles, at x, y
    _shelves: list[list[int]] = field(default_factory=list)  # the open sheet's shelves: [top, height, width used]
    _rows: int = 0  # the open sheet's height: the bottom of its last shelf

    def add(self, data: bytes | Image.Image, within: tuple[Box, ...] | None = None) -> None:
        """The next step's image (encoded, or a palette image): a new frame for what changed, or the frame before
        when nothing did. within: the boxes outside which it is known to equal the image before (None: unknown);
        then only the squares meeting them are mapped to the shared palette and compared."""
        image: Image.Image = data if isinstance(data, Image.Image) else Image.open(io.BytesIO(data))
        table = self._table_within(image) if within is not None else None
        frame = self._whole(image) if table is None or within is None else self._within(image, table, within)
        if frame is not None:
            self.frames.append(orjson.dumps(frame))
        self.steps.append(len(self.frames) - 1)

    def _whole(self, data: Image.Image) -> dict[str, Any] | None:
        """The frame of an image compared whole with the one shown, which it then becomes."""
        try:
            image = indexed(data, self.palette)
        except PaletteFull:  # a new palette from here on, and a whole image drawn with it
            self._new_palette()
            image = indexed(data, self.palette)
        frame = self._frame(image)
        self._shown = image.copy() if image is data else image  # later frames paste into it: the film's own copy
        return frame

    def _table_within(self, image: Image.Image) -> list[int] | None:
        """The shared indices of a palette image's own, when it can be compared box by box with the one shown
        (None: no image shown, another size, or new colours that do not fit)."""
        if self._shown is None or self._shown.size != image.size or image.mode != "P":
            return None
        try:
            return self.palette.table(image)
        except PaletteFull:
            return None

    def _within(self, image: Image.Image, table: list[int], within: tuple[Box, ...]) -> dict[str, Any] | None:
        """The frame of an image equal to the one shown outside the boxes: only the TILE squares meeting them are
        mapped, compared and copied into the image shown (None: nothing changed)."""
        shown = self._shown
        assert shown is not None
        used = len(image.getpalette() or []) // 3
        same = table[:used] == SAME[:used]
        flags = Image.new("L", (-(-image.width // TILE), -(-image.height // TILE)))
        for box in _square_boxes(within, image.size):
            piece = image.crop(box) if same else image.crop(box).point(table)
            found = _squares(shown.crop(box), piece)
            at = (box[0] // TILE, box[1] // TILE, box[0] // TILE + found.width, box[1] // TILE + found.height)
            flags.paste(ImageChops.lighter(flags.crop(at), found), at[:2])  # boxes may overlap: keep every flag
            shown.paste(piece, box[:2])
        boxes = _boxes(flags.tobytes(), image.size)
        return {"r": self._rectangles(shown, boxes)} if boxes else None

    def close(self) -> None:
        """Encode and hand over the open, partly filled sheet."""
        if self._open:
            self._flush()

    def _new_palette(self) -> None:
        """Close the sheet drawn with the palette so far and start again with an empty one."""
        self.close()
        self.palette, self._stored, self._shown = Palette(), {}, None

    def _frame(self, image: Image.Image) -> dict[str, Any] | None:
        """The frame that turns the image shown into this one (None: they are the same)."""
        shown = self._shown
        if shown is None or shown.width != image.width:
            return {"n": [image.width, image.height], "r": self._rectangles(image, [(0, 0, *image.size)])}
        frame: dict[str, Any] = {}
        forced: Box | None = None
        if shown.height != image.height:
            shift = _shift(shown, image)
            frame["s"] = [image.width, image.height, *shift]
            shown, forced = _shifted(shown, image.height, shift), _uncovered(image.size, shift)
        boxes = changed(shown, image, forced)
        if not boxes and not frame:
            return None
        frame["r"] = self._rectangles(image, boxes)
        return frame

    def _rectangles(self, image: Image.Image, boxes: list[Box]) -> list[int]:
        """The flat [x, y, w, h, sheet, sx, sy, ...] list of the boxes, each stored once in some sheet."""
        flat: list[int] = []
        for box in boxes:
            flat.extend((box[0], box[1], box[2] - box[0], box[3] - box[1], *self._store(image.crop(box))))
        return flat

    def _store(self, piece: Image.Image) -> tuple[int, int, int]:
        """Where a rectangle's pixels are kept: (sheet, x, y) of an earlier copy, or a new place in the open sheet."""
        digest = hashlib.blake2b(piece.tobytes(), digest_size=16, person=b"%dx%d" % piece.size).digest()
        place = self._stored.get(digest)
        if place is None:
            x, y = self._shelf(piece)
            place = (self.sheets, x, y)
            self._open.append((piece, x, y))
            self._stored[digest] = place
        return place

    def _shelf(self, piece: Image.Image) -> tuple[int, int]:
        """Where a new rectangle goes in the open sheet: on the first shelf as high as it (or at most twice as high)
        with room left, else on a new shelf at the bottom (in a new sheet once the open one is full)."""
        width = max(SHEET_WIDTH, piece.width)
        for shelf in self._shelves:
            top, height, used = shelf
            if piece.height <= height <= 2 * piece.height and used + piece.width <= width:
                shelf[2] += piece.width
                return used, top
        if self._rows + piece.height > SHEET_HEIGHT and self._open:
            self._flush()
        self._shelves.append([self._rows, piece.height, piece.width])
        self._rows += piece.height
        return 0, self._rows - piece.height

    def _flush(self) -> None:
        """Encode the open sheet, hand it over, and open the next."""
        width = max(x + p.width for p, x, _ in self._open)
        sheet = Image.new("P", (width, self._rows))
        for piece, x, y in self._open:
            sheet.paste(piece, (x, y))
        self.sheet(encode(sheet, self.palette))
        self.sheets += 1
        self._open, self._shelves, self._rows = [], [], 0


def encode(indices: Image.Image, palette: Palette) -> bytes:
    """A palette image of shared indices as an 8-bit PNG with the shared palette."""
    image = indices.copy()
    image.putpalette(palette.flat())
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=PNG_LEVEL, bits=8)
    return out.getvalue()


def changed(before: Image.Image, after: Image.Image, forced: Box | None = None) -> list[Box]:
    """The rectangles (left, top, right, bottom) of TILE squares where two same-sized index images differ by any
    pixel, or that overlap the forced box."""
    return _boxes(_squares(before, after, forced).tobytes(), after.size)


def _boxes(flags: bytes, size: tuple[int, int]) -> list[Box]:
    """The rectangles of the flagged TILE squares of an image of this size (one flag per square, row by row): each
    run of flagged squares in a row, grown downwards while the rows below have the same run."""
    width, height = size
    columns = -(-width // TILE)
    runs: dict[tuple[int, int], Box] = {}  # (first, last column) -> open rectangle
    boxes: list[Box] = []
    for row in range(len(flags) // columns):
        found = _runs(flags[row * columns:(row + 1) * columns])
        top, bottom = row * TILE, min(height, (row + 1) * TILE)
        for span in [s for s in runs if s not in found]:
            boxes.append(runs.pop(span))
        for first, last in found:
            opened = runs.get((first, last))
            runs[(first, last)] = (first * TILE, opened[1] if opened else top, min(width, (last + 1) * TILE), bottom)
    return boxes + list(runs.values())


def _squares(before: Image.Image, after: Image.Image, forced: Box | None = None) -> Image.Image:
    """One pixel per TILE square ("L"): non-zero where two same-sized index images differ (or it meets forced)."""
    difference = ImageChops.difference(before, after)
    if forced is not None:
        difference.paste(255, forced)
    flags = Image.new("L", (-(-after.width // TILE), -(-after.height // TILE)))
    box = difference.getbbox()
    if box is None:
        return flags
    top, bottom = box[1] // TILE, -(-box[3] // TILE)  # only the rows of squares that changed are looked at
    band = difference.crop((0, top * TILE, after.width, min(after.height, bottom * TILE)))
    flags.paste(band.point(MASK, "1").convert("L").reduce(TILE), (0, top))  # any difference in a square: non-zero
    return flags


def _square_boxes(within: tuple[Box, ...], size: tuple[int, int]) -> list[Box]:
    """Each box grown to the TILE squares it meets and cut to the image (empty ones left out)."""
    width, height = size
    found = []
    for left, top, right, bottom in within:
        box = (max(0, left - left % TILE), max(0, top - top % TILE), min(width, -(-right // TILE) * TILE),
               min(height, -(-bottom // TILE) * TILE))
        if box[0] < box[2] and box[1] < box[3]:
            found.append(box)
    return found


def _runs(flags: bytes) -> list[tuple[int, int]]:
    """(first, last) index of each run of non-zero values."""
    return [(run.start(), run.end() - 1) for run in CHANGED_RUN.finditer(flags)]


def _shift(before: Image.Image, after: Image.Image) -> tuple[int, int, int]:
    """How an image of another height is guessed from the one shown: (rows kept at the top, first row of the rest
    in the image shown, where that rest goes), the rest kept against the bottom edge."""
    height = min(before.height, after.height)
    box = ImageChops.difference(before.crop((0, 0, before.width, height)),
                                after.crop((0, 0, after.width, height))).getbbox()
    top = height if box is None else box[1] - box[1] % TILE
    grow = after.height - before.height
    source = max(0, top - grow)
    return top, source, source + grow


def _shifted(before: Image.Image, height: int, shift: tuple[int, int, int]) -> Image.Image:
    """The image shown, resized to a new height as the page does it: the top rows kept, the rest moved (what no
    row covers is left as index 0; _uncovered says where it is)."""
    top, source, target = shift
    guess = Image.new(before.mode, (before.width, height))
    guess.paste(before.crop((0, 0, before.width, min(top, height))), (0, 0))
    guess.paste(before.crop((0, source, before.width, before.height)), (0, target))
    return guess


def _uncovered(size: tuple[int, int], shift: tuple[int, int, int]) -> Box | None:
    """The rows a resize leaves blank (black on the page), which must be drawn whatever they hold; None: none."""
    top, _, target = shift
    width, height = size
    first, last = min(top, height), min(target, height)
    return (0, first, width, last) if last > first else None
