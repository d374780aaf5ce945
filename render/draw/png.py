"""PNG encoding of a finished palette image (or a quantised RGB one)."""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any

from PIL import Image

try:
    from isal import isal_zlib
except ImportError:  # pragma: no cover - a platform without isal's wheels: the standard library's zlib
    isal_zlib = None  # type: ignore[assignment]  # checked before each use


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
