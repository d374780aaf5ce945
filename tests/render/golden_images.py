"""What the image tests of every game share: reading PNG bytes and comparing an image with its golden file."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from engine.core import PlayerScore, Scoreboard, ScoreLine
from render import draw as d

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


def half(data: bytes) -> bytes:
    """An image at half size (2x2 box average), re-encoded the way the renderer encodes: what a small golden stores."""
    return d.to_png(png(data).convert("RGB").reduce(2))


def compare_half_golden(name: str, data: bytes, tmp_path: Path) -> None:
    """Assert an image matches its golden PNG kept at half size."""
    compare_golden(name, data, tmp_path, stored=half(data))


def scoreboard_data(board: Scoreboard) -> dict[str, Any]:
    """A scoreboard as JSON-ready data (what a scoreboard golden's input file holds)."""
    return {"final": board.final, "tie_break": board.tie_break,
            "players": [{"seat": p.seat, "name": p.name, "lines": [[x.label, x.points] for x in p.lines]}
                        for p in board.players]}


def scoreboard_from(data: dict[str, Any]) -> Scoreboard:
    """Rebuild a scoreboard from scoreboard_data's output."""
    return Scoreboard(tuple(PlayerScore(p["seat"], p["name"], tuple(ScoreLine(a, b) for a, b in p["lines"]))
                            for p in data["players"]), data["final"], data["tie_break"])
