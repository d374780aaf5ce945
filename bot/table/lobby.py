"""The lobby and the seats: opening a table (`new`, with its options and secret seed), joining, leaving, starting
and abandoning it, the server's settings, the list of games, and seats removed or handed to someone else (`kick`,
and a substitute confirmed by the host)."""

from __future__ import annotations

import secrets
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot import describe, games
from bot.games import GameEntry, OptionError
from bot.loaded import Loaded
from bot.records import GameOptions, Handover, TableNotes
from bot.store import GameRecord, SeatRecord, Tx
from bot.table.commands import COMPUTER, Command, Outcome, TableError, Where, Who
from bot.table.context import Context, require_game, require_host, save_table
from bot.table.decisions import close_prompts, note, retime
from bot.table.play import after_change, settle
from bot.table.texts import hand_text, waiting
from engine.core import PLAIN_SEEDS, Event


def draw_seed() -> int:
    """A new game's secret seed: 64 random bits from `secrets`, as the signed 64-bit number the store keeps, drawn
    again in the rare case (one in 2**33) that it falls among the small seeds of the plain generator (engine.core)."""
    while 0 <= (seed := secrets.randbits(64) - 2**63) < PLAIN_SEEDS:
        pass
    return seed


def new(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Open a lobby for a game in this channel, with the caller as host and first player."""
    entry = _entry(cmd.arg)
    if tx.live_game(cmd.where.guild_id, cmd.where.channel_id, claim=True):
        raise TableError("A game is already open in this channel; finish or abandon it first.")
    options = _game_options(ctx, tx, entry, cmd)
    chosen = options.pop("seed", None)  # only a local table (the terminal's --seed) chooses it
    seed = ctx.draw_seed() if chosen is None else int(chosen)
    row = GameRecord(guild_id=cmd.where.guild_id, channel_id=cmd.where.channel_id, game=entry.id, seed=seed,
                     host_id=cmd.who.user_id)
    row.options = GameOptions(options, TableNotes())
    row = tx.add_game(row)
    assert row.id is not None
    tx.add_seat(row.id, cmd.who.user_id, cmd.who.name)
    limits = f"{options['min_players']}-{options['max_players']} players"
    text = (f"{cmd.who.name} opened a {entry.title} table ({limits}). Join with {cmd.typed('join')}; the host "
            f"starts with {cmd.typed('start')}.")
    return Outcome(True, "Table opened.", public=[text], game_id=row.id, version=row.version)


def check_new(ctx: Context, guild_id: str, game: str, options: dict[str, Any]) -> str | None:
    """Why `new` with this game and these options would be refused in a fresh channel of the server (None: it
    would open); reads only, writes nothing."""
    try:
        with ctx.store.reading() as tx:
            _game_options(ctx, tx, _entry(game), Command(Where(guild_id, ""), Who("", ""), "new", game,
                                                         dict(options)))
    except TableError as exc:
        return str(exc)
    return None


def _entry(name: str) -> GameEntry:
    """The registry entry a `new` names (the default game when none); raises TableError for an unknown one."""
    try:
        return games.get(name.strip().lower()) if name.strip() else games.default()
    except KeyError as exc:
        raise TableError(str(exc.args[0])) from None


def _game_options(ctx: Context, tx: Tx, entry: GameEntry, cmd: Command) -> dict[str, Any]:
    """Every option of the new table, from the command over the server's defaults; raises TableError."""
    settings = tx.settings(cmd.where.guild_id, *ctx.defaults)
    base = {"decision_minutes": settings.decision_minutes, "reminder_hours": settings.reminder_hours}
    try:
        options = entry.read_options(cmd.options, base)
        fewest = int(options.get("min_players", entry.min_players))  # the options must hold for every count
        entry.engine.setup([f"P{i}" for i in range(fewest)], 0, entry.engine_options(options))
    except (OptionError, ValueError) as exc:
        raise TableError(str(exc)) from exc
    return options


def join(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Take a seat in the channel's lobby."""
    row = require_game(tx, cmd)
    if row.status != "lobby":
        raise TableError("This game has already started; you can watch it.")
    assert row.id is not None
    seats = tx.seats(row.id)
    if any(s.user_id == cmd.who.user_id for s in seats):
        raise TableError("You are already seated at this table.")
    if len(seats) >= row.options.values["max_players"]:
        raise TableError("This table is full.")
    tx.add_seat(row.id, cmd.who.user_id, cmd.who.name)
    return Outcome(True, "You are seated.", public=[f"{cmd.who.name} joins the table ({len(seats) + 1} seated)."],
                   game_id=row.id)


def leave(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Leave a lobby; the host's role passes on, and an empty lobby closes."""
    row = require_game(tx, cmd)
    if row.status != "lobby":
        raise TableError("The game has started: players cannot leave it, but the host can abandon it.")
    assert row.id is not None
    if not any(s.user_id == cmd.who.user_id for s in tx.seats(row.id)):
        raise TableError("You are not seated at this table.")
    tx.remove_seat(row.id, cmd.who.user_id)
    seats = tx.seats(row.id)
    lines = [f"{cmd.who.name} leaves the table."]
    if not seats:
        tx.set_status(row, "abandoned")
        lines.append("The table is empty and closes.")
    elif row.host_id == cmd.who.user_id:
        row.host_id = seats[0].user_id
        tx.set_status(row, row.status)
        lines.append(f"{seats[0].name} is now the host.")
    return Outcome(True, "You left the table.", public=lines, game_id=row.id)


def start(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Deal the game for the seated players (host or admin only)."""
    row = require_game(tx, cmd)
    if row.status != "lobby":
        raise TableError("This game is already running.")
    require_host(row, cmd, "start the game")
    assert row.id is not None
    seats = tx.seats(row.id)
    options, notes = dict(row.options.values), row.options.notes
    computers = int(options.get("computers") or 0)
    if len(seats) + computers < options["min_players"]:
        raise TableError(f"At least {options['min_players']} players are needed; {len(seats)} seated"
                         + (f" and {computers} computer{'s' if computers > 1 else ''}." if computers else "."))
    if len(seats) + computers > options["max_players"]:
        raise TableError(f"{len(seats)} seated and {computers} computers make more than the table's "
                         f"{options['max_players']} seats.")
    for k in range(1, computers + 1):  # computer seats follow the people, played by the stand-in
        tx.add_seat(row.id, f"{COMPUTER}{k}", f"Computer {k}")
    seats = tx.seats(row.id)
    entry = games.get(row.game)
    state = entry.engine.setup([s.name for s in seats], row.seed, entry.engine_options(options))
    row.options = GameOptions(options, replace(notes, names=tuple(s.name for s in seats)))
    tx.set_status(row, "active")
    tx.save_state(row, lambda: entry.engine.to_json_text(state))
    game = Loaded(row, seats, entry, state)
    started: list[Event | str] = [f"The {entry.title} game starts."]  # never the seed: it is secret until the end
    started += settle(ctx, tx, game)
    outcome = after_change(ctx, tx, game, moment, started)
    shown = {d.seat for d in game.decisions() if not d.public_choices}  # their decision message has the hand
    for seat in range(len(seats)):
        if seat not in shown:
            outcome.private.setdefault(game.user_of(seat).user_id, []).insert(0, hand_text(game, seat))
    outcome.reply = "Game started."
    return outcome


def abandon(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """End the channel's game without a result (host or admin only); the players are mentioned."""
    row = require_game(tx, cmd)
    require_host(row, cmd, "abandon the game")
    assert row.id is not None
    tx.set_status(row, "abandoned")
    closed = close_prompts(tx, row.id)
    players = [s.user_id for s in tx.seats(row.id) if s.user_id != cmd.who.user_id]
    return Outcome(True, "Game abandoned.", public=[f"{cmd.who.name} abandoned the game."], closed=closed,
                   mention=players, game_id=row.id)


def settings(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Change the server's defaults for new games (admins only)."""
    if not cmd.who.is_admin:
        raise TableError("Only a server admin can change Keywood's settings.")
    row = tx.settings(cmd.where.guild_id, *ctx.defaults)
    schema = {o.name: o for o in games.default().table_options}
    try:
        for key in ("decision_minutes", "reminder_hours"):
            if key in cmd.options:
                setattr(row, key, schema[key].read(cmd.options[key]))
    except OptionError as exc:
        raise TableError(str(exc)) from exc
    tx.save_settings(row)
    text = (f"Decisions outside one's turn: {row.decision_minutes} minutes to answer; reminders every "
            f"{row.reminder_hours} hours.")
    return Outcome(True, text)


def list_games(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """The games Keywood can referee, with their options."""
    lines = []
    for entry in games.all_games():
        lines.append(f"**{entry.title}** (`{entry.id}`, {entry.min_players}-{entry.max_players} players). "
                     f"{entry.blurb}")
        lines += [f"  - {option.summary()}" for option in entry.options]
    return Outcome(True, "\n".join(lines))


def kick(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Host or admin: remove a player from a lobby, or hand a running game's seat to a replacement."""
    row = require_game(tx, cmd)
    require_host(row, cmd, "kick a player")
    assert row.id is not None
    target = str(cmd.options.get("user_id", ""))
    seat = next((s for s in tx.seats(row.id) if s.user_id == target), None)
    if seat is None:
        raise TableError("That person is not seated at this table.")
    if row.status == "lobby":
        tx.remove_seat(row.id, target)
        return Outcome(True, "Removed.", public=[f"{seat.name} was removed from the table."], mention=[target],
                       game_id=row.id)
    replacement = str(cmd.options.get("replacement_id", ""))
    if not replacement:
        raise TableError("The game is running: name a replacement to take over the seat.")
    if any(s.user_id == replacement for s in tx.seats(row.id)):
        raise TableError("The replacement is already playing in this game.")
    if cmd.options.get("replacement_is_bot"):
        raise TableError(f"A seat goes to a person, and {cmd.options.get('replacement_name', 'that account')} is a "
                         f"bot. For Keywood to play the seat, use {cmd.typed('standin')}.")
    return hand_over(ctx, tx, row, seat, replacement, str(cmd.options.get("replacement_name", replacement)), moment)


def hand_over(ctx: Context, tx: Tx, row: GameRecord, seat: SeatRecord, user_id: str, name: str,
              moment: datetime) -> Outcome:
    """Give a running game's seat to another person: its decisions follow, the new holder is told privately."""
    leaving, leaving_id = seat.name, seat.user_id
    options, notes = dict(row.options.values), row.options.notes
    save_table(tx, row, options, notes.with_handover(Handover(seat.seat, leaving_id, user_id)))
    tx.reassign_seat(seat, user_id, name)
    game = ctx.load(tx, row)
    retime(ctx, tx, game, moment, seat.seat)  # the new holder gets a whole clock
    decisions = {(d.seat, d.key): d for d in game.decisions()}
    notes_sent = [note(game, p, decisions[(p.seat, p.key)]) for p in game.open_prompts(tx)
                  if p.seat == seat.seat and (p.seat, p.key) in decisions]
    told = f"You now hold {leaving}'s seat in this {game.entry.title} game. {describe.capitalise(waiting(game))}."
    return Outcome(True, "Seat handed over.", public=[f"{name} takes over {leaving}'s seat."],
                   mention=[leaving_id, user_id], private={user_id: [told, hand_text(game, seat.seat)]},
                   opened=notes_sent, game_id=game.id, version=row.version, where=Where(row.guild_id, row.channel_id))
