"""The Tokens table and scoreboard as PNG images: a few rectangles and lines of text, from the public view only."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from engine.core import Scoreboard

WIDTH, ROW, PAD = 480, 22, 10
BACKGROUND, PANEL, INK, ACCENT = (245, 240, 228), (225, 215, 195), (40, 40, 40), (180, 60, 40)


def _png(image: Image.Image) -> bytes:
    """The image as PNG bytes (no metadata, so equal pictures give equal bytes)."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _canvas(lines: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A blank image tall enough for a number of text rows."""
    image = Image.new("RGB", (WIDTH, 2 * PAD + ROW * lines), BACKGROUND)
    return image, ImageDraw.Draw(image)


def render(view: Mapping[str, Any]) -> bytes:
    """The public table as a PNG; raises ValueError for a seat's view (one with a hand or a viewer)."""
    if "hand" in view or "pick" in view or view.get("viewer") is not None:
        raise ValueError("the Tokens renderer draws the public view only, not a seat's hand")
    font = ImageFont.load_default()
    names = view["names"]
    image, draw = _canvas(3 + len(names) + len(view["revealed"]))
    y = PAD
    draw.text((PAD, y), f"Tokens - round {view['round']} of {view['rounds']} ({view['phase']})", fill=INK, font=font)
    y += ROW
    draw.text((PAD, y), f"Deck: {view['deck_size']} cards. {view['waiting_for']}", fill=INK, font=font)
    y += ROW
    for seat, name in enumerate(names):
        fill = ACCENT if seat in view["to_act"] else PANEL
        draw.rectangle((PAD, y + 2, PAD + 14, y + 16), fill=fill, outline=INK)
        picked = " (picked)" if view["picked"][seat] else ""
        text = f"{name}: {view['points'][seat]} points, {view['hand_sizes'][seat]} cards{picked}"
        draw.text((PAD + 24, y + 4), text, fill=INK, font=font)
        y += ROW
    draw.line((PAD, y + 4, WIDTH - PAD, y + 4), fill=INK)
    y += ROW // 2
    for number, picks in enumerate(view["revealed"], start=1):
        row = ", ".join(f"{n} {p}" for n, p in zip(names, picks, strict=True))
        draw.text((PAD, y + 4), f"Round {number}: {row}", fill=INK, font=font)
        y += ROW
    return _png(image)


def render_scoreboard(board: Scoreboard) -> bytes:
    """The scoreboard as a PNG: one bar and line per player, ranked, then the tie-break sentence."""
    font = ImageFont.load_default()
    image, draw = _canvas(2 + len(board.players))
    title = "Final score" if board.final else "Projected score"
    draw.text((PAD, PAD), title, fill=INK, font=font)
    y = PAD + ROW
    for rank, player in enumerate(board.players, start=1):
        width = max(0, min(WIDTH - 2 * PAD, 12 * player.total))
        draw.rectangle((PAD, y + 2, PAD + width, y + 16), fill=PANEL)
        draw.text((PAD + 4, y + 4), f"{rank}. {player.name}: {player.total}", fill=INK, font=font)
        y += ROW
    if board.tie_break:
        draw.text((PAD, y + 4), board.tie_break[:80], fill=INK, font=font)
    return _png(image)
