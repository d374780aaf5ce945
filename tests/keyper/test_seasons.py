"""Setting up, ending a season and starting the next one (rulebook pp.2-3 and pp.8-9)."""

from __future__ import annotations

import json

import pytest

from engine.keyper import GAME
from engine.keyper.components import default
from engine.keyper.state import HeldFair, Keyple, State
from engine.keyper.vocab import SEASONS
from tests.keyper.scenario import (
    build,
    choose_displays,
    end_season,
    give,
    goods,
    have,
    last_keyple,
    legal,
    pending,
    place,
    play,
    run,
    table,
    take_all,
    texts,
)

COMPS = default()
TEAM = {"blue": 1, "orange": 1, "green": 1, "brown": 1, "black": 1, "grey": 1, "white": 2}


def no_fairs(state: State) -> State:
    """Take every seasonal fair away, so the end of the season goes straight to housing."""
    for player in state.players:
        player.hidden_fairs = []
    return state


# --- Setup (pp.2-3) -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_board_per_player_showing_spring_display_k_on_board_k(players: int) -> None:
    """rulebook p.2, set-up note 1: one country board per player, board k folded to spring display k."""
    state = GAME.setup([f"P{i}" for i in range(players)], 5)
    assert [b.number for b in state.boards] == list(range(1, players + 1))
    for board in state.boards:
        shown = COMPS.display(board.display)
        assert "spring" in shown.seasons and shown.number == board.number
        assert board.keyper is None and board.boat is None and not any(board.spaces.values())


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_eight_spring_country_tiles_are_displayed(seed: int) -> None:
    """rulebook p.2, set-up note 2: 8 tiles drawn from the bag of spring country tiles."""
    state = GAME.setup(["A", "B", "C"], seed)
    assert len(state.display) == len(set(state.display)) == 8
    assert all(COMPS.tiles[t].origin == "country" and COMPS.tiles[t].spring for t in state.display)
    spring = {t.id for t in COMPS.tiles.values() if t.origin == "country" and t.spring}
    assert set(state.display) | set(state.bag) == spring
    assert not set(state.display) & set(state.bag)


def test_four_of_the_six_boats_show_their_spring_side() -> None:
    """rulebook p.2, set-up note 4: four random boats of six, spring side up; a river keyple uses that side."""
    state = table(3, active=0)
    assert len(state.boats) == len(set(state.boats)) == 4
    assert set(state.boats) <= set(COMPS.boats)
    boat = state.boats[0]
    give(state, 0, grey=1)
    give(state, 1, green=1)
    give(state, 2, green=1)
    state, _ = play(state, 0, f"play grey 1.river {boat}")
    assert pending(state) == [(0, COMPS.boats[boat].side_for("spring").resources)]


@pytest.mark.parametrize("players", [3, 4])
def test_each_player_starts_with_eight_keyples(players: int) -> None:
    """rulebook p.2, set-up note 9: one keyple of each of the six colours and two white ones, keyper home."""
    state = GAME.setup([f"P{i}" for i in range(players)], 3)
    for player in state.players:
        assert {c: n for c, n in player.keyp.items() if n} == TEAM
        assert player.keyper_home and player.keyp_tile == []


@pytest.mark.parametrize("seed", range(12))
def test_two_players_each_get_a_different_ninth_keyple(seed: int) -> None:
    """rulebook p.3, two-player note (ruling K-16): each draws a ninth keyple from one brown, one green, one
    grey and one orange, so the two extras differ."""
    state = GAME.setup(["A", "B"], seed)
    extras = []
    for player in state.players:
        assert sum(player.keyp.values()) == 9
        extra = [c for c, n in player.keyp.items() if n > TEAM.get(c, 0)]
        assert len(extra) == 1 and extra[0] in {"brown", "green", "grey", "orange"}
        extras += extra
    assert extras[0] != extras[1]


def test_each_player_starts_with_a_brick_a_wood_and_a_stone() -> None:
    """rulebook p.3, set-up note 12: one of each finished good, taken from the supply."""
    state = GAME.setup(["A", "B", "C", "D"], 9)
    for player in state.players:
        assert player.goods == {"brick": 1, "stone": 1, "wood": 1}
    for good in ("brick", "stone", "wood"):
        assert state.supply[good] == COMPS.supply[good] - 4


def test_each_player_gets_one_hidden_fair_per_season() -> None:
    """rulebook p.3, set-up note 13: a spring, a summer and an autumn fair each, face down: no two players
    share one, and the others see only how many a player holds."""
    state = GAME.setup(["A", "B", "C", "D"], 4)
    dealt = [f for p in state.players for f in p.hidden_fairs]
    assert len(dealt) == len(set(dealt)) == 12
    for player in state.players:
        assert sorted(COMPS.fairs[f].kind for f in player.hidden_fairs) == ["autumn", "spring", "summer"]
    view = GAME.view(state, 1)
    assert view["players"][1]["hidden_fairs"] == state.players[1].hidden_fairs
    assert [view["players"][s]["hidden_fairs"] for s in (0, 2, 3)] == [3, 3, 3]


def test_the_start_player_comes_from_the_seed() -> None:
    """rulebook p.3, set-up note 14 (ruling K-17): the start player is drawn at random from the seed."""
    starts = set()
    for seed in range(40):
        state = GAME.setup(["A", "B", "C"], seed)
        assert state.active == state.start_player
        assert GAME.to_act(state) == [state.active]
        assert GAME.setup(["A", "B", "C"], seed).active == state.active
        starts.add(state.active)
    assert starts == {0, 1, 2}


def test_same_seed_same_setup_other_seed_other_setup() -> None:
    """rulebook p.3, set-up (engine contract): the whole setup is a function of the seed."""
    one = GAME.to_json(GAME.setup(["A", "B", "C"], 42))
    assert one == GAME.to_json(GAME.setup(["A", "B", "C"], 42))
    assert one != GAME.to_json(GAME.setup(["A", "B", "C"], 43))


@pytest.mark.parametrize("names", [[], ["A"], ["A", "B", "C", "D", "E"]])
def test_bad_player_count_is_refused(names: list[str]) -> None:
    """rulebook p.1: Keyper is for 2 to 4 players."""
    with pytest.raises(ValueError):
        GAME.setup(names, 1)


def test_unknown_option_is_refused() -> None:
    """Engine contract (setup options): an option the engine does not know is an error, not ignored."""
    with pytest.raises(ValueError, match="turbo"):
        GAME.setup(["A", "B"], 1, {"turbo": True})


# --- End of season: the last turns (p.8, note 1) ------------------------------------------------------


def test_after_the_last_piece_every_other_player_gets_one_lay_down_turn_clockwise() -> None:
    """rulebook p.8, End of season note 1: once the last keyper or keyple has been played, each other player
    has exactly one lay-down turn, clockwise from that player's left, and then the season ends."""
    state = no_fairs(table(3, active=0))
    last_keyple(state, 1, "black")
    place(state, 1, "pig", "green", "green")
    place(state, 3, "pig", "green", "green")
    place(state, 3, "cow", "brown")
    state, events = play(state, 1, "play black 2.wheat")
    state, more = take_all(state)
    events += more
    assert any(t.startswith("Every keyper and keyple has been played") for t in texts(events))
    assert GAME.to_act(state) == [2]
    state, _ = play(state, 2, "laydown 3.pig x2")
    state, _ = take_all(state)
    assert GAME.to_act(state) == [0]
    state, _ = play(state, 0, "laydown 1.pig x2")
    state, events = take_all(state)
    assert any(t == "The spring season ends." for t in texts(events))
    assert state.phase == "choose_display"
    assert state.boards[2].spaces == {}  # retrieved with 3.cow still standing: no second lay-down turn


def test_the_player_who_played_last_gets_no_extra_turn() -> None:
    """rulebook p.8, End of season note 1 and p.9 note 5: the one who played the last piece has no lay-down
    turn, even with keyples standing on the claimed board."""
    state = table(2, active=0)
    last_keyple(state, 0, "black")
    build(state, 0, "v1", "brickmaker")
    build(state, 0, "v3", "carpenter", "green", "green")
    state.players[0].goods.clear()  # nothing to convert or pay an upgrade with: the unit is lost at once
    state, events = play(state, 0, "play black v1")
    assert any("P1 has no keyple to lay down" in t for t in texts(events))
    assert any(t == "The spring season ends." for t in texts(events))
    assert state.phase not in ("turn", "joiner", "yields")


# --- Fairs (p.8, note 3) ------------------------------------------------------------------------------


def fair_table(season: int, fairs: list[str], winter: list[str] | None = None, **resources: int) -> State:
    """A table in `season` where seat 0 holds exactly these fairs and goods, seat 1 will play last."""
    state = table(3, active=0, season=season)
    state.players[0].hidden_fairs = list(fairs)
    state.players[0].winter_fairs = list(winter or [])
    goods(state, 0, brick=0, stone=0, wood=0)
    goods(state, 0, **resources)
    for seat in (1, 2):
        state.players[seat].hidden_fairs = []
    return state


def test_the_spring_fair_is_held_only_in_spring() -> None:
    """rulebook p.8, End of season note 3: each seasonal fair is held only in its own season, even when the
    goods for a later season's fair are already there."""
    state = fair_table(0, ["spring-1", "summer-2", "autumn-1"], sheep=1, rock=1, cow=1, wood=1)
    state, _ = end_season(state, 1)
    assert state.phase == "fairs" and GAME.to_act(state) == [0]
    assert legal(state, 0) == ["hold spring-1", "done"]
    state, events = play(state, 0, "hold spring-1")
    assert state.players[0].fairground["spring"] == [HeldFair("spring-1", 2)]
    assert (have(state, 0, "rock"), have(state, 0, "wood")) == (1, 1)  # shown, not spent


def test_an_unheld_seasonal_fair_is_discarded() -> None:
    """rulebook p.8, End of season note 3 (i): a seasonal fair not held in its season goes back to the box."""
    state = fair_table(0, ["spring-1", "summer-2", "autumn-1"], sheep=1, rock=1)
    state, _ = end_season(state, 1)
    state, _ = play(state, 0, "done")
    assert state.players[0].hidden_fairs == ["summer-2", "autumn-1"]
    assert state.players[0].fairground == {}


def test_a_finished_good_counts_as_its_raw_material_at_a_fair() -> None:
    """rulebook p.10, Notes on resources and p.8 note 3: a stone may be shown where a rock is asked for."""
    state = fair_table(0, ["spring-1"], sheep=1, stone=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == ["hold spring-1", "done"]


def test_without_the_resources_no_fair_is_offered() -> None:
    """rulebook p.8, End of season note 3: all the resources must be shown; short of one, nothing to hold."""
    state = fair_table(0, ["spring-1"], sheep=1)
    state, _ = end_season(state, 1)
    assert state.phase != "fairs"
    assert state.players[0].hidden_fairs == []


@pytest.mark.parametrize(("cows", "held"), [(1, ["summer-2"]), (2, ["summer-2", "winter-7"])])
def test_a_resource_is_shown_at_one_fair_only_per_season(cows: int, held: list[str]) -> None:
    """rulebook p.8, End of season note 3: two fairs needing the same cow need two cows; with one cow only
    one of them can be held this season (the winter fair stays for later)."""
    state = fair_table(1, ["summer-2"], ["winter-7"], cow=cows, wood=1, sheep=1, brick=1, stone=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == ["hold summer-2", "hold winter-7:4", "done"]
    state, _ = play(state, 0, "hold summer-2")
    if cows == 2:
        assert legal(state, 0) == ["hold winter-7:4", "done"]
        state, _ = play(state, 0, "hold winter-7:4")
    assert [h.fair for h in state.players[0].fairground["summer"]] == held
    assert state.phase != "fairs"
    assert state.players[0].winter_fairs == [f for f in ["winter-7"] if f not in held]


@pytest.mark.parametrize(
    ("season", "sides"), [(1, ["hold winter-1:4"]), (2, ["hold winter-1:4", "hold winter-1:6"]),
                          (3, ["hold winter-1:6"])])
def test_winter_fair_sides_by_season(season: int, sides: list[str]) -> None:
    """rulebook p.8 note 3 and p.14, Fair tiles: a winter fair shows its 4-point side in summer or autumn and
    its 6-point side in autumn or winter; in autumn the player picks the side."""
    state = fair_table(season, [], ["winter-1"], cow=2, wheat=1, brick=1, emerald=1, gold=1)
    state, _ = end_season(state, 1)
    assert legal(state, 0) == sides + ["done"]
    state, _ = play(state, 0, sides[-1])
    points = int(sides[-1].split(":")[1])
    assert state.players[0].fairground[SEASONS[season]] == [HeldFair("winter-1", points)]
    line = [ln for ps in GAME.score(state, None).players if ps.seat == 0 for ln in ps.lines if "winter-1" in ln.label]
    assert [ln.points for ln in line] == [points]


def test_an_unheld_winter_fair_waits_for_a_later_season() -> None:
    """rulebook p.8 note 3 (ii): a winter fair may be held at the end of summer, autumn or winter, so one not
    held in summer is kept."""
    state = fair_table(1, [], ["winter-1"])
    state, _ = end_season(state, 1)
    assert state.players[0].winter_fairs == ["winter-1"]


def test_an_unheld_winter_fair_is_discarded_after_winter() -> None:
    """rulebook p.8 note 3 (ii): a winter fair still unheld at the end of winter is discarded."""
    state = fair_table(3, [], ["winter-1"])
    state, _ = end_season(state, 1)
    assert state.players[0].winter_fairs == []


# --- Housing animals (p.8, note 4) --------------------------------------------------------------------


def test_at_most_four_animals_per_matching_farm_tile() -> None:
    """rulebook p.8, End of season note 4: a farm tile houses up to four animals of the types it shows; the
    rest return to the supply without any decision."""
    state = no_fairs(table(3, active=0))
    build(state, 0, "f1", "pig_sty")
    goods(state, 0, pig=6)
    before = state.supply["pig"]
    state, events = end_season(state, 1)
    assert have(state, 0, "pig") == 4
    assert state.supply["pig"] == before + 2
    assert any("P0's 2 pigs wander off" in t for t in texts(events))


def test_animals_without_a_farm_tile_are_all_lost() -> None:
    """rulebook p.8, End of season note 4: an animal with no tile depicting its type wanders off."""
    state = no_fairs(table(3, active=0))
    build(state, 0, "f1", "pig_sty")
    goods(state, 0, cow=3, pig=1)
    state, _ = end_season(state, 1)
    assert (have(state, 0, "cow"), have(state, 0, "pig")) == (0, 1)


def test_forced_housing_is_settled_automatically() -> None:
    """rulebook p.8, End of season note 4 (ruling K-12): when every best housing keeps the same animals, no
    one is asked."""
    state = no_fairs(table(3, active=0))
    build(state, 0, "f1", "pig_sty")
    build(state, 0, "f2", "cow_shed")
    goods(state, 0, cow=5, pig=5)
    state, _ = end_season(state, 1)
    assert state.phase == "choose_display"
    assert (have(state, 0, "cow"), have(state, 0, "pig")) == (4, 4)


@pytest.mark.parametrize(("releases", "kept"), [(["cow"], (4, 4)), (["pig", "pig"], (5, 3))])
def test_the_player_chooses_which_animals_stay(releases: list[str], kept: tuple[int, int]) -> None:
    """rulebook p.8, End of season note 4 (ruling K-12): a farmyard (cows, horses, pigs, sheep) and a cow
    shed with 5 cows and 5 pigs house 8; the player decides which two go."""
    state = no_fairs(table(3, active=0))
    build(state, 0, "f1", "farmyard")
    build(state, 0, "f2", "cow_shed")
    goods(state, 0, cow=5, pig=5)
    state, _ = end_season(state, 1)
    assert state.phase == "housing" and GAME.to_act(state) == [0]
    assert legal(state, 0) == ["release cow", "release pig"]
    state, _ = run(state, [(0, f"release {a}") for a in releases])
    assert state.phase == "choose_display"
    assert (have(state, 0, "cow"), have(state, 0, "pig")) == kept


# --- Retrieval and the next season (p.8 note 5 - p.9) -------------------------------------------------


def test_keyper_claimed_board_and_all_its_keyples_are_retrieved() -> None:
    """rulebook p.8, End of season note 5: each player takes back the keyper, the claimed board and every
    keyple on it (whoever played it, standing or lying), plus the keyples on their own plots."""
    state = table(3, active=0)
    build(state, 0, "v3", "brickmaker", "black/lying")
    place(state, 1, "pig", "green/lying", "white/lying")
    place(state, 1, "cow", "brown/lying")
    place(state, 2, "sheep", "orange/lying")
    state, _ = end_season(state, 1, "grey")
    keyps = [{c: n for c, n in p.keyp.items() if n} for p in state.players]
    assert keyps == [{"green": 1, "white": 1, "brown": 1, "black": 1}, {"orange": 1, "grey": 1}, {}]
    assert all(p.keyper_home for p in state.players)
    assert [p.board for p in state.players] == [1, 2, 3]
    assert all(b.keyper is None and b.spaces == {} for b in state.boards)
    assert state.players[0].plot_keyples == {}


def test_the_display_is_replaced_by_eight_new_tiles() -> None:
    """rulebook p.8, End of season notes 7-8 and p.9 note 1: the displayed tiles are discarded and 8 new
    ones are drawn; after spring the other country tiles and winter fairs join the bag."""
    state = table(3, active=0)
    old = list(state.display)
    state, _ = end_season(state, 1)
    assert state.discard == old
    assert len(state.display) == 8 and not set(state.display) & set(old)
    later = {t.id for t in COMPS.tiles.values() if t.origin == "country" and not t.spring}
    winter = {f for f, fair in COMPS.fairs.items() if fair.kind == "winter"}
    assert later | winter <= set(state.bag) | set(state.display)
    assert state.stacks == []
    assert GAME.view(state, 0)["bag"] == len(state.bag)


def test_four_boats_are_dealt_showing_the_new_seasons_side() -> None:
    """rulebook p.9, Start of next season note 2: four of the six boats, with the new season's side up; a
    river keyple in autumn works the autumn side."""
    state = table(3, active=0, season=1)
    state, _ = end_season(state, 1)
    assert len(state.boats) == len(set(state.boats)) == 4
    assert all(b.boat is None for b in state.boards)
    state, _ = choose_displays(state)
    assert state.phase == "turn" and state.active == 1
    boat = state.boats[0]
    state, _ = play(state, 1, f"play grey 2.river {boat}")
    assert pending(state) == [(1, COMPS.boats[boat].side_for("autumn").resources)]


def test_each_player_chooses_a_display_secretly_then_all_are_revealed() -> None:
    """rulebook p.9, Start of next season note 3 (ruling K-14): everyone picks a display of the new season;
    others see only that a choice was made until all have chosen, then every board shows its choice."""
    state = table(3, active=0)
    state, _ = end_season(state, 1)
    assert state.phase == "choose_display" and GAME.to_act(state) == [0, 1, 2]
    summer = [f"display {d.id}" for d in COMPS.displays_by_season["summer"]]
    assert all(legal(state, s) == summer for s in range(3))
    state, _ = play(state, 0, "display summer-4")
    assert GAME.to_act(state) == [1, 2]
    for viewer in (1, 2, None):
        assert GAME.view(state, viewer)["players"][0]["chosen_display"] is True
        assert [b["display"] for b in GAME.view(state, viewer)["boards"]] == ["spring-1", "spring-2", "spring-3"]
    assert GAME.view(state, 0)["players"][0]["chosen_display"] == "summer-4"
    state, _ = run(state, [(2, "display summer-1"), (1, "display summer-3")])
    assert [b.display for b in state.boards] == ["summer-4", "summer-3", "summer-1"]
    assert all(p.chosen_display is None for p in state.players)


def test_a_pending_display_choice_leaves_no_trace_in_other_views() -> None:
    """rulebook p.9, Start of next season note 3 (ruling K-14): until all have chosen, nothing in another
    seat's view or the public view names the display a player picked."""
    state = table(3, active=0)
    state, _ = end_season(state, 1)
    state, _ = play(state, 0, "display summer-4")
    for viewer in (1, 2, None):
        view = GAME.view(state, viewer)
        view.pop("legal")  # a seat's own options may name the same display
        assert "summer-4" not in json.dumps(view)


def test_excess_keyples_rest_on_the_keyp_tile_by_choice() -> None:
    """rulebook p.9, Start of next season note 4 (ruling K-13): a player with more than 8 keyples chooses
    which stand on the keyp tile for the season."""
    state = table(3, active=0)
    for field, pair in [("pig", ("green", "green")), ("wheat", ("green", "white")), ("cow", ("white", "white")),
                        ("clay", ("orange", "orange")), ("log", ("brown", "brown"))]:
        place(state, 1, field, *(f"{c}/lying" for c in pair))
    state, _ = end_season(state, 1)
    state, _ = choose_displays(state)
    assert state.phase == "rest" and GAME.to_act(state) == [0]
    assert legal(state, 0) == ["rest orange", "rest green", "rest brown", "rest white"]
    state, _ = run(state, [(0, "rest green"), (0, "rest white")])
    assert sum(state.players[0].keyp.values()) == 8
    assert state.players[0].keyp_tile == [Keyple("green"), Keyple("white")]
    assert state.phase == "turn"


def test_excess_keyples_of_one_colour_rest_automatically() -> None:
    """rulebook p.9, Start of next season note 4 (ruling K-13): with every keyple the same colour there is
    nothing to choose."""
    state = table(3, active=0)
    for field in ("pig", "wheat", "cow", "clay", "log"):
        place(state, 1, field, "white/lying", "white/lying")
    state, _ = end_season(state, 1)
    state, events = choose_displays(state)
    assert state.phase == "turn"
    assert state.players[0].keyp["white"] == 8
    assert state.players[0].keyp_tile == [Keyple("white"), Keyple("white")]
    assert any("P0 rests 2 white keyples" in t for t in texts(events))


@pytest.mark.parametrize(("count", "rested"), [(9, 0), (10, 1)])
def test_two_players_keep_nine_keyples(count: int, rested: int) -> None:
    """rulebook p.3 two-player note and p.9 note 4: with two players the team is 9, not 8."""
    state = table(2, active=0)
    fields = ["pig", "wheat", "cow", "clay", "log"]
    colours = ["green", "orange"] * 5
    for i, field in enumerate(fields):
        place(state, 1, field, *(f"{c}/lying" for c in colours[2 * i: 2 * i + 2][: max(0, count - 2 * i)]))
    state, _ = end_season(state, 1)
    state, _ = choose_displays(state)
    if rested:
        state, _ = play(state, 0, "rest green")
    assert sum(state.players[0].keyp.values()) == count - rested
    assert len(state.players[0].keyp_tile) == rested


def test_the_last_to_play_from_the_keyp_starts_the_next_season() -> None:
    """rulebook p.9, Start of next season note 5: the player who played the last piece from the keyp (the
    one without a final lay-down turn) starts the new season."""
    for last in (1, 2):
        state = table(3, active=0)
        state, _ = end_season(state, last)
        state, events = choose_displays(state)
        assert state.season == 1 and state.phase == "turn"
        assert state.active == state.start_player == last
        assert GAME.to_act(state) == [last]
        assert any(t == f"P{last} starts the summer season." for t in texts(events))


def test_the_game_ends_after_winter() -> None:
    """rulebook p.8, End of season note 6 and p.9, End of game: after the winter season nothing follows."""
    state = table(3, active=0, season=3)
    state, events = end_season(state, 2)
    assert state.phase == "game_over" and GAME.is_over(state)
    assert GAME.to_act(state) == []
    assert all(GAME.legal_actions(state, s) == [] for s in range(3))
    assert any(t == "The game is over." for t in texts(events))
    assert GAME.score(state, None).final
