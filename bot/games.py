"""The game registry: the one place in bot/ that names the games Keywood can referee.

Each entry gives a game's id and title, its engine, its options as a typed schema, its rules document and
rulings, its renderer (table image, scoreboard image) and its texts. The table, the terminal, the CLI and the
Discord commands read it and name no game themselves. Adding a game is one `register` call here (tests may
register more).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING, Any

from bot.clocks import CONSEQUENCES
from engine.core import JSON, Game, Scoreboard

if TYPE_CHECKING:
    from PIL import Image

    from render.draw.sequel import Drawn

RULEBOOK = files("bot.rulebook")  # the rules documents, shipped inside the package


class OptionError(ValueError):
    """An option value the schema refuses; the message names the option and what it accepts."""


@dataclass(frozen=True)
class Option:
    """One option of a table: its name, type (int, bool or str), default, allowed range or values, and meaning.

    local: only a table whose players sit at it chooses this (the terminal's `keywood play --seed`); Discord's /new
    does not offer it, and refuses it.
    """

    name: str
    type: type
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    local: bool = False

    def read(self, value: Any) -> Any:
        """The value as this option's type; raises OptionError when it is of the wrong kind or out of range."""
        if self.type is bool:
            return _read_bool(self.name, value)
        if self.type is int:
            return _read_int(self, value)
        text = str(value)
        if self.choices and text not in self.choices:
            raise OptionError(f"{self.name} must be one of {', '.join(self.choices)}, not '{text}'.")
        return text

    def summary(self) -> str:
        """'name (1-4, default 4): what it does'."""
        limits = f"{self.min}-{self.max}, " if self.min is not None and self.max is not None else ""
        allowed = f"{'/'.join(self.choices)}, " if self.choices else ""
        return f"{self.name} ({limits}{allowed}default {self.default}): {self.description}"


def _read_bool(name: str, value: Any) -> bool:
    """A yes/no option; raises OptionError for anything else."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise OptionError(f"{name} must be yes or no, not '{value}'.")


def _read_int(option: Option, value: Any) -> int:
    """A whole-number option within its range; raises OptionError otherwise."""
    if isinstance(value, bool):
        raise OptionError(f"{option.name} must be a whole number, not '{value}'.")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise OptionError(f"{option.name} must be a whole number, not '{value}'.") from None
    if option.min is not None and number < option.min:
        raise OptionError(f"{option.name} must be at least {option.min}.")
    if option.max is not None and number > option.max:
        raise OptionError(f"{option.name} must be at most {option.max}.")
    return number


@dataclass(frozen=True)
class Texts:
    """How a game's views read as chat text.

    board: the public table; hand: one seat's private view. Optional: choices, a readable summary of a seat's
    choices when they are too many to list (the seat's view, the seat, the legal actions' notations); lookup, a
    component (tile, card...) described by name, for `rules NAME` (None when the name is no component); names,
    the component names lookup knows, for autocomplete; more, the rules topic that says more about a component
    (None where lookup's text says it all). examples, components and hand_words fill the help:
    a few actions in notation, what `rules NAME` describes, and what a seat's hand holds.
    """

    board: Callable[[JSON], str]
    hand: Callable[[JSON, int], str]
    examples: str = "see `rules notation`"
    components: str = "a component by name"
    hand_words: str = "what is yours alone"
    choices: Callable[[JSON, int, list[str]], str] | None = None
    lookup: Callable[[str], str | None] | None = None
    names: Callable[[], list[str]] | None = None
    more: Callable[[str], str | None] | None = None


@dataclass(frozen=True)
class GameEntry:
    """Everything Keywood needs to offer one game.

    chapter (optional): the part of the game a public view is in, as a short label ('Spring', 'Round 3'); a
    replay offers a jump to the first step of each.
    """

    id: str
    title: str
    engine: Game[Any, Any]
    texts: Texts
    rules: Traversable
    rulings: Traversable | None = None
    options: tuple[Option, ...] = ()
    render: Callable[[JSON], bytes] | None = None
    picture: Callable[[JSON], Image.Image] | None = None  # render's image before it is encoded (for the export)
    pictures: Callable[[], Callable[[JSON], Drawn]] | None = None  # makes drawers of views in order (the export)
    render_scoreboard: Callable[[Scoreboard], bytes] | None = None
    blurb: str = ""
    chapter: Callable[[JSON], str] | None = None
    table_options: tuple[Option, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "table_options", _table_options(self.engine))

    @property
    def min_players(self) -> int:
        """The fewest players the game allows."""
        return self.engine.min_players

    @property
    def max_players(self) -> int:
        """The most players the game allows."""
        return self.engine.max_players

    def all_options(self) -> tuple[Option, ...]:
        """The table's options (players, deadlines, clock, the terminal's seed) followed by the game's own."""
        return self.table_options + self.options

    def read_options(self, raw: Mapping[str, Any], base: Mapping[str, Any]) -> dict[str, Any]:
        """Every option's value: raw over base over the schema's defaults; raises OptionError on a bad one."""
        schema = {o.name: o for o in self.all_options()}
        unknown = sorted(set(raw) - set(schema))
        if unknown:
            known = ", ".join(schema)
            raise OptionError(f"{self.title} has no option {', '.join(unknown)}. Options: {known}.")
        values = {name: option.read(raw.get(name, base.get(name, option.default)))
                  for name, option in schema.items() if name in raw or name in base or option.default is not None}
        if values["min_players"] > values["max_players"]:
            raise OptionError(f"min_players ({values['min_players']}) is more than max_players "
                              f"({values['max_players']}).")
        return values

    def engine_options(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The options meant for the engine (the game's own), from a table's stored options."""
        return {o.name: values[o.name] for o in self.options if o.name in values}


def _table_options(engine: Game[Any, Any]) -> tuple[Option, ...]:
    """The options every game's table has, with this engine's player counts."""
    low, high = engine.min_players, engine.max_players
    return (
        Option("min_players", int, low, "Fewest players to start", low, high),
        Option("max_players", int, high, "Most players at the table", low, high),
        Option("seed", int, None, "The random seed, for a chosen deal (terminal only: it is secret on Discord)",
               -(2**63), 2**63 - 1, local=True),
        Option("decision_minutes", int, 720, "Minutes to answer a decision outside one's turn", 1, 60 * 24 * 14),
        Option("reminder_hours", int, 24, "Hours before a reminder to whoever must act", 1, 24 * 14),
        Option("computers", int, 0, "Seats played by Keywood's stand-in, after the people", 0, high - 1),
        Option("clock_hours", int, 0, "Hours each player has for a decision (0: no clock)", 0, 24 * 14),
        Option("on_timeout", str, "standin", "When a player's clock runs out: standin plays that decision, sub "
               "offers the seat to a volunteer, host asks the host", choices=CONSEQUENCES),
        Option("away_hours", int, 72, "Hours in all each player may pause their own clock with away", 0, 24 * 30),
    )


_REGISTRY: dict[str, GameEntry] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game; raises ValueError for a taken id or an option clashing with another game's of the same name."""
    if entry.id in _REGISTRY:
        raise ValueError(f"a game '{entry.id}' is already registered")
    for other in _REGISTRY.values():
        for mine in entry.options:
            theirs = next((o for o in other.options if o.name == mine.name), None)
            if theirs is not None and theirs.type is not mine.type:
                raise ValueError(f"option '{mine.name}' of {entry.id} clashes with {other.id}'s")
    _REGISTRY[entry.id] = entry
    return entry


def unregister(game_id: str) -> None:
    """Remove a game (tests register their own and take them away again)."""
    _REGISTRY.pop(game_id, None)


def get(game_id: str) -> GameEntry:
    """A registered game by id; raises KeyError naming the games there are."""
    try:
        return _REGISTRY[game_id]
    except KeyError:
        raise KeyError(f"Keywood does not know the game '{game_id}'. Games: {', '.join(_REGISTRY)}.") from None


def all_games() -> list[GameEntry]:
    """Every registered game, the default first."""
    return list(_REGISTRY.values())


def default() -> GameEntry:
    """The game `new` opens when none is named: the first registered."""
    return next(iter(_REGISTRY.values()))


def season_chapter(key: str) -> Callable[[JSON], str]:
    """A chapter function reading a season's name from a public view's key ('spring' -> 'Spring')."""

    def chapter(view: JSON) -> str:
        return str(view.get(key) or "").capitalize()

    return chapter


def round_chapter(view: JSON) -> str:
    """'Set-up' before round 1, then 'Round N', from a public view's round number."""
    number = int(view.get("round") or 0)
    return f"Round {number}" if number else "Set-up"


def _register_builtin() -> None:
    """The games that ship with Keywood."""
    from engine.keyper import GAME as KEYPER
    from engine.keyper import choices as keyper_choices
    from engine.keyper import lookup as keyper_lookup
    from engine.keyper import texts as keyper_texts
    from render import keyper as keyper_render

    register(GameEntry(
        id="keyper", title="Keyper", engine=KEYPER,
        texts=Texts(board=keyper_texts.table, hand=keyper_texts.hand, choices=keyper_choices.summary,
                    lookup=keyper_lookup.describe, names=keyper_lookup.names,
                    examples="`keyper 2`, `play green 1.pig`, `join white`, `take pig`",
                    components="a tile, fair or boat", hand_words="your fair tiles and tiles in hand"),
        rules=RULEBOOK / "keyper.md", rulings=RULEBOOK / "rulings.md",
        options=(Option("unlimited_supply", bool, False, "Lift the resource limits (the designer's own ruling)"),),
        render=keyper_render.render, picture=keyper_render.picture,
        render_scoreboard=keyper_render.render_scoreboard,
        blurb="Workers, joiners and four seasons of farming (2-4 players).", chapter=season_chapter("season_name"),
    ))

    from engine.keythedral import GAME as KEYTHEDRAL
    from engine.keythedral import lookup as keythedral_lookup
    from engine.keythedral import texts as keythedral_texts
    from render import keythedral as keythedral_render

    register(GameEntry(
        id="keythedral", title="Keythedral", engine=KEYTHEDRAL,
        texts=Texts(board=keythedral_texts.board, hand=keythedral_texts.hand,
                    lookup=keythedral_lookup.describe, names=keythedral_lookup.names, more=keythedral_lookup.more,
                    examples="`order 3`, `worker M13`, `buy 1.2`, `fence M12+ M13`, `give black`, `bid 2`",
                    components="a law card, field, cube or craftsman", hand_words="your law cards, cubes and seats"),
        rules=RULEBOOK / "keythedral.md", rulings=RULEBOOK / "rulings.md",
        options=(Option("no_laws", bool, False, "Variation two: the law master issues no law cards"),
                 Option("open_tiles", bool, False, "Variation three: every building tile face up from the start"),
                 Option("open_screens", bool, False, "Everyone's cubes and seats shown, not kept behind screens "
                        "(ruling T-1)")),
        render=keythedral_render.render, picture=keythedral_render.picture, pictures=keythedral_render.pictures,
        render_scoreboard=keythedral_render.render_scoreboard,
        blurb="Gather stone, timber and more from the fields to buy seats in the Keythedral (2-5 players; "
              "two players is variation one).",
        chapter=round_chapter,
    ))


    from engine.keyflower import GAME as KEYFLOWER
    from engine.keyflower import lookup as keyflower_lookup
    from engine.keyflower import texts as keyflower_texts
    from engine.keyflower.components import COMPONENTS as KEYFLOWER_PARTS
    from render import keyflower as keyflower_render

    register(GameEntry(
        id="keyflower", title="Keyflower", engine=KEYFLOWER,
        texts=Texts(board=keyflower_texts.board, hand=keyflower_texts.hand,
                    lookup=keyflower_lookup.describe, names=lambda: keyflower_lookup.names(modules=True),
                    more=keyflower_lookup.more,
                    examples="`bid alehouse red`, `use keywood blue`, `count 2`, `carry wood home-3 keywood`, "
                             "`place alehouse 1/0`",
                    components="a tile, boat, summer boat power, resource or skill",
                    hand_words="your workers, skills and winter tiles"),
        rules=RULEBOOK / "keyflower.md", rulings=RULEBOOK / "rulings.md",
        options=(
            Option("keymelequin", str, "off", "Keymelequin module: the boat it replaces (one in play at your player "
                   "count), or off", choices=("off", *(b.id for b in KEYFLOWER_PARTS.boats))),
            Option("key_celeste", bool, False, "Key Celeste module: the tile and its ghost"),
        ),
        render=keyflower_render.render, picture=keyflower_render.picture,
        render_scoreboard=keyflower_render.render_scoreboard,
        blurb="Bid and work with keyples of four colours through four seasons to build the best village "
              "(2-6 players).",
        chapter=season_chapter("season"),
    ))


_register_builtin()
