"""A transaction's queries on seats: who sits where at a game, clockwise."""

from __future__ import annotations

from sqlalchemy import bindparam
from sqlmodel import col, delete, select

from bot.store.core import TxCore
from bot.store.rows import SeatRow

_SEATS = select(SeatRow).where(SeatRow.game_id == bindparam("game")).order_by(col(SeatRow.seat))  # built once


class SeatQueries(TxCore):
    """A game's seats."""

    def seats(self, game_id: int) -> list[SeatRow]:
        """A game's seats in clockwise order."""
        return self._rows(_SEATS, {"game": game_id})

    def add_seat(self, game_id: int, user_id: str, name: str) -> SeatRow:
        """Seat a player at the next free seat."""
        return self.add_rows([SeatRow(game_id=game_id, seat=len(self.seats(game_id)), user_id=user_id, name=name)])[0]

    def remove_seat(self, game_id: int, user_id: str) -> None:
        """Take a player out of a lobby and close the gap in the seat numbers."""
        self._write(delete(SeatRow).where(col(SeatRow.game_id) == game_id, col(SeatRow.user_id) == user_id))
        for i, row in enumerate(self.seats(game_id)):
            if row.seat != i:
                row.seat = i
                self._save(row)

    def reassign_seat(self, seat: SeatRow, user_id: str, name: str) -> None:
        """Give a seat to another person."""
        seat.user_id, seat.name = user_id, name
        self._save(seat)
