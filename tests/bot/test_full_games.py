"""Whole games from the first move to the final score: through Table.handle, and through `keywood play --script`."""

from __future__ import annotations

import random
from pathlib import Path

from bot.table import AUTO_AUTHOR, Outcome, Table
from engine.core import clone
from engine.keyper import GAME
from engine.playout import chosen_moves, random_playout
from tests.bot.helpers import (
    ANA,
    BEN,
    CLEO,
    Started,
    cmd,
    game_status,
    keywood,
    log_rows,
    prompts,
    random_step,
    read_state,
    script_for,
    start_game,
)

MAX_COMMANDS = 3000


def play_to_the_end(game: Started, rng: random.Random) -> tuple[Outcome, int, int]:
    """Random legal plays and early invitation answers until the game is over.

    Returns the last Outcome, the number of commands and how many of them were early answers kept for later."""
    last, kept = Outcome(False), 0
    for sent in range(1, MAX_COMMANDS + 1):
        last = random_step(game, rng)
        kept += last.reply.startswith("Answer kept")
        if GAME.is_over(game.state()):
            return last, sent, kept
    raise AssertionError(f"no end after {MAX_COMMANDS} commands")


def test_a_full_three_player_game_through_the_table(started: Started) -> None:
    """Ana, Ben and Cleo play a whole random game with play commands, answering invitations early or in turn;
    it finishes with the final scoreboard in the last Outcome and a log that replays to the stored state."""
    last, sent, kept = play_to_the_end(started, random.Random(2026))
    assert kept > 0, "some invitations were answered before their turn"
    assert game_status(started.table, started.game_id) == "finished"
    assert last.ok and last.game_id == started.game_id
    score = next(line for line in last.public if line.startswith("Final score:"))
    assert all(name in score for name in ("Ana", "Ben", "Cleo"))
    assert last.mention == [p.user_id for p in started.players] and last.opened == [], "the game end pings every player"
    assert all(status != "open" for _, _, _, status, _ in prompts(started.table, started.game_id))
    rows = log_rows(started.table, started.game_id)
    by_players = [r for r in rows if r[2] != AUTO_AUTHOR]  # the others: moves Keywood played as the only ones left
    assert sent - kept <= len(by_players) <= sent
    assert all(author in {p.user_id for p in started.players} for _, _, author, _, _ in by_players)
    assert started.table.verify(started.game_id) == ("same", f"{len(rows)} actions replay to the stored state")
    after = started.table.handle(cmd(BEN, "score"))
    assert after.ok and after.reply.startswith("Final score:")
    assert started.table.handle(cmd(ANA, "log")).ok
    refused = started.table.handle(cmd(ANA, "play", "done"))
    assert not refused.ok and "There is no game in this channel" in refused.reply
    assert started.table.handle(cmd(BEN, "new", "keyper")).ok, "a finished game frees the channel"


def test_a_payment_step_is_described_through_the_table(table: Table) -> None:
    """Building asks for payment item by item; the table describes that step and shows the board."""
    befores: list[object] = []
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], 1, on_step=lambda s, *_: befores.append(clone(s)))
    first_pay = next(i for i, state in enumerate(befores) if getattr(state, "phase", "") == "pay")
    game_id = start_game(table, seed=1).game_id or 0
    players = (ANA, BEN, CLEO)
    outcome = Outcome(False)
    record.actions = record.actions[:first_pay]
    for seat, text in chosen_moves(GAME, record):
        outcome = table.handle(cmd(players[seat], "play", text))
        assert outcome.ok, outcome.reply
    state, _ = read_state(table, game_id)
    assert state.phase == "pay"
    assert outcome.public[-1].startswith("Waiting for ")
    assert table.handle(cmd(ANA, "board")).ok


def test_a_full_game_through_keywood_play_script(tmp_path: Path) -> None:
    """`keywood play --db X --seed S --script FILE` plays a whole recorded game and ends with the final score
    (board images off: rendering has its own tests and would triple the time)."""
    script = script_for(3)
    path = tmp_path / "game.txt"
    path.write_text("# a random 3-player game\n" + "\n".join(script) + "\n", encoding="utf-8")
    db = tmp_path / "terminal.db"
    result = keywood("play", "--db", str(db), "--seed", "3", "--script", str(path), "--no-images")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert result.stdout.startswith("New Keyper game for Ana, Ben, Cleo.")
    assert "Final score:" in result.stdout
    assert "\n! " not in result.stdout
    replay = keywood("replay", "1", "--db", str(db))
    _, record = random_playout(GAME, ["Ana", "Ben", "Cleo"], 3)
    assert len(record.actions) > len(script), "the table played some forced moves itself"
    assert replay.returncode == 0 and f"game 1: same — {len(record.actions)} actions" in replay.stdout
