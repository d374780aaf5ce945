"""A transaction's queries on prompts: the open decisions of a game's seats, with their deadlines."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import bindparam
from sqlmodel import col, select, text
from sqlmodel.sql.expression import Select

from bot.store.core import TxCore
from bot.store.rows import OPEN, GameRow, PromptRow, ShardSet

# The statements every command runs, built once.
_OPEN = select(PromptRow).where(PromptRow.game_id == bindparam("game"), PromptRow.status == "open")
_OPEN_PROMPTS = _OPEN.order_by(col(PromptRow.id))
_OPEN_OF_KIND = _OPEN.where(PromptRow.kind == bindparam("kind")).order_by(col(PromptRow.id))
_PROMPT = select(PromptRow).where(PromptRow.id == bindparam("prompt"))


def due_games(moment: datetime) -> Select[int | None, str]:
    """The id and server of each game with an open prompt whose deadline has passed (the partial index's condition as
    written, in a subquery: as a join, SQLite's planner scanned another index)."""
    due = select(PromptRow.game_id).where(text(OPEN), PromptRow.deadline <= moment)
    return select(GameRow.id, GameRow.guild_id).where(col(GameRow.id).in_(due))


class PromptQueries(TxCore):
    """A game's open decisions."""

    def open_prompts(self, game_id: int, kind: str | None = None) -> list[PromptRow]:
        """A game's open prompts (of one kind, or all), oldest first."""
        if kind:
            return self._rows(_OPEN_OF_KIND, {"game": game_id, "kind": kind})
        return self._rows(_OPEN_PROMPTS, {"game": game_id})

    def prompt(self, prompt_id: int) -> PromptRow | None:
        """A prompt by id, read (on PostgreSQL) once its game is locked for this transaction: a command in flight on
        the game has committed by then, and what it did to the prompt is seen."""
        if not self.sqlite and not self.reading:
            game_id = select(PromptRow.game_id).where(PromptRow.id == prompt_id).scalar_subquery()
            self.connection.execute(select(GameRow.id).where(GameRow.id == game_id).with_for_update())
        return self._row(_PROMPT, {"prompt": prompt_id})

    def add_prompt(self, row: PromptRow) -> PromptRow:
        """Open a prompt."""
        return self.add_rows([row])[0]

    def save_prompt(self, row: PromptRow) -> None:
        """Store a changed prompt."""
        self._save(row)

    def due_game_ids(self, moment: datetime, shards: ShardSet | None = None) -> list[int]:
        """Games (on these shards, or anywhere) with an open prompt whose deadline has passed."""
        found = self.connection.execute(due_games(moment)).all()
        return sorted(game_id for game_id, guild_id in found
                      if game_id is not None and (shards is None or shards.covers(guild_id)))
