"""Final scoring (rulebook p.9 End of game, pp.15-19 tile points): examples, maxima, and the exact allocation.

The property tests compare the optimiser with a brute force over every way of allocating each resource,
animal and keyple to the tiles (or to nothing) on small random inventories.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.keyper import GAME, scoring
from engine.keyper.scoring import Board, score_lines
from engine.keyper.state import HeldFair, Plot
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW, WHEAT
from tests.keyper.scenario import table

HOME = frozenset({"cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock", "brickmaker",
                  "carpenter", "stonemason", "scrapyard", "drainage", "pavements"})


def board(tiles: dict[str, bool], goods: dict[str, int] | None = None, *, plots: dict[str, str] | None = None,
          keyples: dict[str, int] | None = None, fields: dict[str, int] | None = None, shipping: int = 0,
          fairs: tuple[tuple[str, int], ...] = (), seasons: int = 0) -> Board:
    """A scoring board; tiles not given a plot are placed on free plots of their area."""
    from engine.keyper.components import default

    placed = dict(plots or {})
    used = set(placed)
    for tile in tiles:
        if tile in placed.values():
            continue
        area = default().tiles[tile].area
        spot = next(p for p in [f"{area[0]}{i}" for i in range(1, 13)] if p not in used)
        placed[spot] = tile
        used.add(spot)
    return Board(tiles=dict(tiles), plots=placed, home=HOME, goods=dict(goods or {}), keyples=dict(keyples or {}),
                 fields=dict(fields or {}), shipping=shipping, fair_points=fairs, fair_seasons=seasons)


def points(b: Board, label_start: str) -> int:
    """The points of the score line whose label starts with this text."""
    return sum(line.points for line in score_lines(b) if line.label.startswith(label_start))


def total(b: Board) -> int:
    """A board's total score."""
    return sum(line.points for line in score_lines(b))


# --- The rulebook's scoring examples (p.9) ----------------------------------------------------------------


def test_upgraded_farmyard_scores_8_with_a_cow_horse_pig_and_sheep() -> None:
    """p.9 (iii): an upgraded farmyard with one each of cow, horse, pig and sheep scores its maximum 8."""
    assert points(board({"farmyard": True}, {"cow": 1, "horse": 1, "pig": 1, "sheep": 1}), "Farmyard") == 8


def test_upgraded_farmyard_with_a_cow_a_sheep_and_3_pigs_scores_6() -> None:
    """p.9 example: only one of each kind counts on the farmyard, so a cow, a sheep and 3 pigs give 6."""
    assert points(board({"farmyard": True}, {"cow": 1, "sheep": 1, "pig": 3}), "Farmyard") == 6


def test_upgraded_scrap_dealer_scores_8_with_8_resources() -> None:
    """p.9 (iii): 8 gems, finished goods, wheat and raw materials on an upgraded scrap dealer score 8."""
    goods = {"emerald": 2, "brick": 2, "wheat": 2, "clay": 2}
    assert points(board({"scrap_dealer": True}, goods), "Scrap dealer") == 8


def test_upgraded_chicken_house_scores_12_with_4_chickens_and_12_with_5() -> None:
    """p.9 example (Uncle Wiggily): an upgraded cluck cluck chicken house scores at most 4 chickens."""
    for chickens in (4, 5):
        assert points(board({"cluck_cluck_chicken_house": True}, {"chicken": chickens}), "Cluck") == 12


def test_upgraded_goldsmith_scores_24_with_4_sets_and_18_with_3() -> None:
    """p.9 (iii) and example: an upgraded goldsmith scores 6 per emerald+gold+sapphire set, 4 sets at most."""
    four = {"emerald": 4, "gold": 4, "sapphire": 4}
    three = {"emerald": 3, "gold": 3, "sapphire": 3}
    assert points(board({"goldsmith": True}, four), "Goldsmith") == 24
    assert points(board({"goldsmith": True}, three), "Goldsmith") == 18


def test_drainage_scores_5_with_village_tiles_on_every_diagonal() -> None:
    """p.15: drainage scores 1 plus 1 per village tile on its diagonals, gaps allowed (max 5)."""
    plots = {"v6": "drainage", "v1": "brickmaker", "v3": "carpenter", "v9": "stonemason", "v11": "scrapyard",
             "v2": "pavements"}
    tiles = dict.fromkeys(plots.values(), False)
    assert points(board(tiles, plots=plots), "Drainage") == 5


def test_upgraded_pavements_score_10_and_12_at_most() -> None:
    """p.15: upgraded pavements score 2 plus 2 per village tile in the same row or column (max 12)."""
    plots = {"v6": "pavements", "v5": "brickmaker", "v7": "carpenter", "v2": "stonemason", "v10": "scrapyard"}
    tiles = dict.fromkeys(plots.values(), False) | {"pavements": True}
    assert points(board(tiles, plots=plots), "Pavements") == 10
    plots["v8"] = "drainage"
    assert points(board(tiles | {"drainage": False}, plots=plots), "Pavements") == 12


def test_a_gem_that_could_serve_two_tiles_is_scored_once_on_the_better_one() -> None:
    """p.9 (i): the same gem cannot score on both the prospector and the ring maker; it goes where it earns most."""
    b = board({"prospector": False, "ring_maker": False}, {"gold": 1, "ruby": 1})
    lines = {line.label: line.points for line in score_lines(b)}
    assert lines == {"Ring maker": 4}


def test_overbuilt_tiles_neither_score_nor_count() -> None:
    """p.9 (v) and p.15: an overbuilt tile is not on a plot any more, so it scores nothing and is not counted."""
    state = table(2)
    state.players[0].plots = {"f1": Plot("barn", under="cow_shed"), "f2": Plot("pig_sty")}
    state.players[0].goods = {"cow": 4}
    scores = {p.seat: p for p in GAME.score(state, None).players}
    assert {line.label for line in scores[0].lines} >= {"Barn"}
    assert not any(line.label.startswith("Cow shed") for line in scores[0].lines)
    assert next(line.points for line in scores[0].lines if line.label == "Barn") == 2


# --- Maxima quoted for each tile (pp.15-19) --------------------------------------------------------------


def test_every_quoted_maximum_is_reached() -> None:
    """The 'Max.' figure of each tile is reached by a full example and never exceeded."""
    big = {r: 16 for r in RAW + FINISHED + GEMS} | {WHEAT: 20} | {a: 12 for a in ANIMALS}
    cases = {
        "cow_shed": (4, 8), "pig_sty": (4, 8), "sheep_shelter": (4, 8), "stable": (4, 8), "farmyard": (4, 8),
        "paddock": (4, 8), "cluck_cluck_chicken_house": (8, 12), "goat_pen": (8, 12),
        "game_wardens_cottage": (8, 12), "hunters_lodge": (8, 12), "brickyard": (4, 8), "stoneyard": (4, 8),
        "timberyard": (4, 8), "prospector": (4, 8), "scrap_dealer": (4, 8), "bracelet_maker": (16, 24),
        "emporium": (16, 24), "gem_merchant": (16, 24), "goldsmith": (16, 24), "jeweller": (16, 24),
        "ring_maker": (16, 24),
    }
    for tile, maxima in cases.items():
        for up, most in zip((False, True), maxima, strict=True):
            assert total(board({tile: up}, big)) == most, (tile, up)
    keyples = {"blue": 4, "orange": 4, "green": 4, "brown": 4, "grey": 4}
    for tile in scoring.KEYPLE_TILES:
        assert total(board({tile: False}, keyples=keyples)) == 4
        assert total(board({tile: True}, keyples=keyples)) == 8
    fields = {"green": 3, "orange": 2, "brown": 3, "black": 4, "grey": 3}
    for tile, maxima in {"farmers_cottage": (3, 9), "kiln": (4, 8), "log_cabin": (3, 9), "mine": (4, 8),
                         "open_pit": (3, 9)}.items():
        assert (total(board({tile: False}, fields=fields)), total(board({tile: True}, fields=fields))) == maxima
    assert total(board({"windmill": True}, big)) == 8
    assert (total(board({"entertainer": False}, seasons=4)), total(board({"entertainer": True}, seasons=4))) == (4, 8)


def test_counting_tiles_reach_their_maxima_on_a_full_board() -> None:
    """Barn 8/16, statue 6/12, thatcher 6/12, village hall 6/12, oast house 4/8, boarding house 4/8 (pp.16-17)."""
    farm = ["barn", "cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock", "goat_pen"]
    village = ["statue", "brickmaker", "carpenter", "stonemason", "scrapyard", "boarding_house", "pavements",
               "thatcher", "village_hall", "drainage", "dock", "merchant"]  # boarding house on v6, mid-grid
    plots = {f"f{i + 1}": t for i, t in enumerate(farm)} | {f"v{i + 1}": t for i, t in enumerate(village)}
    for up in (False, True):
        tiles = dict.fromkeys(farm + village, up)
        b = board(tiles, plots=plots)
        expected = {"Barn": (8, 16), "Statue": (6, 12), "Thatcher": (6, 12), "Village hall": (6, 12),
                    "Boarding house": (4, 8)}
        for label, maxima in expected.items():
            assert points(b, label) == maxima[up], (label, up)
    oast = {f"f{i + 1}": t for i, t in enumerate(["oast_house"] + farm[1:])}
    assert points(board(dict.fromkeys(oast.values(), False), plots=oast), "Oast house") == 4
    assert points(board(dict.fromkeys(oast.values(), True), plots=oast), "Oast house") == 8


def test_dock_thresholds() -> None:
    """p.16: the dock gives 6 from 20 shipping points; upgraded, 12 from 30 and nothing between 20 and 29."""
    assert points(board({"dock": False}, shipping=20), "Dock") == 6
    assert points(board({"dock": False}, shipping=19), "Dock") == 0
    assert points(board({"dock": True}, shipping=25), "Dock") == 0
    assert points(board({"dock": True}, shipping=30), "Dock") == 12


def test_white_keyples_fill_the_best_colour_tile_first() -> None:
    """pp.16-19: white keyples count as any colour, 4 keyples at most per tile, each keyple once."""
    b = board({"boatman": True, "farmer": False}, keyples={"blue": 2, "green": 1, "white": 3})
    assert points(b, "Boatman") == 8 and points(b, "Farmer") == 2


def test_stacked_fairs_and_shipping_all_count() -> None:
    """p.9 (iv): every completed fair in a stack scores, plus the shipping track."""
    state = table(2)
    state.players[0].fairground = {"summer": [HeldFair("summer-1", 3), HeldFair("winter-1", 4)]}
    state.players[0].shipping = 7
    first = next(p for p in GAME.score(state, None).players if p.seat == 0)
    assert first.total >= 14


def test_tie_broken_by_gems_then_finished_goods() -> None:
    """p.9: a tie goes to the player with more gems, then more finished goods, and so on."""
    state = table(2)
    for p in state.players:
        p.goods = {"brick": 1}
        p.shipping = 4
    state.players[1].goods = {"brick": 2}
    board_ = GAME.score(state, None)
    assert [p.seat for p in board_.players] == [1, 0]
    assert "finished goods" in board_.tie_break
    state.players[0].goods = {"brick": 1, "ruby": 1}
    board_ = GAME.score(state, None)
    assert [p.seat for p in board_.players] == [0, 1] and "gems" in board_.tie_break


# --- The optimiser equals a brute force -------------------------------------------------------------------


def brute_force(tiles: dict[str, bool], goods: dict[str, int], keyples: dict[str, int]) -> int:
    """The best total of the allocation-scored tiles, trying every destination for every unit."""
    units = [r for r, n in goods.items() for _ in range(n)] + [f"keyple:{c}" for c, n in keyples.items()
                                                                  for _ in range(n)]
    targets = [t for t in tiles if _accepts(t, tiles[t], "x") is not None]
    options = [[t for t in targets if _accepts(t, tiles[t], u)] + [None] for u in units]
    best = 0
    for choice in product(*options):
        held: dict[str, Counter[str]] = {t: Counter() for t in targets}
        for unit, where in zip(units, choice, strict=True):
            if where:
                held[where][unit] += 1
        best = max(best, sum(_value(t, tiles[t], held[t]) for t in targets))
    return best


def _accepts(tile: str, up: bool, unit: str) -> bool | None:
    """Whether a unit may be allocated to a tile; None for tiles that take no allocation."""
    if tile in scoring.KEYPLE_TILES:
        return unit.startswith("keyple:") and unit[7:] in (scoring.KEYPLE_TILES[tile], "white") or unit == "x"
    if tile in scoring.ONE_ANIMAL:
        return unit in (scoring.ONE_ANIMAL[tile][0], "x")
    if tile in scoring.MIXED_ANIMALS:
        return unit in scoring.MIXED_ANIMALS[tile] + ("x",)
    if tile in scoring.GEM_SETS:
        return unit in scoring.GEM_SETS[tile][up] + ("x",)
    if tile in scoring.YARDS:
        return unit in (scoring.YARDS[tile], "x")
    if tile == "prospector":
        return unit in GEMS + ("x",)
    if tile == "windmill" and up:
        return unit in (WHEAT, "x")
    if tile == "scrap_dealer":
        return unit in RAW + FINISHED + GEMS + (WHEAT, "x")
    return None


def _value(tile: str, up: bool, held: Counter[str]) -> int:
    """A tile's points for what was allocated to it, straight from the tile texts."""
    n = sum(held.values())
    if tile in scoring.KEYPLE_TILES:
        return (2 if up else 1) * min(4, n)
    if tile in scoring.ONE_ANIMAL:
        return scoring.ONE_ANIMAL[tile][2 if up else 1] * min(4, n)
    if tile in scoring.MIXED_ANIMALS:
        return (2 if up else 1) * len([k for k, v in held.items() if v])
    if tile in scoring.GEM_SETS:
        need = scoring.GEM_SETS[tile][up]
        return (6 if up else 4) * min([4] + [held[g] for g in need])
    if tile in scoring.YARDS or tile == "prospector":
        return (2 if up else 1) * min(4, n)
    if tile == "windmill":
        return 2 * min(4, n)
    return (2 if up else 1) * (min(8, n) // 2)


ALLOCATED = sorted(set(scoring.GEM_SETS) | set(scoring.YARDS) | {"prospector", "windmill", "scrap_dealer"}
                   | set(scoring.ONE_ANIMAL) | set(scoring.MIXED_ANIMALS) | set(scoring.KEYPLE_TILES))


@settings(max_examples=60, deadline=None)
@given(
    tiles=st.dictionaries(st.sampled_from(ALLOCATED), st.booleans(), min_size=1, max_size=3),
    goods=st.dictionaries(st.sampled_from(GEMS + FINISHED + RAW + (WHEAT,) + ANIMALS), st.integers(1, 3),
                          max_size=3),
    keyples=st.dictionaries(st.sampled_from(["blue", "green", "white"]), st.integers(1, 2), max_size=2),
)
def test_the_optimiser_equals_a_brute_force_search(tiles: dict[str, bool], goods: dict[str, int],
                                                   keyples: dict[str, int]) -> None:
    """On small random inventories the allocation found is exactly the best of all allocations."""
    if sum(goods.values()) + sum(keyples.values()) > 7:
        goods = dict(list(goods.items())[:2])
    allocated = {t: up for t, up in tiles.items()}
    found = sum(line.points for line in score_lines(board(allocated, goods, keyples=keyples)))
    assert found == brute_force(allocated, goods, keyples)
