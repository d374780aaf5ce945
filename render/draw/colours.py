"""The palette every table is drawn in: background, ink and highlight colours, Keyper's keyple, resource, area and
season colours, the fixed player colours by seat, and shades of a colour."""

from __future__ import annotations

RGB = tuple[int, int, int]

BACKGROUND: RGB = (246, 241, 230)
PANEL: RGB = (255, 252, 245)
INK: RGB = (28, 28, 30)
MUTED: RGB = (112, 108, 100)
FAINT: RGB = (200, 194, 182)
GRID: RGB = (150, 144, 132)
HIGHLIGHT: RGB = (226, 0, 122)  # magenta: the last action's space, distinct from every keyple and player colour
OFFER: RGB = (0, 102, 204)
WATER: RGB = (120, 178, 222)
WATER_DARK: RGB = (62, 120, 176)
HULL: RGB = (122, 78, 44)

# Keyple and field-border colours, with the letter printed on them for colour-blind players.
KEYPLE_FILL: dict[str, RGB] = {
    "blue": (126, 200, 240),  # light-blue boat people
    "orange": (244, 137, 36),
    "green": (146, 208, 96),  # light-green farmers
    "brown": (132, 84, 44),
    "black": (30, 30, 30),
    "grey": (150, 150, 150),
    "white": (255, 255, 255),  # generalists
}
COLOUR_LETTER: dict[str, str] = {
    "blue": "B",
    "orange": "O",
    "green": "G",
    "brown": "Br",
    "black": "K",
    "grey": "Gy",
    "white": "W",
}
COLOUR_NAME: dict[str, str] = {
    "blue": "light blue (boat people)",
    "orange": "orange",
    "green": "light green (farmers)",
    "brown": "brown",
    "black": "black",
    "grey": "grey",
    "white": "white (generalists)",
}

# Four fixed player colours by seat, chosen away from every keyple colour.
PLAYER_FILL: tuple[RGB, ...] = ((200, 30, 45), (246, 196, 0), (120, 70, 180), (0, 128, 128))
PLAYER_NAME: tuple[str, ...] = ("red", "yellow", "purple", "teal")

RESOURCE_FILL: dict[str, RGB] = {
    "clay": (214, 110, 50),
    "log": (120, 78, 40),
    "rock": (140, 140, 140),
    "brick": (170, 50, 40),
    "wood": (206, 164, 100),
    "stone": (84, 100, 118),
    "wheat": (234, 196, 60),
    "chicken": (250, 250, 245),
    "cow": (60, 60, 60),
    "deer": (176, 100, 50),
    "goat": (216, 204, 166),
    "horse": (100, 60, 30),
    "pig": (244, 160, 180),
    "sheep": (236, 236, 220),
    "boar": (80, 60, 50),
    "emerald": (40, 190, 100),
    "gold": (240, 190, 20),
    "ruby": (200, 30, 60),
    "sapphire": (40, 80, 200),
}
AREA_FILL: dict[str, RGB] = {"farm": (96, 150, 60), "village": (170, 80, 60)}
SEASON_FILL: dict[str, RGB] = {
    "spring": (96, 170, 80),
    "summer": (226, 160, 20),
    "autumn": (190, 90, 40),
    "winter": (80, 130, 190),
}


def player_fill(seat: int) -> RGB:
    """The fixed colour of a seat."""
    return PLAYER_FILL[seat % len(PLAYER_FILL)]


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on a fill."""
    r, g, b = fill
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (255, 255, 255)


def darker(fill: RGB, factor: float = 0.6) -> RGB:
    """A darker shade of a colour."""
    return (int(fill[0] * factor), int(fill[1] * factor), int(fill[2] * factor))


def lighter(fill: RGB, amount: float = 0.6) -> RGB:
    """A colour mixed towards white."""
    return (
        int(fill[0] + (255 - fill[0]) * amount),
        int(fill[1] + (255 - fill[1]) * amount),
        int(fill[2] + (255 - fill[2]) * amount),
    )
