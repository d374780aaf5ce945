"""Fixtures of the bot tests (defined in tests/bot/helpers.py)."""

from tests.bot.helpers import db_path, invited, started, table

__all__ = ["db_path", "invited", "started", "table"]
