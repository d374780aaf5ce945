"""Keythedral's views as chat text: the public table in a few compact lines, and one seat's private hand.

Both read the typed view (engine.keythedral.view.KView: the public view, plus "laws" and "legal" in a seat's own
view), never the state. A player's cubes, seats and points are in the view only where the viewer sees behind that
player's screen (ruling T-1): the board says "behind the screen" for the others, and a seat's hand lists its own.
Building-tile costs that Keywood's data had to reconstruct are marked with a dagger and explained in one footnote
line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, cast

from engine.keythedral.components import CRAFTS, CRAFTSMAN_OF, CUBE_ORDER, TERRAINS
from engine.keythedral.lookup import LAW_BY_TITLE, LAWS, Law
from engine.keythedral.view import KView, PlayerView, SpaceView

__all__ = ["DAGGER", "LAWS", "RECONSTRUCTED_NOTE", "board", "cost_text", "cubes_text", "hand", "held_laws",
           "law_reminder"]

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


def capitalise(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def cubes_text(cubes: Mapping[str, int]) -> str:
    """'black 2, brown 1, yellow 1' in cube order for the non-zero colours, or 'none'."""
    return ", ".join(f"{c} {cubes[c]}" for c in CUBE_ORDER if cubes.get(c)) or "none"


def cost_text(cost: Iterable[str]) -> str:
    """A tile's cost: '2 black + brown + blue' (colours in cube order, repeats counted)."""
    counts = Counter(cost)
    return " + ".join(c if counts[c] == 1 else f"{counts[c]} {c}" for c in CUBE_ORDER if c in counts) or "nothing"


def _plural(count: int, word: str) -> str:
    """'1 law card', '2 law cards'."""
    return f"{count} {word}{'' if count == 1 else 's'}"


# --- The public table ------------------------------------------------------------------------------------


def board(public_view: Mapping[str, Any]) -> str:
    """The public table: round and phase, work order, the mat, craftsmen and store, players, the fields."""
    view = cast(KView, public_view)
    lines = [_headline(view)]
    variation = view["variation"]
    flags = [label for on, label in ((variation["two_player"], "two players"), (variation["no_laws"], "no laws"),
                                     (variation["open_tiles"], "open tiles")) if on]
    if flags:
        lines.append(f"Variations: {', '.join(flags)}.")
    if view["open_screens"]:
        lines.append("Open screens (table option): everyone's cubes and seats are shown.")
    drawn = view["drawn_field"]
    if view["phase"] == "setup" and drawn:
        lines.append(f"Field to lay: {drawn['terrain']} (back {drawn['back']}); {view['field_stack']} "
                     "left in the stack.")
    order = _work_order(view)
    if order:
        lines.append(order)
    mat, marked = _mat_lines(view)
    lines += mat
    lines.append(_craftsmen_line(view))
    lines.append(_store_line(view))
    if not variation["no_laws"]:
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
    if view["effects"]:
        lines.append("In force: " + "; ".join(view["effects"]) + ".")
    if view["pending"]:
        lines.append(f"Under way: {view['pending']}.")
    if marked:
        lines.append(RECONSTRUCTED_NOTE)
    return "\n".join(lines)


def _headline(view: KView) -> str:
    """'**Keythedral**, round 2, phase 3 (spending). Start player: Ana (blue). Waiting for Ben to ...'."""
    start = view["start_player"]
    text = (f"**Keythedral**, round {view['round']}, {PHASES[view['phase']]}. Start player: {view['names'][start]} "
            f"({view['colours'][start]}).")
    if view["waiting_for"]:
        text += f" {capitalise(view['waiting_for'])}."
    return text


def _work_order(view: KView) -> str:
    """'Work order: 1st on 3 (Ana), 2nd on 1 (Ben); placing for 1.' or '' when no marker is down."""
    markers = sorted(view["work_order"], key=lambda m: m["marker"])
    if not markers:
        return ""
    shown = [f"{ORDINALS[m['marker']]} on {m['number']} ({view['names'][m['seat']]})" for m in markers]
    now = view["current_number"]
    return f"Work order: {', '.join(shown)}" + (f"; placing for {now}." if now is not None else ".")


def _mat_lines(view: KView) -> tuple[list[str], bool]:
    """One line per stage of the mat; and whether any cost shown is reconstructed."""
    stages: dict[int, list[SpaceView]] = {}
    for space in view["mat"]:
        stages.setdefault(space["stage"], []).append(space)
    current = view["stage"]
    lines = [f"Keythedral mat{f', stage {current} on sale' if current else ''}:"]
    marked = False
    for stage in sorted(stages):
        spaces = stages[stage]
        hidden = [s for s in spaces if not s["face_up"] and not _taken(s)]
        shown: list[str] = []
        for space in spaces:
            taker = space["taken_by"]
            cost = space["cost"]
            if taker is not None:
                shown.append(f"{space['space']} {view['names'][taker]}")
            elif _taken(space):
                shown.append(f"{space['space']} taken")
            elif space["face_up"] and cost is not None:
                mark = DAGGER if space["reconstructed"] else ""
                marked = marked or bool(mark)
                change = space["price_change"]
                law_mark = f" ({change:+d} by law)" if change else ""
                shown.append(f"{space['space']} {cost_text(cost)}{mark}{law_mark}")
        if hidden:
            shown.append(f"{len(hidden)} face down")
        lines.append(f"- Stage {stage} ({_plural(stage, 'pt')} each): {'; '.join(shown)}")
    return lines, marked


def _taken(space: SpaceView) -> bool:
    """Whether a mat space's tile was taken (by whom shows only to those who see behind the buyer's screen)."""
    return space["taken"] or space["taken_by"] is not None


def _craftsmen_line(view: KView) -> str:
    """'Craftsmen: blacksmith 10 white (any 2 cubes, `smith`), ...'."""
    stock = view["craftsmen"]
    shown = [f"{CRAFTSMAN_OF[c].name} {stock[c]} {c} (any {CRAFTSMAN_OF[c].price} cubes, `{CRAFTSMAN_OF[c].verb}`)"
             for c in CRAFTS]
    return "Craftsmen: " + ", ".join(shown) + "."


def _store_line(view: KView) -> str:
    """'Store: black 18, brown 20, ...; used craft cubes: white 1.'."""
    store = view["store"]
    resources = ", ".join(f"{c} {store[c]}" for c in CUBE_ORDER if c not in CRAFTS)
    used = ", ".join(f"{c} {store[c]}" for c in CRAFTS if store[c])
    return f"Store: {resources}" + (f"; used craft cubes: {used}." if used else ".")


def _laws_line(view: KView) -> str:
    """'New laws: 2 on offer (face down), 16 in the stack. Played: Start Order.'."""
    offered = sum(1 for filled in view["law_spaces"] if filled)
    text = f"New laws: {offered} on offer (face down), {view['law_stack']} in the stack."
    played = view["laws_played"]
    return text + (f" Played: {', '.join(played)}." if played else "")


def _player_line(view: KView, player: PlayerView) -> str:
    """'- Ana (blue, start player): 3 pts (1.1, 2.3); 5 cubes: black 2, ...; 1 law card; 2 fences left; passed', or
    'cubes and seats behind the screen' in place of the points and cubes the viewer cannot see (T-1)."""
    seat = player["seat"]
    start = ", start player" if view["start_player"] == seat else ""
    if "cubes" in player:
        seats = [t["space"] for t in player["tiles"]]
        parts = [f"{_plural(player['points'], 'pt')}" + (f" ({', '.join(seats)})" if seats else ""),
                 f"{_plural(player['cube_count'], 'cube')}: {cubes_text(player['cubes'])}"]
    else:
        parts = ["cubes and seats behind the screen"]
    if not view["variation"]["no_laws"]:
        parts.append(_plural(player["laws_held"], "law card"))
    parts.append(f"{_plural(view['fences_left'][seat], 'fence')} left")
    if player["procured"]:
        parts.append("procured a law")
    elif player["passed"]:
        parts.append("passed")
    return f"- {player['name']} ({player['colour']}{start}): " + "; ".join(parts)


def _bids_line(view: KView) -> str:
    """'Bids: Cy 1, Dee 2, Ana passed.' during the bidding, or ''."""
    bids = view["bids"]
    if view["phase"] != "bidding" or not bids:
        return ""
    shown = [f"{view['names'][b['seat']]} {'passed' if b['bid'] is None else b['bid']}" for b in bids]
    return "Bids: " + ", ".join(shown) + "."


def _fields_line(view: KView) -> str:
    """'Fields (Keythedral M13+): quarry M13 (blue3), N14; woods N13, M14 (yellow2); ...'."""
    workers = {w["field"]: f"{w['colour']}{w['cottage']}" for w in view["workers"]}
    groups = []
    for terrain in TERRAINS:
        fields = sorted((f for f in view["fields"] if f["terrain"] == terrain), key=lambda f: (f["y"], f["x"]))
        if fields:
            labels = [f["at"] + (f" ({workers[f['at']]})" if f["at"] in workers else "") for f in fields]
            groups.append(f"{terrain} {', '.join(labels)}")
    where = f" (Keythedral {view['keythedral']})" if view["keythedral"] else ""
    return f"Fields{where}: " + ("; ".join(groups) or "none yet") + "."


def _cottages_line(view: KView) -> str:
    """'Cottages: blue 1 M12+, 2 N14+ house; yellow 3 L12+ (4 to lay).'."""
    groups = []
    for colour in dict.fromkeys(c["colour"] for c in view["cottages"]):
        cottages = [c for c in view["cottages"] if c["colour"] == colour]
        placed = sorted((c for c in cottages if c["at"]), key=lambda c: c["number"])
        shown = [f"{c['number']} {c['at']}" + (" house" if c["house"] else "") for c in placed]
        waiting = len(cottages) - len(placed)
        text = f"{colour} {', '.join(shown)}" if shown else colour
        groups.append(text + (f" ({waiting} to lay)" if waiting else ""))
    return "Cottages: " + ("; ".join(groups) or "none") + "."


def _fences_line(view: KView) -> str:
    """'Fences: blue M12+|M13, grey N14+|N15.' or '' when none stands."""
    fences = view["fences"]
    if not fences:
        return ""
    return "Fences: " + ", ".join(f"{f['colour']} {f['square']}|{f['field']}" for f in fences) + "."


# --- One seat's hand -------------------------------------------------------------------------------------


def held_laws(view: Mapping[str, Any]) -> list[Law]:
    """The law cards in a seat's own view (their titles), in card order; raises KeyError on a title no card has."""
    return sorted((LAW_BY_TITLE[title] for title in cast(KView, view)["laws"]), key=lambda card: card.number)


def law_reminder(card: Law) -> str:
    """'- **Sale**: on your phase-3 turn (`law sale gold`).'."""
    return f"- **{card.title}**: {card.when} (`{card.example}`)."


def hand(seat_view: Mapping[str, Any], seat: int) -> str:
    """What one seat privately holds, behind its screen: law cards with when each may be played, then cubes, seats
    and moves."""
    view = cast(KView, seat_view)
    me = view["players"][seat]
    lines = [f"{me['name']} ({me['colour']}), what you hold behind your screen:"]
    if not view["variation"]["no_laws"]:
        cards = held_laws(view)
        if cards:
            lines.append("Law cards (the rules under each title say what the card does):")
            lines += [law_reminder(card) for card in cards]
        else:
            lines.append("Law cards: none.")
    lines.append(f"Cubes ({me['cube_count']}): {cubes_text(me['cubes'])}.")
    seats = ", ".join(f"{t['space']} (stage {t['stage']})" for t in me["tiles"])
    lines.append(f"Seats: {seats or 'none'}; {_plural(me['points'], 'point')}.")
    lines.append(f"Fences left to build: {view['fences_left'][seat]}.")
    if me["procured"]:
        lines.append("You procured a law this round: no more phase-3 turns until next round.")
    legal = view["legal"]
    if legal:
        more = f" … and {len(legal) - LEGAL_SHOWN} more" if len(legal) > LEGAL_SHOWN else ""
        lines.append(f"You may: {', '.join(legal[:LEGAL_SHOWN])}{more}")
    return "\n".join(lines)
