"""Keythedral's views as chat text: the public table in a few compact lines, and one seat's private hand.

Both read only the documented keys of the view (the public view, plus "laws" and "legal" in a seat's own view),
never the state. A player's cubes, seats and points are in the view only where the viewer sees behind that
player's screen (ruling T-1): the board says "behind the screen" for the others, and a seat's hand lists its own.
Building-tile costs that Keywood's data had to reconstruct are marked with a dagger and explained in one footnote
line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.keythedral.components import CRAFTS, CUBE_ORDER, TERRAINS
from engine.keythedral.lookup import CRAFTSMAN, LAWS, Law, law

DAGGER = "\u2020"
RECONSTRUCTED_NOTE = (f"{DAGGER} Reconstructed: the printed cost of this tile is not public, so Keywood's data "
                      "fills it in.")
PHASES = {
    "setup": "set-up",
    "workers": "phase 1 (workers)",
    "harvest": "phase 2 (harvest)",
    "actions": "phase 3 (spending)",
    "bidding": "phase 5 (start-player bidding)",
    "over": "game over",
}
ORDINALS = {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 5: "5th"}
LEGAL_SHOWN = 20

View = Mapping[str, Any]


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def cubes_text(cubes: Mapping[str, int]) -> str:
    """'black 2, brown 1, yellow 1' in cube order for the non-zero colours, or 'none'."""
    shown = [f"{c} {cubes[c]}" for c in CUBE_ORDER if cubes.get(c)]
    shown += [f"{c} {n}" for c, n in cubes.items() if n and c not in CUBE_ORDER]
    return ", ".join(shown) or "none"


def cost_text(cost: Iterable[str]) -> str:
    """A tile's cost: '2 black + brown + blue' (colours in cube order, repeats counted)."""
    counts = Counter(cost)
    order = [c for c in CUBE_ORDER if c in counts] + [c for c in counts if c not in CUBE_ORDER]
    return " + ".join(c if counts[c] == 1 else f"{counts[c]} {c}" for c in order) or "nothing"


def _name(view: View, seat: int | None) -> str:
    """A seat's player name, or '?' for an unknown seat."""
    names: Sequence[str] = view.get("names") or []
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _player(view: View, seat: int) -> Mapping[str, Any]:
    """The player entry of a seat."""
    players: Sequence[Mapping[str, Any]] = view["players"]
    return next((p for p in players if p.get("seat") == seat), players[seat])


def _sort_key(place: Mapping[str, Any]) -> tuple[int, int]:
    """Row by row from the south, west to east."""
    return int(place.get("y", 0)), int(place.get("x", 0))


def _plural(count: int, word: str) -> str:
    """'1 law card', '2 law cards'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# --- The public table ------------------------------------------------------------------------------------


def board(view: View) -> str:
    """The public table: round and phase, work order, the mat, craftsmen and store, players, the fields."""
    lines = [_headline(view)]
    variation = view.get("variation") or {}
    flags = [label for key, label in (("two_player", "two players"), ("no_laws", "no laws"),
                                      ("open_tiles", "open tiles")) if variation.get(key)]
    if flags:
        lines.append(f"Variations: {', '.join(flags)}.")
    if view.get("open_screens"):
        lines.append("Open screens (table option): everyone's cubes and seats are shown.")
    if view.get("phase") == "setup" and view.get("drawn_field"):
        drawn = view["drawn_field"]
        lines.append(f"Field to lay: {drawn['terrain']} (back {drawn['back']}); {view.get('field_stack', 0)} "
                     "left in the stack.")
    order = _work_order(view)
    if order:
        lines.append(order)
    mat, marked = _mat_lines(view)
    lines += mat
    lines.append(_craftsmen_line(view))
    lines.append(_store_line(view))
    if not variation.get("no_laws"):
        lines.append(_laws_line(view))
    lines.append("Players:")
    lines += [_player_line(view, p) for p in view["players"]]
    bids = _bids_line(view)
    if bids:
        lines.append(bids)
    lines.append(_fields_line(view))
    lines.append(_cottages_line(view))
    fences = _fences_line(view)
    if fences:
        lines.append(fences)
    if view.get("effects"):
        lines.append("In force: " + "; ".join(view["effects"]) + ".")
    if view.get("pending"):
        lines.append(f"Under way: {view['pending']}.")
    if marked:
        lines.append(RECONSTRUCTED_NOTE)
    return "\n".join(lines)


def _headline(view: View) -> str:
    """'**Keythedral**, round 2, phase 3 (spending). Start player: Ana (blue). Waiting for Ben to ...'."""
    phase = PHASES.get(str(view.get("phase")), str(view.get("phase")))
    start = view.get("start_player")
    colours: Sequence[str] = view.get("colours") or []
    colour = f" ({colours[start]})" if start is not None and start < len(colours) else ""
    text = f"**Keythedral**, round {view.get('round', 0)}, {phase}. Start player: {_name(view, start)}{colour}."
    if view.get("waiting_for"):
        text += f" {capitalise(str(view['waiting_for']))}."
    return text


def _work_order(view: View) -> str:
    """'Work order: 1st on 3 (Ana), 2nd on 1 (Ben); placing for 1.' or '' when no marker is down."""
    markers = sorted(view.get("work_order") or [], key=lambda m: int(m["marker"]))
    if not markers:
        return ""
    shown = [f"{ORDINALS.get(int(m['marker']), m['marker'])} on {m['number']} ({_name(view, m.get('seat'))})"
             for m in markers]
    now = view.get("current_number")
    return f"Work order: {', '.join(shown)}" + (f"; placing for {now}." if now is not None else ".")


def _mat_lines(view: View) -> tuple[list[str], bool]:
    """One line per stage of the mat; and whether any cost shown is reconstructed."""
    stages: dict[int, list[Mapping[str, Any]]] = {}
    for space in view.get("mat") or []:
        stages.setdefault(int(space["stage"]), []).append(space)
    current = view.get("stage")
    lines = [f"Keythedral mat{f', stage {current} on sale' if current else ''}:"]
    marked = False
    for stage in sorted(stages):
        spaces = stages[stage]
        hidden = [s for s in spaces if not s.get("face_up") and not _taken(s)]
        shown: list[str] = []
        for space in spaces:
            if space.get("taken_by") is not None:
                shown.append(f"{space['space']} {_name(view, space['taken_by'])}")
            elif _taken(space):
                shown.append(f"{space['space']} taken")
            elif space.get("face_up") and space.get("cost") is not None:
                mark = DAGGER if space.get("reconstructed") else ""
                marked = marked or bool(mark)
                change = int(space.get("price_change") or 0)
                law_mark = f" ({change:+d} by law)" if change else ""
                shown.append(f"{space['space']} {cost_text(space['cost'])}{mark}{law_mark}")
        if hidden:
            shown.append(f"{len(hidden)} face down")
        lines.append(f"- Stage {stage} ({_plural(stage, 'pt')} each): {'; '.join(shown)}")
    return lines, marked


def _taken(space: Mapping[str, Any]) -> bool:
    """Whether a mat space's tile was taken (by whom shows only to those who see behind the buyer's screen)."""
    return bool(space.get("taken")) or space.get("taken_by") is not None


def _craftsmen_line(view: View) -> str:
    """'Craftsmen: blacksmith 10 white (any 2 cubes), ...'."""
    stock: Mapping[str, int] = view.get("craftsmen") or {}
    shown = [f"{CRAFTSMAN[c][0]} {stock.get(c, 0)} {c} (any {CRAFTSMAN[c][2]} cubes, `{CRAFTSMAN[c][1]}`)"
             for c in CRAFTS]
    return "Craftsmen: " + ", ".join(shown) + "."


def _store_line(view: View) -> str:
    """'Store: black 18, brown 20, ...; used craft cubes: white 1.'."""
    store: Mapping[str, int] = view.get("store") or {}
    resources = ", ".join(f"{c} {store.get(c, 0)}" for c in CUBE_ORDER if c not in CRAFTS)
    used = ", ".join(f"{c} {store[c]}" for c in CRAFTS if store.get(c))
    return f"Store: {resources}" + (f"; used craft cubes: {used}." if used else ".")


def _laws_line(view: View) -> str:
    """'New laws: 2 on offer (face down), 16 in the stack. Played: Start Order.'."""
    offered = sum(1 for filled in view.get("law_spaces") or [] if filled)
    text = f"New laws: {offered} on offer (face down), {view.get('law_stack', 0)} in the stack."
    played = view.get("laws_played") or []
    return text + (f" Played: {', '.join(played)}." if played else "")


def _player_line(view: View, player: Mapping[str, Any]) -> str:
    """'- Ana (blue, start player): 3 pts (1.1, 2.3); 5 cubes: black 2, ...; 1 law card; 2 fences left; passed', or
    'cubes and seats behind the screen' in place of the points and cubes the viewer cannot see (T-1)."""
    seat = int(player["seat"])
    fences_left: Sequence[int] = view.get("fences_left") or []
    start = ", start player" if view.get("start_player") == seat else ""
    seats = [t["space"] for t in player.get("tiles") or []]
    if "cubes" in player:
        parts = [f"{_plural(int(player.get('points', 0)), 'pt')}" + (f" ({', '.join(seats)})" if seats else ""),
                 f"{_plural(int(player.get('cube_count', 0)), 'cube')}: {cubes_text(player.get('cubes') or {})}"]
    else:
        parts = ["cubes and seats behind the screen"]
    if not (view.get("variation") or {}).get("no_laws"):
        parts.append(_plural(int(player.get("laws_held", 0)), "law card"))
    if seat < len(fences_left):
        parts.append(f"{_plural(int(fences_left[seat]), 'fence')} left")
    if player.get("procured"):
        parts.append("procured a law")
    elif player.get("passed"):
        parts.append("passed")
    return f"- {player['name']} ({player['colour']}{start}): " + "; ".join(parts)


def _bids_line(view: View) -> str:
    """'Bids: Cy 1, Dee 2, Ana passed.' during the bidding, or ''."""
    bids = view.get("bids") or []
    if view.get("phase") != "bidding" or not bids:
        return ""
    shown = [f"{_name(view, b['seat'])} {'passed' if b.get('bid') is None else b['bid']}" for b in bids]
    return "Bids: " + ", ".join(shown) + "."


def _fields_line(view: View) -> str:
    """'Fields (Keythedral M13+): quarry M13 (blue3), N14; woods N13, M14 (yellow2); ...'."""
    workers = {w["field"]: f"{w['colour']}{w['cottage']}" for w in view.get("workers") or []}
    by_terrain: dict[str, list[Mapping[str, Any]]] = {}
    for field in view.get("fields") or []:
        by_terrain.setdefault(str(field["terrain"]), []).append(field)
    order = [t for t in TERRAINS if t in by_terrain] + [t for t in by_terrain if t not in TERRAINS]
    groups = []
    for terrain in order:
        labels = [f["at"] + (f" ({workers[f['at']]})" if f["at"] in workers else "")
                  for f in sorted(by_terrain[terrain], key=_sort_key)]
        groups.append(f"{terrain} {', '.join(labels)}")
    where = f" (Keythedral {view['keythedral']})" if view.get("keythedral") else ""
    return f"Fields{where}: " + ("; ".join(groups) or "none yet") + "."


def _cottages_line(view: View) -> str:
    """'Cottages: blue 1 M12+, 2 N14+ house; yellow 3 L12+ (4 to lay).'."""
    by_colour: dict[str, list[Mapping[str, Any]]] = {}
    for cottage in view.get("cottages") or []:
        by_colour.setdefault(str(cottage["colour"]), []).append(cottage)
    groups = []
    for colour, cottages in by_colour.items():
        placed = sorted((c for c in cottages if c.get("at")), key=lambda c: int(c["number"]))
        shown = [f"{c['number']} {c['at']}" + (" house" if c.get("house") else "") for c in placed]
        waiting = len(cottages) - len(placed)
        text = f"{colour} {', '.join(shown)}" if shown else colour
        groups.append(text + (f" ({waiting} to lay)" if waiting else ""))
    return "Cottages: " + ("; ".join(groups) or "none") + "."


def _fences_line(view: View) -> str:
    """'Fences: blue M12+|M13, grey N14+|N15.' or '' when none stands."""
    fences = view.get("fences") or []
    if not fences:
        return ""
    return "Fences: " + ", ".join(f"{f['colour']} {f['square']}|{f['field']}" for f in fences) + "."


# --- One seat's hand -------------------------------------------------------------------------------------


def held_laws(view: View) -> list[Law]:
    """The law cards in a seat's own view, in card order, whatever form the view lists them in.

    Each entry may be a key or title ('sale', 'Repeal Law'), a card number, or a mapping with "key", "title" or
    "number"; entries that name no card are left out.
    """
    found: list[Law] = []
    for entry in view.get("laws") or []:
        if isinstance(entry, Mapping):
            entry = entry.get("key") or entry.get("title") or entry.get("number") or ""
        card = law(str(entry))
        if card is not None:
            found.append(card)
    return sorted(found, key=lambda card: card.number)


def law_reminder(card: Law) -> str:
    """'- **Sale**: on your phase-3 turn (`law sale gold`).'."""
    return f"- **{card.title}**: {card.when} (`{card.example}`)."


def hand(view: View, seat: int) -> str:
    """What one seat privately holds, behind its screen: law cards with when each may be played, then cubes, seats
    and moves."""
    me = _player(view, seat)
    lines = [f"{me['name']} ({me['colour']}), what you hold behind your screen:"]
    if not (view.get("variation") or {}).get("no_laws"):
        cards = held_laws(view)
        if cards:
            lines.append("Law cards (`/rules TITLE` says what each does):")
            lines += [law_reminder(card) for card in cards]
        else:
            lines.append("Law cards: none.")
    lines.append(f"Cubes ({me.get('cube_count', 0)}): {cubes_text(me.get('cubes') or {})}.")
    tiles = me.get("tiles") or []
    seats = ", ".join(f"{t['space']} (stage {t['stage']})" for t in tiles)
    lines.append(f"Seats: {seats or 'none'}; {_plural(int(me.get('points', 0)), 'point')}.")
    fences_left: Sequence[int] = view.get("fences_left") or []
    if seat < len(fences_left):
        lines.append(f"Fences left to build: {fences_left[seat]}.")
    if me.get("procured"):
        lines.append("You procured a law this round: no more phase-3 turns until next round.")
    legal: Sequence[str] = view.get("legal") or []
    if legal:
        more = f" … and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        lines.append(f"You may: {', '.join(legal[:LEGAL_SHOWN])}{more}")
    return "\n".join(lines)


__all__ = ["LAWS", "board", "hand", "held_laws", "law_reminder"]
