"""Timing: the table's clock (`clock`), time away (`away`), the stand-in asked to play (`standin`), substitutes
(`sub`), and what falls due (`due`): defaults applied, clocks warned or run out, reminders."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from bot import clocks, describe
from bot.clocks import Clock
from bot.loaded import Loaded
from bot.records import Away, Volunteer
from bot.store import GameRecord, PromptRecord, ShardSet, Tx, aware, now
from bot.table.commands import Command, Outcome, TableError, Where, error_text
from bot.table.context import Context, require_game, require_host, require_seat, save_table
from bot.table.decisions import close_prompts, retime, sync_decisions
from bot.table.lobby import hand_over
from bot.table.outbox import queue
from bot.table.play import after_change, settle, withdraw_offer
from bot.table.texts import notice, waiting
from engine.core import EngineError, Event


def clock(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Show the table's clock; the host (or an admin) changes it: `clock 24h`, `clock 2d sub`, `clock off`."""
    row = require_game(tx, cmd)
    options, notes = dict(row.options.values), row.options.notes
    if not cmd.arg.strip():
        return Outcome(True, Clock.of(options).describe() + _clock_states(ctx, tx, row, moment))
    require_host(row, cmd, "change the clock")
    options |= _read_clock(cmd.arg)
    save_table(tx, row, options, notes)
    if row.status == "active":
        retime(ctx, tx, ctx.load(tx, row), moment)
    text = f"{cmd.who.name} set the clock. {Clock.of(options).describe()}"
    return Outcome(True, "Clock changed.", public=[text], game_id=row.id)


def _read_clock(text: str) -> dict[str, Any]:
    """The options a `clock` command sets: a pace in whole hours (or off), a consequence, or both; raises
    TableError for anything else."""
    changes: dict[str, Any] = {}
    for word in text.lower().split():
        if word in clocks.CONSEQUENCES:
            changes["on_timeout"] = word
        elif word in ("off", "none", "0"):
            changes["clock_hours"] = 0
        else:
            try:
                pace = clocks.parse_duration(word)
            except ValueError as exc:
                raise TableError(f"{exc} The clock takes a pace (12h, 2d), off, and what happens when it runs "
                                 f"out: {', '.join(clocks.CONSEQUENCES)}.") from None
            hours, rest = divmod(int(pace.total_seconds()), 3600)
            if rest or not 1 <= hours <= 24 * 14:
                raise TableError("The clock's pace is whole hours, from 1h to 14d.")
            changes["clock_hours"] = hours
    return changes


def _clock_states(ctx: Context, tx: Tx, row: GameRecord, moment: datetime) -> str:
    """Each running clock and each seat away, as lines after the clock's description."""
    if row.status != "active":
        return ""
    game = ctx.load(tx, row)
    lines = []
    for prompt in game.open_prompts(tx):
        timer = prompt.payload.clock
        if timer and prompt.seat is not None:
            left = clocks.ends(timer) - moment
            state = f"runs out in {clocks.say(left)}" if left.total_seconds() > 0 else "has run out"
            lines.append(f"{game.user_of(prompt.seat).name}'s clock {state}.")
    for seat in range(len(game.seats)):
        until = clocks.away_until(game.notes, seat, moment)
        if until:
            lines.append(f"{game.user_of(seat).name} is away for {clocks.say(until - moment)} more.")
    return "".join("\n" + line for line in lines)


def away(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Pause one's own clock for a while (`away 12h`), within the table's allowance; `away off` ends it early
    and gives the time not used back."""
    game = ctx.require_running(tx, cmd)
    seat = require_seat(game, cmd)
    clock = Clock.of(game.options)
    if not clock.on:
        raise TableError("No clock runs at this table, so there is nothing to pause; the host can set one with "
                         f"{cmd.typed('clock')}.")
    until = clocks.away_until(game.notes, seat, moment)
    used = timedelta(minutes=game.notes.away_of(seat).used)
    if cmd.arg.strip().lower() in ("off", "back", "0", "done"):
        if until is None:
            raise TableError("You are not away.")
        by, record = moment - until, Away(int((used - (until - moment)).total_seconds() // 60))
        text, reply = f"{cmd.who.name} is back; their clock runs again.", "Your clock runs again."
    else:
        try:
            by = clocks.parse_duration(cmd.arg or "")
        except ValueError as exc:
            raise TableError(f"{exc} For example: {cmd.typed('away 12h')}.") from None
        left = clock.away_limit - used
        if by > left:
            raise TableError(f"You may pause your clock for {clocks.say(left)} more in this game (the table "
                             f"allows {clocks.say(clock.away_limit)} in all); nothing was changed.")
        end = (until or moment) + by
        record = Away(int((used + by).total_seconds() // 60), end)
        text = f"{cmd.who.name} is away for {clocks.say(end - moment)}: their clock is paused until then."
        reply = f"Your clock is paused for {clocks.say(end - moment)}."
    save_table(tx, game.row, game.options, game.notes.with_away(seat, record))
    _pause(tx, game, seat, by, clock)
    left = clock.away_limit - timedelta(minutes=record.used)
    return Outcome(True, f"{reply} You have {clocks.say(left)} of time away left.", public=[text],
                   game_id=game.id)


def _pause(tx: Tx, game: Loaded, seat: int, by: timedelta, clock: Clock) -> None:
    """Move a seat's running clocks on by a pause (back, when it ends early)."""
    for prompt in game.open_prompts(tx):
        payload = prompt.payload
        if prompt.seat != seat or payload.clock is None:
            continue
        moved = clocks.shifted(payload.clock, by, clock.pace)
        if moved is not None:
            prompt.deadline, timer = moved
            prompt.payload = replace(payload, clock=timer)
            tx.save_prompt(prompt)


def standin(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Have Keywood's stand-in play a seat's current decision now: one's own (`standin`), or as host any
    player's (`standin Ben`)."""
    game = ctx.require_running(tx, cmd)
    if cmd.arg.strip() or cmd.options.get("user_id"):
        seat = _seat_named(game, cmd.arg, str(cmd.options.get("user_id", "")))
        if game.user_of(seat).user_id != cmd.who.user_id:
            require_host(game.row, cmd, "ask the stand-in to play for another player")
    else:
        seat = require_seat(game, cmd)
    name = game.user_of(seat).name
    if seat not in game.engine.to_act(game.state):
        raise TableError(f"{name} has nothing to decide now, so the stand-in has nothing to play.")
    game.standing_in.add(seat)
    who = "their own seat" if game.user_of(seat).user_id == cmd.who.user_id else name
    events: list[Event | str] = [f"{cmd.who.name} asks Keywood's stand-in to play for {who}."]
    events += settle(ctx, tx, game)
    outcome = after_change(ctx, tx, game, moment, events)
    outcome.reply = f"The stand-in played for {name}."
    return outcome


def _seat_named(game: Loaded, text: str, user_id: str = "") -> int:
    """The seat a command names, by its holder's name, a mention or user id; raises TableError naming the
    players when none matches."""
    wanted = text.strip().lstrip("@").lower()
    mention = re.fullmatch(r"<@!?(\d+)>", text.strip())
    for seat in game.seats:
        if seat.user_id in (user_id, mention.group(1) if mention else None) or seat.name.lower() == wanted:
            return seat.seat
    names = describe.and_list([s.name for s in game.seats])
    raise TableError(f"No player here is called '{text.strip()}'. The players: {names}.")


def sub(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Substitutes: someone not playing offers to take a seat whose clock ran out (`sub`, or `sub Ben` when
    several are offered); the host confirms a volunteer (`sub Eve`) or lists them (`sub`)."""
    game = ctx.require_running(tx, cmd)
    if game.seat_of(cmd.who.user_id) is None:
        return _volunteer(tx, game, cmd)
    if cmd.who.user_id != game.row.host_id and not cmd.who.is_admin:
        raise TableError("You already play in this game: only someone not playing can offer to take a seat, "
                         "and only the host confirms them.")
    volunteers = game.notes.offers()
    if not cmd.arg.strip():
        if not volunteers:
            return Outcome(True, "Nobody has offered to take a seat.")
        return Outcome(True, "Offers: " + "; ".join(f"{v.name} for {game.user_of(v.seat).name}'s seat"
                                                    for v in volunteers) + ". Confirm one with `sub NAME`.")
    wanted = cmd.arg.strip().lstrip("@").lower()
    chosen = next((v for v in volunteers if wanted in (v.name.lower(), v.user_id)
                   or re.fullmatch(rf"<@!?{re.escape(v.user_id)}>", cmd.arg.strip())), None)
    if chosen is None:
        offers = describe.and_list([v.name for v in volunteers]) if volunteers else "nobody yet"
        raise TableError(f"'{cmd.arg.strip()}' has not offered to take a seat (offers: {offers}).")
    withdraw_offer(tx, game, chosen.seat)
    return hand_over(ctx, tx, game.row, game.user_of(chosen.seat), chosen.user_id, chosen.name, moment)


def _volunteer(tx: Tx, game: Loaded, cmd: Command) -> Outcome:
    """Someone not playing offers to take over a seat offered to substitutes."""
    offered = game.notes.offered()
    if not offered:
        raise TableError("No seat here is looking for a substitute.")
    if cmd.arg.strip():
        seat = _seat_named(game, cmd.arg)
        if seat not in offered:
            raise TableError(f"{game.user_of(seat).name}'s seat is not offered to substitutes.")
    elif len(offered) > 1:
        names = describe.and_list([game.user_of(s).name for s in offered])
        raise TableError(f"Several seats are offered ({names}): name the one you would take, e.g. "
                         f"{cmd.typed('sub ' + game.user_of(offered[0]).name)}.")
    else:
        seat = offered[0]
    if any(v.user_id == cmd.who.user_id and v.seat == seat for v in game.notes.offers()):
        raise TableError("You have already offered to take this seat; the host has been asked.")
    save_table(tx, game.row, game.options, game.notes.with_volunteer(Volunteer(seat, cmd.who.user_id, cmd.who.name)))
    text = (f"{cmd.who.name} offers to take over {game.user_of(seat).name}'s seat; the host confirms with "
            f"{cmd.typed('sub ' + cmd.who.name)}.")
    return Outcome(True, "Offer made; the host has been asked.", public=[text], mention=[game.row.host_id],
                   game_id=game.id)


def due(ctx: Context, moment: datetime | None = None, shards: ShardSet | None = None) -> list[Outcome]:
    """Act on every decision (of servers on these shards, or anywhere) whose deadline has passed: its default
    applies, or its holder is reminded."""
    moment = moment or now()
    with ctx.store.reading() as tx:
        game_ids = tx.due_game_ids(moment, shards)
    outcomes = []
    for game_id in game_ids:
        try:
            outcomes += ctx.writing(partial(_queued_due, ctx, game_id, moment))
        except EngineError as exc:  # pragma: no cover - a stored answer the engine now refuses
            outcomes.append(Outcome(False, error_text(exc), game_id=game_id))
    return outcomes


def _queued_due(ctx: Context, game_id: int, moment: datetime, tx: Tx) -> list[Outcome]:
    """One game's overdue decisions processed (_due_game) and what they must send queued, in this transaction."""
    found = _due_game(ctx, tx, game_id, moment)
    for outcome in found:
        outcome.outbox = queue(tx, outcome)
    return found


def _due_game(ctx: Context, tx: Tx, game_id: int, moment: datetime) -> list[Outcome]:
    """Process one game's overdue decisions: defaults first, then one reminder for the rest."""
    row = tx.game(game_id)
    assert row is not None
    if row.status != "active":
        close_prompts(tx, game_id)
        return []
    game = ctx.load(tx, row)
    outcomes = []
    sync = Outcome(True, game_id=game_id, version=row.version, where=Where(row.guild_id, row.channel_id))
    sync_decisions(ctx, tx, game, moment, sync)  # adopts rows written before an upgrade
    if sync.opened:
        outcomes.append(Outcome(True, opened=sync.opened, closed=sync.closed, game_id=game_id,
                                version=row.version, where=sync.where))
    overdue = [p for p in game.open_prompts(tx) if aware(p.deadline) <= moment]
    defaults = [p for p in overdue if p.payload.default is not None]
    timed = [p for p in overdue if p not in defaults and p.payload.clock is not None]
    for prompt in defaults:
        if prompt.answer is None:
            payload = prompt.payload
            prompt.answer = payload.default
            prompt.payload = replace(payload, timed_out=True)
            tx.save_prompt(prompt)
    ran_out, notices = _clocks_due(ctx, tx, game, timed, moment)
    events = settle(ctx, tx, game) if defaults or game.standing_in else []
    if events:
        outcomes.append(after_change(ctx, tx, game, moment, [*ran_out, *events]))
    outcomes += notices
    reminded = _remind(ctx, tx, game, [p for p in overdue if p not in defaults and p not in timed], moment)
    if reminded:
        outcomes.append(reminded)
    return outcomes


def _clocks_due(ctx: Context, tx: Tx, game: Loaded, prompts: list[PromptRecord], moment: datetime
                ) -> tuple[list[str], list[Outcome]]:
    """Act on clocks that need attention: warn a seat, or carry out what the table chose for a clock that ran
    out (the stand-in is marked to play; a seat offered to substitutes or the host asked, again every
    reminder_hours until someone acts). Returns the lines that go before the stand-in's moves, and messages."""
    clock = Clock.of(game.options)
    again = ctx.remind_every(game.options)
    ran_out: list[str] = []
    notices: list[Outcome] = []
    for prompt in prompts:
        payload = prompt.payload
        timer, seat = payload.clock, prompt.seat or 0
        assert timer is not None
        name, phrase = game.user_of(seat).name, payload.phrase if payload.phrase is not None else "decide"
        if timer.stage == "running":
            timer = replace(timer, stage="warned")
            prompt.deadline = clocks.ends(timer)
            left = clocks.say(prompt.deadline - moment)
            notices.append(notice(game, [f"{name}, your clock runs out in {left}: you are to {phrase}."],
                                  [game.user_of(seat).user_id]))
        elif clock.on_timeout == "standin":
            game.standing_in.add(seat)
            timer, prompt.deadline = replace(timer, stage="out"), moment + again  # closed once the stand-in played
            ran_out.append(f"{name}'s clock ran out ({clocks.say(clock.pace)} for a decision).")
        else:
            first = timer.stage == "warned"
            timer, prompt.deadline = replace(timer, stage="out"), moment + again
            notices.append(_ran_out(game, seat, phrase, first, clock.on_timeout))
            if first and clock.on_timeout == "sub":
                save_table(tx, game.row, game.options, game.notes.with_seat_offered(seat))
        prompt.payload = replace(payload, clock=timer)
        tx.save_prompt(prompt)
    return ran_out, notices


def _ran_out(game: Loaded, seat: int, phrase: str, first: bool, on_timeout: str) -> Outcome:
    """The message for a clock that ran out where a person must act: substitutes invited, or the host asked."""
    name, host = game.user_of(seat).name, game.row.host_id
    host_name = next((s.name for s in game.seats if s.user_id == host), "the host")
    lead = f"{name}'s clock ran out" if first else f"Reminder: {name}'s clock has run out"
    if on_timeout == "sub":
        text = (f"{lead} (to {phrase}). Anyone not playing here can offer to take over {name}'s seat with "
                f"`sub`; {host_name}, the host, confirms with `sub NAME`. {name} can still play meanwhile.")
    else:
        text = (f"{lead} (to {phrase}). {host_name}, as host you decide: `standin {name}` lets Keywood's "
                f"stand-in play for them now, `kick` hands the seat to someone else, or `clock` gives everyone "
                f"more time. {name} can still play meanwhile.")
    return notice(game, [text], [host, game.user_of(seat).user_id])


def _remind(ctx: Context, tx: Tx, game: Loaded, prompts: list[PromptRecord], moment: datetime) -> Outcome | None:
    """One reminder for overdue decisions without a default, mentioning their holders; pushes their deadlines."""
    due_now, again = set(game.engine.to_act(game.state)), ctx.remind_every(game.options)
    users = []
    for prompt in prompts:
        if prompt.status != "open":
            continue
        prompt.deadline = moment + again
        tx.save_prompt(prompt)
        if prompt.seat in due_now:
            users.append(game.user_of(prompt.seat).user_id)
    if not users:
        return None
    return notice(game, [f"Reminder: {waiting(game)}."], users)
