"""What the image tests of every game share: reading PNG bytes and comparing an image with its golden file."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_TOLERANCE = 0.5  # mean absolute difference per channel, 0..255


def png(data: bytes) -> Image.Image:
    """Open PNG bytes, checking they are a PNG."""
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


def compare_golden(name: str, data: bytes, tmp_path: Path, stored: bytes | None = None) -> None:
    """Assert an image matches its golden PNG within the tolerance; keep the actual image for a look on failure.

    stored is the form the golden keeps (e.g. the image at half size), the image itself when None."""
    expected = Image.open(GOLDEN / f"{name}.png").convert("RGB")
    actual = png(data if stored is None else stored).convert("RGB")
    if actual.size != expected.size:
        (tmp_path / f"{name}.png").write_bytes(data)
        pytest.fail(f"{name}: size {actual.size} != golden {expected.size}; actual image in {tmp_path}")
    diff = sum(ImageStat.Stat(ImageChops.difference(actual, expected)).mean) / 3
    if diff >= GOLDEN_TOLERANCE:
        (tmp_path / f"{name}.png").write_bytes(data)
    assert diff < GOLDEN_TOLERANCE, f"{name}: mean pixel difference {diff:.3f}; actual image in {tmp_path}"
