"""The Keythedral table's header (round, phase, whom we wait for, start player, what is under way), its players'
table (one row per player: status, what stands behind the screen when the view shows it, law cards, fences,
houses) and its legend."""

from __future__ import annotations

from collections.abc import Sequence

from engine.keythedral.board import COLOURS
from engine.keythedral.components import CUBE_ORDER, TERRAINS
from engine.keythedral.view import KView, PlayerView, TileView
from render import draw as d
from render.keythedral.lattice import field_tile
from render.keythedral.parts import (
    CUBE_NAME,
    INNER,
    KEYTHEDRAL_FILL,
    RGB,
    Box,
    cottage_piece,
    cube,
    fence_piece,
    keythedral_piece,
    player_fill,
    player_letter,
    seat_colour,
    tag,
    worker_piece,
)

PHASE_LABEL = {
    "setup": "Set-up: lay fields and cottages",
    "workers": "Phase 1: place workers",
    "harvest": "Phase 2: collect cubes",
    "actions": "Phase 3: spend cubes",
    "bidding": "Phase 5: start player",
    "over": "Game over",
}

# --- Header --------------------------------------------------------------------------------------------


def _header_lines(view: KView) -> list[tuple[str, str]]:
    """The header's extra lines as (title, text): what is pending, effects in force, variations."""
    lines: list[tuple[str, str]] = []
    pending = view["pending"]
    if pending:
        lines.append(("In progress:", pending))
    effects = view["effects"]
    if effects:
        lines.append(("In force:", "; ".join(effects)))
    variation = view["variation"]
    flags = [label for on, label in ((variation["two_player"],
                                      "two players (variation one: no Keythedral tile, one new law)"),
                                     (variation["no_laws"], "no law cards"),
                                     (variation["open_tiles"], "building tiles face up")) if on]
    if flags:
        lines.append(("Variations:", ", ".join(flags)))
    return lines


def header_height(view: KView) -> int:
    """Height of the header: the status line, the waiting line(s), the extra lines."""
    waiting = d.wrap(_waiting(view), 22, INNER - 32, bold=True)[:2]
    extra = len(_header_lines(view)) + (1 if view["phase"] == "setup" else 0)
    return 58 + 30 * len(waiting) + 28 * extra + 10


def _waiting(view: KView) -> str:
    """The engine's waiting sentence, capitalised."""
    text = view["waiting_for"]
    return text[:1].upper() + text[1:]


def header(draw: d.Pen, view: KView, box: Box) -> None:
    """Round, phase, step and start player; whom we wait for; the drawn field; pending payment, effects."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    x = x0 + 14
    cy = y0 + 28
    x += d.pill(draw, (x, cy), "KEYTHEDRAL", 22, KEYTHEDRAL_FILL, pad=10) + 10
    x += d.pill(draw, (x, cy), f"Round {view['round']}", 22, d.INK, pad=10) + 10
    phase = view["phase"]
    x += d.pill(draw, (x, cy), PHASE_LABEL[phase], 20, d.lighter(d.INK, 0.85), pad=10) + 10
    step = view["step"]
    if step:
        x += d.text(draw, (x, cy), f"step: {step}", 16, d.MUTED, anchor="lm") + 10
    right = x1 - 14
    start = view["start_player"]
    colour = seat_colour(view, start)
    name = d.ellipsize(view["names"][start], 20, 220, bold=True)
    right -= d.text_width(name, 20, True)
    d.text(draw, (right, cy), name, 20, bold=True, anchor="lm")
    right -= 6 + max(26, d.text_width(player_letter(colour), 16, True) + 10)
    tag(draw, (right, cy - 12), colour, 16)
    right -= 8 + d.text_width("Start player", 18)
    d.text(draw, (right, cy), "Start player", 18, d.MUTED, anchor="lm")
    y = y0 + 58
    for line in d.wrap(_waiting(view), 22, x1 - x0 - 32, bold=True)[:2]:
        d.text(draw, (x0 + 16, y + 14), line, 22, d.INK, bold=True, anchor="lm")
        y += 30
    if phase == "setup":
        _drawn_field(draw, view, x0 + 16, y)
        y += 28
    for title, text in _header_lines(view):
        w = d.text(draw, (x0 + 16, y + 13), title, 18, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x0 + 16 + w, y + 13), d.ellipsize(text, 18, x1 - x0 - 40 - w), 18, anchor="lm")
        y += 28


def _drawn_field(draw: d.Pen, view: KView, x: int, y: int) -> None:
    """Set-up's line: the field tile to lay (T-6) and the stack."""
    drawn = view["drawn_field"]
    x += d.text(draw, (x, y + 13), "Field to lay:", 18, d.OFFER, bold=True, anchor="lm") + 10
    if drawn:
        terrain = drawn["terrain"]
        ftile, fmask = field_tile(terrain, 40)
        d.paste(draw, ftile, (x, y - 7), fmask)
        x += 48
        text = f"{terrain} (back {drawn['back']})"
    else:
        text = "none drawn"
    x += d.text(draw, (x, y + 13), text, 18, anchor="lm") + 24
    d.text(draw, (x, y + 13), f"Field stack: {view['field_stack']} face down", 18, d.MUTED, anchor="lm")


# --- Players -------------------------------------------------------------------------------------------

ROW_H = 66
HEAD_H = 30
COLS = {"player": 10, "cubes": 330, "points": 830, "tiles": 910, "laws": 1170, "fences": 1255, "houses": 1345}


def players_height(view: KView) -> int:
    """Height of the player table."""
    return HEAD_H + ROW_H * len(view["players"]) + 10


def players_frame(draw: d.Pen, box: Box) -> None:
    """The player table's panel and column titles."""
    x0, y0, _, _ = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    heads = {"player": "Player", "cubes": "Cubes held", "points": "Points", "tiles": "Tiles taken (space)",
             "laws": "Laws held", "fences": "Fences left", "houses": "Houses"}
    for key, title in heads.items():
        d.text(draw, (x0 + COLS[key], y0 + HEAD_H / 2 + 2), title, 14, d.MUTED, bold=True, anchor="lm")


def players(draw: d.Pen, view: KView, box: Box) -> None:
    """In the player table's frame: one row per player, swatch and name with status, cubes held by colour,
    points, tiles, laws, fences, houses."""
    x0, y0, x1, _ = box
    houses: dict[int, int] = {}
    for c in view["cottages"]:
        if c["house"]:
            houses[c["seat"]] = houses.get(c["seat"], 0) + 1
    to_act = set(view["to_act"])
    for i, player in enumerate(view["players"]):
        seat = player["seat"]
        colour = player["colour"]
        fill = player_fill(colour)
        ry = y0 + HEAD_H + i * ROW_H
        if seat in to_act:
            draw.rounded_rectangle((x0 + 4, ry + 2, x1 - 4, ry + ROW_H - 2), radius=10, fill=d.lighter(fill, 0.85),
                                   outline=fill, width=4)
        elif i:
            draw.line((x0 + 10, ry, x1 - 10, ry), fill=d.FAINT, width=1)
        bx = x0 + COLS["player"]
        draw.rounded_rectangle((bx, ry + 11, bx + 44, ry + 55), radius=8, fill=fill, outline=d.INK, width=2)
        d.text(draw, (bx + 22, ry + 33), player_letter(colour), 20, d.ink_on(fill), bold=True, anchor="mm")
        nx = bx + 54
        d.text(draw, (nx, ry + 20), d.ellipsize(player["name"], 21, 260, bold=True), 21, bold=True, anchor="lm")
        px = nx
        for label, bfill, ink in _badges(view, player, seat in to_act):
            w = d.pill_width(label, 14, pad=6)
            if px + w > x0 + COLS["cubes"] - 8:
                break
            px += d.pill(draw, (px, ry + 47), label, 14, bfill, ink=ink, outline=d.INK, pad=6) + 5
        if "cubes" in player:
            _screen_contents(draw, player, x0, ry)
        else:
            _closed_screen(draw, (x0 + COLS["cubes"], ry + 12, x0 + COLS["laws"] - 10, ry + ROW_H - 12), fill)
        d.text(draw, (x0 + COLS["laws"] + 24, ry + 33), str(player["laws_held"]), 24, bold=True, anchor="mm")
        fx = x0 + COLS["fences"]
        draw.line((fx + 2, ry + 42, fx + 22, ry + 24), fill=d.INK, width=9)
        draw.line((fx + 2, ry + 42, fx + 22, ry + 24), fill=fill, width=5)
        d.text(draw, (fx + 30, ry + 33), str(view["fences_left"][seat]), 24, bold=True, anchor="lm")
        d.text(draw, (x0 + COLS["houses"] + 22, ry + 33), str(houses.get(seat, 0)), 24, bold=True, anchor="mm")


def _badges(view: KView, player: PlayerView, acting: bool) -> list[tuple[str, RGB, RGB]]:
    """A player's status pills: to act, start player, procured a law, passed, its bid, cottages still to lay."""
    seat = player["seat"]
    found: list[tuple[str, RGB, RGB]] = []
    if acting:
        found.append(("TO ACT", d.HIGHLIGHT, (255, 255, 255)))
    if seat == view["start_player"]:
        found.append(("START", d.INK, (255, 255, 255)))
    if player["procured"]:
        found.append(("PROCURED LAW", KEYTHEDRAL_FILL, (255, 255, 255)))
    if player["passed"]:
        found.append(("PASSED", (255, 255, 255), d.INK))
    bids = {b["seat"]: b["bid"] for b in view["bids"]}
    if view["phase"] == "bidding" and seat in bids:
        bid = bids[seat]
        found.append((f"bid {bid}" if bid is not None else "no bid", (255, 255, 255), d.INK))
    unlaid = sorted(c["number"] for c in view["cottages"] if c["seat"] == seat and not c["at"])
    if unlaid and view["phase"] == "setup":
        found.append(("to lay: " + " ".join(str(n) for n in unlaid), (255, 255, 255), d.INK))
    return found


def _screen_contents(draw: d.Pen, player: PlayerView, x0: int, ry: int) -> None:
    """What stands behind a player's screen, when the view shows it: cubes by colour, points, tiles by space."""
    cubes = player["cubes"]
    for k, colour in enumerate(CUBE_ORDER):
        n = cubes[colour]
        cx = x0 + COLS["cubes"] + k * 60
        cube(draw, cx + 12, ry + 33, colour, 24, faded=n == 0)
        d.text(draw, (cx + 28, ry + 33), str(n), 20, d.INK if n else d.FAINT, bold=bool(n), anchor="lm")
    d.text(draw, (x0 + COLS["points"] + 20, ry + 33), str(player["points"]), 28, bold=True, anchor="mm")
    _tiles(draw, player["tiles"], (x0 + COLS["tiles"], ry + 6, x0 + COLS["laws"] - 10, ry + ROW_H - 6))


def _closed_screen(draw: d.Pen, box: Box, fill: RGB) -> None:
    """A player's screen seen from the table: its cubes, points and tiles are not shown (ruling T-1)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=d.lighter(fill, 0.8), outline=d.darker(fill, 0.8), width=2)
    d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "cubes, points and tiles behind the screen", 16, d.INK, anchor="mm")


def _tiles(draw: d.Pen, tiles: Sequence[TileView], box: Box) -> None:
    """A player's building tiles as chips with their space, tinted by stage, wrapping to a second line."""
    x0, y0, x1, y1 = box
    if not tiles:
        d.text(draw, (x0, (y0 + y1) / 2), "none", 15, d.MUTED, anchor="lm")
        return
    chip_w, chip_h = 40, 24
    per_row = max(1, (x1 - x0 + 4) // (chip_w + 4))
    rows = 1 if len(tiles) <= per_row else 2
    ys = [(y0 + y1) / 2 - chip_h / 2] if rows == 1 else [y0 + 1, y1 - chip_h - 1]
    shown = tiles[: per_row * 2]
    for k, tile in enumerate(shown):
        stage = tile["stage"]
        tx = x0 + (k % per_row) * (chip_w + 4)
        ty = ys[min(k // per_row, rows - 1)]
        fill = d.lighter(KEYTHEDRAL_FILL, 0.85 - 0.12 * max(0, min(5, stage) - 1))
        if len(tiles) > len(shown) and k == len(shown) - 1:
            draw.rounded_rectangle((tx, ty, tx + chip_w, ty + chip_h), radius=5, fill=d.PANEL, outline=d.GRID)
            d.text(draw, (tx + chip_w / 2, ty + chip_h / 2), f"+{len(tiles) - k}", 14, bold=True, anchor="mm")
            break
        draw.rounded_rectangle((tx, ty, tx + chip_w, ty + chip_h), radius=5, fill=fill, outline=d.INK, width=1)
        d.text(draw, (tx + chip_w / 2, ty + chip_h / 2), tile["space"], 15, d.ink_on(fill), bold=True, anchor="mm")


# --- Legend --------------------------------------------------------------------------------------------


@d.kept(maxsize=1)
def legend() -> d.Layer:
    """Terrain letters and patterns, player letters, pieces, cube letters (drawn once)."""
    w = INNER
    h = 4 * 34 + 14
    _, draw = d.canvas(w + 1, h + 1)
    draw.rounded_rectangle((0, 0, w, h), radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    y = 24
    x = 14 + d.text(draw, (14, y), "Fields", 17, bold=True, anchor="lm") + 14
    for terrain, colour in TERRAINS.items():
        tile, mask = field_tile(terrain, 44)
        d.paste(draw, tile, (x, y - 22), mask)
        x += 50
        x += d.text(draw, (x, y), f"{terrain}: {colour} {CUBE_NAME[colour]}", 16, anchor="lm") + 22
    y += 34
    x = 14 + d.text(draw, (14, y), "Players", 17, bold=True, anchor="lm") + 14
    for colour in COLOURS:
        x += tag(draw, (x, y - 12), colour, 16) + 6
        x += d.text(draw, (x, y), colour, 16, anchor="lm") + 16
    x += 10
    cottage_piece(draw, x + 20, y, 20, "blue", 3, False, False)
    x += 46 + d.text(draw, (x + 46, y), "cottage 3", 16, anchor="lm") + 16
    cottage_piece(draw, x + 20, y, 20, "blue", 3, True, False)
    x += 46 + d.text(draw, (x + 46, y), "house 3", 16, anchor="lm") + 16
    worker_piece(draw, x + 14, y, 12, "blue")
    x += 34 + d.text(draw, (x + 34, y), "worker", 16, anchor="lm") + 16
    fence_piece(draw, x + 4, y - 10, 24, (1, 1), "blue")
    x += 40 + d.text(draw, (x + 40, y), "fence", 16, anchor="lm") + 16
    keythedral_piece(draw, x + 20, y, 17)
    x += 44 + d.text(draw, (x + 44, y), "Keythedral", 16, anchor="lm")
    y += 34
    x = 14 + d.text(draw, (14, y), "Cubes", 17, bold=True, anchor="lm") + 14
    for colour in CUBE_ORDER:
        cube(draw, x + 11, y, colour, 22)
        x += 28 + d.text(draw, (x + 28, y), f"{colour} {CUBE_NAME[colour]}", 16, anchor="lm") + 18
    y += 34
    x = 14
    x += d.text(draw, (x, y), "Lattice:", 17, bold=True, anchor="lm") + 10
    note = ("field M13 is column M, row 13; square M13+ lies between M13, N13, M14 and N14; faint slots are "
            "empty places; a magenta ring marks the cottage number now placing workers")
    d.text(draw, (x, y), d.ellipsize(note, 16, w - x - 14), 16, anchor="lm")
    return d.layer(draw)
