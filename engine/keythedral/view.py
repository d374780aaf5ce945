"""What a seat may see: built by listing what is shown (ruling T-1), never by deleting what is hidden.

Behind a player's screen lie their cubes, their law cards and the building tiles they acquired: only that player sees
them, unless the table chose `open_screens` or the game is over (then cubes and tiles are shown to all; law cards
stay secret until played). The public sees the board, the mats, the store and what each move did in the open.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.core import Decision
from engine.keythedral import board, decide, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.components import COMPONENTS
from engine.keythedral.legal import to_act
from engine.keythedral.state import Json, KState


def view(state: KState, seat: int | None, legal: list[str] | None = None) -> Json:
    """The public view, plus the seat's own screen (cubes, tiles, law cards) and legal actions when seat is given."""
    data: Json = {
        "game": "keythedral", "viewer": seat, "names": list(state.names),
        "colours": [board.COLOURS[s] for s in range(state.n)], "round": state.round,
        "variation": {"two_player": state.n == 2, "no_laws": bool(state.options.get("no_laws")),
                      "open_tiles": bool(state.options.get("open_tiles"))},
        "open_screens": bool(state.options.get("open_screens")),
        "phase": state.phase, "step": _step(state), "start_player": state.start,
        "to_act": to_act(state), "waiting_for": decide.waiting_for(state),
        "keythedral": state.keythedral,
        "fields": [_field(label, row) for label, row in sorted(state.fields.items(), key=lambda i: board.point(i[0]))],
        "drawn_field": _drawn(state), "field_stack": len(state.field_stack),
        "cottages": [_cottage(state, s, i, c) for s in range(state.n) for i, c in enumerate(state.cottages[s])],
        "fences": [{"seat": f["seat"], "colour": board.COLOURS[f["seat"]], "square": f["square"],
                    "field": f["field"]} for f in state.fences],
        "fences_left": [3 - b for b in state.fences_built],
        "workers": [{"seat": w[0], "colour": board.COLOURS[w[0]], "field": f, "cottage": w[1]}
                    for f, w in sorted(state.workers.items())],
        "work_order": [{"marker": i + 1, "number": m[0], "seat": m[1]} for i, m in enumerate(state.markers)],
        "current_number": flow.current_number(state),
        "mat": [_space(state, s, seat) for s in state.mat], "stage": flow.current_stage(state),
        "craftsmen": dict(state.craftsmen), "store": {c: state.store.get(c, 0) for c in sup.CUBES},
        "law_spaces": [card is not None for card in state.law_spaces], "law_stack": len(state.law_deck),
        "laws_played": [laws.TITLES[c] for c in state.discards],
        "players": [_player(state, s, sees_screen(state, seat, s)) for s in range(state.n)],
        "bids": _bids(state), "effects": list(state.effects), "pending": _pending(state),
    }
    if seat is not None:
        data["laws"] = [laws.TITLES[c] for c in sorted(state.hands[seat])]
        data["legal"] = list(legal or [])
    return data


def _step(state: KState) -> str:
    """The sub-step's machine word."""
    if state.pending:
        return str(state.pending["kind"])
    if state.windows:
        return f"{state.windows[-1]['kind']}-window"
    return state.step


def _field(label: str, row: list[Any]) -> Json:
    """A placed field tile."""
    x, y = board.point(label)
    return {"at": label, "x": x, "y": y, "terrain": row[0], "back": row[1]}


def _drawn(state: KState) -> Json | None:
    """The field tile being laid in set-up, shown to all (T-6)."""
    if state.drawn is None:
        return None
    tile = next(t for t in COMPONENTS.fields if t.id == state.drawn)
    return {"terrain": tile.terrain, "back": tile.back}


def _cottage(state: KState, seat: int, index: int, c: Json) -> Json:
    """A cottage or house, on the board or still to be laid."""
    x, y = board.point(c["at"]) if c["at"] else (None, None)
    return {"seat": seat, "colour": board.COLOURS[seat], "number": index + 1, "at": c["at"], "x": x, "y": y,
            "house": bool(c["house"])}


def screens_open(state: KState) -> bool:
    """Whether every screen's cubes and tiles are shown to all: the `open_screens` table option, or the game is over
    and the seats are counted (ruling T-1)."""
    return bool(state.options.get("open_screens")) or state.phase == "over"


def sees_screen(state: KState, viewer: int | None, seat: int) -> bool:
    """Whether the viewer (None: the public) sees the cubes and tiles behind this seat's screen (T-1)."""
    return viewer == seat or screens_open(state)


def _space(state: KState, space: Json, viewer: int | None) -> Json:
    """A mat space: its tile's cost while it lies face up on the mat; once taken, the tile is behind its buyer's
    screen, and who has it and what it cost show only to those who see that screen (T-1)."""
    taken = space["taken"]
    owner = taken if taken is not None and sees_screen(state, viewer, taken) else None
    shown = (space["up"] and taken is None) or owner is not None
    tile = next((b for b in COMPONENTS.buildings if b.id == space["tile"]), None) if shown else None
    return {"space": space["space"], "stage": space["stage"], "face_up": bool(space["up"]),
            "tile": tile.id if tile else None, "cost": list(tile.cost) if tile else None,
            "reconstructed": bool(tile and tile.provenance == "reconstructed"), "taken": taken is not None,
            "taken_by": owner, "price_change": space["inc"] - space["dec"]}


def _player(state: KState, seat: int, screen: bool) -> Json:
    """A player as the viewer sees them: how many law cards they hold and whether they procured or passed; their
    cubes, seats and points only when the viewer sees behind their screen (T-1)."""
    entry: Json = {"seat": seat, "name": state.names[seat], "colour": board.COLOURS[seat],
                   "laws_held": len(state.hands[seat]), "procured": state.procured[seat],
                   "passed": state.passed[seat]}
    if screen:
        cubes = {c: state.cubes[seat].get(c, 0) for c in sup.CUBES}
        entry.update(cubes=cubes, cube_count=sup.count(cubes),
                     tiles=[{"space": t[0], "stage": t[2]} for t in state.tiles[seat]],
                     points=sum(t[2] for t in state.tiles[seat]))
    return entry


def opens_a_screen(before: KState, after: KState) -> bool:
    """Whether a move shows what a screen hid (T-1): the game ends and the screens open for the score; or a purchase
    goes on at a price a law raised in its window, which shows whether the buyer can pay it (ruling T-29)."""
    if after.phase == "over" != before.phase:
        return True
    gone = [w for w in before.windows if w["kind"] == "purchase" and not any(
        v["kind"] == "purchase" and (v["buyer"], v["space"]) == (w["buyer"], w["space"]) for v in after.windows)]
    return any(next(s for s in after.mat if s["space"] == w["space"])["inc"] > 0 for w in gone)


SCREENED_STEPS = frozenset({"give", "price"})  # pending steps whose choices are the payer's cubes


def choices_behind_screen(state: KState) -> bool:
    """Whether the seat to act now chooses among things its screen hides (T-1): a phase-3 turn (what its cubes
    afford), a payment or a price change (which cubes it holds), a bid (how many cubes it holds)."""
    if screens_open(state):
        return False
    if state.pending:
        return state.pending["kind"] in SCREENED_STEPS
    return not state.windows and state.phase in ("actions", "bidding")


def screened(state: KState, found: list[Decision]) -> list[Decision]:
    """The decisions with the choices of a seat that must act now made private when they hang on its screen: they
    go to that seat alone, and the choice made is public once made (T-1)."""
    if not choices_behind_screen(state):
        return found
    return [replace(d, public_choices=False, secret=False) if d.must else d for d in found]


def _bids(state: KState) -> list[Json]:
    """Every bid and pass so far this phase five, in order (None: a pass; B's match shows the amount matched)."""
    if not state.bidding:
        return []
    return [{"seat": seat, "bid": amount} for seat, amount in state.bidding["bids"]]


def _pending(state: KState) -> str | None:
    """An action under way, in words."""
    p = state.pending
    if not p:
        return None
    name = state.names[p["seat"]]
    if p["kind"] == "give":
        return f"{name} is paying ({p['for']}): {sup.words(p['given'])} given so far"
    if p["kind"] == "take":
        return f"{name} chooses {p['left']} cube(s) from the store"
    return f"{name}: {decide.phrase(state)}"
