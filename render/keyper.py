"""The Keyper table as a PNG: a pure function of the engine's public view.

``render(view)`` draws the status banner, every country board in play, the country-tile display and the
season's boats, then one panel per player; ``render_scoreboard(scoreboard)`` draws the score breakdown.
Only public information is read; ``render`` refuses a private view with ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from engine.core import Scoreboard
from engine.keyper.components import Components, Display, default
from engine.keyper.lookup import colour_sources, reconstructed
from engine.keyper.vocab import ANIMALS, COLOURS, FINISHED, FINISHED_OF_RAW, GEMS, RAW, SEASONS, WHEAT
from render import draw as d

View = Mapping[str, Any]
Box = tuple[int, int, int, int]

WIDTH = 1600
MARGIN = 16
GAP = 16
SIZES = ("full", "compact")

CELL = 90  # a country-board field
BOARD_PAD = 10
BOARD_W = 4 * CELL + 2 * BOARD_PAD
BOARD_H = 44 + 4 * CELL + BOARD_PAD
PLOT_W, PLOT_H = 94, 66
PANEL_W = (WIDTH - 2 * MARGIN - GAP) // 2

PHASE_LABEL = {
    "turn": "Playing",
    "joiner": "Joiner offer",
    "pay": "Paying",
    "yields": "Taking yields",
    "fairs": "Holding fairs",
    "housing": "Housing animals",
    "choose_display": "Choosing displays",
    "rest": "Resting keyples",
    "game_over": "Game over",
}

# Phases inside one player's turn: the active seat's panel says so while someone else decides.
TURN_PHASES = ("turn", "joiner", "yields", "pay")

# Short labels for the country-board fields; resource fields are labelled with their resource.
FIELD_LABEL = {
    "keyp": "Keyp",
    "river": "River",
    "country_tile": "Country tile",
    "convert_clay": "Clay to brick",
    "convert_log": "Log to wood",
    "convert_rock": "Rock to stone",
    "trade_raw": "Trade raw",
    "trade_finished": "Trade finished",
    "build": "Build",
    "discount_build": "Discount build",
    "upgrade": "Upgrade",
}

# Stores, in the order and rows a player panel shows them.
STORE_ROWS: tuple[tuple[str, ...], ...] = (RAW + FINISHED + (WHEAT,), ANIMALS, GEMS)
COST_LABEL = {"any_raw": "any raw", "any_finished": "any finished", "any_gem": "any gem"}
# The tiles-to-build chips draw a group cost as the group's icon in white, as the printed tiles do.
ANY_ICON = {"any_raw": "clay", "any_finished": "brick", "any_gem": "ruby", "three_raw": "clay",
            "three_finished": "brick"}
MARK = "*"  # after a build cost the data pack reconstructed; explained in the legend

CHIP_COLS = 7  # tiles to build per row
CHIP_H = 46
CHIP_GAP = 5
BUILD_HEAD = 24


# --- The guard -----------------------------------------------------------------------------------------


def check_public(view: View) -> None:
    """Raise ValueError unless view is the engine's public view (no viewer, no hidden fairs, rng or bag order)."""
    if view.get("viewer") is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    if "rng" in view:
        raise ValueError("render needs the public view: this one carries the random generator")
    if isinstance(view.get("bag"), list) or isinstance(view.get("stacks"), list):
        raise ValueError("render needs the public view: this one shows the bag's contents")
    for player in view.get("players", []):
        if isinstance(player.get("hidden_fairs"), list) or isinstance(player.get("chosen_display"), str):
            raise ValueError(f"render needs the public view: {player.get('name')}'s hidden choices are visible")


# --- Entry points --------------------------------------------------------------------------------------


def render(public_view: View, *, highlight: str | None = None, size: str = "full") -> bytes:
    """The table as PNG bytes; size 'full' (everything) or 'compact' (no player panels).

    highlight names a space to outline as the last action: '2.pig' on board 2, a plot like 'v3' of the
    active player, or 'v3@1' (seat 1's plot v3); by default the view's last_space is outlined. Raises ValueError
    on a private view, an unknown size or a highlight naming no space.
    """
    check_public(public_view)
    if size not in SIZES:
        raise ValueError(f"unknown size '{size}'; known: {', '.join(SIZES)}")
    view = public_view
    mark = _parse_highlight(view, highlight) if highlight is not None else _last_space(view)
    comps = default()
    players = view["players"]
    header_h = _header_height(view)
    row_h = _panel_height(view) if size == "full" else 0
    _, draw = d.start(_table(len(players), header_h, row_h))
    y = MARGIN
    _header(draw, view, y)
    y += header_h + GAP
    _boards(draw, view, comps, y, mark)
    y += BOARD_H + GAP
    _market(draw, view, comps, y)
    y += MARKET_H + GAP
    for seat, box in enumerate(_panel_boxes(len(players), y, row_h)):
        _player_panel(draw, view, comps, seat, box, mark)
    return d.to_png(d.finished(draw))


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with their score lines and total."""
    return d.scoreboard_png(scoreboard, d.player_fill)


# --- What every table of a layout shares ---------------------------------------------------------------

MARKET_H = 32 + 132 + 16 + 62


@d.kept(maxsize=8)
def _table(players: int, header_h: int, row_h: int) -> d.Base:
    """Everything drawn the same on every table of this layout (player panels row_h tall, none if 0): the
    background, the banner's frame, the headings, each panel's frame, band, plot grids, fixed labels and store
    icons, and the legend. Drawn once per layout; render draws the rest on a copy."""
    rows = (players + 1) // 2 if row_h else 0
    height = MARGIN + header_h + GAP + BOARD_H + GAP + MARKET_H + GAP + rows * (row_h + GAP) + LEGEND_H + 2 + MARGIN
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN
    draw.rounded_rectangle((MARGIN, y, WIDTH - MARGIN, y + header_h), radius=14, fill=d.PANEL, outline=d.GRID,
                           width=2)
    d.text(draw, (MARGIN + 16, y + 68), "Last action:", 22, d.MUTED, anchor="lm")
    y += header_h + GAP + BOARD_H + GAP
    d.text(draw, (MARGIN, y + 14), "Country tiles on display", 24, bold=True, anchor="lm")
    d.text(draw, (MARGIN, y + 32 + 132 + 16 + 31), "Boats", 24, bold=True, anchor="lm")
    y += MARKET_H + GAP
    for seat, box in enumerate(_panel_boxes(players, y, row_h)):
        _panel_frame(draw, seat, box)
    y += rows * (row_h + GAP)
    d.paste(draw, _legend(), (MARGIN, y))
    return d.base(draw)


def _panel_boxes(players: int, y: int, row_h: int) -> list[Box]:
    """Each seat's panel, two to a row from y (none when row_h is 0: the compact table)."""
    if not row_h:
        return []
    boxes = []
    for seat in range(players):
        px = MARGIN + (seat % 2) * (PANEL_W + GAP)
        py = y + (seat // 2) * (row_h + GAP)
        boxes.append((px, py, px + PANEL_W, py + row_h))
    return boxes


Mark = tuple[int | None, str, int | None]  # (board number or None for a plot, space id, plot's seat or None)


# --- Highlight -----------------------------------------------------------------------------------------


def _last_space(view: View) -> Mark | None:
    """The space of the last placement the view reports, outlined by default (None if it names no space)."""
    try:
        return _parse_highlight(view, view.get("last_space") or None)
    except ValueError:
        return None


def _parse_highlight(view: View, highlight: str | None) -> Mark | None:
    """(board number or None for a plot, space id, the plot's seat or None for the active seat): '2.pig', 'v3' or
    'v3@1' (seat 1's plot v3); raises ValueError if no such space."""
    if highlight is None:
        return None
    if "." in highlight:
        number, _, field_id = highlight.partition(".")
        boards = {b["number"]: b for b in view["boards"]}
        if not number.isdigit() or int(number) not in boards:
            raise ValueError(f"highlight '{highlight}' names no board in play")
        if field_id not in {f.id for f in _display(boards[int(number)]["display"]).fields}:
            raise ValueError(f"highlight '{highlight}' names no field of board {number}")
        return int(number), field_id, None
    plot, _, owner = highlight.partition("@")
    if plot in _plot_ids() and (not owner or owner.isdigit() and int(owner) < len(view["players"])):
        return None, plot, int(owner) if owner else None
    raise ValueError(f"highlight '{highlight}' is neither a field like '2.pig' nor a plot like 'v3'")


@cache
def _plot_ids() -> tuple[str, ...]:
    """Every plot id: f1..f8 then v1..v12."""
    board = default().player_board
    farm = board.farm_rows * board.farm_cols
    village = board.village_rows * board.village_cols
    return tuple(f"f{i}" for i in range(1, farm + 1)) + tuple(f"v{i}" for i in range(1, village + 1))


@cache
def _display(display_id: str) -> Display:
    """A display by id."""
    return default().display(display_id)


# --- Header --------------------------------------------------------------------------------------------


def _header_height(view: View) -> int:
    """Height of the status banner: two lines, plus one for an open joiner offer, payment or pending yield."""
    return 132 if view.get("offer") or view.get("payment") or view.get("steps") else 92


def _name(view: View, seat: int) -> str:
    """A seat's player name."""
    return str(view["players"][seat]["name"])


def _header(draw: d.Pen, view: View, y: int) -> None:
    """Season, turn, phase and whom we wait for; the last action; the open joiner offer or yield."""
    season = str(view.get("season_name", SEASONS[view["season"]]))
    x = MARGIN + 14
    x += d.pill(draw, (x, y + 26), season.upper(), 28, d.SEASON_FILL.get(season, d.MUTED), pad=12) + 12
    phase = str(view.get("phase", ""))
    x += d.pill(draw, (x, y + 26), f"Turn {view.get('turn', 1)}", 22, d.INK, pad=10) + 12
    x += d.pill(draw, (x, y + 26), PHASE_LABEL.get(phase, phase), 22, d.lighter(d.INK, 0.85), pad=10) + 16
    waiting = str(view.get("waiting_for", ""))
    waiting = waiting[:1].upper() + waiting[1:]
    right = WIDTH - MARGIN - 14
    tiles = f"Bag: {view.get('bag', 0)} tiles"
    d.text(draw, (right, y + 26), tiles, 20, d.MUTED, anchor="rm")
    right -= d.text_width(tiles, 20) + 20
    d.text(draw, (x, y + 26), d.ellipsize(waiting, 24, right - x, bold=True), 24, d.INK, bold=True, anchor="lm")
    ly = y + 68
    last = str(view.get("last_action") or "")
    if last:
        d.pill(draw, (MARGIN + 150, ly), d.ellipsize(last, 22, WIDTH - 2 * MARGIN - 200), 22, (255, 230, 244),
               ink=d.INK, outline=d.HIGHLIGHT, pad=10)
    else:
        d.text(draw, (MARGIN + 156, ly), "none yet", 22, d.MUTED, anchor="lm")
    offer = view.get("offer")
    oy = y + 108
    if offer:
        asked = offer["candidates"][offer["index"]:]
        names = [_name(view, s) for s in asked]
        queue = f", then {', '.join(names[1:])}" if len(names) > 1 else ""
        colour = str(offer["colour"])
        x = MARGIN + 16
        x += d.text(draw, (x, oy), "Joiner offer:", 22, d.OFFER, bold=True, anchor="lm") + 10
        x += d.colour_tag(draw, (x, oy - 10), colour, 14) + 8
        line = f"{colour} keyples may join {offer['board']}.{offer['field']} - asking {names[0] if names else '?'}"
        d.text(draw, (x, oy), line + queue, 22, d.INK, anchor="lm")
    elif view.get("payment"):
        pay = view["payment"]
        tile = default().tiles.get(str(pay.get("tile")))
        what = f"{pay.get('effect', 'build')} of {tile.name}" if tile else str(pay.get("effect", "build"))
        items = ", ".join(str(i) for i in pay.get("items", [])) or "nothing"
        line = f"{_name(view, pay['seat'])} pays for the {what} on {pay.get('plot', '?')}; still to pay: {items}"
        x = MARGIN + 16
        x += d.text(draw, (x, oy), "Payment:", 22, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x, oy), d.ellipsize(line, 22, WIDTH - MARGIN - 16 - x), 22, d.INK, anchor="lm")
    elif view.get("steps"):
        step = view["steps"][0]
        options = " / ".join(str(o) for o in step["options"])
        line = f"{_name(view, step['seat'])} chooses {options} ({step['source']})"
        more = len(view["steps"]) - 1
        if more:
            line += f"; {more} more unit{'s' if more > 1 else ''} to take"
        x = MARGIN + 16
        x += d.text(draw, (x, oy), "Yield:", 22, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x, oy), d.ellipsize(line, 22, WIDTH - MARGIN - 16 - x), 22, d.INK, anchor="lm")


# --- Country boards ------------------------------------------------------------------------------------


def _boards(draw: d.Pen, view: View, comps: Components, y: int,
            mark: Mark | None) -> None:
    """Every country board in play, side by side and centred."""
    boards = view["boards"]
    total = len(boards) * BOARD_W + (len(boards) - 1) * GAP
    x = (WIDTH - total) // 2
    offer = view.get("offer")
    for board in boards:
        hl = mark[1] if mark and mark[0] == board["number"] else None
        offered = str(offer["field"]) if offer and offer["board"] == board["number"] else None
        d.paste(draw, _board_face(int(board["number"]), str(board["display"])), (x, y))
        _board(draw, view, comps, board, x, y, hl, offered)
        x += BOARD_W + GAP


def _field_boxes(display_id: str, x: int, y: int) -> list[tuple[str, str, Box]]:
    """(field id, kind, box) for every field of a display drawn with its board's top-left corner at (x, y)."""
    gx, gy = x + BOARD_PAD, y + 44
    found = []
    for f in _display(display_id).fields:
        rows = [c[0] for c in f.cells]
        cols = [c[1] for c in f.cells]
        box = (gx + min(cols) * CELL, gy + min(rows) * CELL, gx + (max(cols) + 1) * CELL, gy + (max(rows) + 1) * CELL)
        found.append((f.id, f.kind, box))
    return found


@d.kept(maxsize=64)
def _board_face(number: int, display_id: str) -> d.Layer:
    """What never changes on a board showing a display: frame, title, field colours, letters, icons and water.

    Drawn once per (board, display) and pasted; labels, pieces and boats are drawn on top each time.
    """
    _, draw = d.canvas(BOARD_W + 1, BOARD_H + 1)
    draw.rounded_rectangle((0, 0, BOARD_W, BOARD_H), radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    title = f"Board {number}"
    d.text(draw, (14, 22), title, 24, bold=True, anchor="lm")
    d.text(draw, (14 + d.text_width(title, 24, True) + 10, 22), display_id, 17, d.MUTED, anchor="lm")
    comps = default()
    for _, kind, box in _field_boxes(display_id, 0, 0):
        if kind == "river":
            _river_face(draw, box)
        elif kind == "keyp":
            _keyp_face(draw, box)
        else:
            _field_face(draw, comps, box, kind)
    return d.layer(draw)


def _board(draw: d.Pen, view: View, comps: Components, board: Mapping[str, Any], x: int, y: int,
           hl: str | None, offered: str | None) -> None:
    """A board's changing parts: who claimed it, labels, keyper, boat, keyples and the outlines."""
    keyper = board.get("keyper")
    if keyper is not None:
        d.pill(draw, (x + BOARD_W - 12, y + 22), _name(view, keyper), 18, d.player_fill(keyper), anchor="r")
    else:
        d.pill(draw, (x + BOARD_W - 12, y + 22), "unclaimed", 16, d.lighter(d.GRID, 0.6), ink=d.MUTED,
               bold=False, anchor="r")
    spaces = board.get("spaces", {})
    late: list[Box] = []
    season = str(view.get("season_name", "spring"))
    for field_id, kind, box in _field_boxes(str(board["display"]), x, y):
        keyples = spaces.get(field_id, [])
        if kind == "river":
            _river(draw, box, board.get("boat"), keyples, season, comps)
        elif kind == "keyp":
            _keyp_field(draw, view, box, keyper)
        else:
            _field(draw, box, kind, keyples)
        if field_id == offered:
            d.dashed_rectangle(draw, (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3), d.OFFER, width=4, dash=8)
        if field_id == hl:
            late.append(box)
    for box in late:  # outlines go on top of the neighbouring cells
        draw.rectangle((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2), outline=d.HIGHLIGHT, width=6)


def _field_face(draw: d.Pen, comps: Components, box: Box, kind_name: str) -> None:
    """A field's fixed look: tinted by its border colour, with the colour letter and its resource icons."""
    kind = comps.field_kinds[kind_name]
    x0, y0, x1, y1 = box
    colour = kind.colour
    if colour:
        border = d.KEYPLE_FILL[colour]
        draw.rectangle(box, fill=d.lighter(border, 0.78), outline=d.darker(border, 0.85) if colour == "white"
                       else border, width=1)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=border if colour != "white" else d.GRID, width=6)
        d.colour_tag(draw, (x0 + 5, y0 + 5), colour, 13)
    else:
        draw.rectangle(box, fill=(250, 248, 242), outline=d.GRID, width=1)
        draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=d.FAINT, width=2)
    resources = _field_resources(kind.category, kind.resource)
    for i, res in enumerate(reversed(resources)):
        d.resource_icon(draw, x1 - 17 - i * 20, y0 + 15, 8, res)


def _field(draw: d.Pen, box: Box, kind_name: str, keyples: Sequence[Mapping[str, Any]]) -> None:
    """A field's label, centred when empty and above the keyples otherwise, and its keyples."""
    x0, y0, x1, y1 = box
    label = FIELD_LABEL.get(kind_name, kind_name.replace("_", " ").capitalize())
    if keyples:
        d.text_box(draw, (x0 + 6, y0 + 23, x1 - 6, y0 + 57), label, 16, 11, bold=True)
        _keyples_row(draw, keyples, (x0 + 5, y0 + 57, x1 - 5, y1 - 4), 31)
    else:
        d.text_box(draw, (x0 + 7, y0 + 26, x1 - 7, y1 - 10), label, 18, 12, bold=True)


def _field_resources(category: str, resource: str | None) -> list[str]:
    """The resource icons a field shows: what it gives, or what it converts and into what."""
    if category == "resource" and resource:
        return [resource]
    if category == "convert" and resource:
        return [resource, FINISHED_OF_RAW[resource]]
    return []


def _keyples_row(draw: d.Pen, keyples: Sequence[Mapping[str, Any]], box: Box, h: int) -> None:
    """Keyples side by side, centred in a box, shrinking when many."""
    if not keyples:
        return
    x0, y0, x1, y1 = box
    widths = [d.keyple_width(h, bool(k.get("lying"))) for k in keyples]
    gap = 4
    scale = min(1.0, (x1 - x0) / (sum(widths) + gap * (len(keyples) - 1)))
    hh = h * scale
    x = (x0 + x1) / 2 - (sum(widths) + gap * (len(keyples) - 1)) * scale / 2
    cy = (y0 + y1) / 2
    for k, w in zip(keyples, widths, strict=True):
        lying = bool(k.get("lying"))
        ky = cy + (hh * 0.18 if lying else 0)
        d.keyple(draw, x + w * scale / 2, ky, hh, str(k["colour"]), lying=lying)
        x += (w + gap) * scale


def _river_face(draw: d.Pen, box: Box) -> None:
    """The double river field's water, waves, colour letter and name."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=d.WATER, outline=d.GRID, width=1)
    draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=d.KEYPLE_FILL["blue"], width=6)
    for wy in range(y0 + 16, y1 - 6, 18):
        for wx in range(x0 + 12, x1 - 20, 24):
            draw.arc((wx, wy, wx + 12, wy + 8), 200, 340, fill=d.WATER_DARK, width=2)
    d.colour_tag(draw, (x0 + 5, y0 + 5), "blue", 13)
    d.text(draw, (x0 + 34, y0 + 14), "River", 16, d.INK, bold=True, anchor="lm")


def _river(draw: d.Pen, box: Box, boat: str | None, keyples: Sequence[Mapping[str, Any]],
           season: str, comps: Components) -> None:
    """The river's boat with its id and two resources, and the keyples on it."""
    x0, y0, x1, y1 = box
    wide = x1 - x0 > y1 - y0
    if keyples:
        kbox = (x1 - 70, y0 + 26, x1 - 6, y1 - 6) if wide else (x0 + 6, y1 - 44, x1 - 6, y1 - 8)
        _keyples_row(draw, keyples, kbox, 32)
    if not boat:
        cx = (x0 + x1) / 2 - (34 if wide and keyples else 0)
        d.pill(draw, (cx, (y0 + y1) / 2 + 8), "no boat", 14, (255, 255, 255), ink=d.WATER_DARK, pad=6, anchor="m")
        return
    bx1 = x1 - 76 if wide and keyples else x1 - 8
    by1 = y1 - 8 if wide or not keyples else y1 - 48
    _boat(draw, (x0 + 8, y0 + 28, bx1, by1), boat, season, comps)


def _boat(draw: d.Pen, box: Box, boat: str, season: str, comps: Components) -> None:
    """A boat tile: hull with its number, and its two resources for the season."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    hull_w = min(x1 - x0, 120)
    hy = y0 + 4
    d.shape(draw, [(cx - hull_w / 2, hy), (cx + hull_w / 2, hy), (cx + hull_w / 2 - 14, hy + 24),
                   (cx - hull_w / 2 + 14, hy + 24)], d.HULL, d.INK)
    d.text(draw, (cx, hy + 12), _boat_label(boat), 15, (255, 255, 255), bold=True, anchor="mm")
    resources = _boat_resources(boat, season, comps)
    ry = hy + 40
    if y1 - ry < 20:
        return
    card = (255, 255, 255)
    if x1 - x0 >= 150:  # side by side
        draw.rounded_rectangle((x0 + 2, ry - 12, x1 - 2, ry + 12), radius=8, fill=card, outline=d.WATER_DARK)
        for res, rx in zip(resources, d.spread(2, x0, x1), strict=True):
            d.resource_icon(draw, rx - 28, ry, 8, res)
            d.text(draw, (rx - 16, ry), res, 15, d.INK, bold=True, anchor="lm")
    else:
        draw.rounded_rectangle((x0 - 2, ry - 12, x1 + 2, ry + 34), radius=8, fill=card, outline=d.WATER_DARK)
        for i, res in enumerate(resources):
            d.resource_icon(draw, x0 + 10, ry + i * 22, 8, res)
            d.text(draw, (x0 + 22, ry + i * 22), res, 15, d.INK, bold=True, anchor="lm")


def _boat_label(boat: str) -> str:
    """'boat-3' as 'Boat 3'."""
    return boat.replace("boat-", "Boat ")


def _boat_resources(boat: str, season: str, comps: Components) -> tuple[str, str]:
    """The two resources a boat shows in a season."""
    return comps.boats[boat].side_for(season).resources


def _keyp_face(draw: d.Pen, box: Box) -> None:
    """The keyp field's frame and name."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(236, 230, 214), outline=d.GRID, width=1)
    draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=d.INK, width=2)
    d.text(draw, ((x0 + x1) / 2, y0 + 18), "KEYP", 16, d.INK, bold=True, anchor="mm")


def _keyp_field(draw: d.Pen, view: View, box: Box, keyper: int | None) -> None:
    """The keyper of the player who claimed the board, or 'free'."""
    x0, y0, x1, _ = box
    if keyper is None:
        d.text(draw, ((x0 + x1) / 2, y0 + 54), "free", 15, d.MUTED, anchor="mm")
        return
    d.keyper(draw, (x0 + x1) / 2, y0 + 56, 44, keyper, _name(view, keyper)[:1].upper())


# --- Display of country tiles and the season's boats ---------------------------------------------------


def _market(draw: d.Pen, view: View, comps: Components, y: int) -> None:
    """The country tiles on display (winter fairs marked as such), then the season's boats."""
    display = list(view.get("display", []))
    slots = 8
    card_w = (WIDTH - 2 * MARGIN - (slots - 1) * 10) // slots
    cy = y + 32
    for i, tile_id in enumerate(display[:slots]):
        x = MARGIN + i * (card_w + 10)
        _card(draw, ("fair" if tile_id in comps.fairs else "tile", tile_id, "", None), (x, cy, x + card_w, cy + 132))
    for i in range(len(display), slots):
        x = MARGIN + i * (card_w + 10)
        d.dashed_rectangle(draw, (x, cy, x + card_w, cy + 132), d.FAINT, width=2)
    by = cy + 132 + 16
    on_board = {b["boat"]: b["number"] for b in view["boards"] if b.get("boat")}
    boats = list(view.get("boats", []))
    season = str(view.get("season_name", "spring"))
    chip_w = (WIDTH - 2 * MARGIN - 100 - 3 * 10) // 4
    for i, boat in enumerate(boats[:4]):
        x = MARGIN + 100 + i * (chip_w + 10)
        _card(draw, ("boat", boat, season, on_board.get(boat)), (x, by, x + chip_w, by + 62))


Card = tuple[str, str, str, int | None]  # ("tile" | "fair" | "boat", its id, the season, the board a boat is on)


def _card(draw: d.Pen, card: Card, box: Box) -> None:
    """A country tile, winter fair or boat card in box, drawn once (_card_face) and pasted."""
    x0, y0, x1, y1 = box
    px, py = x0 % 2, y0 % 2  # drawn at the same parity as here: Pillow rounds halves to even
    d.paste(draw, _card_face(card, x1 - x0, y1 - y0, px, py), (x0 - px, y0 - py))


@d.kept(maxsize=256)
def _card_face(card: Card, width: int, height: int, px: int, py: int) -> d.Layer:
    """A card width x height drawn on the background at (px, py), depending on nothing but the bundled pack."""
    kind, item, season, board = card
    _, draw = d.canvas(px + width + 1, py + height + 1)
    box = (px, py, px + width, py + height)
    comps = default()
    if kind == "fair":
        _winter_card(draw, comps, item, box)
    elif kind == "tile":
        _tile_card(draw, comps, item, box)
    else:
        _boat_chip(draw, comps, item, season, board, box)
    return d.layer(draw)


def _tile_card(draw: d.Pen, comps: Components, tile_id: str, box: Box) -> None:
    """A country building tile: area band, name and cost."""
    tile = comps.tiles[tile_id]
    x0, y0, x1, y1 = box
    fill = d.AREA_FILL.get(tile.area, d.MUTED)
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(fill, 0.82), outline=fill, width=3)
    draw.rounded_rectangle((x0, y0, x1, y0 + 26), radius=10, fill=fill, corners=(True, True, False, False))
    d.text(draw, (x0 + 10, y0 + 13), tile.area.upper(), 15, d.ink_on(fill), bold=True, anchor="lm")
    d.text_box(draw, (x0 + 8, y0 + 30, x1 - 8, y0 + 86), tile.name, 21, 14, bold=True)
    _cost(draw, tile.cost, (x0 + 8, y0 + 92, x1 - 8, y1 - 6), reconstructed(tile.provenance))


def _cost(draw: d.Pen, cost: Mapping[str, int], box: Box, marked: bool = False) -> None:
    """A build cost as counts with icons, centred in a box; 'any raw' style groups in words."""
    x0, y0, x1, y1 = box
    parts = [(str(n), res, (d.text_width(COST_LABEL[res], 14) if res in COST_LABEL else 18))
             for res, n in cost.items()]
    widths = [d.text_width(n, 17, True) + 3 + w + 12 for n, _, w in parts]
    x = (x0 + x1) / 2 - (sum(widths) - 12) / 2
    cy = (y0 + y1) / 2
    for (n, res, _), w in zip(parts, widths, strict=True):
        nx = x + d.text(draw, (x, cy), n, 17, bold=True, anchor="lm") + 3
        if res in COST_LABEL:
            d.text(draw, (nx, cy), COST_LABEL[res], 14, d.INK, anchor="lm")
        else:
            d.resource_icon(draw, nx + 9, cy, 9, res)
        x += w
    d.text(draw, ((x0 + x1) / 2, y0 - 2), "cost" + (MARK if marked else ""), 12, d.MUTED, anchor="mm")


def _winter_card(draw: d.Pen, comps: Components, fair_id: str, box: Box) -> None:
    """A winter fair tile on the display: its id and the points of each side with the seasons it suits."""
    fair = comps.fairs[fair_id]
    x0, y0, x1, y1 = box
    fill = d.SEASON_FILL["winter"]
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(fill, 0.8), outline=fill, width=3)
    draw.rounded_rectangle((x0, y0, x1, y0 + 26), radius=10, fill=fill, corners=(True, True, False, False))
    d.text(draw, (x0 + 10, y0 + 13), "WINTER FAIR", 15, (255, 255, 255), bold=True, anchor="lm")
    d.text(draw, ((x0 + x1) / 2, y0 + 46), fair_id, 20, bold=True, anchor="mm")
    for i, side in enumerate(fair.sides[:2]):
        seasons = "/".join(s[:3] for s in side.seasons)
        d.text(draw, ((x0 + x1) / 2, y0 + 78 + i * 24), f"{side.points} pts  {seasons}", 16, anchor="mm")


def _boat_chip(draw: d.Pen, comps: Components, boat: str, season: str, board: int | None,
               box: Box) -> None:
    """One of the season's boats: id, its two resources and where it sails."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=10, fill=d.lighter(d.WATER, 0.55), outline=d.WATER_DARK, width=2)
    d.shape(draw, [(x0 + 10, y0 + 18), (x0 + 100, y0 + 18), (x0 + 88, y0 + 44), (x0 + 22, y0 + 44)], d.HULL, d.INK)
    d.text(draw, (x0 + 55, y0 + 31), _boat_label(boat), 16, (255, 255, 255), bold=True, anchor="mm")
    x = x0 + 114
    for res in _boat_resources(boat, season, comps):
        d.resource_icon(draw, x + 9, y0 + 22, 9, res)
        x += 22 + d.text(draw, (x + 22, y0 + 22), res, 18, bold=True, anchor="lm") + 12
    where = f"on board {board}" if board is not None else "not yet on a board"
    d.text(draw, (x0 + 114, y0 + 46), where, 15, d.MUTED if board is None else d.INK, anchor="lm")


# --- Player panels -------------------------------------------------------------------------------------


def _panel_height(view: View) -> int:
    """Height of one player panel (the same for all, so the grid lines up)."""
    return PANEL_HEAD + _plots_height() + 14 + 3 * 44 + 12 + _to_build_height(view) + 8


PANEL_HEAD = 52 + 10  # the panel's coloured band and the gap under it


def _plots_height() -> int:
    """Height of the farm and village plot grids with their headings."""
    board = default().player_board
    return 26 + board.farm_rows * PLOT_H + 12 + 26 + board.village_rows * PLOT_H


def _to_build_height(view: View) -> int:
    """Height of the tiles-to-build area: a heading and enough chip rows for the longest list (two at least)."""
    most = max((len(p.get("tiles", [])) for p in view["players"]), default=0)
    rows = max(2, -(-most // CHIP_COLS))
    return BUILD_HEAD + rows * (CHIP_H + CHIP_GAP) - CHIP_GAP


def _panel_parts(box: Box) -> tuple[Box, Box, Box, Box]:
    """A panel's plot grids, the side column beside them, the stores and the tiles to build."""
    x0, y0, x1, y1 = box
    top = y0 + PANEL_HEAD
    bottom = top + _plots_height()
    right_x = x0 + 14 + 4 * PLOT_W + 22
    sy = bottom + 14
    return ((x0 + 14, top, right_x, bottom), (right_x, top, x1 - 14, bottom), (x0 + 14, sy, x1 - 14, sy + 3 * 44),
            (x0 + 14, sy + 3 * 44 + 12, x1 - 14, y1 - 8))


def _panel_frame(draw: d.Pen, seat: int, box: Box) -> None:
    """What a seat's panel always shows: frame, band in the seat's colour, empty plots, fixed labels, store icons."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=14, fill=d.PANEL, outline=d.GRID, width=2)
    draw.rounded_rectangle((x0, y0, x1, y0 + 52), radius=14, fill=d.player_fill(seat),
                           corners=(True, True, False, False))
    plots, side, stores, to_build = _panel_parts(box)
    _plot_grid(draw, plots[0], plots[1])
    _side_frame(draw, side)
    _stores_frame(draw, stores)
    d.text(draw, (to_build[0], to_build[1] + 10), "TILES TO BUILD", 17, bold=True, anchor="lm")


def _player_panel(draw: d.Pen, view: View, comps: Components, seat: int,
                  box: Box, mark: Mark | None) -> None:
    """One player's panel over its frame (_panel_frame): the acting outline, name and badges, built plots, keyp and
    keyp tile, fairs, store counts, tiles to build."""
    player = view["players"][seat]
    x0, y0, x1, y1 = box
    fill = d.player_fill(seat)
    if seat in view.get("to_act", []):  # over the grey frame: the same pixels as a panel drawn with this outline
        draw.rounded_rectangle(box, radius=14, outline=fill, width=5)
    ink = d.ink_on(fill)
    d.text(draw, (x0 + 16, y0 + 26), d.ellipsize(str(player["name"]), 28, 300, bold=True), 28, ink, bold=True,
           anchor="lm")
    _panel_badges(draw, view, seat, (x0, y0, x1, y0 + 52))
    owner = mark[2] if mark and mark[2] is not None else view.get("active")
    plot_hl = mark[1] if mark and mark[0] is None and seat == owner else None
    plots, side, stores, to_build = _panel_parts(box)
    _plots(draw, player, comps, plots[0], plots[1], plot_hl)
    _panel_side(draw, view, seat, side)
    _stores(draw, player.get("goods", {}), stores)
    _to_build(draw, comps, list(player.get("tiles", [])), to_build)


def _panel_badges(draw: d.Pen, view: View, seat: int, band: Box) -> None:
    """Right-aligned pills in a panel header: turn and decision markers, claimed board, display choice."""
    player = view["players"][seat]
    x = band[2] - 12
    cy = (band[1] + band[3]) / 2
    badges: list[tuple[str, d.RGB, d.RGB]] = []
    if seat in view.get("to_act", []):
        badges.append(("TO ACT", (255, 255, 255), d.HIGHLIGHT))
    elif seat == view.get("active") and view.get("phase") in TURN_PHASES:
        badges.append(("ACTIVE TURN", d.INK, (255, 255, 255)))
    if view.get("phase") == "choose_display":
        chosen = bool(player.get("chosen_display"))
        badges.append(("display chosen" if chosen else "choosing display", (255, 255, 255), d.INK))
    if player.get("board") is not None:
        badges.append((f"board {player['board']}", d.lighter(d.INK, 0.9), d.INK))
    for label, fill, ink in badges:
        x -= d.pill(draw, (x, cy), label, 17, fill, ink=ink, outline=d.INK, anchor="r") + 8


def _plot_grid(draw: d.Pen, x: int, y: int) -> None:
    """The farm (f1..f8) and village (v1..v12) headings and plots, every plot empty."""
    for area, prefix, rows, cols in _areas():
        d.text(draw, (x, y + 12), area.upper(), 19, d.AREA_FILL[area], bold=True, anchor="lm")
        y += 26
        for i in range(rows * cols):
            px, py = x + (i % cols) * PLOT_W, y + (i // cols) * PLOT_H
            _plot(draw, default(), area, f"{prefix}{i + 1}", None, [], (px, py, px + PLOT_W, py + PLOT_H))
        y += rows * PLOT_H + 12


def _areas() -> tuple[tuple[str, str, int, int], ...]:
    """(area, plot id prefix, rows, columns) of the farm and the village."""
    board = default().player_board
    return ("farm", "f", board.farm_rows, board.farm_cols), ("village", "v", board.village_rows, board.village_cols)


def _plots(draw: d.Pen, player: Mapping[str, Any], comps: Components, x: int, y: int,
           hl: str | None) -> None:
    """Over the empty grid (_plot_grid): how many plots are built, the built plots and the highlighted one's outline.

    Neighbours share their edge lines, the later plot's on top, and the outline spills onto the plots after it: so
    an empty plot right of or under a built one, and every plot after the outlined one, is drawn again."""
    plots = player.get("plots", {})
    keyples = player.get("plot_keyples", {})
    for area, prefix, rows, cols in _areas():
        built = sum(1 for pid in plots if pid.startswith(prefix))
        d.text(draw, (x + d.text_width(area.upper(), 19, True) + 10, y + 12), f"{built}/{rows * cols} built", 16,
               d.MUTED, anchor="lm")
        y += 26
        after = False
        for i in range(rows * cols):
            pid = f"{prefix}{i + 1}"
            px, py = x + (i % cols) * PLOT_W, y + (i // cols) * PLOT_H
            left = i % cols > 0 and f"{prefix}{i}" in plots
            above = i >= cols and f"{prefix}{i + 1 - cols}" in plots
            if pid in plots or after or left or above:
                _plot(draw, comps, area, pid, plots.get(pid), keyples.get(pid, []),
                      (px, py, px + PLOT_W, py + PLOT_H))
            if pid == hl:
                draw.rectangle((px - 2, py - 2, px + PLOT_W + 2, py + PLOT_H + 2), outline=d.HIGHLIGHT, width=6)
                after = True
        y += rows * PLOT_H + 12


def _plot(draw: d.Pen, comps: Components, area: str, pid: str, plot: Mapping[str, Any] | None,
          keyples: Sequence[Mapping[str, Any]], box: Box) -> None:
    """A plot: empty with its id, or the built tile's name, an UP badge when upgraded, what it overbuilt."""
    x0, y0, x1, y1 = box
    fill = d.AREA_FILL[area]
    if plot is None:
        draw.rectangle(box, fill=d.lighter(fill, 0.9), outline=d.lighter(fill, 0.5), width=1)
        d.text(draw, ((x0 + x1) / 2, (y0 + y1) / 2), pid, 17, d.lighter(fill, 0.35), anchor="mm")
        return
    draw.rectangle(box, fill=d.lighter(fill, 0.7), outline=d.darker(fill, 0.8), width=2)
    d.text(draw, (x0 + 4, y0 + 3), pid, 12, d.darker(fill, 0.7), anchor="la")
    tile = comps.tiles.get(str(plot["tile"]))
    name = tile.name if tile else str(plot["tile"])
    if plot.get("upgraded"):
        d.pill(draw, (x1 - 4, y0 + 11), "UP", 12, (240, 190, 20), ink=d.INK, outline=d.INK, pad=4, anchor="r")
    under = plot.get("under")
    bottom = y1 - (28 if keyples else 16 if under else 3)
    d.text_box(draw, (x0 + 4, y0 + 16, x1 - 4, bottom), name, 16, 11, bold=True)
    right = x1 - 2
    if keyples:
        right = x1 - 2 - int(sum(d.keyple_width(24, bool(k.get("lying"))) + 3 for k in keyples)) if under else x0 + 2
        _keyples_row(draw, keyples, (right, y1 - 28, x1 - 2, y1 - 2), 24)
    if under:
        old = comps.tiles.get(str(under))
        label = d.ellipsize("over " + (old.name if old else str(under)), 11, right - x0 - 6)
        d.text(draw, (x0 + 4, y1 - 3), label, 11, d.darker(fill, 0.6), anchor="ld")


STATS = (("Shipping", "shipping"), ("Fairs face down", "hidden_fairs"))


def _side_frame(draw: d.Pen, box: Box) -> None:
    """The side column's fixed parts: the shipping and face-down fairs boxes and the KEYP heading."""
    x0, y0, _, _ = box
    x = x0
    for label, _ in STATS:
        x += _stat(draw, (x, y0), label) + 10
    d.text(draw, (x0, y0 + 52 + 12), "KEYP", 19, bold=True, anchor="lm")


def _panel_side(draw: d.Pen, view: View, seat: int, box: Box) -> None:
    """Over the side frame: shipping, face-down fairs, the keyp (keyper and keyples), the keyp tile, the
    fairground."""
    player = view["players"][seat]
    x0, y0, x1, _ = box
    x = x0
    for label, key in STATS:
        x += _stat_value(draw, (x, y0), label, str(int(player.get(key, 0)))) + 10
    y = y0 + 52
    x = x0 + 70
    if player.get("keyper_home"):
        d.keyper(draw, x + 12, y + 14, 34, seat, str(player["name"])[:1].upper())
        x += 32
    else:
        where = next((f"keyper: board {b['number']}" for b in view["boards"] if b.get("keyper") == seat),
                     "keyper out")
        x += d.text(draw, (x, y + 12), where, 15, d.MUTED, anchor="lm") + 12
    keyp = player.get("keyp", {})
    ky = y + 14
    for colour in COLOURS:
        n = int(keyp.get(colour, 0))
        if n <= 0:
            continue
        if x + 46 > x1:
            x, ky = x0 + 70, ky + 40
        d.keyple(draw, x + 11, ky, 30, colour)
        d.text(draw, (x + 25, ky + 6), f"{n}", 18, bold=True, anchor="lm")
        x += 46
    if not any(int(n) > 0 for n in keyp.values()):
        d.text(draw, (x, y + 12), "no keyples", 15, d.MUTED, anchor="lm")
    y = ky + 28
    d.text(draw, (x0, y + 12), "KEYP TILE", 17, bold=True, anchor="lm")
    tile = list(player.get("keyp_tile", []))
    if tile:
        _keyples_row(draw, tile, (x0 + 96, y - 4, min(x1, x0 + 96 + 30 * len(tile)), y + 28), 28)
    else:
        d.text(draw, (x0 + 100, y + 12), "empty", 15, d.MUTED, anchor="lm")
    y += 38
    d.text(draw, (x0, y + 12), "FAIRS HELD", 17, bold=True, anchor="lm")
    d.text(draw, (x0 + 118, y + 12), "(points)", 15, d.MUTED, anchor="lm")
    y += 28
    fairground = player.get("fairground", {})
    for season in SEASONS:
        held = fairground.get(season, [])
        d.pill(draw, (x0, y + 12), season[:3].upper(), 14, d.SEASON_FILL[season], pad=6)
        text = ", ".join(f"{h['fair']} ({h['points']})" for h in held) if held else "-"
        d.text(draw, (x0 + 56, y + 12), d.ellipsize(text, 17, x1 - x0 - 56), 17, d.INK if held else d.MUTED,
               anchor="lm")
        y += 27
    winter = list(player.get("winter_fairs", []))
    label = "Winter fairs in hand: " + (", ".join(winter) if winter else "none")
    d.text(draw, (x0, y + 14), d.ellipsize(label, 16, x1 - x0), 16, d.INK if winter else d.MUTED, anchor="lm")


def _stat_width(label: str) -> int:
    """The width of a stat box."""
    return max(d.text_width(label, 14) + 16, 60)


def _stat(draw: d.Pen, xy: tuple[int, int], label: str) -> int:
    """A small box with a label, for a big value under it; returns its width."""
    x, y = xy
    w = _stat_width(label)
    draw.rounded_rectangle((x, y, x + w, y + 44), radius=8, fill=(255, 255, 255), outline=d.GRID, width=2)
    d.text(draw, (x + w / 2, y + 12), label, 14, d.MUTED, anchor="mm")
    return w


def _stat_value(draw: d.Pen, xy: tuple[int, int], label: str, value: str) -> int:
    """The value in a stat box (_stat); returns the box's width."""
    x, y = xy
    w = _stat_width(label)
    d.text(draw, (x + w / 2, y + 31), value, 22, bold=True, anchor="mm")
    return w


def _store_cells(box: Box) -> list[tuple[str, int, int]]:
    """Each resource a player could hold, with where its cell's icon row is (x, y)."""
    x0, y0, x1, _ = box
    cw = (x1 - x0) // 8
    return [(res, x0 + c * cw + 8, y0 + r * 44 + 20) for r, row in enumerate(STORE_ROWS) for c, res in enumerate(row)]


def _stores_frame(draw: d.Pen, box: Box) -> None:
    """The stores' box, the STORES label and every resource's icon and faded 0, and its faded name where that
    lies on the white alone (_kept_name)."""
    x0, y0, x1, _ = box
    draw.rounded_rectangle((x0, y0, x1, _stores_bottom(box)), radius=10, fill=(255, 255, 255), outline=d.FAINT,
                           width=1)
    for res, cx, cy in _store_cells(box):
        d.resource_icon(draw, cx + 9, cy - 7, 9, res)
        d.text(draw, (cx + 24, cy - 7), "0", 20, d.FAINT, anchor="lm")
        if _kept_name(res, cx, cy, box):
            d.text(draw, (cx, cy + 13), res, 13, d.FAINT, anchor="lm")
    d.text(draw, (x1 - 10, y0 + 2 * 44 + 13), "STORES", 17, d.MUTED, bold=True, anchor="rm")


def _stores_bottom(box: Box) -> int:
    """The stores' frame's bottom edge."""
    return box[1] + 3 * 44 - 4


def _kept_name(res: str, cx: int, cy: int, box: Box) -> bool:
    """Whether a resource's faded name is drawn with the frame: when its box keeps clear of the frame's edge (the
    gems' descenders reach it; clear_text could not take those away)."""
    return d.text_bounds((cx, cy + 13), res, 13, anchor="lm")[3] < _stores_bottom(box)


def _stores(draw: d.Pen, goods: Mapping[str, int], box: Box) -> None:
    """Over the frame, each resource's count and name: one held in ink (the frame's faded 0 and name cleared
    first), one not held as the frame has it (its name drawn here if the frame has not)."""
    for res, cx, cy in _store_cells(box):
        n = int(goods.get(res, 0))
        kept = _kept_name(res, cx, cy, box)
        if n:
            d.clear_text(draw, (cx + 24, cy - 7), "0", 20, (255, 255, 255), anchor="lm")
            if kept:
                d.clear_text(draw, (cx, cy + 13), res, 13, (255, 255, 255), anchor="lm")
            d.text(draw, (cx + 24, cy - 7), str(n), 20, d.INK, bold=True, anchor="lm")
        if n or not kept:
            d.text(draw, (cx, cy + 13), res, 13, d.MUTED if n else d.FAINT, anchor="lm")


def _to_build(draw: d.Pen, comps: Components, tiles: Sequence[str],
              box: Box) -> None:
    """The building tiles the player holds but has not built (how many, then one chip each with its name and build
    cost), under the heading."""
    x0, y0, x1, _ = box
    x = x0 + d.text_width("TILES TO BUILD", 17, True) + 8  # the heading is the panel frame's
    d.text(draw, (x, y0 + 10), f"({len(tiles)}) with build costs" if tiles else "none", 15, d.MUTED, anchor="lm")
    chip_w = (x1 - x0 - (CHIP_COLS - 1) * CHIP_GAP) // CHIP_COLS
    for i, tile_id in enumerate(tiles):
        cx = x0 + (i % CHIP_COLS) * (chip_w + CHIP_GAP)
        cy = y0 + BUILD_HEAD + (i // CHIP_COLS) * (CHIP_H + CHIP_GAP)
        if tile_id not in comps.tiles:
            d.text_box(draw, (cx, cy, cx + chip_w, cy + CHIP_H), tile_id, 13, 11)
            continue
        d.paste(draw, _chip(tile_id, chip_w), (cx, cy))


@d.kept(maxsize=128)
def _chip(tile_id: str, width: int) -> d.Layer:
    """A tile to build: area-coloured, its name, its cost as counts and icons, and MARK if the cost is reconstructed.

    Drawn once per tile (of the bundled pack) and pasted.
    """
    tile = default().tiles[tile_id]
    _, draw = d.canvas(width, CHIP_H, d.PANEL)
    fill = d.AREA_FILL.get(tile.area, d.MUTED)
    draw.rectangle((0, 0, width - 1, CHIP_H - 1), fill=d.lighter(fill, 0.82), outline=fill, width=2)
    d.text_box(draw, (4, 2, width - 4, 29), tile.name, 13, 11, d.darker(fill, 0.55), bold=True)
    _chip_cost(draw, tile.cost, reconstructed(tile.provenance), (4, 29, width - 4, CHIP_H - 3))
    return d.layer(draw)


def _chip_cost(draw: d.Pen, cost: Mapping[str, int], marked: bool, box: Box) -> None:
    """A cost as 'count icon' pairs, centred; a group ('any raw') is its kind's icon in white."""
    x0, y0, x1, y1 = box
    parts = [(str(n), res) for res, n in cost.items() if n]
    widths = [d.text_width(n, 14, True) + 2 + 15 for n, _ in parts]
    mark_w = d.text_width(MARK, 18, True) if marked else 0
    gap = 5 if len(parts) < 3 else 2
    total = sum(widths) + gap * (len(parts) - 1) + mark_w
    x = (x0 + x1) / 2 - total / 2
    cy = (y0 + y1) / 2
    for (n, res), w in zip(parts, widths, strict=True):
        d.text(draw, (x, cy), n, 14, bold=True, anchor="lm")
        icon = ANY_ICON.get(res, res)
        d.resource_icon(draw, x + w - 7.5, cy, 7, icon, fill=(255, 255, 255) if res in ANY_ICON else None)
        x += w + gap
    if marked:
        d.text(draw, (x - 3, cy - 2), MARK, 18, d.INK, bold=True, anchor="lm")


# --- Legend --------------------------------------------------------------------------------------------


LEGEND_H = 118


@d.kept(maxsize=1)
def _legend() -> d.Layer:
    """Colour letters, piece shapes, resource icon shapes and what the outlines mean (drawn once)."""
    width = WIDTH - 2 * MARGIN
    _, draw = d.canvas(width + 1, LEGEND_H + 1)
    draw.rounded_rectangle((0, 0, width, LEGEND_H), radius=12, fill=d.PANEL, outline=d.GRID, width=2)
    x, ly = 14, 24
    x += d.text(draw, (x, ly), "Colours", 18, bold=True, anchor="lm") + 16
    for colour in COLOURS:
        x += d.colour_tag(draw, (x, ly - 11), colour, 15) + 6
        x += d.text(draw, (x, ly), d.COLOUR_NAME[colour], 17, anchor="lm") + 18
    x, ly = 14, 64
    d.keyple(draw, x + 12, ly, 32, "white")
    x += 30 + d.text(draw, (x + 30, ly), "standing", 17, anchor="lm") + 22
    d.keyple(draw, x + 16, ly + 2, 32, "white", lying=True)
    x += 38 + d.text(draw, (x + 38, ly), "lying", 17, anchor="lm") + 22
    d.keyper(draw, x + 12, ly, 34, 0, "A")
    x += 30 + d.text(draw, (x + 30, ly), "keyper", 17, anchor="lm") + 22
    draw.rectangle((x, ly - 12, x + 24, ly + 12), outline=d.HIGHLIGHT, width=4)
    x += 32 + d.text(draw, (x + 32, ly), "last action", 17, anchor="lm") + 22
    d.dashed_rectangle(draw, (x, ly - 12, x + 24, ly + 12), d.OFFER, width=3, dash=5)
    x += 32 + d.text(draw, (x + 32, ly), "joiner offer", 17, anchor="lm") + 22
    x += d.pill(draw, (x, ly), "UP", 13, (240, 190, 20), ink=d.INK, outline=d.INK, pad=5) + 8
    x += d.text(draw, (x, ly), "upgraded", 17, anchor="lm") + 26
    for res, label in (("clay", "raw"), ("brick", "finished"), ("wheat", "wheat"), ("pig", "animal"),
                       ("ruby", "gem")):
        d.resource_icon(draw, x + 10, ly, 10, res)
        x += 26 + d.text(draw, (x + 26, ly), label, 17, anchor="lm") + 20
    x, ly = 14, 98
    for res in ("clay", "brick", "ruby"):
        d.resource_icon(draw, x + 10, ly, 10, res, fill=(255, 255, 255))
        x += 24
    x += 4 + d.text(draw, (x + 4, ly), "any of that kind", 17, anchor="lm") + 26
    x += d.text(draw, (x, ly), MARK, 20, d.INK, bold=True, anchor="lm") + 8
    d.text(draw, (x, ly), d.ellipsize(_reconstructed_note(), 17, width - x - 14), 17, anchor="lm")
    return d.layer(draw)


def _reconstructed_note() -> str:
    """What the legend says about the data pack's reconstructed values, from their provenance."""
    comps = default()
    what = []
    if any(reconstructed(d_.provenance) for d_ in comps.displays):
        what.append("board layouts")
    colours = colour_sources(comps)
    if any(reconstructed(b.provenance) for b in comps.boats.values()):
        what.append("boat cargo")
    colours = colour_sources(comps)
    if colours != "field colours from the rulebook":
        what.append(colours.replace("field colours are reconstructed", "field colours").replace(" (rulebook)", ""))
    also = f" Also reconstructed: {', '.join(what)}." if what else ""
    return f"build cost reconstructed (not in any public source).{also}"
