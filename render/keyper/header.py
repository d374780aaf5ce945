"""The Keyper table's status banner (season, turn, phase, whom play waits for, the last action, an open offer,
payment or yield) and the space outlined as the last action."""

from __future__ import annotations

from engine.keyper.components import default
from engine.keyper.spaces import PLOT_IDS
from engine.keyper.view import KeyperView
from render import draw as d
from render.keyper.layout import MARGIN, WIDTH
from render.keyper.parts import name

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

Mark = tuple[int | None, str, int | None]  # (board number or None for a plot, space id, plot's seat or None)


def last_space(view: KeyperView) -> Mark | None:
    """The space of the last placement the view reports, outlined by default (None if it names no space)."""
    try:
        return parse_highlight(view, view["last_space"] or None)
    except ValueError:
        return None


def parse_highlight(view: KeyperView, highlight: str | None) -> Mark | None:
    """(board number or None for a plot, space id, the plot's seat or None for the active seat): '2.pig', 'v3' or
    'v3@1' (seat 1's plot v3); raises ValueError if no such space."""
    if highlight is None:
        return None
    if "." in highlight:
        number, _, field_id = highlight.partition(".")
        boards = {b["number"]: b for b in view["boards"]}
        if not number.isdigit() or int(number) not in boards:
            raise ValueError(f"highlight '{highlight}' names no board in play")
        if field_id not in {f.id for f in default().display(boards[int(number)]["display"]).fields}:
            raise ValueError(f"highlight '{highlight}' names no field of board {number}")
        return int(number), field_id, None
    plot, _, owner = highlight.partition("@")
    if plot in PLOT_IDS and (not owner or owner.isdigit() and int(owner) < len(view["players"])):
        return None, plot, int(owner) if owner else None
    raise ValueError(f"highlight '{highlight}' is neither a field like '2.pig' nor a plot like 'v3'")


def header(draw: d.Pen, view: KeyperView, y: int) -> None:
    """Season, turn, phase and whom we wait for; the last action; the open joiner offer, payment or yield."""
    season = view["season_name"]
    x = MARGIN + 14
    x += d.pill(draw, (x, y + 26), season.upper(), 28, d.SEASON_FILL[season], pad=12) + 12
    x += d.pill(draw, (x, y + 26), f"Turn {view['turn']}", 22, d.INK, pad=10) + 12
    x += d.pill(draw, (x, y + 26), PHASE_LABEL[view["phase"]], 22, d.lighter(d.INK, 0.85), pad=10) + 16
    waiting = view["waiting_for"]
    waiting = waiting[:1].upper() + waiting[1:]
    right = WIDTH - MARGIN - 14
    tiles = f"Bag: {view['bag']} tiles"
    d.text(draw, (right, y + 26), tiles, 20, d.MUTED, anchor="rm")
    right -= d.text_width(tiles, 20) + 20
    d.text(draw, (x, y + 26), d.ellipsize(waiting, 24, right - x, bold=True), 24, d.INK, bold=True, anchor="lm")
    ly = y + 68
    last = view["last_action"]
    if last:
        d.pill(draw, (MARGIN + 150, ly), d.ellipsize(last, 22, WIDTH - 2 * MARGIN - 200), 22, (255, 230, 244),
               ink=d.INK, outline=d.HIGHLIGHT, pad=10)
    else:
        d.text(draw, (MARGIN + 156, ly), "none yet", 22, d.MUTED, anchor="lm")
    _open_matter(draw, view, y + 108)


def _open_matter(draw: d.Pen, view: KeyperView, oy: int) -> None:
    """The banner's third line: the open joiner offer, else the payment under way, else the yield being taken."""
    offer, pay = view["offer"], view["payment"]
    x = MARGIN + 16
    if offer:
        asked = offer["candidates"][offer["index"]:]
        names = [name(view, s) for s in asked]
        queue = f", then {', '.join(names[1:])}" if len(names) > 1 else ""
        colour = offer["colour"]
        x += d.text(draw, (x, oy), "Joiner offer:", 22, d.OFFER, bold=True, anchor="lm") + 10
        x += d.colour_tag(draw, (x, oy - 10), colour, 14) + 8
        line = f"{colour} keyples may join {offer['board']}.{offer['field']} - asking {names[0] if names else '?'}"
        d.text(draw, (x, oy), line + queue, 22, d.INK, anchor="lm")
    elif pay:
        tile = default().tiles.get(pay["tile"] or "")
        what = f"{pay['effect']} of {tile.name}" if tile else pay["effect"]
        items = ", ".join(pay["items"]) or "nothing"
        line = f"{name(view, pay['seat'])} pays for the {what} on {pay['plot']}; still to pay: {items}"
        x += d.text(draw, (x, oy), "Payment:", 22, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x, oy), d.ellipsize(line, 22, WIDTH - MARGIN - 16 - x), 22, d.INK, anchor="lm")
    elif view["steps"]:
        step = view["steps"][0]
        line = f"{name(view, step['seat'])} chooses {' / '.join(step['options'])} ({step['source']})"
        more = len(view["steps"]) - 1
        if more:
            line += f"; {more} more unit{'s' if more > 1 else ''} to take"
        x += d.text(draw, (x, oy), "Yield:", 22, d.OFFER, bold=True, anchor="lm") + 10
        d.text(draw, (x, oy), d.ellipsize(line, 22, WIDTH - MARGIN - 16 - x), 22, d.INK, anchor="lm")
