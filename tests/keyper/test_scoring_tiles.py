"""Every building tile's end-game points on both sides (rulebook pp.15-19), with the End of game rules of p.9:
each resource and keyple scores once, at most 4 sets per tile, overbuilt tiles neither score nor count, fairs
and the shipping track, and the tie-breaks. Rulings K-28 to K-31.

Most tests build a scoring `Board` with the `board(...)` helper of test_scoring.py; where the points depend on
the state (claimed board, fairs, keyples in several places, overbuilt plots, tie-breaks) they go through
GAME.score. Village plots v1..v12 fill a 3x4 grid row by row, farm plots f1..f8 a 2x4 grid:

    v1  v2  v3  v4        f1 f2 f3 f4
    v5  v6  v7  v8        f5 f6 f7 f8
    v9  v10 v11 v12
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.scoring import Board, score_lines
from engine.keyper.state import HeldFair, Keyple, Plot, State
from engine.keyper.vocab import ANIMALS, FINISHED, GEMS, RAW, WHEAT
from tests.keyper.scenario import build, claim, table
from tests.keyper.test_scoring import board, brute_force, total

COMPS = default()
# Plenty of everything, so a tile that scored a resource would show it.
PLENTY = {r: 6 for r in RAW + FINISHED + GEMS + ANIMALS} | {WHEAT: 6}


def tile_points(b: Board, tile: str) -> int:
    """The points of one tile's score line (0 when it has none)."""
    name = COMPS.tiles[tile].name
    return sum(line.points for line in score_lines(b) if line.label in (name, name + " (upgraded)"))


def both(tile: str, goods: dict[str, int] | None = None, **kwargs: Any) -> tuple[int, int]:
    """A board's total with the tile alone, plain and upgraded."""
    return total(board({tile: False}, goods, **kwargs)), total(board({tile: True}, goods, **kwargs))


def seat_score(state: State, seat: int = 0) -> dict[str, int]:
    """GAME.score's lines of one seat, label -> points."""
    score = next(p for p in GAME.score(state, None).players if p.seat == seat)
    return {line.label: line.points for line in score.lines}


def bare(players: int = 2, **kwargs: Any) -> State:
    """A table whose players hold no goods (the three starting finished goods removed)."""
    state = table(players, **kwargs)
    for player in state.players:
        player.goods = {}
    return state


# --- Flat points (pp.15-18) -------------------------------------------------------------------------------

FLAT = [  # tile, page, plain side, upgraded side
    ("brickmaker", 15, 0, 5), ("carpenter", 15, 0, 5), ("stonemason", 15, 0, 5), ("scrapyard", 15, 0, 3),
    ("alchemist", 16, 3, 5), ("builder", 16, 0, 3), ("building_plot", 16, 1, 3), ("farm_labourer", 16, 0, 3),
    ("gem_dealer", 16, 0, 3), ("hop_field", 16, 0, 3), ("jewel_cutter", 16, 0, 3), ("livestock_market", 16, 0, 1),
    ("seafarer", 17, 0, 3), ("shipping_agent", 17, 0, 3), ("trading_post", 17, 0, 3), ("copse", 17, 0, 3),
    ("key_market", 18, 3, 5), ("merchant", 18, 3, 3),
]


@pytest.mark.parametrize(("tile", "page", "plain", "upgraded"), FLAT, ids=[f"{t}-p{p}" for t, p, _, _ in FLAT])
def test_a_flat_tile_scores_its_printed_points_on_each_side(tile: str, page: int, plain: int, upgraded: int) -> None:
    """pp.15-18, each tile's text: the converters, builders and shipping tiles score a fixed amount, most only
    once upgraded ('the upgraded tile is worth 3 points'); the alchemist and key market 3 then 5, the building
    plot 1 then 3, the livestock market 1 upgraded, the merchant 3 on both sides (K-28). Resources held, even
    the animals the hop field, livestock market and copse may hold, add nothing."""
    assert both(tile) == (plain, upgraded)
    assert both(tile, PLENTY) == (plain, upgraded)


def test_tiles_that_score_nothing_on_their_plain_side() -> None:
    """pp.15-17: brickmaker, carpenter, stonemason, scrapyard, builder, farm labourer, gem dealer, hop field,
    jewel cutter, livestock market, seafarer, shipping agent, trading post, copse and windmill give points only
    once upgraded: together, plain, with every resource at hand, they score 0."""
    plain = [t for t, _, p, _ in FLAT if p == 0] + ["windmill"]
    assert len(plain) == 15
    assert total(board(dict.fromkeys(plain, False), PLENTY)) == 0


# --- Animal tiles (pp.15, 16, 18) -------------------------------------------------------------------------

ANIMAL_CASES = [  # tile, page, animal, how many held, plain points, upgraded points
    ("cow_shed", 15, "cow", 2, 2, 4), ("pig_sty", 15, "pig", 3, 3, 6), ("sheep_shelter", 15, "sheep", 1, 1, 2),
    ("stable", 15, "horse", 5, 4, 8), ("cluck_cluck_chicken_house", 16, "chicken", 3, 6, 9),
    ("goat_pen", 16, "goat", 6, 8, 12), ("game_wardens_cottage", 18, "deer", 1, 2, 3),
    ("hunters_lodge", 18, "boar", 2, 4, 6),
]


@pytest.mark.parametrize(("tile", "page", "animal", "held", "plain", "upgraded"), ANIMAL_CASES,
                         ids=[f"{c[0]}-{c[3]}-p{c[1]}" for c in ANIMAL_CASES])
def test_an_animal_tile_scores_each_of_its_animals_up_to_four(tile: str, page: int, animal: str, held: int,
                                                              plain: int, upgraded: int) -> None:
    """pp.15-18: cow shed, pig sty, sheep shelter and stable 1 point per animal (2 upgraded); chicken house, goat
    pen, game warden's cottage and hunter's lodge 2 (3 upgraded); at most 4 animals (Max. 4/8 or 8/12)."""
    assert both(tile, {animal: held}) == (plain, upgraded)


@pytest.mark.parametrize("tile", [c[0] for c in ANIMAL_CASES])
def test_an_animal_tile_scores_only_its_own_animal(tile: str) -> None:
    """pp.15-18: each of these tiles houses one kind of animal; the other seven kinds score nothing on it."""
    own = next(c[2] for c in ANIMAL_CASES if c[0] == tile)
    assert both(tile, {a: 4 for a in ANIMALS if a != own}) == (0, 0)


FARMYARD = ("cow", "horse", "pig", "sheep")
PADDOCK = ("chicken", "deer", "goat", "boar")


@pytest.mark.parametrize(("tile", "goods", "plain", "upgraded"), [
    ("farmyard", {"cow": 4}, 1, 2),
    ("farmyard", {"cow": 3, "pig": 1}, 2, 4),
    ("farmyard", {"cow": 1, "horse": 1, "pig": 1, "sheep": 1}, 4, 8),
    ("farmyard", {a: 1 for a in PADDOCK}, 0, 0),
    ("paddock", {"goat": 1, "boar": 2}, 2, 4),
    ("paddock", {"chicken": 5, "deer": 1, "goat": 1, "boar": 1}, 4, 8),
    ("paddock", {a: 1 for a in FARMYARD}, 0, 0),
], ids=["farmyard-one-kind", "farmyard-3cows-1pig", "farmyard-all-four", "farmyard-wild-animals",
        "paddock-1goat-2boar", "paddock-all-four", "paddock-farm-animals"])
def test_farmyard_and_paddock_score_each_different_kind_once(tile: str, goods: dict[str, int], plain: int,
                                                             upgraded: int) -> None:
    """p.15, Farmyard and Paddock: each different kind among cow, horse, pig, sheep (farmyard) or chicken,
    deer, goat, wild boar (paddock) scores 1 point, 2 upgraded; more of one kind adds nothing; the other
    tile's animals score nothing (Max. 4/8)."""
    assert both(tile, goods) == (plain, upgraded)


def test_an_animal_is_scored_once_between_its_own_tile_and_the_farmyard() -> None:
    """p.9 (i) and (iii): 5 cows fill the cow shed (4) and give the farmyard its cow kind; 1 cow scores on one
    tile only; with an upgraded cow shed 4 cows all go there (8) rather than 3 there and one in the farmyard."""
    assert total(board({"cow_shed": False, "farmyard": False}, {"cow": 5})) == 5
    assert total(board({"cow_shed": False, "farmyard": False}, {"cow": 1})) == 1
    assert total(board({"cow_shed": True, "farmyard": False}, {"cow": 4})) == 8
    b = board({"hunters_lodge": True, "paddock": True}, {"boar": 5, "goat": 1})
    assert (tile_points(b, "hunters_lodge"), tile_points(b, "paddock")) == (12, 4)


# --- Keyple colour tiles (pp.17-19) -----------------------------------------------------------------------

KEYPLE_TILES = [("boatman", 17, "blue"), ("bricklayer", 17, "orange"), ("farmer", 18, "green"),
                ("lumberjack", 18, "brown"), ("quarryman", 19, "grey")]


@pytest.mark.parametrize(("tile", "page", "colour"), KEYPLE_TILES, ids=[f"{t}-p{p}" for t, p, _ in KEYPLE_TILES])
def test_a_keyple_tile_scores_its_colour_with_whites_as_any_colour_four_at_most(tile: str, page: int,
                                                                               colour: str) -> None:
    """pp.17-19: 1 point per keyple of the tile's colour (2 upgraded); white keyples count as any colour; at
    most 4 keyples are scored (Max. 4/8); keyples of other colours score nothing."""
    assert both(tile, keyples={colour: 2}) == (2, 4)
    assert both(tile, keyples={colour: 1, "white": 2}) == (3, 6)
    assert both(tile, keyples={"white": 2}) == (2, 4)
    assert both(tile, keyples={colour: 5}) == (4, 8)
    assert both(tile, keyples={colour: 3, "white": 3}) == (4, 8)
    others = {c: 3 for c in ("blue", "orange", "green", "brown", "grey", "black") if c != colour}
    assert both(tile, keyples=others) == (0, 0)


def test_white_keyples_are_shared_between_two_colour_tiles_where_they_score_most() -> None:
    """pp.17-18 and p.9 (i): each white keyple counts once; 2 whites complete the upgraded boatman (2 points
    each) rather than the plain farmer (1 each): boatman 8, farmer 2."""
    b = board({"boatman": True, "farmer": False}, keyples={"blue": 2, "green": 2, "white": 2})
    assert (tile_points(b, "boatman"), tile_points(b, "farmer")) == (8, 2)
    assert total(b) == brute_force({"boatman": True, "farmer": False}, {}, {"blue": 2, "green": 2, "white": 2})


def test_white_keyples_fill_two_tiles_of_equal_value_up_to_their_caps() -> None:
    """pp.17-18: 4 whites with 3 blue and 1 green fill both upgraded tiles to 4 keyples: 8 + 8."""
    b = board({"boatman": True, "farmer": True}, keyples={"blue": 3, "green": 1, "white": 4})
    assert (tile_points(b, "boatman"), tile_points(b, "farmer")) == (8, 8)


def test_a_single_white_keyple_scores_on_one_colour_tile_only() -> None:
    """p.9 (i): a keyple scores once, so one white keyple gives 1 point, not 1 on each of two tiles."""
    assert total(board({"boatman": False, "farmer": False}, keyples={"white": 1})) == 1


def test_keyples_in_the_keyp_on_the_keyp_tile_on_plots_and_on_the_claimed_board_all_count() -> None:
    """pp.17-19 'keyples that they have' with K-30: the keyp, the keyp tile, one's own plots and the board one
    claimed hold the player's keyples; a keyple on another player's board is no longer theirs (p.5 2a)."""
    state = bare(2)
    player = state.players[0]
    player.keyp = {"blue": 1}
    player.keyp_tile = [Keyple("blue")]
    build(state, 0, "v1", "boatman", "blue")
    player.plots["v1"] = replace(player.plots["v1"], upgraded=True)
    claim(state, 0, 1)
    state.boards[0].spaces["wheat"] = [Keyple("blue", lying=True)]
    state.boards[1].spaces["wheat"] = [Keyple("blue")]
    assert seat_score(state)["Boatman (upgraded)"] == 8
    state.boards[0].spaces.clear()
    assert seat_score(state)["Boatman (upgraded)"] == 6


# --- Tiles counting the fields of the claimed board (p.18) ------------------------------------------------

BOARD_TILES = [  # tile, border colour, points per field plain, upgraded, the quoted maximum plain
    ("farmers_cottage", "green", 1, 3, 3), ("kiln", "orange", 2, 4, 4), ("log_cabin", "brown", 1, 3, 3),
    ("mine", "black", 1, 2, 4), ("open_pit", "grey", 1, 3, 3),
]


def bordered(display_id: str, colour: str) -> int:
    """Fields of a display whose border has the colour (the river is not a field with a border to count)."""
    kinds = COMPS.field_kinds
    return sum(1 for f in COMPS.display(display_id).fields
               if kinds[f.kind].colour == colour and kinds[f.kind].category != "river")


@pytest.mark.parametrize(("tile", "colour", "plain", "upgraded", "most"), BOARD_TILES,
                         ids=[t[0] for t in BOARD_TILES])
def test_a_field_tile_counts_the_fields_of_its_colour_on_the_board_the_player_claimed(
        tile: str, colour: str, plain: int, upgraded: int, most: int) -> None:
    """p.18, Farmer's cottage, Kiln, Log cabin, Mine, Open pit: points per field of the tile's border colour
    on the country board the player claimed at the end of winter (1/3, 2/4, 1/3, 1/2, 1/3). Each of the four
    winter boards in turn, through GAME.score on a real display."""
    for number in (1, 2, 3, 4):
        for up in (False, True):
            state = bare(4, season=3)
            build(state, 0, COMPS.tiles[tile].area[0] + "1", tile)
            plot_id = COMPS.tiles[tile].area[0] + "1"
            state.players[0].plots[plot_id] = replace(state.players[0].plots[plot_id], upgraded=up)
            claim(state, 0, number)
            fields = bordered(state.boards[number - 1].display, colour)
            assert seat_score(state).get(COMPS.tiles[tile].name + (" (upgraded)" if up else ""), 0) == fields * (
                upgraded if up else plain), (number, up)


def test_the_mine_on_the_four_gem_display_scores_four_or_eight() -> None:
    """p.18, Mine: board 1 in winter shows autumn-winter-1, whose black-bordered fields are the four gem fields
    (emerald, gold, ruby, sapphire): the mine scores 4, upgraded 8 (its Max.)."""
    state = bare(4, season=3)
    assert state.boards[0].display == "autumn-winter-1"
    gems = [f.kind for f in COMPS.display("autumn-winter-1").fields if COMPS.field_kinds[f.kind].colour == "black"]
    assert sorted(gems) == sorted(GEMS)
    build(state, 0, "v1", "mine")
    claim(state, 0, 1)
    assert seat_score(state)["Mine"] == 4
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    assert seat_score(state)["Mine (upgraded)"] == 8


def test_only_the_claimed_board_counts_and_after_winter_the_last_one_claimed() -> None:
    """p.18: 'the country board that the player claimed'. Another board's fields do not count; once the
    keyper is back home (end of winter) the board recorded as claimed counts; no board claimed, no points."""
    state = bare(4, season=3)
    build(state, 0, "v1", "mine")
    assert seat_score(state).get("Mine", 0) == 0
    claim(state, 0, 2)
    assert seat_score(state)["Mine"] == bordered(state.boards[1].display, "black") == 1
    state.boards[1].keyper = None
    state.players[0].keyper_home = True
    state.players[0].board = 1
    assert seat_score(state)["Mine"] == 4


def test_the_quoted_maxima_match_the_winter_displays() -> None:
    """p.18 maxima (3/9, 4/8, 3/9, 4/8, 3/9): on the winter displays a board has at most 3 green, 2 orange,
    3 brown, 4 black and 3 grey fields, and some display reaches each figure."""
    winter = [d.id for d in COMPS.displays_by_season["winter"]]
    for _tile, colour, plain, _up, most in BOARD_TILES:
        assert max(bordered(d, colour) for d in winter) * plain == most, colour


# --- Gem sets (pp.17-19) ----------------------------------------------------------------------------------

GEM_TILES = [  # tile, page, the plain pair, the third gem of the upgraded set
    ("bracelet_maker", 17, ("emerald", "sapphire"), "ruby"), ("emporium", 17, ("ruby", "sapphire"), "gold"),
    ("gem_merchant", 18, ("emerald", "gold"), "ruby"), ("goldsmith", 18, ("gold", "sapphire"), "emerald"),
    ("jeweller", 18, ("emerald", "ruby"), "sapphire"), ("ring_maker", 19, ("gold", "ruby"), "emerald"),
]


@pytest.mark.parametrize(("tile", "page", "pair", "third"), GEM_TILES, ids=[f"{t}-p{p}" for t, p, _, _ in GEM_TILES])
def test_a_gem_tile_scores_pairs_plain_and_triples_upgraded_four_sets_at_most(tile: str, page: int,
                                                                              pair: tuple[str, str],
                                                                              third: str) -> None:
    """pp.17-19: 4 points per pair of the two gems named (plain), 6 per set of those two and the third gem
    shown in the corner (upgraded), 4 sets at most (Max. 16/24); an incomplete set scores nothing."""
    a, b = pair
    assert total(board({tile: False}, {a: 3, b: 3})) == 12
    assert total(board({tile: False}, {a: 3, b: 1})) == 4
    assert total(board({tile: False}, {a: 6, b: 5})) == 16
    assert total(board({tile: False}, {a: 4, third: 4})) == 0
    assert total(board({tile: True}, {a: 2, b: 2, third: 2})) == 12
    assert total(board({tile: True}, {a: 3, b: 1, third: 2})) == 6
    assert total(board({tile: True}, {a: 5, b: 5, third: 5})) == 24
    assert total(board({tile: True}, {a: 4, b: 4})) == 0
    others = [g for g in GEMS if g not in pair]
    assert total(board({tile: False}, {g: 4 for g in others})) == 0


def test_gems_are_shared_between_gem_tiles_in_the_best_way() -> None:
    """p.9 (i): each gem scores once. With 2 of each gem, an upgraded goldsmith (emerald+gold+sapphire) and
    plain jeweller (emerald+ruby) and emporium (ruby+sapphire) score most with one set each: 6 + 4 + 4 = 14
    (two goldsmith sets would leave only rubies: 12)."""
    tiles = {"goldsmith": True, "jeweller": False, "emporium": False}
    b = board(tiles, {g: 2 for g in GEMS})
    assert [tile_points(b, t) for t in tiles] == [6, 4, 4]
    assert total(b) == 14


def test_a_gem_wanted_by_two_pair_tiles_goes_where_it_completes_both() -> None:
    """p.9 (i): 1 emerald, 2 gold and 1 ruby: the gem merchant (emerald+gold) and the ring maker (gold+ruby)
    each get a pair, 8 points, the best of every allocation."""
    tiles = {"gem_merchant": False, "ring_maker": False}
    goods = {"emerald": 1, "gold": 2, "ruby": 1}
    assert total(board(tiles, goods)) == 8 == brute_force(tiles, goods, {})


def test_gems_beyond_four_sets_go_to_the_prospector() -> None:
    """p.9 (iii) and pp.18-19: the upgraded goldsmith takes 4 sets (24); the fifth set's 3 gems and the rubies
    go to the prospector, 4 at most (4): 28."""
    b = board({"goldsmith": True, "prospector": False}, {"emerald": 5, "gold": 5, "sapphire": 5, "ruby": 1})
    assert (tile_points(b, "goldsmith"), tile_points(b, "prospector")) == (24, 4)


# --- Yards, prospector, scrap dealer, windmill (pp.17-19) -------------------------------------------------

YARD_TILES = [("brickyard", 17, "brick", "clay"), ("stoneyard", 19, "stone", "rock"), ("timberyard", 19, "wood", "log")]


@pytest.mark.parametrize(("tile", "page", "good", "raw"), YARD_TILES, ids=[f"{t}-p{p}" for t, p, _, _ in YARD_TILES])
def test_a_yard_scores_its_finished_good_up_to_four(tile: str, page: int, good: str, raw: str) -> None:
    """pp.17 and 19, Brickyard, Stoneyard, Timberyard: 1 point per brick, stone or wood (2 upgraded), at most 4
    (Max. 4/8); its raw material and the other finished goods score nothing there."""
    assert both(tile, {good: 3}) == (3, 6)
    assert both(tile, {good: 7}) == (4, 8)
    assert both(tile, {raw: 4} | {f: 4 for f in FINISHED if f != good}) == (0, 0)


def test_the_prospector_scores_any_gem_up_to_four() -> None:
    """p.18, Prospector: 1 point per gem of any kind (2 upgraded), at most 4 gems (Max. 4/8); not other
    resources."""
    assert both("prospector", {"emerald": 1, "gold": 1, "sapphire": 1}) == (3, 6)
    assert both("prospector", {g: 2 for g in GEMS}) == (4, 8)
    assert both("prospector", {r: 4 for r in RAW + FINISHED + (WHEAT,)}) == (0, 0)


@pytest.mark.parametrize(("goods", "plain", "upgraded"), [
    ({"clay": 1}, 0, 0),
    ({"clay": 1, "brick": 1}, 1, 2),
    ({"clay": 1, "brick": 1, "ruby": 1, "wheat": 1, "log": 1}, 2, 4),
    ({"rock": 3, "stone": 3, "gold": 3, "wheat": 2}, 4, 8),
    ({a: 4 for a in ANIMALS}, 0, 0),
], ids=["one", "a-pair", "five-odd-leftover", "eleven-eight-at-most", "animals"])
def test_the_scrap_dealer_scores_pairs_of_any_resource_up_to_eight(goods: dict[str, int], plain: int,
                                                                   upgraded: int) -> None:
    """p.19, Scrap dealer: 1 point per 2 finished goods, gems, raw materials or wheat (2 upgraded), up to 8
    resources (Max. 4/8); an odd one left over scores nothing; animals are not scrap."""
    assert both("scrap_dealer", goods) == (plain, upgraded)


def test_the_upgraded_windmill_scores_wheat_up_to_four_and_the_plain_side_nothing() -> None:
    """p.17, Windmill: upgraded, each wheat (up to 4) held in the windmill scores 2 (Max. 8 pts.); the plain
    side only converts, and no other resource counts."""
    assert both("windmill", {WHEAT: 3}) == (0, 6)
    assert both("windmill", {WHEAT: 6}) == (0, 8)
    assert both("windmill", {r: 4 for r in RAW + FINISHED + GEMS}) == (0, 0)


def test_a_resource_wanted_by_two_tiles_scores_once() -> None:
    """p.9 (i): a brick on the brickyard is not also scrap; wheat in the windmill is not also scrap; a gem on
    the prospector is not also in a ring maker's pair."""
    tiles = {"brickyard": True, "scrap_dealer": True}
    b = board(tiles, {"brick": 4})
    assert (tile_points(b, "brickyard"), tile_points(b, "scrap_dealer")) == (8, 0)
    b = board({"windmill": True, "scrap_dealer": True}, {WHEAT: 4})
    assert (tile_points(b, "windmill"), tile_points(b, "scrap_dealer")) == (8, 0)
    b = board({"brickyard": False, "scrap_dealer": True}, {"brick": 6})
    assert total(b) == 6 == brute_force({"brickyard": False, "scrap_dealer": True}, {"brick": 6}, {})
    assert total(board({"prospector": True, "ring_maker": False}, {"gold": 1, "ruby": 1})) == 4


# --- Tiles that count other tiles (pp.15-17; K-29) --------------------------------------------------------


def placed(plots: dict[str, str], upgraded: Iterable[str] = ()) -> Board:
    """A board with exactly these plots; the tiles named in `upgraded` are upgraded."""
    up = set(upgraded)
    return board({t: t in up for t in plots.values()}, plots=plots)


def test_the_barn_counts_every_farm_tile_including_itself() -> None:
    """p.16, Barn: 1 point per farm tile in the farm, the barn included; village tiles do not count."""
    b = placed({"f1": "barn", "f2": "cow_shed", "f6": "pig_sty", "v1": "brickmaker", "v2": "carpenter"})
    assert tile_points(b, "barn") == 3


def test_the_upgraded_barn_counts_only_upgraded_farm_tiles() -> None:
    """p.16, Barn: upgraded, 2 points per upgraded farm tile (the barn is one), none for a plain farm tile."""
    plots = {"f1": "barn", "f2": "cow_shed", "f3": "pig_sty", "v1": "brickmaker"}
    assert tile_points(placed(plots, {"barn", "cow_shed", "brickmaker"}), "barn") == 4
    assert tile_points(placed(plots, {"barn"}), "barn") == 2


@pytest.mark.parametrize(("where", "others", "plain", "upgraded"), [
    ("v6", ["v5", "v7", "v2", "v10"], 4, 8),
    ("v6", ["v5"], 2, 2),
    ("v6", ["v2", "v10"], 0, 4),
    ("v6", ["v1", "v3", "v9", "v11", "v8"], 0, 0),
    ("v4", ["v5", "v8"], 0, 2),
    ("v5", ["v4", "v6", "v9"], 2, 4),
    ("v1", [], 0, 0),
], ids=["all-four", "left", "above-below", "diagonal-and-two-away", "right-edge", "left-edge", "alone"])
def test_the_boarding_house_scores_its_left_and_right_neighbours_and_upgraded_all_sides(
        where: str, others: list[str], plain: int, upgraded: int) -> None:
    """p.16, Boarding house (K-29): 2 points per village tile directly left or right of it; upgraded, on all
    four sides. At the grid's edge the next plot number is on the next row, not beside it (v4 and v5)."""
    fillers = ["brickmaker", "carpenter", "stonemason", "scrapyard", "alchemist"]
    plots = {where: "boarding_house"} | dict(zip(others, fillers, strict=False))
    assert tile_points(placed(plots), "boarding_house") == plain
    assert tile_points(placed(plots, {"boarding_house"}), "boarding_house") == upgraded


def test_the_boarding_house_ignores_farm_tiles() -> None:
    """p.16, Boarding house: village (not farm) tiles; farm plots at the same grid positions do not count."""
    plots = {"v1": "boarding_house", "f2": "cow_shed", "f5": "pig_sty", "f1": "stable"}
    assert tile_points(placed(plots, {"boarding_house"}), "boarding_house") == 0


@pytest.mark.parametrize(("where", "others", "count"), [
    ("v6", ["v1", "v3", "v9", "v11"], 4),
    ("v1", ["v11"], 1),
    ("v1", ["v6", "v11"], 2),
    ("v4", ["v7", "v10"], 2),
    ("v4", ["v5", "v8", "v9", "v3"], 0),
    ("v12", ["v7", "v2"], 2),
], ids=["all-four-diagonals", "gap", "whole-diagonal", "right-edge", "orthogonal-and-wrapped", "from-the-corner"])
def test_drainage_counts_village_tiles_on_its_diagonals_gaps_allowed(where: str, others: list[str],
                                                                     count: int) -> None:
    """p.15, Drainage (K-29): 1 point plus 1 per village tile on its diagonals, gaps allowed (2 and 2 per tile
    upgraded; Max. 5/10); tiles in its row or column, or on the next row by plot number, do not count."""
    fillers = ["brickmaker", "carpenter", "stonemason", "scrapyard"]
    plots = {where: "drainage"} | dict(zip(others, fillers, strict=False))
    assert tile_points(placed(plots), "drainage") == 1 + count
    assert tile_points(placed(plots, {"drainage"}), "drainage") == 2 * (1 + count)


def test_drainage_ignores_farm_tiles() -> None:
    """p.15, Drainage: village (not farm) tiles; farm plots on the same diagonal positions do not count."""
    plots = {"v1": "drainage", "f6": "cow_shed", "f8": "pig_sty"}
    assert tile_points(placed(plots), "drainage") == 1


@pytest.mark.parametrize(("where", "others", "count"), [
    ("v6", ["v5", "v7", "v8", "v2", "v10"], 5),
    ("v1", ["v4", "v9"], 2),
    ("v1", ["v6", "v11", "v12"], 0),
    ("v4", ["v5", "v8", "v12"], 2),
], ids=["full-row-and-column", "gaps", "diagonals", "right-edge"])
def test_pavements_count_village_tiles_in_their_row_and_column_gaps_allowed(where: str, others: list[str],
                                                                           count: int) -> None:
    """p.15, Pavements (K-29): 1 point plus 1 per village tile orthogonally in line, gaps allowed (2 and 2 per
    tile upgraded; Max. 6/12); diagonals and the next row's first plot do not count."""
    fillers = ["brickmaker", "carpenter", "stonemason", "scrapyard", "alchemist"]
    plots = {where: "pavements"} | dict(zip(others, fillers, strict=False))
    assert tile_points(placed(plots), "pavements") == 1 + count
    assert tile_points(placed(plots, {"pavements"}), "pavements") == 2 * (1 + count)


def test_pavements_ignore_farm_tiles() -> None:
    """p.15, Pavements: village (not farm) tiles; farm plots in the same row and column do not count."""
    plots = {"v1": "pavements", "f2": "cow_shed", "f3": "pig_sty", "f5": "stable"}
    assert tile_points(placed(plots), "pavements") == 1


def test_the_statue_counts_home_village_tiles_only() -> None:
    """p.17, Statue: 1 point per home village (not farm) tile built in the village; country village tiles
    (the statue itself included) and home farm tiles do not count."""
    plots = {"v1": "statue", "v2": "brickmaker", "v3": "drainage", "v4": "alchemist", "v5": "dock",
             "f1": "cow_shed", "f2": "farmyard"}
    assert tile_points(placed(plots), "statue") == 2


def test_the_upgraded_statue_counts_only_upgraded_home_village_tiles() -> None:
    """p.17, Statue: upgraded, 2 points per upgraded home village tile, none for plain ones; upgraded country
    and farm tiles do not count."""
    plots = {"v1": "statue", "v2": "brickmaker", "v3": "drainage", "v4": "alchemist", "f1": "cow_shed"}
    assert tile_points(placed(plots, {"statue", "brickmaker", "alchemist", "cow_shed"}), "statue") == 2
    assert tile_points(placed(plots, {"statue"}), "statue") == 0


@pytest.mark.parametrize(("village", "points"), [(1, 0), (2, 1), (5, 2), (6, 3), (12, 6)])
def test_the_thatcher_scores_one_per_two_village_tiles_rounding_down(village: int, points: int) -> None:
    """p.17, Thatcher: 1 point per 2 village (not farm) tiles, the thatcher included, rounded down (Max. 6);
    farm tiles do not count."""
    fillers = ["brickmaker", "carpenter", "stonemason", "scrapyard", "drainage", "pavements", "alchemist",
               "builder", "dock", "statue", "merchant"]
    plots = {"v1": "thatcher"} | {f"v{i + 2}": t for i, t in enumerate(fillers[:village - 1])}
    plots |= {"f1": "cow_shed", "f2": "pig_sty", "f3": "barn"}
    assert tile_points(placed(plots), "thatcher") == points


def test_the_upgraded_thatcher_scores_one_per_upgraded_village_tile() -> None:
    """p.17, Thatcher: upgraded, 1 point per upgraded village tile (itself included), none for plain ones or
    for upgraded farm tiles."""
    plots = {"v1": "thatcher", "v2": "brickmaker", "v3": "carpenter", "v4": "alchemist", "f1": "cow_shed"}
    assert tile_points(placed(plots, {"thatcher", "brickmaker", "alchemist", "cow_shed"}), "thatcher") == 3


VILLAGE_12 = ["village_hall", "brickmaker", "carpenter", "stonemason", "scrapyard", "drainage", "pavements",
              "alchemist", "builder", "dock", "statue", "merchant"]
FARM_8 = ["oast_house", "cow_shed", "pig_sty", "sheep_shelter", "stable", "farmyard", "paddock", "barn"]


def test_the_village_hall_scores_only_when_all_twelve_village_plots_are_built() -> None:
    """p.17, Village hall: 6 points (12 upgraded) if all 12 village plots are built on, else nothing; a full
    farm does not help."""
    village = {f"v{i + 1}": t for i, t in enumerate(VILLAGE_12)}
    farm = {f"f{i + 1}": t for i, t in enumerate(FARM_8[1:])}
    assert tile_points(placed(village), "village_hall") == 6
    assert tile_points(placed(village, {"village_hall"}), "village_hall") == 12
    del village["v12"]
    assert tile_points(placed(village | farm, {"village_hall"}), "village_hall") == 0


def test_the_oast_house_scores_only_when_all_eight_farm_plots_are_built() -> None:
    """p.16, Oast house: 4 points (8 upgraded) if all 8 farm plots hold a building tile, else nothing; a full
    village does not help."""
    farm = {f"f{i + 1}": t for i, t in enumerate(FARM_8)}
    village = {f"v{i + 1}": t for i, t in enumerate(VILLAGE_12)}
    assert tile_points(placed(farm), "oast_house") == 4
    assert tile_points(placed(farm, {"oast_house"}), "oast_house") == 8
    del farm["f8"]
    assert tile_points(placed(farm | village, {"oast_house"}), "oast_house") == 0


def test_one_tile_is_counted_by_drainage_pavements_statue_thatcher_and_village_hall() -> None:
    """p.9 (ii) and its example: the same building tile may be scored by the drainage, pavements, statue,
    thatcher and village hall. The brickmaker on v6 lies on the drainage's diagonal (v1) and the pavements'
    column (v2) and is a home village tile: taking it away costs each of the five tiles points."""
    plots = {"v1": "drainage", "v2": "pavements", "v3": "statue", "v4": "thatcher", "v5": "village_hall",
             "v6": "brickmaker", "v7": "carpenter", "v8": "stonemason", "v9": "scrapyard", "v10": "alchemist",
             "v11": "builder", "v12": "dock"}
    counters = ["drainage", "pavements", "statue", "thatcher", "village_hall"]
    assert [tile_points(placed(plots), t) for t in counters] == [3, 6, 6, 6, 6]
    del plots["v6"]
    assert [tile_points(placed(plots), t) for t in counters] == [2, 5, 5, 5, 0]


# --- Dock, entertainer, fairs, shipping (pp.9, 16, 17) ----------------------------------------------------


@pytest.mark.parametrize(("shipping", "plain", "upgraded"), [(0, 0, 0), (19, 0, 0), (20, 6, 0), (29, 6, 0),
                                                             (30, 6, 12), (41, 6, 12)])
def test_the_dock_thresholds(shipping: int, plain: int, upgraded: int) -> None:
    """p.16, Dock: 6 points from 20 shipping points; upgraded, 12 from 30, and no longer the 6 between 20 and 29.
    The shipping points themselves score as well (p.9)."""
    assert both("dock", shipping=shipping) == (shipping + plain, shipping + upgraded)


def test_the_entertainer_scores_each_season_with_a_fair_held() -> None:
    """p.17, Entertainer: 1 point per season in which one or more fairs were held (2 upgraded; Max. 4/8); two
    fairs stacked in one season make one season."""
    state = bare(2)
    build(state, 0, "v1", "entertainer")
    assert seat_score(state).get("Entertainer", 0) == 0
    state.players[0].fairground = {"summer": [HeldFair("summer-1", 3), HeldFair("winter-1", 4)],
                                   "autumn": [HeldFair("autumn-1", 2)]}
    assert seat_score(state)["Entertainer"] == 2
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    assert seat_score(state)["Entertainer (upgraded)"] == 4
    state.players[0].fairground |= {"spring": [HeldFair("spring-1", 2)], "winter": [HeldFair("winter-2", 6)]}
    assert seat_score(state)["Entertainer (upgraded)"] == 8


def test_every_held_fair_scores_its_points_stacked_ones_included() -> None:
    """p.9 (iv) and p.14: each held fair scores the points of the side shown, every tile of a stack counting;
    fairs not held (still hidden or waiting) score nothing."""
    state = bare(2)
    state.players[0].fairground = {"summer": [HeldFair("summer-1", 3), HeldFair("winter-1", 4)],
                                   "autumn": [HeldFair("autumn-1", 2)]}
    state.players[0].winter_fairs = ["winter-2"]
    lines = seat_score(state)
    assert sorted(p for label, p in lines.items() if "fair" in label) == [2, 3, 4]
    assert sum(lines.values()) == 9


def test_the_shipping_track_scores_its_points() -> None:
    """p.9: the points from the shipping score track are added."""
    state = bare(2)
    state.players[0].shipping = 13
    assert seat_score(state) == {"shipping track": 13}


# --- Overbuilt tiles (p.9 (v), p.15) ----------------------------------------------------------------------


def overbuilt(*plots: tuple[str, Plot]) -> State:
    """A bare 2-player table where seat 0 has exactly these plots."""
    state = bare(2)
    state.players[0].plots = dict(plots)
    return state


def test_an_overbuilt_tile_scores_nothing() -> None:
    """p.9 (v) and p.15: an upgraded alchemist (5) and a key market (3) built over score nothing; the tiles on
    top score their own points."""
    state = overbuilt(("v1", Plot("brickmaker", under="alchemist")), ("v2", Plot("builder", under="key_market")),
                      ("f1", Plot("stable", under="cow_shed")))
    state.players[0].goods = {"cow": 4}
    assert seat_score(state) == {}
    state.players[0].plots["v1"] = replace(state.players[0].plots["v1"], upgraded=True)
    assert seat_score(state) == {"Brickmaker (upgraded)": 5}


def test_an_overbuilt_counting_tile_scores_nothing() -> None:
    """p.15: overbuilt drainage and barn do not score, though the plots around them are built."""
    state = overbuilt(("v1", Plot("key_market", under="drainage")), ("v6", Plot("brickmaker")),
                      ("f1", Plot("cow_shed", under="barn")), ("f2", Plot("pig_sty")))
    assert seat_score(state) == {"Key market": 3}


def test_the_barn_does_not_count_the_tile_underneath() -> None:
    """p.15 (not scored by other tiles): a stacked plot counts once, as its top tile; an upgraded cow shed under
    a plain pig sty gives the upgraded barn nothing."""
    state = overbuilt(("f1", Plot("barn")), ("f2", Plot("pig_sty", under="cow_shed")))
    assert seat_score(state)["Barn"] == 2
    state.players[0].plots["f1"] = replace(state.players[0].plots["f1"], upgraded=True)
    assert seat_score(state)["Barn (upgraded)"] == 2


def test_the_statue_and_thatcher_do_not_count_the_tile_underneath() -> None:
    """p.15: 'not scored by other tiles, e.g. by the ... statue or thatcher': a home brickmaker under an
    alchemist is no home tile for the statue; the plot holds one village tile for the thatcher; an upgraded
    carpenter under a plain builder is no upgraded tile for the upgraded thatcher or statue."""
    state = overbuilt(("v1", Plot("statue")), ("v2", Plot("alchemist", under="brickmaker")),
                      ("v3", Plot("stonemason")), ("v4", Plot("thatcher")))
    assert seat_score(state)["Statue"] == 1
    assert seat_score(state)["Thatcher"] == 2
    state.players[0].plots["v2"] = Plot("builder", under="carpenter")
    for plot_id in ("v1", "v4"):
        state.players[0].plots[plot_id] = replace(state.players[0].plots[plot_id], upgraded=True)
    assert seat_score(state).get("Statue (upgraded)", 0) == 0
    assert seat_score(state)["Thatcher (upgraded)"] == 2


def test_drainage_and_pavements_count_a_stacked_plot_once() -> None:
    """p.15: 'not scored by other tiles, e.g. by the drainage, pavement ...': the tile underneath adds
    nothing; the plot counts once, for the tile on top."""
    state = overbuilt(("v1", Plot("drainage")), ("v6", Plot("alchemist", under="carpenter")),
                      ("v2", Plot("builder", under="stonemason")), ("v4", Plot("pavements")))
    lines = seat_score(state)
    assert lines["Drainage"] == 2  # v6, once
    assert lines["Pavements"] == 3  # v1 and v2 (once) in its row


# --- Tie-breaks (p.9) -------------------------------------------------------------------------------------

TIE_BREAK = [  # the rulebook's order: the category named in the explanation, a resource of it
    ("gems", "ruby"), ("finished goods", "brick"), ("wheat", "wheat"), ("raw materials", "clay"),
    ("deer", "deer"), ("boar", "boar"), ("goat", "goat"), ("chicken", "chicken"), ("horse", "horse"),
    ("cow", "cow"), ("pig", "pig"), ("sheep", "sheep"),
]


@pytest.mark.parametrize("index", range(len(TIE_BREAK)), ids=[c.replace(" ", "-") for c, _ in TIE_BREAK])
def test_a_tie_is_broken_by_the_first_category_in_the_rulebooks_order(index: int) -> None:
    """p.9: players level on points are ranked by gems, then finished goods, wheat, raw materials, deer, wild
    boar, goats, chickens, horses, cows, pigs and sheep, each in that order: one more of a category wins even
    against many more of every later category, and the explanation names the deciding category."""
    category, resource = TIE_BREAK[index]
    state = bare(2)
    state.players[1].goods = {resource: 1}
    state.players[0].goods = {r: 5 for _, r in TIE_BREAK[index + 1:]}
    state.players[0].shipping = state.players[1].shipping = 4
    scoreboard = GAME.score(state, None)
    assert [p.total for p in scoreboard.players] == [4, 4]
    assert [p.seat for p in scoreboard.players] == [1, 0]
    explained = scoreboard.tie_break
    assert "P1" in explained and "P0" in explained and f"{category} (1 to 0)" in explained, explained
    assert not [c for c, _ in TIE_BREAK if c != category and f"{c} (" in explained], explained


def test_no_tie_break_when_the_points_differ() -> None:
    """p.9: the tie-break applies only to a tie; more points win whatever the gems."""
    state = bare(2)
    state.players[0].shipping = 5
    state.players[1].shipping = 4
    state.players[1].goods = {"ruby": 3}
    scoreboard = GAME.score(state, None)
    assert [p.seat for p in scoreboard.players] == [0, 1] and scoreboard.tie_break == ""


def test_a_full_tie_is_explained() -> None:
    """p.9: players equal on points and on every tie-break stay tied, and the explanation says so."""
    state = bare(3)
    for seat in (0, 1):
        state.players[seat].goods = {"ruby": 1, "brick": 2, "cow": 1}
        state.players[seat].shipping = 6
    scoreboard = GAME.score(state, None)
    assert [p.seat for p in scoreboard.players] == [0, 1, 2]
    explained = scoreboard.tie_break
    assert "P0" in explained and "P1" in explained and "every tie-break" in explained, explained
    assert "P2" not in explained and not [c for c, _ in TIE_BREAK if f"{c} (" in explained], explained
