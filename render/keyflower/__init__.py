"""The Keyflower table as a PNG: a pure function of the engine's public view.

``render(view)`` draws a header (season, phase, whom we wait for, the start player with the purple keyple, the
supplies), the season's tiles up for auction and the turn-order tiles with every bid on its bidder's edge and the
workers using them, the boats with their loads and takers, one panel per player (public counts, tiles won and
still to place, the village as flat-topped hexes with roads, water, resources and workers) and a legend;
``render_scoreboard(scoreboard)`` draws the score breakdown. Only keys of the public view
(engine.keyflower.view.KfView) are read, by plain subscripts, with the component data for names, effects and edges;
``render`` refuses a seat's view with ``ValueError``, and a view missing a key with ``KeyError``.

With the modules (the view's ``modules``): Sven and Paulo are keyples split in their pair's colours (blue|yellow
S, green|red P) wherever keyples are drawn, a group bid or use one pill a kind; the Keymelequin's card says who is
aboard, its load and the boat it replaced; Key Celeste stands beside the highest turn-order tile with its bids,
its face and the ghost (on the tile, at its holder's disc, or played beside a tile in the place of the bid it
replaced), a line on where the ghost is, a GHOST badge on its holder's panel; Key Celeste in a village is a hex
like any other. Figures resting on Keywood's own values are marked '*' (F-2): the Keymelequin's load, Key
Celeste's sides.

Every colour has a letter beside it for colour-blind players: keyples B R Y G (purple P, the start player),
resources G I S W (gold, iron, stone, wood); players are numbered discs, never colours.

The package's rooms: look (sizes, colours, letters), reading (the view and the pieces' facts), chips (discs, pills,
chips, icons), hexes, auction (header and auction panel), boats, players, legend, and table (the whole image).
"""

from render.keyflower.chips import pill_look as _pill_look
from render.keyflower.chips import worker_pill_width as _worker_pill_width
from render.keyflower.hexes import _hex_face as _hex_face
from render.keyflower.legend import _legend_keys as _legend_keys
from render.keyflower.look import KEYPLE_FILL, KIND_FILL, RESOURCE_FILL, WIDTH
from render.keyflower.players import open_slots as _open_slots
from render.keyflower.reading import check_public
from render.keyflower.reading import edge_of as _edge_of
from render.keyflower.reading import parts_of as _parts
from render.keyflower.reading import sides_of as _sides
from render.keyflower.reading import village_of as _village
from render.keyflower.table import picture, render, render_scoreboard

__all__ = ["KEYPLE_FILL", "KIND_FILL", "RESOURCE_FILL", "WIDTH", "_edge_of", "_hex_face", "_legend_keys", "_open_slots",
           "_parts", "_pill_look", "_sides", "_village", "_worker_pill_width", "check_public", "picture",
           "render", "render_scoreboard"]
