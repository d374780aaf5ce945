"""Keyper's views as chat text: the public table in a few lines, and one seat's private hand.

Both read only the view they are given (the public view, or the seat's own) and the component data; every
value the data pack reconstructed is marked with a dagger and explained in one footnote line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from engine.keyper.components import Components, default
from engine.keyper.fairs import shortfall, side_worth
from engine.keyper.lookup import (
    DAGGER,
    colour_groups,
    items,
    reconstructed,
    reconstructed_values,
    side_text,
)
from engine.keyper.view import KeyperView, KeypleView, PlayerView, as_view, own_hidden_fairs
from engine.keyper.vocab import SEASONS

SEASON_ICON = {"spring": "🌱", "summer": "🌼", "autumn": "🍂", "winter": "❄"}
RECONSTRUCTED_NOTE = f"{DAGGER} Reconstructed: the printed values are not public, so Keywood's data pack fills them in."


def _counts(items: dict[str, int]) -> str:
    """'clay 2, wood 1' for the non-zero entries, or '-'."""
    shown = [f"{k} {v}" for k, v in items.items() if v]
    return ", ".join(shown) or "-"


def _keyples(keyples: list[KeypleView]) -> str:
    """'green+white_' style: colours, an underscore for a keyple lying down."""
    return "+".join(k["colour"] + ("_" if k["lying"] else "") for k in keyples)


# --- The public table ------------------------------------------------------------------------------------


def table(data: Mapping[str, Any]) -> str:
    """The public state of the table: one line per board with its fields by colour, then boats and players; raises
    ValueError when data is no Keyper view."""
    view = as_view(data)
    comps = default()
    lines = [f"{SEASON_ICON.get(view['season_name'], '')} {capitalise(view['season_name'])}, turn {view['turn']}. "
             f"{capitalise(view['waiting_for'])}."]
    names = [p["name"] for p in view["players"]]
    layouts = False
    for board in view["boards"]:
        display = comps.display(board["display"])
        mark = DAGGER if reconstructed(display.provenance) else ""
        layouts = layouts or bool(mark)
        claim = f", claimed by {names[board['keyper']]}" if board["keyper"] is not None else ""
        boat = f", {board['boat']}" if board["boat"] else ""
        on = {fid: f" ({_keyples(ks)})" for fid, ks in board["spaces"].items() if ks}
        lines.append(f"Board {board['number']} ({display.id}{mark}{claim}{boat}): "
                     f"{colour_groups(display, comps, on)}")
    boats = [comps.boats[b] for b in view["boats"]]
    cargo = any(reconstructed(b.provenance) for b in boats)
    carries = ", ".join(f"{b.id} {'/'.join(b.side_for(view['season_name']).resources)}" for b in boats)
    lines.append(f"Display: {', '.join(view['display'])}. Boats this season{DAGGER if cargo else ''}: "
                 f"{carries or 'none'}.")
    for player in view["players"]:
        lines.append(_player_line(player))
    offer = view["offer"]
    if offer:
        lines.append(f"Open invitation on board {offer['board']} {offer['field']} for {offer['colour']} or white.")
    if view["last_action"]:
        lines.append(f"Last: {view['last_action']}")
    note = _table_note(comps, layouts, cargo)
    if note:
        lines.append(note)
    return "\n".join(lines)


def _table_note(comps: Components, layouts: bool, cargo: bool) -> str:
    """The footnote saying which of the table's values are reconstructed, or '' when none is."""
    what = reconstructed_values(comps, layouts, cargo)
    if not what:
        return ""
    return f"{DAGGER} Reconstructed (no public source): {', '.join(what)}."


def _player_line(player: PlayerView) -> str:
    """One player's public summary."""
    keyper = "keyper + " if player["keyper_home"] else ""
    built = ", ".join(f"{pid}:{p['tile']}" for pid, p in player["plots"].items())
    fairs = sum(len(v) for v in player["fairground"].values())
    return (f"{player['name']}: keyp {keyper}{_counts(player['keyp'])}; goods {_counts(player['goods'])}; "
            f"shipping {player['shipping']}; fairs held {fairs}" + (f"; built {built}" if built else ""))


# --- One seat's hand -------------------------------------------------------------------------------------


def hand(data: Mapping[str, Any], seat: int) -> str:
    """What a player alone may see: their fair tiles with what they need, their tiles with costs, their moves;
    raises ValueError unless data is that seat's own Keyper view."""
    view = as_view(data)
    comps = default()
    me = view["players"][seat]
    lines = [f"{me['name']}, your fair tiles: {', '.join(own_hidden_fairs(me)) or 'none'}; "
             f"winter fairs: {', '.join(me['winter_fairs']) or 'none'}."]
    fairs, fairs_marked = fair_lines(view, seat)
    if fairs:
        lines.append("Fairs (a finished good may stand in for its raw material):")
        lines += fairs
    tiles, tiles_marked = _tile_line(comps, list(me["tiles"]))
    lines.append(tiles)
    lines.append(f"Goods: {_counts(me['goods'])}.")
    if me["chosen_display"]:
        lines.append(f"Your chosen display: {me['chosen_display']}.")
    legal = view["legal"]
    if legal:
        shown = ", ".join(legal[:20]) + (f" … and {len(legal) - 20} more" if len(legal) > 20 else "")
        lines.append(f"You may: {shown}")
    if fairs_marked or tiles_marked:
        lines.append(RECONSTRUCTED_NOTE)
    return "\n".join(lines)


def fair_lines(view: KeyperView, seat: int) -> tuple[list[str], bool]:
    """A line per face-down fair and per winter fair side, with its status now; and whether any is reconstructed.

    Works from the seat's own view: its face-down fairs, winter fairs, goods and the fairs it already held this
    season (whose items cannot be shown twice, rulebook p.8).
    """
    comps = default()
    me = view["players"][seat]
    season = view["season_name"]
    goods: dict[str, int] = dict(me["goods"])
    shown: Counter[str] = Counter()
    for held in me["fairground"].get(season, []):
        shown.update(side_worth(held["fair"], held["points"]).requires)
    lines: list[str] = []
    marked = False
    for fair_id in own_hidden_fairs(me) + me["winter_fairs"]:
        fair = comps.fairs[fair_id]
        mark = DAGGER if reconstructed(fair.provenance) else ""
        marked = marked or bool(mark)
        for number, side in enumerate(fair.sides, start=1):
            label = f"{fair_id}{mark}" + (f" side {number}" if len(fair.sides) > 1 else "")
            status = _status(view, side.seasons, goods, shown + Counter(side.requires), shown)
            lines.append(f"- {label}, {side_text(side)}. {status}")
    return lines, marked


def _status(view: KeyperView, seasons: tuple[str, ...], goods: Mapping[str, int], need: Counter[str],
            shown: Counter[str]) -> str:
    """Whether a fair side can be held now (or is ready for this season's end), and if not, why."""
    season = view["season_name"]
    now = SEASONS.index(season)
    if max(SEASONS.index(s) for s in seasons) < now:
        return "Too late: its seasons are past."
    short = shortfall(dict(goods), Counter(need))
    lacking = Counter({r: short[r] for r in need if short[r]})  # in the order the fair lists them
    if season in seasons:
        if not lacking:
            return "Can be held now." if view["phase"] == "fairs" else "Ready: you have everything it needs."
        already = " (counting what your fairs this season already show)" if shown else ""
        return f"Missing {items(lacking)}{already}."
    return "Not yet (a later season); you have it all." if not lacking else f"Not yet; missing {items(lacking)}."


def _tile_line(comps: Components, tiles: list[str]) -> tuple[str, bool]:
    """'Your unbuilt tiles, with build costs†: Cow shed (log + rock), ...'; and whether a cost is marked."""
    if not tiles:
        return "Your unbuilt tiles: none.", False
    known = [comps.tiles[t] for t in tiles if t in comps.tiles]
    marks = [reconstructed(t.provenance) for t in known]
    every = bool(marks) and all(marks)
    shown = [f"{t.name} ({items(t.cost, ' + ')}{DAGGER if m and not every else ''})"
             for t, m in zip(known, marks, strict=True)]
    shown += [t for t in tiles if t not in comps.tiles]
    head = f"Your unbuilt tiles, with build costs{DAGGER if every else ''}"
    return f"{head}: {', '.join(shown)}.", any(marks)


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]

