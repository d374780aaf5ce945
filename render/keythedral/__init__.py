"""The Keythedral table as a PNG: a pure function of the engine's public view (engine.keythedral.view.KView).

``render(view)`` draws a header (round, phase, whom we wait for, start player), the field lattice (octagonal
fields, the Keythedral square, cottages and houses as diamonds, fences, workers), the Keythedral mat with the
work-order track, the Keytown mat, one row per player and a legend; ``render_scoreboard(scoreboard)`` draws the
score breakdown; ``pictures()`` makes a drawer of a run of views in order (the replay export's), each image as
picture draws it, redrawing only the panels whose part of the view changed. Only keys of the public view are read,
each by name (a key missing from the view is an error, never a default); ``render`` refuses a private view with
``ValueError``. What stands behind a player's screen (cubes, seats, points: ruling T-1) is drawn only when the
view shows it (the open_screens table option, or the game over); otherwise the row shows a closed screen, and a mat
space whose tile was taken shows only that it is taken.

The parts: render.keythedral.parts (measures, colours, letters, small pieces), .lattice (the fields), .mats (the
Keythedral and Keytown mats), .panels (header, players, legend), .sequence (the drawer of runs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, cast

from PIL import Image

from engine.core import Scoreboard
from engine.keythedral.board import COLOURS
from engine.keythedral.view import KView
from render import draw as d
from render.keythedral.lattice import (
    MAX_LATTICE_H,
    Board,
    board_of,
    lattice,
    open_fields,
    open_squares,
    squares_labelled,
)
from render.keythedral.mats import MAT_H, TOWN_H, keythedral_mat, keytown_mat
from render.keythedral.panels import header, header_height, legend, players, players_frame, players_height
from render.keythedral.parts import (
    COLUMN_W,
    CUBE_FILL,
    GAP,
    INNER,
    KEYTHEDRAL_FILL,
    LATTICE_W,
    MARGIN,
    PLAYER_FILL,
    RGB,
    TERRAIN_FILL,
    WIDTH,
    Box,
    field_label,
    parse_label,
    player_fill,
    tag,
)

__all__ = ["CUBE_FILL", "KEYTHEDRAL_FILL", "LATTICE_W", "MAX_LATTICE_H", "PLAYER_FILL", "TERRAIN_FILL", "WIDTH",
           "Board", "Layout", "check_public", "field_label", "layout", "parse_label", "picture", "pictures", "render",
           "render_scoreboard", "squares_labelled"]

_board = board_of  # the names the render tests read
_open_fields = open_fields
_open_squares = open_squares


def check_public(view: Mapping[str, Any]) -> None:
    """Raise ValueError unless view is the public view: no viewer and no seat's law cards."""
    if view["viewer"] is not None:
        raise ValueError(f"render needs the public view, not seat {view['viewer']}'s view")
    if "laws" in view:
        raise ValueError("render needs the public view: this one shows a seat's law cards")


def render(public_view: Mapping[str, Any]) -> bytes:
    """The table as PNG bytes. Raises ValueError on a private view, KeyError on a view missing a key."""
    return d.to_png(picture(public_view))


def picture(public_view: Mapping[str, Any]) -> Image.Image:
    """The table as a palette image, not encoded (the export packs it itself); raises as render does."""
    check_public(public_view)
    view = cast(KView, public_view)
    place = layout(view)
    _, draw = d.start(_table(*place))
    for name in PANELS:
        panel(draw, place, name, view)
    return d.finished(draw)


def pictures() -> Callable[[Mapping[str, Any]], d.Drawn]:
    """A new drawer of a run of public views in order (render.keythedral.sequence.Pictures): each image as picture
    draws it, redrawing only the panels whose part of the view changed; raises as render does."""
    from render.keythedral.sequence import Pictures  # it draws with this module's parts

    return Pictures()


class Layout(NamedTuple):
    """The heights of the table's rows and whether the mats stand beside the lattice (else below it): _table's key."""

    header_h: int
    side: bool
    lattice_h: int
    middle_h: int
    players_h: int

    def frames(self) -> dict[str, Box]:
        """Each panel's frame, corners included, as its drawing takes it (a mat's: its layer's)."""
        header_h, side, lattice_h, middle_h, players_h = self
        y = MARGIN + header_h + GAP
        if side:
            x = MARGIN + LATTICE_W + GAP
            mats = [(x, y), (x, y + MAT_H + GAP)]
        else:
            x = MARGIN + (INNER - 2 * COLUMN_W - GAP) // 2
            mats = [(x, y + lattice_h + GAP), (x + COLUMN_W + GAP, y + lattice_h + GAP)]
        below = y + middle_h + GAP
        return {"header": (MARGIN, MARGIN, WIDTH - MARGIN, MARGIN + header_h),
                "lattice": (MARGIN, y, MARGIN + (LATTICE_W if side else INNER), y + lattice_h),
                "keythedral_mat": (*mats[0], mats[0][0] + COLUMN_W - 1, mats[0][1] + MAT_H - 1),
                "keytown_mat": (*mats[1], mats[1][0] + COLUMN_W - 1, mats[1][1] + TOWN_H - 1),
                "players": (MARGIN, below, WIDTH - MARGIN, below + players_h)}


def layout(view: KView) -> Layout:
    """Where the view's table puts its panels (the lattice's crop decides whether the mats go beside it)."""
    board = board_of(view)
    side = board.side
    lattice_h = max(board.height, MAT_H + GAP + TOWN_H) if side else board.height
    middle_h = lattice_h if side else lattice_h + GAP + max(MAT_H, TOWN_H)
    return Layout(header_height(view), side, lattice_h, middle_h, players_height(view))


PANELS = ("keythedral_mat", "keytown_mat", "header", "lattice", "players")  # the order they are drawn in
MATS: dict[str, Callable[[KView, d.Palette], d.Layer]] = {"keythedral_mat": keythedral_mat,
                                                          "keytown_mat": keytown_mat}


def panel(draw: d.Pen, place: Layout, name: str, public_view: Mapping[str, Any]) -> None:
    """One of PANELS drawn from the view over the base's pixels in its frame, and nowhere else (a mat is drawn with
    the table's palette and pasted as it is)."""
    view = cast(KView, public_view)
    frame = place.frames()[name]
    if name in MATS:
        d.paste(draw, MATS[name](view, draw.colours), frame[:2])
    elif name == "header":
        header(draw, view, frame)
    elif name == "lattice":
        lattice(draw, view, board_of(view), frame)
    else:
        players(draw, view, frame)


@d.kept(maxsize=8)
def _table(header_h: int, side: bool, lattice_h: int, middle_h: int, players_h: int) -> d.Base:
    """Everything drawn the same on every table of this layout: the background, the lattice's panel, the player
    table's panel and column titles, the legend. Drawn once per layout; render draws the rest on a copy."""
    key = legend()
    height = MARGIN + header_h + GAP + middle_h + GAP + players_h + GAP + key.height + MARGIN
    _, draw = d.canvas(WIDTH, height)
    y = MARGIN + header_h + GAP
    draw.rounded_rectangle((MARGIN, y, MARGIN + (LATTICE_W if side else INNER), y + lattice_h), radius=14,
                           fill=d.PANEL, outline=d.GRID, width=2)
    y += middle_h + GAP
    players_frame(draw, (MARGIN, y, WIDTH - MARGIN, y + players_h))
    y += players_h + GAP
    d.paste(draw, key, (MARGIN, y))
    return d.base(draw)


def render_scoreboard(scoreboard: Scoreboard) -> bytes:
    """The scoreboard as PNG bytes: players best first, each with its colour letter, score lines and total."""
    return d.scoreboard_png(scoreboard, lambda seat: player_fill(COLOURS[seat]), _score_badge)


def _score_badge(draw: d.Pen, xy: tuple[float, float], seat: int, ink: RGB) -> None:
    """The colour letter before a name on the scoreboard."""
    tag(draw, xy, COLOURS[seat], 20, outline=ink)
