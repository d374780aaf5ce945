"""The table: one Command in, one Outcome out, for every transport (Discord, terminal, tests).

It loads the game, asks the engine, saves the result in one transaction, and says what to post, whom to tell
privately, whom to mention and which decisions to open or close. Everything a command must send is also written, in
the same transaction, to the outbox that the transports deliver. It knows no Discord, no SQL and no particular game:
games come from the registry (bot/games.py).

The rooms: commands (what goes in and out), context (the store, settings and the states kept in memory), lobby
(tables and seats), play (the play path and undo), decisions (prompts, their deadlines and notes), timing (clocks,
time away, substitutes, what falls due), reads (the commands that change nothing), outbox (delivery bookkeeping) and
texts (shared words). Table is the facade: a map from verbs to their handlers.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from bot.loaded import AUTO_AUTHOR, STANDIN_AUTHOR, TIMEOUT_AUTHOR, Known, Loaded, Trial, log_line, position, record_of
from bot.store import OutboxRow, ShardSet, StaleVersion, Store, StoreTrouble, Tx, now
from bot.table import lobby, play, reads, timing
from bot.table.commands import (
    CHANGED,
    COMPUTER,
    Command,
    Outcome,
    PromptNote,
    TableChanged,
    TableError,
    Where,
    Who,
    error_text,
    is_computer,
)
from bot.table.context import KEPT_STATES, Context
from bot.table.decisions import MAX_CHOICES, MAX_REPEAT_CHOICES, open_note
from bot.table.lobby import draw_seed
from bot.table.outbox import DM_RETRY, MAX_BACKOFF_SECONDS, OUTBOX_BATCH, Outbox, outbox_rows, queue
from bot.table.play import standin_seed
from bot.table.texts import DIGEST_LINES, LOG_LINES, MAX_REPEAT, REPEAT, grouped
from engine import standin
from engine.core import EngineError

__all__ = [
    "AUTO_AUTHOR", "CHANGED", "COMPUTER", "DIGEST_LINES", "DM_RETRY", "KEPT_STATES", "LOG_LINES", "MAX_BACKOFF_SECONDS",
    "MAX_CHOICES", "MAX_REPEAT", "MAX_REPEAT_CHOICES", "OUTBOX_BATCH", "REPEAT", "STANDIN_AUTHOR", "STANDIN_BUDGET",
    "TIMEOUT_AUTHOR", "Command", "Known", "Loaded", "Outcome", "PromptNote", "Table", "TableChanged", "TableError",
    "Trial", "Where", "Who", "draw_seed", "grouped", "is_computer", "log_line", "outbox_rows", "position",
    "record_of", "standin_seed",
]

STANDIN_BUDGET = standin.Budget()  # a computer seat's thinking per decision

Handler = Callable[[Context, Tx, Command, datetime], Outcome]
VERBS: dict[str, Handler] = {
    "new": lobby.new, "join": lobby.join, "leave": lobby.leave, "start": lobby.start, "abandon": lobby.abandon,
    "settings": lobby.settings, "games": lobby.list_games, "kick": lobby.kick,
    "play": play.play, "answer": play.answer, "undo": play.undo,
    "board": reads.board, "hand": reads.hand, "log": reads.log, "score": reads.score, "rules": reads.rules_topic,
    "check": reads.check,
    "clock": timing.clock, "away": timing.away, "sub": timing.sub, "standin": timing.standin,
}


READ_VERBS = frozenset({"board", "hand", "log", "score", "rules", "check", "games"})  # they change nothing
MAX_ID = 2**63  # ids, seats and versions fit a signed 64-bit column
DATABASE_TROUBLE = {  # StoreTrouble's kinds, as the person whose command failed is told
    "locked": "Keywood's database is busy (another program held it too long); nothing was changed. Try again in a "
              "moment, and tell the host if it goes on.",
    "full": "Keywood's database has no room left (its disk is full); nothing was changed. Tell the host.",
    "read-only": "Keywood's database is read-only; nothing was changed. Tell the host.",
    "unreachable": "Keywood's database did not answer; nothing was changed. Tell the host if it goes on.",
}


class Table(Context):
    """Handles commands against a store."""

    def __init__(self, store: Store, *, images: bool = True, decision_minutes: int = 720,
                 reminder_hours: int = 24, standin_budget: standin.Budget = STANDIN_BUDGET,
                 draw_seed: Callable[[], int] = draw_seed) -> None:
        super().__init__(store, images=images, decision_minutes=decision_minutes, reminder_hours=reminder_hours,
                         standin_budget=standin_budget, draw_seed=draw_seed)
        self.outbox = Outbox(store)

    def handle(self, command: Command) -> Outcome:
        """Carry out one command in one transaction with its outbox rows; a refusal changes nothing."""
        if command.verb == "export":
            return self.export(command)
        handler = VERBS.get(command.verb)
        if handler is None:
            verbs = ", ".join(sorted([*VERBS, "export"]))
            return Outcome(False, f"Unknown command '{command.verb}'. Commands: {verbs}.")
        if not all(0 <= n < MAX_ID for n in (command.game_id, command.prompt_id, command.seat, command.version)
                   if n is not None):  # a forged button's numbers: no row has them, and no database takes them
            return Outcome(False, "That button was not made by Keywood; nothing was changed.", where=command.where)
        moment = command.at or now()

        def run(tx: Tx) -> Outcome:
            outcome = handler(self, tx, command, moment)
            outcome.where = outcome.where or command.where
            outcome.outbox = queue(tx, outcome)
            return outcome

        try:
            if command.verb in READ_VERBS:
                with self.store.reading() as tx:
                    outcome = run(tx)
            else:
                outcome = self.writing(run)
        except (TableError, EngineError) as exc:
            return Outcome(False, error_text(exc), where=command.where)
        except StaleVersion:  # the optimistic check behind the locks: the game moved on while this command ran
            return Outcome(False, CHANGED, where=command.where)
        except StoreTrouble as exc:
            return Outcome(False, DATABASE_TROUBLE[exc.kind], where=command.where)
        self.outbox.attach_image(outcome)
        return outcome

    def export(self, command: Command) -> Outcome:
        """The channel's finished game as one HTML replay page, for the caller alone (reads.export_replay)."""
        return reads.export_replay(self, command)

    def check_new(self, guild_id: str, game: str, options: dict[str, Any]) -> str | None:
        """Why `new` with this game and these options would be refused in a fresh channel (None: it would open)."""
        return lobby.check_new(self, guild_id, game, options)

    def suggest(self, where: Where, user_id: str, typed: str, limit: int = 25) -> list[str]:
        """Legal actions (and early answers) of the user in this channel's game containing the typed text."""
        return reads.suggest(self, where, user_id, typed, limit)

    def game_at(self, where: Where) -> str:
        """The id of the game played (or open) in a channel; the default game when there is none."""
        return reads.game_at(self, where)

    def topics(self, where: Where) -> list[str]:
        """What `rules` knows in a channel's game: its rules sections, then its components by name."""
        return reads.topics(self, where)

    def prompt_choices(self, prompt_id: int, user_id: str) -> PromptNote | None:
        """An open decision's note for its seat's current holder (to open it privately); None otherwise."""
        with self.store.reading() as tx:
            return open_note(self, tx, prompt_id, user_id)

    def verify(self, game_id: int, *, write: bool = False) -> tuple[str, str]:
        """Replay a game's log from its seed: (same, differs, fails or no state; detail); write stores the replay."""
        return reads.verify(self, game_id, write=write)

    def game_ids(self) -> list[int]:
        """Every game that has a state (running or finished)."""
        return reads.game_ids(self)

    def due(self, moment: datetime | None = None, shards: ShardSet | None = None) -> list[Outcome]:
        """Act on every decision (of servers on these shards, or anywhere) whose deadline has passed."""
        outcomes = timing.due(self, moment, shards)
        for outcome in outcomes:
            self.outbox.attach_image(outcome)
        return outcomes

    def pending_messages(self, limit: int = OUTBOX_BATCH,
                         shards: ShardSet | None = None) -> list[OutboxRow]:
        """Queued messages not yet sent, oldest first."""
        return self.outbox.pending(limit, shards)

    def messages_sent(self, row_ids: list[int], moment: datetime | None = None) -> None:
        """Record that queued messages were delivered."""
        self.outbox.sent(row_ids, moment)

    def message_failed(self, row_id: int, error: str, *, permanent: bool, moment: datetime | None = None) -> None:
        """Record a failed delivery: retried later with back-off, or (permanent) given up and reported to the host."""
        self.outbox.failed(row_id, error, permanent=permanent, moment=moment)

    def dms_closed(self, user_id: str, moment: datetime | None = None) -> bool:
        """Whether a user's DMs were found closed recently (then Keywood does not try them again)."""
        return self.outbox.dms_closed(user_id, moment)

    def note_dms(self, user_id: str, *, open_: bool, moment: datetime | None = None) -> bool:
        """Record whether a user's DMs are open; True when they were just found closed and not yet told so."""
        return self.outbox.note_dms(user_id, open_=open_, moment=moment)
