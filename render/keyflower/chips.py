"""The Keyflower table's small pieces: players' numbered discs, keyple pills (Sven and Paulo split in their pair's
colours), resource chips, bid chips, the purple keyple and Key Celeste's ghost."""

from __future__ import annotations

import math

from engine.keyflower import keyples as kp
from render import draw as d
from render.keyflower.look import (
    GHOST_FILL,
    KEYPLE_FILL,
    KEYPLE_LETTER,
    RESOURCE_FILL,
    RESOURCE_LETTER,
    RGB,
    SEAT_FILL,
    SQRT3,
    WILD_LETTER,
)
from render.keyflower.reading import Bidding, Parts


def outward(edge: int) -> tuple[float, float]:
    """The unit vector from a hex's centre through the middle of an edge."""
    angle = math.radians(270 + 60 * edge)
    return math.cos(angle), math.sin(angle)


def seat_disc(draw: d.Pen, cx: float, cy: float, seat: int, r: int = 11) -> None:
    """A player's numbered disc (seat 0 is player 1): players are told apart by number, never by colour."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SEAT_FILL, outline=(255, 255, 255), width=1)
    d.text(draw, (cx, cy), str(seat + 1), max(14, int(r * 1.25)), (255, 255, 255), bold=True, anchor="mm")


def pill_look(kind: str, count: int | None) -> tuple[tuple[RGB, ...], str]:
    """A keyple pill's fill (two colours for Sven and Paulo, or a label like 'blue/yellow') and its label: '3R';
    'S' for Sven, 'P' for Paulo (a count only above one); '2B/Y' for a two-colour label."""
    if kind in kp.WILD:
        pair = kp.WILD[kind]
        many = count is not None and count > 1
        return (KEYPLE_FILL[pair[0]], KEYPLE_FILL[pair[1]]), f"{count if many else ''}{WILD_LETTER.get(kind, '?')}"
    colours = kind.split("/")
    number = "" if count is None else str(count)
    if len(colours) == 2 and all(c in kp.COLOURS for c in colours):
        return (KEYPLE_FILL[colours[0]], KEYPLE_FILL[colours[1]]), number + "/".join(KEYPLE_LETTER[c] for c in colours)
    return (KEYPLE_FILL.get(kind, d.FAINT),), number + KEYPLE_LETTER.get(kind, kind[:1].upper() or "?")


SPLIT_CAP = 10  # each colour's end of a two-colour pill, beside the white middle with the letter


def worker_pill(draw: d.Pen, x: float, cy: float, colour: str, count: int | None,
                 flat: bool = False, size: int = 15) -> int:
    """Keyples of one kind: a round-ended pill in their colour with count and letter ('3R'); flat ones (summer
    boats 4a, 4b) are pale with a lower-case letter. Sven and Paulo are split in their two colours (blue|yellow,
    green|red) with the letter on a white middle ('S', 'P'). x is the left edge; returns the width."""
    fills, label = pill_look(colour, count)
    if flat:
        fills, label = tuple(d.lighter(f, 0.6) for f in fills), label.lower()
    h = size + 6
    tw = d.text_width(label, size, True)
    if len(fills) == 1:
        w = tw + 10
        draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=h // 2, fill=fills[0], outline=d.INK,
                               width=1)
        d.text(draw, (x + w / 2, cy), label, size, d.ink_on(fills[0]), bold=True, anchor="mm")
        return w
    w = tw + 8 + 2 * SPLIT_CAP
    mid = x + w / 2
    box = (x, cy - h / 2, x + w, cy + h / 2)
    draw.rounded_rectangle(box, radius=h // 2, fill=fills[0])
    draw.rectangle((mid, box[1], x + w - h / 2, box[3]), fill=fills[1])
    draw.pieslice((x + w - h, box[1], x + w, box[3]), -90, 90, fill=fills[1])
    draw.rounded_rectangle((x + SPLIT_CAP, cy - h / 2 + 2, x + w - SPLIT_CAP, cy + h / 2 - 2), radius=(h - 4) // 2,
                           fill=(255, 255, 255))
    draw.rounded_rectangle(box, radius=h // 2, outline=d.INK, width=1)
    d.text(draw, (mid, cy), label, size, d.INK, bold=True, anchor="mm")
    return w


def worker_pill_width(colour: str, count: int | None, size: int = 15) -> int:
    """The width worker_pill draws."""
    fills, label = pill_look(colour, count)
    return d.text_width(label, size, True) + (10 if len(fills) == 1 else 8 + 2 * SPLIT_CAP)


def group_pills(draw: d.Pen, x: float, cy: float, parts: Parts, flat: bool, gap: int = 3) -> int:
    """A group's pills, one a kind, from x; returns the width."""
    start = x
    for kind, n in parts:
        x += worker_pill(draw, x, cy, kind, n, flat) + gap
    return int(x - start - gap) if parts else 0


def group_width(parts: Parts, gap: int = 3) -> int:
    """The width group_pills draws."""
    return sum(worker_pill_width(k, n) for k, n in parts) + gap * max(0, len(parts) - 1)


def resource_chip(draw: d.Pen, x: float, cy: float, kind: str, count: int, stored: bool = False,
                   size: int = 15) -> int:
    """Resource counters of one kind: a square-cornered chip in their colour with count and letter ('2G'); framed
    thick when moved onto a storage tile in play. x is the left edge; returns the width."""
    fill = RESOURCE_FILL.get(kind, d.FAINT)
    label = f"{count}{RESOURCE_LETTER.get(kind, kind[:1].upper())}"
    w = d.text_width(label, size, True) + 10
    h = size + 6
    if stored:
        draw.rounded_rectangle((x - 3, cy - h / 2 - 3, x + w + 3, cy + h / 2 + 3), radius=5, fill=(255, 255, 255),
                               outline=d.INK, width=2)
    draw.rounded_rectangle((x, cy - h / 2, x + w, cy + h / 2), radius=3, fill=fill, outline=d.INK, width=1)
    d.text(draw, (x + w / 2, cy), label, size, d.ink_on(fill), bold=True, anchor="mm")
    return w


def resource_chip_width(kind: str, count: int, size: int = 15, stored: bool = False) -> int:
    """The width resource_chip draws (a stored chip's frame takes 3 pixels each side)."""
    return d.text_width(f"{count}{RESOURCE_LETTER.get(kind, kind[:1].upper())}", size, True) + 10 + (6 if stored
                                                                                                       else 0)


def keyple_icon(draw: d.Pen, cx: float, cy: float, h: float, colour: str) -> None:
    """A standing keyple (the purple start-player keyple) with its letter."""
    fill = KEYPLE_FILL.get(colour, d.FAINT)
    r = h * 0.19
    top = cy - h / 2
    w = h * 0.8
    neck = top + 2 * r - 1
    bottom = cy + h / 2
    body = [(cx - w * 0.2, neck), (cx + w * 0.2, neck), (cx + w * 0.5, neck + h * 0.14),
            (cx + w * 0.5, neck + h * 0.26), (cx + w * 0.32, neck + h * 0.3), (cx + w * 0.42, bottom),
            (cx - w * 0.42, bottom), (cx - w * 0.32, neck + h * 0.3), (cx - w * 0.5, neck + h * 0.26),
            (cx - w * 0.5, neck + h * 0.14)]
    d.shape(draw, body, fill, d.INK)
    draw.ellipse((cx - r, top, cx + r, top + 2 * r), fill=fill, outline=d.INK, width=2)
    d.text(draw, (cx, cy + h * 0.17), KEYPLE_LETTER.get(colour, "?"), max(14, int(h * 0.36)), d.ink_on(fill),
           bold=True, anchor="mm")


def ghost_icon(draw: d.Pen, cx: float, cy: float, h: float) -> None:
    """Key Celeste's ghost: a pale figure with a round head, a wavy hem and two eyes."""
    w = h * 0.74
    r = w / 2
    top = cy - h / 2 + r
    bottom = cy + h / 2
    points = [(cx + r * math.cos(math.radians(a)), top + r * math.sin(math.radians(a))) for a in range(180, 361, 20)]
    waves = 3
    for k in range(2 * waves + 1):  # the hem, right to left
        points.append((cx + r - w * k / (2 * waves), bottom - (h * 0.13 if k % 2 else 0)))
    d.shape(draw, points, GHOST_FILL, d.INK, 2)
    eye = max(2.0, h * 0.07)
    for ex in (cx - r * 0.38, cx + r * 0.38):
        draw.ellipse((ex - eye, top - eye * 1.5, ex + eye, top + eye * 1.5), fill=d.INK)


def ghost_chip(draw: d.Pen, cx: float, cy: float, seat: int) -> None:
    """The ghost played beside a tile, in the place of the bid it replaced: framed like a winning bid, the ghost
    and the number disc of the player it wins the tile for."""
    w = GHOST_CHIP_W
    x0 = cx - w / 2
    draw.rounded_rectangle((x0 - 4, cy - 17, x0 + w + 4, cy + 17), radius=8, fill=(255, 255, 255), outline=d.INK,
                           width=3)
    ghost_icon(draw, x0 + 11, cy, 28)
    seat_disc(draw, x0 + w - 11, cy, seat)


GHOST_CHIP_W = 50


SIDE_ROOM = 62  # the widest bid chip that stays in one row beside a slanted edge (wider groups take two rows)


def stacked(parts: Parts) -> bool:
    """Whether a chip beside a slanted edge takes two rows: the disc and the first pill, then the other pills."""
    return len(parts) > 1 and 24 + group_width(parts) > SIDE_ROOM


def chip(draw: d.Pen, cx: float, cy: float, seat: int, parts: Parts, flat: bool,
          lead: bool = False) -> None:
    """A seat's bid or use, centred on (cx, cy): the player's disc and the keyples, a pill for each kind; a
    leading bid is framed."""
    w = chip_width(parts)
    x0 = cx - w / 2
    if lead:
        draw.rounded_rectangle((x0 - 4, cy - 15, x0 + w + 4, cy + 15), radius=8, fill=(255, 255, 255),
                               outline=d.INK, width=3)
    seat_disc(draw, x0 + 11, cy, seat)
    group_pills(draw, x0 + 24, cy, parts, flat)


def chip_width(parts: Parts) -> int:
    """The width of a bid or use chip."""
    return 24 + group_width(parts)


def side_stack(draw: d.Pen, cx: float, cy: float, r: float, edge: int, bid: Bidding, lead: bool,
                span: tuple[float, float]) -> None:
    """A wide group's bid (Sven or Paulo with his pair) for a slanted edge: in two rows (the disc and the first
    pill, then the other pills) in the cell's corner beyond that edge, above or below the hex beside the N or S
    chip, so that it keeps within its cell; a leading bid is framed."""
    seat, parts, flat = bid
    ux, uy = outward(edge)
    widths = (24 + group_width(parts[:1]), group_width(parts[1:]))
    w = max(widths)
    apothem = r * SQRT3 / 2
    near = apothem - 3  # the row beside the hex's corner, then the one beyond it
    rows = (cy - near - 23, cy - near) if uy < 0 else (cy + near, cy + near + 23)
    x0 = cx + 40 if ux > 0 else cx - 40 - w
    x0 = min(max(x0, span[0] + 4), span[1] - 4 - w)
    if lead:
        draw.rounded_rectangle((x0 - 4, rows[0] - 14, x0 + w + 4, rows[1] + 14), radius=8, fill=(255, 255, 255),
                               outline=d.INK, width=3)
    seat_disc(draw, x0 + 11, rows[0], seat)
    group_pills(draw, x0 + 24, rows[0], parts[:1], flat)
    group_pills(draw, x0, rows[1], parts[1:], flat)


def pill(draw: d.Pen, x: float, cy: float, label: str, fill: RGB, ink: RGB, size: int = 14) -> int:
    """A small badge; x is its left edge; returns the width."""
    return d.pill(draw, (x, cy), label, size, fill, ink=ink, outline=d.INK, pad=6)


# --- Hexes ---------------------------------------------------------------------------------------------
