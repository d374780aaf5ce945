"""A transaction's queries on seats: who sits where at a game, clockwise."""

from __future__ import annotations

from sqlmodel import col, delete, select, update

from bot.store.core import TxCore
from bot.store.rows import SeatRow, columns


class SeatQueries(TxCore):
    """A game's seats."""

    def seats(self, game_id: int) -> list[SeatRow]:
        """A game's seats in clockwise order."""
        return self._rows(select(SeatRow).where(SeatRow.game_id == game_id).order_by(col(SeatRow.seat)))

    def add_seat(self, game_id: int, user_id: str, name: str) -> SeatRow:
        """Seat a player at the next free seat."""
        return self._insert([SeatRow(game_id=game_id, seat=len(self.seats(game_id)), user_id=user_id, name=name)])[0]

    def remove_seat(self, game_id: int, user_id: str) -> None:
        """Take a player out of a lobby and close the gap in the seat numbers."""
        self._write(delete(SeatRow).where(col(SeatRow.game_id) == game_id, col(SeatRow.user_id) == user_id))
        for i, row in enumerate(self.seats(game_id)):
            if row.seat != i:
                row.seat = i
                self._save_seat(row)

    def reassign_seat(self, seat: SeatRow, user_id: str, name: str) -> None:
        """Give a seat to another person."""
        seat.user_id, seat.name = user_id, name
        self._save_seat(seat)

    def _save_seat(self, row: SeatRow) -> None:
        """Write a seat row back."""
        self._write(update(SeatRow).where(col(SeatRow.id) == row.id), columns(row))
