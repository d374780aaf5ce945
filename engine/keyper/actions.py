"""Keyper actions: small frozen records whose str() is their notation (see docs/notation.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.core import InvalidAction
from engine.keyper.vocab import COLOURS, RESOURCES


@dataclass(frozen=True)
class PlayKeyper:
    """Play the keyper onto the keyp field of a board, claiming it."""

    board: int

    def __str__(self) -> str:
        return f"keyper {self.board}"


@dataclass(frozen=True)
class PlayKeyple:
    """Play a keyple from the keyp onto a space ('2.pig' on board 2, or 'v3' / 'f1' on one's own plots).

    lay: lay the existing keyple on that space down. boat: the boat to put on an empty river.
    build: a tile from one's hand to build on the plot the keyple goes to (over the tile there, if any).
    """

    colour: str
    space: str
    lay: bool = False
    boat: str | None = None
    build: str | None = None

    def __str__(self) -> str:
        text = f"play {self.colour} {self.space}"
        if self.boat:
            text += f" {self.boat}"
        if self.build:
            text += f" build {self.build}"
        if self.lay:
            text += " +lay"
        return text


@dataclass(frozen=True)
class LayDown:
    """Lay down one or both standing keyples on a space (when one's keyp is empty)."""

    space: str
    count: int = 1

    def __str__(self) -> str:
        return f"laydown {self.space}" + (" x2" if self.count == 2 else "")


@dataclass(frozen=True)
class Join:
    """Accept a joiner invitation with a keyple of this colour."""

    colour: str

    def __str__(self) -> str:
        return f"join {self.colour}"


@dataclass(frozen=True)
class Decline:
    """Decline a joiner invitation."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True)
class Take:
    """Take one unit of a resource that a yield offers."""

    resource: str

    def __str__(self) -> str:
        return f"take {self.resource}"


@dataclass(frozen=True)
class Sell:
    """Sell one resource to a boat for 2 shipping points."""

    resource: str

    def __str__(self) -> str:
        return f"sell {self.resource}"


@dataclass(frozen=True)
class TakeTile:
    """Take a country tile (or winter fair) from the display."""

    tile: str

    def __str__(self) -> str:
        return f"tile {self.tile}"


@dataclass(frozen=True)
class Skip:
    """Give up the rest of the current yield."""

    def __str__(self) -> str:
        return "skip"


@dataclass(frozen=True)
class HoldFair:
    """Hold a fair at the end of the season; points names the winter fair's side."""

    fair: str
    points: int | None = None

    def __str__(self) -> str:
        return f"hold {self.fair}" + (f":{self.points}" if self.points is not None else "")


@dataclass(frozen=True)
class Done:
    """Finish holding fairs for this season."""

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True)
class Release:
    """Let an animal that cannot be housed go back to the supply."""

    animal: str

    def __str__(self) -> str:
        return f"release {self.animal}"


@dataclass(frozen=True)
class ChooseDisplay:
    """Choose the display of one's country board for the new season."""

    display: str

    def __str__(self) -> str:
        return f"display {self.display}"


@dataclass(frozen=True)
class Rest:
    """Put one excess keyple of this colour on the keyp tile for the season."""

    colour: str

    def __str__(self) -> str:
        return f"rest {self.colour}"


@dataclass(frozen=True)
class Build:
    """Build a tile from one's hand on a plot (overbuilding a built plot once); waive names a discounted item."""

    tile: str
    plot: str
    waive: str | None = None

    def __str__(self) -> str:
        return f"build {self.tile} {self.plot}" + (f" -{self.waive}" if self.waive else "")


@dataclass(frozen=True)
class Upgrade:
    """Upgrade the tile built on a plot."""

    plot: str

    def __str__(self) -> str:
        return f"upgrade {self.plot}"


@dataclass(frozen=True)
class Pay:
    """Pay the next item of a cost with this resource."""

    resource: str

    def __str__(self) -> str:
        return f"pay {self.resource}"


@dataclass(frozen=True)
class Exchange:
    """Give resources to the supply for others: a convert field, a trade, or a converting tile.

    give names the goods actually handed in (a finished good standing in for its raw material is named as
    itself, ruling K-22). Both lists are kept in sorted order, so the order they are typed in does not matter.
    """

    give: tuple[str, ...]
    get: tuple[str, ...]

    def __post_init__(self) -> None:
        """Keep both lists sorted: 'log+clay' and 'clay+log' are one exchange, written 'clay+log'."""
        object.__setattr__(self, "give", tuple(sorted(self.give)))
        object.__setattr__(self, "get", tuple(sorted(self.get)))

    def __str__(self) -> str:
        return f"exchange {'+'.join(self.give)} for {'+'.join(self.get)}"


Action = (
    PlayKeyper | PlayKeyple | LayDown | Join | Decline | Take | Sell | TakeTile | Skip | HoldFair | Done
    | Release | ChooseDisplay | Rest | Build | Upgrade | Pay | Exchange
)

_COLOUR = "(" + "|".join(COLOURS) + ")"
_RES = "(" + "|".join(RESOURCES) + ")"
_SPACE = r"((?:\d+\.)?[a-z_]+\d*|[fv]\d+)"
_NAME = r"([a-z0-9_'\-]+)"

_PATTERNS: list[tuple[re.Pattern[str], type]] = [
    (re.compile(r"keyper\s+(\d+)"), PlayKeyper),
    (re.compile(rf"(?:play\s+)?{_COLOUR}\s+{_SPACE}(?:\s+(boat-\d+))?(?:\s+build\s+{_NAME})?(\s+\+lay)?"),
     PlayKeyple),
    (re.compile(rf"laydown\s+{_SPACE}(\s+x2)?"), LayDown),
    (re.compile(rf"join\s+{_COLOUR}"), Join),
    (re.compile(r"decline|pass"), Decline),
    (re.compile(rf"take\s+{_RES}"), Take),
    (re.compile(rf"sell\s+{_RES}"), Sell),
    (re.compile(rf"tile\s+{_NAME}"), TakeTile),
    (re.compile(r"skip"), Skip),
    (re.compile(r"hold\s+([a-z]+-\d+)(?::(\d+))?"), HoldFair),
    (re.compile(r"done"), Done),
    (re.compile(rf"release\s+{_RES}"), Release),
    (re.compile(rf"display\s+{_NAME}"), ChooseDisplay),
    (re.compile(rf"rest\s+{_COLOUR}"), Rest),
    (re.compile(rf"build\s+{_NAME}\s+([fv]\d+)(?:\s+-{_NAME})?"), Build),
    (re.compile(r"upgrade\s+([fv]\d+)"), Upgrade),
    (re.compile(rf"pay\s+{_RES}"), Pay),
    (re.compile(rf"exchange\s+({_RES}(?:\+{_RES})*)\s+for\s+({_RES}(?:\+{_RES})*)"), Exchange),
]


def public_notation(action: Action) -> str:
    """The notation as other players may see it: a secret display choice is not named."""
    return "display (secret until all have chosen)" if isinstance(action, ChooseDisplay) else str(action)


def normalise(text: str) -> str:
    """Lower-case the text and squeeze its whitespace."""
    return " ".join(text.strip().lower().split())


def parse_syntax(text: str) -> Action:
    """Read notation into an action without looking at any state; raises InvalidAction."""
    clean = normalise(text)
    for pattern, kind in _PATTERNS:
        m = pattern.fullmatch(clean)
        if m:
            return _build(kind, m)
    raise InvalidAction(f"'{text}' is not a Keyper action. Try 'keyper 2', 'play green 1.pig', 'join white', "
                        "'take pig' or 'laydown 1.pig x2'.")


def _build(kind: type, m: re.Match[str]) -> Action:
    """Turn a regex match into the action record of that kind."""
    g = m.groups()
    if kind is PlayKeyper:
        return PlayKeyper(int(g[0]))
    if kind is PlayKeyple:
        return PlayKeyple(g[0], g[1], lay=bool(g[4]), boat=g[2], build=g[3])
    if kind is LayDown:
        return LayDown(g[0], 2 if g[1] else 1)
    if kind is Build:
        return Build(g[0], g[1], g[2])
    if kind is Exchange:
        give, get = m.group(1), m.group(m.lastindex or 0)
        return Exchange(tuple(give.split("+")), tuple(get.split("+")))
    if kind is HoldFair:
        return HoldFair(g[0], int(g[1]) if g[1] else None)
    if kind in (Decline, Skip, Done):
        result: Action = kind()
        return result
    built: Action = kind(g[0])
    return built
