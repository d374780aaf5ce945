"""What every room of the table shares (Context): the store, the table's settings, and the committed states kept in
memory (the loaded-game cache); with the lookups every command starts from (its game, the caller's seat, the
host's rights)."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Hashable, Mapping
from datetime import timedelta
from typing import Any, TypeVar

import orjson

from bot import games
from bot.games import GameEntry
from bot.loaded import Known, Loaded
from bot.records import GameOptions, TableNotes
from bot.store import GameRecord, Store, Tx
from bot.table.commands import Command, TableChanged, TableError
from engine import standin

KEPT_STATES = 1_000  # games whose state a table keeps in memory (the others are read from their snapshots)
KEPT_WORK = 512  # results worked out outside a transaction (computer moves) kept for the command's next run
MAX_RUNS = 256  # a command needing more is run once more with the work done inside its transaction (it ends)

T = TypeVar("T")


class NeedsWork(BaseException):
    """A command reached slow work not yet done (a computer's move): its transaction is given up, the work done
    outside it and the command run again (Context.writing). A BaseException, so that no handler's `except
    Exception` swallows it."""

    def __init__(self, key: Hashable, work: Callable[[], Any]) -> None:
        super().__init__(key)
        self.key, self.work = key, work


class Context:
    """The store and settings of a table, and the states it keeps in memory."""

    def __init__(self, store: Store, *, images: bool, decision_minutes: int, reminder_hours: int,
                 standin_budget: standin.Budget, draw_seed: Callable[[], int]) -> None:
        self.store = store
        self.draw_seed = draw_seed  # a new game's secret seed (tests give a known one, as they give a clock)
        self.standin_budget = standin_budget  # how long the stand-in thinks for a computer seat
        self._states: dict[int, Known] = {}  # game id -> its state at a version: skips decoding snapshots
        self._states_lock = threading.Lock()
        self.images = images
        self.defaults = (decision_minutes, reminder_hours)
        self._worked: dict[Hashable, Any] = {}  # NeedsWork's results by key, the most recent last
        self._worked_lock = threading.Lock()
        self._mode = threading.local()  # .deferring: this thread's command does its slow work outside its transaction

    def writing(self, body: Callable[[Tx], T]) -> T:
        """Run body in a writing transaction, doing the slow work it reaches (NeedsWork) outside any transaction
        and running it again until it needs none (after MAX_RUNS, once more doing it inside); raises what body or
        the store raise."""
        before = getattr(self._mode, "deferring", False)
        self._mode.deferring = True
        try:
            for _ in range(MAX_RUNS):
                try:
                    with self.store.transaction() as tx:
                        return body(tx)
                except NeedsWork as needed:
                    self._keep(needed.key, needed.work())
            self._mode.deferring = False
            with self.store.transaction() as tx:
                return body(tx)
        finally:
            self._mode.deferring = before

    def worked_out(self, key: Hashable, work: Callable[[], T]) -> T:
        """The result of slow work: inside Context.writing it is done outside the transaction (raises NeedsWork
        when it is not done yet); elsewhere it is done here."""
        with self._worked_lock:
            if key in self._worked:
                return self._worked[key]  # type: ignore[no-any-return]
        if getattr(self._mode, "deferring", False):
            raise NeedsWork(key, work)
        return work()

    def _keep(self, key: Hashable, result: Any) -> None:
        """Keep a result of slow work for the command's next run (only the KEPT_WORK most recent are kept)."""
        with self._worked_lock:
            self._worked[key] = result
            while len(self._worked) > KEPT_WORK:
                del self._worked[next(iter(self._worked))]

    def answer_within(self, options: Mapping[str, Any]) -> timedelta:
        """How long a decision with a default stays open: the table's decision_minutes (the server's default)."""
        return timedelta(minutes=int(options.get("decision_minutes", self.defaults[0])))

    def remind_every(self, options: Mapping[str, Any]) -> timedelta:
        """How often whoever must act is reminded: the table's reminder_hours (the server's default)."""
        return timedelta(hours=int(options.get("reminder_hours", self.defaults[1])))

    def load(self, tx: Tx, row: GameRecord) -> Loaded:
        """Read a game's seats and state (from memory when its version is the one kept)."""
        assert row.id is not None
        entry = games.get(row.game)
        with self._states_lock:
            known = self._states.get(row.id)
        if known is not None and known.version == row.version:  # engine states are never changed in place
            worked_out = (known.state, known.decisions) if known.decisions is not None else None
            return Loaded(row, tx.seats(row.id), entry, known.state, _decisions=worked_out, _legal=dict(known.legal),
                          _trials=dict(known.trials))
        data = tx.snapshot(row.id)
        if data is None:
            raise TableError("This game has no stored state; an admin can run `keywood replay`.")
        state = entry.engine.from_json(data)
        self.remember(row.id, row.version, state)
        return Loaded(row, tx.seats(row.id), entry, state)

    def remember(self, game_id: int, version: int, state: Any, game: Loaded | None = None) -> None:
        """Keep a committed state in memory, keyed by its version (another process's change misses it), with what
        the command that made it worked out from it (its decisions, legal actions and trial moves), so the next need
        not; only the KEPT_STATES games played most recently are kept."""
        known = game.known(version) if game is not None and game.state is state else Known(version, state)
        with self._states_lock:
            self._states.pop(game_id, None)  # last in the dict's order: the most recently used
            self._states[game_id] = known
            if len(self._states) > KEPT_STATES:
                del self._states[next(iter(self._states))]

    def require_running(self, tx: Tx, cmd: Command, finished_ok: bool = False) -> Loaded:
        """The channel's running game with its state; raises TableError otherwise."""
        row = require_game(tx, cmd) if not finished_ok else latest_game(tx, cmd)
        if row.status == "lobby":
            raise TableError(f"The game has not started yet; the host starts it with {cmd.typed('start')}.")
        return self.load(tx, row)

    def render(self, entry: GameEntry, view: dict[str, Any] | None) -> bytes | None:
        """The table image of a public view, when images are on and the game has a renderer."""
        draw = self.drawing(entry, view)
        return draw() if draw is not None else None

    def drawing(self, entry: GameEntry, view: dict[str, Any] | None) -> Callable[[], bytes | None] | None:
        """How to draw the table image of a public view (later, after the transaction); None when there is none."""
        draw = entry.render
        if not self.images or draw is None or view is None:
            return None
        return lambda: draw(view)


def fingerprint(data: Any) -> bytes:
    """A short hash of JSON-like data (a state's JSON), to key work done for it."""
    return hashlib.blake2b(orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS), digest_size=16).digest()


def require_game(tx: Tx, cmd: Command) -> GameRecord:
    """The command's game (by id, else the channel's open game); raises TableError when there is none."""
    if cmd.game_id is not None:
        by_id = tx.game(cmd.game_id)
        if by_id is None or by_id.status not in ("lobby", "active"):
            raise TableChanged("That game is no longer running.")
        return by_id
    row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id)
    if row is None:
        raise TableError(f"There is no game in this channel. Start one with {cmd.typed('new')}.")
    return row


def latest_game(tx: Tx, cmd: Command) -> GameRecord:
    """The channel's live game, or else its most recent one; raises TableError when it never had one."""
    row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id) or tx.latest_game(
        cmd.where.guild_id, cmd.where.channel_id, "finished")
    if row is None:
        raise TableError(f"There is no game in this channel. Start one with {cmd.typed('new')}.")
    return row


def require_seat(game: Loaded, cmd: Command) -> int:
    """The caller's seat; raises TableError when they are not playing (saying so if their seat was handed on)."""
    seat = game.seat_of(cmd.who.user_id)
    if seat is None:
        handed = game.notes.handed_from(cmd.who.user_id)
        if handed:
            raise TableError(f"Your seat was handed to {game.user_of(handed[-1].seat).name}; "
                             "you no longer play in this game.")
        raise TableError("You are not a player in this game.")
    return seat


def require_host(row: GameRecord, cmd: Command, what: str) -> None:
    """Raise TableError unless the caller is the host or a server admin."""
    if cmd.who.user_id != row.host_id and not cmd.who.is_admin:
        raise TableError(f"Only the host or a server admin can {what}.")


def save_table(tx: Tx, row: GameRecord, options: Mapping[str, Any], notes: TableNotes) -> None:
    """Store a table's changed options or notes (clock settings, time away, seats offered to substitutes...)."""
    row.options = GameOptions(options, notes)
    tx.set_status(row, row.status)
