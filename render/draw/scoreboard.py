"""The scoreboard image every game shares: players best first, their score lines and totals."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import Scoreboard
from render.draw.canvas import Pen, canvas, finished
from render.draw.colours import GRID, INK, MUTED, PANEL, RGB, ink_on
from render.draw.fonts import ellipsize, text, wrap
from render.draw.png import to_png

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
