"""A Keyflower state's JSON form (engine/keyflower/state.py): exactly the text stored games hold, read back to the
same records (DESIGN.md, Persistence: the snapshot must replay exactly; issue 40: saved games load unchanged).

The text is pinned: each recorded playthrough (tests/contract/playthroughs/keyflower-*.json) replayed writes, step
by step, the same JSON text as the code of b550ed0 did, before its dicts and lists became records (a sha256 chained
over every step's text, recorded with that code). At every step of those games and of random play-outs,
from_json(to_json(s)) == s and to_json(from_json(j)) == j.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.keyflower.game import GAME
from engine.keyflower.state import (
    CountStep,
    KfState,
    MixStep,
    Moved,
    PayStep,
    Place,
    ReplaceStep,
    TakeStep,
    TransportStep,
)
from engine.playout import random_playout

TESTS = Path(__file__).resolve().parents[1]
PLAYTHROUGHS = sorted((TESTS / "contract" / "playthroughs").glob("keyflower-*.json"))
FIXTURE = TESTS / "fixtures" / "keywood-b19d9db.db"
NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]
TEXT_BEFORE_RECORDS = {  # the chained sha256 of every step's JSON text, written by the code of b550ed0
    "keyflower-1": "c00f9a41631e791f7fd04beaa2d2ee1bec4e085a15ffa61ffb86a1fec646a183",
    "keyflower-2": "73385740a0e991d3c46bad65752fab39d2f796c21f701441f63a751534a0565d",
    "keyflower-3": "ac4ccc346efb24a6f8a96f74b1c20738be392ddcf2cab10e05c4d6237b3be757",
    "keyflower-4": "6dc426601d8b6d7324f974f44c26f82e09c273674fe9e2035fdbd154cf8d4bff",
}
OPTIONS: list[dict[str, Any]] = [{}, {"keymelequin": "keyflower"}, {"key_celeste": True},
                                 {"keymelequin": "sea-bastion", "key_celeste": True}]


def replayed(path: Path) -> Iterator[KfState]:
    """Every state of a recorded playthrough, the opening one first."""
    data = json.loads(path.read_text())
    state = GAME.setup(data["players"], data["seed"], data["options"])
    yield state
    for seat, text in data["actions"]:
        GAME.apply_in_place(state, seat, GAME.parse(state, seat, text))
        yield state


def assert_round_trip(state: KfState) -> None:
    """The state's JSON reads back to equal records, and those write the same JSON and the same text again."""
    text = GAME.to_json_text(state)
    data = GAME.to_json(state)
    assert data == json.loads(text)
    again = GAME.from_json(data)
    assert again == state
    assert GAME.to_json(again) == data
    assert GAME.to_json_text(GAME.from_json(json.loads(text))) == text


def test_the_playthroughs_are_all_pinned() -> None:
    assert [p.stem for p in PLAYTHROUGHS] == sorted(TEXT_BEFORE_RECORDS)


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_every_step_of_a_recorded_game_writes_the_text_it_wrote_before_the_records(path: Path) -> None:
    digest = hashlib.sha256()
    for state in replayed(path):
        digest.update(GAME.to_json_text(state).encode())
    assert digest.hexdigest() == TEXT_BEFORE_RECORDS[path.stem], f"a state's stored JSON changed in {path.stem}"


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_every_step_of_a_recorded_game_reads_back_to_the_same_records(path: Path) -> None:
    kinds = set()
    for state in replayed(path):
        assert_round_trip(state)
        kinds.add(type(state.pending).__name__)
    assert {"CountStep", "TransportStep"} <= kinds  # the games pass through steps under way


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 10**6), options=st.sampled_from(OPTIONS),
       stride=st.integers(1, 9))
def test_random_games_read_back_to_the_same_records_at_every_step(players: int, seed: int,
                                                                   options: dict[str, Any], stride: int) -> None:
    steps = [0]

    def check(state: KfState, seat: int, action: Any) -> None:
        steps[0] += 1
        if steps[0] % stride == 0:
            assert_round_trip(state)

    final, _ = random_playout(GAME, NAMES[:players], seed, options=options, on_step=check)
    assert_round_trip(final)


@pytest.mark.parametrize(("step", "keys"), [
    (CountStep(0, "bid", "alehouse", "red"), ["kind", "seat", "what", "loc", "colour"]),
    (CountStep(1, "use", "keywood", "blue", Moved("alehouse", 2)),
     ["kind", "seat", "what", "loc", "colour", "from", "carried"]),
    (CountStep(1, "bid", "keywood", "blue", Moved("alehouse", 3, ["order-1"])),
     ["kind", "seat", "what", "loc", "colour", "from", "carried", "joined"]),
    (MixStep(0, "use", "keywood", {"sven": 1}), ["kind", "seat", "what", "loc", "added"]),
    (MixStep(2, "bid", "gold-mine", {}, Moved("alehouse", 2, ["miner"])),
     ["kind", "seat", "what", "loc", "added", "from", "carried", "joined"]),
    (PayStep(0, "tavern", "any", 1, {"red": 1}), ["kind", "seat", "loc", "pay", "left", "paid"]),
    (TakeStep(0, 2, "0/0"), ["kind", "seat", "left", "to"]),
    (TransportStep(3, 4, 2), ["kind", "seat", "steps", "upgrades"]),
    (ReplaceStep(1), ["kind", "seat"]),
], ids=lambda x: x.kind if hasattr(x, "kind") else "")
def test_each_kind_of_step_under_way_writes_its_keys_in_the_stored_order(step: Any, keys: list[str]) -> None:
    state = GAME.setup(NAMES[:4], 1, {})
    state.pending = step
    assert list(GAME.to_json(state)["pending"]) == keys
    assert_round_trip(state)


def test_a_place_writes_wild_and_the_ghost_only_when_set() -> None:
    """A location's entry: bids and uses; "wild" while Sven or Paulo stands there; "ghost" once it is played."""
    state = GAME.setup(NAMES[:3], 1, {"keymelequin": "keyflower", "key_celeste": True})
    stored = {"bids": {"1": ["blue/yellow", 2, False, {"sven": 1, "blue": 1}], "0": ["red", 3, True]},
              "uses": [[2, "mixed", 2, True, {"red": 1, "blue": 1}], [0, "green", 1, False]], "wild": True,
              "ghost": 2}
    state.places = {"alehouse": Place.from_json(stored)}
    place = GAME.to_json(state)["places"]["alehouse"]
    assert place == stored and list(place) == ["bids", "uses", "wild", "ghost"] and list(place["bids"]) == ["1", "0"]
    assert_round_trip(state)

    state.places["alehouse"].wild, state.places["alehouse"].ghost = False, None
    assert list(GAME.to_json(state)["places"]["alehouse"]) == ["bids", "uses"]


def test_a_state_read_shares_nothing_with_its_data() -> None:
    data = GAME.to_json(GAME.setup(NAMES[:3], 2, {}))
    state = GAME.from_json(data)
    state.villages[0]["0/0"].res["wood"] = 3
    state.workers[0]["blue"] = 99
    assert "wood" not in data["villages"][0]["0/0"]["res"] and data["workers"][0].get("blue") != 99


@pytest.mark.parametrize("change", [
    {"pending": {"kind": "teleport", "seat": 0}}, {"phase": "lunch"}, {"colour": "red"}, {"places": {"x": {}}},
    {"villages": [{"0/0": {"tile": "home-1"}}]}, {"boats": [["keyflower"]]},
])
def test_malformed_data_is_refused(change: dict[str, Any]) -> None:
    data = GAME.to_json(GAME.setup(NAMES[:3], 2, {})) | change
    with pytest.raises(ValueError, match="not a Keyflower state|unknown kind"):
        GAME.from_json(data)


def test_the_stored_fixtures_keyflower_snapshots_read_back() -> None:
    """tests/fixtures/keywood-b19d9db.db holds two Keyflower games stored before `after_boats` existed: they read
    back, and write the same data with that field at its default."""
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as db:
        rows = db.execute("SELECT s.state FROM snapshots s JOIN games g ON g.id = s.game_id "
                          "WHERE g.game = 'keyflower'").fetchall()
    assert len(rows) >= 2
    for (text,) in rows:
        data = json.loads(text)
        state = GAME.from_json(data)
        assert GAME.to_json(state) == {"after_boats": False, **data}
        assert_round_trip(state)
