"""The state's stored form: saved games load unchanged and are written back byte for byte.

tests/keythedral/stored_states.jsonl holds states written by the code before the state was typed (commit b550ed0,
one line each: the parts of the form it covers, "why", and the JSON text, "state"), chosen so that together they hold
every kind of action under way, law window, played card (waiting, acting, in force, with and without the seats and
cubes it moved), bidding, harvest and turn flags. Each must read and write back as the same text. States met along
random games must survive the round trip both ways.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core import Playout, replay
from engine.keythedral import GAME
from engine.keythedral.state import KState
from engine.playout import random_playout

STORED = Path(__file__).with_name("stored_states.jsonl")
RECORDS = [json.loads(line) for line in STORED.read_text().splitlines() if line.strip()]
PLAYTHROUGH = Path(__file__).parents[1] / "contract" / "playthroughs" / "keythedral-1.json"


def assert_round_trip(state: KState) -> None:
    """from_json(to_json(s)) == s, and to_json(from_json(j)) == j as text."""
    text = GAME.to_json_text(state)
    again = GAME.from_json(orjson.loads(text))
    assert again == state
    assert GAME.to_json_text(again) == text
    assert GAME.to_json(again) == GAME.to_json(state) == orjson.loads(text)


@pytest.mark.parametrize("record", RECORDS, ids=[" ".join(r["why"])[:60] for r in RECORDS])
def test_a_state_stored_before_reads_and_writes_back_byte_for_byte(record: dict[str, Any]) -> None:
    text = record["state"]
    state = GAME.from_json(orjson.loads(text))
    assert GAME.to_json_text(state) == text
    assert_round_trip(state)


def test_the_stored_states_cover_every_kind_of_part() -> None:
    """Every action under way, law window and purpose of a payment is among the stored states."""
    kinds = set()
    for record in RECORDS:
        data = orjson.loads(record["state"])
        if data["pending"]:
            kinds.add((data["pending"]["kind"], data["pending"].get("for")))
        kinds |= {(w["kind"], None) for w in data["windows"]}
    assert kinds >= {("laws", None), ("give", "smith"), ("give", "glass"), ("give", "gold"), ("give", "trade"),
                     ("give", "procure"), ("give", "buy"), ("give", "bid"), ("take", "trade"), ("take", "bargain"),
                     ("take", "harvest"), ("price", None), ("relocate", None), ("work-order", None),
                     ("start", None), ("phase", None), ("purchase", None), ("repeal", None)}


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5),
       options=st.sampled_from([{}, {"open_tiles": True}, {"open_screens": True}, {"no_laws": True}]))
def test_states_along_random_games_round_trip(seed: int, players: int, options: dict[str, bool]) -> None:
    """Along a random game (every tenth state and the end), each state survives to_json and from_json."""
    seen = 0

    def check(state: KState, seat: int, action: object) -> None:
        nonlocal seen
        if seen % 10 == 0:
            assert_round_trip(state)
        seen += 1

    final, _ = random_playout(GAME, ["Ana", "Ben", "Cleo", "Dev", "Eli"][:players], seed, options=options,
                              on_step=check)
    assert_round_trip(final)


def test_the_recorded_playthrough_round_trips_at_every_step() -> None:
    """tests/contract/playthroughs/keythedral-1.json replayed: every state it passes through survives the round
    trip."""
    data = json.loads(PLAYTHROUGH.read_text(encoding="utf-8"))
    record = Playout(data["players"], data["seed"], data["options"], [(seat, text) for seat, text in data["actions"]])
    assert GAME.is_over(replay(GAME, record, after=assert_round_trip))


def test_malformed_data_is_refused() -> None:
    data = GAME.to_json(GAME.setup(["Ana", "Ben"], 1, {}))
    for bad in ({**data, "surplus": 1}, {k: v for k, v in data.items() if k != "names"},
                {**data, "pending": {"kind": "dance", "seat": 0}}, {**data, "windows": [{"kind": "party"}]},
                {**data, "cottages": [[{"at": None}]]}):
        with pytest.raises(ValueError):
            GAME.from_json(bad)
