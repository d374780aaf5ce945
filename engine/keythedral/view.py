"""What a seat may see: built by listing what is shown (ruling T-1), never by deleting what is hidden."""

from __future__ import annotations

from typing import Any

from engine.keythedral import board, decide, flow, laws
from engine.keythedral import supply as sup
from engine.keythedral.components import COMPONENTS
from engine.keythedral.legal import to_act
from engine.keythedral.state import Json, KState


def view(state: KState, seat: int | None, legal: list[str] | None = None) -> Json:
    """The public view, plus the seat's law cards and legal actions when seat is given."""
    data: Json = {
        "game": "keythedral", "viewer": seat, "names": list(state.names),
        "colours": [board.COLOURS[s] for s in range(state.n)], "round": state.round,
        "variation": {"two_player": state.n == 2, "no_laws": bool(state.options.get("no_laws")),
                      "open_tiles": bool(state.options.get("open_tiles"))},
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
        "mat": [_space(s) for s in state.mat], "stage": flow.current_stage(state),
        "craftsmen": dict(state.craftsmen), "store": {c: state.store.get(c, 0) for c in sup.CUBES},
        "law_spaces": [card is not None for card in state.law_spaces], "law_stack": len(state.law_deck),
        "laws_played": [laws.TITLES[c] for c in state.discards],
        "players": [_player(state, s) for s in range(state.n)],
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


def _space(space: Json) -> Json:
    """A mat space: its cost only when face up or taken."""
    shown = space["up"] or space["taken"] is not None
    tile = next((b for b in COMPONENTS.buildings if b.id == space["tile"]), None) if shown else None
    return {"space": space["space"], "stage": space["stage"], "face_up": bool(space["up"]),
            "tile": tile.id if tile else None, "cost": list(tile.cost) if tile else None,
            "reconstructed": bool(tile and tile.provenance == "reconstructed"), "taken_by": space["taken"],
            "price_change": space["inc"] - space["dec"]}


def _player(state: KState, seat: int) -> Json:
    """A player's public counts (T-1)."""
    cubes = {c: state.cubes[seat].get(c, 0) for c in sup.CUBES}
    return {"seat": seat, "name": state.names[seat], "colour": board.COLOURS[seat], "cubes": cubes,
            "cube_count": sup.count(cubes), "tiles": [{"space": t[0], "stage": t[2]} for t in state.tiles[seat]],
            "points": sum(t[2] for t in state.tiles[seat]), "laws_held": len(state.hands[seat]),
            "procured": state.procured[seat], "passed": state.passed[seat]}


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
