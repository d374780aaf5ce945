"""Commands that read and change nothing: the board, a hand, the log, the score, the rules, `check`, the
suggestions a transport autocompletes, a finished game's replay (`export`), and replaying a stored log to check it."""

from __future__ import annotations

from datetime import datetime

from bot import describe, export, games, rules
from bot.loaded import log_line, record_of
from bot.store import Tx
from bot.table.commands import Command, Outcome, TableError, Where, error_text
from bot.table.context import Context, latest_game, require_seat
from bot.table.texts import LOG_LINES, digest, grouped, hand_text
from engine.core import EngineError, IllegalAction, replay


def board(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """The public state of the channel's game."""
    game = ctx.require_running(tx, cmd)
    view = game.rename_view(game.engine.view(game.state, None))
    text = game.entry.texts.board(view)
    return Outcome(True, text, board=view, game_id=game.id, version=game.row.version,
                   image=ctx.render(game.entry, view))


def hand(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """The caller's private view (for their eyes only)."""
    game = ctx.require_running(tx, cmd)
    seat = require_seat(game, cmd)
    return Outcome(True, hand_text(game, seat), game_id=game.id, version=game.row.version)


def log(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """The recent actions in words; `since:me`, those since the caller's own last action (the caller must play
    here; raises TableError otherwise)."""
    game = ctx.require_running(tx, cmd, finished_ok=True)
    if cmd.arg.strip().lower().replace(" ", "").replace("=", ":") in ("since:me", "sinceme"):
        seat = game.seat_of(cmd.who.user_id)
        if seat is None:
            raise TableError("`log since:me` is for the players of this game: you have no seat here.")
        since = digest(tx, game, seat, limit=LOG_LINES)
        return Outcome(True, "\n".join(since) or "Nothing has happened since your last move.", game_id=game.id)
    lines = [log_line(game, r) for r in tx.recent_actions(game.id, LOG_LINES)]
    return Outcome(True, "\n".join(lines) or "Nothing has happened yet.", game_id=game.id)


def score(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """The final or projected score, as the caller may know it."""
    game = ctx.require_running(tx, cmd, finished_ok=True)
    viewer = game.seat_of(cmd.who.user_id)
    return Outcome(True, game.rename(describe.scoreboard(game.engine.score(game.state, viewer))), game_id=game.id)


def rules_topic(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Look a rule up by topic, in the channel's game (the default game when there is none)."""
    row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id)
    entry = games.get(row.game) if row else games.default()
    topic = cmd.arg.strip()
    if not topic:
        return Outcome(True, f"{entry.title} rules topics: " + "; ".join(rules.topics(entry.id)) + ".")
    component = entry.texts.lookup(topic) if entry.texts.lookup else None
    if component is not None:
        more = entry.texts.more(topic) if entry.texts.more else None
        return Outcome(True, component if more is None else f"{component} More: `/rules {more}`.")
    found = rules.lookup(entry.id, topic)
    if not found:
        examples = ", ".join(rules.topics(entry.id)[:3])
        raise TableError(f"No {entry.title} rule section matches '{topic}'. Try a topic like {examples}.")
    return Outcome(True, rules.format_section(found[0]))


def topics(ctx: Context, where: Where) -> list[str]:
    """What `rules` knows in a channel's game: its rules sections, then its components by name."""
    entry = games.get(game_at(ctx, where))
    return rules.topics(entry.id) + (entry.texts.names() if entry.texts.names else [])


def check(ctx: Context, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
    """Say whether an action would be legal now and what it would do, without doing it."""
    game = ctx.require_running(tx, cmd)
    seat = require_seat(game, cmd)
    try:
        action = game.engine.parse(game.state, seat, cmd.arg)
    except IllegalAction as exc:
        return Outcome(True, game.rename(f"No: {exc.reason} ({exc.rule})"), game_id=game.id)
    verdict = game.engine.check(game.state, seat, action)
    if not verdict.legal:
        return Outcome(True, game.rename(f"No: {verdict.reason} ({verdict.rule})"), game_id=game.id)
    return Outcome(True, game.rename("Yes. " + " ".join(verdict.outcome)), game_id=game.id)


def suggest(ctx: Context, where: Where, user_id: str, typed: str, limit: int = 25) -> list[str]:
    """Legal actions (and early answers) of the user in this channel's game containing the typed text."""
    with ctx.store.reading() as tx:
        row = tx.live_game(where.guild_id, where.channel_id)
        if row is None or row.status != "active":
            return []
        game = ctx.load(tx, row)
    seat = game.seat_of(user_id)
    if seat is None:
        return []
    options = game.legal(seat)  # out of turn: the plays the rules allow unasked, and the answers it may give ahead
    if seat not in game.engine.to_act(game.state):
        options = [*options, *game.engine.pending_answers(game.state, seat)]
    words = typed.lower().split()
    texts = [game.engine.format(a) for a in options]
    return grouped([t for t in texts if all(w in t for w in words)], limit)


def game_at(ctx: Context, where: Where) -> str:
    """The id of the game played (or open) in a channel; the default game when there is none."""
    with ctx.store.reading() as tx:
        row = tx.live_game(where.guild_id, where.channel_id)
    return row.game if row is not None else games.default().id


def export_replay(ctx: Context, command: Command) -> Outcome:
    """The channel's finished game as one self-contained HTML replay page, for the caller alone; refuses a game
    that has not ended. Its log is read in a short transaction and the page drawn after it (drawing takes a
    while, and must not hold the store's write lock)."""
    try:
        with ctx.store.transaction() as tx:
            row = latest_game(tx, command)
            assert row.id is not None
            replayed = export.collect(tx, row.id)
    except (TableError, export.ExportError) as exc:
        return Outcome(False, describe.capitalise(str(exc)) + ("." if not str(exc).endswith(".") else ""),
                       where=command.where)
    page = export.page(replayed).encode("utf-8")
    return Outcome(True, f"The replay of this {replayed.title} game: {len(replayed.steps) - 1} actions, step by step "
                         "(open the file in a browser).", attachment=(f"keywood-game-{row.id}.html", page),
                   game_id=row.id, where=command.where)


def verify(ctx: Context, game_id: int, *, write: bool = False) -> tuple[str, str]:
    """Replay a game's log from its seed: (same, differs, fails or no state; detail); write stores the replay."""
    with ctx.store.transaction() as tx:
        row = tx.game(game_id)
        if row is None or row.status == "lobby":
            return "no state", "no such running or finished game"
        game = ctx.load(tx, row)
        try:
            replayed = replay(game.engine, record_of(game, tx.actions(game.id)))
        except EngineError as exc:
            return "fails", error_text(exc)
        if game.engine.to_json(replayed) == game.engine.to_json(game.state):
            return "same", f"{len(tx.actions(game.id))} actions replay to the stored state"
        if write:
            tx.save_state(row, lambda: game.engine.to_json_text(replayed))
        return "differs", "the replayed state differs from the stored one" + (" (replay stored)" if write else "")


def game_ids(ctx: Context) -> list[int]:
    """Every game that has a state (running or finished)."""
    with ctx.store.reading() as tx:
        return [g.id for g in tx.games() if g.id is not None and g.status != "lobby"]
