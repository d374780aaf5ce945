"""Preparation and Set up: the field tiles in play, the centre, laying fields and cottages in turn (rulings T-2 to T-7).

Each test plays the set-up through GAME (parse and apply) and checks the board, the stack and the mat afterwards.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME
from engine.keythedral.components import COMPONENTS
from engine.keythedral.state import KState
from tests.keythedral.scene import NAMES, legal, play, played_setup
from tests.keythedral.scene_more import scripted_setup

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def xy(label: str) -> tuple[int, int]:
    """Lattice point of 'M13' or 'M13+' (our own arithmetic, independent of the engine)."""
    label = label.upper().rstrip("+")
    return LETTERS.index(label[0]), int(label[1:]) - 1


def field_at(x: int, y: int) -> str:
    """'M13' for (12, 12)."""
    return f"{LETTERS[x]}{y + 1}"


def squares_touching(label: str) -> set[str]:
    """The four squares around a field: those whose south-west field is the field, or west, south, south-west."""
    x, y = xy(label)
    return {field_at(a, b) + "+" for a, b in ((x, y), (x - 1, y), (x, y - 1), (x - 1, y - 1))}


def tile(tile_id: str) -> tuple[str, int]:
    """(terrain, back) of a field tile."""
    t = next(t for t in COMPONENTS.fields if t.id == tile_id)
    return t.terrain, t.back


def first(state: KState, seat: int, options: list[str]) -> str:
    """A pick for scripted_setup: the first legal choice."""
    return options[0]


def start(players: int) -> KState:
    """A fresh game, before any set-up action."""
    return GAME.setup(list(NAMES[:players]), 1, {})


# --- Preparation ----------------------------------------------------------------------------------------------


def test_preparation_fills_the_store_and_the_craftsmen_and_players_start_with_no_cubes() -> None:
    """Preparation / Contents: resource cubes go into the store (20 black and brown, 15 blue, green, red), the
    craft cubes onto the forge, glassworks and workshop (10 each, ruling T-12); players start empty-handed."""
    view = GAME.view(start(3), None)
    assert {c: view["store"][c] for c in ("black", "brown", "blue", "green", "red")} == {
        "black": 20, "brown": 20, "blue": 15, "green": 15, "red": 15}
    assert view["craftsmen"] == {"white": 10, "purple": 10, "yellow": 10}
    assert all(GAME.view(start(3), s)["players"][s]["cube_count"] == 0 for s in range(3))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_preparation_lays_two_law_cards_face_down_on_the_new_law_spaces(players: int) -> None:
    """Preparation: the law cards form a face-down stack, and its top two go face down onto the two new-law
    spaces (the cards stay hidden, ruling T-1)."""
    state = start(players)
    view = GAME.view(state, None)
    assert view["law_spaces"] == [True, True]
    assert view["law_stack"] == 18
    assert sorted(c for c in [*state.law_spaces, *state.law_deck] if c is not None) == list(range(1, 21))
    assert "law_deck" not in view and all(isinstance(x, bool) for x in view["law_spaces"])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_preparation_building_tiles_lie_face_down_on_the_mat(players: int) -> None:
    """Preparation: building tiles go face down on the mat's numbered spaces (4, 4, 4, 3 and 2), the surplus set
    aside unseen, so no cost is known before the set-up ends."""
    view = GAME.view(start(players), None)
    assert Counter(s["stage"] for s in view["mat"]) == {1: 4, 2: 4, 3: 4, 4: 3, 5: 2}
    assert not any(s["face_up"] or s["cost"] for s in view["mat"])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_first_seat_is_the_first_start_player(players: int) -> None:
    """Preparation; ruling T-7: the first seat starts the set-up and the first round."""
    state = start(players)
    assert GAME.to_act(state) == [0]
    state = played_setup(players)
    assert GAME.view(state, None)["start_player"] == 0
    assert GAME.to_act(state) == [0]


# --- Set up: which field tiles -------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fields_used_are_those_numbered_up_to_the_player_count(players: int) -> None:
    """Set up: the field tiles used are those numbered no higher than the number of players; the others are
    removed. After the set-up the board holds exactly those tiles, each once."""
    state = played_setup(players)
    ids = [row.tile for row in state.fields.values()]
    assert len(ids) == len(set(ids))
    expected = sorted(t.id for t in COMPONENTS.fields if t.back <= players)
    assert sorted(ids) == expected
    assert all((row.terrain, row.back) == tile(row.tile) for row in state.fields.values())


def test_two_players_use_two_number_one_fields_and_the_ten_number_two_fields() -> None:
    """Variation one, items 1 and 2: with two players, one quarry and one woods numbered 1, plus the ten
    number-2 field tiles: twelve fields in all."""
    state = played_setup(2)
    backs = Counter(row.back for row in state.fields.values())
    assert backs == {1: 2, 2: 10}
    ones = sorted(row.terrain for row in state.fields.values() if row.back == 1)
    assert ones == ["quarry", "woods"]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_four_number_one_fields_touch_the_keythedral_quarries_and_woods_opposite(players: int) -> None:
    """Set up: the four number-1 fields each touch the Keythedral tile, the two quarries opposite each other and
    the two woods opposite each other."""
    view = GAME.view(start(players), None)
    assert view["keythedral"] == "M13+"
    centre = {f["at"]: f for f in view["fields"]}
    assert set(centre) == {field_at(12 + dx, 12 + dy) for dx in (0, 1) for dy in (0, 1)}
    assert all(f["back"] == 1 for f in centre.values())
    for terrain in ("quarry", "woods"):
        pair = [xy(label) for label, f in centre.items() if f["terrain"] == terrain]
        assert len(pair) == 2
        (x1, y1), (x2, y2) = pair
        assert abs(x1 - x2) == 1 and abs(y1 - y2) == 1, f"the {terrain}s are not opposite: {pair}"


def test_two_player_start_is_a_quarry_beside_a_woods_and_no_keythedral() -> None:
    """Variation one, item 1; ruling T-2: the quarry #1 at M13 and the woods #1 at N13; no Keythedral tile."""
    view = GAME.view(start(2), None)
    assert view["keythedral"] is None
    assert {f["at"]: (f["terrain"], f["back"]) for f in view["fields"]} == {"M13": ("quarry", 1),
                                                                           "N13": ("woods", 1)}


def test_two_player_cottage_may_stand_where_the_keythedral_would_be() -> None:
    """Variation one; rulings T-2, T-5: without a Keythedral tile its square is an ordinary empty square."""
    state = start(2)
    play(state, 0, "field m14")
    play(state, 0, "cottage 1 m13+")
    assert state.cottages[0][0].at == "M13+"


# --- Set up: laying in turn -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_player_lays_a_field_then_a_cottage_in_turn_from_the_start_player(players: int) -> None:
    """Set up: from the start player clockwise, each player lays one field and then one cottage, round after
    round, until each has laid five fields and all five cottages."""
    state, moves = scripted_setup(players, first)
    expected = [(seat, verb) for _ in range(5) for seat in range(players) for verb in ("field", "cottage")]
    assert [(seat, text.split()[0]) for seat, text in moves] == expected
    for seat in range(players):
        numbers = sorted(int(text.split()[1]) for s, text in moves if s == seat and text.startswith("cottage"))
        assert numbers == [1, 2, 3, 4, 5]
        assert all(c.at for c in state.cottages[seat])
    assert state.phase == "workers" and state.round == 1


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_set_up_uses_the_field_stack_exactly(players: int) -> None:
    """Set up: the shuffled stack holds exactly the fields the players lay, five each; it is empty at the end."""
    state = start(players)
    centre = len(state.fields)
    assert len(state.field_stack) + 1 == 5 * players  # the first tile is already drawn
    state, _ = scripted_setup(players, first)
    assert state.field_stack == [] and state.drawn is None
    assert len(state.fields) == centre + 5 * players
    view = GAME.view(state, None)
    assert view["field_stack"] == 0 and view["drawn_field"] is None


def test_a_cottage_number_is_laid_only_once() -> None:
    """Set up: each player lays their five cottages, numbered 1 to 5, once each (a cottage of any number)."""
    state = start(3)
    play(state, 0, "field m12")
    play(state, 0, "cottage 3 m12+")
    for seat in (1, 2):
        play(state, seat, legal(state, seat)[0])
        play(state, seat, legal(state, seat)[0])
    play(state, 0, legal(state, 0)[0])
    numbers = {a.split()[1] for a in legal(state, 0)}
    assert numbers == {"1", "2", "4", "5"}
    free_square = legal(state, 0)[0].split()[2]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, f"cottage 3 {free_square}")


def test_cottages_are_laid_cottage_side_up() -> None:
    """Set up: a cottage tile is laid with its lighter (cottage) side showing: no houses at the start."""
    view = GAME.view(played_setup(4), None)
    assert len(view["cottages"]) == 20
    assert not any(c["house"] for c in view["cottages"])


# --- Set up: where fields and cottages go ---------------------------------------------------------------------


def test_first_field_must_touch_a_centre_field() -> None:
    """Set up; ruling T-4: a field goes next to an existing field (sharing an edge) or a cottage; at the very
    start only the eight points edge to edge with the four centre fields qualify."""
    state = start(3)
    spots = {a.split()[1].upper() for a in legal(state, 0)}
    assert spots == {"L13", "L14", "O13", "O14", "M12", "N12", "M15", "N15"}
    for far in ("L12", "K13", "A1"):  # L12 only touches M13 at a corner; the others touch nothing
        with pytest.raises(IllegalAction):
            GAME.parse(state, 0, f"field {far}")


def test_a_field_may_touch_only_a_cottage() -> None:
    """Set up; ruling T-4: a field connected to a cottage (and to no field) may be laid."""
    state = start(3)
    play(state, 0, "field m12")
    play(state, 0, "cottage 1 l11+")  # touches L11, M11, L12, M12
    for spot in ("L11", "M11", "L12"):
        assert f"field {spot.lower()}" in legal(state, 1)
    drawn = tile(state.drawn or "")
    play(state, 1, "field l11")
    assert (state.fields["L11"].terrain, state.fields["L11"].back) == drawn
    with pytest.raises(IllegalAction):  # touches neither a field nor a cottage
        GAME.parse(state, 1, "field j9")


def test_a_field_cannot_go_on_a_field() -> None:
    """Set up: a field is laid onto the table next to the others, never on top of a laid one."""
    state = start(3)
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "field m13")


def test_a_cottage_goes_on_any_empty_square_touching_a_field() -> None:
    """Set up; ruling T-5: a cottage may go on every empty square touching at least one placed field, in any
    number, and nowhere else; the Keythedral's square is not one of them."""
    state = start(3)
    play(state, 0, "field m12")
    expected = set().union(*(squares_touching(f) for f in state.fields)) - {"M13+"}
    offered = {(int(a.split()[1]), a.split()[2].upper()) for a in legal(state, 0)}
    assert offered == {(n, sq) for n in range(1, 6) for sq in expected}


def test_a_cottage_never_goes_on_the_keythedral_square() -> None:
    """Set up; ruling T-5: the Keythedral tile fills its square."""
    state = start(3)
    play(state, 0, "field m12")
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "cottage 1 m13+")


def test_a_cottage_never_goes_on_a_square_touching_no_field() -> None:
    """Set up; ruling T-5: a cottage touching no field could never send a worker out."""
    state = start(3)
    play(state, 0, "field m12")
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "cottage 1 j10+")


def test_a_cottage_never_goes_on_an_occupied_square() -> None:
    """Set up; ruling T-5: only an empty square takes a cottage."""
    state = start(3)
    play(state, 0, "field m12")
    play(state, 0, "cottage 1 m12+")
    play(state, 1, legal(state, 1)[0])
    assert not any(a.endswith(" m12+") for a in legal(state, 1))
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "cottage 1 m12+")


# --- Set up: the drawn tile and the end of the set-up -----------------------------------------------------------


def test_the_drawn_field_is_shown_to_everyone() -> None:
    """Set up; ruling T-6: the tile drawn from the stack is shown to all before it is laid, and is the one laid."""
    state = start(3)
    for seat in (0, 1):
        terrain, back = tile(state.drawn or "")
        public = GAME.view(state, None)["drawn_field"]
        assert public == {"terrain": terrain, "back": back}
        assert GAME.view(state, 2)["drawn_field"] == public
        spot = legal(state, seat)[0].split()[1].upper()
        play(state, seat, f"field {spot}")
        assert (state.fields[spot].terrain, state.fields[spot].back) == (terrain, back)
        events = play(state, seat, legal(state, seat)[0])
        draw = [e for e in events if "draws" in e.text]
        assert draw and draw[0].public and tile(state.drawn or "")[0] in draw[0].text


@pytest.mark.parametrize("players", [2, 3, 5])
def test_stage_one_tiles_turn_face_up_when_the_set_up_ends(players: int) -> None:
    """Set up: once every field and cottage is laid, the four number-1 building tiles are turned face up; the
    later stages stay face down."""
    state = start(players)
    while True:
        seat = GAME.to_act(state)[0]
        options = legal(state, seat)
        last = state.step == "cottage" and not state.field_stack
        if last:
            assert not any(s["face_up"] for s in GAME.view(state, None)["mat"])
        events = play(state, seat, options[0])
        if last:
            break
    mat = GAME.view(state, None)["mat"]
    for space in mat:
        if space["stage"] == 1:
            cost = next(b.cost for b in COMPONENTS.buildings if b.id == state.mat[mat.index(space)].tile)
            assert space["face_up"] and space["cost"] == list(cost)
        else:
            assert not space["face_up"] and space["cost"] is None
    assert any("face up" in e.text for e in events)
    assert state.phase == "workers"
