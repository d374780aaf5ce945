"""A seat's many Keyper choices as a short text a person can read, for when they are too many to number.

`summary(view, seat, legal)` groups the legal actions (their notation) the way a player thinks of them: the
keyper and the boards it may claim, the keyples in hand, each board's open fields by border colour with what
they yield, the fields one may join, one's own plots, building with a keyple, lay-downs, then how to type one.
It reads only the seat's own view, the legal list and the printed component data (field kinds, boats).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError
from engine.keyper.actions import Action, Build, LayDown, PlayKeyper, PlayKeyple, parse_syntax
from engine.keyper.components import FieldKind
from engine.keyper.spaces import comps
from engine.keyper.view import KeyperView, PlayerView, as_view
from engine.keyper.vocab import COLOURS

WIDTH = 100
INDENT = "  "
MORE = 8  # items shown of a group before "… and N more"


@dataclass
class _Field:
    """One board field the seat may play onto: the colours that may go there, lay-down and boat options."""

    board: int
    id: str
    kind: FieldKind | None
    occupied: bool
    colours: list[str] = field(default_factory=list)
    lay: bool = False
    boats: list[str] = field(default_factory=list)


@dataclass
class _Groups:
    """The legal actions sorted into what a person looks for."""

    keyper: list[int] = field(default_factory=list)
    fields: dict[tuple[int, str], _Field] = field(default_factory=dict)
    plots: dict[str, list[str]] = field(default_factory=dict)
    builds: dict[str, list[str]] = field(default_factory=dict)
    build_colours: list[str] = field(default_factory=list)
    laydowns: dict[str, int] = field(default_factory=dict)
    steps: dict[str, list[str]] = field(default_factory=dict)
    waives: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    other: dict[str, list[str]] = field(default_factory=dict)
    examples: list[str] = field(default_factory=list)


def summary(data: Mapping[str, Any], seat: int, legal: list[str]) -> str:
    """A seat's legal actions in groups with an example of each, in about 25 lines for a 4-player turn; raises
    ValueError when data is no Keyper view."""
    view = as_view(data)
    me = view["players"][seat]
    groups = _sort(view, legal)
    lines = [f"{me['name']}, you have {len(legal)} choices ({view['season_name']}, "
             f"turn {view['turn']}). In groups:"]
    if groups.keyper:
        later = "" if view["season_name"] == "winter" else " (you fold its display next season)"
        lines += _wrap(f"Keyper: `keyper N` claims board {_or([str(b) for b in groups.keyper])}{later}.")
    if groups.fields or groups.plots or groups.builds:
        lines += _wrap("Your keyples: " + _keyples(me["keyp"]) + ".")
    lines += _field_lines(view, groups)
    lines += _plot_lines(me, groups)
    if groups.laydowns:
        spots = [space + (" (one or both: x2)" if n == 2 else "") for space, n in groups.laydowns.items()]
        lines += _wrap("Lay down a standing keyple: " + ", ".join(spots) + " (`laydown SPACE`, `x2` for both).")
    lines += _step_lines(groups)
    lines += _wrap("Type one, e.g. " + ", ".join(f"`{e}`" for e in _examples(groups)[:4]) + ".")
    return "\n".join(lines)


def _sort(view: KeyperView, legal: Iterable[str]) -> _Groups:
    """Sort the legal notations into groups, keeping the first of each kind as an example."""
    groups = _Groups()
    kinds: dict[str, str] = {}
    for text in legal:
        try:
            action = parse_syntax(text)
        except EngineError:
            groups.other.setdefault(text.split()[0] if text.split() else text, []).append(text)
            continue
        kind = _file(view, groups, action, text)
        kinds.setdefault(kind, text)
    groups.examples = list(kinds.values())
    return groups


def _file(view: KeyperView, groups: _Groups, action: Action, text: str) -> str:
    """Put one action into its group; returns the kind of example it is."""
    if isinstance(action, PlayKeyper):
        groups.keyper.append(action.board)
        return "keyper"
    if isinstance(action, PlayKeyple):
        return _file_play(view, groups, action)
    if isinstance(action, LayDown):
        groups.laydowns[action.space] = max(groups.laydowns.get(action.space, 0), action.count)
        return "laydown"
    if isinstance(action, Build):
        groups.steps.setdefault(action.tile, [])
        if action.plot not in groups.steps[action.tile]:
            groups.steps[action.tile].append(action.plot)
        if action.waive:
            waived = groups.waives.setdefault((action.tile, action.plot), [])
            waived.append(action.waive)
        return "build" + ("-waive" if action.waive else "")
    verb = text.split()[0]
    groups.other.setdefault(verb, []).append(" ".join(text.split()[1:]) or verb)
    return verb


def _file_play(view: KeyperView, groups: _Groups, action: PlayKeyple) -> str:
    """A keyple play: onto a board field, onto one's own plot, or onto a plot to build there."""
    if action.build:
        plots = groups.builds.setdefault(action.build, [])
        if action.space not in plots:
            plots.append(action.space)
        if action.colour not in groups.build_colours:
            groups.build_colours.append(action.colour)
        return "play-build"
    if "." not in action.space:
        colours = groups.plots.setdefault(action.space, [])
        if action.colour not in colours:
            colours.append(action.colour)
        return "play-plot"
    number, _, field_id = action.space.partition(".")
    key = (int(number), field_id)
    spot = groups.fields.get(key)
    if spot is None:
        board = view["boards"][int(number) - 1]
        spot = _Field(int(number), field_id, _kind(board["display"], field_id),
                      bool(board["spaces"].get(field_id)))
        groups.fields[key] = spot
    if action.colour not in spot.colours:
        spot.colours.append(action.colour)
    if action.boat and action.boat not in spot.boats:
        spot.boats.append(action.boat)
    spot.lay = spot.lay or action.lay
    return "play-lay" if action.lay else "play-boat" if action.boat else "play-join" if spot.occupied else "play"


def _examples(groups: _Groups) -> list[str]:
    """One example of each kind of choice; a keyple play onto a field of its own colour when there is one."""
    matching = [f"play {f.kind.colour} {f.board}.{f.id}" for f in groups.fields.values()
                if f.kind and f.kind.category == "resource" and not f.occupied and f.kind.colour in f.colours]
    examples = list(groups.examples)
    if matching:
        plain = next((i for i, e in enumerate(examples) if _kind_of(e) == "play"), None)
        if plain is not None:
            examples[plain] = matching[0]
    return examples


def _kind_of(example: str) -> str:
    """'play' for a plain keyple play onto an empty field (no boat, no build, no +lay), else ''."""
    words = example.split()
    return "play" if len(words) == 3 and words[0] == "play" and "." in words[2] else ""


def _kind(display: str, field_id: str) -> FieldKind | None:
    """The kind of a field of a display (None if the data has no such field)."""
    try:
        return comps().field_kinds[comps().display(display).field(field_id).kind]
    except KeyError:
        return None


def _field_lines(view: KeyperView, groups: _Groups) -> list[str]:
    """Each board's empty fields by border colour, the river's free boats, and the fields one may join."""
    empty = [f for f in groups.fields.values() if not f.occupied]
    joinable = [f for f in groups.fields.values() if f.occupied]
    lines: list[str] = []
    if empty:
        lines += _wrap("Empty fields by border colour (alone: 1 unit, 2 if of its colour or white; joined: 2 each, "
                       "or 3):")
        for board in view["boards"]:
            mine = [f for f in empty if f.board == board["number"]]
            if mine:
                lines += _wrap(f"Board {board['number']} ({board['display']}): {_by_colour(mine)}.", INDENT * 2)
        boats = sorted({b for f in empty for b in f.boats})
        if boats:
            season = view["season_name"]
            lines += _wrap("A river takes a free boat (its action takes or sells one of its goods): "
                           + ", ".join(_boat(b, season) for b in boats) + ".", INDENT * 2)
    if joinable:
        spots = [f"{f.board}.{f.id} ({'/'.join(f.colours)}{', +lay' if f.lay else ''})" for f in joinable]
        lines += _wrap("Onto a keyple already there (1 unit, +1 on its border colour; `+lay` lays it down for one "
                       "more): " + ", ".join(spots) + ".")
    return lines


def _by_colour(fields: list[_Field]) -> str:
    """'green: pig, cow; blue: river (a boat action); no colour: country_tile (a country tile)'."""
    order = [*COLOURS, None]
    by: dict[str | None, list[str]] = {}
    for spot in fields:
        colour = spot.kind.colour if spot.kind else None
        by.setdefault(colour, []).append(spot.id + _yield(spot))
    return "; ".join(f"{colour or 'uncoloured'}: {', '.join(by[colour])}" for colour in order if colour in by)


def _yield(spot: _Field) -> str:
    """' (pig)' for a resource field whose id is not its resource; a field's id names what it gives otherwise
    (a resource, country_tile, river: a boat action, convert_clay, trade_raw, build, discount_build, upgrade)."""
    kind = spot.kind
    if kind is not None and kind.category == "resource" and kind.resource and kind.resource != spot.id:
        return f" ({kind.resource})"
    return ""


def _boat(boat: str, season: str) -> str:
    """'boat-1 (clay/sheep)' for this season's side of a boat."""
    try:
        return f"{boat} ({'/'.join(comps().boats[boat].side_for(season).resources)})"
    except KeyError:
        return boat


def _plot_lines(me: PlayerView, groups: _Groups) -> list[str]:
    """One's own built plots a keyple may work, and the tiles a keyple may build on a plot directly."""
    lines: list[str] = []
    if groups.plots:
        spots = [f"{pid} {me['plots'][pid]['tile']}" for pid in _plot_order(groups.plots)]
        lines += _wrap("Your plots (a keyple works the tile): " + ", ".join(spots) + ".")
    if groups.builds:
        colours = "any of your keyples" if len(groups.build_colours) > 1 else f"your {groups.build_colours[0]}"
        lines += _wrap(f"Build with a keyple ({colours}; it pays the printed cost): " + _tiles_on(groups.builds)
                       + " (`play COLOUR PLOT build TILE`).")
    return lines


def _step_lines(groups: _Groups) -> list[str]:
    """Building units and every other kind of choice, by verb."""
    lines: list[str] = []
    if groups.steps:
        waived = sorted({w for ws in groups.waives.values() for w in ws})
        off = f"; add ` -ITEM` to leave one cost item out ({', '.join(waived)})" if waived else ""
        lines += _wrap("Build: " + _tiles_on(groups.steps) + f" (`build TILE PLOT`{off}).")
    for verb, args in groups.other.items():
        lines += _wrap(f"{verb}: " + _some(args) + ".")
    return lines


def _tiles_on(tiles: dict[str, list[str]]) -> str:
    """'cow_shed, pig_sty on f1-f8; brickmaker on v1-v12': tiles grouped by the plots they may go on."""
    by_plots: dict[str, list[str]] = {}
    for tile, plots in tiles.items():
        by_plots.setdefault(_ranges(plots), []).append(tile)
    return "; ".join(f"{_some(names)} on {plots}" for plots, names in by_plots.items())


def _ranges(plots: list[str]) -> str:
    """'f1-f4, f6, v2-v3': plot ids with runs of consecutive numbers shortened."""
    parts: list[str] = []
    ordered = sorted(set(plots), key=lambda p: (p[0], int(p[1:]) if p[1:].isdigit() else 0))
    run: list[str] = []
    for plot in ordered:
        if run and plot[0] == run[-1][0] and plot[1:].isdigit() and run[-1][1:].isdigit() \
                and int(plot[1:]) == int(run[-1][1:]) + 1:
            run.append(plot)
            continue
        if run:
            parts.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
        run = [plot]
    if run:
        parts.append(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}")
    return ", ".join(parts)


def _plot_order(plots: Iterable[str]) -> list[str]:
    """Plot ids farm first, by number."""
    return sorted(plots, key=lambda p: (p[0] != "f", int(p[1:]) if p[1:].isdigit() else 0))


def _keyples(keyp: dict[str, int]) -> str:
    """'white 2, blue 1, green 1' in the game's colour order, or 'none'."""
    held = [f"{c} {keyp[c]}" for c in COLOURS if keyp.get(c)]
    return ", ".join(held) or "none"


def _some(items: list[str]) -> str:
    """The first few items, then '… and N more'."""
    shown = ", ".join(items[:MORE])
    return shown + (f" … and {len(items) - MORE} more" if len(items) > MORE else "")


def _or(items: list[str]) -> str:
    """'1', '1 or 2', '1, 2 or 3'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _wrap(text: str, indent: str = INDENT) -> list[str]:
    """A paragraph wrapped to the terminal's width, its later lines indented a little further."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False, break_long_words=False)
