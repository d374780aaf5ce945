"""The end of the game: each player's score, their best allocation found by engine.keyflower.scoring, with the
village's own points (tile faces, boats' winter scoring, turn-order tiles' connections) and Flipper's free flip
chosen for the best total (reference §8, rulings F-19, F-25)."""

from __future__ import annotations

from dataclasses import replace

from engine.core import PlayerScore, Scoreboard, ScoreLine
from engine.keyflower import celeste, scoring
from engine.keyflower import transport as tr
from engine.keyflower import village as vg
from engine.keyflower.components import Face
from engine.keyflower.pieces import BOATS, ORDER, is_tile, shown_face, tile
from engine.keyflower.state import KfState


def scoreboard(state: KfState, final: bool) -> Scoreboard:
    """Every player's best score, ranked; equal totals share their place (no tie-break, F-25)."""
    players = [PlayerScore(s, state.names[s], tuple(ScoreLine(*line) for line in best_lines(state, s)))
               for s in range(state.n)]
    ranked = tuple(sorted(players, key=lambda p: (-p.total, p.seat)))
    totals = [p.total for p in ranked]
    tied = len(set(totals)) < len(totals)
    return Scoreboard(ranked, final=final,
                      tie_break="Equal totals share their place: Keyflower has no tie-break (F-25)." if tied else "")


def best_lines(state: KfState, seat: int) -> list[tuple[str, int, str]]:
    """A player's score lines, with Flipper's free flip (when owned) on the tile that scores most."""
    flips: list[str | None] = [None]
    if any(p.tile in BOATS and BOATS[p.tile].scoring == "flipper" for p in state.villages[seat].values()):
        flips += [p.tile for p in state.villages[seat].values()
                  if is_tile(p.tile) and not p.up and tile(p.tile).back is not None]
    best: list[tuple[str, int, str]] = []
    for flip in flips:
        lines = _lines(state, seat, flip)
        if not best or sum(x[1] for x in lines) > sum(x[1] for x in best):
            best = lines
    return best


def _lines(state: KfState, seat: int, flip: str | None) -> list[tuple[str, int, str]]:
    """The score lines with one tile flipped for free (Flipper), or none."""
    village = state.villages[seat]
    powers = tr.powers(state, seat)
    placed = tr.village(state, seat)
    fixed: list[tuple[str, int]] = []
    storage: list[scoring.Storage] = []
    winter: list[str] = []
    loose: dict[str, int] = {}
    tile_points = 0
    white_wind = False
    for key, p in village.items():
        tid = p.tile
        if tid in BOATS:
            boat = BOATS[tid]
            if boat.scoring == "white-wind":
                white_wind = True
            else:
                fixed.append((boat.name, _boat_points(boat.scoring, state, seat, placed, powers)))
            continue
        if tid == celeste.LOC:
            fixed.append(celeste.tile_line(state, seat))
            continue
        if tid.startswith(ORDER):
            fixed.append((f"Turn-order tile {tid[6:]}",
                          vg.connections(placed, tr.sides, tr.pos_of(key), "2a" in powers)))
            continue
        t = tile(tid)
        face = shown_face(t, p.up or tid == flip)
        tile_points += face.points
        if t.kind == "winter" and face.scoring:
            winter.append(face.scoring)
        res = dict(p.res)
        if face.kind == "store":
            storage.append(scoring.Storage(t.name, face.store or "any", face.per, dict(p.stored)))
            for kind, n in p.stored.items():
                res[kind] = res.get(kind, 0) - n
        for kind, n in res.items():
            if n > 0:
                loose[kind] = loose.get(kind, 0) + n
    fixed.insert(0, ("Tile points", tile_points))
    if flip is not None:
        fixed.append(("Flipper's free flip", 0))
    holdings = scoring.Holdings(winter=tuple(winter), storage=tuple(storage), resources=loose,
                                skills=dict(state.skills[seat]), workers=dict(state.workers[seat]),
                                purple=seat == state.start, any_resource="3b" in powers, white_wind=white_wind,
                                fixed=tuple(fixed))
    total, lines = scoring.best_score(holdings)
    if holdings.purple and celeste.LOC in {p.tile for p in village.values()}:  # the keyple as a ghost (F-42)
        as_ghost = replace(holdings, purple=False, fixed=(*holdings.fixed, celeste.purple_line()))
        alt_total, alt_lines = scoring.best_score(as_ghost)
        if alt_total > total:
            lines = alt_lines
    return [(line.label, line.points, line.detail) for line in lines]


def _boat_points(key: str, state: KfState, seat: int, placed: vg.Village, powers: set[str]) -> int:
    """A boat's winter points from the village (reference §9.3)."""
    transport = sum(_face(state, seat, k).transport for k in state.villages[seat]
                    if is_tile(_tile_at(state, seat, k)))
    river = vg.sea_breese_points(len(vg.river_boats(placed, tr.sides)))
    return scoring.boat_points(key, transport=transport, doubled="2b" in powers,
                               loop_tiles=vg.road_loop_tiles(placed, tr.sides), river_points=river)


def _tile_at(state: KfState, seat: int, key: str) -> str:
    """The tile id at a village position."""
    return state.villages[seat][key].tile


def _face(state: KfState, seat: int, key: str) -> Face:
    """The face a village tile shows."""
    p = state.villages[seat][key]
    t = tile(p.tile)
    return shown_face(t, p.up)

