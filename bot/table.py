"""The table: one Command in, one Outcome out, for every transport (Discord, terminal, tests).

It loads the game, asks the engine, saves the result in one transaction, and says what to post, whom to
tell privately, whom to mention and which prompts to open or close. It knows no Discord and no SQL.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot import describe
from bot.store import GameRow, PromptRow, SeatRow, Store, Tx, now
from engine.core import (
    AmbiguousAction,
    EngineError,
    Game,
    IllegalAction,
    InvalidAction,
    Playout,
    Scoreboard,
    replay,
)
from engine.keyper import GAME as KEYPER
from render.keyper import render as render_keyper
from render.keyper import render_scoreboard

GAMES: dict[str, Game[Any, Any]] = {"keyper": KEYPER}
RENDERERS: dict[str, Callable[[dict[str, Any]], bytes]] = {"keyper": render_keyper}
SCOREBOARDS: dict[str, Callable[[Scoreboard], bytes]] = {"keyper": render_scoreboard}
LOG_LINES = 15
MAX_CHOICES = 20
TABLE_OPTIONS = ("seed", "min_players", "max_players", "joiner_deadline_minutes", "reminder_hours", "names")


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


@dataclass(frozen=True)
class PromptNote:
    """A prompt opened for one person: what to ask, the choices and the deadline."""

    prompt_id: int
    game_id: int
    kind: str
    user_id: str
    seat: int
    deadline: datetime
    text: str
    choices: tuple[str, ...]
    version: int


@dataclass
class Outcome:
    """What a command did and what the transport should say, to whom."""

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


class TableError(Exception):
    """A refused command: the message is for the person who gave it; nothing is stored."""


class TableChanged(TableError):
    """Another command changed the game while this one was being applied."""


@dataclass
class Loaded:
    """A game row with its seats, engine and current state, inside one transaction."""

    row: GameRow
    seats: list[SeatRow]
    engine: Game[Any, Any]
    state: Any
    done_prompts: list[int] = field(default_factory=list)

    @property
    def id(self) -> int:
        """The game's id."""
        assert self.row.id is not None
        return self.row.id

    def seat_of(self, user_id: str) -> int | None:
        """The seat of a user, if seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> SeatRow:
        """The seat row of a seat number."""
        return self.seats[seat]


class Table:
    """Handles commands against a store."""

    def __init__(
        self, store: Store, *, images: bool = True, joiner_minutes: int = 720, reminder_hours: int = 24
    ) -> None:
        self.store = store
        self._states: dict[int, tuple[int, Any]] = {}  # game id -> (version, state): skips decoding snapshots
        self._states_lock = threading.Lock()
        self.images = images
        self.defaults = (joiner_minutes, reminder_hours)
        self._verbs: dict[str, Callable[[Tx, Command, datetime], Outcome]] = {
            "new": self._new, "join": self._join, "leave": self._leave, "start": self._start,
            "abandon": self._abandon, "play": self._play, "board": self._board, "hand": self._hand,
            "log": self._log, "score": self._score, "rules": self._rules, "check": self._check,
            "undo": self._undo, "settings": self._settings, "answer": self._answer, "kick": self._kick,
        }

    def handle(self, command: Command) -> Outcome:
        """Carry out one command in one transaction; a refusal changes nothing and explains itself."""
        handler = self._verbs.get(command.verb)
        if handler is None:
            verbs = ", ".join(sorted(self._verbs))
            return Outcome(False, f"Unknown command '{command.verb}'. Commands: {verbs}.")
        moment = command.at or now()
        try:
            with self.store.transaction() as tx:
                outcome = handler(tx, command, moment)
        except (TableError, EngineError) as exc:
            return Outcome(False, _error_text(exc), where=command.where)
        outcome.where = outcome.where or command.where
        return outcome

    # lobby
    def _new(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Open a lobby for a game in this channel, with the caller as host and first player."""
        game_name = (cmd.arg or "keyper").lower()
        if game_name not in GAMES:
            raise TableError(f"Keywood does not know the game '{cmd.arg}'. Games: {', '.join(GAMES)}.")
        if tx.live_game(cmd.where.guild_id, cmd.where.channel_id):
            raise TableError("A game is already open in this channel; finish or abandon it first.")
        options = self._game_options(tx, game_name, cmd)
        seed = int(options.pop("seed", secrets.randbelow(2**31)))
        row = tx.add_game(GameRow(guild_id=cmd.where.guild_id, channel_id=cmd.where.channel_id, game=game_name,
                                  options=json.dumps(options, sort_keys=True), seed=seed, host_id=cmd.who.user_id))
        assert row.id is not None
        tx.add_seat(row.id, cmd.who.user_id, cmd.who.name)
        limits = f"{options['min_players']}-{options['max_players']} players"
        text = f"{cmd.who.name} opened a {game_name.title()} table ({limits}). Join with `join`; the host starts."
        return Outcome(True, "Table opened.", public=[text], game_id=row.id, version=row.version)

    def _game_options(self, tx: Tx, game_name: str, cmd: Command) -> dict[str, Any]:
        """Table options with the server's defaults filled in; raises TableError on bad values."""
        engine = GAMES[game_name]
        settings = tx.settings(cmd.where.guild_id, *self.defaults)
        options: dict[str, Any] = {
            "min_players": engine.min_players, "max_players": engine.max_players,
            "joiner_deadline_minutes": settings.joiner_deadline_minutes, "reminder_hours": settings.reminder_hours,
        }
        engine_options = {k: v for k, v in cmd.options.items() if k not in TABLE_OPTIONS}
        try:
            engine.setup([f"P{i}" for i in range(engine.min_players)], 0, engine_options)
        except ValueError as exc:
            raise TableError(str(exc)) from exc
        options.update(cmd.options)
        for key in ("min_players", "max_players", "joiner_deadline_minutes", "reminder_hours"):
            options[key] = positive_int(key, options[key])
        low, high = options["min_players"], options["max_players"]
        if not engine.min_players <= low <= high <= engine.max_players:
            raise TableError(f"{game_name.title()} is for {engine.min_players} to {engine.max_players} players.")
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
        if len(seats) >= json.loads(row.options)["max_players"]:
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
        options = json.loads(row.options)
        if len(seats) < options["min_players"]:
            raise TableError(f"At least {options['min_players']} players are needed; {len(seats)} seated.")
        engine = GAMES[row.game]
        state = engine.setup([s.name for s in seats], row.seed, _engine_options(options))
        row.options = json.dumps(options | {"names": [s.name for s in seats]}, sort_keys=True)
        tx.set_status(row, "active")
        tx.save_snapshot(row.id, row.version + 1, engine.to_json(state))
        if not tx.bump_version(row):
            raise TableChanged("The table changed while starting; try again.")
        game = Loaded(row, seats, engine, state)
        outcome = self._after_change(tx, game, moment, [f"The {row.game.title()} game starts (seed {row.seed})."])
        outcome.private = self._hands(game, list(range(len(seats))))
        outcome.reply = "Game started."
        return outcome

    def _abandon(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """End the channel's game without a result (host or admin only)."""
        row = self._require_game(tx, cmd)
        self._require_host(row, cmd, "abandon the game")
        assert row.id is not None
        tx.set_status(row, "abandoned")
        closed = self._close_prompts(tx, row.id)
        return Outcome(True, "Game abandoned.", public=[f"{cmd.who.name} abandoned the game."], closed=closed,
                       game_id=row.id)

    def _settings(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Change the server's defaults for new games (admins only)."""
        if not cmd.who.is_admin:
            raise TableError("Only a server admin can change Keywood's settings.")
        row = tx.settings(cmd.where.guild_id, *self.defaults)
        for key in ("joiner_deadline_minutes", "reminder_hours"):
            if key in cmd.options:
                setattr(row, key, positive_int(key, cmd.options[key]))
        tx.save_settings(row)
        text = f"Joiner deadline {row.joiner_deadline_minutes} minutes; turn reminder every {row.reminder_hours} hours."
        return Outcome(True, text)

    # play
    def _play(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Apply an action from a seated player, or record an early joiner answer."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        if cmd.seat is not None and cmd.seat != seat:
            raise TableError("That choice was offered to another player.")
        if cmd.version is not None and cmd.version != game.row.version:
            raise TableChanged("The table has moved on since that choice was shown; nothing was changed.")
        return self._play_as(tx, game, seat, cmd, moment)

    def _answer(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Answer an invitation prompt (a DM button): valid while the prompt is open and addressed to the caller."""
        prompt = tx.prompt(cmd.prompt_id) if cmd.prompt_id is not None else None
        if prompt is None or prompt.status != "open":
            raise TableChanged("This invitation has closed; nothing was changed.")
        if prompt.user_id != cmd.who.user_id or prompt.seat is None:
            raise TableError("This invitation is for another player.")
        row = tx.game(prompt.game_id)
        if row is None or row.status != "active":
            raise TableChanged("This game is no longer running.")
        return self._play_as(tx, self._load(tx, row), prompt.seat, cmd, moment)

    def _play_as(self, tx: Tx, game: Loaded, seat: int, cmd: Command, moment: datetime) -> Outcome:
        """Apply the command's action for a seat, or keep it as an early answer to an invitation."""
        action = game.engine.parse(game.state, seat, cmd.arg)
        if seat not in game.engine.to_act(game.state) and action in game.engine.pending_answers(game.state, seat):
            return self._record_answer(tx, game, seat, action, moment)
        lines = self._apply(tx, game, seat, cmd.who.user_id, action)
        lines += self._apply_queued(tx, game, moment)
        outcome = self._after_change(tx, game, moment, lines)
        outcome.reply = f"Done: {game.engine.format(action)}."
        return outcome

    def _apply(self, tx: Tx, game: Loaded, seat: int, author: str, action: Any) -> list[str]:
        """Apply one action and store it: log row, snapshot, version; returns the log lines."""
        new_state, events = game.engine.apply(game.state, seat, action)
        summary = " ".join([game.engine.public_notation(action) + ":"] + [e.text for e in events])
        tx.append_action(game.row, seat, author, game.engine.format(action), summary)
        tx.save_snapshot(game.id, game.row.version + 1, game.engine.to_json(new_state))
        if not tx.bump_version(game.row):
            raise TableChanged("The table changed while your command was applied; nothing was changed.")
        game.state = new_state
        return [e.text for e in events]

    def _record_answer(self, tx: Tx, game: Loaded, seat: int, action: Any, moment: datetime) -> Outcome:
        """Keep an answer from an invitee whose turn to answer has not come; it applies in priority order."""
        prompt = self._open_prompt_for(tx, game.id, seat)
        if prompt is None:
            raise TableError("You have no open invitation to answer.")
        if prompt.answer is not None:
            raise TableError("You have already answered this invitation.")
        prompt.answer = game.engine.format(action)
        tx.save_prompt(prompt)
        waiting = game.engine.waiting_for(game.state)
        return Outcome(True, f"Answer kept: '{prompt.answer}'. It counts once the players before you decline "
                             f"({waiting}).", game_id=game.id, version=game.row.version)

    def _apply_queued(self, tx: Tx, game: Loaded, moment: datetime) -> list[str]:
        """Apply kept and timed-out answers of the seats whose turn to answer has come, in priority order."""
        lines: list[str] = []
        while not game.engine.is_over(game.state):
            answering = [s for s in game.engine.to_act(game.state) if game.engine.pending_answers(game.state, s)]
            ready = [(s, p) for s in answering
                     if (p := self._open_prompt_for(tx, game.id, s)) is not None and p.answer is not None]
            if not ready:
                return lines
            seat, prompt = ready[0]
            timed_out = bool(json.loads(prompt.payload).get("timed_out"))
            action = game.engine.parse(game.state, seat, prompt.answer or "")
            author = "timeout" if timed_out else (prompt.user_id or "")
            if timed_out:
                lines.append(f"{game.user_of(seat).name} did not answer in time.")
            lines += self._apply(tx, game, seat, author, action)
            prompt.status = "done"
            tx.save_prompt(prompt)
            game.done_prompts.append(prompt.id or 0)
        return lines

    def _open_prompt_for(self, tx: Tx, game_id: int, seat: int) -> PromptRow | None:
        """The open joiner prompt of a seat."""
        return next((p for p in tx.open_prompts(game_id, "joiner") if p.seat == seat), None)

    def _after_change(self, tx: Tx, game: Loaded, moment: datetime, lines: list[str]) -> Outcome:
        """Sync prompts, finish a game that ended, and describe the new state for the channel."""
        version, state = game.row.version, game.state
        tx.after_commit.append(lambda: self._remember(game.id, version, state))
        view = game.engine.view(game.state, None) if self.images else None  # only images need the whole view
        outcome = Outcome(True, public=list(lines), game_id=game.id, board=view, closed=list(game.done_prompts),
                          seats={s.user_id: s.seat for s in game.seats},
                          image=self._render(game.row.game, view) if view else None)
        if game.engine.is_over(game.state):
            tx.set_status(game.row, "finished")
            outcome.closed += self._close_prompts(tx, game.id)
            final = game.engine.score(game.state)
            outcome.public.append(describe.scoreboard(final))
            scoreboard_renderer = SCOREBOARDS.get(game.row.game) if self.images else None
            outcome.image = scoreboard_renderer(final) if scoreboard_renderer else outcome.image
        else:
            self._sync_prompts(tx, game, moment, outcome)
            outcome.public.append(describe.capitalise(game.engine.waiting_for(game.state)) + ".")
            to_act = game.engine.to_act(game.state)
            outcome.mention = [game.user_of(s).user_id for s in to_act]
            outcome.choices = self._choices(game, to_act)
            if len(to_act) > 1:  # simultaneous choices: each gets their own view privately
                outcome.private = self._hands(game, to_act)
        outcome.version = game.row.version
        outcome.where = Where(game.row.guild_id, game.row.channel_id)
        return outcome

    def _choices(self, game: Loaded, seats: list[int]) -> dict[str, list[str]]:
        """The legal actions of each seat to act, when few enough for buttons."""
        found = {}
        for seat in seats:
            legal = [game.engine.format(a) for a in game.engine.legal_actions(game.state, seat)]
            if 0 < len(legal) <= MAX_CHOICES:
                found[game.user_of(seat).user_id] = legal
        return found

    def _hands(self, game: Loaded, seats: list[int]) -> dict[str, list[str]]:
        """Each seat's private view, keyed by user id."""
        return {game.user_of(s).user_id: [describe.hand(game.engine.view(game.state, s), s)] for s in seats}

    def _sync_prompts(self, tx: Tx, game: Loaded, moment: datetime, outcome: Outcome) -> None:
        """Open invitations for every seat that may answer one, close those that no longer can; reset the reminder."""
        options = json.loads(game.row.options)
        pending = {s: game.engine.pending_answers(game.state, s) for s in range(len(game.seats))}
        pending = {s: answers for s, answers in pending.items() if answers}
        everything = tx.open_prompts(game.id)
        open_prompts = [p for p in everything if p.kind == "joiner"]
        for prompt in open_prompts:
            if prompt.seat not in pending:
                prompt.status = "closed"
                tx.save_prompt(prompt)
                outcome.closed.append(prompt.id or 0)
        have = {p.seat for p in open_prompts if p.seat in pending}
        deadline = moment + timedelta(minutes=int(options["joiner_deadline_minutes"]))
        for seat, answers in pending.items():
            if seat not in have:
                outcome.opened.append(self._open_joiner(tx, game, seat, answers, deadline))
        reminders = [p for p in everything if p.kind == "reminder"]
        self._reset_reminder(tx, game, reminders, moment + timedelta(hours=int(options["reminder_hours"])))

    def _open_joiner(self, tx: Tx, game: Loaded, seat: int, answers: list[Any], deadline: datetime) -> PromptNote:
        """Open one invitation prompt."""
        choices = tuple(game.engine.format(a) for a in answers)
        default = game.engine.format(answers[-1])
        seat_row = game.user_of(seat)
        row = tx.add_prompt(PromptRow(game_id=game.id, kind="joiner", seat=seat, user_id=seat_row.user_id,
                                      deadline=deadline, payload=json.dumps({"choices": choices, "default": default})))
        assert row.id is not None
        text = f"{game.row.game.title()}: you may join. {game.engine.waiting_for(game.state)}."
        return PromptNote(row.id, game.id, "joiner", seat_row.user_id, seat, deadline, text, choices,
                          game.row.version)

    def _reset_reminder(self, tx: Tx, game: Loaded, reminders: list[PromptRow], deadline: datetime) -> None:
        """Keep one turn reminder per game, due a reminder interval after the last change."""
        row = reminders[0] if reminders else PromptRow(game_id=game.id, kind="reminder", deadline=deadline)
        row.deadline = deadline
        tx.save_prompt(row)

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
            return Outcome(True, "Removed.", public=[f"{seat.name} was removed from the table."], game_id=row.id)
        replacement = str(cmd.options.get("replacement_id", ""))
        if not replacement:
            raise TableError("The game is running: name a replacement to take over the seat.")
        if any(s.user_id == replacement for s in tx.seats(row.id)):
            raise TableError("The replacement is already playing in this game.")
        name = str(cmd.options.get("replacement_name", replacement))
        leaving = seat.name
        tx.reassign_seat(seat, replacement, name)
        return Outcome(True, "Seat handed over.", public=[f"{name} takes over {leaving}'s seat."], game_id=row.id)

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
        options = game.engine.legal_actions(game.state, seat) or game.engine.pending_answers(game.state, seat)
        words = typed.lower().split()
        texts = [game.engine.format(a) for a in options]
        return [t for t in texts if all(w in t for w in words)][:limit]

    # reading
    def _board(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The public state of the channel's game."""
        game = self._require_running(tx, cmd)
        view = game.engine.view(game.state, None)
        return Outcome(True, describe.table(view), board=view, game_id=game.id, version=game.row.version,
                       image=self._render(game.row.game, view))

    def _hand(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The caller's private view (for their eyes only)."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        return Outcome(True, describe.hand(game.engine.view(game.state, seat), seat), game_id=game.id,
                       version=game.row.version)

    def _log(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The recent actions in words."""
        game = self._require_running(tx, cmd, finished_ok=True)
        rows = tx.recent_actions(game.id, LOG_LINES)
        lines = [f"{r.seq}. {game.user_of(r.seat).name}: {r.summary}" for r in rows]
        return Outcome(True, "\n".join(lines) or "Nothing has happened yet.", game_id=game.id)

    def _score(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """The final or projected score."""
        game = self._require_running(tx, cmd, finished_ok=True)
        return Outcome(True, describe.scoreboard(game.engine.score(game.state)), game_id=game.id)

    def _rules(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Look a rule up by topic."""
        from bot import rules

        row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id)
        found = rules.lookup(row.game if row else "keyper", cmd.arg)
        if not found:
            raise TableError(f"No rule section matches '{cmd.arg}'. Try a word like joiner, boat or fairs.")
        return Outcome(True, rules.format_section(found[0]))

    def _check(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Say whether an action would be legal now and what it would do, without doing it."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        try:
            action = game.engine.parse(game.state, seat, cmd.arg)
        except IllegalAction as exc:
            return Outcome(True, f"No: {exc.reason} ({exc.rule})", game_id=game.id)
        verdict = game.engine.check(game.state, seat, action)
        if not verdict.legal:
            return Outcome(True, f"No: {verdict.reason} ({verdict.rule})", game_id=game.id)
        return Outcome(True, "Yes. " + " ".join(verdict.outcome), game_id=game.id)

    def _undo(self, tx: Tx, cmd: Command, moment: datetime) -> Outcome:
        """Take back the caller's own last action, if nothing was drawn or revealed and play has not moved on."""
        game = self._require_running(tx, cmd)
        seat = self._require_seat(game, cmd)
        rows = tx.actions(game.id)
        if not rows or rows[-1].seat != seat or rows[-1].author_id == "timeout":
            raise TableError("You can only take back your own last action, and only before anyone else acts.")
        if seat not in game.engine.to_act(game.state):
            raise TableError("Play has passed to another player; that action stands.")
        before = replay(game.engine, self._playout(game, rows[:-1]))
        if game.engine.is_undo_barrier(before, game.state):
            raise TableError("That action drew a tile or boat, or revealed something hidden; it cannot be undone.")
        tx.mark_undone(rows[-1])
        tx.save_snapshot(game.id, game.row.version + 1, game.engine.to_json(before))
        if not tx.bump_version(game.row):
            raise TableChanged("The table changed while undoing; nothing was changed.")
        game.state = before
        outcome = self._after_change(tx, game, moment, [f"{cmd.who.name} takes back '{rows[-1].notation}'."])
        outcome.reply = "Undone."
        return outcome

    def _playout(self, game: Loaded, rows: list[Any]) -> Playout:
        """The game's record up to some actions, for replay."""
        options = json.loads(game.row.options)
        names = options.get("names") or [s.name for s in game.seats]
        return Playout(names, game.row.seed, _engine_options(options), [(r.seat, r.notation) for r in rows])

    def _render(self, game_name: str, view: dict[str, Any]) -> bytes | None:
        """The board image of a public view, when images are on and the game has a renderer."""
        renderer = RENDERERS.get(game_name) if self.images else None
        return renderer(view) if renderer else None

    # maintenance
    def verify(self, game_id: int, *, write: bool = False) -> tuple[str, str]:
        """Replay a game's log from its seed: (same, differs, fails or no state; detail); write stores the replay."""
        with self.store.transaction() as tx:
            row = tx.game(game_id)
            if row is None or row.status == "lobby":
                return "no state", "no such running or finished game"
            game = self._load(tx, row)
            try:
                replayed = replay(game.engine, self._playout(game, tx.actions(game.id)))
            except EngineError as exc:
                return "fails", _error_text(exc)
            if game.engine.to_json(replayed) == game.engine.to_json(game.state):
                return "same", f"{len(tx.actions(game.id))} actions replay to the stored state"
            if write:
                tx.save_snapshot(game.id, row.version + 1, game.engine.to_json(replayed))
                tx.bump_version(row)
            return "differs", "the replayed state differs from the stored one" + (" (replay stored)" if write else "")

    def game_ids(self) -> list[int]:
        """Every game that has a state (running or finished)."""
        with self.store.transaction() as tx:
            return [g.id for g in tx.games() if g.id is not None and g.status != "lobby"]

    # deadlines
    def due(self, moment: datetime | None = None) -> list[Outcome]:
        """Act on every prompt whose deadline has passed: expired invitations decline, reminders remind."""
        moment = moment or now()
        with self.store.transaction() as tx:
            game_ids = tx.due_game_ids(moment)
        outcomes = []
        for game_id in game_ids:
            try:
                with self.store.transaction() as tx:
                    outcomes += self._due_game(tx, game_id, moment)
            except EngineError as exc:  # pragma: no cover - a stored answer the engine now refuses
                outcomes.append(Outcome(False, _error_text(exc), game_id=game_id))
        return outcomes

    def _due_game(self, tx: Tx, game_id: int, moment: datetime) -> list[Outcome]:
        """Process one game's overdue prompts."""
        row = tx.game(game_id)
        assert row is not None
        if row.status != "active":
            self._close_prompts(tx, game_id)
            return []
        game = self._load(tx, row)
        where = Where(row.guild_id, row.channel_id)
        outcomes = []
        expired = [p for p in tx.open_prompts(game_id, "joiner") if p.deadline <= moment and p.answer is None]
        for prompt in expired:
            payload = json.loads(prompt.payload)
            prompt.answer, payload["timed_out"] = payload["default"], True
            prompt.payload = json.dumps(payload)
            tx.save_prompt(prompt)
        if expired:
            lines = self._apply_queued(tx, game, moment)
            if lines:
                outcomes.append(self._after_change(tx, game, moment, lines))
        for reminder in tx.open_prompts(game_id, "reminder"):
            if reminder.deadline <= moment:
                options = json.loads(row.options)
                reminder.deadline = moment + timedelta(hours=int(options["reminder_hours"]))
                tx.save_prompt(reminder)
                to_act = game.engine.to_act(game.state)
                text = f"Reminder: {game.engine.waiting_for(game.state)}."
                outcomes.append(Outcome(True, public=[text], mention=[game.user_of(s).user_id for s in to_act],
                                        game_id=game_id, version=row.version))
        for outcome in outcomes:
            outcome.where = where
        return outcomes

    # loading and permissions
    def _require_game(self, tx: Tx, cmd: Command) -> GameRow:
        """The command's game (by id, else the channel's open game); raises TableError when there is none."""
        if cmd.game_id is not None:
            by_id = tx.game(cmd.game_id)
            if by_id is None or by_id.status not in ("lobby", "active"):
                raise TableChanged("That game is no longer running.")
            return by_id
        row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id)
        if row is None:
            raise TableError("There is no game in this channel. Start one with `new`.")
        return row

    def _require_running(self, tx: Tx, cmd: Command, finished_ok: bool = False) -> Loaded:
        """The channel's running game with its state; raises TableError otherwise."""
        row = self._require_game(tx, cmd) if not finished_ok else self._latest_game(tx, cmd)
        if row.status == "lobby":
            raise TableError("The game has not started yet; the host starts it with `start`.")
        return self._load(tx, row)

    def _latest_game(self, tx: Tx, cmd: Command) -> GameRow:
        """The channel's live game, or else its most recent one."""
        row = tx.live_game(cmd.where.guild_id, cmd.where.channel_id) or tx.latest_game(
            cmd.where.guild_id, cmd.where.channel_id, "finished")
        if row is None:
            raise TableError("There is no game in this channel. Start one with `new`.")
        return row

    def _load(self, tx: Tx, row: GameRow) -> Loaded:
        """Read a game's seats and state."""
        assert row.id is not None
        engine = GAMES[row.game]
        with self._states_lock:
            cached = self._states.get(row.id)
        if cached is not None and cached[0] == row.version:  # engine states are never changed in place
            return Loaded(row, tx.seats(row.id), engine, cached[1])
        data = tx.snapshot(row.id)
        if data is None:
            raise TableError("This game has no stored state; an admin can run `keywood replay`.")
        state = engine.from_json(data)
        self._remember(row.id, row.version, state)
        return Loaded(row, tx.seats(row.id), engine, state)

    def _remember(self, game_id: int, version: int, state: Any) -> None:
        """Keep a committed state in memory, keyed by its version (another process's change misses it)."""
        with self._states_lock:
            self._states[game_id] = (version, state)

    def _require_seat(self, game: Loaded, cmd: Command) -> int:
        """The caller's seat; raises TableError when they are not playing."""
        seat = game.seat_of(cmd.who.user_id)
        if seat is None:
            raise TableError("You are not a player in this game.")
        return seat

    def _require_host(self, row: GameRow, cmd: Command, what: str) -> None:
        """Raise TableError unless the caller is the host or a server admin."""
        if cmd.who.user_id != row.host_id and not cmd.who.is_admin:
            raise TableError(f"Only the host or a server admin can {what}.")


def positive_int(key: str, value: Any) -> int:
    """A whole number of at least 1; raises TableError naming the option otherwise."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise TableError(f"{key} must be a whole number, not '{value}'.") from None
    if number < 1:
        raise TableError(f"{key} must be at least 1.")
    return number


def _engine_options(options: dict[str, Any]) -> dict[str, Any]:
    """The options meant for the engine, without the table's own."""
    return {k: v for k, v in options.items() if k not in TABLE_OPTIONS}


def _error_text(exc: Exception) -> str:
    """A friendly sentence for a refused command."""
    if isinstance(exc, IllegalAction):
        return f"Not allowed: {exc}"
    if isinstance(exc, InvalidAction | AmbiguousAction):
        return str(exc)
    return str(exc)
