"""A stored game as one transaction reads it (Loaded): its row, seats, registry entry and current state, with what
was worked out from that state (the engine's open decisions, legal actions, trial moves) and the names to show.

The table (bot/table/) and the replay export (bot/export.py) both read games through it, so it imports neither.
A game row's options and a prompt row's payload are typed records (bot/records.py); the store alone turns them into
JSON and back (bot/store/rows.py, StoredJson).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from bot.games import GameEntry
from bot.records import TableNotes
from bot.store import ActionRow, GameRecord, PromptRecord, SeatRecord, Tx
from engine.core import Decision, Event, Game, Playout, clone

TIMEOUT_AUTHOR = "timeout"
AUTO_AUTHOR = "auto"  # an action Keywood played because it was the only one possible
STANDIN_AUTHOR = "standin"  # an action Keywood's stand-in chose for a computer seat (engine.standin)


@dataclass(frozen=True)
class Trial:
    """A legal action tried on a copy of a state: the state after it, its events, and the same seat's legal actions
    there (None when the seat does not act there)."""

    after: Any
    events: list[Event]
    again: list[Any] | None


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
        """The game's stored options (a copy: a change is stored by writing the row's options)."""
        return dict(self.row.options.values)

    @property
    def notes(self) -> TableNotes:
        """The table's stored notes about the game."""
        return self.row.options.notes

    def seat_of(self, user_id: str) -> int | None:
        """The seat of a user, if seated."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def user_of(self, seat: int) -> SeatRecord:
        """The seat row of a seat number."""
        return self.seats[seat]

    def engine_names(self) -> list[str]:
        """The seats' names as the engine knows them (those at the start; a table stored before they were kept: the
        current holders')."""
        return list(self.notes.names or [s.name for s in self.seats])

    def rename(self, text: str) -> str:
        """Engine texts with each handed-over seat's original name replaced by its current holder's."""
        for old, new in self._renames():
            text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", new, text)
        return text

    def _renames(self) -> list[tuple[str, str]]:
        """(engine name, holder name) of every seat whose holder is not the one the engine knows."""
        return [(old, seat.name) for old, seat in zip(self.engine_names(), self.seats, strict=False)
                if old != seat.name]

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


def position(items: list[Any], item: Any) -> int | None:
    """Where item first is in items (None: nowhere), in one pass: a turn has hundreds of legal actions."""
    try:
        return items.index(item)
    except ValueError:
        return None


def record_of(game: Loaded, rows: list[ActionRow]) -> Playout:
    """A stored game's record up to some log rows, for replay: the names the engine knows, the seed, its options."""
    return Playout(game.engine_names(), game.row.seed, game.entry.engine_options(game.options),
                   [(r.seat, r.notation) for r in rows])


def log_line(game: Loaded, row: ActionRow) -> str:
    """One action of the log in words: '12. Ben: ...', marked when Keywood's stand-in or a timeout chose it."""
    by = {STANDIN_AUTHOR: " (Keywood's stand-in)", TIMEOUT_AUTHOR: " (no answer in time)"}.get(row.author_id, "")
    # Rows stored before 2026-11-27 end in a bare colon when the action had no public events.
    return f"{row.seq}. {game.user_of(row.seat).name}{by}: {game.rename(row.summary.removesuffix(':'))}"
