"""A transaction's queries on what Keywood keeps of users and servers: a user's DMs, a server's settings."""

from __future__ import annotations

from sqlmodel import select

from bot.store.core import RECIPIENT_LOCK, SETTINGS_LOCK, TxCore
from bot.store.rows import GuildSettingsRow, RecipientRow


class SettingsQueries(TxCore):
    """Users' DM records and servers' settings."""

    def recipient(self, user_id: str) -> RecipientRow:
        """What is known of a user's DMs (a blank record when nothing is), locked for a writing transaction."""
        self._lock(RECIPIENT_LOCK, user_id)
        found = self._row(select(RecipientRow).where(RecipientRow.user_id == user_id))
        return found or RecipientRow(user_id=user_id)

    def save_recipient(self, row: RecipientRow) -> None:
        """Store what is known of a user's DMs."""
        self._save_by_key(row)

    def settings(self, guild_id: str, decision_minutes: int = 720, reminder_hours: int = 24) -> GuildSettingsRow:
        """A server's settings (the given defaults when it has none), locked for this transaction."""
        self._lock(SETTINGS_LOCK, guild_id)
        return self._row(select(GuildSettingsRow).where(GuildSettingsRow.guild_id == guild_id)) or GuildSettingsRow(
            guild_id=guild_id, decision_minutes=decision_minutes, reminder_hours=reminder_hours)

    def save_settings(self, row: GuildSettingsRow) -> None:
        """Store a server's settings."""
        self._save_by_key(row)
