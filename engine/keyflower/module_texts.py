"""The pieces of Keyflower's two modules described for the rules lookup: Sven and Paulo (the Keymelequin's wild
keyples), the Keymelequin boat, Key Celeste and its ghost (module sheet; rulings F-27 to F-44); each with the rules
topic that says more (`MORE`)."""

from __future__ import annotations

from engine.keyflower.component_texts import load_text
from engine.keyflower.components import COMPONENTS
from engine.keyflower.village import SEA_BREESE_MAX
from engine.keyflower.wording import MARK, edges_text, plural

MORE = {"sven": "sven and paulo", "paulo": "sven and paulo", "keymelequin": "keymelequin: the boat",
        "key-celeste": "key celeste at the end", "ghost": "playing the ghost"}  # piece -> the rules topic on it


def wild_text(name: str) -> str:
    """Sven or Paulo, the Keymelequin's wild keyples."""
    if name == "sven":
        head = ("**Sven** (Keymelequin module): one wild keyple, blue or yellow as needed (the sheet's ♣ is any of "
                "his pair: a blue, a yellow or Sven, F-27). He comes aboard the Keymelequin in spring.")
        pays = "the yellow the Peddler asks for, the blue of the Store or the Tavern's worker of any colour"
        colours, other = "blue or yellow", "Paulo"
    else:
        head = ("**Paulo** (Keymelequin module): one wild keyple, green or red as needed (the sheet's ♠ is any of "
                "his pair: a green, a red or Paulo, F-27). He is out of play until the Keymelequin is turned over "
                "for summer, and comes aboard then.")
        pays = "the red the Fair asks for or the Tavern's worker of any colour"
        colours, other = "green or red", "Sven"
    lines = [head,
             f"Keyples in the same bid as him, or used on the same tile (before or after him, by anyone), may count "
             f"as {colours} too; bids beside a tile are not on it (F-28). A tile's colour may stay open between "
             f"the two (F-29). He shares no standing group with {other} (F-29). Summer boat 4a may lay him flat in "
             "a counter-bid that counts as one colour, 4b in a use of any keyples (F-30).",
             f"He may be paid as {pays}; the payer chooses (F-31). In a winning bid he goes into the bag, used on a "
             "tile to its owner; hidden in the bag or behind a screen like any keyple (F-32).",
             f"At the end he scores as a worker, and keyples assigned to the same winter tile may count as "
             f"{colours} (F-36).",
             "Source: reference §10.1 (module sheet); ruling F-27, F-28, F-29, F-30, F-31, F-32, F-36."]
    return "\n".join(lines)


def keymelequin_text() -> str:
    """The Keymelequin boat: what it replaces, its loads (reconstructed), the autumn replacement."""
    boat = COMPONENTS.keymelequin
    mark = f" {MARK}" if boat.provenance == "reconstructed" else ""
    lines = ["**Keymelequin** (`keymelequin`, module boat): takes the place of the boat named when the game is set up "
             "(`keymelequin=BOAT`, a boat in play at that number of players; F-35).",
             f"Load, from the bag and the pile in plain view: spring face {load_text(boat.workers_a, boat.skills_a)}"
             f"{mark} with Sven on top; summer face (turned over) {load_text(boat.workers_b, boat.skills_b)}{mark} "
             "with Paulo on top (F-5, F-33). Its taker "
             "gets the wild keyple with the load.",
             "At the end of summer its taker names a boat not in the game, the replaced one or one unused at this "
             "number of players (`replace BOAT`); that boat is loaded in autumn and taken in winter, scoring by "
             "its own winter face (F-34).",
             "The Keymelequin never joins a village and never scores.",
             "Source: reference §10.1 (module sheet); ruling F-2, F-33, F-34, F-35."]
    return "\n".join(lines)


def celeste_text() -> str:
    """The Key Celeste tile: bidding, what its winner takes, its points, its sides (reconstructed)."""
    tile = COMPONENTS.key_celeste
    points, ghost, roads, water = tile.points, tile.ghost_points, tile.roads, tile.water
    mark = f" {MARK}" if tile.provenance == "reconstructed" else ""
    lines = ["**Key Celeste** (`key-celeste`, module tile): beside the highest turn-order tile in use, bid for like "
             "a turn-order tile (`bid key-celeste red`, `count 2`) but never used and giving no place in the boat "
             "order; settled last of all, once the turn-order tiles are dealt with and every boat is picked, its "
             "winning bid standing beside it until then (F-41).",
             "In spring, summer and autumn its winner takes the ghost; in winter the tile itself.",
             f"In a village: {plural(points, 'point')}, {ghost} more with the ghost. The purple keyple may stand "
             f"in for the ghost, or add a further {ghost} beside it, and then counts as nothing else (F-20, F-42). "
             f"For Sea Breese it counts as a boat; the river still scores at most {SEA_BREESE_MAX} (F-42).",
             f"Sides, upright: water {edges_text(water)}; roads {edges_text(roads)}{mark} (F-2, F-42).",
             "Source: reference §10.2 (module sheet); ruling F-2, F-20, F-41, F-42."]
    return "\n".join(lines)


def ghost_text() -> str:
    """Key Celeste's ghost: who holds it, where it may be played, what it does."""
    lines = ["**Ghost** (Key Celeste module): an oversized grey figure, never a worker and never in the bag. It "
             "starts on Key Celeste; the season's winner of Key Celeste takes it, and everyone sees who holds it "
             "(F-38, F-41).",
             "In summer, autumn or winter, as a whole turn (`ghost LOC`), its holder puts it in place of another "
             "player's winning bid for a tile up for auction; not on a turn-order tile, Key Celeste or one's own "
             "bid (F-39). The replaced workers go behind the ghost player's screen; the tile still goes to the "
             "replaced bidder, with the workers used on it; nobody may bid, use or move there afterwards (F-40).",
             "It goes back to Key Celeste at the end of summer and autumn. Played in winter it leaves the game; "
             "kept, it scores only with Key Celeste won in winter (F-43). It never pays or scores as a worker.",
             "Source: reference §10.2 (module sheet); ruling F-38, F-39, F-40, F-41, F-43."]
    return "\n".join(lines)
