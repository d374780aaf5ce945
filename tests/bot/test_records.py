"""The table's typed records (bot/records.py) read and write the JSON that stored games have: a game's options with
the table's notes beside them, and a prompt's payload. Games stored before the records existed (the b19d9db fixture)
read back to the same text, and what the table writes for every note (seat names, time away, a seat offered to
substitutes, a volunteer, a handover) and every clock stage has the shape those games have."""

from __future__ import annotations

import json
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.records import GameOptions, PromptPayload, read_game_options, write_game_options
from bot.store import Store
from bot.table import Table, Who
from tests.bot.helpers import ANA, T0, cmd, start_game, url
from tests.quick import QUICK_STANDIN

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "keywood-b19d9db.db"  # games stored by b19d9db
HOUR = timedelta(hours=1)
EVE = Who("u-eve", "Eve")


def test_the_options_and_payloads_of_stored_games_read_back_to_the_same_text() -> None:
    """Every game row's options and every prompt's payload of the b19d9db database, read into records and written
    again, is the text stored."""
    with sqlite3.connect(f"file:{FIXTURE}?mode=ro", uri=True) as db:
        options = [text for (text,) in db.execute("SELECT options FROM games")]
        payloads = [text for (text,) in db.execute("SELECT payload FROM prompts")]
    assert len(options) == 5 and len(payloads) > 100
    for text in options:
        assert write_game_options(*read_game_options(text)) == text
    for text in payloads:
        assert PromptPayload.from_json(text).to_json() == text


def test_a_payload_stored_before_decisions_had_phrases_keeps_its_keys() -> None:
    """A prompt migrated from the first schema (its choices in the payload, no phrase) keeps what it had; what it
    lacks reads as the table always read it (not due, public choices)."""
    payload = PromptPayload.from_json('{"choices": ["join green", "decline"], "default": "decline"}')
    assert (payload.must, payload.default, payload.phrase, payload.public) == (False, "decline", None, True)
    assert json.loads(payload.to_json())["choices"] == ["join green", "decline"]


def _stored(db_path: Path, game_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A game's stored options and open prompts' payloads as JSON (the text in the file), each checked to read back
    to its own text."""
    with sqlite3.connect(db_path) as db:
        [(options,)] = db.execute("SELECT options FROM games WHERE id = ?", (game_id,))
        payloads = [text for (text,) in db.execute(
            "SELECT payload FROM prompts WHERE game_id = ? AND status = 'open' ORDER BY id", (game_id,))]
    assert GameOptions.from_json(options).to_json() == options
    assert all(PromptPayload.from_json(text).to_json() == text for text in payloads)
    return json.loads(options), [json.loads(text) for text in payloads]


def test_the_table_writes_its_notes_and_clocks_in_the_stored_shape(db_path: Path) -> None:
    """Ben (seat 1) pauses his clock for two hours, it runs out, his seat is offered, Eve volunteers and the host
    confirms her: the options hold each note as stored games hold it, and Ben's prompt its clock at each stage."""
    table = Table(Store(url(db_path)), images=False, standin_budget=QUICK_STANDIN)
    game_id = start_game(table, clock_hours=24, on_timeout="sub").game_id
    assert game_id is not None
    for text in ("play orange f7 build farmyard", "pay stone"):  # Ana's turn: Ben's clock starts at T0
        assert table.handle(cmd(ANA, "play", text)).ok
    options, [payload] = _stored(db_path, game_id)
    assert options["names"] == ["Ana", "Ben", "Cleo"] and "away" not in options
    assert payload == {"must": True, "default": None, "phrase": "take a turn", "public": True,
                       "clock": {"ends": (T0 + 24 * HOUR).isoformat(), "stage": "running"}}
    assert table.handle(cmd(Who("u-ben", "Ben"), "away", "2h", at=T0 + HOUR)).ok
    options, [payload] = _stored(db_path, game_id)
    assert options["away"] == {"1": {"until": (T0 + 3 * HOUR).isoformat(), "used": 120}}
    assert payload["clock"] == {"ends": (T0 + 26 * HOUR).isoformat(), "stage": "running"}
    table.due(T0 + 20 * HOUR)
    assert _stored(db_path, game_id)[1][0]["clock"]["stage"] == "warned"
    table.due(T0 + 26 * HOUR)
    options, [payload] = _stored(db_path, game_id)
    assert options["sub_open"] == [1] and payload["clock"]["stage"] == "out"
    assert table.handle(cmd(EVE, "sub")).ok
    assert _stored(db_path, game_id)[0]["volunteers"] == [{"name": "Eve", "seat": 1, "user_id": "u-eve"}]
    assert table.handle(cmd(ANA, "sub", "Eve", at=T0 + 27 * HOUR)).ok
    options, _ = _stored(db_path, game_id)
    assert options["handovers"] == [{"from": "u-ben", "seat": 1, "to": "u-eve"}]
    assert options["sub_open"] == [] and options["volunteers"] == []
    assert options["names"] == ["Ana", "Ben", "Cleo"]  # the engine's names stay; texts use the holders'
    table.store.close()
