"""A transaction's queries on the action log, the truth that replays to a game's state."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam
from sqlmodel import col, func, select, update

from bot.store.core import TxCore
from bot.store.rows import ActionRow, GameRow


@dataclass(frozen=True)
class Since:
    """A seat's part of the log since its own last move (Tx.actions_since): the newest rows, oldest first; how many
    there are in all; whether the seat has a move of its own in the log at all."""

    rows: list[ActionRow]
    total: int
    acted: bool


_LAST_SEQ = select(func.max(ActionRow.seq)).where(ActionRow.game_id == bindparam("game"))  # built once


class LogQueries(TxCore):
    """A game's action log."""

    def actions(self, game_id: int, *, include_undone: bool = False) -> list[ActionRow]:
        """A game's action log in order."""
        query = select(ActionRow).where(ActionRow.game_id == game_id).order_by(col(ActionRow.seq))
        return self._rows(query if include_undone else query.where(col(ActionRow.undone).is_(False)))

    def actions_since(self, game_id: int, seat: int, limit: int, not_by: tuple[str, str]) -> Since:
        """The live actions after a seat's own last live action (all of them if it has not acted): the newest
        `limit`, oldest first, and how many in all. An action of the seat by one of the authors not_by (the
        stand-in, a timeout) does not count as its own."""
        live = (ActionRow.game_id == game_id, col(ActionRow.undone).is_(False))
        own = self._value(select(func.max(ActionRow.seq)).where(
            *live, ActionRow.seat == seat, col(ActionRow.author_id).not_in(not_by))) or 0
        after = (*live, ActionRow.seq > own)
        total = self._value(select(func.count()).select_from(ActionRow).where(*after))
        rows = self._rows(select(ActionRow).where(*after).order_by(col(ActionRow.seq).desc()).limit(limit))
        return Since(rows[::-1], total, acted=own > 0)

    def recent_actions(self, game_id: int, limit: int) -> list[ActionRow]:
        """The last few live actions, oldest first."""
        query = (select(ActionRow).where(ActionRow.game_id == game_id, col(ActionRow.undone).is_(False))
                 .order_by(col(ActionRow.seq).desc()).limit(limit))
        return self._rows(query)[::-1]

    def append_action(self, game: GameRow, seat: int, author_id: str, notation: str, summary: str) -> None:
        """Append an accepted action to the log, stamped with the version it applied to."""
        assert game.id is not None
        self.add_rows([ActionRow(game_id=game.id, seq=self.action_count(game.id) + 1, seat=seat, author_id=author_id,
                                notation=notation, summary=summary, version=game.version, at=self.now())])

    def action_count(self, game_id: int) -> int:
        """How many actions a game's log holds (undone ones included): a number that grows with every action."""
        return self._value(_LAST_SEQ, {"game": game_id}) or 0

    def mark_undone(self, row: ActionRow) -> None:
        """Take an action out of the live log (kept for the record)."""
        row.undone = True
        self._write(update(ActionRow).where(col(ActionRow.id) == row.id).values(undone=True))
