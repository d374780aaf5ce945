"""The play path: an action from a player (typed, a channel button or a DM answer) applied and stored, what needs
nobody applied after it (answers kept ahead, defaults, forced moves, the stand-in's moves), and what to post and
send for the new state; and `undo`."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import describe
from bot.loaded import (
    AUTO_AUTHOR,
    STANDIN_AUTHOR,
    TIMEOUT_AUTHOR,
    Loaded,
    position,
    record_of,
)
from bot.store import Tx
from bot.table.commands import Command, Outcome, TableChanged, TableError, Where, is_computer
from bot.table.context import Context, fingerprint, require_seat, save_table
from bot.table.decisions import adopt_legacy, close_prompts, prompt_choices, still_open, sync_decisions
from bot.table.texts import repeats, waiting
from engine import standin
from engine.core import EngineError, Event, replay
from engine.playout import forced_move


def standin_seed(game_seed: int, actions: int) -> int:
    """The stand-in's random seed for a move, after this many actions of the log: a hash keyed with the game's seed
    (BLAKE2b, 64 bits), so that its moves, which everyone sees, tell nothing about the game's seed."""
    key = (game_seed % 2**64).to_bytes(8, "big")
    return int.from_bytes(hashlib.blake2b(actions.to_bytes(8, "big"), key=key, digest_size=8).digest(), "big")


def play(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Apply an action from a seated player, or keep an early answer to a decision not yet due."""
    game = ctx.require_running(tx, cmd)
    seat = require_seat(game, cmd)
    if cmd.seat is not None and cmd.seat != seat:
        raise TableError("That choice was offered to another player.")
    if cmd.version is not None and cmd.version != game.row.version:
        raise TableChanged("The table has moved on since that choice was shown; nothing was changed.")
    return play_as(ctx, tx, game, seat, cmd, moment)


def answer(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Answer a decision by its prompt (a DM button): valid while it is open, for its seat's current holder."""
    prompt = tx.prompt(cmd.prompt_id) if cmd.prompt_id is not None else None
    if prompt is None or prompt.status != "open" or prompt.seat is None:
        raise TableChanged("This decision has already been made or has closed; nothing was changed.")
    row = tx.game(prompt.game_id)
    if row is None or row.status != "active":
        raise TableChanged("This game is no longer running.")
    game = ctx.load(tx, row)
    holder = game.user_of(prompt.seat)
    if holder.user_id != cmd.who.user_id:
        raise TableError(_not_yours(game, cmd.who.user_id, prompt.seat))
    outcome = play_as(ctx, tx, game, prompt.seat, cmd, moment)
    if prompt.id not in outcome.closed:  # still open: the reply's buttons answer it again
        outcome.reply_prompt = prompt.id
        outcome.reply_choices = prompt_choices(game, prompt.seat)
    return outcome


def _not_yours(game: Loaded, user_id: str, seat: int) -> str:
    """Why a user may not answer a seat's decision: it was handed on from them, or was never theirs."""
    if any(h.seat == seat for h in game.notes.handed_from(user_id)):
        return f"This seat has been handed to {game.user_of(seat).name}; you no longer play it."
    return "This decision is for another player."


def play_as(ctx: Context, tx: Tx, game: Loaded, seat: int, cmd: Command, moment: datetime) -> Outcome:
    """Apply the command's action for a seat, or keep it as an early answer to a decision not yet due."""
    action, times = _parse_repeated(game, seat, cmd.arg)
    if seat not in game.engine.to_act(game.state) and action in game.engine.pending_answers(game.state, seat):
        return _record_answer(tx, game, seat, action, cmd.who.user_id)
    events: list[Event | str] = [*_back(tx, game, seat)]
    events += apply(tx, game, seat, cmd.who.user_id, action)
    for done in range(1, times):  # `take pig x3`: the same small action again, while it stays legal
        if seat not in game.engine.to_act(game.state) or action not in game.legal(seat):
            raise TableError(f"'{game.engine.format(action)}' could be done only {done} of {times} times; "
                             "nothing was changed.")
        events += apply(tx, game, seat, cmd.who.user_id, action)
    events += settle(ctx, tx, game)
    outcome = after_change(ctx, tx, game, moment, events)
    outcome.reply = f"Done: {game.engine.format(action)}" + (f" ×{times}." if times > 1 else ".")
    return outcome


def _back(tx: Tx, game: Loaded, seat: int) -> list[str]:
    """A seat offered to substitutes whose holder plays again is no longer offered; says so (or nothing)."""
    if seat not in game.notes.offered():
        return []
    withdraw_offer(tx, game, seat)
    return [f"{game.user_of(seat).name} is back, so their seat is no longer offered to substitutes."]


def withdraw_offer(tx: Tx, game: Loaded, seat: int) -> None:
    """Take a seat off offer to substitutes, with the offers made for it."""
    save_table(tx, game.row, game.options, game.notes.without_offer(seat))


def apply(tx: Tx, game: Loaded, seat: int, author: str, action: Any) -> list[Event]:
    """Apply one action and store it: log row (public words only), snapshot, version; returns the events."""
    index = position(game.legal(seat), action)  # the legal actions are often known already
    trial = game.trial(seat, index) if index is not None else None  # often tried for the buttons
    if trial is not None:
        new_state, events = trial.after, list(trial.events)
    else:
        new_state, events = game.engine.apply(game.state, seat, action)  # refuses, saying why
    public = [e.text for e in events if e.public]
    summary = game.engine.public_notation(action) + (": " + " ".join(public) if public else "")
    tx.append_action(game.row, seat, author, game.engine.format(action), summary)
    engine = game.engine
    tx.save_state(game.row, lambda: engine.to_json_text(new_state))  # stored once, with the command's last state
    if trial is not None:
        game.advance(trial, seat)
    else:
        game.state = new_state
    return events


def _record_answer(tx: Tx, game: Loaded, seat: int, action: Any, author: str) -> Outcome:
    """Keep an answer from a seat whose decision is not yet due; it applies when its turn to answer comes."""
    prompt = next((p for p in game.open_prompts(tx) if p.seat == seat), None)
    if prompt is None:
        raise TableError("You have no open decision to answer.")
    if prompt.answer is not None:
        raise TableError(f"You have already answered: '{prompt.answer}'.")
    prompt.answer = game.engine.format(action)
    prompt.payload = replace(prompt.payload, by=author)
    tx.save_prompt(prompt)
    return Outcome(True, f"Answer kept: '{prompt.answer}'. It counts once the players before you have decided "
                         f"({waiting(game)}).", game_id=game.id, version=game.row.version)


def _parse_repeated(game: Loaded, seat: int, text: str) -> tuple[Any, int]:
    """The action a command names and how many times in a row: 'take pig x3' is 'take pig' three times when
    the whole text is not itself an action (a game's own notation may end in a count, like 'laydown 1.clay x2').

    Raises the engine's error for the whole text when neither reading works.
    """
    legal = game.legal(seat)
    try:
        return game.engine.parse(game.state, seat, text, legal), 1
    except EngineError:
        base, times = repeats(text)
        if times == 1:
            raise
        return game.engine.parse(game.state, seat, base, legal), times


def settle(ctx: Context, tx: Tx, game: Loaded) -> list[Event]:
    """Apply what needs nobody: kept and timed-out answers whose turn has come, and a lone decision's only
    possible answer (engine.playout.forced_move: logged as Keywood's, and undone with the action before it)."""
    events: list[Event] = []
    while not game.engine.is_over(game.state):
        events += _apply_queued(tx, game)
        forced = None if game.engine.is_over(game.state) else forced_move(
            game.engine, game.state, decisions=game.decisions(), legal=game.legal)
        if forced is None:
            played = [] if game.engine.is_over(game.state) else _computer_moves(ctx, tx, game)
            if not played:
                return events
            events += played
            continue
        seat, action = forced
        events.append(Event(f"{game.user_of(seat).name} has only one possible choice, so Keywood plays it: "
                            f"{game.engine.public_notation(action)}.", seat))
        events += apply(tx, game, seat, AUTO_AUTHOR, action)
    return events


def _computer_moves(ctx: Context, tx: Tx, game: Loaded) -> list[Event]:
    """The stand-in's move for the first computer seat, or seat it stands in for, that must act (logged as the
    stand-in's); [] when none. It stands in for a seat only while that seat still must act."""
    acting = game.engine.to_act(game.state)
    game.standing_in &= set(acting)
    seat = next((s for s in acting if is_computer(game.user_of(s).user_id) or s in game.standing_in), None)
    if seat is None:
        return []
    seed, state, engine = standin_seed(game.row.seed, tx.action_count(game.id)), game.state, game.engine
    key = ("move", game.id, seat, seed, fingerprint(engine.to_json(state)))
    # thought out outside the transaction (Context.worked_out), so that no other table waits for it
    action = ctx.worked_out(key, lambda: standin.choose(engine, state, seat, seed=seed, budget=ctx.standin_budget))
    said = Event(f"Keywood's stand-in plays for {game.user_of(seat).name}: "
                 f"{game.engine.public_notation(action)}.", seat)
    return [said, *apply(tx, game, seat, STANDIN_AUTHOR, action)]


def _apply_queued(tx: Tx, game: Loaded) -> list[Event]:
    """Apply kept and timed-out answers of seats whose turn to answer has come, in the engine's order."""
    events: list[Event] = []
    while not game.engine.is_over(game.state):
        due = set(game.engine.to_act(game.state))
        rows = game.open_prompts(tx)
        if any(p.key == "" for p in rows):
            adopt_legacy(tx, game.decisions(), rows, {(p.seat, p.key): p for p in rows})
        ready = [p for p in rows if p.seat in due and p.answer is not None and still_open(game, p)]
        if not ready:
            return events
        prompt = min(ready, key=lambda p: game.engine.to_act(game.state).index(p.seat or 0))
        assert prompt.seat is not None
        payload = prompt.payload
        action = game.engine.parse(game.state, prompt.seat, prompt.answer or "")
        if payload.timed_out:
            events.append(Event(f"{game.user_of(prompt.seat).name} did not answer in time.", prompt.seat))
        holder = game.user_of(prompt.seat).user_id
        author = TIMEOUT_AUTHOR if payload.timed_out else (payload.by if payload.by is not None else holder)
        events += apply(tx, game, prompt.seat, author, action)
        prompt.status = "done"
        tx.save_prompt(prompt)
        game.done_prompts.append(prompt.id or 0)
    return events


def after_change(ctx: Context, tx: Tx, game: Loaded, moment: datetime, events: Sequence[Event | str]) -> Outcome:
    """Sync decisions, finish a game that ended, and say what to post and send for the new state."""
    version, state = game.row.version, game.state
    tx.after_commit.append(lambda: ctx.remember(game.id, version, state, game))
    texts: list[Event | str] = list(events)
    public = [game.rename(e.text if isinstance(e, Event) else e) for e in texts
              if not isinstance(e, Event) or e.public]
    view = game.rename_view(game.engine.view(game.state, None)) if ctx.images else None
    outcome = Outcome(True, public=public, game_id=game.id, board=view, closed=list(game.done_prompts),
                      seats={s.user_id: s.seat for s in game.seats}, draw=ctx.drawing(game.entry, view))
    for event in (e for e in texts if isinstance(e, Event) and not e.public):
        for seat in event.to or ():
            outcome.private.setdefault(game.user_of(seat).user_id, []).append(game.rename(event.text))
    if game.engine.is_over(game.state):
        _finish(ctx, tx, game, outcome)
    else:
        sync_decisions(ctx, tx, game, moment, outcome)
        outcome.public.append(describe.capitalise(waiting(game)) + ".")
    outcome.version = game.row.version
    outcome.where = Where(game.row.guild_id, game.row.channel_id)
    return outcome


def _finish(ctx: Context, tx: Tx, game: Loaded, outcome: Outcome) -> None:
    """Mark a game finished, close its decisions and put the final scoreboard (and its image) in the outcome."""
    tx.set_status(game.row, "finished")
    outcome.closed += close_prompts(tx, game.id)
    outcome.mention = [seat.user_id for seat in game.seats]
    final = game.engine.score(game.state, None)
    outcome.public.append(game.rename(describe.scoreboard(final)))
    scoreboard = game.entry.render_scoreboard if ctx.images else None
    if scoreboard is not None:
        outcome.draw = lambda: scoreboard(final)


def undo(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Take back the caller's own last action, if nothing was drawn or revealed and play has not moved on."""
    game = ctx.require_running(tx, cmd)
    seat = require_seat(game, cmd)
    rows = tx.actions(game.id)
    automatic = 0
    while automatic < len(rows) and rows[-1 - automatic].author_id == AUTO_AUTHOR:
        automatic += 1  # Keywood's forced answers go with the action that led to them
    kept, taken = rows[:len(rows) - automatic - 1], rows[len(rows) - automatic - 1:]
    if not taken or taken[0].seat != seat or taken[0].author_id == TIMEOUT_AUTHOR:
        raise TableError("You can only take back your own last action, and only before anyone else acts.")
    if seat not in game.engine.to_act(game.state):
        raise TableError("Play has passed to another player; that action stands.")
    before = replay(game.engine, record_of(game, kept))
    if game.engine.is_undo_barrier(before, game.state):
        raise TableError("That action drew something at random or revealed something hidden; it cannot be "
                         "undone.")
    said = game.engine.public_notation(game.engine.parse(before, seat, taken[0].notation))  # no hidden choice
    for row in taken:
        tx.mark_undone(row)
    tx.save_state(game.row, lambda: game.engine.to_json_text(before))
    game.state = before
    outcome = after_change(ctx, tx, game, moment, [f"{cmd.who.name} takes back '{said}'."])
    outcome.reply = "Undone."
    return outcome
