"""The table: one Command in, one Outcome out, for every transport (Discord, terminal, tests).

It loads the game, asks the engine, saves the result in one transaction, and says what to post, whom to
tell privately, whom to mention and which decisions to open or close. Everything a command must send is
also written, in the same transaction, to the outbox that the transports deliver. It knows no Discord, no
SQL and no particular game: games come from the registry (bot/games.py).
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import orjson

from bot import clocks, describe, export, games
from bot.clocks import Clock
from bot.games import GameEntry, OptionError
from bot.store import (
    ActionRow,
    GameRecord,
    OutboxRow,
    PromptRecord,
    SeatRecord,
    ShardSet,
    StaleVersion,
    Store,
    Tx,
    aware,
    now,
)
from engine import standin
from engine.core import (
    PLAIN_SEEDS,
    REACTION,
    TURN,
    AmbiguousAction,
    Decision,
    EngineError,
    Event,
    Game,
    IllegalAction,
    InvalidAction,
    Playout,
    clone,
    json_text,
    replay,
)
from engine.playout import forced_move

LOG_LINES = 15
MAX_CHOICES = 20
MAX_REPEAT = 20  # the most times one command repeats an action ('take pig x3')
KEPT_STATES = 1_000  # games whose state a table keeps in memory (the others are read from their snapshots)
MAX_REPEAT_CHOICES = 4  # repeat buttons are worked out only for this few choices (each is a few trial moves)
TIMEOUT_AUTHOR = "timeout"
AUTO_AUTHOR = "auto"  # an action Keywood played because it was the only one possible
STANDIN_AUTHOR = "standin"  # an action Keywood's stand-in chose for a computer seat (engine.standin)
COMPUTER = "keywood-computer-"  # the user id of a computer seat is this and its number
STANDIN_BUDGET = standin.Budget()  # a computer seat's thinking per decision
DIGEST_LINES = 8  # lines of "since your last move" in the message that asks a player to take a turn
REPEAT = re.compile(r"^(?P<action>.*\S)\s+[x×](?P<times>\d+)$", re.IGNORECASE)
MAX_BACKOFF_SECONDS = 600
OUTBOX_BATCH = 200  # the most queued messages read at once
DM_RETRY = timedelta(hours=24)  # a user whose DMs were refused is not tried again for this long
CHANGED = "The table changed while your command was applied; nothing was changed."


def draw_seed() -> int:
    """A new game's secret seed: 64 random bits from `secrets`, as the signed 64-bit number the store keeps, drawn
    again in the rare case (one in 2**33) that it falls among the small seeds of the plain generator (engine.core)."""
    while 0 <= (seed := secrets.randbits(64) - 2**63) < PLAIN_SEEDS:
        pass
    return seed


def standin_seed(game_seed: int, actions: int) -> int:
    """The stand-in's random seed for a move, after this many actions of the log: a hash keyed with the game's seed
    (BLAKE2b, 64 bits), so that its moves, which everyone sees, tell nothing about the game's seed."""
    key = (game_seed % 2**64).to_bytes(8, "big")
    return int.from_bytes(hashlib.blake2b(actions.to_bytes(8, "big"), key=key, digest_size=8).digest(), "big")


@dataclass(frozen=True)
class Where:
    """A table: a server (guild) and a channel or thread."""

    guild_id: str
    channel_id: str


@dataclass(frozen=True)
class Who:
    """The person giving a command; is_admin when they may manage the server."""

    user_id: str
    name: str
    is_admin: bool = False


@dataclass(frozen=True)
class Command:
    """A person's command at a table. version is the state a button was shown for (None when typed)."""

    where: Where
    who: Who
    verb: str
    arg: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    version: int | None = None
    at: datetime | None = None
    game_id: int | None = None
    prompt_id: int | None = None
    seat: int | None = None
    slash: bool = False  # the person types slash commands (Discord): hints name /join rather than join

    def typed(self, name: str) -> str:
        """A table command as this person types it: `join` in the terminal, `/join` on Discord."""
        return f"`/{name}`" if self.slash else f"`{name}`"


@dataclass(frozen=True)
class PromptNote:
    """A decision opened for (or handed to) one person: what to decide, the choices, the deadline and default."""

    prompt_id: int
    game_id: int
    kind: str
    user_id: str
    seat: int
    deadline: datetime
    text: str
    choices: tuple[str, ...]
    version: int
    default: str | None = None
    phrase: str = ""
    clocked: bool = False  # the deadline is the seat's clock running out
    with_image: bool = False  # a turn's message carries the table image with its digest


@dataclass
class Outcome:
    """What a command did and what the transport should say, to whom.

    reply goes to the caller alone (with reply_choices as buttons answering prompt reply_prompt, if any);
    everything else is also queued in the outbox.
    """

    ok: bool
    reply: str = ""
    public: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None
    private: dict[str, list[str]] = field(default_factory=dict)
    mention: list[str] = field(default_factory=list)
    opened: list[PromptNote] = field(default_factory=list)
    closed: list[int] = field(default_factory=list)
    choices: dict[str, list[str]] = field(default_factory=dict)
    seats: dict[str, int] = field(default_factory=dict)
    image: bytes | None = None
    game_id: int | None = None
    version: int | None = None
    where: Where | None = None
    reply_prompt: int | None = None
    reply_choices: list[str] = field(default_factory=list)
    outbox: list[OutboxRow] = field(default_factory=list)
    attachment: tuple[str, bytes] | None = None  # a file for the caller alone (an exported replay): name, content


class TableError(Exception):
    """A refused command: the message is for the person who gave it; nothing is stored."""


class TableChanged(TableError):
    """Another command changed the game while this one was being applied."""


@dataclass(frozen=True)
class Known:
    """A game's committed state kept in memory at its version, with what was worked out from it: the engine's open
    decisions, the legal actions by seat, the trial moves (engine states and these lists are never changed in
    place)."""

    version: int
    state: Any
    decisions: list[Decision] | None = None
    legal: dict[int, list[Any]] = field(default_factory=dict)
    trials: dict[tuple[int, int], Trial] = field(default_factory=dict)


@dataclass(frozen=True)
class Trial:
    """A legal action tried on a copy of a state: the state after it, its events, and the same seat's legal actions
    there (None when the seat does not act there)."""

    after: Any
    events: list[Event]
    again: list[Any] | None


@dataclass
class Loaded:
    """A game row with its seats, registry entry and current state, inside one transaction."""

    row: GameRecord
    seats: list[SeatRecord]
    entry: GameEntry
    state: Any
    done_prompts: list[int] = field(default_factory=list)
    standing_in: set[int] = field(default_factory=set)  # seats whose clock ran out: the stand-in plays their turn
    _prompts: list[PromptRecord] | None = field(default=None, repr=False)
    _decisions: tuple[Any, list[Decision]] | None = field(default=None, repr=False)
    _options: tuple[str, dict[str, Any]] | None = field(default=None, repr=False)
    _legal: dict[int, list[Any]] = field(default_factory=dict, repr=False)
    _trials: dict[tuple[int, int], Trial] = field(default_factory=dict, repr=False)

    def open_prompts(self, tx: Tx) -> list[PromptRecord]:
        """The game's open decisions as stored, read once per command (rows opened since are added to it)."""
        if self._prompts is None:
            self._prompts = tx.open_prompts(self.id)
        return [p for p in self._prompts if p.status == "open"]

    def remember_prompt(self, row: PromptRecord) -> None:
        """Count a newly opened prompt among the open ones."""
        if self._prompts is not None:
            self._prompts.append(row)

    def decisions(self) -> list[Decision]:
        """The engine's open decisions for the current state (asked once per state)."""
        if self._decisions is None or self._decisions[0] is not self.state:
            self._decisions = (self.state, self.engine.decisions(self.state))
            self._legal, self._trials = {}, {}
        return self._decisions[1]

    def legal(self, seat: int) -> list[Any]:
        """A seat's legal actions in the current state (asked once per state and seat)."""
        self.decisions()
        if seat not in self._legal:
            self._legal[seat] = self.engine.legal_actions(self.state, seat)
        return self._legal[seat]

    def trial(self, seat: int, index: int) -> Trial:
        """The seat's index-th legal action tried on a copy of the current state (once per state, seat and action):
        the table counts repeat buttons with it, and applies the action it then receives from it."""
        self.decisions()
        if (seat, index) not in self._trials:
            after = clone(self.state)
            events = self.engine.apply_choice(after, seat, self.legal(seat), index)
            again = self.engine.legal_actions(after, seat) if seat in self.engine.to_act(after) else None
            self._trials[(seat, index)] = Trial(after, events, again)
        return self._trials[(seat, index)]

    def tried(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Event]]:
        """The state after a seat's action and its events, from the trial moves when state is the current one (the
        after state is shared: never change it), otherwise applied to a copy; raises the engine's IllegalAction."""
        index = position(self.legal(seat), action) if state is self.state else None
        if index is None:
            return self.engine.apply(state, seat, action)
        trial = self.trial(seat, index)
        return trial.after, trial.events

    def advance(self, trial: Trial, seat: int) -> None:
        """Make a trial's state the current one, with the seat's legal actions there when they are known."""
        self.state = trial.after
        self._decisions = (self.state, self.engine.decisions(self.state))
        self._legal, self._trials = ({seat: trial.again} if trial.again is not None else {}), {}

    def known(self, version: int) -> Known:
        """The current state as kept in memory at this version, with what was worked out from it."""
        if self._decisions is None or self._decisions[0] is not self.state:
            return Known(version, self.state)
        return Known(version, self.state, self._decisions[1], dict(self._legal), dict(self._trials))

    @property
    def engine(self) -> Game[Any, Any]:
        """The game's engine."""
        return self.entry.engine

    @property
    def id(self) -> int:
        """The game's id."""
        assert self.row.id is not None
        return self.row.id

    @property
    def options(self) -> dict[str, Any]:
        """The table's stored options (parsed once while they stay the same)."""
        if self._options is None or self._options[0] != self.row.options:
            self._options = (self.row.options, dict(orjson.loads(self.row.options)))
        return self._options[1]

    def seat_of(self, user_id: str) -> int | None:
        """The seat of a user, if seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> SeatRecord:
        """The seat row of a seat number."""
        return self.seats[seat]

    def rename(self, text: str) -> str:
        """Engine texts with each handed-over seat's original name replaced by its current holder's."""
        for old, new in self._renames():
            text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text)
        return text

    def _renames(self) -> list[tuple[str, str]]:
        """(engine name, holder name) of every seat whose holder is not the one the engine knows."""
        names = self.options.get("names") or [s.name for s in self.seats]
        return [(old, seat.name) for old, seat in zip(names, self.seats, strict=False) if old != seat.name]

    def rename_view(self, data: Any) -> Any:
        """A view (JSON data) with every text renamed as by rename."""
        if not self._renames():
            return data
        if isinstance(data, str):
            return self.rename(data)
        if isinstance(data, list):
            return [self.rename_view(x) for x in data]
        if isinstance(data, dict):
            return {k: self.rename_view(v) for k, v in data.items()}
        return data


class Table:
    """Handles commands against a store."""

    def __init__(self, store: Store, *, images: bool = True, decision_minutes: int = 720,
                 reminder_hours: int = 24, standin_budget: standin.Budget = STANDIN_BUDGET,
                 draw_seed: Callable[[], int] = draw_seed) -> None:
        self.store = store
        self.draw_seed = draw_seed  # a new game's secret seed (tests give a known one, as they give a clock)
        self.standin_budget = standin_budget  # how long the stand-in thinks for a computer seat
        self._states: dict[int, Known] = {}  # game id -> its state at a version: skips decoding snapshots
        self._states_lock = threading.Lock()
        self.images = images
        self.defaults = (decision_minutes, reminder_hours)
        self._verbs: dict[str, Callable[[Tx, Command, datetime], Outcome]] = {
            "new": self._new, "join": self._join, "leave": self._leave, "start": self._start,
            "abandon": self._abandon, "play": self._play, "board": self._board, "hand": self._hand,
            "log": self._log, "score": self._score, "rules": self._rules, "check": self._check,
            "undo": self._undo, "settings": self._settings, "answer": self._answer, "kick": self._kick,
            "games": self._games, "clock": self._clock, "away": self._away, "sub": self._sub,
            "standin": self._standin,
        }

    def handle(self, command: Command) -> Outcome:
        """Carry out one command in one transaction with its outbox rows; a refusal changes nothing."""
        if command.verb == "export":
            return self.export(command)
        handler = self._verbs.get(command.verb)
        if handler is None:
            verbs = ", ".join(sorted([*self._verbs, "export"]))
            return Outcome(False, f"Unknown command '{command.verb}'. Commands: {verbs}.")
        moment = command.at or now()
        try:
            with self.store.transaction() as tx:
                outcome = handler(tx, command, moment)
                outcome.where = outcome.where or command.where
                outcome.outbox = tx.add_outbox(outbox_rows(outcome, tx.now()))
        except (TableError, EngineError) as exc:
            return Outcome(False, _error_text(exc), where=command.where)
        except StaleVersion:  # the optimistic check behind the locks: the game moved on while this command ran
            return Outcome(False, CHANGED, where=command.where)
        return outcome

    def export(self, command: Command) -> Outcome:
        """The channel's finished game as one self-contained HTML replay page, for the caller alone; refuses a game
        that has not ended. Its log is read in a short transaction and the page drawn after it (drawing takes a
        while, and must not hold the store's write lock)."""
        try:
            with self.store.transaction() as tx:
                row = self._latest_game(tx, command)
                assert row.id is not None
                replay = export.collect(tx, row.id)
        except (TableError, export.ExportError) as exc:
            return Outcome(False, describe.capitalise(str(exc)) + ("." if not str(exc).endswith(".") else ""),
                           where=command.where)
        page = export.page(replay).encode("utf-8")
        return Outcome(True, f"The replay of this {replay.title} game: {len(replay.steps) - 1} actions, step by step "
                             "(open the file in a browser).", attachment=(f"keywood-game-{row.id}.html", page),
                       game_id=row.id, where=command.where)

    # lobby
    def _new(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Open a lobby for a game in this channel, with the caller as host and first player."""
        entry = self._entry(cmd.arg)
        if tx.live_game(cmd.where.guild_id, cmd.where.channel_id, claim=True):
            raise TableError("A game is already open in this channel; finish or abandon it first.")
        options = self._game_options(tx, entry, cmd)
        chosen = options.pop("seed", None)  # only a local table (the terminal's --seed) chooses it
        seed = self.draw_seed() if chosen is None else int(chosen)
        row = tx.add_game(GameRecord(guild_id=cmd.where.guild_id, channel_id=cmd.where.channel_id, game=entry.id,
                                     options=json.dumps(options, sort_keys=True), seed=seed, host_id=cmd.who.user_id))
        assert row.id is not None
        tx.add_seat(row.id, cmd.who.user_id, cmd.who.name)
        limits = f"{options['min_players']}-{options['max_players']} players"
        text = (f"{cmd.who.name} opened a {entry.title} table ({limits}). Join with {cmd.typed('join')}; the host "
                f"starts with {cmd.typed('start')}.")
        return Outcome(True, "Table opened.", public=[text], game_id=row.id, version=row.version)

    def check_new(self, guild_id: str, game: str, options: dict[str, Any]) -> str | None:
        """Why `new` with this game and these options would be refused in a fresh channel of the server (None: it
        would open); reads only, writes nothing."""
        try:
            with self.store.transaction() as tx:
                self._game_options(tx, self._entry(game), Command(Where(guild_id, ""), Who("", ""), "new", game,
                                                                  dict(options)))
        except TableError as exc:
            return str(exc)
        return None

    @staticmethod
    def _entry(name: str) -> GameEntry:
        """The registry entry a `new` names (the default game when none); raises TableError for an unknown one."""
        try:
            return games.get(name.strip().lower()) if name.strip() else games.default()
        except KeyError as exc:
            raise TableError(str(exc.args[0])) from None

    def _game_options(self, tx: Tx, entry: GameEntry, cmd: Command) -> dict[str, Any]:
        """Every option of the new table, from the command over the server's defaults; raises TableError."""
        settings = tx.settings(cmd.where.guild_id, *self.defaults)
        base = {"decision_minutes": settings.decision_minutes, "reminder_hours": settings.reminder_hours}
        try:
            options = entry.read_options(cmd.options, base)
            fewest = int(options.get("min_players", entry.min_players))  # the options must hold for every count
            entry.engine.setup([f"P{i}" for i in range(fewest)], 0, entry.engine_options(options))
        except (OptionError, ValueError) as exc:
            raise TableError(str(exc)) from exc
        return options

    def _join(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Take a seat in the channel's lobby."""
        row = self._require_game(tx, cmd)
        if row.status != "lobby":
            raise TableError("This game has already started; you can watch it.")
        assert row.id is not None
        seats = tx.seats(row.id)
        if any(s.user_id == cmd.who.user_id for s in seats):
            raise TableError("You are already seated at this table.")
        if len(seats) >= orjson.loads(row.options)["max_players"]:
            raise TableError("This table is full.")
        tx.add_seat(row.id, cmd.who.user_id, cmd.who.name)
        return Outcome(True, "You are seated.", public=[f"{cmd.who.name} joins the table ({len(seats) + 1} seated)."],
                       game_id=row.id)

    def _leave(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Leave a lobby; the host's role passes on, and an empty lobby closes."""
        row = self._require_game(tx, cmd)
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

    def _start(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Deal the game for the seated players (host or admin only)."""
        row = self._require_game(tx, cmd)
        if row.status != "lobby":
            raise TableError("This game is already running.")
        self._require_host(row, cmd, "start the game")
        assert row.id is not None
        seats = tx.seats(row.id)
        options = orjson.loads(row.options)
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
        row.options = json.dumps(options | {"names": [s.name for s in seats]}, sort_keys=True)
        tx.set_status(row, "active")
        tx.save_state(row, lambda: entry.engine.to_json_text(state))
        game = Loaded(row, seats, entry, state)
        started: list[Event | str] = [f"The {entry.title} game starts."]  # never the seed: it is secret until the end
        started += self._settle(tx, game)
        outcome = self._after_change(tx, game, moment, started)
        shown = {d.seat for d in game.decisions() if not d.public_choices}  # their decision message has the hand
        for seat in range(len(seats)):
            if seat not in shown:
                outcome.private.setdefault(game.user_of(seat).user_id, []).insert(0, self._hand_text(game, seat))
        outcome.reply = "Game started."
        return outcome

    def _abandon(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """End the channel's game without a result (host or admin only); the players are mentioned."""
        row = self._require_game(tx, cmd)
        self._require_host(row, cmd, "abandon the game")
        assert row.id is not None
        tx.set_status(row, "abandoned")
        closed = self._close_prompts(tx, row.id)
        players = [s.user_id for s in tx.seats(row.id) if s.user_id != cmd.who.user_id]
        return Outcome(True, "Game abandoned.", public=[f"{cmd.who.name} abandoned the game."], closed=closed,
                       mention=players, game_id=row.id)

    def _settings(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Change the server's defaults for new games (admins only)."""
        if not cmd.who.is_admin:
            raise TableError("Only a server admin can change Keywood's settings.")
        row = tx.settings(cmd.where.guild_id, *self.defaults)
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

    def _games(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The games Keywood can referee, with their options."""
        lines = []
        for entry in games.all_games():
            lines.append(f"**{entry.title}** (`{entry.id}`, {entry.min_players}-{entry.max_players} players). "
                         f"{entry.blurb}")
            lines += [f"  - {option.summary()}" for option in entry.options]
        return Outcome(True, "\n".join(lines))

    # clocks
    def _clock(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Show the table's clock; the host (or an admin) changes it: `clock 24h`, `clock 2d sub`, `clock off`."""
        row = self._require_game(tx, cmd)
        options = orjson.loads(row.options)
        if not cmd.arg.strip():
            return Outcome(True, Clock.of(options).describe() + self._clock_states(tx, row, moment))
        self._require_host(row, cmd, "change the clock")
        changes = self._read_clock(cmd.arg)
        self._save_options(tx, row, options | changes)
        clock = Clock.of(orjson.loads(row.options))
        if row.status == "active":
            self._retime(tx, self._load(tx, row), moment)
        text = f"{cmd.who.name} set the clock. {clock.describe()}"
        return Outcome(True, "Clock changed.", public=[text], game_id=row.id)

    @staticmethod
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

    def _retime(self, tx: Tx, game: Loaded, moment: datetime, seat: int | None = None) -> None:
        """Start the open decisions' clocks afresh (every seat's, or one seat's): after the clock changed (or was
        taken away), or when a seat changed hands."""
        hours = int(game.options.get("reminder_hours", self.defaults[1]))
        for prompt in game.open_prompts(tx):
            payload = orjson.loads(prompt.payload)
            if not payload.get("must") or payload.get("default") is not None or seat not in (None, prompt.seat):
                continue
            payload.pop("clock", None)
            prompt.payload, prompt.deadline = json_text(payload), moment + timedelta(hours=hours)
            self._start_clock(game, prompt, moment)
            tx.save_prompt(prompt)

    def _clock_states(self, tx: Tx, row: GameRecord, moment: datetime) -> str:
        """Each running clock and each seat away, as lines after the clock's description."""
        if row.status != "active":
            return ""
        game = self._load(tx, row)
        lines = []
        for prompt in game.open_prompts(tx):
            timer = orjson.loads(prompt.payload).get("clock")
            if timer and prompt.seat is not None:
                left = clocks.ends(timer) - moment
                state = f"runs out in {clocks.say(left)}" if left.total_seconds() > 0 else "has run out"
                lines.append(f"{game.user_of(prompt.seat).name}'s clock {state}.")
        for seat in range(len(game.seats)):
            until = clocks.away_until(game.options, seat, moment)
            if until:
                lines.append(f"{game.user_of(seat).name} is away for {clocks.say(until - moment)} more.")
        return "".join("\n" + line for line in lines)

    def _away(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Pause one's own clock for a while (`away 12h`), within the table's allowance; `away off` ends it early
        and gives the time not used back."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        clock = Clock.of(game.options)
        if not clock.on:
            raise TableError("No clock runs at this table, so there is nothing to pause; the host can set one with "
                             f"{cmd.typed('clock')}.")
        record = clocks.away_of(game.options, seat)
        until = clocks.away_until(game.options, seat, moment)
        used = timedelta(minutes=int(record.get("used", 0)))
        if cmd.arg.strip().lower() in ("off", "back", "0", "done"):
            if until is None:
                raise TableError("You are not away.")
            by, record = moment - until, {"used": int((used - (until - moment)).total_seconds() // 60)}
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
            record = {"used": int((used + by).total_seconds() // 60), "until": end.isoformat()}
            text = f"{cmd.who.name} is away for {clocks.say(end - moment)}: their clock is paused until then."
            reply = f"Your clock is paused for {clocks.say(end - moment)}."
        self._save_options(tx, game.row, game.options | {"away": game.options.get("away", {}) | {str(seat): record}})
        self._pause(tx, game, seat, by, clock)
        left = clock.away_limit - timedelta(minutes=int(record["used"]))
        return Outcome(True, f"{reply} You have {clocks.say(left)} of time away left.", public=[text],
                       game_id=game.id)

    @staticmethod
    def _pause(tx: Tx, game: Loaded, seat: int, by: timedelta, clock: Clock) -> None:
        """Move a seat's running clocks on by a pause (back, when it ends early)."""
        for prompt in game.open_prompts(tx):
            payload = orjson.loads(prompt.payload)
            if prompt.seat != seat or "clock" not in payload:
                continue
            moved = clocks.shifted(payload["clock"], by, clock.pace)
            if moved is not None:
                prompt.deadline, timer = moved
                prompt.payload = json_text(payload | {"clock": timer})
                tx.save_prompt(prompt)

    def _standin(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Have Keywood's stand-in play a seat's current decision now: one's own (`standin`), or as host any
        player's (`standin Ben`)."""
        game = self._require_running(tx, cmd)
        if cmd.arg.strip() or cmd.options.get("user_id"):
            seat = self._seat_named(game, cmd.arg, str(cmd.options.get("user_id", "")))
            if game.user_of(seat).user_id != cmd.who.user_id:
                self._require_host(game.row, cmd, "ask the stand-in to play for another player")
        else:
            seat = self._require_seat(game, cmd)
        name = game.user_of(seat).name
        if seat not in game.engine.to_act(game.state):
            raise TableError(f"{name} has nothing to decide now, so the stand-in has nothing to play.")
        game.standing_in.add(seat)
        who = "their own seat" if game.user_of(seat).user_id == cmd.who.user_id else name
        events: list[Event | str] = [f"{cmd.who.name} asks Keywood's stand-in to play for {who}."]
        events += self._settle(tx, game)
        outcome = self._after_change(tx, game, moment, events)
        outcome.reply = f"The stand-in played for {name}."
        return outcome

    @staticmethod
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

    def _sub(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Substitutes: someone not playing offers to take a seat whose clock ran out (`sub`, or `sub Ben` when
        several are offered); the host confirms a volunteer (`sub Eve`) or lists them (`sub`)."""
        game = self._require_running(tx, cmd)
        if game.seat_of(cmd.who.user_id) is None:
            return self._volunteer(tx, game, cmd)
        if cmd.who.user_id != game.row.host_id and not cmd.who.is_admin:
            raise TableError("You already play in this game: only someone not playing can offer to take a seat, "
                             "and only the host confirms them.")
        volunteers = game.options.get("volunteers", [])
        if not cmd.arg.strip():
            if not volunteers:
                return Outcome(True, "Nobody has offered to take a seat.")
            return Outcome(True, "Offers: " + "; ".join(f"{v['name']} for {game.user_of(v['seat']).name}'s seat"
                                                        for v in volunteers) + ". Confirm one with `sub NAME`.")
        wanted = cmd.arg.strip().lstrip("@").lower()
        chosen = next((v for v in volunteers if wanted in (v["name"].lower(), v["user_id"])
                       or re.fullmatch(rf"<@!?{re.escape(v['user_id'])}>", cmd.arg.strip())), None)
        if chosen is None:
            offers = describe.and_list([v["name"] for v in volunteers]) if volunteers else "nobody yet"
            raise TableError(f"'{cmd.arg.strip()}' has not offered to take a seat (offers: {offers}).")
        seat = chosen["seat"]
        self._withdraw_offer(tx, game, seat)
        return self._hand_over(tx, game.row, game.user_of(seat), chosen["user_id"], chosen["name"], moment)

    def _volunteer(self, tx: Tx, game: Loaded, cmd: Command) -> Outcome:
        """Someone not playing offers to take over a seat offered to substitutes."""
        offered = game.options.get("sub_open", [])
        if not offered:
            raise TableError("No seat here is looking for a substitute.")
        if cmd.arg.strip():
            seat = self._seat_named(game, cmd.arg)
            if seat not in offered:
                raise TableError(f"{game.user_of(seat).name}'s seat is not offered to substitutes.")
        elif len(offered) > 1:
            names = describe.and_list([game.user_of(s).name for s in offered])
            raise TableError(f"Several seats are offered ({names}): name the one you would take, e.g. "
                             f"{cmd.typed('sub ' + game.user_of(offered[0]).name)}.")
        else:
            seat = offered[0]
        volunteers = game.options.get("volunteers", [])
        if any(v["user_id"] == cmd.who.user_id and v["seat"] == seat for v in volunteers):
            raise TableError("You have already offered to take this seat; the host has been asked.")
        self._save_options(tx, game.row, game.options | {"volunteers": [
            *volunteers, {"seat": seat, "user_id": cmd.who.user_id, "name": cmd.who.name}]})
        text = (f"{cmd.who.name} offers to take over {game.user_of(seat).name}'s seat; the host confirms with "
                f"{cmd.typed('sub ' + cmd.who.name)}.")
        return Outcome(True, "Offer made; the host has been asked.", public=[text], mention=[game.row.host_id],
                       game_id=game.id)

    # play
    def _play(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Apply an action from a seated player, or keep an early answer to a decision not yet due."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        if cmd.seat is not None and cmd.seat != seat:
            raise TableError("That choice was offered to another player.")
        if cmd.version is not None and cmd.version != game.row.version:
            raise TableChanged("The table has moved on since that choice was shown; nothing was changed.")
        return self._play_as(tx, game, seat, cmd, moment)

    def _answer(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Answer a decision by its prompt (a DM button): valid while it is open, for its seat's current holder."""
        prompt = tx.prompt(cmd.prompt_id) if cmd.prompt_id is not None else None
        if prompt is None or prompt.status != "open" or prompt.seat is None:
            raise TableChanged("This decision has already been made or has closed; nothing was changed.")
        row = tx.game(prompt.game_id)
        if row is None or row.status != "active":
            raise TableChanged("This game is no longer running.")
        game = self._load(tx, row)
        holder = game.user_of(prompt.seat)
        if holder.user_id != cmd.who.user_id:
            raise TableError(self._not_yours(game, cmd.who.user_id, prompt.seat))
        outcome = self._play_as(tx, game, prompt.seat, cmd, moment)
        if prompt.status == "open":  # the same row object: a sync that closed it shows here
            outcome.reply_prompt = prompt.id
            outcome.reply_choices = self._prompt_choices(game, prompt.seat)
        return outcome

    @staticmethod
    def _not_yours(game: Loaded, user_id: str, seat: int) -> str:
        """Why a user may not answer a seat's decision: it was handed on from them, or was never theirs."""
        handovers = game.options.get("handovers", [])
        if any(h["from"] == user_id and h["seat"] == seat for h in handovers):
            return f"This seat has been handed to {game.user_of(seat).name}; you no longer play it."
        return "This decision is for another player."

    def _play_as(self, tx: Tx, game: Loaded, seat: int, cmd: Command, moment: datetime) -> Outcome:
        """Apply the command's action for a seat, or keep it as an early answer to a decision not yet due."""
        action, times = self._parse_repeated(game, seat, cmd.arg)
        if seat not in game.engine.to_act(game.state) and action in game.engine.pending_answers(game.state, seat):
            return self._record_answer(tx, game, seat, action, cmd.who.user_id)
        events: list[Event | str] = [*self._back(tx, game, seat)]
        events += self._apply(tx, game, seat, cmd.who.user_id, action)
        for done in range(1, times):  # `take pig x3`: the same small action again, while it stays legal
            if seat not in game.engine.to_act(game.state) or action not in game.legal(seat):
                raise TableError(f"'{game.engine.format(action)}' could be done only {done} of {times} times; "
                                 "nothing was changed.")
            events += self._apply(tx, game, seat, cmd.who.user_id, action)
        events += self._settle(tx, game)
        outcome = self._after_change(tx, game, moment, events)
        outcome.reply = f"Done: {game.engine.format(action)}" + (f" ×{times}." if times > 1 else ".")
        return outcome

    def _back(self, tx: Tx, game: Loaded, seat: int) -> list[str]:
        """A seat offered to substitutes whose holder plays again is no longer offered; says so (or nothing)."""
        if seat not in game.options.get("sub_open", []):
            return []
        self._withdraw_offer(tx, game, seat)
        return [f"{game.user_of(seat).name} is back, so their seat is no longer offered to substitutes."]

    def _withdraw_offer(self, tx: Tx, game: Loaded, seat: int) -> None:
        """Take a seat off offer to substitutes, with the offers made for it."""
        self._save_options(tx, game.row, game.options | {
            "sub_open": [s for s in game.options.get("sub_open", []) if s != seat],
            "volunteers": [v for v in game.options.get("volunteers", []) if v["seat"] != seat]})

    def _apply(self, tx: Tx, game: Loaded, seat: int, author: str, action: Any) -> list[Event]:
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

    def _record_answer(self, tx: Tx, game: Loaded, seat: int, action: Any, author: str) -> Outcome:
        """Keep an answer from a seat whose decision is not yet due; it applies when its turn to answer comes."""
        prompt = next((p for p in game.open_prompts(tx) if p.seat == seat), None)
        if prompt is None:
            raise TableError("You have no open decision to answer.")
        if prompt.answer is not None:
            raise TableError(f"You have already answered: '{prompt.answer}'.")
        prompt.answer = game.engine.format(action)
        prompt.payload = json_text(orjson.loads(prompt.payload) | {"by": author})
        tx.save_prompt(prompt)
        waiting = self._waiting(game)
        return Outcome(True, f"Answer kept: '{prompt.answer}'. It counts once the players before you have decided "
                             f"({waiting}).", game_id=game.id, version=game.row.version)

    @staticmethod
    def _parse_repeated(game: Loaded, seat: int, text: str) -> tuple[Any, int]:
        """The action a command names and how many times in a row: 'take pig x3' is 'take pig' three times when
        the whole text is not itself an action (a game's own notation may end in a count, like 'laydown 1.clay x2').

        Raises the engine's error for the whole text when neither reading works.
        """
        legal = game.legal(seat)
        try:
            return game.engine.parse(game.state, seat, text, legal), 1
        except EngineError:
            base, times = _repeats(text)
            if times == 1:
                raise
            return game.engine.parse(game.state, seat, base, legal), times

    def _settle(self, tx: Tx, game: Loaded) -> list[Event]:
        """Apply what needs nobody: kept and timed-out answers whose turn has come, and a lone decision's only
        possible answer (engine.playout.forced_move: logged as Keywood's, and undone with the action before it)."""
        events: list[Event] = []
        while not game.engine.is_over(game.state):
            events += self._apply_queued(tx, game)
            forced = None if game.engine.is_over(game.state) else forced_move(
                game.engine, game.state, decisions=game.decisions(), legal=game.legal)
            if forced is None:
                played = [] if game.engine.is_over(game.state) else self._computer_moves(tx, game)
                if not played:
                    return events
                events += played
                continue
            seat, action = forced
            events.append(Event(f"{game.user_of(seat).name} has only one possible choice, so Keywood plays it: "
                                f"{game.engine.public_notation(action)}.", seat))
            events += self._apply(tx, game, seat, AUTO_AUTHOR, action)
        return events

    def _computer_moves(self, tx: Tx, game: Loaded) -> list[Event]:
        """The stand-in's move for the first computer seat, or seat it stands in for, that must act (logged as the
        stand-in's); [] when none. It stands in for a seat only while that seat still must act."""
        acting = game.engine.to_act(game.state)
        game.standing_in &= set(acting)
        seat = next((s for s in acting if is_computer(game.user_of(s).user_id) or s in game.standing_in), None)
        if seat is None:
            return []
        seed = standin_seed(game.row.seed, tx.action_count(game.id))
        action = standin.choose(game.engine, game.state, seat, seed=seed, budget=self.standin_budget)
        said = Event(f"Keywood's stand-in plays for {game.user_of(seat).name}: "
                     f"{game.engine.public_notation(action)}.", seat)
        return [said, *self._apply(tx, game, seat, STANDIN_AUTHOR, action)]

    def _apply_queued(self, tx: Tx, game: Loaded) -> list[Event]:
        """Apply kept and timed-out answers of seats whose turn to answer has come, in the engine's order."""
        events: list[Event] = []
        while not game.engine.is_over(game.state):
            due = set(game.engine.to_act(game.state))
            rows = game.open_prompts(tx)
            if any(p.key == "" for p in rows):
                self._adopt_legacy(tx, game.decisions(), rows, {(p.seat, p.key): p for p in rows})
            ready = [p for p in rows if p.seat in due and p.answer is not None and self._still_open(game, p)]
            if not ready:
                return events
            prompt = min(ready, key=lambda p: game.engine.to_act(game.state).index(p.seat or 0))
            assert prompt.seat is not None
            payload = orjson.loads(prompt.payload)
            action = game.engine.parse(game.state, prompt.seat, prompt.answer or "")
            if payload.get("timed_out"):
                events.append(Event(f"{game.user_of(prompt.seat).name} did not answer in time.", prompt.seat))
            holder = game.user_of(prompt.seat).user_id
            author = TIMEOUT_AUTHOR if payload.get("timed_out") else payload.get("by", holder)
            events += self._apply(tx, game, prompt.seat, author, action)
            prompt.status = "done"
            tx.save_prompt(prompt)
            game.done_prompts.append(prompt.id or 0)
        return events

    @staticmethod
    def _still_open(game: Loaded, prompt: PromptRecord) -> bool:
        """Whether a prompt's decision is still one of the engine's open decisions."""
        return any(d.seat == prompt.seat and d.key == prompt.key for d in game.decisions())

    def _after_change(self, tx: Tx, game: Loaded, moment: datetime, events: Sequence[Event | str]) -> Outcome:
        """Sync decisions, finish a game that ended, and say what to post and send for the new state."""
        version, state = game.row.version, game.state
        tx.after_commit.append(lambda: self._remember(game.id, version, state, game))
        texts: list[Event | str] = list(events)
        public = [game.rename(e.text if isinstance(e, Event) else e) for e in texts
                  if not isinstance(e, Event) or e.public]
        view = game.rename_view(game.engine.view(game.state, None)) if self.images else None
        outcome = Outcome(True, public=public, game_id=game.id, board=view, closed=list(game.done_prompts),
                          seats={s.user_id: s.seat for s in game.seats},
                          image=self._render(game.entry, view) if view else None)
        for event in (e for e in texts if isinstance(e, Event) and not e.public):
            for seat in event.to or ():
                outcome.private.setdefault(game.user_of(seat).user_id, []).append(game.rename(event.text))
        if game.engine.is_over(game.state):
            self._finish(tx, game, outcome)
        else:
            self._sync_decisions(tx, game, moment, outcome)
            outcome.public.append(describe.capitalise(self._waiting(game)) + ".")
        outcome.version = game.row.version
        outcome.where = Where(game.row.guild_id, game.row.channel_id)
        return outcome

    def _finish(self, tx: Tx, game: Loaded, outcome: Outcome) -> None:
        """Mark a game finished, close its decisions and put the final scoreboard (and its image) in the outcome."""
        tx.set_status(game.row, "finished")
        outcome.closed += self._close_prompts(tx, game.id)
        outcome.mention = [seat.user_id for seat in game.seats]
        final = game.engine.score(game.state, None)
        outcome.public.append(game.rename(describe.scoreboard(final)))
        scoreboard = game.entry.render_scoreboard if self.images else None
        outcome.image = scoreboard(final) if scoreboard else outcome.image

    def _waiting(self, game: Loaded) -> str:
        """'waiting for Ben to join or decline' from the open decisions, with the seats' current holders."""
        groups: dict[str, list[str]] = {}
        for decision in game.decisions():
            if decision.must:
                groups.setdefault(decision.phrase, []).append(game.user_of(decision.seat).name)
        if not groups:
            return "waiting for nobody: the game is over"
        parts = [f"{describe.and_list(names)} to {phrase}" for phrase, names in groups.items()]
        return "waiting for " + "; ".join(parts)

    def _sync_decisions(self, tx: Tx, game: Loaded, moment: datetime, outcome: Outcome) -> None:
        """Open a prompt for every new decision, close those the engine no longer has, and say whom to ping.

        A seat is mentioned once per decision (when it opens, or when a decision answered ahead becomes due);
        a decision outside a turn, or whose choices are private, is also sent to its holder (once).
        """
        decisions = [d for d in game.decisions() if not is_computer(game.user_of(d.seat).user_id)]  # played at once
        rows = game.open_prompts(tx)
        by_key = {(p.seat, p.key): p for p in rows}
        self._adopt_legacy(tx, decisions, rows, by_key)
        wanted = {(d.seat, d.key) for d in decisions}
        ending = [p for p in rows if (p.seat, p.key) not in wanted]
        for decision in decisions:
            row = by_key.get((decision.seat, decision.key))
            newly_due = row is None or (decision.must and not orjson.loads(row.payload).get("must"))
            if row is None:
                private = decision.kind != TURN or not decision.public_choices
                reused = None if private else next((p for p in ending if _reusable(p, decision)), None)
                row = self._open_prompt(tx, game, decision, moment, reuse=reused)
                if reused is not None:
                    ending.remove(reused)
                if private:
                    digest = self._digest(tx, game, decision.seat) if decision.must and decision.kind == TURN else []
                    outcome.opened.append(self._note(game, row, decision, context=outcome.public, digest=digest))
            elif newly_due:
                row.payload = json_text(orjson.loads(row.payload) | {"must": True})
                if decision.default is None:
                    self._start_clock(game, row, moment)
                tx.save_prompt(row)
            if decision.must and newly_due:
                outcome.mention.append(game.user_of(decision.seat).user_id)
        for prompt in ending:
            prompt.status = "closed"
            tx.save_prompt(prompt)
            outcome.closed.append(prompt.id or 0)
        outcome.choices = self._channel_choices(game, decisions)

    def _adopt_legacy(self, tx: Tx, decisions: list[Decision], rows: list[PromptRecord],
                      by_key: dict[tuple[int | None, str], PromptRecord]) -> None:
        """Give prompts written before decisions had keys (key '') the key of the seat's decision of that kind."""
        for prompt in [p for p in rows if p.key == ""]:
            match = next((d for d in decisions if d.seat == prompt.seat and d.kind == prompt.kind
                          and (d.seat, d.key) not in by_key), None)
            if match is None:
                continue
            del by_key[(prompt.seat, "")]
            prompt.key = match.key
            prompt.payload = json_text(orjson.loads(prompt.payload) | {"must": match.must, "default": match.default})
            tx.save_prompt(prompt)
            by_key[(match.seat, match.key)] = prompt

    def _open_prompt(self, tx: Tx, game: Loaded, decision: Decision, moment: datetime, *,
                     reuse: PromptRecord | None = None) -> PromptRecord:
        """Store a new decision with its deadline: a default applies at it, otherwise it reminds.

        reuse: an ending turn's row, rewritten for the next turn step (one write, not two).
        """
        options = game.options
        if decision.default is not None:
            deadline = moment + timedelta(minutes=int(options.get("decision_minutes", self.defaults[0])))
        else:
            deadline = moment + timedelta(hours=int(options.get("reminder_hours", self.defaults[1])))
        payload = json_text({"must": decision.must, "default": decision.default, "phrase": decision.phrase,
                              "public": decision.public_choices})
        if reuse is not None:
            row = reuse
            row.seat, row.key, row.deadline, row.payload = decision.seat, decision.key, deadline, payload
        else:
            row = PromptRecord(game_id=game.id, kind=decision.kind, seat=decision.seat, key=decision.key,
                               deadline=deadline, payload=payload)
        if decision.must and decision.default is None:
            self._start_clock(game, row, moment)
        if reuse is not None:
            tx.save_prompt(row)
            return row
        row = tx.add_prompt(row)
        game.remember_prompt(row)
        return row

    @staticmethod
    def _start_clock(game: Loaded, row: PromptRecord, moment: datetime) -> None:
        """Time a decision that now must be made and has no default, when the table has a clock (not yet saved)."""
        clock = Clock.of(game.options)
        if not clock.on or row.seat is None:
            return
        row.deadline, timer = clock.start(moment, clocks.away_until(game.options, row.seat, moment))
        row.payload = json_text(orjson.loads(row.payload) | {"clock": timer})

    def _note(self, game: Loaded, row: PromptRecord, decision: Decision, context: Sequence[str] = (),
              digest: Sequence[str] = ()) -> PromptNote:
        """What to send a seat's holder about one open decision (by DM, or privately in the channel).

        context: the public lines of what just happened, so the message says what is going on; digest: for a
        turn, the public record since the holder's own last move (_digest).
        """
        assert row.id is not None and row.seat is not None
        holder = game.user_of(row.seat)
        choices = tuple(self._prompt_choices(game, row.seat))
        ask = f"{holder.name}, you are to {decision.phrase}."
        lines = [f"{game.entry.title}: " + " ".join(context), ask] if context else [f"{game.entry.title}: {ask}"]
        lines += digest
        if not decision.public_choices:
            lines.append(self._hand_text(game, row.seat))
        if decision.kind == REACTION:
            lines += self._what_each_does(game, row.seat, choices)
        if not decision.must:
            lines.append(f"You may answer now; it counts once it is your turn to answer ({self._waiting(game)}).")
        if not choices:
            lines.append("Too many answers for buttons: answer with `/play` (its suggestions list your choices).")
        if decision.default is not None:
            lines.append(f"If you have not answered by the deadline: {decision.default}.")
        timer = orjson.loads(row.payload).get("clock")
        if timer:
            then = clocks.WHAT_HAPPENS[Clock.of(game.options).on_timeout]
            lines.append(f"Your clock runs out at the deadline; then {then} (`away` pauses it).")
        deadline = clocks.ends(timer) if timer else row.deadline
        return PromptNote(row.id, game.id, decision.kind, holder.user_id, row.seat, deadline, "\n".join(lines),
                          choices, game.row.version, decision.default, decision.phrase, clocked=timer is not None,
                          with_image=bool(digest))

    @staticmethod
    def _what_each_does(game: Loaded, seat: int, choices: tuple[str, ...]) -> list[str]:
        """For a reaction: what each answer would do, as `check` says it (for an invitee not asked yet: once those
        before them have taken their decision's default)."""
        engine, state = game.engine, game.state
        for _ in range(len(game.seats)):
            due = engine.decisions(state)
            if seat in engine.to_act(state) or not due or not due[0].must or due[0].default is None:
                break
            state, _events = game.tried(state, due[0].seat, engine.parse(state, due[0].seat, due[0].default))
        if seat not in engine.to_act(state):
            return []
        lines = []
        for choice in choices:
            action = engine.parse(state, seat, choice)
            try:
                verdict = engine.judge(state, seat, action, *game.tried(state, seat, action))
            except IllegalAction:
                continue
            if verdict.outcome:
                lines.append(f"• {choice}: " + game.rename(" ".join(verdict.outcome)))
        return lines

    def _prompt_choices(self, game: Loaded, seat: int) -> list[str]:
        """A seat's answers as button labels (its legal actions, or those it may give ahead), when few enough."""
        due = seat in game.engine.to_act(game.state)  # out of turn, a seat's legal plays are unasked (engine.core)
        options = game.legal(seat) if due else game.engine.pending_answers(game.state, seat)
        return [game.engine.format(a) for a in options] if 0 < len(options) <= MAX_CHOICES else []

    def _channel_choices(self, game: Loaded, decisions: list[Decision]) -> dict[str, list[str]]:
        """Buttons for the channel: only when one seat must act and every choice's text is public; an answer the
        seat could give several times in a row also comes as one button ('take pig x3')."""
        due = [d for d in decisions if d.must]
        if len(due) != 1 or not due[0].public_choices:
            return {}
        seat = due[0].seat
        choices = self._prompt_choices(game, seat)
        if 0 < len(choices) <= MAX_REPEAT_CHOICES and len(choices) == len(game.legal(seat)):  # one per legal action
            runs = {c: self._run_length(game, seat, i) for i, c in enumerate(choices)}
            choices = [c for c in choices for c in ([c] + ([f"{c} x{runs[c]}"] if runs[c] > 1 else []))]
        return {game.user_of(seat).user_id: choices} if choices else {}

    @staticmethod
    def _run_length(game: Loaded, seat: int, index: int) -> int:
        """How many times in a row the seat could take its index-th legal action now (at most MAX_REPEAT)."""
        engine, action = game.engine, game.legal(seat)[index]
        if not engine.may_repeat(action):
            return 1
        trial = game.trial(seat, index)
        legal = trial.again
        if legal is None or action not in legal:
            return 1
        state = clone(trial.after)  # a copy, played on in place (the trial's state may become the game's)
        times = 1
        while legal is not None and action in legal and times < MAX_REPEAT:
            engine.apply_choice(state, seat, legal, legal.index(action))
            times += 1
            legal = engine.legal_actions(state, seat) if seat in engine.to_act(state) else None
        return times

    def _hand_text(self, game: Loaded, seat: int) -> str:
        """A seat's private view as text, with its holder's name."""
        return game.rename(game.entry.texts.hand(game.engine.view(game.state, seat, game.legal(seat)), seat))

    def _close_prompts(self, tx: Tx, game_id: int) -> list[int]:
        """Close every open prompt of a game."""
        closed = []
        for prompt in tx.open_prompts(game_id):
            prompt.status = "closed"
            tx.save_prompt(prompt)
            closed.append(prompt.id or 0)
        return closed

    def _kick(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Host or admin: remove a player from a lobby, or hand a running game's seat to a replacement."""
        row = self._require_game(tx, cmd)
        self._require_host(row, cmd, "kick a player")
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
        return self._hand_over(tx, row, seat, replacement, str(cmd.options.get("replacement_name", replacement)),
                               moment)

    def _hand_over(self, tx: Tx, row: GameRecord, seat: SeatRecord, user_id: str, name: str,
                   moment: datetime) -> Outcome:
        """Give a running game's seat to another person: its decisions follow, the new holder is told privately."""
        leaving, leaving_id = seat.name, seat.user_id
        options = orjson.loads(row.options)
        handover = {"seat": seat.seat, "from": leaving_id, "to": user_id}
        self._save_options(tx, row, options | {"handovers": [*options.get("handovers", []), handover]})
        tx.reassign_seat(seat, user_id, name)
        game = self._load(tx, row)
        self._retime(tx, game, moment, seat.seat)  # the new holder gets a whole clock
        decisions = {(d.seat, d.key): d for d in game.decisions()}
        notes = [self._note(game, p, decisions[(p.seat, p.key)]) for p in game.open_prompts(tx)
                 if p.seat == seat.seat and (p.seat, p.key) in decisions]
        told = (f"You now hold {leaving}'s seat in this {game.entry.title} game. "
                f"{describe.capitalise(self._waiting(game))}.")
        return Outcome(True, "Seat handed over.", public=[f"{name} takes over {leaving}'s seat."],
                       mention=[leaving_id, user_id], private={user_id: [told, self._hand_text(game, seat.seat)]},
                       opened=notes, game_id=game.id, version=row.version,
                       where=Where(row.guild_id, row.channel_id))

    def suggest(self, where: Where, user_id: str, typed: str, limit: int = 25) -> list[str]:
        """Legal actions (and early answers) of the user in this channel's game containing the typed text."""
        with self.store.transaction() as tx:
            row = tx.live_game(where.guild_id, where.channel_id)
            if row is None or row.status != "active":
                return []
            game = self._load(tx, row)
        seat = game.seat_of(user_id)
        if seat is None:
            return []
        options = game.legal(seat)  # out of turn: the plays the rules allow unasked, and the answers it may give ahead
        if seat not in game.engine.to_act(game.state):
            options = [*options, *game.engine.pending_answers(game.state, seat)]
        words = typed.lower().split()
        texts = [game.engine.format(a) for a in options]
        return grouped([t for t in texts if all(w in t for w in words)], limit)

    def game_at(self, where: Where) -> str:
        """The id of the game played (or open) in a channel; the default game when there is none."""
        with self.store.transaction() as tx:
            row = tx.live_game(where.guild_id, where.channel_id)
        return row.game if row is not None else games.default().id

    def prompt_choices(self, prompt_id: int, user_id: str) -> PromptNote | None:
        """An open decision's note for its seat's current holder (to open it privately); None otherwise."""
        with self.store.transaction() as tx:
            prompt = tx.prompt(prompt_id)
            if prompt is None or prompt.status != "open" or prompt.seat is None:
                return None
            row = tx.game(prompt.game_id)
            if row is None or row.status != "active":
                return None
            game = self._load(tx, row)
            if game.user_of(prompt.seat).user_id != user_id:
                return None
            decision = next((d for d in game.decisions() if d.seat == prompt.seat and d.key == prompt.key), None)
            return self._note(game, prompt, decision) if decision else None

    # reading
    def _board(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The public state of the channel's game."""
        game = self._require_running(tx, cmd)
        view = game.rename_view(game.engine.view(game.state, None))
        text = game.entry.texts.board(view)
        return Outcome(True, text, board=view, game_id=game.id, version=game.row.version,
                       image=self._render(game.entry, view))

    def _hand(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The caller's private view (for their eyes only)."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        return Outcome(True, self._hand_text(game, seat), game_id=game.id, version=game.row.version)

    def _log(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The recent actions in words; `since:me`, those since the caller's own last action (the caller must play
        here; raises TableError otherwise)."""
        game = self._require_running(tx, cmd, finished_ok=True)
        if cmd.arg.strip().lower().replace(" ", "").replace("=", ":") in ("since:me", "sinceme"):
            seat = game.seat_of(cmd.who.user_id)
            if seat is None:
                raise TableError("`log since:me` is for the players of this game: you have no seat here.")
            since = self._digest(tx, game, seat, limit=LOG_LINES)
            return Outcome(True, "\n".join(since) or "Nothing has happened since your last move.", game_id=game.id)
        lines = [log_line(game, r) for r in tx.recent_actions(game.id, LOG_LINES)]
        return Outcome(True, "\n".join(lines) or "Nothing has happened yet.", game_id=game.id)

    @staticmethod
    def _digest(tx: Tx, game: Loaded, seat: int, limit: int = DIGEST_LINES) -> list[str]:
        """The public record since the seat's own last action: a heading, then up to `limit` lines, newest last."""
        since = tx.actions_since(game.id, seat, limit, not_by=(STANDIN_AUTHOR, TIMEOUT_AUTHOR))
        if not since.rows:
            return []
        more = f" (the last {len(since.rows)} of {since.total})" if since.total > len(since.rows) else ""
        head = f"Since your last move{more}:" if since.acted else f"So far{more}:"
        return [head] + [log_line(game, r) for r in since.rows]

    def _score(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The final or projected score, as the caller may know it."""
        game = self._require_running(tx, cmd, finished_ok=True)
        viewer = game.seat_of(cmd.who.user_id)
        return Outcome(True, game.rename(describe.scoreboard(game.engine.score(game.state, viewer))),
                       game_id=game.id)

    def _rules(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Look a rule up by topic, in the channel's game (the default game when there is none)."""
        from bot import rules

        row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id)
        entry = games.get(row.game) if row else games.default()
        topic = cmd.arg.strip()
        if not topic:
            return Outcome(True, f"{entry.title} rules topics: " + "; ".join(rules.topics(entry.id)) + ".")
        component = entry.texts.lookup(topic) if entry.texts.lookup else None
        if component is not None:
            return Outcome(True, component)
        found = rules.lookup(entry.id, topic)
        if not found:
            examples = ", ".join(rules.topics(entry.id)[:3])
            raise TableError(f"No {entry.title} rule section matches '{topic}'. Try a topic like {examples}.")
        return Outcome(True, rules.format_section(found[0]))

    def topics(self, where: Where) -> list[str]:
        """What `rules` knows in a channel's game: its rules sections, then its components by name."""
        from bot import rules

        entry = games.get(self.game_at(where))
        return rules.topics(entry.id) + (entry.texts.names() if entry.texts.names else [])

    def _check(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Say whether an action would be legal now and what it would do, without doing it."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        try:
            action = game.engine.parse(game.state, seat, cmd.arg)
        except IllegalAction as exc:
            return Outcome(True, game.rename(f"No: {exc.reason} ({exc.rule})"), game_id=game.id)
        verdict = game.engine.check(game.state, seat, action)
        if not verdict.legal:
            return Outcome(True, game.rename(f"No: {verdict.reason} ({verdict.rule})"), game_id=game.id)
        return Outcome(True, game.rename("Yes. " + " ".join(verdict.outcome)), game_id=game.id)

    def _undo(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Take back the caller's own last action, if nothing was drawn or revealed and play has not moved on."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
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
        outcome = self._after_change(tx, game, moment, [f"{cmd.who.name} takes back '{said}'."])
        outcome.reply = "Undone."
        return outcome

    def _render(self, entry: GameEntry, view: dict[str, Any] | None) -> bytes | None:
        """The table image of a public view, when images are on and the game has a renderer."""
        return entry.render(view) if self.images and entry.render and view is not None else None

    # maintenance
    def verify(self, game_id: int, *, write: bool = False) -> tuple[str, str]:
        """Replay a game's log from its seed: (same, differs, fails or no state; detail); write stores the replay."""
        with self.store.transaction() as tx:
            row = tx.game(game_id)
            if row is None or row.status == "lobby":
                return "no state", "no such running or finished game"
            game = self._load(tx, row)
            try:
                replayed = replay(game.engine, record_of(game, tx.actions(game.id)))
            except EngineError as exc:
                return "fails", _error_text(exc)
            if game.engine.to_json(replayed) == game.engine.to_json(game.state):
                return "same", f"{len(tx.actions(game.id))} actions replay to the stored state"
            if write:
                tx.save_state(row, lambda: game.engine.to_json_text(replayed))
            return "differs", "the replayed state differs from the stored one" + (" (replay stored)" if write else "")

    def game_ids(self) -> list[int]:
        """Every game that has a state (running or finished)."""
        with self.store.transaction() as tx:
            return [g.id for g in tx.games() if g.id is not None and g.status != "lobby"]

    # deadlines
    def due(self, moment: datetime | None = None, shards: ShardSet | None = None) -> list[Outcome]:
        """Act on every decision (of servers on these shards, or anywhere) whose deadline has passed: its default
        applies, or its holder is reminded."""
        moment = moment or now()
        with self.store.transaction() as tx:
            game_ids = tx.due_game_ids(moment, shards)
        outcomes = []
        for game_id in game_ids:
            try:
                with self.store.transaction() as tx:
                    found = self._due_game(tx, game_id, moment)
                    for outcome in found:
                        tx.add_outbox(outbox_rows(outcome, tx.now()))
                    outcomes += found
            except EngineError as exc:  # pragma: no cover - a stored answer the engine now refuses
                outcomes.append(Outcome(False, _error_text(exc), game_id=game_id))
        return outcomes

    def _due_game(self, tx: Tx, game_id: int, moment: datetime) -> list[Outcome]:
        """Process one game's overdue decisions: defaults first, then one reminder for the rest."""
        row = tx.game(game_id)
        assert row is not None
        if row.status != "active":
            self._close_prompts(tx, game_id)
            return []
        game = self._load(tx, row)
        outcomes = []
        sync = Outcome(True, game_id=game_id, version=row.version, where=Where(row.guild_id, row.channel_id))
        self._sync_decisions(tx, game, moment, sync)  # adopts rows written before an upgrade
        if sync.opened:
            outcomes.append(Outcome(True, opened=sync.opened, closed=sync.closed, game_id=game_id,
                                    version=row.version, where=sync.where))
        overdue = [p for p in game.open_prompts(tx) if aware(p.deadline) <= moment]
        defaults = [p for p in overdue if orjson.loads(p.payload).get("default") is not None]
        timed = [p for p in overdue if p not in defaults and "clock" in orjson.loads(p.payload)]
        for prompt in defaults:
            if prompt.answer is None:
                payload = orjson.loads(prompt.payload)
                prompt.answer, payload["timed_out"] = payload["default"], True
                prompt.payload = json_text(payload)
                tx.save_prompt(prompt)
        ran_out, notices = self._clocks_due(tx, game, timed, moment)
        events = self._settle(tx, game) if defaults or game.standing_in else []
        if events:
            outcomes.append(self._after_change(tx, game, moment, [*ran_out, *events]))
        outcomes += notices
        reminded = self._remind(tx, game, [p for p in overdue if p not in defaults and p not in timed], moment)
        if reminded:
            outcomes.append(reminded)
        return outcomes

    def _clocks_due(self, tx: Tx, game: Loaded, prompts: list[PromptRecord], moment: datetime
                    ) -> tuple[list[str], list[Outcome]]:
        """Act on clocks that need attention: warn a seat, or carry out what the table chose for a clock that ran
        out (the stand-in is marked to play; a seat offered to substitutes or the host asked, again every
        reminder_hours until someone acts). Returns the lines that go before the stand-in's moves, and messages."""
        clock = Clock.of(game.options)
        again = timedelta(hours=int(game.options.get("reminder_hours", self.defaults[1])))
        ran_out: list[str] = []
        notices: list[Outcome] = []
        for prompt in prompts:
            payload = orjson.loads(prompt.payload)
            timer, seat = payload["clock"], prompt.seat or 0
            name, phrase = game.user_of(seat).name, payload.get("phrase", "decide")
            if timer["stage"] == "running":
                timer["stage"], prompt.deadline = "warned", clocks.ends(timer)
                left = clocks.say(prompt.deadline - moment)
                notices.append(self._notice(game, [f"{name}, your clock runs out in {left}: you are to {phrase}."],
                                            [game.user_of(seat).user_id]))
            elif clock.on_timeout == "standin":
                game.standing_in.add(seat)
                timer["stage"], prompt.deadline = "out", moment + again  # closed once the stand-in has played
                ran_out.append(f"{name}'s clock ran out ({clocks.say(clock.pace)} for a decision).")
            else:
                first = timer["stage"] == "warned"
                timer["stage"], prompt.deadline = "out", moment + again
                notices.append(self._ran_out(game, seat, phrase, first, clock.on_timeout))
                if first and clock.on_timeout == "sub":
                    self._save_options(tx, game.row, game.options | {
                        "sub_open": sorted({*game.options.get("sub_open", []), seat})})
            prompt.payload = json_text(payload | {"clock": timer})
            tx.save_prompt(prompt)
        return ran_out, notices

    def _ran_out(self, game: Loaded, seat: int, phrase: str, first: bool, on_timeout: str) -> Outcome:
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
        return self._notice(game, [text], [host, game.user_of(seat).user_id])

    @staticmethod
    def _notice(game: Loaded, lines: list[str], mention: list[str]) -> Outcome:
        """A channel message about the game that changes nothing in it."""
        return Outcome(True, public=lines, mention=mention, game_id=game.id, version=game.row.version,
                       where=Where(game.row.guild_id, game.row.channel_id))

    @staticmethod
    def _save_options(tx: Tx, row: GameRecord, options: dict[str, Any]) -> None:
        """Store a table's changed options (clock settings, time away, seats offered to substitutes)."""
        row.options = json.dumps(options, sort_keys=True)
        tx.set_status(row, row.status)

    def _remind(self, tx: Tx, game: Loaded, prompts: list[PromptRecord], moment: datetime) -> Outcome | None:
        """One reminder for overdue decisions without a default, mentioning their holders; pushes their deadlines."""
        hours = int(game.options.get("reminder_hours", self.defaults[1]))
        due = set(game.engine.to_act(game.state))
        users = []
        for prompt in prompts:
            if prompt.status != "open":
                continue
            prompt.deadline = moment + timedelta(hours=hours)
            tx.save_prompt(prompt)
            if prompt.seat in due:
                users.append(game.user_of(prompt.seat).user_id)
        if not users:
            return None
        return self._notice(game, [f"Reminder: {self._waiting(game)}."], users)

    # the outbox
    def pending_messages(self, limit: int = OUTBOX_BATCH,
                         shards: ShardSet | None = None) -> tuple[list[OutboxRow], int]:
        """Queued messages (for servers on these shards, or anywhere) not yet sent, oldest first (the sender keeps
        order per destination), and the newest queued message's id."""
        with self.store.transaction() as tx:
            return tx.pending_outbox(limit, shards), tx.last_outbox_id()

    def messages_sent(self, row_ids: list[int], moment: datetime | None = None) -> None:
        """Record that queued messages were delivered."""
        if row_ids:
            with self.store.transaction() as tx:
                tx.mark_sent(row_ids, moment or now())

    def message_failed(self, row_id: int, error: str, *, permanent: bool, moment: datetime | None = None) -> None:
        """Record a failed delivery: retried later with back-off, or (permanent) given up and reported to the host.

        The host hears once per game and channel about a channel Keywood cannot post in.
        """
        moment = moment or now()
        with self.store.transaction() as tx:
            row = tx.outbox_row(row_id)
            if row is None:
                return
            row.attempts += 1
            row.last_error = error[:500]
            if not permanent:
                row.next_attempt_at = moment + timedelta(seconds=min(2 ** row.attempts, MAX_BACKOFF_SECONDS))
                tx.save_outbox(row)
                return
            row.status = "failed"
            tx.save_outbox(row)
            if row.recipient is None:
                self._report_failure(tx, row)

    def _report_failure(self, tx: Tx, row: OutboxRow) -> None:
        """Tell the game's host, once, that Keywood cannot post in the game's channel, and what to fix."""
        game = tx.game(row.game_id) if row.game_id is not None else None
        if game is None or any(orjson.loads(n.payload).get("about") == row.channel_id
                               for n in tx.outbox_kinds(row.game_id, "notice")):
            return
        text = f"Keywood cannot post in <#{row.channel_id}> ({row.last_error}). " + _what_to_fix(row.last_error)
        tx.add_outbox([OutboxRow(game_id=row.game_id, guild_id=row.guild_id, channel_id=row.channel_id,
                                 recipient=game.host_id, kind="notice",
                                 payload=json_text({"text": text, "about": row.channel_id})).model_dump(
                                     exclude={"id"})])

    def dms_closed(self, user_id: str, moment: datetime | None = None) -> bool:
        """Whether a user's DMs were found closed recently (then Keywood does not try them again)."""
        with self.store.transaction() as tx:
            closed = tx.recipient(user_id).dms_closed_at
        return closed is not None and aware(closed) > (moment or now()) - DM_RETRY

    def note_dms(self, user_id: str, *, open_: bool, moment: datetime | None = None) -> bool:
        """Record whether a user's DMs are open; True when they were just found closed and not yet told so."""
        moment = moment or now()
        with self.store.transaction() as tx:
            row = tx.recipient(user_id)
            if open_:
                row.dms_closed_at = None
                tx.save_recipient(row)
                return False
            row.dms_closed_at = moment
            tell = row.told_at is None
            row.told_at = row.told_at or moment
            tx.save_recipient(row)
            return tell

    # loading and permissions
    def _require_game(self, tx: Tx, cmd: Command) -> GameRecord:
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

    def _require_running(self, tx: Tx, cmd: Command, finished_ok: bool = False) -> Loaded:
        """The channel's running game with its state; raises TableError otherwise."""
        row = self._require_game(tx, cmd) if not finished_ok else self._latest_game(tx, cmd)
        if row.status == "lobby":
            raise TableError(f"The game has not started yet; the host starts it with {cmd.typed('start')}.")
        return self._load(tx, row)

    def _latest_game(self, tx: Tx, cmd: Command) -> GameRecord:
        """The channel's live game, or else its most recent one."""
        row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id) or tx.latest_game(
            cmd.where.guild_id, cmd.where.channel_id, "finished")
        if row is None:
            raise TableError(f"There is no game in this channel. Start one with {cmd.typed('new')}.")
        return row

    def _load(self, tx: Tx, row: GameRecord) -> Loaded:
        """Read a game's seats and state."""
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
        self._remember(row.id, row.version, state)
        return Loaded(row, tx.seats(row.id), entry, state)

    def _remember(self, game_id: int, version: int, state: Any, game: Loaded | None = None) -> None:
        """Keep a committed state in memory, keyed by its version (another process's change misses it), with what
        the command that made it worked out from it (its decisions, legal actions and trial moves), so the next need
        not; only the KEPT_STATES games played most recently are kept."""
        known = game.known(version) if game is not None and game.state is state else Known(version, state)
        with self._states_lock:
            self._states.pop(game_id, None)  # last in the dict's order: the most recently used
            self._states[game_id] = known
            if len(self._states) > KEPT_STATES:
                del self._states[next(iter(self._states))]

    def _require_seat(self, game: Loaded, cmd: Command) -> int:
        """The caller's seat; raises TableError when they are not playing (saying so if their seat was handed on)."""
        seat = game.seat_of(cmd.who.user_id)
        if seat is None:
            handed = [h for h in game.options.get("handovers", []) if h["from"] == cmd.who.user_id]
            if handed:
                raise TableError(f"Your seat was handed to {game.user_of(handed[-1]['seat']).name}; "
                                 "you no longer play in this game.")
            raise TableError("You are not a player in this game.")
        return seat

    def _require_host(self, row: GameRecord, cmd: Command, what: str) -> None:
        """Raise TableError unless the caller is the host or a server admin."""
        if cmd.who.user_id != row.host_id and not cmd.who.is_admin:
            raise TableError(f"Only the host or a server admin can {what}.")


def record_of(game: Loaded, rows: list[ActionRow]) -> Playout:
    """A stored game's record up to some log rows, for replay: the names the engine knows, the seed, its options."""
    names = game.options.get("names") or [s.name for s in game.seats]
    return Playout(names, game.row.seed, game.entry.engine_options(game.options), [(r.seat, r.notation) for r in rows])


def log_line(game: Loaded, row: ActionRow) -> str:
    """One action of the log in words: '12. Ben: ...', marked when Keywood's stand-in or a timeout chose it."""
    by = {STANDIN_AUTHOR: " (Keywood's stand-in)", TIMEOUT_AUTHOR: " (no answer in time)"}.get(row.author_id, "")
    # Rows stored before 2026-11-27 end in a bare colon when the action had no public events.
    return f"{row.seq}. {game.user_of(row.seat).name}{by}: {game.rename(row.summary.removesuffix(':'))}"


def is_computer(user_id: str) -> bool:
    """Whether a seat's user is one of Keywood's computer players."""
    return user_id.startswith(COMPUTER)


def position(items: list[Any], item: Any) -> int | None:
    """Where item first is in items (None: nowhere), in one pass: a turn has hundreds of legal actions."""
    try:
        return items.index(item)
    except ValueError:
        return None


def outbox_rows(outcome: Outcome, moment: datetime) -> list[dict[str, Any]]:
    """What an accepted outcome must send, as outbox rows queued at moment: the channel message first, then private
    messages."""
    if not outcome.ok or outcome.where is None:
        return []
    where = outcome.where
    rows: list[dict[str, Any]] = []

    def row(kind: str, recipient: str | None, payload: dict[str, Any], image: bytes | None = None) -> None:
        rows.append({"game_id": outcome.game_id, "guild_id": where.guild_id, "channel_id": where.channel_id,
                     "recipient": recipient, "kind": kind, "payload": json_text(payload), "image": image,
                     "status": "pending", "attempts": 0, "next_attempt_at": moment, "last_error": "",
                     "created_at": moment})

    if outcome.public:
        buttons = None
        if len(outcome.choices) == 1 and outcome.game_id is not None and outcome.version is not None:
            user_id, choices = next(iter(outcome.choices.items()))
            buttons = {"game": outcome.game_id, "seat": outcome.seats.get(user_id, 0), "version": outcome.version,
                       "choices": choices}
        mention = [m for m in outcome.mention if not is_computer(m)]
        row("public", None, {"text": "\n".join(outcome.public), "mention": mention, "buttons": buttons},
            outcome.image)
    for user_id, lines in outcome.private.items():
        if not is_computer(user_id):  # nobody reads a computer seat's messages
            row("private", user_id, {"text": "\n".join(lines)})
    for note in (n for n in outcome.opened if not is_computer(n.user_id)):
        row("decision", note.user_id, {"prompt": note.prompt_id, "text": note.text, "choices": list(note.choices),
                                       "deadline": note.deadline.isoformat(), "default": note.default,
                                       "kind": note.kind, "phrase": note.phrase, "clocked": note.clocked,
                                       "pinged": note.user_id in outcome.mention},
            outcome.image if note.with_image else None)
    return rows


def _what_to_fix(error: str) -> str:
    """What a host can do about a channel message Keywood could not deliver, by the reason it failed."""
    if "permission" in error:
        fix = ("Please give Keywood the View Channel, Send Messages, Send Messages in Threads and Attach Files "
               "permissions there.")
    elif "exist" in error:
        fix = "Check that the channel (or thread) still exists and that Keywood can see it."
    else:
        fix = "That message was skipped; if it happens again, please report it to whoever runs Keywood."
    return fix + " The game goes on: its players can still use /board and /hand."


def _repeats(text: str) -> tuple[str, int]:
    """'take pig x3' -> ('take pig', 3); text without a repeat count -> (text, 1); raises TableError past 20."""
    match = REPEAT.match(text.strip())
    if match is None:
        return text, 1
    times = int(match["times"])
    if not 1 <= times <= MAX_REPEAT:
        raise TableError(f"A repeat count is from 1 to {MAX_REPEAT}, not {times}.")
    return match["action"], times


def grouped(texts: list[str], limit: int) -> list[str]:
    """Suggestions that fit in `limit`: the texts themselves, or else their shared first words ('play green'), as
    many words as still fit, so that a person narrows them down as they type."""
    if len(texts) <= limit:
        return texts
    best: list[str] = []
    for depth in range(1, max(len(t.split()) for t in texts) + 1):
        groups = list(dict.fromkeys(" ".join(t.split()[:depth]) for t in texts))
        if len(groups) > limit:
            return best if len(best) > 1 else groups[:limit]  # one group says nothing new: show the next words
        best = groups
    return best[:limit]


def _reusable(prompt: PromptRecord, decision: Decision) -> bool:
    """Whether an ending prompt can be rewritten for a new decision: both turns with public choices and no default.

    Nobody holds a button tied to such a prompt's id (turn buttons carry the table's version; a private turn step,
    sent by DM with buttons, is never reused), so its row can serve the next turn step, whoever's it is: one write
    instead of closing one row and inserting another.
    """
    payload = orjson.loads(prompt.payload)
    return (prompt.kind == decision.kind == TURN and payload.get("must") and payload.get("default") is None
            and payload.get("public", True) and decision.default is None and prompt.answer is None)


def _error_text(exc: Exception) -> str:
    """A friendly sentence for a refused command."""
    if isinstance(exc, IllegalAction):
        return f"Not allowed: {exc}"
    if isinstance(exc, InvalidAction | AmbiguousAction):
        return str(exc)
    return str(exc)
