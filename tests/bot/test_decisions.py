"""Decisions through the table: private choices stay private, one message per decision, seats handed over safely,
the outbox written with the action, and a database written by an older Keywood upgraded and played on.

Each test here failed on main at ff0c4a6 (the faults listed in the issue "One table for every game"). Those played
at a table run on SQLite and on PostgreSQL; the upgrade of the ff0c4a6 file is SQLite's own.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from bot.store import Store
from bot.table import Table, Where, Who
from engine.keyper import GAME
from engine.playout import chosen_moves, random_playout
from tests.bot.helpers import ANA, BEN, CLEO, SEED, Started, cmd, count, dump, log_rows, url

EVE = Who("u-eve", "Eve")
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "keywood-ff0c4a6.db"

pytestmark = pytest.mark.databases("sqlite", "postgresql")


def outbox(table: Table, game_id: int) -> list[tuple[int, str, str | None, dict[str, object]]]:
    """(id, kind, recipient, payload) of a game's outbox rows, oldest first."""
    with table.store.transaction() as tx:
        rows = tx.execute_raw(f"SELECT id, kind, recipient, payload FROM outbox WHERE game_id = {int(game_id)} "
                              "ORDER BY id").all()
    return [(int(i), str(k), r, json.loads(p)) for i, k, r, p in rows]


def play_until(game: Started, choice_seed: int, stop: object) -> list[tuple[int, str]]:
    """Play the seed-7 game's random play-out (choices from choice_seed) through the table until stop(state)."""
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], SEED, choice_seed=choice_seed)
    moves = chosen_moves(GAME, record)
    for seat, text in moves:
        if stop(game.state()):  # type: ignore[operator]
            return moves
        game.play(game.players[seat], text)
    raise AssertionError("the play-out never reached the moment")


def one_left_at_fairs(state: object) -> bool:
    """Exactly one player is deciding which fairs to hold."""
    return state.phase == "fairs" and len(GAME.to_act(state)) == 1  # type: ignore[attr-defined]


def test_face_down_fairs_never_reach_the_channel(started: Started) -> None:
    """Issue fault 1: with one player left to decide about fairs, her `hold FAIR` buttons name face-down tiles;
    they go to her alone (a decision DM), never into the channel message."""
    before = len(outbox(started.table, started.game_id))
    play_until(started, 2, one_left_at_fairs)
    state = started.state()
    [seat] = GAME.to_act(state)
    holder = started.players[seat]
    hidden = set(state.players[seat].hidden_fairs)
    assert hidden, "she has face-down fairs"
    rows = outbox(started.table, started.game_id)[before:]
    public = [payload for _, kind, _, payload in rows if kind == "public"]
    for payload in public:
        buttons = payload["buttons"] or {"choices": []}
        assert not any(c.startswith("hold") for c in buttons["choices"]), buttons  # type: ignore[index, union-attr]
    held = {f.fair for seasons in state.players[seat].fairground.values() for f in seasons}
    for payload in public:
        assert not any(fair in str(payload["text"]) for fair in hidden - held), payload["text"]
    decisions = [payload for _, kind, to, payload in rows if kind == "decision" and to == holder.user_id
                 and any(str(c).startswith("hold") for c in payload["choices"])]  # type: ignore[attr-defined]
    assert decisions, "her fair choices came to her privately"


def test_a_seat_handed_over_keeps_its_decision_and_refuses_the_previous_holder(invited: Started) -> None:
    """Issue fault 2: after /kick ben replacement eve during Ben's invitation, Ben's old button is refused and
    changes nothing; Eve is told privately what she holds and gets the invitation; texts name Eve; her answer is
    logged as hers."""
    table = invited.table
    [ben_prompt] = [p for p, kind, seat, status, _ in _prompts(table, invited.game_id)
                    if kind == "reaction" and seat == 1 and status == "open"]
    kicked = table.handle(cmd(ANA, "kick", options={"user_id": BEN.user_id, "replacement_id": EVE.user_id,
                                                    "replacement_name": EVE.name}))
    assert kicked.ok and kicked.public == ["Eve takes over Ben's seat."]
    assert kicked.mention == [BEN.user_id, EVE.user_id]
    [told] = kicked.private[EVE.user_id][:1]
    assert "You now hold Ben's seat" in told and "Waiting for Eve to join or decline" in told
    assert "Eve, your fair tiles" in kicked.private[EVE.user_id][1]
    [note] = kicked.opened
    assert (note.prompt_id, note.user_id, note.choices) == (ben_prompt, EVE.user_id,
                                                            ("join green", "join white", "decline"))

    before = dump(invited.db)
    stale = table.handle(cmd(BEN, "answer", "join green", prompt_id=ben_prompt))
    assert not stale.ok and stale.reply == "This seat has been handed to Eve; you no longer play it."
    typed = table.handle(cmd(BEN, "play", "decline"))
    assert not typed.ok and typed.reply == "Your seat was handed to Eve; you no longer play in this game."
    assert dump(invited.db) == before, "the refusals changed nothing"

    assert table.handle(cmd(EVE, "hand")).reply.startswith("Eve, your fair tiles")
    assert "Waiting for Eve to join or decline." in table.handle(cmd(CLEO, "board")).reply
    joined = table.handle(cmd(EVE, "answer", "join green", prompt_id=ben_prompt))
    assert joined.ok and "Eve joins with a green keyple." in joined.public
    assert log_rows(table, invited.game_id)[-1][1:4] == (1, EVE.user_id, "join green")
    assert "Eve joins" in table.handle(cmd(CLEO, "log")).reply
    assert table.verify(invited.game_id)[0] == "same", "the engine still knows the seat by its first name"


def test_a_simultaneous_choice_sends_one_message_per_player(started: Started) -> None:
    """Issue fault 4: during the secret display choice each player gets exactly one decision DM; an answer by
    one sends the others nothing new, and their own decisions stay answerable."""
    before = len(outbox(started.table, started.game_id))
    play_until(started, 3, lambda s: s.phase == "choose_display")  # type: ignore[attr-defined]
    rows = outbox(started.table, started.game_id)[before:]
    display = {to: payload for _, kind, to, payload in rows if kind == "decision"
               and str(payload["text"]).find("choose a board display") >= 0}
    assert sorted(display) == sorted(p.user_id for p in started.players)
    first, second, *_ = started.players
    mark = len(outbox(started.table, started.game_id))
    choice = str(display[first.user_id]["choices"][0])  # type: ignore[index]
    started.table.handle(cmd(first, "answer", choice, prompt_id=int(display[first.user_id]["prompt"])))  # type: ignore[arg-type]
    later = outbox(started.table, started.game_id)[mark:]
    assert [kind for _, kind, _, _ in later] == ["public"], later
    assert later[0][3]["mention"] == [], "nobody is pinged again for a decision they were already asked"
    other = started.table.handle(cmd(second, "answer", str(display[second.user_id]["choices"][0]),  # type: ignore[index]
                                     prompt_id=int(display[second.user_id]["prompt"])))  # type: ignore[arg-type]
    assert other.ok, other.reply


def test_an_accepted_command_writes_its_messages_with_it_and_a_refused_one_writes_none(started: Started) -> None:
    """Issue fault 3 (the table's half): the turn message and each invitation are outbox rows committed with
    the action; a refusal adds none."""
    rows = len(outbox(started.table, started.game_id))
    refused = started.table.handle(cmd(BEN, "play", "play green 1.pig"))
    assert not refused.ok and len(outbox(started.table, started.game_id)) == rows
    started.play(ANA, "play green 1.pig")
    new = outbox(started.table, started.game_id)[rows:]
    assert [(kind, to) for _, kind, to, _ in new] == [("public", None), ("decision", BEN.user_id),
                                                     ("decision", CLEO.user_id)]
    assert new[0][3]["mention"] == [BEN.user_id]
    assert count(started.db, "SELECT COUNT(*) FROM outbox WHERE status = 'pending'") == len(
        outbox(started.table, started.game_id))


def test_a_database_from_main_at_ff0c4a6_upgrades_and_its_game_plays_on(tmp_path: Path) -> None:
    """Issue: a database made by the previous schema (a Keyper game with Ben's invitation open and Cleo's early
    'join white' kept) is upgraded on opening, backed up first, and the game plays on to its end: Ben's decline
    releases Cleo's kept answer."""
    path = tmp_path / "keywood.db"
    shutil.copy(FIXTURE, path)
    store = Store(url(path))
    table = Table(store, images=False)
    try:
        assert list(tmp_path.glob("keywood.db.backup-pre-alembic-*")), "a backup was written first"
        where = Where("guild-1", "channel-1")
        ana, ben, cleo = (Who(f"u-{n.lower()}", n) for n in ("Ana", "Ben", "Cleo"))
        declined = table.handle(cmd(ben, "play", "decline", where=where))
        assert declined.ok, declined.reply
        assert "Cleo joins with a white keyple." in declined.public
        game_id = declined.game_id or 0
        assert log_rows(table, game_id)[-1][1:4] == (2, cleo.user_id, "join white")
        players = {0: ana, 1: ben, 2: cleo}
        rng = random.Random(5)
        for _ in range(3000):
            with store.transaction() as tx:
                data = tx.snapshot(game_id)
            assert data is not None
            state = GAME.from_json(data)
            if GAME.is_over(state):
                break
            seat = rng.choice(GAME.to_act(state))
            action = rng.choice(GAME.legal_actions(state, seat))
            outcome = table.handle(cmd(players[seat], "play", GAME.format(action), where=where))
            assert outcome.ok, outcome.reply
        assert GAME.is_over(state)
        assert table.verify(game_id)[0] == "same"
        lobby = table.handle(cmd(cleo, "join", where=Where("guild-1", "channel-2")))
        assert lobby.ok, "the lobby in the other channel survived too"
    finally:
        store.close()


def _prompts(table: Table, game_id: int) -> list[tuple[int, str, int | None, str, str | None]]:
    """(id, kind, seat, status, answer) of a game's prompts."""
    with table.store.transaction() as tx:
        rows = tx.execute_raw(f"SELECT id, kind, seat, status, answer FROM prompts WHERE game_id = {int(game_id)} "
                              "ORDER BY id").all()
    return [tuple(r) for r in rows]  # type: ignore[misc]
