"""The lattice of fields and squares: labels, what touches what, the room every field needs, and fences.

Spec "Geometry and labels"; Set up (room for four cottages and four fields round every field); rulings T-3, T-4;
Phase three, action three (a fence stands between one cottage or house and one field).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME, board
from engine.keythedral import geometry as geo
from engine.keythedral.state import KState
from tests.keythedral.scene import legal, play
from tests.keythedral.scene_more import fence, hand_board, scripted_setup

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def xy(label: str) -> tuple[int, int]:
    """Lattice point of 'M13' or 'M13+' (our own arithmetic)."""
    label = label.upper().rstrip("+")
    return LETTERS.index(label[0]), int(label[1:]) - 1


def room(label: str) -> tuple[int, int]:
    """(field neighbours, squares) a field at this label has on the board's lattice."""
    return len(board.field_neighbours(label)), len(board.field_squares(label))


# --- labels --------------------------------------------------------------------------------------------------


def test_field_and_square_labels_round_trip_over_the_whole_lattice() -> None:
    """Spec, Geometry; ruling T-3: every field A1..Z26 and every square reads back to its own point."""
    for x in range(26):
        for y in range(26):
            label = geo.field_label((x, y))
            assert label == f"{LETTERS[x]}{y + 1}"
            assert geo.read_label(label) == ((x, y), False)
            assert geo.read_label(label.lower()) == ((x, y), False)
            assert board.point(label) == (x, y)
            if x < 25 and y < 25:
                assert geo.read_label(geo.square_label((x, y))) == ((x, y), True)


def test_the_keythedral_centre_labels() -> None:
    """Spec, Geometry: field M13 is x=12, y=12; the rows grow northwards."""
    assert board.point("M13") == (12, 12)
    assert board.point("m14") == (12, 13)
    assert board.point("N13") == (13, 12)
    assert board.point("A1") == (0, 0) and board.point("Z26") == (25, 25)


@pytest.mark.parametrize("label", ["A0", "A27", "AA1", "M", "13", "M13++", "M-1", "ZZ"])
def test_labels_off_the_lattice_are_refused(label: str) -> None:
    """Ruling T-3: the lattice is A1..Z26; anything else names no place."""
    assert geo.read_label(label) is None
    with pytest.raises(ValueError):
        board.point(label)


def test_a_field_label_off_the_lattice_is_no_legal_set_up_field() -> None:
    """Ruling T-3: nothing may be laid off the lattice."""
    state = GAME.setup(["Ana", "Ben", "Cleo"], 1, {})
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "field a27")
    assert "A27" not in state.fields


# --- what touches what -------------------------------------------------------------------------------------


def test_a_square_touches_the_four_fields_at_its_corners() -> None:
    """Spec, Geometry: square M13+ touches fields M13, N13, M14 and N14."""
    assert set(board.square_fields("M13+")) == {"M13", "N13", "M14", "N14"}
    assert set(board.square_fields("A1+")) == {"A1", "B1", "A2", "B2"}


def test_a_field_touches_four_squares_and_shares_edges_with_four_fields() -> None:
    """Spec, Geometry: field M13 touches squares M13+, L13+, M12+, L12+ and shares edges with L13, N13, M12, M14."""
    assert set(board.field_squares("M13")) == {"M13+", "L13+", "M12+", "L12+"}
    assert set(board.field_neighbours("M13")) == {"L13", "N13", "M12", "M14"}


def test_touching_is_symmetric_everywhere_inside() -> None:
    """Spec, Geometry: a square touches a field exactly when the field touches the square, and edge neighbours
    are mutual."""
    for x in range(1, 25):
        for y in range(1, 25):
            f = geo.field_label((x, y))
            for sq in board.field_squares(f):
                assert f in board.square_fields(sq)
            for g in board.field_neighbours(f):
                assert f in board.field_neighbours(g)
            s = geo.square_label((x, y))
            for g in board.square_fields(s):
                assert s in board.field_squares(g)


def test_edge_neighbours_share_two_squares_and_corner_neighbours_one() -> None:
    """Spec, Geometry: two fields side by side both touch the two squares on their common edge; two fields
    corner to corner meet only at the one square between them."""
    assert set(board.field_squares("M13")) & set(board.field_squares("N13")) == {"M13+", "M12+"}
    assert set(board.field_squares("M13")) & set(board.field_squares("N14")) == {"M13+"}
    assert set(board.field_squares("M13")) & set(board.field_squares("O13")) == set()


def test_every_inner_lattice_point_has_four_fields_and_four_squares_round_it() -> None:
    """Set up; ruling T-4: a field on the lattice has its four field edges and four square corners."""
    for x in range(1, 25):
        for y in range(1, 25):
            assert room(geo.field_label((x, y))) == (4, 4)


@pytest.mark.parametrize("players", [3, 5])
def test_every_field_offered_in_set_up_has_room_for_four_squares_and_four_fields(players: int) -> None:
    """Set up: a field is laid only where four cottages and four other fields can be placed next to it; ruling
    T-4 says every point the engine offers has that room. Laying each player's first choice, the set-up walks
    out to the edge of the lattice; no spot offered there may lack room."""
    cramped: set[str] = set()

    def pick(state: KState, seat: int, options: list[str]) -> str:
        if state.step == "field":
            cramped.update(a.split()[1].upper() for a in options if room(a.split()[1]) != (4, 4))
        return options[0]

    state, _ = scripted_setup(players, pick)
    laid = sorted(f for f in state.fields if room(f) != (4, 4))
    assert not cramped, f"set-up offered fields without room: {sorted(cramped)}; laid: {laid}"


# --- fences --------------------------------------------------------------------------------------------------

# Centre fields M13 quarry, N13 woods, M14 woods, N14 quarry; M12 lake and N12 farm south of them, L12 vineyard.
# Ana's cottage 1 at M12+ touches M12, N12, M13, N13; Ben's cottage 1 at L12+ touches L12, M12, M13 (L13 unlaid).
FENCE_FIELDS = {"M12": "lake", "N12": "farm", "L12": "vineyard"}
FENCE_COTTAGES = {(0, 1): "M12+", (1, 1): "L12+"}


def test_a_fence_blocks_only_the_cottage_on_its_own_edge() -> None:
    """Phase three, action three; spec (a fence sits between one square and one of its fields): a fence between
    Ana's M12+ and M13 keeps her worker out of M13, but not out of her other fields, and Ben's L12+ worker, whose
    edge to M13 has no fence, may still enter M13."""
    state = hand_board(3, FENCE_FIELDS, FENCE_COTTAGES)
    fence(state, 2, "M12+", "M13")
    play(state, 0, "order 1")
    assert sorted(legal(state, 0)) == ["worker m12", "worker n12", "worker n13"]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "worker m13")
    play(state, 0, "worker n13")
    assert "worker m13" in legal(state, 1)
    play(state, 1, "worker m13")
    assert state.workers["M13"].seat == 1


def test_a_fence_on_one_edge_of_a_field_leaves_its_other_edges_open() -> None:
    """Phase three, action three: the fence stands on one square-field edge; the same field stays open to the
    next square, and the fenced square keeps its other fields."""
    state = hand_board(3, FENCE_FIELDS, FENCE_COTTAGES)
    fence(state, 2, "L12+", "M12")
    play(state, 0, "order 1")
    assert "worker m12" in legal(state, 0)
    play(state, 0, "worker n13")
    assert sorted(legal(state, 1)) == ["worker l12", "worker m13"]
