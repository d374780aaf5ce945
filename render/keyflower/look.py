"""The Keyflower table's look: sizes, colours, the letters beside every colour, the words of phases."""

from __future__ import annotations

import math

from render import draw as d

RGB = d.RGB
Box = tuple[int, int, int, int]

WIDTH = 1440
MARGIN = 16
GAP = 14
INNER = WIDTH - 2 * MARGIN
PAD = 12
SQRT3 = math.sqrt(3)

AUCTION_R = 64  # an auction tile's hex: centre to corner, in pixels
VILLAGE_R = 72  # a village tile's hex
MIN_VILLAGE_R = 44
CELL_W = 230  # an auction cell: the hex with room for a bid chip on every edge
CELL_H = 184
PANEL_MIN_W = 440  # a player's panel
PANEL_HEAD_H = 48
INFO_ROW_H = 30
BOAT_CARD_H = 112

# --- Colours and letters ----------------------------------------------------------------------------------

KEYPLE_FILL: dict[str, RGB] = {
    "blue": (48, 116, 220),
    "red": (214, 48, 44),
    "yellow": (250, 208, 40),
    "green": (58, 158, 70),
    "purple": (124, 60, 178),
}
KEYPLE_LETTER = {"blue": "B", "red": "R", "yellow": "Y", "green": "G", "purple": "P"}
RESOURCE_FILL: dict[str, RGB] = {
    "gold": (246, 198, 28),
    "iron": (46, 46, 52),
    "stone": (158, 160, 166),
    "wood": (150, 96, 48),
}
RESOURCE_LETTER = {"gold": "G", "iron": "I", "stone": "S", "wood": "W"}
KIND_FILL: dict[str, RGB] = {
    "home": (236, 224, 200),
    "spring": (204, 232, 178),
    "summer": (250, 234, 164),
    "autumn": (244, 204, 166),
    "winter": (204, 224, 246),
    "summerboat": (188, 230, 236),
    "boat": (172, 212, 238),
    "order": (226, 212, 240),
    "celeste": (200, 208, 232),  # Key Celeste (module): a night-sky grey-blue
    "unknown": (225, 225, 225),
}
WILD_LETTER = {"sven": "S", "paulo": "P"}  # Keymelequin's wild keyples, drawn split in their pair's two colours
GHOST_FILL: RGB = (246, 246, 250)
ROAD: RGB = (206, 170, 118)
ROAD_EDGE: RGB = (110, 80, 46)
WATER: RGB = (48, 128, 210)
SEAT_FILL: RGB = (44, 46, 56)
SLOT_INK: RGB = (150, 144, 132)
TO_ACT_FILL: RGB = (255, 240, 248)
PHASE_LABEL = {
    "turns": "Turns: bid, use a tile or pass",
    "winter-choice": "Choosing winter tiles (in secret)",
    "boats": "End of season: boats are picked",
    "place": "End of season: villages grow",
    "over": "Game over",
}
ORDINAL = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}
