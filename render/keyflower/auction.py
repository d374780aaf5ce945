"""The Keyflower table's header and auction panel: season, phase, whom we wait for, the start player and the
supplies; the season's tiles up for auction and the turn-order tiles, each with every bid on its bidder's edge and
the workers using it; Key Celeste and where its ghost is."""

from __future__ import annotations

from engine.keyflower.components import COMPONENTS, RESOURCES
from engine.keyflower.pieces import KEY_CELESTE, order_number, usable
from engine.keyflower.places import MAX_WORKERS
from engine.keyflower.view import KfView, stacks_to_come
from render import draw as d
from render.keyflower.chips import (
    GHOST_CHIP_W,
    chip,
    chip_width,
    ghost_chip,
    ghost_icon,
    keyple_icon,
    outward,
    resource_chip,
    seat_disc,
    side_stack,
    stacked,
    worker_pill,
)
from render.keyflower.hexes import HexText, band_width, half_width, hex_text, hex_tile
from render.keyflower.look import AUCTION_R, CELL_H, CELL_W, INNER, PAD, PHASE_LABEL, SQRT3, WIDTH, Box
from render.keyflower.reading import (
    bids_at,
    celeste_face,
    celeste_in_winter,
    celeste_on_table,
    edge_of,
    effect_of,
    ghost_of,
    ghost_wins_for,
    leader,
    name_of,
    order_effect,
    size,
    title_of,
    uses_at,
)

CELESTE_LINE_H = 28  # the auction panel's line on Key Celeste and the ghost

# --- Header --------------------------------------------------------------------------------------------


def header_height(view: KfView) -> int:
    """The header: title line, the waiting sentence (up to two lines), the supplies line."""
    lines = d.wrap(_waiting(view), 20, INNER - 2 * PAD)
    return 16 + 36 + 8 + 26 * min(2, max(1, len(lines))) + 8 + 34 + 12


def _waiting(view: KfView) -> str:
    """The engine's 'waiting for ...' sentence, capitalised."""
    text = view["waiting_for"]
    return text[:1].upper() + text[1:]


def header(draw: d.Pen, view: KfView, box: Box) -> None:
    """Title, season and phase; the start player with the purple keyple; whom we wait for; the supplies."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    cy = y0 + 16 + 18
    x = x0 + PAD
    x += d.pill(draw, (x, cy), "KEYFLOWER", 20, (70, 40, 110), ink=(255, 255, 255), pad=10) + 10
    season = view["season"]
    fill = d.SEASON_FILL.get(season, d.FAINT)
    x += d.pill(draw, (x, cy), season.capitalize(), 20, fill, pad=10) + 14
    phase = view["phase"]
    d.text(draw, (x, cy), PHASE_LABEL.get(phase, phase), 20, bold=True, anchor="lm")
    start = view["start_player"]
    name = d.ellipsize(name_of(view, start), 20, 260, bold=True)
    nx = x1 - PAD - d.text_width(name, 20, True)
    d.text(draw, (nx, cy), name, 20, bold=True, anchor="lm")
    seat_disc(draw, nx - 18, cy, start, 12)
    keyple_icon(draw, nx - 48, cy, 32, "purple")
    d.text(draw, (nx - 68, cy), "Start player", 18, d.MUTED, anchor="rm")
    y = y0 + 16 + 36 + 8
    lines = d.wrap(_waiting(view), 20, INNER - 2 * PAD)
    if len(lines) > 2:
        lines = [lines[0], d.ellipsize(" ".join(lines[1:]), 20, INNER - 2 * PAD)]
    for line in lines or [""]:
        d.text(draw, (x0 + PAD, y), line, 20)
        y += 26
    _supplies(draw, view, x0 + PAD, y + 8 + 17)


def _supplies(draw: d.Pen, view: KfView, x: float, cy: float) -> None:
    """The bag's size, the green supply, the skill pile, the resource supply and the stacks still to come."""
    x += d.text(draw, (x, cy), "Bag", 17, d.MUTED, anchor="lm") + 6
    x += d.text(draw, (x, cy), f"{view['bag']} workers", 18, bold=True, anchor="lm") + 22
    x += d.text(draw, (x, cy), "Green supply", 17, d.MUTED, anchor="lm") + 6
    x += worker_pill(draw, x, cy, "green", view["greens"], size=16) + 22
    x += d.text(draw, (x, cy), "Skill pile", 17, d.MUTED, anchor="lm") + 6
    x += d.text(draw, (x, cy), str(view["skill_pile"]), 18, bold=True, anchor="lm") + 22
    x += d.text(draw, (x, cy), "Resources", 17, d.MUTED, anchor="lm") + 6
    supply = view["supply"]
    for kind in RESOURCES:
        x += resource_chip(draw, x, cy, kind, supply.get(kind, 0), size=16) + 4
        x += d.text(draw, (x, cy), kind, 15, d.MUTED, anchor="lm") + 10
    shown = [f"{season} {n}" for season, n in stacks_to_come(view)]
    if shown:
        x += 12
        d.text(draw, (x, cy), "Tiles stacked: " + ", ".join(shown), 17, d.MUTED, anchor="lm")


# --- Auction and turn-order tiles --------------------------------------------------------------------------


def locations(view: KfView) -> list[str]:
    """The locations with bids shown in the auction panel: the season's tiles, then the turn-order tiles (while
    they are bid for and until boats have been picked), then Key Celeste beside the highest of them (module)."""
    orders = [f"order-{n}" for n in view["order_tiles"]] if view["phase"] in ("turns", "boats") else []
    celeste = [KEY_CELESTE] if orders and celeste_on_table(view) else []
    return list(view["auction"]) + orders + celeste


def _cells_per_row() -> int:
    """Auction cells side by side."""
    return (INNER - 2 * PAD) // CELL_W


def auction_height(view: KfView) -> int:
    """The auction panel: title, a note, (with Key Celeste) the ghost's line, rows of cells; 0 when nothing is up."""
    locs = locations(view)
    if not locs:
        return 90 if view["phase"] == "winter-choice" else 0
    rows = -(-len(locs) // _cells_per_row())
    return 44 + (CELESTE_LINE_H if KEY_CELESTE in locs else 0) + rows * CELL_H + 8


def auction(draw: d.Pen, view: KfView, box: Box) -> None:
    """The season's tiles up for auction and the turn-order tiles, each with its bids on the bidders' edges and
    the workers using it; Key Celeste and where its ghost is."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    season = view["season"]
    tiles = view["auction"]
    players = len(view["names"])
    if view["phase"] == "winter-choice" and not tiles:
        d.text(draw, (x0 + PAD, y0 + 22), "WINTER TILES", 20, bold=True, anchor="lm")
        choosing = [name_of(view, s) for s in view["to_act"]]
        note = "Each player secretly picks at least one winter tile from their hand to put up for auction"
        note += f"; still choosing: {', '.join(choosing)}." if choosing else "."
        d.text_box(draw, (x0 + PAD, y0 + 40, x1 - PAD, y1 - 8), note, 18, 15, align="left", valign="top")
        return
    title = f"UP FOR AUCTION: {season.upper()} TILES ({len(tiles)})" if tiles else "TURN-ORDER TILES"
    tw = d.text(draw, (x0 + PAD, y0 + 22), title, 20, bold=True, anchor="lm")
    note = ("a bid sits on its bidder's edge: disc = player number (edges in the legend); the leading bid is "
            "framed; workers on a tile are its uses")
    d.text(draw, (x0 + PAD + tw + 16, y0 + 22), d.ellipsize(note, 15, x1 - x0 - 2 * PAD - tw - 16), 15, d.MUTED,
           anchor="lm")
    per_row = _cells_per_row()
    locs = locations(view)
    top = y0 + 44
    if KEY_CELESTE in locs:
        _celeste_line(draw, view, x0 + PAD, top + CELESTE_LINE_H / 2 - 4, x1 - PAD)
        top += CELESTE_LINE_H
    for i, loc in enumerate(locs):
        row, col = divmod(i, per_row)
        in_row = min(per_row, len(locs) - row * per_row)
        left = x0 + (x1 - x0 - in_row * CELL_W) // 2
        cx = left + col * CELL_W + CELL_W / 2
        cy = top + row * CELL_H + CELL_H / 2
        _auction_cell(draw, view, loc, cx, cy, players, (x0 + 6, x1 - 6))


def _celeste_line(draw: d.Pen, view: KfView, x: float, cy: float, right: float) -> None:
    """Key Celeste's line: what its face gives, and where the ghost is (who holds it is public, F-38)."""
    tile = COMPONENTS.key_celeste
    x += d.text(draw, (x, cy), "Key Celeste", 17, bold=True, anchor="lm") + 8
    if celeste_in_winter(view):
        what = (f"winter face: its winner takes the tile into their village ({tile.points} pts, {tile.ghost_points} "
                "more with the ghost).")
    else:
        what = "spring-autumn face: its winner takes the ghost (not the tile)."
    x += d.text(draw, (x, cy), what, 16, anchor="lm") + 14
    ghost = ghost_of(view)
    if ghost is None:
        return
    ghost_icon(draw, x + 10, cy, 26)
    x += 26
    segments: list[str | tuple[int | None, str]] = []  # words, or a seat's disc and name with what follows it
    if ghost.gone:
        segments = ["Ghost: gone (played in winter)."]
    elif ghost.played is not None:
        wins = ghost_wins_for(view, ghost.played)
        segments = ["Ghost: played by", (ghost.holder, ""), f"on {title_of(ghost.played)}; the ghost wins it for"]
        segments.append((wins, ".") if wins is not None else "the bid it replaced.")
    elif ghost.holder is not None:
        segments = ["Ghost:", (ghost.holder, ""), "holds it (public) and may play it in place of another player's "
                    "winning bid."]
    else:
        segments = ["Ghost: on Key Celeste."]
    for seg in segments:
        if isinstance(seg, tuple):
            seat, after = seg
            if seat is not None:
                seat_disc(draw, x + 11, cy, seat)
                x += 26
            name = d.ellipsize(name_of(view, seat), 16, 160, bold=True) + after
            x += d.text(draw, (x, cy), name, 16, bold=True, anchor="lm") + 5
        elif (room := int(right - x)) > 20:
            x += d.text(draw, (x, cy), d.ellipsize(seg, 16, room), 16, anchor="lm") + 5


def _auction_cell(draw: d.Pen, view: KfView, loc: str, cx: float, cy: float, players: int,
                  span: tuple[float, float]) -> None:
    """One location: its hex with title, effect and uses, and a chip outside each bidder's edge (kept within the
    panel's span); a played ghost in the place of the bid it replaced."""
    r = AUCTION_R
    number = order_number(loc)
    uses = uses_at(view, loc)
    start_icon = False
    ghost = ghost_of(view)
    played_here = ghost is not None and ghost.played == loc
    wins_for = ghost_wins_for(view, loc)
    if number is not None:
        effect, start_icon = order_effect(number, players)
    elif loc == KEY_CELESTE:
        effect = ""  # its face is drawn below, in lines of its own
    else:
        effect = effect_of(loc, False)
    footer = "start player" if start_icon else ""
    if uses and usable(loc):
        placed = sum(size(u[1]) for u in uses)
        need = size(uses[-1][1]) + 1
        footer = f"next use {need}+" if placed + need <= MAX_WORKERS else f"full ({MAX_WORKERS})"
    if played_here:
        footer = "ghost wins"
    hex_tile(draw, cx, cy, r, loc, False, title_of(loc))
    hex_text(draw, cx, cy, r, HexText(effect, uses=uses, footer=footer, start_icon=start_icon))
    if loc == KEY_CELESTE:
        _celeste_cell(draw, view, cx, cy, r)
    elif played_here and wins_for is None:  # the seat it wins for is not in the view: the ghost at the east corner
        ghost_icon(draw, cx + r + 4, cy, 30)
    bids = bids_at(view, loc)
    lead = None if played_here else leader(bids)
    for seat, parts, flat in bids:
        edge = edge_of(seat, players)
        if edge not in (0, 3) and stacked(parts):
            side_stack(draw, cx, cy, r, edge, (seat, parts, flat), seat == lead, span)
            continue
        bx, by = _bid_centre(cx, cy, r, edge, chip_width(parts), span)
        chip(draw, bx, by, seat, parts, flat, lead=seat == lead)
    if wins_for is not None:
        bx, by = _bid_centre(cx, cy, r, edge_of(wins_for, players), GHOST_CHIP_W, span)
        ghost_chip(draw, bx, by, wins_for)


def _celeste_cell(draw: d.Pen, view: KfView, cx: float, cy: float, r: float) -> None:
    """Key Celeste's face in two lines across the hex's middle, and the ghost at its east corner: standing on the
    tile, or with the number disc of the player holding it."""
    band = band_width(r)
    for line, mid in zip(celeste_face(view), (cy - 5, cy + 11), strict=True):
        worst = abs(mid - cy) + 7
        room = int(2 * half_width(r, worst) - 2 * band - 4)
        size_ = next((k for k in (14, 13) if d.text_width(line, k) <= room), 12)
        d.text(draw, (cx, mid), line, size_, (64, 60, 54), anchor="mm")
    ghost = ghost_of(view)
    if ghost is not None and ghost.on_tile:
        ghost_icon(draw, cx + r + 2, cy, 32)
    elif ghost is not None and ghost.held is not None:
        ghost_icon(draw, cx + r + 2, cy, 32)
        seat_disc(draw, cx + r + 26, cy + 6, ghost.held)


def _bid_centre(cx: float, cy: float, r: float, edge: int, width: int,
                span: tuple[float, float] = (0, WIDTH)) -> tuple[float, float]:
    """Where a bid chip of this width sits: just outside its edge, clear of the hex, and inside span (a wide group
    with Sven or Paulo at the panel's side)."""
    ux, uy = outward(edge)
    apothem = r * SQRT3 / 2
    if edge in (0, 3):
        return cx, cy + uy * (apothem + 19)
    side = 1 if ux > 0 else -1
    x = cx + ux * (apothem + 6) + side * (width / 2 + 4)
    return min(max(x, span[0] + width / 2 + 4), span[1] - width / 2 - 4), cy + uy * (apothem + 6)
