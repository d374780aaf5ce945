"""A transaction's queries on games: finding one (locked), opening one, storing its status, and its state (the
snapshot beside the log)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from sqlalchemy import bindparam
from sqlmodel import col, select, update

from bot.store.core import CHANNEL_LOCK, StaleVersion, TxCore
from bot.store.rows import LIVE, GameRow, SnapshotRow

# The statements every command runs, built once.
# Each lookup of a game twice: locked (FOR UPDATE on PostgreSQL) for a writing transaction, plain for a reading one.
_LIVE_GAME_READ = select(GameRow).where(GameRow.guild_id == bindparam("guild"),
                                        GameRow.channel_id == bindparam("channel"), col(GameRow.status).in_(LIVE))
_LIVE_GAME = _LIVE_GAME_READ.with_for_update().limit(1)
_LIVE_GAME_READ = _LIVE_GAME_READ.limit(1)
_GAME_READ = select(GameRow).where(GameRow.id == bindparam("game"))
_GAME = _GAME_READ.with_for_update()
_SNAPSHOT = select(SnapshotRow).where(SnapshotRow.game_id == bindparam("game"))
_SAVE_GAME = update(GameRow).where(col(GameRow.id) == bindparam("key_"), col(GameRow.version) == bindparam("expected_"))


class GameQueries(TxCore):
    """Games and their snapshots."""

    def live_game(self, guild_id: str, channel_id: str, *, claim: bool = False) -> GameRow | None:
        """The lobby or running game of a channel, locked for a writing transaction; claim: the channel itself too,
        even when it has no game (PostgreSQL: an advisory lock, so that a second `new` waits and then finds the
        first's)."""
        if claim:
            self._lock(CHANNEL_LOCK, f"{guild_id}/{channel_id}")
        return self._row(_LIVE_GAME_READ if self.reading else _LIVE_GAME, {"guild": guild_id, "channel": channel_id})

    def game(self, game_id: int) -> GameRow | None:
        """A game by id, locked for a writing transaction."""
        return self._row(_GAME_READ if self.reading else _GAME, {"game": game_id})

    def latest_game(self, guild_id: str, channel_id: str, status: str) -> GameRow | None:
        """The most recent game of a channel with this status."""
        return self._row(select(GameRow).where(GameRow.guild_id == guild_id, GameRow.channel_id == channel_id,
                                               GameRow.status == status).order_by(col(GameRow.id).desc()).limit(1))

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every game, or those with one status."""
        query = select(GameRow).order_by(col(GameRow.id))
        return self._rows(query.where(GameRow.status == status) if status else query)

    def add_game(self, row: GameRow) -> GameRow:
        """Insert a new game and return it with its id."""
        return self.add_rows([row])[0]

    def set_status(self, game: GameRow, status: str) -> None:
        """Change a game's status (and store whatever else of its row changed: options, host); raises StaleVersion
        if its stored version is no longer the one this transaction read."""
        game.status = status
        game.updated_at = self.now()
        self._save_game(game, game.version)

    def save_state(self, game: GameRow, state: Callable[[], str]) -> None:
        """Advance a game's version, store its row and its new state (state() gives its JSON text, the engine's
        to_json_text); raises StaleVersion if the stored version is no longer the one this transaction read."""
        assert game.id is not None
        expected = game.version
        game.version += 1
        game.updated_at = self.now()
        self._save_game(game, expected)
        snapshot = SnapshotRow(game_id=game.id, version=game.version, state=state())
        if not self._save(snapshot):
            self.add_rows([snapshot])

    def snapshot(self, game_id: int) -> dict[str, Any] | None:
        """The stored current state of a game."""
        row = self._row(_SNAPSHOT, {"game": game_id})
        return dict(orjson.loads(row.state)) if row else None

    def _save_game(self, game: GameRow, expected: int) -> None:
        """Write a game row back if the stored version is still `expected`, else raise StaleVersion (the optimistic
        check behind the locks)."""
        if not self._save(game, _SAVE_GAME, key_=game.id, expected_=expected):
            raise StaleVersion(f"game {game.id} is no longer at version {expected}")
