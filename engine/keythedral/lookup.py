"""Keythedral components described by name, for the rules lookup: law cards, terrains, cubes, craftsmen and pieces.

`describe(name)` answers a law card by key or title (`sale`, "Repeal Law", `law work-order`), a terrain
(`quarry`, `vineyards`), a cube by colour or material (`black`, `stone`, "purple cube"), a craftsman or town
figure (`blacksmith`, `forge`, `trader`, "law master") or a piece (`fence`, `house`, `cottage`),
case-insensitively with spaces, hyphens and underscores alike; anything else gives None, so the rules sections
of docs/rules/keythedral.md get their turn. Each description is Keywood's own wording in a sentence or two,
and cites the rule section or ruling; `more(name)` is the rules topic that reaches the full section (a topic this
module does not answer), which the bot offers with its own command. `names()` lists one spelling of each, for
autocomplete.

The law table (LAWS) is shared with engine/keythedral/texts.py, whose hand text reminds a player when each of
their cards can be played (ruling T-13).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from engine.keythedral.board import COLOURS
from engine.keythedral.components import COMPONENTS, CRAFTS, CRAFTSMAN_OF, CUBE_ORDER, MATERIAL, RESOURCES, TERRAINS
from engine.keythedral.legal import SALE_CRAFTSMEN, SALE_OFF
from engine.keythedral.supply import VALUE

DISCORD_SAFE = 1800


@dataclass(frozen=True)
class Law:
    """One law card as players meet it: number, key, title, when it may be played, what it does, an example."""

    number: int
    key: str
    title: str
    when: str
    effect: str
    example: str
    rulings: tuple[str, ...]

    @property
    def source(self) -> str:
        """'rules: Appendix, law card 9; ruling T-13, T-17'."""
        cited = f"; ruling {', '.join(self.rulings)}" if self.rulings else ""
        return f"rules: Appendix, law card {self.number}{cited}"

    @property
    def more(self) -> str:
        """The rules topic that reaches this card's section (its keyword 'TITLE card')."""
        return f"{self.title.lower()} card"


_LAW_TEXTS: dict[str, tuple[str, str, str, tuple[str, ...]]] = {  # key: when, effect, example arguments, rulings
    "work-order": (
        "at the start of phase 1",
        "You set the order of all five numbers for this round; who places first still rotates as usual (T-22).",
        "", ("T-13", "T-22")),
    "price-increase": (
        "when another player declares a seat purchase",
        "That seat costs one cube more, in a colour printed on it that the buyer picks. A buyer who cannot pay keeps "
        "the turn and the card stays under the tile for the next buyer (T-29).",
        "", ("T-13", "T-29")),
    "price-decrease": (
        "on your phase-3 turn",
        "A face-up seat costs one cube less; the buyer drops a printed colour, never gold. Unbought, the card waits "
        "under the tile for the next buyer.",
        "2.3", ("T-18",)),
    "upgrade-cottage": (
        "on your phase-3 turn",
        "One of your cottages becomes a house at no cost, unless another player's House Moratorium holds (T-21).",
        "4", ("T-18", "T-21")),
    "substitution": (
        "on your phase-3 turn, before you buy a seat",
        "For your purchase, other resource colours may pay for the printed resource cubes, and one craft cube for a "
        "printed craft cube of another kind (T-20).",
        "", ("T-18", "T-20")),
    "cottage-number": (
        "on your own placement in phase 1",
        "A cottage or house of yours whose number is still to come also works under the number just chosen, and sends "
        "nobody when its own number comes (T-28).",
        "4", ("T-28",)),
    "craft-bargain": (
        "at any time, out of turn too (not while an action is being carried out)",
        "Give the trader one resource cube and take one used craft cube of the colour you name from the store.",
        "black white", ("T-13",)),
    "unexpected-harvest": (
        "at the start of phase 2",
        "Name a terrain: this round your own workers there bring cubes of any resource colours you pick (T-23).",
        "woods", ("T-18", "T-23")),
    "broken-fences": (
        "at the start of phase 1 or at any moment during it, out of turn too",
        "The player you name (you too) places workers this round as if there were no fences (T-17).",
        "blue", ("T-13", "T-17")),
    "repeal": (
        "against the last law card another player played, until the next player starts their turn",
        "That card has no effect: discarded before it acts, or what it did is undone (T-15).",
        "", ("T-13", "T-15")),
    "unsafe-fence": (
        "at any time, out of turn too (not while an action is being carried out)",
        "Any one fence is taken out of the game, free; its owner does not get it back.",
        "M12+ M13", ("T-13",)),
    "house-moratorium": (
        "at the start of phase 1, 2 or 3, or at any moment of phase 1",
        "For the rest of the round nobody but you may build a house, Upgrade Cottage included (T-21).",
        "", ("T-13", "T-21")),
    "design-change": (
        "at any time, out of turn too, even against a declared purchase (not while an action is being carried out)",
        "A face-up seat is swapped for an unused tile of its stage drawn blind; a buyer stopped by it keeps the turn "
        "(T-16).",
        "2.3", ("T-13", "T-16")),
    "double-production": (
        "at the start of phase 2",
        "Your worker in the field you name brings two cubes instead of one; with Good Harvest, four (T-19).",
        "M13", ("T-18", "T-19")),
    "bargain": (
        "on your phase-3 turn",
        "Your trade with the trader, and so your action: he takes one resource cube and gives two resource cubes of "
        "any colours the store holds; your turn then ends (T-34).",
        "black", ("T-18", "T-27", "T-34")),
    "sale": (
        "on your phase-3 turn",
        "This turn gold costs 2 cubes instead of 4, or stained glass 1 instead of 3 (T-27).",
        "gold", ("T-18", "T-27")),
    "downgrade-house": (
        "on your phase-3 turn",
        "Any player's house turns back into a cottage (T-18).",
        "blue3", ("T-18",)),
    "good-harvest": (
        "at the start of phase 2",
        "Name a terrain: this round every worker there, everyone's, brings two cubes instead of one (T-19).",
        "farm", ("T-18", "T-19")),
    "poor-harvest": (
        "at the start of phase 2",
        "Name a terrain: this round nobody gets anything from it, whatever else is played (T-19).",
        "farm", ("T-18", "T-19")),
    "start-order": (
        "at the start of phase 1, 2, 3 or 5",
        "The player you name becomes start player until the next phase 5 chooses again.",
        "blue", ("T-13",)),
}
"""Keywood's words for each law card, by key: when it may be played, what it does, the arguments of its example
and the rulings it rests on."""

LAWS: tuple[Law, ...] = tuple(
    Law(card.number, card.key, card.title, when, effect, f"law {card.key} {args}".strip(), rulings)
    for card in COMPONENTS.laws for when, effect, args, rulings in [_LAW_TEXTS[card.key]])
"""The twenty law cards in card order (rules: Appendix); number, key and title from engine/keythedral/data/laws.toml."""

LAW_BY_KEY: dict[str, Law] = {law.key: law for law in LAWS}
LAW_BY_TITLE: dict[str, Law] = {law.title: law for law in LAWS}
SUPPLY: dict[str, int] = {**COMPONENTS.resource_supply, **COMPONENTS.craft_supply}
FIELD_COUNTS = Counter(tile.terrain for tile in COMPONENTS.fields)

_TERRAIN_TEXT = {  # the field tile's colour, and a note
    "quarry": ("grey", "two of them are number-1 fields beside the Keythedral"),
    "woods": ("brown", "two of them are number-1 fields beside the Keythedral"),
    "lake": ("blue", ""),
    "farm": ("green", ""),
    "vineyard": ("red", ""),
}
_PLURALS = {"quarry": "quarries", "woods": "woods", "lake": "lakes", "farm": "farms", "vineyard": "vineyards"}

_CUBE_USE = {
    "black": "Houses cost one, with a brown, and the early seats ask for stone.",
    "brown": "Houses cost one, with a black; so does each fence; the first three stages ask for timber.",
    "blue": "Seats of every stage ask for water.",
    "green": "Seats of every stage ask for food.",
    "red": "Two of them remove a fence, and later seats ask for wine.",
    "white": "Later seats ask for ironwork.",
    "purple": "The last stages ask for stained glass.",
    "yellow": "The last stages ask for gold; Price Decrease never drops a gold cube.",
}


@dataclass(frozen=True)
class Entry:
    """One thing describe() answers: its name for autocomplete, its text, the rules topic that says more (more), and
    the other names it goes by."""

    name: str
    text: str
    more: str
    aliases: tuple[str, ...] = ()


# --- The descriptions ----------------------------------------------------------------------------------------


def law_text(law: Law) -> str:
    """A law card: when it may be played, what it does, how to type it, where the rule is."""
    return (f"**{law.title}** (law card {law.number}): play it {law.when}. {law.effect}\n"
            f"Type: `{law.example}`. Source: {law.source}.")


def _terrain_text(terrain: str) -> str:
    """A terrain: its tile colour, how many there are, the cube it gives."""
    tile, note = _TERRAIN_TEXT[terrain]
    cube = TERRAINS[terrain]
    extra = f"; {note}" if note else ""
    return (f"**{terrain.capitalize()}** ({tile} field tile, {FIELD_COUNTS[terrain]} in the game{extra}): each worker "
            f"here brings one {cube} cube ({MATERIAL[cube]}) in phase 2, while the store has one.\n"
            "Source: rules: Contents; Phase two.")


def _cube_text(colour: str) -> str:
    """A cube colour: resource or craft, how many, where it comes from, what it is for, what it is worth."""
    if colour in RESOURCES:
        terrain = next(t for t, c in TERRAINS.items() if c == colour)
        origin = f"a resource cube harvested from {_PLURALS[terrain]}"
        worth = "Counts 1 in bids and in the tie-break."
        source = "rules: Contents; Phase two; The winner"
    else:
        smith = CRAFTSMAN_OF[colour]
        origin = f"a craft cube, sold by the {smith.name} for any {smith.price} cubes (`{smith.verb}`)"
        worth = f"Counts 1 in bids, {VALUE[colour]} in the tie-break."
        source = "rules: Contents; Phase three, action four; The winner"
    player = " Also a player colour." if colour in COLOURS else ""
    return (f"**{colour.capitalize()} cube** ({MATERIAL[colour]}): {origin}; {SUPPLY[colour]} in the game. "
            f"{_CUBE_USE[colour]} {worth}{player}\nSource: {source}.")


def _craftsman_text(colour: str) -> str:
    """A craftsman: what he sells, for how much, and how he restocks."""
    smith = CRAFTSMAN_OF[colour]
    sale = f" Sale makes it {smith.price - SALE_OFF}." if smith.verb in SALE_CRAFTSMEN else ""
    return (f"**{smith.name.capitalize()}** ({smith.place}): sells one {colour} cube ({MATERIAL[colour]}) for any "
            f"{smith.price} cubes, resource or craft: `{smith.verb}`.{sale} He starts with "
            f"{COMPONENTS.craft_supply[colour]}; once he has sold out, each purchase brings one used {colour} cube "
            "back to him from the store to sell, the rest staying there (T-11).\n"
            "Source: rules: Phase three, action four; ruling T-11, T-12.")


TRADER = ("**Trader**: takes any 2 cubes and gives 1 resource cube of your choice from the store: `trade`. "
          "With Bargain, 1 resource cube for 2, still your turn's trade (T-34); with Craft Bargain, 1 resource "
          "cube for a used craft cube.\n"
          "Source: rules: Phase three, action five; Appendix, law cards 7 and 15; ruling T-34.")
LAW_MASTER = ("**Law master** (chapter house): for any 1 cube he hands over the face-down card on a new-law space: "
              "`procure 1`, the buyer picking the space (T-26). Whoever procures takes no more turns in phase 3 "
              "that round.\n"
              "Source: rules: Phase three, action six; ruling T-26.")
FENCE = ("**Fence**: three per player for the whole game. For one brown cube it goes on the edge between a square "
         "holding a cottage or house (anyone's) and one of its fields, keeping that square's workers out of that "
         "field; two red cubes remove any fence for good. A cottage or house fenced off from all its fields is "
         "moved by its owner at once (T-9, T-10).\n"
         "Source: rules: Phase three, action three; ruling T-9, T-10.")
HOUSE = ("**House**: the back of a cottage tile, built for one black and one brown cube (`house 3`). When its "
         "number comes up it sends two workers into two different free fields it touches (T-8); fenced off, it "
         "moves and stays a house (T-10).\n"
         "Source: rules: Phase three, action two; ruling T-8, T-10.")
COTTAGE = ("**Cottage**: five per player, numbered 1 to 5, laid in set-up on empty squares touching a field (T-5). "
           "When its number is chosen in phase 1 it sends one worker into a free field it touches (T-8).\n"
           "Source: rules: Set up; Phase one; ruling T-5, T-8.")


# --- Names ---------------------------------------------------------------------------------------------------


def _key(name: str) -> str:
    """A name folded for matching: lower case, apostrophes dropped, spaces, hyphens and underscores alike."""
    folded = name.strip().lower().replace("'", "").replace("\u2019", "")
    return re.sub(r"[\s_\-]+", " ", folded)


@cache
def _entries() -> tuple[Entry, ...]:
    """Every component described, in the order names() lists them."""
    found = [Entry(law.title, law_text(law), law.more, (law.key, f"law {law.key}", f"law {law.title}"))
             for law in LAWS]
    found += [Entry(t, _terrain_text(t), "harvest", (_PLURALS[t],) + (("wood",) if t == "woods" else ()))
              for t in TERRAINS]
    for colour in CUBE_ORDER:
        aliases: tuple[str, ...] = (colour, f"{colour} cubes", MATERIAL[colour])
        if colour == "white":
            aliases += ("iron",)
        if colour == "purple":
            aliases += ("glass",)
        found.append(Entry(f"{colour} cube", _cube_text(colour), "harvest" if colour in RESOURCES else "craftsmen",
                           aliases))
    found += [Entry(CRAFTSMAN_OF[c].name, _craftsman_text(c), "craftsmen", _PLACES[c]) for c in CRAFTS]
    found += [Entry("trader", TRADER, "trade"), Entry("law master", LAW_MASTER, "procure", ("chapter house",)),
              Entry("fence", FENCE, "relocation", ("fences",)), Entry("house", HOUSE, "two workers", ("houses",)),
              Entry("cottage", COTTAGE, "lay cottage", ("cottages",))]
    return tuple(found)


_PLACES = {"white": ("smith", "forge"), "purple": ("glassworks",), "yellow": ("workshop",)}  # a craftsman's aliases


@cache
def _index() -> dict[str, Entry]:
    """Folded name or alias -> its entry."""
    index: dict[str, Entry] = {}
    for entry in _entries():
        for name in (entry.name, *entry.aliases):
            index.setdefault(_key(name), entry)
    return index


def names() -> list[str]:
    """Every component describe() answers, one spelling each, for the rules lookup's autocomplete."""
    return [entry.name for entry in _entries()]


def describe(name: str) -> str | None:
    """A component described for chat (under DISCORD_SAFE characters), or None when the name is no component."""
    entry = _index().get(_key(name))
    return None if entry is None else entry.text


def more(name: str) -> str | None:
    """The rules topic that says more about a component (a rules section answers it, describe does not), or None
    when the name is no component."""
    entry = _index().get(_key(name))
    return None if entry is None else entry.more


def law(name: str) -> Law | None:
    """A law card by key, title or number ('sale', 'Repeal Law', '10'); None when there is none."""
    folded = _key(name)
    for card in LAWS:
        if folded in (_key(card.key), _key(card.title), str(card.number)):
            return card
    return None
