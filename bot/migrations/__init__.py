"""Keywood's Alembic migrations, run in code by bot/migrate.py (no alembic.ini)."""
