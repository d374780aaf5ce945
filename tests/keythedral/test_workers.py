"""Phase one - place worker counters: the work-order markers, who places when, cottages and houses, refused
fields, idle cottages and compulsory placement (rulings T-7, T-8).
"""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.keythedral import GAME
from engine.keythedral.state import KState
from tests.keythedral.scene import legal, play, played_setup, texts
from tests.keythedral.scene_more import fence, first_choice, hand_board

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
TERRAINS = ("quarry", "woods", "lake", "farm", "vineyard")

# A 5 x 5 block of fields K11..O15 round the Keythedral (the centre four kept as laid).
BLOCK = {f"{LETTERS[x]}{y + 1}": TERRAINS[(x + y) % 5] for x in range(10, 15) for y in range(10, 15)
         if not (x in (12, 13) and y in (12, 13))}


def workers_of(state: KState, seat: int) -> dict[str, int]:
    """Field -> cottage number, for a seat's workers on the board."""
    return {f: w.cottage for f, w in state.workers.items() if w.seat == seat}


def worker_fields(state: KState, seat: int) -> set[str]:
    """The fields a seat's legal `worker` actions name."""
    return {a.split()[1].upper() for a in legal(state, seat) if a.startswith("worker ")}


# --- the work-order markers --------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "start"), [(2, 0), (3, 0), (3, 1), (4, 2), (5, 3)])
def test_work_order_numbers_are_chosen_in_turn_from_the_start_player_each_once(players: int, start: int) -> None:
    """Phase one: the start player puts the first marker on a number, the next player clockwise the second, and
    so on until all five numbers are chosen; a number already chosen cannot be chosen again."""
    state = played_setup(players)
    state.start = start
    chosen: list[int] = []
    for k in range(5):
        chooser = (start + k) % players
        assert GAME.to_act(state) == [chooser]
        assert legal(state, chooser) == [f"order {n}" for n in range(1, 6) if n not in chosen]
        for taken in chosen:
            with pytest.raises(IllegalAction):
                GAME.parse(state, chooser, f"order {taken}")
        number = [n for n in (4, 2, 5, 1, 3) if n not in chosen][0]
        play(state, chooser, f"order {number}")
        chosen.append(number)
        assert GAME.view(state, None)["work_order"][-1] == {"marker": k + 1, "number": number, "seat": chooser}
        first_choice(state, lambda s: s.phase != "workers" or s.step == "order")
    assert state.phase != "workers"


def test_the_chooser_places_first_then_clockwise_and_the_previous_chooser_last() -> None:
    """Phase one: player A chooses the first number and places first, the others follow clockwise; player B
    chooses the second number and places first, so A places last this time."""
    cottages = {(0, 1): "K11+", (1, 1): "N11+", (2, 1): "K14+", (0, 2): "N14+", (1, 2): "K13+", (2, 2): "N12+"}
    state = hand_board(3, BLOCK, cottages)
    play(state, 0, "order 1")
    placed = []
    while state.step == "worker":
        seat = GAME.to_act(state)[0]
        placed.append(seat)
        play(state, seat, legal(state, seat)[0])
    assert placed == [0, 1, 2]
    assert GAME.to_act(state) == [1]
    play(state, 1, "order 2")
    placed = []
    while state.step == "worker":
        seat = GAME.to_act(state)[0]
        placed.append(seat)
        play(state, seat, legal(state, seat)[0])
    assert placed == [1, 2, 0]
    assert {seat: sorted(workers_of(state, seat).values()) for seat in range(3)} == {0: [1, 2], 1: [1, 2],
                                                                                     2: [1, 2]}


def test_only_the_cottage_with_the_chosen_number_sends_its_worker() -> None:
    """Phase one: the marker's number picks the cottages whose workers leave; the worker goes into a field next
    to that cottage."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+", (0, 2): "N14+"})
    play(state, 0, "order 2")
    assert worker_fields(state, 0) == {"N14", "O14", "N15", "O15"}
    play(state, 0, "worker o15")
    assert workers_of(state, 0) == {"O15": 2}


def test_a_cottage_sends_one_worker() -> None:
    """Phase one: a cottage sends a single worker; with fields still free the turn passes to the next player."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+", (1, 1): "N11+"})
    play(state, 0, "order 1")
    play(state, 0, "worker k11")
    assert workers_of(state, 0) == {"K11": 1}
    assert GAME.to_act(state) == [1]
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "worker l11")


def test_a_house_sends_two_workers_into_two_different_fields() -> None:
    """Phase one; Phase three, action two: a house places two workers, one each into two different fields next
    to it; the field the first went to is not offered to the second."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+", (1, 1): "N11+"}, houses=[(0, 1)])
    play(state, 0, "order 1")
    play(state, 0, "worker k11")
    assert GAME.to_act(state) == [0]
    assert worker_fields(state, 0) == {"L11", "K12", "L12"}
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "worker k11")
    play(state, 0, "worker l12")
    assert workers_of(state, 0) == {"K11": 1, "L12": 1}
    assert GAME.to_act(state) == [1]


def test_a_house_with_one_free_field_places_one_worker() -> None:
    """Phase three, action two: if only one field next to a house is available, only one worker is placed."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+", (1, 1): "N11+"}, houses=[(0, 1)])
    for field in ("K11", "L11", "K12"):
        fence(state, 2 if field != "K12" else 1, "K11+", field)
    play(state, 0, "order 1")
    assert worker_fields(state, 0) == {"L12"}
    play(state, 0, "worker l12")
    assert workers_of(state, 0) == {"L12": 1}
    assert GAME.to_act(state) == [1]


def test_a_fenced_off_field_is_refused() -> None:
    """Phase one: a worker may not go into a field fenced off from its cottage."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+"})
    fence(state, 1, "K11+", "L12")
    play(state, 0, "order 1")
    assert worker_fields(state, 0) == {"K11", "L11", "K12"}
    with pytest.raises(IllegalAction) as refused:
        GAME.parse(state, 0, "worker l12")
    assert "Phase one" in refused.value.rule


def test_an_occupied_field_is_refused() -> None:
    """Phase one: a worker may not go into a field that already holds a worker (anyone's)."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+", (1, 1): "L11+"})
    play(state, 0, "order 1")
    play(state, 0, "worker l12")
    assert worker_fields(state, 1) == {"L11", "M11", "M12"}
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "worker l12")


def test_a_cottage_with_no_vacant_field_is_idle_and_passed_over() -> None:
    """Phase one; ruling T-8: with no vacant field next to it, a cottage's worker is idle and produces nothing;
    the engine passes over it without asking."""
    # Ana's house N14+ touches N14, O14, N15, O15; Ben's cottage O14+ touches only O14 and O15 of the block.
    state = hand_board(3, BLOCK, {(0, 1): "N14+", (1, 1): "O14+", (2, 1): "K11+"}, houses=[(0, 1)])
    play(state, 0, "order 1")
    play(state, 0, "worker o14")
    events = play(state, 0, "worker o15")
    assert GAME.to_act(state) == [2]
    assert workers_of(state, 1) == {}
    assert "idle" in texts(events) and "Ben" in texts(events)


def test_placing_is_compulsory_while_a_field_is_free() -> None:
    """Phase one; ruling T-8: while a field is free for the cottage its worker must go out: staying idle is not
    offered and is refused."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+"})
    play(state, 0, "order 1")
    assert "idle" not in legal(state, 0)
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "idle")


def test_a_house_must_place_its_second_worker_when_a_second_field_is_free() -> None:
    """Ruling T-8: a house places its second worker whenever a second, different field is free."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+"}, houses=[(0, 1)])
    play(state, 0, "order 1")
    play(state, 0, "worker k11")
    assert "idle" not in legal(state, 0) and worker_fields(state, 0)
    with pytest.raises(IllegalAction):
        GAME.parse(state, 0, "idle")


def test_after_all_five_numbers_the_workers_collect() -> None:
    """Phase one: the process continues until all five numbers are chosen; then phase two follows."""
    state = hand_board(3, BLOCK, {(0, 1): "K11+"})
    for k, number in enumerate((1, 2, 3, 4, 5)):
        assert state.phase == "workers"
        play(state, k % 3, f"order {number}")
        if number == 1:
            play(state, 0, "worker k11")
    assert state.phase == "actions"
    assert state.cubes[0]["black"] == 1 and sum(state.cubes[0].values()) == 1  # K11 is a quarry


def test_a_house_with_no_vacant_field_is_idle_and_places_no_worker() -> None:
    """Phase one ¶7; Phase three, action two ¶3 (no field available: no worker); ruling T-8: a house whose fields are
    all fenced off or occupied places neither of its two workers; the engine passes over it without asking, and
    its workers bring nothing in phase two."""
    # Ben's house O14+ touches O14 and O15 of the block; O14 is fenced off from it and Ana's cottage N14+ takes O15.
    state = hand_board(3, BLOCK, {(0, 1): "N14+", (1, 1): "O14+", (2, 1): "K11+"}, houses=[(1, 1)])
    fence(state, 2, "O14+", "O14")
    play(state, 0, "order 1")
    events = play(state, 0, "worker o15")
    assert GAME.to_act(state) == [2]  # Ben is not asked
    assert workers_of(state, 1) == {}
    assert "Ben's workers are idle" in texts(events)
    with pytest.raises(IllegalAction):
        GAME.parse(state, 1, "worker o14")
    first_choice(state, lambda s: s.phase != "workers")
    assert state.phase == "actions"
    assert sum(state.cubes[1].values()) == 0
    assert sum(state.cubes[0].values()) == 1 and sum(state.cubes[2].values()) == 1
